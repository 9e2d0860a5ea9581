"""Statement variables: injective Python names, and variables defined by equation hypotheses.

Two bugs fixed here: binders ``x'`` and ``x_p`` both became the parameter ``v_x_p`` (the
planner and the printer then disagreed and the check crashed), and an equation hypothesis
``a = a'`` was left to two independent draws (so it held only within a float tolerance, and a
"counterexample" ``a = 1e-30, a' = 0`` was reported for a kernel-proved theorem).
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings

from mirror.translate.codegen import parameter_names, print_property, python_identifier
from mirror.sample.strategies import examples, plan_statement, sample_batch
from mirror.translate.translation import Translator
from tests.mirror.test_translation import theorem

SOURCE = """
theorem primes_commute (x' x_p : ℝ) : x' + x_p = x_p + x' := by sorry
theorem primes_differ (x' x_p : ℝ) : x' - x_p = x_p - x' := by sorry
theorem both_hypotheses_kept (x : ℝ) (h' : 0 < x) (h_p : x < 1) : x * x < x := by sorry
theorem rpow_congr (a a' b c : ℝ) (h1 : a = a') (h2 : a' ^ b = c) : a ^ b = c := by sorry
theorem rpow_congr_false (a a' b c : ℝ) (h1 : a = a') (h2 : a' ^ b = c) : a ^ b = c + 1 := by sorry
theorem nat_sub_defined (x y : ℕ) (h : y = x - 3) (hx : 3 ≤ x) : y + 3 = x := by sorry
theorem nat_sub_defined_false (x y : ℕ) (h : y = x - 3) : y + 3 = x := by sorry
theorem defined_backwards (x y : ℝ) (h : x * x = y) : 0 ≤ y := by sorry
"""


@pytest.fixture(scope="module")
def verdicts(lean_verdicts):
    return lean_verdicts(SOURCE)


@pytest.mark.parametrize("name, expected", [
    ("primes_commute", ("tested", "symbolic")),
    ("primes_differ", ("refuted",)),
    ("both_hypotheses_kept", ("tested",)),
    ("rpow_congr", ("tested",)),
    ("rpow_congr_false", ("refuted",)),
    ("nat_sub_defined", ("tested",)),
    ("nat_sub_defined_false", ("refuted",)),
    ("defined_backwards", ("tested",)),
])
def test_verdicts(verdicts, name, expected):
    result = verdicts[name]
    assert result.mirror_status in expected, (result.mirror_status, result.reason,
                                              result.counterexample)


def test_a_defined_variable_is_not_rejected_by_its_hypothesis(verdicts):
    """``(h2 : a' ^ b = c)``: ``c`` is computed, so no draw is rejected for ``h2``. A draw
    the ball arithmetic leaves undecided (a negative base whose exact power sympy cannot build
    within its bound, or a decision cut short under load) is counted apart, not rejected."""
    result = verdicts["rpow_congr"]
    assert result.rejected == 0, result.method
    if result.undecided:
        assert "no precision could decide" in result.method and "not rejections" in result.method


def test_primed_and_p_suffixed_binders_get_distinct_parameters():
    assert python_identifier("x'") == python_identifier("x_p")  # readable, not injective
    statement = Translator({}).translate_statement(theorem("x' + x_p = x_p + x'", "x' x_p : ℝ"))
    names = parameter_names(statement)
    assert len(set(names.values())) == 2
    plan = plan_statement(statement)
    printed = print_property(statement)
    assert {e["name"]: e["param"] for e in plan["variables"]} == printed.parameters == names


def test_clashing_hypothesis_labels_are_all_evaluated():
    statement = Translator({}).translate_statement(
        theorem("(h' : 0 < x) → (h_p : x < 1) → x * x < x", "x : ℝ"))
    source = print_property(statement).source
    assert "rt.and_(h_h_p, h_h_p_1)" in source


def _statement(statement: str, binders: str):
    return Translator({}).translate_statement(theorem(statement, binders))


def test_equation_hypotheses_become_definitions():
    statement = _statement("(h1 : a = a') → (h2 : a' ^ b = c) → a ^ b = c", "a a' b c : ℝ")
    defs = [(d.name, d.label) for d in statement.definitions]
    assert defs == [("a'", "h1"), ("c", "h2")]
    by_name = {v.name: v.symbol for v in statement.variables}
    assert statement.definitions[0].expr == by_name["a"]
    source = print_property(statement).source
    assert source.index('rt.define("a\'"') < source.index("rt.define('c'") < source.index("h_h1")
    plan = plan_statement(statement)
    entries = {e["name"]: e for e in plan["variables"]}
    assert entries["a'"]["copy"] == "a" and entries["c"]["defined_by"] == "h2"
    assert {"h1", "h2"} <= set(plan["constructive"])


def test_copied_draws_equal_their_source_exactly():
    plan = plan_statement(_statement("(h1 : a = a') → a' = a", "a a' : ℝ"))

    @settings(max_examples=50, database=None)
    @given(examples(plan))
    def scalar(example):
        assert example["a'"] == example["a"]

    scalar()
    batch = sample_batch(plan, np.random.default_rng(1), 64)
    assert np.array_equal(batch["a'"], batch["a"])


def test_the_property_recomputes_defined_variables():
    from mirror.evaluate.runtime import NumpyRuntime

    statement = _statement("(h2 : a ^ b = c) → c = c", "a b c : ℝ")
    namespace: dict = {}
    printed = print_property(statement)
    exec(compile(printed.source, "<test>", "exec"), {"__builtins__": {}}, namespace)
    rt = NumpyRuntime(3, 4)
    params = printed.parameters
    hyp, _ = namespace[printed.function_name](
        rt, **{params["a"]: np.array([0.0, 2.0, -8.0]), params["b"]: np.array([0.0, 0.5, 1 / 3]),
               params["c"]: np.array([7.0, 7.0, 7.0])})
    assert hyp.exact.all()
    # by hand, not through the runtime: 0 ^ 0 = 1 (Real.rpow_zero), 2 ^ (1/2) = √2 and
    # (-8) ^ (1/3) = 8 ^ (1/3) · cos (π/3) = 1 (Real.rpow_def_of_neg)
    np.testing.assert_allclose(rt.defined["c"], [1.0, 2 ** 0.5, 1.0], rtol=1e-15, atol=1e-15)
    assert rt.defined["c"][0] == 1.0


@pytest.mark.parametrize("statement, binders, kept", [
    # the equation is at ℝ, not at n's type ℕ: n cannot be computed from x
    ("(h : (n : ℝ) = x) → x = n", "n : ℕ; x : ℝ", "n"),
    # n is a dimension (arrays are shaped by it)
    ("(h : n = 3) → v = v", "n : ℕ; v : Fin n → ℝ", "n"),
    # x occurs on both sides
    ("(h : x = x * x) → x = 1", "x : ℝ", "x"),
])
def test_no_definition_where_it_would_change_the_statement(statement, binders, kept):
    assert kept not in {d.name for d in _statement(statement, binders).definitions}


def test_mixed_types_define_the_variable_of_the_equation_type():
    statement = _statement("(h : (n : ℝ) = x) → x = n", "n : ℕ; x : ℝ")
    assert [(d.name, d.expr) for d in statement.definitions] == [
        ("x", sp.Symbol("n", integer=True, nonnegative=True))]


def test_a_defined_variable_is_drawn_as_its_value_where_a_tree_reads_it():
    """``(h : y = x - 3)`` over ℕ: the example shows the ``y`` the property computes
    (truncated subtraction, so ``y = 0`` for ``x < 3``)."""
    plan = plan_statement(_statement("(h : y = x - 3) → y + 3 = x", "x y : ℕ"))

    @settings(max_examples=60, database=None)
    @given(examples(plan))
    def scalar(example):
        assert example["y"] == max(example["x"] - 3, 0)

    scalar()
    batch = sample_batch(plan, np.random.default_rng(2), 64)
    np.testing.assert_array_equal(batch["y"], np.maximum(batch["x"] - 3, 0))


def test_a_power_definition_is_drawn_with_lean_rpow():
    """``(h2 : a ^ b = c)``: ``c`` is drawn as ``Real.rpow a b`` (``Real.rpow_zero``:
    ``0 ^ 0 = 1``), the value the property computes."""
    from mirror.evaluate.runtime import NumpyRuntime

    plan = plan_statement(_statement("(h2 : a ^ b = c) → c = c", "a b c : ℝ"))
    batch = sample_batch(plan, np.random.default_rng(3), 256)
    expected = NumpyRuntime(256, 4).rpow(batch["a"], batch["b"])
    np.testing.assert_array_equal(batch["c"], expected)
    # and the value itself, against Mathlib's definition computed independently of the runtime
    assert (batch["a"] < 0).any() and (batch["a"] == 0).any()  # the draws reach both junk branches
    for a, b, c in zip(batch["a"], batch["b"], batch["c"]):
        want = _lean_rpow(float(a), float(b))
        assert abs(c - want) <= 1e-13 * max(1.0, abs(want)), (a, b, c, want)


def _lean_rpow(x: float, y: float) -> float:
    """``Real.rpow x y = ((x : ℂ) ^ (y : ℂ)).re`` (Mathlib, ``Real.rpow_def``) in 40-digit mpmath,
    with ``Complex.cpow``'s cases: ``0 ^ 0 = 1``, ``0 ^ y = 0`` for ``y ≠ 0``, otherwise
    ``exp (log x · y)`` with the principal ``log`` (``log x = log |x| + iπ`` for ``x < 0``)."""
    if x == 0.0:
        return 1.0 if y == 0.0 else 0.0
    with mpmath.workdps(40):
        return float(mpmath.re(mpmath.exp(mpmath.log(mpmath.mpc(x)) * mpmath.mpf(y))))
