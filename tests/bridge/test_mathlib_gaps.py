"""Notation and syntax found missing on real projects (PFR, FormalBook): each parses to the
constant Lean elaborates it to, with Lean's scopes and precedences."""

from __future__ import annotations

from bridge.lexer import tokenize
from bridge.scanner import scan_file
from bridge.term import App, Binder, Const, Lam, Let, Lit, Pi, Typed, Var, app


def scan(text: str):
    decls, diags = scan_file("T.lean", "T", text=text)
    return {d.name: d for d in decls}, [d for d in diags if d.severity == "error"]


def statement(text: str, name: str = "t"):
    decls, errors = scan(text)
    assert errors == [], errors
    return decls[name].type


def test_top_bottom_and_ennreal_infinity() -> None:
    assert statement("theorem t (s : Set ℕ) : s ≤ ⊤ ∧ ⊥ ≤ s := sorry") == app(
        "And", app("LE.le", Var("s"), Const("Top.top")), app("LE.le", Const("Bot.bot"), Var("s")))
    assert statement("open scoped ENNReal in\ntheorem t (x : ℝ≥0∞) : x ≤ ∞ := sorry") == app(
        "LE.le", Var("x"), Typed(Const("Top.top"), Const("ENNReal")))


def test_positive_naturals() -> None:
    decls, errors = scan("theorem t (n : ℕ+) : (n : ℕ) ≠ 0 := sorry")
    assert errors == [] and decls["t"].binders[0].type == Const("PNat")
    # `ℕ` alone is still Nat
    assert scan("theorem t (n : ℕ) (k : ℕ+) : n + 1 ≠ 0 := sorry")[0]["t"].binders[0].type == Const("Nat")


def test_factorial_is_scoped_in_nat_as_in_lean() -> None:
    factorial = statement("open Nat\ntheorem t (n : ℕ) : 2 * n ! ≤ (2 * n)! := sorry")
    assert factorial == app("LE.le", app("HMul.hMul", Lit(2), app("Nat.factorial", Var("n"))),
                            app("Nat.factorial", app("HMul.hMul", Lit(2), Var("n"))))
    # inside `namespace Nat` the scoped notation is active without `open Nat`
    decls, errors = scan("namespace Nat\ntheorem t (n : ℕ) : 0 < n ! := sorry\nend Nat")
    assert errors == [] and decls["Nat.t"].type == app("LT.lt", Lit(0), app("Nat.factorial", Var("n")))
    # elsewhere it is Lean's error, located at the `!` and naming the namespace
    _, errors = scan("theorem t (n : ℕ) : 0 < n ! := sorry")
    assert len(errors) == 1 and errors[0].construct == "!" and "namespace Nat" in errors[0].message
    assert (errors[0].line, errors[0].column) == (1, 27)  # at the `!`


def test_vector_literal_is_not_a_factorial() -> None:
    vector = statement("open Nat\ntheorem t (a b : ℝ) (f : (Fin 2 → ℝ) → Prop) : f ![a, b] := sorry")
    assert vector == App(Var("f"), (app("Matrix.vecCons", Var("a"),
                                         app("Matrix.vecCons", Var("b"), Const("Matrix.vecEmpty"))),))
    matrix = statement("theorem t (a b : ℝ) : !![a, b; b, a] = !![a, b; b, a] := sorry")
    row = app("Matrix.vecCons", Var("a"), app("Matrix.vecCons", Var("b"), Const("Matrix.vecEmpty")))
    assert matrix.args[0] == app("Matrix.of", app(
        "Matrix.vecCons", row, app("Matrix.vecCons", app(
            "Matrix.vecCons", Var("b"), app("Matrix.vecCons", Var("a"), Const("Matrix.vecEmpty"))),
            Const("Matrix.vecEmpty"))))


def test_pi_inside_namespace_real_without_open() -> None:
    decls, errors = scan("namespace Real\ntheorem t : 0 < π := sorry\nend Real\n"
                         "theorem u : 0 < π := sorry\n")
    assert errors == []
    assert decls["Real.t"].type == app("LT.lt", Lit(0), Const("Real.pi"))
    assert decls["u"].type == app("LT.lt", Lit(0), Const("π"))  # Lean: unknown identifier


def test_set_builder_forms() -> None:
    image = statement("theorem t (f : ℕ → ℕ) : {f x | x : ℕ} = Set.range f := sorry").args[0]
    assert image == app("setOf", Lam((Binder("y✝", None),), app(
        "Exists", Lam((Binder("x", Const("Nat")),), app("Eq", App(Var("f"), (Var("x"),)), Var("y✝"))))))
    pairs = statement("theorem t : {(x, y) | (x : ℕ) (y : ℕ)} = Set.univ := sorry").args[0]
    assert pairs.args[0].body == app("Exists", Lam((Binder("x", Const("Nat")),), app(
        "Exists", Lam((Binder("y", Const("Nat")),), app("Eq", app("Prod.mk", Var("x"), Var("y")), Var("y✝"))))))
    member = statement("theorem t (s : Set ℕ) (f : ℕ → ℕ) : {f i | i ∈ s} ⊆ Set.range f := sorry").args[0]
    assert member.args[0].body == app("Exists", Lam((Binder("i", None),), app(
        "And", app("Membership.mem", Var("s"), Var("i")), app("Eq", App(Var("f"), (Var("i"),)), Var("y✝")))))
    assert statement("theorem t : {x | 2 < x} = {x : ℕ | x > 2} := sorry") == app(
        "Eq", app("setOf", Lam((Binder("x", None),), app("LT.lt", Lit(2), Var("x")))),
        app("setOf", Lam((Binder("x", Const("Nat")),), app("GT.gt", Var("x"), Lit(2)))))
    subtype = scan("theorem t (s : Finset ℕ) (g : { x // x ∈ s } → ℕ) : True := sorry")[0]["t"]
    assert subtype.binders[1].type.binders[0].type == app(
        "Subtype", Lam((Binder("x", None),), app("Membership.mem", Var("s"), Var("x"))))


def test_measurable_equiv_quotient_and_filters() -> None:
    assert scan("theorem t (e : α ≃ᵐ β) : True := sorry")[0]["t"].binders[0].type == app(
        "MeasurableEquiv", Const("α"), Const("β"))
    assert statement("theorem t (G H : Type) : Nat.card (G ⧸ H) ≥ 0 := sorry").args[0] == app(
        "Nat.card", app("HasQuotient.Quotient", Var("G"), Var("H")))
    eventually = statement("theorem t (f : ℕ → ℝ) : ∀ᶠ n in Filter.atTop, f n ≤ f n + 1 := sorry")
    assert eventually == app("Filter.Eventually", Lam((Binder("n", None),), app(
        "LE.le", App(Var("f"), (Var("n"),)), app("HAdd.hAdd", App(Var("f"), (Var("n"),)), Lit(1)))),
        Const("Filter.atTop"))
    assert statement("theorem t (f g : ℕ → ℝ) (l : Filter ℕ) : f =ᶠ[l] g := sorry") == app(
        "Filter.EventuallyEq", Var("l"), Var("f"), Var("g"))


def test_indexed_unions_keep_their_binder_predicates_and_precedence() -> None:
    inter = statement("theorem t (s : ℕ → Set ℕ) (u : Finset ℕ) : ⋂ i ∈ u, s i ⊆ ⋃ i, s i := sorry")
    guard = app("Membership.mem", Var("u"), Var("i"))
    assert inter == app(
        "HasSubset.Subset",
        app("Set.iInter", Lam((Binder("i", None),), app(
            "Set.iInter", Lam((Binder("_", guard),), App(Var("s"), (Var("i"),)))))),
        app("Set.iUnion", Lam((Binder("i", None),), App(Var("s"), (Var("i"),)))))


def test_let_and_have_inside_a_statement() -> None:
    decls, errors = scan("theorem t (a b : ℝ) :\n    let s := a + b\n    have : 0 ≤ 1 := by norm_num\n"
                         "    s = b + a := by\n  ring\n")
    assert errors == []
    lets = decls["t"].type
    assert isinstance(lets, Let) and lets.name == "s" and lets.value == app("HAdd.hAdd", Var("a"), Var("b"))
    assert isinstance(lets.body, Let) and lets.body.name == "this"
    assert lets.body.body == app("Eq", Var("s"), app("HAdd.hAdd", Var("b"), Var("a")))


def test_absolute_value_on_the_line_after_the_colon_is_not_an_equation() -> None:
    assert statement("theorem t (x : ℝ) :\n    |x| ≥ 0 := sorry") == app("GE.ge", app("abs", Var("x")), Lit(0))
    # equations after a statement ending in a postfix notation are still equations
    decls, errors = scan("namespace Nat\ntheorem t : ∀ n, 0 < n !\n  | 0 => sorry\n  | n + 1 => sorry\nend Nat\n")
    assert errors == [] and isinstance(decls["Nat.t"].type, Pi)


def test_tactic_blocks_are_one_token_that_still_shows_sorry_and_section_hypotheses() -> None:
    tokens = tokenize("theorem a : 1 = 1 := by\n  -- sorry here is a comment\n  simp\n  rfl\ntheorem b : 2 = 2 := rfl\n")
    kinds = [t.kind for t in tokens]
    assert kinds.count("proof") == 1 and tokens[kinds.index("proof")].text == "simp\n  rfl"
    assert [t.text for t in tokens if t.kind == "ident"][-3:] == ["theorem", "b", "rfl"]
    decls, _ = scan("theorem a : 1 = 1 := by\n  -- sorry\n  rfl\ntheorem b : 1 = 1 := by\n  exact sorry\n")
    assert decls["a"].lean_status == "unchecked" and decls["b"].lean_status == "stated"
    assert (decls["a"].range.end_line, decls["a"].range.end_column) == (3, 6)
    decls, _ = scan("variable {b : ℝ} (hb : 0 < b)\ntheorem t : b ≠ 0 := by\n  have := hb.ne'\n  simpa\n")
    assert [x.name for x in decls["t"].binders] == ["b", "hb"]
    # a field's tactic default ends where the next field starts (left of its first tactic)
    tokens = tokenize("structure S where\n  x : ℕ := by\n    exact 1\n  y : ℕ\n")
    proof = next(t for t in tokens if t.kind == "proof")
    assert proof.text == "exact 1" and [t.text for t in tokens[-3:]] == ["y", ":", "ℕ"]


def test_congruences_group_equivalences_and_a_typed_integral_binder() -> None:
    assert statement("theorem t (i j p : ℤ) (h : i ≡ j [ZMOD p]) : True := sorry") == Const("True")
    decls, _ = scan("theorem t (i j p : ℤ) (h : i ≡ j [ZMOD p]) : True := sorry")
    assert decls["t"].binders[3].type == app("Int.ModEq", Var("p"), Var("i"), Var("j"))
    assert scan("theorem t (e : G ≃+ H) (f : G ≃* H) : True := sorry")[0]["t"].binders[1].type == app(
        "MulEquiv", Const("G"), Const("H"))
    integral = statement("theorem t (f : ℝ → ℝ) : ∫ (z : ℝ), f z = ∫ z, f z := sorry")
    assert integral.args[0] == app("MeasureTheory.integral", Const("MeasureTheory.MeasureSpace.volume"),
                                   Lam((Binder("z", Const("Real")),), App(Var("f"), (Var("z"),))))


def test_the_packaged_table_regenerates_from_the_excerpts_it_names() -> None:
    import importlib.util
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("mathlib_notation_tool", root / "tools" / "mathlib_notation.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    built = tool.build(root / "bridge" / "data" / "mathlib_excerpts")
    packaged = json.loads((root / "bridge" / "data" / "mathlib_notation.json").read_text(encoding="utf-8"))
    assert built == packaged
    # every excerpt names its Mathlib commit but one older excerpt (a known gap)
    assert {path for path, commit in packaged["sources"].items() if len(commit or "") != 40} == {
        "Mathlib/Probability/ConditionalProbability.lean"}
    names = {row["name"] for row in packaged["notations"]}
    assert {"⊤", "ℕ+", "!", "π", "≃ᵐ", "⧸", "∀ᶠ", "⋂", "⋃", "≃+", "≡"} <= names
