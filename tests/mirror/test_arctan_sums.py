"""Sums of arctangents of rationals equal to a rational multiple of π, decided exactly
(:mod:`mirror.judge.arctans`): Mathlib's Machin-like formulas and ``arctan_add`` at a draw,
which ball arithmetic alone leaves undecided, and their false twins, never proved."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from mirror.judge.arctans import arctan_sum_is_zero

R, atan, pi = sp.Rational, sp.atan, sp.pi

#: Real.arctan_inv_2_add_arctan_inv_3, Real.two_mul_arctan_inv_2_sub_arctan_inv_7,
#: Real.two_mul_arctan_inv_3_add_arctan_inv_7, Real.four_mul_arctan_inv_5_sub_arctan_inv_239
MACHIN = [
    atan(R(1, 2)) + atan(R(1, 3)) - pi / 4,
    2 * atan(R(1, 2)) - atan(R(1, 7)) - pi / 4,
    2 * atan(R(1, 3)) + atan(R(1, 7)) - pi / 4,
    4 * atan(R(1, 5)) - atan(R(1, 239)) - pi / 4,
]


@pytest.mark.parametrize("difference", MACHIN)
def test_machin_like_formulas_are_proved(difference):
    assert arctan_sum_is_zero(difference)


@pytest.mark.parametrize("difference", MACHIN)
def test_a_shift_by_a_multiple_of_pi_or_a_tiny_rational_is_not_proved(difference):
    # the same Gaussian product, off by 2π (the ball pins the multiple) or by π (the sign)
    assert not arctan_sum_is_zero(difference + 2 * pi)
    assert not arctan_sum_is_zero(difference - pi)
    assert not arctan_sum_is_zero(difference + R(1, 10 ** 40))
    assert not arctan_sum_is_zero(difference + pi / 10 ** 30)


def test_other_shapes_are_not_claimed():
    x = sp.Symbol("x", real=True)
    assert not arctan_sum_is_zero(atan(x) - atan(x) + pi - pi + atan(R(1, 2)) - pi / 6)
    assert not arctan_sum_is_zero(atan(R(1, 2)) + sp.sqrt(2))
    assert not arctan_sum_is_zero(atan(sp.sqrt(3)) - pi / 3)  # not a rational argument
    assert not arctan_sum_is_zero(100 * atan(R(1, 2)))  # beyond the expanded multiple


def _arctan_add(x, y):
    """Mathlib's three cases of ``arctan x + arctan y`` (arctan_add,
    arctan_add_eq_add_pi, arctan_add_eq_sub_pi), as ``arctan (x+y)/(1-xy) + kπ``."""
    if x * y < 1:
        k = 0
    elif x > 0:
        k = 1
    else:
        k = -1
    return atan((x + y) / (1 - x * y)) + k * pi


rationals = st.fractions(min_value=-50, max_value=50, max_denominator=10 ** 6)


@settings(max_examples=200, deadline=None)
@given(rationals, rationals)
def test_arctan_add_holds_exactly_in_each_case_and_the_wrong_case_is_not_proved(x, y):
    x, y = R(x.numerator, x.denominator), R(y.numerator, y.denominator)
    if x * y == 1:
        return
    difference = atan(x) + atan(y) - _arctan_add(x, y)
    if difference == 0:  # sympy folded it (an argument 0, ±1)
        return
    assert arctan_sum_is_zero(difference)
    assert not arctan_sum_is_zero(difference + pi)
    # the independent reference: the proved difference is 0 to 60 digits
    with mpmath.workdps(60):
        assert abs(sp.N(difference, 60)) < mpmath.mpf(10) ** -50


def test_the_arctan_rows_of_the_mathlib_fixture_are_covered(lean_verdicts):
    verdicts = lean_verdicts(
        "open Real in\n"
        "theorem arctan_inv_2_add_arctan_inv_3 : arctan 2⁻¹ + arctan 3⁻¹ = π / 4 := by sorry\n"
        "open Real in\n"
        "theorem arctan_inv_2_add_arctan_inv_3_false : arctan 2⁻¹ + arctan 3⁻¹ = π / 3 := by sorry\n"
        "open Real in\n"
        "theorem arctan_add {x y : ℝ} (h : x * y < 1) :\n"
        "    arctan x + arctan y = arctan ((x + y) / (1 - x * y)) := by sorry\n"
        "open Real in\n"
        "theorem arctan_add_false {x y : ℝ} (h : 1 < x * y) :\n"
        "    arctan x + arctan y = arctan ((x + y) / (1 - x * y)) := by sorry\n"
        "open Real in\n"
        "theorem arctan_inv_of_pos {x : ℝ} (h : 0 < x) : arctan x⁻¹ = π / 2 - arctan x := by sorry\n")
    for name in ("arctan_inv_2_add_arctan_inv_3", "arctan_add", "arctan_inv_of_pos"):
        assert verdicts[name].mirror_status in ("tested", "symbolic"), (name, verdicts[name].reason)
    for name in ("arctan_inv_2_add_arctan_inv_3_false", "arctan_add_false"):
        assert verdicts[name].mirror_status == "refuted", (name, verdicts[name].reason)
