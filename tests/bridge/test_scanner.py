"""The source scanner on the fixture projects (old and new syntax) and on small sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge import term as T
from bridge.declaration import Declaration
from bridge.scanner import scan_file, scan_project
from bridge.term import App, Const, Lit, Var, app


def by_name(path: Path) -> dict[str, Declaration]:
    return scan_project(path).by_name()


def binder_names(decl: Declaration) -> list[tuple[str, str]]:
    return [(b.name, b.info) for b in decl.binders]


def test_new_syntax_names_and_kinds(new_project: Path) -> None:
    decls = by_name(new_project)
    expected_kinds = {
        "NewSyn.softplus": "def",
        "NewSyn.total": "def",
        "NewSyn.total_def": "theorem",
        "NewSyn.sum_range_id": "theorem",
        "NewSyn.exp_pos'": "theorem",
        "NewSyn.sq_nonneg'": "theorem",  # lemma → theorem
        "NewSyn.abs_le_of_sq": "theorem",
        "NewSyn.Point": "structure",
        "NewSyn.Shape": "inductive",
        "NewSyn.instInhabitedPoint": "instance",
        "NewSyn.Vec": "abbrev",
        "NewSyn.fib": "def",
        "NewSyn.«one plus one»": "theorem",
        "NewSyn.Point.ext'": "theorem",
        "NewSyn.Broken.good_one": "theorem",
        "NewSyn.Broken.broken_one": "theorem",
        "NewSyn.Broken.good_two": "theorem",
    }
    for name, kind in expected_kinds.items():
        assert decls[name].kind == kind, name
    assert decls["NewSyn.softplus"].modifiers == ("noncomputable",)
    assert decls["NewSyn.«one plus one»"].modifiers == ("private",)
    assert decls["NewSyn.Point.ext'"].modifiers == ("protected",)
    assert decls["NewSyn.total_def"].attributes == ("simp",)
    assert decls["NewSyn.total"].docstring == "The total weight."
    assert decls["NewSyn.exp_pos'"].docstring == "`exp` is positive."
    assert decls["NewSyn.softplus"].module == "NewSyn.Basic"


def test_variables_included_exactly_when_used(new_project: Path) -> None:
    decls = by_name(new_project)
    # `variable {n : ℕ} (w : Fin n → ℝ)`: w is used, and n because w's type mentions it
    assert binder_names(decls["NewSyn.total"]) == [("n", "implicit"), ("w", "default")]
    assert binder_names(decls["NewSyn.total_def"]) == [("n", "implicit"), ("w", "default")]
    assert binder_names(decls["NewSyn.weighted"]) == [("n", "implicit"), ("w", "default"), ("hw", "default")]
    assert binder_names(decls["NewSyn.sum_range_id"]) == [("m", "default")]
    assert binder_names(decls["NewSyn.exp_pos'"]) == [("x", "default")]
    # pattern variable `n` of `fib` is not the section variable `n`
    assert binder_names(decls["NewSyn.fib"]) == []


def test_instance_binder_variables(old_project: Path) -> None:
    decls = by_name(old_project)
    card = decls["OldSyn.card_sum_old"]
    assert [b.name for b in card.binders] == ["α", "_", "f"]
    assert card.binders[1].info == "instImplicit"
    assert card.binders[1].type == App(Const("Fintype"), (Var("α"),))
    assert decls["OldSyn.no_vars_old"].binders == ()


def test_statuses(new_project: Path) -> None:
    decls = by_name(new_project)
    assert decls["NewSyn.sum_range_id"].lean_status == "stated"
    assert decls["NewSyn.softplus_pos"].lean_status == "stated"
    assert decls["NewSyn.exp_pos'"].lean_status == "unchecked"
    assert all(d.lean_status != "proved" for d in decls.values())
    assert all(d.method == "scanner" for d in decls.values())


def test_open_resolves_names(new_project: Path, old_project: Path) -> None:
    new = by_name(new_project)
    exp_pos = new["NewSyn.exp_pos'"]
    assert exp_pos.type == app("LT.lt", Lit(0), App(Const("Real.exp"), (Var("x"),)))
    # `open Finset`: `range` → Finset.range
    assert "Finset.range" in T.constants(new["NewSyn.sum_range_id"].type)
    # namespace resolution: `total` inside `namespace NewSyn` → NewSyn.total
    assert "NewSyn.total" in T.constants(new["NewSyn.total_def"].type)
    old = by_name(old_project)
    assert old["OldSyn.pi_pos_old"].type == app("LT.lt", Lit(0), Const("Real.pi"))
    assert "Real.exp" in T.constants(old["OldSyn.lam_old"].type)


def test_open_in_is_scoped_to_one_command() -> None:
    src = "open Real in\ntheorem a (x : ℝ) : exp x = exp x := rfl\n\ntheorem b (x : ℝ) : exp x = exp x := rfl\n"
    decls, diags = scan_file("T.lean", "T", text=src)
    assert not diags
    assert "Real.exp" in T.constants(decls[0].type)
    assert "exp" in T.constants(decls[1].type) and "Real.exp" not in T.constants(decls[1].type)


def test_old_and_new_syntax_give_the_same_ast(old_project: Path) -> None:
    old = by_name(old_project)["OldSyn.sum_const_old"]
    src = "namespace OldSyn\ntheorem sum_const_old (n : ℕ) (c : ℝ) : ∑ i ∈ Finset.range n, c = n * c := by\n  simp\nend OldSyn\n"
    new, diags = scan_file("New.lean", "New", text=src)
    assert not diags
    assert new[0].statement == old.statement


def test_pattern_matching_equations(new_project: Path) -> None:
    fib = by_name(new_project)["NewSyn.fib"]
    pats = [eq.patterns for eq in fib.equations]
    assert pats == [(Lit(0),), (Lit(1),), (app("HAdd.hAdd", Var("n"), Lit(2)),)]
    assert fib.equations[2].rhs == app(
        "HAdd.hAdd",
        App(Const("NewSyn.fib"), (Var("n"),)),
        App(Const("NewSyn.fib"), (app("HAdd.hAdd", Var("n"), Lit(1)),)),
    )


def test_wildcard_pattern_and_value() -> None:
    src = "def g : ℕ → ℕ\n  | 0 => 1\n  | _ => 2\n\ndef h (x : ℕ) : ℕ := x + 1\n"
    decls, diags = scan_file("G.lean", "G", text=src)
    assert not diags
    g, h = decls
    assert g.equations[1].patterns == (T.Hole("_"),)
    assert h.value == app("HAdd.hAdd", Var("x"), Lit(1))


def test_broken_declaration_is_located_and_others_extracted(new_project: Path) -> None:
    extraction = scan_project(new_project)
    decls = extraction.by_name()
    broken = decls["NewSyn.Broken.broken_one"]
    assert broken.type is None
    assert decls["NewSyn.Broken.good_one"].type is not None
    assert decls["NewSyn.Broken.good_two"].type is not None
    diags = [d for d in extraction.diagnostics if d.severity == "error"]
    assert len(diags) == 1
    diag = diags[0]
    assert diag.file.endswith("Broken.lean") and diag.line == 5 and diag.column == 34
    assert diag.expected == "a term"
    assert "broken_one" in diag.message


def test_ranges_and_texts(new_project: Path) -> None:
    decl = by_name(new_project)["NewSyn.Broken.good_one"]
    assert decl.range is not None and decl.range.line == 3 and decl.range.column == 1
    assert decl.statement_text == "theorem good_one (x : ℕ) : x + 0 = x"
    assert decl.proof_text == ":= rfl"


def test_mutual_section_end_and_comments() -> None:
    src = (
        "namespace A\nsection S\nmutual\n  def even : ℕ → Bool\n    | 0 => true\n    | n + 1 => odd n\n"
        "  def odd : ℕ → Bool\n    | 0 => false\n    | n + 1 => even n\nend\nend S\n"
        "/- theorem hidden : False := sorry -/\n#eval 1 + 1\n#check A.even\n"
        "example : 1 = 1 := rfl\nend A\n"
    )
    decls, diags = scan_file("M.lean", "M", text=src)
    assert not diags
    assert [d.name for d in decls] == ["A.even", "A.odd"]
    assert decls[0].equations[1].rhs == App(Const("A.odd"), (Var("n"),))


def test_unbalanced_end_is_a_diagnostic() -> None:
    decls, diags = scan_file("E.lean", "E", text="end Foo\ntheorem t : True := trivial\n")
    assert [d.name for d in decls] == ["t"]
    assert diags and diags[0].line == 1


def test_invalid_utf8_is_a_diagnostic() -> None:
    data = "theorem a : True := trivial\n".encode() + b"\xff\xfe\n" + "theorem b : True := trivial\n".encode()
    decls, diags = scan_file("U.lean", "U", text=data)
    assert [d.name for d in decls] == ["a", "b"]
    assert any("UTF-8" in d.message and d.line == 2 for d in diags)


def test_nothing_is_evaluated(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    src = f'#eval IO.FS.writeFile "{marker}" "x"\ntheorem t : True := trivial\n'
    decls, _ = scan_file("X.lean", "X", text=src)
    assert [d.name for d in decls] == ["t"] and not marker.exists()


def test_scan_file_reads_path(tmp_path: Path) -> None:
    file = tmp_path / "F.lean"
    file.write_text("theorem t (x : ℕ) : x = x := rfl\n", encoding="utf-8")
    decls, diags = scan_file(file, "F")
    assert decls[0].name == "t" and not diags


LEAN_DIR = Path(__file__).resolve().parents[2]


def test_bundled_lean_sources_parse_without_diagnostics() -> None:
    extraction = scan_project(LEAN_DIR)
    assert extraction.declarations
    assert [str(d) for d in extraction.diagnostics] == []
    assert all(d.type is not None for d in extraction.declarations if d.kind == "theorem")


def test_section_instances_stay_beside_an_anonymous_instance_of_the_statement() -> None:
    # Mathlib's `div_pos` (Algebra/Order/GroupWithZero/Unbundled.lean): its own `[PosMulStrictMono
    # G₀]` is named `_`, which once hid every anonymous section instance, so `G₀ := ℤ` was tried
    src = ("variable {G₀ : Type*} [GroupWithZero G₀] [PartialOrder G₀] {a b : G₀}\n"
           "lemma div_pos [PosMulStrictMono G₀] (ha : 0 < a) (hb : 0 < b) : 0 < a / b := by\n"
           "  exact foo\n")
    decls, diags = scan_file("U.lean", "U", text=src)
    classes = [b.type.fn.name for b in decls[0].binders if b.info == "instImplicit"]
    assert classes == ["GroupWithZero", "PartialOrder", "PosMulStrictMono"]
