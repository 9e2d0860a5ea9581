"""Mathlib functions in the three layers: sympy folding of constants, the batched NumPy
runtime and the mpmath runtime (exact on ``int``/``Fraction`` inputs).

Each test names the Mathlib lemma that pins the junk value it checks.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from mirror.translate import vocabulary as V
from mirror.evaluate.runtime import MpRuntime, NumpyRuntime


@pytest.fixture
def rt():
    return NumpyRuntime(4, 8)


@pytest.fixture
def mp():
    return MpRuntime(8)


def one(values) -> object:
    return np.asarray(values, dtype=object).reshape(-1)[0]


# ---- sympy: exact constants ---------------------------------------------------------------------

@pytest.mark.parametrize("expr, value, lemma", [
    (V.LeanTan(sp.pi / 2), 0, "Real.tan_pi_div_two"),
    (V.LeanTan(sp.pi / 4), 1, "Real.tan_pi_div_four"),
    (V.LeanCot(sp.Integer(0)), 0, "Real.cot_zero"),
    (V.LeanArcsin(sp.Integer(2)), sp.pi / 2, "Real.arcsin_of_one_le"),
    (V.LeanArcsin(sp.Integer(-3)), -sp.pi / 2, "Real.arcsin_of_le_neg_one"),
    (V.LeanArcsin(sp.Rational(1, 2)), sp.pi / 6, "Real.arcsin of 1/2"),
    (V.NatLog(sp.Integer(2), sp.Integer(8)), 3, "Nat.log_pow"),
    (V.NatLog(sp.Integer(1), sp.Integer(8)), 0, "Nat.log_of_left_le_one"),
    (V.NatLog(sp.Integer(5), sp.Integer(3)), 0, "Nat.log_of_lt"),
    (V.NatLog(sp.Symbol("b"), sp.Integer(0)), 0, "Nat.log_zero_right"),
    (V.NatSqrt(sp.Integer(15)), 3, "Nat.sqrt_lt'"),
    (V.NatChoose(sp.Integer(3), sp.Integer(5)), 0, "Nat.choose_eq_zero_of_lt"),
    (V.NatGcd(sp.Integer(0), sp.Integer(6)), 6, "Nat.gcd_zero_left"),
    (V.NatLcm(sp.Integer(0), sp.Integer(6)), 0, "Nat.lcm_zero_left"),
    (V.IntTDiv(sp.Integer(-7), sp.Integer(2)), -3, "Int.tdiv rounds toward zero"),
    (V.IntFDiv(sp.Integer(-7), sp.Integer(2)), -4, "Int.fdiv rounds down"),
    (V.IntTMod(sp.Integer(-7), sp.Integer(2)), -1, "Int.tmod_add_tdiv"),
    (V.IntFMod(sp.Integer(7), sp.Integer(-2)), -1, "Int.fmod_add_fdiv"),
    (V.IntFDiv(sp.Symbol("a"), sp.Integer(0)), 0, "Int.fdiv_zero"),
    (V.IntTMod(sp.Symbol("a"), sp.Integer(0)), sp.Symbol("a"), "Int.tmod_zero"),
    (V.ENNSub(sp.oo, sp.oo), 0, "ENNReal: ⊤ - ⊤ = 0 (tsub_self)"),
    (V.ENNSub(sp.oo, sp.Integer(3)), sp.oo, "ENNReal.top_sub_coe"),
    (V.ENNSub(sp.Integer(2), sp.Integer(3)), 0, "tsub_eq_zero_of_le"),
    (V.ENNMul(sp.Integer(0), sp.oo), 0, "zero_mul"),
    (V.ENNMul(sp.Integer(2), sp.oo), sp.oo, "ENNReal.mul_top"),
    (V.ENNInv(sp.Integer(0)), sp.oo, "ENNReal.inv_zero"),
    (V.ENNInv(sp.oo), 0, "ENNReal.inv_top"),
    (V.ENNAdd(sp.oo, sp.Integer(1)), sp.oo, "top_add"),
    (V.ENNToReal(sp.oo), 0, "ENNReal.top_toReal"),
])
def test_constants_fold_exactly(expr, value, lemma):
    assert expr == value or sp.simplify(expr - value) == 0, lemma


def test_symbolic_arguments_stay_unevaluated_until_the_junk_case_is_settled():
    x = sp.Symbol("x", real=True)
    assert isinstance(V.LeanTan(x), V.LeanTan)
    assert isinstance(V.LeanArcsin(x), V.LeanArcsin)
    big = sp.Symbol("y", real=True, nonnegative=True) + 1
    assert V.LeanArcsin(big) == sp.pi / 2  # 1 ≤ y + 1: Real.arcsin_of_one_le
    e = sp.Symbol("e", extended_nonnegative=True)
    assert isinstance(V.ENNSub(e, e), V.ENNSub)  # e - e is 0 only because ⊤ - ⊤ = 0 too


# ---- NumPy runtime ------------------------------------------------------------------------------

def test_numpy_trigonometry_junk(rt):
    # Real.tan_eq_sin_div_cos with x / 0 = 0; Real.cot_zero
    assert rt.real_tan(np.array([0.0, np.pi / 4]))[1] == pytest.approx(1.0)
    assert rt.real_cot(np.array([0.0]))[0] == 0.0
    # Real.arcsin_of_one_le / Real.arcsin_of_le_neg_one
    np.testing.assert_array_equal(rt.arcsin(np.array([2.0, -5.0, 1.0, -1.0])),
                                  [np.pi / 2, -np.pi / 2, np.pi / 2, -np.pi / 2])


def test_numpy_floors_and_signs(rt):
    x = np.array([-1.5, -0.5, 0.0, 2.5])
    np.testing.assert_array_equal(rt.floor(x), [-2, -1, 0, 2])  # Int.floor
    np.testing.assert_array_equal(rt.ceil(x), [-1, 0, 0, 3])  # Int.ceil
    assert rt.floor(x).dtype == np.int64
    np.testing.assert_array_equal(rt.sign(x), [-1, -1, 0, 1])  # Real.sign_zero


def test_numpy_integer_division_family(rt):
    a = np.array([-7, 7, -7, 5])
    b = np.array([2, -2, 0, 0])
    np.testing.assert_array_equal(rt.int_tdiv(a, b), [-3, -3, 0, 0])  # Int.tdiv_zero
    np.testing.assert_array_equal(rt.int_fdiv(a, b), [-4, -4, 0, 0])  # Int.fdiv_zero
    np.testing.assert_array_equal(rt.int_tmod(a, b), [-1, 1, -7, 5])  # Int.tmod_zero
    np.testing.assert_array_equal(rt.int_fmod(a, b), [1, -1, -7, 5])  # Int.fmod_zero
    # Euclidean / and % (Int.ediv_zero, Int.emod_zero) already in the runtime
    np.testing.assert_array_equal(rt.int_div(a, b), [-4, -3, 0, 0])
    np.testing.assert_array_equal(rt.mod(a, b), [1, 1, -7, 5])


def test_numpy_nat_functions(rt):
    n = np.array([0, 1, 5, 10])
    np.testing.assert_array_equal(rt.factorial(n), [1, 1, 120, 3628800])  # Nat.factorial_zero
    np.testing.assert_array_equal(rt.choose(np.array([3, 5, 5, 0]), np.array([5, 2, 5, 0])),
                                  [0, 10, 1, 1])  # Nat.choose_eq_zero_of_lt
    np.testing.assert_array_equal(rt.gcd(np.array([0, 0, 4, 6]), n), [0, 1, 1, 2])
    np.testing.assert_array_equal(rt.lcm(np.array([0, 3, 4, 6]), n), [0, 3, 20, 30])
    np.testing.assert_array_equal(rt.nat_sqrt(np.array([0, 3, 4, 99])), [0, 1, 2, 9])
    # Nat.log_of_left_le_one, Nat.log_zero_right, Nat.log_of_lt, Nat.log_pow
    np.testing.assert_array_equal(rt.nat_log(np.array([1, 2, 5, 2]), np.array([9, 0, 3, 8])),
                                  [0, 0, 0, 3])
    big = rt.factorial(np.array([25]))
    assert big[0] == pytest.approx(float(math.factorial(25)))


def test_numpy_ennreal(rt):
    inf = np.inf
    a = np.array([inf, inf, 2.0, 0.0])
    b = np.array([inf, 3.0, 5.0, inf])
    np.testing.assert_array_equal(rt.enn_sub(a, b), [0.0, inf, 0.0, 0.0])
    np.testing.assert_array_equal(rt.enn_mul(a, b), [inf, inf, 10.0, 0.0])  # 0 * ⊤ = 0
    np.testing.assert_array_equal(rt.enn_inv(np.array([0.0, inf, 4.0, 1.0])),
                                  [inf, 0.0, 0.25, 1.0])
    np.testing.assert_array_equal(rt.enn_add(a, b), [inf, inf, 7.0, inf])
    np.testing.assert_array_equal(rt.enn_to_real(a), [0.0, 0.0, 2.0, 0.0])


# ---- mpmath runtime: exact on ints and fractions -------------------------------------------------

@pytest.mark.parametrize("method, args, expected", [
    ("floor", (Fraction(-7, 2),), -4),
    ("ceil", (Fraction(-7, 2),), -3),
    ("floor", (Fraction(10**40 + 1, 10**40),), 1),
    ("sign", (Fraction(-1, 10**60),), -1),
    ("factorial", (30,), math.factorial(30)),
    ("choose", (60, 30), math.comb(60, 30)),
    ("choose", (3, 5), 0),
    ("gcd", (0, 12), 12),
    ("lcm", (0, 12), 0),
    ("nat_sqrt", (10**30 + 5,), 10**15),
    ("nat_log", (10, 10**40), 40),
    ("int_tdiv", (-7, 2), -3),
    ("int_fdiv", (-7, 2), -4),
    ("int_tmod", (-7, 0), -7),
    ("int_fmod", (7, -2), -1),
    ("enn_sub", (Fraction(1, 3), Fraction(1, 2)), 0),
    ("enn_inv", (3,), Fraction(1, 3)),
    ("enn_mul", (0, float("inf")), 0),
])
def test_mp_methods_are_exact_on_exact_inputs(mp, method, args, expected):
    arrays = [np.array([a], dtype=object) for a in args]
    result = one(getattr(mp, method)(*arrays))
    assert result == expected
    assert isinstance(result, (int, Fraction)), type(result)


def test_mp_maximum_minimum_and_natabs_keep_fractions(mp):
    x = np.array([Fraction(1, 3)], dtype=object)
    y = np.array([Fraction(1, 4)], dtype=object)
    assert one(mp.maximum(x, y)) == Fraction(1, 3) and one(mp.minimum(x, y)) == Fraction(1, 4)
    assert one(mp.abs(np.array([Fraction(-2, 3)], dtype=object))) == Fraction(2, 3)


def test_mp_transcendental_junk(mp):
    ctx = mp.context
    half_pi = np.array([ctx.pi / 2], dtype=object)
    # 50-digit cos(π/2) lies in the exact mode's zero band: tan is Lean's 1 / 0 = 0 there
    # (Real.tan_pi_div_two); compared within a float tolerance it is a huge quotient instead
    assert one(mp.real_tan(half_pi)) == 0
    from mirror.evaluate.runtime import MpRuntime

    loose = MpRuntime(8, tolerance=1e-9)
    assert abs(one(loose.real_tan(np.array([loose.context.pi / 2], dtype=object)))) > 1e40
    assert one(mp.real_tan(np.array([0], dtype=object))) == 0
    assert one(mp.real_cot(np.array([0], dtype=object))) == 0  # Real.cot_zero
    assert one(mp.arcsin(np.array([Fraction(3, 2)], dtype=object))) == ctx.pi / 2
    assert one(mp.arcsin(np.array([-2], dtype=object))) == -ctx.pi / 2
    assert one(mp.arcsin(np.array([Fraction(1, 2)], dtype=object))) == pytest.approx(
        mpmath.pi / 6)
    assert one(mp.floor(np.array([ctx.mpf("2.5")], dtype=object))) == 2
    assert one(mp.enn_sub(np.array([ctx.inf], dtype=object),
                          np.array([ctx.inf], dtype=object))) == 0  # ⊤ - ⊤ = 0


def test_define_records_the_computed_value(rt):
    value = rt.define("c", np.array([1.0, 2.0, 3.0, 4.0]))
    assert rt.defined["c"] is value


def test_rat_parts_beyond_float_range_leave_the_filter_undecided(rt):
    # the exact value of the subnormal 2⁻¹⁰⁷⁴ has denominator 2¹⁰⁷⁴, beyond float64: the filter
    # says NaN (decides nothing; the draw is decided exactly), it never raises OverflowError
    tiny = math.ldexp(1.0, -1074)
    den = rt.rat_den(np.array([tiny, 0.75, 1e-300, 3.0]))
    assert math.isnan(den[0]) and math.isnan(den[2])
    assert den[1] == 4.0 and den[3] == 1.0
    num = rt.rat_num(np.array([-math.inf, 1.5e300, -0.75, 1e-300]))
    assert math.isnan(num[0])  # -inf: not a rational
    assert num[1] == Fraction(1.5e300).numerator  # in range: exact
    assert num[2] == -3.0 and num[3] == Fraction(1e-300).numerator  # (53 bits: exact)
