"""Notation as Lean reads it: project notation, Mathlib's table, scopes, unknown notation."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bridge.declaration import Diagnostic, Extraction
from bridge.notation import mathlib_table_data
from bridge.parser import parse_term
from bridge.scanner import scan_file, unknown_notation
from bridge.term import App, Const, Lam, Typed, Var, app

ROOT = Path(__file__).resolve().parents[2]


def scan(text: str):
    decls, diags = scan_file("T.lean", "T", text=text)
    return {d.name: d for d in decls}, [d for d in diags if d.severity == "error"]


ENTROPY = """
namespace ProbabilityTheory
def entropy (X : ℕ) (μ : ℕ) : ℕ := X + μ
def condMutualInfo (X Y Z μ : ℕ) : ℕ := X
notation3:max "H[" X "; " μ "]" => entropy X μ
notation3:max "H[" X "]" => entropy X 0
notation3:max "I[" X " : " Y "|" Z ";" μ "]" => condMutualInfo X Y Z μ
end ProbabilityTheory
open ProbabilityTheory
"""


def test_project_notation_parses_to_the_constant_it_stands_for() -> None:
    decls, errors = scan(ENTROPY + "theorem t (X μ : ℕ) : H[X ; μ] = H[X] := sorry\n"
                         "theorem u (X Y Z μ : ℕ) : I[X : Y|Z ; μ] = 0 := sorry\n")
    assert errors == []
    entropy = "ProbabilityTheory.entropy"
    assert decls["t"].type == app("Eq", app(entropy, Var("X"), Var("μ")), app(entropy, Var("X"), _lit(0)))
    mutual = app("ProbabilityTheory.condMutualInfo", Var("X"), Var("Y"), Var("Z"), Var("μ"))
    assert decls["u"].type == app("Eq", mutual, _lit(0))


def test_a_glued_notation_atom_wins_over_a_bound_name() -> None:
    # `H` is a bound name, but `H[` is one token in Lean, as in PFR's statements
    decls, errors = scan(ENTROPY + "theorem t (H X μ : ℕ) : H[X ; μ] = H := sorry\n")
    assert errors == []
    assert decls["t"].type == app("Eq", app("ProbabilityTheory.entropy", Var("X"), Var("μ")), Var("H"))


def test_infix_prefix_postfix_commands() -> None:
    decls, errors = scan(
        "def pl (a b : ℕ) : ℕ := a\ndef ng (a : ℕ) : ℕ := a\ndef bang (a : ℕ) : ℕ := a\n"
        'infixl:65 " +++ " => pl\nprefix:max "~~" => ng\npostfix:max "‼" => bang\n'
        "theorem t (a b c : ℕ) : a +++ b +++ ~~c = c‼ := sorry\n"
    )
    assert errors == []
    left = app("pl", app("pl", Var("a"), Var("b")), app("ng", Var("c")))
    assert decls["t"].type == app("Eq", left, app("bang", Var("c")))


def test_notation3_binders_from_the_mathlib_table() -> None:
    decls, errors = scan("theorem t (μ : ℕ) (p : ℕ → Prop) : ∀ᵐ x ∂μ, p x := sorry\n")
    assert errors == []
    body = decls["t"].type
    assert isinstance(body, App) and body.fn == Const("Filter.Eventually")
    lam, measure = body.args
    assert isinstance(lam, Lam) and lam.binders[0].name == "x" and lam.body == App(Var("p"), (Var("x"),))
    assert measure == app("MeasureTheory.ae", Var("μ"))


TRANSPOSE = "theorem t (A : Matrix (Fin 2) (Fin 2) ℝ) : Aᵀ = A := sorry\n"


@pytest.mark.parametrize(
    "prefix",
    ["open Matrix\n", "open scoped Matrix\n", "open Matrix in\n", "namespace Matrix\n"],
)
def test_scoped_notation_is_active_where_its_namespace_is_open(prefix: str) -> None:
    decls, errors = scan(prefix + TRANSPOSE)
    assert errors == []
    assert next(iter(decls.values())).type == app("Eq", app("Matrix.transpose", Var("A")), Var("A"))


def test_scoped_notation_without_its_namespace_is_a_located_diagnostic() -> None:
    decls, errors = scan("\n" + TRANSPOSE)
    assert decls["t"].type is None
    [error] = errors
    assert (error.line, error.column) == (2, TRANSPOSE.index("ᵀ") + 1)
    assert "scoped in namespace Matrix" in error.message and error.construct == "ᵀ"
    assert "open Matrix" in (error.expected or "")


def test_project_scoped_and_local_notation() -> None:
    text = (
        "namespace Foo\ndef op (a b : ℕ) : ℕ := a\n"
        'scoped infixl:65 " ⊞ " => op\nend Foo\n'
        "theorem closed (a b : ℕ) : a ⊞ b = a := sorry\n"
        "open Foo in\ntheorem opened (a b : ℕ) : a ⊞ b = a := sorry\n"
        "theorem before (a : ℕ) : ⋆ = a := sorry\n"
        'local notation "⋆" => (7 : ℕ)\n'
        "theorem after (a : ℕ) : ⋆ = a := sorry\n"
    )
    decls, errors = scan(text)
    assert decls["closed"].type is None and decls["before"].type is None
    assert [e.construct for e in errors] == ["⊞", "⋆"]
    assert decls["opened"].type == app("Eq", app("Foo.op", Var("a"), Var("b")), Var("a"))
    assert decls["after"].type == app("Eq", Typed(_lit(7), Const("Nat")), Var("a"))


def test_macro_rules_and_macro() -> None:
    text = (
        "local macro_rules | `($x ^ $y) => `(HPow.hPow ($x : ℝ) ($y : ℝ))\n"
        "theorem p (x y : ℕ) : x ^ y + 1 = 2 := sorry\n"
        'macro "dbl" x:term:max : term => `(2 * $x)\n'
        "theorem d (x : ℕ) : dbl x = x + x := sorry\n"
    )
    decls, errors = scan(text)
    assert errors == []
    power = app("HPow.hPow", Typed(Var("x"), Const("Real")), Typed(Var("y"), Const("Real")))
    assert decls["p"].type == app("Eq", app("HAdd.hAdd", power, _lit(1)), _lit(2))
    assert decls["d"].type == app("Eq", app("HMul.hMul", _lit(2), Var("x")), app("HAdd.hAdd", Var("x"), Var("x")))


def test_fractional_power_opens_matrix_and_the_unfixed_form_is_diagnosed() -> None:
    path = ROOT / "lean" / "Mirror" / "FractionalPower.lean"
    text = path.read_text(encoding="utf-8")
    assert "\nopen scoped Matrix\n" in text
    _, fixed = scan_file(path, "Mirror.FractionalPower", text=text)
    assert not [d for d in fixed if d.construct == "ᵀ"]
    _, unfixed = scan_file(path, "Mirror.FractionalPower", text=text.replace("\nopen scoped Matrix\n", "\n"))
    scoped = [d for d in unfixed if d.construct == "ᵀ"]
    assert scoped and all("scoped in namespace Matrix" in d.message for d in scoped)
    lines = text.replace("\nopen scoped Matrix\n", "\n").splitlines()
    assert all("ᵀ" in lines[d.line - 1] for d in scoped)


def test_parse_failures_carry_a_construct_and_are_counted() -> None:
    _, errors = scan("theorem a (f : ℕ) : f ≃ₗ f := sorry\ntheorem b (f : ℕ) : f ≃ₗ f := sorry\n"
                     "theorem c (x : ℕ) : x ⊕⊕ x := sorry\n")
    assert [e.construct for e in errors] == ["≃ₗ", "≃ₗ", "⊕⊕"]
    extraction = Extraction([], errors + [Diagnostic("F.lean", 1, 1, "w", severity="warning", construct="≃ₗ")])
    assert unknown_notation(extraction) == [("≃ₗ", 2), ("⊕⊕", 1)]
    with pytest.raises(TypeError, match="extraction must be an Extraction"):
        unknown_notation(errors)  # type: ignore[arg-type]


def test_standalone_terms_see_every_mathlib_scope() -> None:
    assert parse_term("f ⁻¹' s") == app("Set.preimage", Const("f"), Const("s"))
    assert parse_term("x ∈ f i ⁻¹' s", locals=["x", "f", "i", "s"]) == app(
        "Membership.mem", app("Set.preimage", App(Var("f"), (Var("i"),)), Var("s")), Var("x"))


def test_the_mathlib_table_records_its_sources_and_scopes() -> None:
    data = mathlib_table_data()
    assert data["generator"] == "tools/mathlib_notation.py"
    assert data["sources"] and all(path.startswith("Mathlib/") for path in data["sources"])
    scopes = {row["name"]: row["scope"] for row in data["notations"]}
    assert scopes["ᵀ"] == "Matrix" and scopes["ℝ≥0"] == "NNReal" and scopes["ℝ≥0∞"] == "ENNReal"
    assert scopes["⊗ₖ"] == "ProbabilityTheory" and scopes["→+"] is None


def test_the_generator_reads_a_directory_of_lean_files(tmp_path: Path) -> None:
    source = tmp_path / "Mathlib" / "Demo.lean"
    source.parent.mkdir()
    source.write_text(
        "-- demo file, commit 0123456789abcdef0123456789abcdef01234567\n"
        "namespace Demo\ndef twice (a : ℕ) : ℕ := a + a\n"
        'scoped postfix:max "²²" => twice\nend Demo\n'
        'notation "⟪" a "⟫" => Demo.twice a\n',
        encoding="utf-8",
    )
    out = tmp_path / "table.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "mathlib_notation.py"), str(tmp_path), "--out", str(out)],
                   check=True, capture_output=True, text=True, cwd=ROOT)
    table = json.loads(out.read_text(encoding="utf-8"))
    assert table["sources"] == {"Mathlib/Demo.lean": "0123456789abcdef0123456789abcdef01234567"}
    rows = {row["name"]: row for row in table["notations"]}
    assert rows["²²"]["scope"] == "Demo" and rows["²²"]["rhs"] == "Demo.twice"
    assert rows["⟪"]["scope"] is None and rows["⟪"]["source"] == "Mathlib/Demo.lean:6"


def test_the_generator_names_a_bad_directory(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "mathlib_notation.py"), str(tmp_path / "none")],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode != 0 and "MATHLIB_DIR" in done.stderr and "not a directory" in done.stderr


def _lit(value: int):
    from bridge.term import Lit

    return Lit(value)


def test_a_closed_scopes_name_atom_is_just_a_name() -> None:
    # as in Lean, a scoped one-name notation is no token where its namespace is closed
    decls, errors = scan(
        'namespace Foo\nscoped notation "kk" => (3 : ℕ)\nend Foo\ndef kk : ℕ := 4\n'
        "theorem a : kk = 4 := rfl\nopen Foo in\ntheorem b : kk = 3 := rfl\n"
    )
    assert errors == []
    assert decls["a"].type == app("Eq", Const("kk"), _lit(4))
    assert decls["b"].type == app("Eq", Typed(_lit(3), Const("Nat")), _lit(3))
