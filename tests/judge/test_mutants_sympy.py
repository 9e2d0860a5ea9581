"""The sympy forms of Lean's junk values (``mirror.translate.reals``, ``mirror.translate.ennreals``)
against Mathlib's stated values, computed independently (fractions, mpmath at 60 digits).

A node folds to ordinary sympy exactly when its arguments settle the junk case, and stays
unevaluated otherwise: both halves are pinned, on numbers and on symbols whose assumptions
settle (or do not settle) the case.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from mirror.translate import ennreals as E
from mirror.translate import reals as R

TOP = sp.oo
POS = sp.Symbol("p", positive=True)
NEG = sp.Symbol("q", negative=True)
NONNEG = sp.Symbol("n", nonnegative=True)
REAL = sp.Symbol("r", real=True)
ANY = sp.Symbol("u")  # no assumptions: not known finite, not known non-zero

# ---- ℝ≥0∞: a Fraction model of Mathlib's operations, ⊤ as None -----------------------------

ENN_VALUES = [Fraction(0), Fraction(1, 2), Fraction(3), None]


def _sym(v):
    return TOP if v is None else sp.Rational(v.numerator, v.denominator)


def _enn_add(a, b):
    return None if a is None or b is None else a + b  # top_add, add_top


def _enn_sub(a, b):
    if b is None:
        return Fraction(0)  # a - ⊤ = 0 (tsub_eq_zero_of_le, le_top)
    if a is None:
        return None  # ⊤ - b = ⊤ for b ≠ ⊤ (ENNReal.top_sub)
    return max(a - b, Fraction(0))  # truncated


def _enn_mul(a, b):
    if a == 0 or b == 0:
        return Fraction(0)  # zero_mul, mul_zero
    if a is None or b is None:
        return None  # ENNReal.mul_top, top_mul for a ≠ 0
    return a * b


def _enn_inv(a):
    if a is None:
        return Fraction(0)  # ENNReal.inv_top
    if a == 0:
        return None  # ENNReal.inv_zero
    return 1 / a


def _enn_to_real(a):
    return Fraction(0) if a is None else a  # ENNReal.top_toReal


@pytest.mark.parametrize("a", ENN_VALUES)
@pytest.mark.parametrize("b", ENN_VALUES)
@pytest.mark.parametrize("node, model", [
    (E.ENNAdd, _enn_add), (E.ENNSub, _enn_sub), (E.ENNMul, _enn_mul),
])
def test_ennreal_binary_operations_match_mathlib_on_numbers_and_top(node, model, a, b):
    assert node(_sym(a), _sym(b)) == _sym(model(a, b))


@pytest.mark.parametrize("a", ENN_VALUES)
@pytest.mark.parametrize("node, model", [(E.ENNInv, _enn_inv), (E.ENNToReal, _enn_to_real)])
def test_ennreal_unary_operations_match_mathlib_on_numbers_and_top(node, model, a):
    assert node(_sym(a)) == _sym(model(a))


def test_ennreal_folds_on_symbols_whose_assumptions_settle_the_case():
    assert E.ENNAdd(ANY, TOP) == TOP and E.ENNAdd(TOP, ANY) == TOP
    assert E.ENNAdd(POS, 1) == POS + 1
    assert E.ENNSub(ANY, TOP) == 0
    assert E.ENNSub(TOP, POS) == TOP
    assert E.ENNSub(ANY, 0) == ANY and E.ENNSub(REAL, 0) == REAL  # not Max(r, 0)
    assert E.ENNSub(POS, 1) == sp.Max(POS - 1, 0)
    assert E.ENNMul(ANY, 0) == 0 and E.ENNMul(0, ANY) == 0
    assert E.ENNMul(POS, TOP) == TOP and E.ENNMul(TOP, POS) == TOP
    assert E.ENNMul(POS, 3) == 3 * POS
    assert E.ENNInv(POS) == 1 / POS
    assert E.ENNToReal(REAL) == REAL


@pytest.mark.parametrize("expr", [
    lambda: E.ENNAdd(ANY, 1), lambda: E.ENNAdd(1, ANY),
    lambda: E.ENNSub(TOP, ANY), lambda: E.ENNSub(ANY, 1), lambda: E.ENNSub(1, ANY),
    lambda: E.ENNMul(ANY, TOP), lambda: E.ENNMul(TOP, ANY), lambda: E.ENNMul(ANY, 2),
    lambda: E.ENNMul(2, ANY), lambda: E.ENNMul(NONNEG, TOP),
    lambda: E.ENNInv(ANY), lambda: E.ENNInv(NONNEG), lambda: E.ENNToReal(ANY),
])
def test_ennreal_stays_unevaluated_where_the_case_is_unknown(expr):
    value = expr()
    assert isinstance(value, (E.ENNAdd, E.ENNSub, E.ENNMul, E.ENNInv, E.ENNToReal)), value


def test_ennreal_is_top_is_only_infinity():
    assert E._is_top(TOP) and not E._is_top(-TOP) and not E._is_top(sp.Integer(0))
    assert not E._is_top(sp.zoo) and not E._is_top(ANY)


# ---- ℝ: division, log, sqrt, rpow, tan/cot, arcsin -------------------------------------------



def _close(expr, reference, digits=40):
    """``expr`` (a closed sympy number) equals ``reference`` (an mpmath value) to ``digits``."""
    with mpmath.workdps(60):
        value = sp.N(expr, 60)
        return abs(mpmath.mpf(str(value)) - reference) <= mpmath.mpf(10) ** (-digits) * max(
            1, abs(reference))


@pytest.mark.parametrize("a, b, expected", [
    (3, 0, 0), (0, 0, 0), (-5, 0, 0), (3, 2, sp.Rational(3, 2)), (-3, 4, sp.Rational(-3, 4)),
])
def test_real_division_by_zero_is_zero(a, b, expected):
    assert R.LeanDiv(sp.Integer(a), sp.Integer(b)) == expected


def test_real_division_folds_only_by_a_known_nonzero_number():
    assert R.LeanDiv(ANY, POS) == ANY / POS
    assert R.LeanDiv(ANY, 0) == 0
    assert isinstance(R.LeanDiv(1, ANY), R.LeanDiv)
    assert isinstance(R.LeanDiv(1, REAL), R.LeanDiv)
    # oo: sympy says is_zero is False but it is no complex number
    assert isinstance(R.LeanDiv(1, TOP), R.LeanDiv)
    assert R.known_nonzero(sp.Integer(2)) and R.known_nonzero(POS)
    assert not R.known_nonzero(TOP) and not R.known_nonzero(sp.Integer(0))
    assert not R.known_nonzero(ANY)


@pytest.mark.parametrize("x", [Fraction(-7, 2), Fraction(-2), Fraction(-1, 3), Fraction(1, 5),
                               Fraction(1), Fraction(9, 4)])
def test_real_log_is_the_log_of_the_absolute_value(x):
    value = R.LeanLog(sp.Rational(x.numerator, x.denominator))
    with mpmath.workdps(60):
        assert _close(value, mpmath.log(abs(mpmath.mpf(x.numerator) / x.denominator)))


def test_real_log_junk_and_symbols():
    assert R.LeanLog(sp.Integer(0)) == 0  # Real.log_zero
    assert R.LeanLog(sp.Integer(1)) == 0
    assert R.LeanLog(sp.Integer(-2)) == sp.log(2)  # Real.log_neg_eq_log
    assert R.LeanLog(POS) == sp.log(POS)
    assert R.LeanLog(NEG) == sp.log(-NEG)
    assert isinstance(R.LeanLog(ANY), R.LeanLog) and isinstance(R.LeanLog(REAL), R.LeanLog)
    assert isinstance(R.LeanLog(NONNEG), R.LeanLog)  # 0 or positive: not settled


def test_real_sqrt_of_a_negative_is_zero():
    assert R.LeanSqrt(sp.Integer(-4)) == 0 and R.LeanSqrt(sp.Rational(-1, 9)) == 0
    assert R.LeanSqrt(sp.Integer(0)) == 0 and R.LeanSqrt(sp.Integer(9)) == 3
    assert R.LeanSqrt(sp.Rational(1, 4)) == sp.Rational(1, 2)
    assert R.LeanSqrt(NONNEG) == sp.sqrt(NONNEG) and R.LeanSqrt(NEG) == 0
    assert isinstance(R.LeanSqrt(REAL), R.LeanSqrt) and isinstance(R.LeanSqrt(ANY), R.LeanSqrt)


def _rpow_reference(x: Fraction, y: Fraction):
    """Mathlib's ``Real.rpow``: ``exp (log x * y)`` for ``x > 0``; ``0 ^ 0 = 1``,
    ``0 ^ y = 0``; ``x < 0``: ``exp (log |x| * y) * cos (y * π)``."""
    xm, ym = mpmath.mpf(x.numerator) / x.denominator, mpmath.mpf(y.numerator) / y.denominator
    if y == 0:
        return mpmath.mpf(1)
    if x == 0:
        return mpmath.mpf(0)
    if x > 0:
        return mpmath.exp(mpmath.log(xm) * ym)
    return mpmath.exp(mpmath.log(-xm) * ym) * mpmath.cos(ym * mpmath.pi)


@pytest.mark.parametrize("x", [Fraction(-8), Fraction(-2), Fraction(-1, 2), Fraction(0),
                               Fraction(1, 3), Fraction(4)])
@pytest.mark.parametrize("y", [Fraction(-3, 2), Fraction(-1), Fraction(0), Fraction(1, 3),
                               Fraction(1, 2), Fraction(2)])
def test_real_rpow_matches_mathlib_on_every_sign(x, y):
    value = R.LeanRpow(sp.Rational(x.numerator, x.denominator),
                       sp.Rational(y.numerator, y.denominator))
    with mpmath.workdps(60):
        assert _close(value, _rpow_reference(x, y)), (x, y, value)


def test_real_rpow_symbols():
    assert R.LeanRpow(ANY, 0) == 1
    assert R.LeanRpow(POS, ANY) == POS ** ANY
    assert R.LeanRpow(0, POS) == 0
    assert isinstance(R.LeanRpow(0, ANY), R.LeanRpow)  # 0 ^ y: 1 or 0, not settled
    assert isinstance(R.LeanRpow(ANY, 2), R.LeanRpow)
    assert isinstance(R.LeanRpow(NONNEG, 2), R.LeanRpow)
    assert R.LeanRpow(NEG, 2) == sp.exp(2 * sp.log(-NEG)) * sp.cos(2 * sp.pi)


@pytest.mark.parametrize("node, x, reference", [
    (R.LeanTan, sp.Integer(1), lambda: mpmath.tan(1)),
    (R.LeanTan, sp.Rational(-2, 3), lambda: mpmath.tan(mpmath.mpf(-2) / 3)),
    (R.LeanTan, sp.pi / 2, lambda: mpmath.mpf(0)),  # Real.tan_pi_div_two
    (R.LeanTan, -sp.pi / 2, lambda: mpmath.mpf(0)),
    (R.LeanTan, sp.Integer(0), lambda: mpmath.mpf(0)),
    (R.LeanCot, sp.Integer(1), lambda: mpmath.cot(1)),
    (R.LeanCot, sp.Integer(0), lambda: mpmath.mpf(0)),  # Real.cot_zero
    (R.LeanCot, sp.pi, lambda: mpmath.mpf(0)),
    (R.LeanCot, sp.pi / 4, lambda: mpmath.mpf(1)),
])
def test_real_tan_and_cot_divide_through_complex_division(node, x, reference):
    value = node(x)
    with mpmath.workdps(60):
        assert _close(value, reference()), (node, x, value)


def test_real_tan_and_cot_stay_unevaluated_on_symbols():
    assert isinstance(R.LeanTan(REAL), R.LeanTan) and isinstance(R.LeanCot(POS), R.LeanCot)
    assert R.LeanTan(sp.Integer(1)) == sp.tan(1) and R.LeanCot(sp.Integer(2)) == sp.cot(2)


@pytest.mark.parametrize("x, reference", [
    (sp.Integer(3), lambda: mpmath.pi / 2), (sp.Integer(1), lambda: mpmath.pi / 2),
    (sp.Integer(-1), lambda: -mpmath.pi / 2), (sp.Rational(-5, 2), lambda: -mpmath.pi / 2),
    (sp.Rational(1, 2), lambda: mpmath.pi / 6), (sp.Rational(-1, 3), lambda: mpmath.asin(
        mpmath.mpf(-1) / 3)), (sp.Integer(0), lambda: mpmath.mpf(0)),
])
def test_real_arcsin_is_clamped(x, reference):
    with mpmath.workdps(60):
        assert _close(R.LeanArcsin(x), reference())


def test_real_arcsin_symbols():
    assert R.LeanArcsin(NONNEG + 1) == sp.pi / 2
    assert R.LeanArcsin(-NONNEG - 1) == -sp.pi / 2
    assert isinstance(R.LeanArcsin(REAL), R.LeanArcsin)
    assert isinstance(R.LeanArcsin(POS), R.LeanArcsin)
    assert isinstance(R.LeanArcsin(NEG), R.LeanArcsin)
