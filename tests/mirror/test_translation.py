"""The translator keeps Lean's semantics: types of arithmetic trees, junk values, unfolding."""

from __future__ import annotations

import ast

import numpy as np
import pytest
import sympy as sp

from bridge.declaration import Declaration
from bridge.parser import parse_term
from bridge.term import Binder
from mirror.translate import vocabulary as V
from mirror.translate.codegen import print_property, python_identifier
from mirror.evaluate.runtime import MpRuntime, NumpyRuntime
from mirror.translate.translation import Translator, Unbound, UnknownConstant, Untranslatable


def _binders(spec: str) -> tuple[Binder, ...]:
    """``"i j : ℕ; x : ℝ"`` → binders (parsed types)."""
    out = []
    for group in spec.split(";"):
        if not group.strip():
            continue
        names, ty = group.split(":", 1)
        for name in names.split():
            out.append(Binder(name, parse_term(ty.strip())))
    return tuple(out)


def theorem(statement: str, binders: str = "", name: str = "t") -> Declaration:
    bs = _binders(binders)
    locals_ = {b.name for b in bs}
    return Declaration(name=name, kind="theorem", module="M", binders=bs,
                       type=parse_term(statement, locals=locals_))


def definition(name: str, binders: str, ty: str, value: str) -> Declaration:
    bs = _binders(binders)
    locals_ = {b.name for b in bs}
    return Declaration(name=name, kind="def", module="M", binders=bs,
                       type=parse_term(ty, locals=locals_),
                       value=parse_term(value, locals=locals_))


def conclusion(statement: str, binders: str = "", defs: tuple = ()) -> sp.Basic:
    decls = {d.name: d for d in defs}
    return Translator(decls).translate_statement(theorem(statement, binders)).conclusion


def evaluate(statement: str, binders: str, values: dict, defs: tuple = ()) -> bool:
    """Evaluate a translated statement at one point in float64 and in mpmath; both must agree."""
    decls = {d.name: d for d in defs}
    translated = Translator(decls).translate_statement(theorem(statement, binders))
    source = print_property(translated)
    namespace: dict = {}
    exec(compile(source.source, "<test>", "exec"), {"__builtins__": {}}, namespace)
    fn = namespace[source.function_name]
    args = {source.parameters[k]: np.asarray([v]) for k, v in values.items()}
    _, concl = fn(NumpyRuntime(1, 8), **args)
    mp = MpRuntime(8)
    _, exact = fn(mp, **{k: mp.lift(v) for k, v in args.items()})
    assert bool(concl.ok[0] or concl.exact[0]) == bool(exact.ok[0] or exact.exact[0])
    return bool(concl.ok[0] or concl.exact[0])


# ---- types of arithmetic trees (Lean's binop%) ------------------------------------------------


def test_nat_subtraction_truncates_but_an_expected_real_type_does_not():
    assert conclusion("i - j = 0", "i j : ℕ").has(V.NatSub)
    assert not conclusion("(i - j : ℝ) = 0", "i j : ℕ").has(V.NatSub)
    assert conclusion("((i - j : ℕ) : ℝ) = 0", "i j : ℕ").has(V.NatSub)
    assert not conclusion("(i : ℝ) - j = 0", "i j : ℕ").has(V.NatSub)


def test_an_untyped_binder_takes_the_type_unification_gives_it():
    """`∃ r, ∀ i, a i = r * b i` over real `a b` (a PFR lemma) quantifies over ℝ, as Lean
    elaborates it: it used to default to ℕ, a stronger claim that came out refuted."""
    # an ∃ over ℝ/ℤ is a search among candidate witnesses of that type (a truncated ∃: a
    # witness proves it, none refutes nothing); the candidates show the type unification gave
    real = conclusion("∃ r, ∀ i, a i = r * b i", "a b : Fin 3 → ℝ")
    assert real.has(V.FinExists) and sp.Rational(1, 2) in real.atoms(sp.Rational)
    # nothing but numerals and ℕ leaves: ℕ, Lean's default, searched over ℕ itself
    natural = conclusion("∃ k, k * 2 = n", "n : ℕ")
    assert natural.has(V.FinExists) and not natural.has(V.LeanIte)
    # an integer leaf makes it an integer: negative candidates, no fractions
    integer = conclusion("∃ k, k * 2 = z", "z : ℤ")
    candidates = integer.atoms(sp.Rational)
    assert sp.Integer(-1) in candidates and all(c.is_integer for c in candidates)


def test_division_is_chosen_by_type():
    assert conclusion("a / b = 0", "a b : ℕ").has(V.NatDiv)
    assert conclusion("x / y = 0", "x y : ℝ").has(V.LeanDiv)
    assert conclusion("a / b = 0", "a b : ℤ").has(V.IntDiv)


# ---- junk values: each assertion fails if the junk value is dropped ---------------------------


def test_division_by_zero_is_zero():
    assert evaluate("x / 0 = 0", "x : ℝ", {"x": 3.5})
    assert not evaluate("x / 0 = 1", "x : ℝ", {"x": 3.5})
    assert conclusion("x / 0 = 0", "x : ℝ") is sp.true


def test_nat_subtraction_truncates_at_zero():
    assert evaluate("a - b = 0", "a b : ℕ", {"a": 2, "b": 5})
    assert not evaluate("a - b + b = a", "a b : ℕ", {"a": 2, "b": 5})
    assert evaluate("a - b + b = a", "a b : ℕ", {"a": 5, "b": 2})


def test_log_of_zero_is_zero_and_log_is_even():
    assert evaluate("Real.log x = 0", "x : ℝ", {"x": 0.0})
    assert evaluate("Real.log (x * x) = 2 * Real.log x", "x : ℝ", {"x": -3.0})
    assert evaluate("Real.log (x * x) = 2 * Real.log x", "x : ℝ", {"x": 0.0})


def test_sqrt_of_a_negative_is_zero():
    assert evaluate("Real.sqrt x = 0", "x : ℝ", {"x": -4.0})
    assert not evaluate("Real.sqrt x = 0", "x : ℝ", {"x": 4.0})


def test_rpow_of_a_negative_base_follows_lean():
    # Real.rpow (-8) (1/3) = exp (log 8 / 3) * cos (π / 3) = 1, not the real cube root -2
    assert evaluate("Real.rpow x (1 / 3) = 1", "x : ℝ", {"x": -8.0})
    assert not evaluate("Real.rpow x (1 / 3) = -2", "x : ℝ", {"x": -8.0})
    assert evaluate("Real.rpow x y = 1", "x y : ℝ", {"x": 0.0, "y": 0.0})
    assert evaluate("Real.rpow x y = 0", "x y : ℝ", {"x": 0.0, "y": 2.5})


def test_range_and_ico_are_half_open():
    assert evaluate("∑ k ∈ Finset.range n, (1 : ℕ) = n", "n : ℕ", {"n": 4})
    assert evaluate("∑ k ∈ Finset.Ico a b, (1 : ℕ) = b - a", "a b : ℕ", {"a": 2, "b": 6})
    assert evaluate("∑ k ∈ Finset.Ico a b, (1 : ℕ) = 0", "a b : ℕ", {"a": 6, "b": 2})


def test_fin_arithmetic_wraps():
    assert evaluate("i + 1 = 0", "n : ℕ; i : Fin 3", {"n": 3, "i": 2})


# ---- definitions are unfolded ------------------------------------------------------------------


def test_definitions_are_unfolded_with_implicit_dimensions():
    norm = definition("sumsq", "x : ℕ → ℝ; n : ℕ", "ℝ", "∑ i ∈ Finset.range n, x i ^ 2")
    concl = conclusion("0 ≤ sumsq x n", "x : ℕ → ℝ; n : ℕ", (norm,))
    assert concl.has(V.FinSum)
    assert evaluate("0 ≤ sumsq x n", "x : ℕ → ℝ; n : ℕ",
                    {"x": np.arange(8.0) - 4, "n": 5}, (norm,))


def test_structural_recursion_on_nat_is_unfolded():
    decl = Declaration(
        name="tri", kind="def", module="M", binders=(), type=parse_term("ℕ → ℕ"),
        equations=(),
    )
    from bridge.scanner import scan_file

    decls, diags = scan_file(
        "x.lean", "M",
        "def tri : ℕ → ℕ\n  | 0 => 0\n  | n + 1 => tri n + (n + 1)\n"
        "theorem tri_formula (n : ℕ) : 2 * tri n = n * (n + 1) := sorry\n",
    )
    assert not [d for d in diags if d.severity == "error"]
    by_name = {d.name: d for d in decls}
    assert decl.name in by_name
    statement = Translator(by_name).translate_statement(by_name["tri_formula"])
    assert statement.conclusion.has(V.Recursion)
    source = print_property(statement)
    namespace: dict = {}
    exec(compile(source.source, "<test>", "exec"), {"__builtins__": {}}, namespace)
    fn = namespace[source.function_name]
    rt = NumpyRuntime(4, 8)
    _, concl = fn(rt, v_n=np.array([0, 1, 5, 7]))
    assert concl.exact.all()


# ---- strictness and safety -----------------------------------------------------------------------


def test_an_unknown_constant_is_named():
    with pytest.raises(UnknownConstant) as info:
        conclusion("Foo.bar x = 0", "x : ℝ")
    assert "Foo.bar" in str(info.value)


def test_a_definition_without_body_is_unbound():
    opaque = Declaration(name="secret", kind="opaque", module="M",
                         binders=_binders("x : ℝ"), type=parse_term("ℝ"))
    with pytest.raises(Unbound):
        conclusion("secret x = 0", "x : ℝ", (opaque,))


def test_untranslatable_constructs_say_which():
    with pytest.raises(Untranslatable) as info:
        conclusion("x = 0 ∨ ∀ y : ℝ, y ≤ x", "x : ℝ")
    assert "quantifier" in str(info.value)


def test_a_polynomial_identity_is_its_coefficients():
    # ∀ y : ℝ, y = x is false for every x (the coefficient of y is 1)
    assert conclusion("x = 0 ∨ ∀ y : ℝ, y = x", "x : ℝ") == conclusion("x = 0", "x : ℝ")


def test_a_lean_identifier_can_never_inject_python():
    hostile = "x); __import__('os').system('echo pwned'); (y"
    ident = python_identifier(hostile)
    assert ident.isidentifier()
    assert "(" not in ident and "'" not in ident
    decl = Declaration(
        name="evil", kind="theorem", module="M",
        binders=(Binder(hostile, parse_term("ℝ")),),
        # a statement sympy cannot fold away, so the name must reach the generated body
        type=parse_term("«" + hostile + "» ≤ 2", locals={hostile}),
    )
    source = print_property(Translator({}).translate_statement(decl)).source
    tree = ast.parse(source)  # well-formed Python
    (function,) = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert [a.arg for a in function.args.kwonlyargs] == [ident]
    names = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)}
    assert ident in names  # the sanitized name is what the body uses
    assert names <= {"rt", ident, "hypotheses", "conclusion"}
    calls = [n.func for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert calls and all(
        isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "rt"
        for f in calls
    )
    assert "__import__" not in source.replace(ident, "")
