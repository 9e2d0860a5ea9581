"""Round 20 mutation tests: ℕ/ℤ junk values in their sympy form (:mod:`mirror.translate.integers`)
against Lean's definitions written out by brute force, the NumPy forms of the same functions
(:class:`~mirror.evaluate.numpy_runtime.NumpyRuntime`), the truncation polarity table and the
classification of a draw (:class:`~mirror.judge.checks.Judge`, :func:`~mirror.judge.tally.summarize`).

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


# ---- the outcome a run's tally supports (tally.summarize) --------------------------------------

from mirror.judge.checks import (FLOAT_ONLY, PASS, REFUTED, REJECT, SKIPPED, UNSETTLED,  # noqa: E402
                                 Judge, holds)
from mirror.judge.exact import Decision  # noqa: E402
from mirror.judge.outcome import FLOAT_TOLERANCE, KERNEL_WRONG  # noqa: E402
from mirror.judge.tally import Tally, summarize, undecided_note  # noqa: E402


def _summary(tally, fraction=0.5, out_of_time=False):
    return summarize(tally, ["hypothesis (10 max examples)", "sweep"], out_of_time, fraction)


def test_a_run_of_passing_examples_is_tested_with_its_counts():
    outcome = _summary(Tally(valid=20, rejected=3, max_error=1e-12))
    assert outcome.status == "tested" and outcome.reason is None
    assert outcome.examples == 20 and outcome.rejected == 3 and outcome.undecided == 0
    assert outcome.max_error == 1e-12 and outcome.tolerance == FLOAT_TOLERANCE
    assert outcome.method == "hypothesis (10 max examples) + sweep" and outcome.notes == []


def test_rejections_refusals_and_nonfinite_draws_are_not_counted_and_too_many_make_it_inconclusive():
    # 10 passing, 4 rejected + 3 refused + 3 non-finite = 10 not counted: exactly half is allowed
    tally = Tally(valid=10, rejected=4, refused=3, nonfinite=3)
    outcome = _summary(tally)
    assert outcome.status == "tested" and outcome.rejected == 10
    # one more rejection tips it past half
    tally.rejected = 5
    outcome = _summary(tally)
    assert outcome.status == "inconclusive"
    assert outcome.reason == ("11 of 21 draws not counted: 5 rejected by the hypotheses, "
                              "3 out of the domain of its values or refused by a bound kernel, "
                              "3 where a bound kernel returned NaN or ±∞")
    # undecided draws count against the statement as rejections do, and are named
    outcome = _summary(Tally(valid=2, undecided=3, undecided_in={"conclusion": 3}))
    assert outcome.status == "inconclusive" and outcome.undecided == 3
    assert outcome.reason == "3 of 5 draws not counted: 3 undecided by every precision"
    # a stricter fraction
    assert _summary(Tally(valid=10, rejected=2), fraction=0.1).status == "inconclusive"
    assert _summary(Tally(valid=10, rejected=1), fraction=0.1).status == "tested"


def test_no_draw_at_all_is_inconclusive_and_says_whether_time_ran_out():
    assert _summary(Tally()).reason == "no example was drawn"
    outcome = _summary(Tally(), out_of_time=True)
    assert outcome.status == "inconclusive"
    assert outcome.reason == "no example was drawn before the time budget ran out"
    assert outcome.notes == ["stopped by the time budget"]


def test_a_counterexample_refutes_whatever_else_was_counted():
    decision = Decision("fails", "exact rational arithmetic", error=0.75)
    tally = Tally(valid=3, rejected=100, undecided=50, undecided_failing=2, float_only=1,
                  float_example=({"x": 1.0}, 1e-3),
                  counterexample=({"x": np.float64(0.5)}, 0.25, decision), refuted_as=KERNEL_WRONG)
    outcome = _summary(tally)
    assert outcome.status == "refuted"
    assert outcome.counterexample == {"x": 0.5}
    assert outcome.decision_method == "exact rational arithmetic"
    assert outcome.max_error == 0.25
    assert outcome.reason == ("counterexample decided by exact rational arithmetic: the "
                              "hypotheses hold and the conclusion fails (error 0.75, float64 "
                              "error 0.25); " + KERNEL_WRONG)
    # a non-finite float64 error does not become the largest error
    tally.counterexample = ({"x": 0.5}, math.inf, decision)
    tally.refuted_as = ""
    outcome = _summary(tally)
    assert outcome.max_error == 0.0 and outcome.reason.endswith("float64 error inf)")


def test_a_float_only_mismatch_is_inconclusive_with_its_size():
    tally = Tally(valid=30, float_only=2, float_example=({"x": 2.0}, 3e-10), rounding=4e-10,
                  max_error=1e-11)
    outcome = _summary(tally)
    assert outcome.status == "inconclusive" and outcome.counterexample == {"x": 2.0}
    assert outcome.max_error == 3e-10
    assert outcome.reason == ("the kernel violates the statement only by float rounding: 2 "
                              "float64 mismatch(es) that re-evaluating the kernel's outputs at "
                              "50 digits (within 1e-09) does not confirm (largest float64 "
                              "violation 4e-10)")
    tally.lean_holds = 1
    assert _summary(tally).reason.endswith("; Lean's own definition satisfies the statement there")
    # an undecided float64 counterexample comes after it
    tally.undecided_failing, tally.undecided_reason = 1, "ball arithmetic up to 512 bits"
    assert _summary(tally).reason.startswith("the kernel violates")


def test_an_undecided_float_counterexample_is_inconclusive_not_tested():
    tally = Tally(valid=100, undecided=1, undecided_failing=1,
                  undecided_reason="ball arithmetic up to 2048 bits")
    outcome = _summary(tally)
    assert outcome.status == "inconclusive"
    assert outcome.reason == ("1 draw(s) fail in float64 but are undecided by exact and ball "
                              "arithmetic (ball arithmetic up to 2048 bits)")


def test_the_notes_say_every_count():
    tally = Tally(valid=40, refused=2, nonfinite=1, exact=5,
                  exact_methods={"exact rational arithmetic": 3, "ball arithmetic": 2},
                  resolved=4, skipped=6, undecided=2,
                  undecided_in={"hypotheses": 1, "conclusion": 1})
    outcome = _summary(tally, out_of_time=True)
    assert outcome.notes == [
        "2 draw(s) out of the domain of the statement's values or refused by a bound kernel "
        "(not counted)",
        "1 draw(s) where a bound kernel returned NaN or ±∞ (ℝ has neither; its conformance row "
        "judges the kernel)",
        "5 distinct draw(s) decided exactly (2 by ball arithmetic, 3 by exact rational arithmetic)",
        "4 float64 mismatch(es) resolved by exact decision",
        "6 draw(s) float64 could not settle were not decided exactly (exact-decision budget "
        "spent) and not counted",
        "2 draw(s) no precision could decide (1 in the hypotheses, 1 in the conclusion; not "
        "counted, and not rejections)",
        "stopped by the time budget",
    ]
    assert outcome.method == ("hypothesis (10 max examples) + sweep; " + "; ".join(outcome.notes))
    assert undecided_note(Tally(undecided=3, undecided_in={"conclusion": 3})) == (
        "3 draw(s) no precision could decide (3 in the conclusion; not counted, and not rejections)")


def test_an_undecided_draw_is_counted_by_the_part_left_open():
    tally = Tally()
    tally.count_undecided(Decision("undecided", "ball arithmetic up to 64 bits",
                                   undecided_in="hypotheses"), failing=False)
    tally.count_undecided(Decision("undecided", "m1"), failing=True)
    tally.count_undecided(Decision("undecided", "m2"), failing=True)
    assert tally.undecided == 3 and tally.undecided_in == {"hypotheses": 1, "conclusion": 2}
    assert tally.undecided_failing == 2 and tally.undecided_reason == "m1"
    assert tally.rejected == 0 and tally.valid == 0


# ---- the classification of one draw (checks.Judge) ---------------------------------------------

from mirror.evaluate.batch import OutOfDomain  # noqa: E402
from mirror.judge import checks  # noqa: E402
from mirror.judge.outcome import STATEMENT_FALSE  # noqa: E402

PLAN = {"settings": {"nat_domain": 8}, "variables": [{"name": "x", "param": "v_x"}]}
HALF = {"x": np.float64(0.5)}


def _judge(prop, bound=False, unfolded=None):
    return Judge(prop, PLAN, {}, bound, Tally(), unfolded)


def _true(rt, v_x):
    return rt.truth(True), rt.lt(0, v_x)          # 0 < x: true at x = 1/2


def _false(rt, v_x):
    return rt.truth(True), rt.lt(v_x, 0)          # x < 0: false at x = 1/2


def _vacuous(rt, v_x):
    return rt.lt(v_x, 0), rt.lt(v_x, 0)           # the hypothesis x < 0 is false


def _near(rt, v_x):
    return rt.truth(True), rt.le(v_x, rt.number("0.4999999999999"))   # fails by 1e-13


def _settled(judge, *truths):
    """``Judge.settled`` on float64 truth values as ``classify`` passes them (NumPy booleans)."""
    return tuple(bool(v) for v in judge.settled(*map(np.bool_, truths)))


def test_float64_settles_only_what_it_decides_beyond_doubt():
    judge = _judge(_false)
    assert _settled(judge, True, True, True, True) == (True, False)
    assert _settled(judge, True, True, False, True) == (False, False)   # unsure hypotheses
    assert _settled(judge, True, True, True, False) == (False, False)   # unsure conclusion
    assert _settled(judge, False, True, True, True) == (False, True)    # sure false hypotheses
    assert _settled(judge, False, False, False, True) == (False, False)  # unsure: decide exactly
    bound = _judge(_false, bound=True)
    assert _settled(bound, True, True, False, False) == (True, False)   # a kernel: the float check
    assert _settled(bound, False, True, False, False) == (False, True)
    assert _settled(bound, True, False, True, True) == (False, False)


def test_a_sure_float_pass_counts_with_its_error_and_a_sure_rejection_rejects():
    judge = _judge(_false)   # the function is not consulted for what float64 settles
    assert judge.classify(HALF, True, True, True, True, 3e-12) == PASS
    assert judge.tally.valid == 1 and judge.tally.max_error == 3e-12 and judge.tally.exact == 0
    assert judge.classify(HALF, True, True, True, True, math.inf) == PASS
    assert judge.tally.max_error == 3e-12          # a non-finite error is no error size
    assert judge.classify(HALF, False, True, True, True, 0.0) == REJECT
    assert judge.tally.rejected == 1 and judge.tally.valid == 2


def test_an_unsure_draw_is_decided_exactly_and_a_resolved_mismatch_is_counted():
    judge = _judge(_true)
    # float64 called it a counterexample; the exact decision says it holds
    assert judge.classify(HALF, True, False, True, False, 0.5) == PASS
    assert judge.tally.resolved == 1 and judge.tally.valid == 1
    assert judge.tally.max_error == 0.0           # a fragile draw's float error is not kept
    assert judge.tally.exact == 1 and judge.tally.exact_methods == {"exact rational arithmetic": 1}
    # decided once per distinct example
    assert judge.classify(HALF, True, False, True, False, 0.5) == PASS
    assert judge.tally.exact == 1 and judge.tally.resolved == 2
    # an unsure pass is decided too, and is not a resolved mismatch
    other = _judge(_true)
    assert other.classify(HALF, True, True, False, True, 1e-10) == PASS
    assert other.tally.resolved == 0 and other.tally.max_error == 0.0


def test_an_unsure_draw_decided_false_refutes_and_vacuous_rejects():
    judge = _judge(_false)
    assert judge.classify(HALF, True, False, True, False, 0.5) == REFUTED
    example, err, decision = judge.tally.counterexample
    assert example == HALF and err == 0.5 and decision.verdict == "fails"
    assert judge.last_decision is decision and judge.tally.refuted_as == ""
    # a later refutation keeps the first counterexample
    assert judge.classify({"x": np.float64(0.25)}, True, False, True, False, 0.7) == REFUTED
    assert judge.tally.counterexample[0] == HALF and judge.tally.valid == 2
    vacuous = _judge(_vacuous)
    assert vacuous.classify(HALF, True, True, False, True, 0.0) == REJECT
    assert vacuous.tally.rejected == 1 and vacuous.tally.valid == 0


def test_a_draw_the_rigorous_evaluation_leaves_the_domain_of_is_refused_not_rejected():
    def outside(rt, v_x):
        raise OutOfDomain("index 9 of a sequence sampled to 8")
    judge = _judge(outside)
    assert judge.classify(HALF, True, True, False, False, 0.0) == REJECT
    assert judge.tally.refused == 1 and judge.tally.rejected == 0


def test_without_exact_decisions_an_unsure_draw_is_skipped_unless_float_calls_it_a_counterexample():
    judge = _judge(_false)
    assert judge.classify(HALF, True, True, False, True, 0.0, exact_allowed=False) == SKIPPED
    assert judge.tally.skipped == 1 and judge.tally.exact == 0 and judge.tally.valid == 0
    # float64 calls it a counterexample: decided anyway
    assert judge.classify(HALF, True, False, True, False, 1.0, exact_allowed=False) == REFUTED
    # once decided, the same example is replayed as decided
    assert judge.classify(HALF, True, True, False, True, 0.0, exact_allowed=False) == REFUTED
    assert judge.tally.skipped == 1


def test_once_the_exact_time_is_spent_new_unsure_draws_are_skipped():
    judge = _judge(_false)
    judge.classify(HALF, True, False, True, False, 1.0)
    judge.exact_seconds = checks.EXACT_SECONDS
    assert judge.classify({"x": np.float64(0.25)}, True, False, True, False, 1.0) == SKIPPED
    assert judge.tally.skipped == 1
    assert judge.classify(HALF, True, False, True, False, 1.0) == REFUTED   # decided before
    assert judge.lean_decision(HALF) is None


def test_a_kernel_is_judged_within_the_float_tolerance():
    # a kernel off by 1e-13 is a float-only mismatch, not a refutation
    judge = _judge(_near, bound=True)
    assert judge.classify(HALF, True, False, True, False, 1e-13) == FLOAT_ONLY
    assert judge.tally.float_only == 1 and judge.tally.rounding == 1e-13
    assert judge.tally.float_example == (HALF, 1e-13) and judge.tally.valid == 0
    assert judge.classify({"x": np.float64(0.5)}, True, False, True, False, math.nan) == FLOAT_ONLY
    assert judge.tally.rounding == 1e-13 and judge.tally.float_example == (HALF, 1e-13)
    assert judge.last_decision.verdict == "holds"
    # off by far more than the tolerance: refuted, the kernel is wrong only if Lean's
    # definitions say otherwise (no unfolded form here: no attribution)
    wrong = _judge(_false, bound=True)
    assert wrong.classify(HALF, True, False, True, False, 0.5) == REFUTED
    assert wrong.tally.refuted_as == ""
    assert wrong.tally.counterexample[2].verdict == "fails"


def test_lean_own_definitions_decide_a_kernel_statement_first():
    # Lean's definition violates the statement: the statement is false
    judge = _judge(_near, bound=True, unfolded=_false)
    assert judge.classify(HALF, True, False, True, False, 0.5) == REFUTED
    assert judge.tally.refuted_as == STATEMENT_FALSE
    assert judge.tally.exact == 1 and judge.tally.lean_holds == 0
    assert judge.tally.exact_methods == {"Lean's own definitions: exact rational arithmetic": 1}
    # Lean's definition satisfies it, the kernel's output is off beyond the tolerance
    kernel = _judge(_false, bound=True, unfolded=_true)
    assert kernel.classify(HALF, True, False, True, False, 0.5) == REFUTED
    assert kernel.tally.refuted_as == KERNEL_WRONG and kernel.tally.lean_holds == 1
    # Lean's hypotheses fail there: the draw says nothing
    vacuous = _judge(_true, bound=True, unfolded=_vacuous)
    assert vacuous.classify(HALF, True, False, True, False, 0.5) == REJECT
    assert vacuous.tally.rejected == 1 and vacuous.tally.valid == 0


def test_a_nonfinite_kernel_output_is_counted_apart_or_refuted_by_leans_definition():
    judge = _judge(_true, bound=True, unfolded=_false)
    assert judge.nonfinite(HALF) == REFUTED
    assert judge.tally.nonfinite == 1 and judge.tally.refuted_as == STATEMENT_FALSE
    assert judge.tally.counterexample[1] == math.inf
    fine = _judge(_true, bound=True, unfolded=_true)
    assert fine.nonfinite(HALF) == REJECT and fine.tally.nonfinite == 1
    assert fine.tally.rejected == 0 and fine.tally.exact == 1
    # past NONFINITE_DECISIONS draws, Lean's definition is no longer consulted
    many = _judge(_true, bound=True, unfolded=_false)
    many.tally.nonfinite = checks.NONFINITE_DECISIONS
    assert many.nonfinite(HALF) == REJECT and many.tally.exact == 0


def test_holds_is_exact_or_within_an_equations_tolerance():
    class T:
        ok = np.array([True, False, False, True])
        exact = np.array([False, True, False, True])
    assert holds(T()).tolist() == [True, True, False, True]


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
