"""Lean carriers beyond ℕ ℤ ℝ ℂ: ℝ≥0, ℝ≥0∞, ℕ+, ℚ and ZMod n, with their own arithmetic.

``NNReal`` used to be read as ℝ, which made ``a - b + b = a`` over ℝ≥0 "symbolic" (false:
subtraction truncates) and ``0 ≤ a`` over ℝ≥0 "refuted" (true). Each carrier is checked
through the real pipeline, and its draws and types are checked directly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings

from mirror.sample.strategies import examples, plan_statement, sample_batch
from mirror.translate.translation import Translator, Untranslatable
from mirror.translate.types import ENNREAL, INT, NAT, NNREAL, PNAT, REAL, coerces, fin, numeric_max
from tests.mirror.test_translation import theorem

SOURCE = """
theorem nn_sub_add_false (a b : NNReal) : a - b + b = a := by sorry
theorem nn_nonneg (a : NNReal) : 0 ≤ a := by sorry
theorem nn_sub_eq_zero (a b : ℝ≥0) (h : a < b) : a - b = 0 := by sorry
theorem nn_sub_add_max (a b : ℝ≥0) : a - b + b = max a b := by sorry
theorem nn_coe_sub_false (a b : ℝ≥0) : ((a - b : ℝ≥0) : ℝ) = (a : ℝ) - b := by sorry
theorem nn_real_sub (a b : ℝ≥0) : (a : ℝ) - b + b = a := by sorry
theorem nn_div_zero (a : ℝ≥0) : a / 0 = 0 := by sorry
theorem nn_inv_zero : (0 : ℝ≥0)⁻¹ = 0 := by sorry
theorem nn_nat_cast (n : ℕ) (a : ℝ≥0) : (n : ℝ≥0) + a ≥ a := by sorry
theorem enn_sub_self (a : ℝ≥0∞) : a - a = 0 := by sorry
theorem enn_add_sub_false (a b : ℝ≥0∞) : a + b - b = a := by sorry
theorem enn_zero_mul (a : ℝ≥0∞) : 0 * a = 0 := by sorry
theorem enn_div_zero (a : ℝ≥0∞) (h : a ≠ 0) : a / 0 = a * 0⁻¹ := by sorry
theorem enn_mul_inv_false (a : ℝ≥0∞) (h : a ≠ 0) : a * a⁻¹ = 1 := by sorry
theorem enn_le_add (a b : ℝ≥0∞) : a ≤ a + b := by sorry
theorem enn_toReal_false (a : ℝ≥0∞) : (ENNReal.toReal a : ℝ) ≥ 1 := by sorry
theorem pnat_one_le (a : PNat) : 1 ≤ a := by sorry
theorem pnat_sub_ge_one (a b : PNat) : 1 ≤ a - b := by sorry
theorem pnat_sub_false (a b : PNat) : (a - b : PNat) + b = max a b := by sorry
theorem pnat_coe_sub (a b : PNat) (h : b < a) : ((a - b : PNat) : ℕ) = (a : ℕ) - b := by sorry
theorem rat_div_zero (q : ℚ) : q / 0 = 0 := by sorry
theorem rat_div_mul (p q : ℚ) (h : q ≠ 0) : p / q * q = p := by sorry
theorem rat_div_mul_false (p q : ℚ) : p / q * q = p := by sorry
theorem zmod_mul_five (a : ZMod 5) : a * 5 = 0 := by sorry
theorem zmod_add_comm (a b : ZMod 5) : a + b = b + a := by sorry
theorem zmod_succ_ne (a : ZMod 5) : a + 1 ≠ a := by sorry
theorem zmod_neg_false (a : ZMod 4) : a + a = 0 := by sorry
theorem zmod_cast (n : ℕ) : (n : ZMod 3) = ((n % 3 : ℕ) : ZMod 3) := by sorry
theorem zmod_int_cast (k : ℤ) : ((k : ZMod 4) : ZMod 4) = ((k % 4 : ℤ) : ZMod 4) := by sorry
theorem enn_le_max (a b : ℝ≥0∞) : a ≤ max a b := by sorry
theorem enn_min_le_false (a b : ℝ≥0∞) : min a b < a + 1 := by sorry
theorem rat_max (p q : ℚ) : max p q = -min (-p) (-q) := by sorry
theorem ereal_untranslated (x : EReal) : x = x := by sorry
"""

HOLDS = ["nn_nonneg", "nn_sub_eq_zero", "nn_sub_add_max", "nn_real_sub", "nn_div_zero",
         "nn_inv_zero", "nn_nat_cast", "enn_sub_self", "enn_zero_mul", "enn_div_zero",
         "enn_le_add", "pnat_one_le", "pnat_sub_ge_one", "pnat_coe_sub", "rat_div_zero",
         "rat_div_mul", "zmod_mul_five", "zmod_add_comm", "zmod_succ_ne", "zmod_cast",
         "zmod_int_cast", "enn_le_max", "rat_max"]
REFUTED = ["nn_sub_add_false", "nn_coe_sub_false", "enn_add_sub_false", "enn_mul_inv_false",
           "enn_toReal_false", "pnat_sub_false", "rat_div_mul_false", "zmod_neg_false",
           "enn_min_le_false"]


@pytest.fixture(scope="module")
def verdicts(lean_verdicts):
    return lean_verdicts(SOURCE)


@pytest.mark.parametrize("name", HOLDS)
def test_true_statements_over_the_carriers_hold(verdicts, name):
    result = verdicts[name]
    assert result.mirror_status in ("tested", "symbolic"), (result.mirror_status, result.reason,
                                                            result.counterexample)


@pytest.mark.parametrize("name", REFUTED)
def test_false_statements_over_the_carriers_are_refuted(verdicts, name):
    result = verdicts[name]
    assert result.mirror_status == "refuted", (result.mirror_status, result.reason)


def test_nnreal_truncated_subtraction_is_never_symbolic(verdicts):
    """``tsub`` on ℝ≥0 (``tsub_add_cancel_of_le`` needs ``b ≤ a``): refuted with ``a < b``."""
    result = verdicts["nn_sub_add_false"]
    assert result.mirror_status == "refuted"
    assert result.counterexample["a"] < result.counterexample["b"]
    assert verdicts["nn_nonneg"].mirror_status == "symbolic"


def test_ereal_is_not_guessed(verdicts):
    """``EReal`` (``⊥ + ⊤ = ⊥``…) has no translation yet: it must not be read as ℝ."""
    result = verdicts["ereal_untranslated"]
    assert result.mirror_status == "untranslatable" and "EReal" in result.reason


def test_ennreal_top_minus_top_and_top_absorbs(verdicts):
    """``ENNReal.top_sub``… ``a + ⊤ - ⊤ = 0 ≠ a``: the counterexample draws ``⊤``."""
    example = verdicts["enn_add_sub_false"].counterexample
    assert math.isinf(example["b"]) or math.isinf(example["a"])


# ---- types and coercions ----------------------------------------------------------------------


def test_coercions_follow_lean():
    assert coerces("PNat", "Real") and coerces("Nat", "NNReal") and coerces("NNReal", "ENNReal")
    assert not coerces("Real", "NNReal") and not coerces("Int", "NNReal")
    assert not coerces("ENNReal", "Real")
    assert numeric_max(NNREAL, NAT) == NNREAL
    assert numeric_max(NNREAL, REAL) == REAL
    assert numeric_max(PNAT, NAT) == NAT


def test_binder_types_are_the_carriers():
    statement = Translator({}).translate_statement(
        theorem("a = a", "a : NNReal; b : ENNReal; n : PNat; z : ZMod 5; w : ZMod 0"))
    types = {v.name: v.ty for v in statement.variables}
    assert types == {"a": NNREAL, "b": ENNREAL, "n": PNAT, "z": fin(5), "w": INT}
    assert statement.variables[0].symbol.is_nonnegative
    assert statement.variables[2].symbol.is_positive


@pytest.mark.parametrize("statement, binders, construct", [
    ("-a = a", "a : NNReal", "negation"),
    ("a % b = a", "a b : PNat", "HMod"),
    ("a = a", "n : ℕ; a : ZMod n", "ZMod n"),
    ("(x : NNReal) = 0", "x : ℝ", "coercion"),
])
def test_what_lean_does_not_define_is_untranslatable(statement, binders, construct):
    with pytest.raises(Untranslatable) as info:
        Translator({}).translate_statement(theorem(statement, binders))
    assert construct in str(info.value)


# ---- draws ------------------------------------------------------------------------------------


def _plan(statement: str, binders: str) -> dict:
    return plan_statement(Translator({}).translate_statement(theorem(statement, binders)))


def test_draws_stay_in_the_carrier():
    plan = _plan("a = a", "a : NNReal; n : PNat; e : ENNReal; f : Fin 3 → NNReal")

    @settings(max_examples=150, database=None)
    @given(examples(plan))
    def scalar(example):
        assert example["a"] >= 0 and example["n"] >= 1 and example["e"] >= 0
        assert (np.asarray(example["f"]) >= 0).all()

    scalar()
    batch = sample_batch(plan, np.random.default_rng(0), 400)
    assert (batch["a"] >= 0).all() and (batch["n"] >= 1).all() and (batch["f"] >= 0).all()
    assert (batch["e"] >= 0).all()
    assert np.isinf(batch["e"]).any() and np.isfinite(batch["e"]).any()


def test_ennreal_draws_include_top_in_hypothesis_examples():
    plan = _plan("e = e", "e : ENNReal")
    seen = []

    @settings(max_examples=200, database=None)
    @given(examples(plan))
    def collect(example):
        seen.append(example["e"])

    collect()
    assert any(math.isinf(v) for v in seen) and any(math.isfinite(v) for v in seen)


def test_top_is_infinity_only_in_ennreal():
    """``ENNReal.top_sub``-style statements reach the translator as ``Top.top`` (the exporter
    spelling; the source scanner does not parse ``⊤``/``∞``)."""
    from dataclasses import replace

    import sympy as sp

    from bridge import term as T

    base = theorem("a - b = 0", "a : ENNReal")
    top = T.Const("Top.top")
    sub = T.App(T.Const("HSub.hSub"), (T.Var("a"), top))
    decl = replace(base, type=T.App(T.Const("Eq"), (sub, T.Lit(0))))
    statement = Translator({}).translate_statement(decl)
    assert statement.conclusion is sp.true  # a - ⊤ = 0 (tsub_eq_zero_of_le, le_top)
    real = replace(theorem("x = x", "x : ℝ"), type=T.App(T.Const("Eq"), (T.Var("x"), top)))
    with pytest.raises(Untranslatable, match="⊤"):
        Translator({}).translate_statement(real)


def test_zmod_val_is_the_representative():
    conclusion = Translator({}).translate_statement(
        theorem("ZMod.val (a + 4) = (a.val + 4) % 5", "a : ZMod 5")).conclusion
    import sympy as sp

    (a,) = conclusion.free_symbols
    for value in range(5):
        assert conclusion.subs(a, value) is sp.true
    zero = Translator({}).translate_statement(theorem("ZMod.val a = 3", "a : ZMod 0")).conclusion
    assert zero.subs(list(zero.free_symbols)[0], -3) is sp.true  # ZMod 0 = ℤ: val = natAbs
