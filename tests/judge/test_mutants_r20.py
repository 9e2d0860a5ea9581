"""Round 20 mutation tests: ℕ/ℤ junk values in their sympy form (:mod:`mirror.translate.integers`)
against Lean's definitions written out by brute force, the NumPy forms of the same functions
(:class:`~mirror.evaluate.numpy_runtime.NumpyRuntime`) and a few ball functions no selected
test reached (``test_mutants_classify.py`` has the classification of draws and runs).

Every reference here is Lean's definition (Mathlib's / core's stated lemma in the comment),
computed independently of the code under test.
"""

from __future__ import annotations

import itertools
import math

import pytest
import sympy as sp

from mirror.translate import integers as I

SMALL = range(-7, 8)


# ---- Lean's definitions, by brute force -------------------------------------------------------


def lean_ediv(a: int, b: int) -> int:
    """``Int.ediv``: ``a = b * q + r`` with ``0 ≤ r < |b|``; ``Int.ediv_zero``: ``a / 0 = 0``."""
    if b == 0:
        return 0
    return next(q for q in range(-abs(a) - 1, abs(a) + 2) if 0 <= a - b * q < abs(b))


def lean_tdiv(a: int, b: int) -> int:
    """``Int.tdiv``: the quotient rounded toward zero; ``Int.tdiv_zero``."""
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if a * b >= 0 else -q


def lean_fdiv(a: int, b: int) -> int:
    """``Int.fdiv``: the greatest ``q`` with ``q * b ≤ a`` for ``b > 0`` (flipped for ``b < 0``)."""
    if b == 0:
        return 0
    return max(q for q in range(-abs(a) - 1, abs(a) + 2) if (a - b * q) * b >= 0)


def lean_nat_log(b: int, n: int) -> int:
    """``Nat.log b n``: the largest ``k`` with ``b ^ k ≤ n`` when ``1 < b`` and ``0 < n``, else 0."""
    if b <= 1 or n == 0:
        return 0
    return max(k for k in range(n + 1) if b ** k <= n)


@pytest.mark.parametrize("a, b", list(itertools.product(SMALL, SMALL)))
def test_integer_division_variants_match_their_lean_definitions(a, b):
    A, B = sp.Integer(a), sp.Integer(b)
    assert I.IntDiv(A, B) == lean_ediv(a, b)
    assert I.IntTDiv(A, B) == lean_tdiv(a, b)
    assert I.IntFDiv(A, B) == lean_fdiv(a, b)
    # Int.emod_def / tmod_def / fmod_def: the remainder is a - b * (a / b) in each rounding
    assert I.NatMod(A, B) == a - b * lean_ediv(a, b)
    assert I.IntTMod(A, B) == a - b * lean_tdiv(a, b)
    assert I.IntFMod(A, B) == a - b * lean_fdiv(a, b)
    # the Python helpers give the same numbers
    assert I.int_ediv(a, b) == lean_ediv(a, b)
    assert I.int_tdiv(a, b) == lean_tdiv(a, b)
    assert I.int_fdiv(a, b) == lean_fdiv(a, b)
    assert I.int_emod(a, b) == a - b * lean_ediv(a, b)


@pytest.mark.parametrize("a, b", list(itertools.product(range(0, 12), range(0, 12))))
def test_nat_functions_match_their_lean_definitions(a, b):
    A, B = sp.Integer(a), sp.Integer(b)
    assert I.NatDiv(A, B) == (0 if b == 0 else a // b)          # Nat.div_zero
    assert I.NatMod(A, B) == (a if b == 0 else a % b)           # Nat.mod_zero
    assert I.NatSub(A, B) == max(a - b, 0)                      # truncated subtraction
    assert I.NatLog(B, A) == lean_nat_log(b, a)
    assert I.nat_log(b, a) == lean_nat_log(b, a)
    assert I.NatChoose(A, B) == (math.factorial(a) // (math.factorial(b) * math.factorial(a - b))
                                 if b <= a else 0)              # Nat.choose_eq_zero_of_lt
    assert I.NatGcd(A, B) == max((d for d in range(1, max(a, b) + 1)
                                  if a % d == 0 and b % d == 0), default=0)
    assert I.NatLcm(A, B) == (0 if a == 0 or b == 0 else
                              min(m for m in range(1, a * b + 1) if m % a == 0 and m % b == 0))
    assert I.NatSqrt(A) == max(r for r in range(a + 1) if r * r <= a)
    if b > 0:
        assert I.FinWrap(A, B) == a % b


def test_symbolic_junk_values_on_a_zero_divisor():
    """The Lean value when only the divisor is known (``x / 0 = 0``, ``x % 0 = x``,
    ``gcd x 0 = x``, ``lcm x 0 = 0``, ``choose x 0 = 1``, ``Nat.log 0 x``… by the lemmas named
    in :mod:`mirror.translate.integers`), and nothing claimed when the divisor is unknown."""
    x, y = sp.Symbol("x", integer=True), sp.Symbol("y", integer=True)
    zero = sp.Integer(0)
    assert I.NatDiv(x, zero) == 0 and I.IntDiv(x, zero) == 0
    assert I.IntTDiv(x, zero) == 0 and I.IntFDiv(x, zero) == 0
    assert I.NatMod(x, zero) == x and I.IntTMod(x, zero) == x and I.IntFMod(x, zero) == x
    assert I.NatGcd(x, zero) == x and I.NatLcm(x, zero) == 0
    assert I.NatChoose(x, zero) == 1
    assert I.NatLog(x, zero) == 0   # Nat.log_zero_right
    assert I.NatSub(x, zero) == x
    for f in (I.NatDiv, I.IntDiv, I.NatMod, I.NatGcd, I.NatLcm, I.NatChoose, I.IntTDiv,
              I.IntFDiv, I.IntTMod, I.IntFMod, I.NatSub):
        assert isinstance(f(x, y), f)           # undecided: stays a function of x, y
    assert isinstance(I.FinWrap(sp.Integer(3), zero), I.FinWrap)   # Fin 0 has no elements
    assert isinstance(I.NatSqrt(x), I.NatSqrt) and isinstance(I.NatSqrt(sp.Integer(-1)), I.NatSqrt)


def test_nat_subtraction_decides_by_sign_only_when_known():
    n = sp.Symbol("n", integer=True, nonnegative=True)
    assert I.NatSub(n + 3, n) == 3                 # (n + 3) - n = 3
    assert I.NatSub(n, n + 2) == 0                 # n - (n + 2) = 0 in ℕ
    assert I.NatSub(sp.Integer(2), sp.Integer(5)) == 0
    m = sp.Symbol("m", integer=True, nonnegative=True)
    assert isinstance(I.NatSub(n, m), I.NatSub)


def test_rational_numerator_and_denominator():
    """``Rat.num``/``Rat.den`` in lowest terms, the sign on the numerator (``Rat.den_pos``)."""
    for p, q in itertools.product(range(-6, 7), range(1, 7)):
        value = sp.Rational(p, q)
        g = math.gcd(p, q)
        assert I.RatNum(value) == p // g and I.RatDen(value) == q // g
    assert I.RatDen(sp.Integer(-4)) == 1 and I.RatNum(sp.Integer(-4)) == -4
    x = sp.Symbol("x")
    assert isinstance(I.RatNum(x), I.RatNum) and isinstance(I.RatDen(x), I.RatDen)


def test_integer_function_assumptions():
    """What sympy may assume of the values (ℕ's are ≥ 0; the denominator is > 0)."""
    x, y = sp.Symbol("x", integer=True), sp.Symbol("y", integer=True)
    assert I.NatDiv(x, y).is_nonnegative and I.NatMod(x, y).is_nonnegative
    assert I.NatSub(x, y).is_nonnegative and I.NatSub(x, y).is_integer
    assert I.RatDen(sp.Symbol("q")).is_positive and I.RatNum(sp.Symbol("q")).is_integer
    assert I.FinWrap(x, y).is_nonnegative and I.NatSqrt(x).is_nonnegative
    assert I.IntDiv(x, y).is_integer


# ---- the NumPy forms (the float64 filter) ------------------------------------------------------

import numpy as np  # noqa: E402

from mirror.evaluate.numpy_runtime import NumpyRuntime  # noqa: E402

PAIRS = list(itertools.product(SMALL, SMALL))


def _columns(pairs, dtype):
    a = np.array([p[0] for p in pairs], dtype=dtype)
    b = np.array([p[1] for p in pairs], dtype=dtype)
    return a, b


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_numpy_integer_division_and_remainder_are_leans(dtype):
    """``/`` and ``%`` on ℤ (``Int.ediv``/``Int.emod``, ``x / 0 = 0``, ``x % 0 = x``) and on ℕ,
    on int64 columns and on integers that arrive as floats."""
    rt = NumpyRuntime(len(PAIRS), 8)
    a, b = _columns(PAIRS, dtype)
    assert rt.int_div(a, b).tolist() == [lean_ediv(x, y) for x, y in PAIRS]
    assert rt.mod(a, b).tolist() == [x - y * lean_ediv(x, y) for x, y in PAIRS]
    nat = [(x, y) for x, y in PAIRS if x >= 0 and y >= 0]
    rn = NumpyRuntime(len(nat), 8)
    a, b = _columns(nat, dtype)
    assert rn.nat_div(a, b).tolist() == [0 if y == 0 else x // y for x, y in nat]
    assert rn.nat_sub(a, b).tolist() == [max(x - y, 0) for x, y in nat]


def test_numpy_integer_operations_refuse_what_is_no_int64():
    """An operand past int64 (a literal such as 942!, or ∞) decides nothing in float64: NaN
    there, the exact value elsewhere."""
    rt = NumpyRuntime(3, 8)
    a = np.array([7.0, math.inf, 2.0 ** 63])
    b = np.array([2.0, 2.0, 3.0])
    for op, expected in ((rt.nat_div, 3), (rt.int_div, 3), (rt.mod, 1)):
        out = op(a, b)
        assert out[0] == expected and np.isnan(out[1]) and np.isnan(out[2])
    out = rt.mod(np.array([7.0, 7.0, 7.0]), np.array([-2.0, math.nan, 2.0 ** 64]))
    assert out[0] == 1 and np.isnan(out[1]) and np.isnan(out[2])
    assert rt.int_div(np.array([-7, 7, 0]), np.array([2, -2, 0])).dtype.kind == "i"


def test_numpy_real_junk_values_are_mathlibs():
    rt = NumpyRuntime(5, 8)
    x = np.array([-2.0, 0.0, 0.5, 4.0, -0.0])
    # Real.log: log 0 = 0, log (-x) = log x (Real.log_zero, Real.log_neg_eq_log)
    assert np.allclose(rt.log(x), [math.log(2), 0.0, math.log(0.5), math.log(4), 0.0], rtol=0, atol=1e-15)
    # Real.sqrt of a negative is 0 (Real.sqrt_eq_zero')
    assert rt.sqrt(x).tolist() == [0.0, 0.0, math.sqrt(0.5), 2.0, 0.0]
    # x / 0 = 0 (div_zero), also for an integer numerator, which becomes a field value
    out = rt.div(np.array([3, -3, 6, 0, 1]), np.array([0, 0, 4, 0, 2]))
    assert out.tolist() == [0.0, 0.0, 1.5, 0.0, 0.5] and out.dtype.kind == "f"
    assert rt.div(np.array([1.0, 2.0]), np.array([4.0, 8.0])).tolist() == [0.25, 0.25]
    assert rt.div(np.array([1 + 1j, 2]), np.array([0, 2])).tolist() == [0, 1]
    assert rt.reciprocal(np.array([4.0, -0.5])).tolist() == [0.25, -2.0]


def test_numpy_rpow_is_mathlibs_definition():
    """``Real.rpow x y``: ``exp (log x * y)`` for ``x > 0``; ``exp (log x * y) * cos (y * π)``
    for ``x < 0`` (``Real.rpow_def_of_neg``); ``0 ^ 0 = 1``, ``0 ^ y = 0`` for ``y ≠ 0``
    (``Real.zero_rpow``)."""
    rt = NumpyRuntime(7, 8)
    x = np.array([4.0, -8.0, -8.0, 0.0, 0.0, 0.0, 2.0])
    y = np.array([0.5, 1 / 3, 2.0, 0.0, 3.0, -1.0, -2.0])
    expected = [2.0, 2.0 * math.cos(math.pi / 3), 64.0, 1.0, 0.0, 0.0, 0.25]
    assert np.allclose(rt.rpow(x, y), expected, rtol=1e-14, atol=0)


def test_numpy_power_is_the_monoid_power_and_zpow():
    """``x ^ n``: ``0 ^ 0 = 1``; an integer base stays an integer for ``n ≥ 0``; for ``n < 0``
    ``x ^ n = (x ^ -n)⁻¹`` and ``0 ^ n = 0`` (``zero_zpow``)."""
    rt = NumpyRuntime(4, 8)
    out = rt.power(np.array([0, 3, -2, 5]), np.array([0, 2, 3, 1]))
    assert out.tolist() == [1, 9, -8, 5] and out.dtype.kind == "i"
    out = rt.power(np.array([2, 0, -2, 3]), np.array([-2, -3, -1, 2]))
    assert out.tolist() == [0.25, 0.0, -0.5, 9.0]
    assert rt.power(np.array([0.5, 2.0, 0.0, 1.5]), np.array([2, -1, 0, 0])).tolist() == [0.25, 0.5, 1.0, 1.0]


@pytest.mark.parametrize("dtype", [np.int64, np.float64, object])
def test_numpy_fin_wrap_and_power_mod(dtype):
    """``Fin n`` arithmetic is arithmetic mod ``n``; ``x ^ k`` in ``ZMod n`` by the exact
    power (``5 ^ 35 mod 7`` never wraps int64)."""
    xs = [5, 15, -3, 35]
    ns = [7, 4, 5, 6]
    ks = [35, 3, 0, 4]
    rt = NumpyRuntime(4, 8)
    x = np.array(xs, dtype=dtype)
    n = np.array(ns, dtype=object if dtype is object else np.int64)
    assert [int(v) for v in rt.fin_wrap(x, n)] == [a % m for a, m in zip(xs, ns)]
    got = rt.power_mod(x, np.array(ks, dtype=object if dtype is object else np.int64), n)
    assert [int(v) for v in got] == [pow(a, k, m) for a, k, m in zip(xs, ks, ns)]
    # an integer computed in floating point is rounded, not truncated
    assert rt.fin_wrap(np.array([15.9999999, 16.0000001, 3.0, 2.4]), np.array([16, 16, 2, 5])).tolist() == [0, 0, 1, 2]


def test_numpy_extrema_of_several_arguments():
    rt = NumpyRuntime(2, 8)
    a, b, c = np.array([1.0, 5.0]), np.array([3.0, -1.0]), np.array([2.0, 7.0])
    assert rt.maximum(a, b, c).tolist() == [3.0, 7.0]
    assert rt.minimum(a, b, c).tolist() == [1.0, -1.0]
    assert rt.maximum(a).tolist() == [1.0, 5.0]


def test_numpy_literals_beyond_float64_are_infinite():
    rt = NumpyRuntime(1, 8)
    assert rt.integer("12") == 12.0 and rt.integer(str(10 ** 400)) == math.inf
    assert rt.integer(str(-10 ** 400)) == -math.inf
    assert rt.rational(1, 4) == 0.25 and rt.number("2.5") == 2.5


# ---- functions no selected test reached last round ---------------------------------------------

from flint import arb, fmpq  # noqa: E402

from mirror.evaluate.ball_runtime import BallRuntime  # noqa: E402


def lean_nat_digits(b: int, n: int) -> list[int]:
    """``Nat.digits b n`` by its defining equations: ``Nat.digits_zero_succ`` (base 0:
    ``[n]``), ``Nat.digits_one`` (base 1: ``n`` ones), ``Nat.digits_add_two_add_one``."""
    if n == 0:
        return []
    if b == 0:
        return [n]
    if b == 1:
        return [1] * n
    return [n % b] + lean_nat_digits(b, n // b)


def test_digit_length_in_numpy_is_the_length_of_nat_digits():
    rt = NumpyRuntime(1, 8)
    cases = [(b, n) for b in range(0, 5) for n in (0, 1, 5, 9, 16, 1234)] + [(10, 10 ** 12)]
    b = np.array([c[0] for c in cases])
    n = np.array([c[1] for c in cases])
    assert rt.digit_length(b, n).tolist() == [len(lean_nat_digits(*c)) for c in cases]
    assert rt.digit_sum(b, n).tolist() == [sum(lean_nat_digits(*c)) for c in cases]


def test_rat_num_and_den_of_floats_are_those_of_their_exact_values():
    """``Rat.num``/``Rat.den`` of a float's value (``0.75 = 3/4``); an integer's den is 1."""
    rt = NumpyRuntime(1, 8)
    q = np.array([0.75, -2.5, 3.0, 0.0, 0.1])
    assert rt.rat_num(q).tolist() == [3, -5, 3, 0, 3602879701896397]
    assert rt.rat_den(q).tolist() == [4, 2, 1, 1, 36028797018963968]
    assert rt.rat_den(np.array([7, -3])).tolist() == [1, 1]
    assert np.isnan(rt.rat_den(np.array([math.inf]))).all()


def test_rat_num_and_den_on_exact_balls_and_undecided_on_inexact_ones():
    rt = BallRuntime(8)
    q = np.array([fmpq(6, -4), fmpq(5), 7], dtype=object)
    assert [int(v) for v in rt.rat_num(q)] == [-3, 5, 7]
    assert [int(v) for v in rt.rat_den(q)] == [2, 1, 1]
    assert not rt.undecided
    out = rt.rat_den(np.array([arb(1) / 3], dtype=object))
    assert rt.undecided and not out[0].is_finite()


def test_ball_max_and_min_over_a_range_are_exact():
    """``Finset.sup'``/``inf'`` of ``i ↦ (i - 2)² / 3`` over ``range 5``: ``4/3`` and ``0``,
    exactly; per draw, with each draw's own bounds."""
    rt = BallRuntime(8)

    def body(i):
        return np.array([fmpq((int(i) - 2) ** 2, 3)], dtype=object)

    top = rt.extremum_range(body, 0, 5, 1, None)
    low = rt.extremum_range(body, 0, 5, -1, None)
    assert np.asarray(top).reshape(-1).tolist() == [fmpq(4, 3)]
    assert np.asarray(low).reshape(-1).tolist() == [0]
    one = rt.extremum_range(body, 3, 4, 1, None)
    assert np.asarray(one).reshape(-1).tolist() == [fmpq(1, 3)]
    assert not rt.undecided
    # an empty range with no Lean value (sup' needs a nonempty set): undecided, never a value
    empty = rt.extremum_range(body, 2, 2, 1, None)
    assert rt.undecided and not np.asarray(empty).reshape(-1)[0].is_finite()


def test_ball_abs_of_an_exact_integer_is_exact_at_any_size():
    """``|−2⁶³| = 2⁶³`` (an int64 draw is an integer, not a machine word: no wrap-around)."""
    rt = BallRuntime(8)
    out = rt.abs(np.array([np.int64(-2 ** 63), fmpq(-1, 3), -5], dtype=object))
    assert [v for v in out] == [2 ** 63, fmpq(1, 3), 5]
    assert type(out[0]) is int and type(out[1]) is fmpq


def test_nat_log_is_exact_on_large_powers():
    """``Nat.log b (b ^ k) = k`` (``Nat.log_pow``) and one less just below, at sizes where a
    float quotient would round."""
    for b, k in ((3, 40), (10, 25), (7, 30)):
        assert I.nat_log(b, b ** k) == k and I.nat_log(b, b ** k - 1) == k - 1
        assert I.NatLog(sp.Integer(b), sp.Integer(b ** k - 1)) == k - 1


def test_integer_functions_with_one_numeral_argument_stay_unevaluated():
    """``x / 3`` or ``7 % y`` with the other argument unknown is no number."""
    x = sp.Symbol("x", integer=True)
    for f in (I.NatDiv, I.IntDiv, I.NatMod, I.NatGcd, I.IntTDiv, I.IntFMod):
        assert isinstance(f(x, sp.Integer(3)), f) and isinstance(f(sp.Integer(7), x), f)
