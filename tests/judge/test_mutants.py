"""Tests that kill the plausible mutants of the deciding code (mutation testing, mutmut).

Each test pins one behaviour of the ball runtime, its junk-value functions (NumPy, ball and
sympy forms), the truth values and the classification of draws that a plausible slip would
change: ``Real.log`` of a negative argument, ``0 * ⊤`` on either side, the float tolerance,
a vacuous or undecided draw counted as a pass or a rejection, a guard taken when undecided.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from flint import arb, fmpq

from mirror.evaluate import balls
from mirror.evaluate.ball_runtime import BallRuntime
from mirror.evaluate.balls import working_precision
from mirror.evaluate.runtime import NumpyRuntime
from mirror.judge import checks
from mirror.judge.checks import REFUTED, REJECT, UNSETTLED, PASS, Judge, Tally, _summarize
from mirror.judge.exact import FAILS, HOLDS, UNDECIDED, VACUOUS, decide
from mirror.translate import ennreals, reals

PLAN = {"settings": {"nat_domain": 8}, "variables": [{"name": "x", "param": "v_x"}]}


def _rt() -> BallRuntime:
    return BallRuntime(8)


def _one(rt, method, *args):
    arrays = [np.array([a], dtype=object) for a in args]
    return getattr(rt, method)(*arrays).reshape(-1)[0]


# ---- sympy forms -------------------------------------------------------------------------------

def test_sympy_real_log_of_a_negative_is_the_log_of_its_absolute_value():
    assert reals.LeanLog(sp.Integer(-2)) == sp.log(2)
    assert reals.LeanLog(sp.Integer(0)) == 0
    assert reals.LeanLog(sp.Integer(3)) == sp.log(3)
    assert reals.LeanLog(sp.Symbol("x")).func is reals.LeanLog  # unknown sign: unevaluated


def test_sympy_sqrt_rpow_div_arcsin_junk_values():
    assert reals.LeanSqrt(sp.Integer(-4)) == 0 and reals.LeanSqrt(sp.Integer(4)) == 2
    assert reals.LeanDiv(sp.Integer(3), sp.Integer(0)) == 0
    assert reals.LeanDiv(sp.Integer(3), sp.Integer(2)) == sp.Rational(3, 2)
    assert reals.LeanRpow(sp.Integer(0), sp.Integer(0)) == 1
    assert reals.LeanRpow(sp.Integer(0), sp.Integer(2)) == 0
    assert reals.LeanRpow(sp.Integer(4), sp.Rational(1, 2)) == 2
    assert sp.simplify(reals.LeanRpow(sp.Integer(-8), sp.Rational(1, 3)) - 1) == 0  # 2·cos(π/3)
    assert reals.LeanArcsin(sp.Integer(1)) == sp.pi / 2
    assert reals.LeanArcsin(sp.Integer(-1)) == -sp.pi / 2
    assert reals.LeanTan(sp.pi / 2) == 0 and reals.LeanCot(sp.Integer(0)) == 0


def test_sympy_ennreal_zero_times_top_on_either_side():
    assert ennreals.ENNMul(sp.oo, sp.Integer(0)) == 0
    assert ennreals.ENNMul(sp.Integer(0), sp.oo) == 0
    assert ennreals.ENNMul(sp.Integer(2), sp.oo) == sp.oo


# ---- NumPy forms ---------------------------------------------------------------------------------

def test_numpy_ennreal_zero_times_top_on_either_side():
    rt = NumpyRuntime(2, 8)
    assert list(rt.enn_mul(np.array([np.inf, 0.0]), np.array([0.0, np.inf]))) == [0.0, 0.0]
    assert rt.enn_mul(np.array([2.0]), np.array([np.inf]))[0] == np.inf


def test_numpy_junk_values():
    rt = NumpyRuntime(3, 8)
    assert list(rt.log(np.array([-2.0, 0.0, 1.0]))) == [np.log(2.0), 0.0, 0.0]
    assert list(rt.sqrt(np.array([-4.0, 0.0, 4.0]))) == [0.0, 0.0, 2.0]
    assert list(rt.div(np.array([1.0, 2.0, 3.0]), np.array([0.0, 2.0, -3.0]))) == [0.0, 1.0, -1.0]
    assert list(rt.rpow(np.array([0.0, 0.0, 4.0]), np.array([0.0, 2.0, 0.5]))) == [1.0, 0.0, 2.0]
    assert list(rt.arcsin(np.array([2.0, -2.0, 0.0]))) == [np.pi / 2, -np.pi / 2, 0.0]


def test_float_tolerance_is_1e_9_an_error_of_1e_7_is_a_mismatch():
    assert checks.FLOAT_TOLERANCE == 1e-9
    rt = NumpyRuntime(1, 8, checks.FLOAT_TOLERANCE)
    off = rt.eq(np.array([1.0 + 1e-7]), 1.0)
    assert not off.ok[0] and off.sure[0]
    close = rt.eq(np.array([1.0 + 1e-12]), 1.0)
    assert close.ok[0] and not close.sure[0]


# ---- ball forms -------------------------------------------------------------------------------

def test_ball_log_sqrt_div_rpow_junk_values_are_exact_on_exact_guards():
    rt = _rt()
    assert _one(rt, "log", fmpq(0)) == 0
    assert _one(rt, "log", fmpq(-2)).overlaps(arb(2).log())
    assert _one(rt, "sqrt", fmpq(-4)) == 0 and _one(rt, "sqrt", fmpq(0)) == 0
    assert _one(rt, "sqrt", fmpq(4)).overlaps(arb(2))
    assert _one(rt, "div", fmpq(3), 0) == 0 and _one(rt, "div", fmpq(3), fmpq(2)) == fmpq(3, 2)
    assert _one(rt, "rpow", fmpq(0), fmpq(0)) == 1 and _one(rt, "rpow", fmpq(0), fmpq(2)) == 0
    assert _one(rt, "rpow", fmpq(4), 0) == 1
    assert _one(rt, "rpow", fmpq(2), fmpq(3)) == 8
    assert _one(rt, "rpow", fmpq(4), fmpq(1, 2)).overlaps(arb(2))
    assert _one(rt, "rpow", fmpq(-8), fmpq(1, 3)).overlaps(arb(1))  # 2 · cos(π/3)
    assert _one(rt, "power", fmpq(0), -1) == 0 and _one(rt, "power", fmpq(2), -2) == fmpq(1, 4)
    assert not rt.undecided


@pytest.mark.parametrize("method, args", [
    ("log", (arb(0, 1e-30),)), ("sqrt", (arb(0, 1e-30),)), ("div", (1, arb(0, 1e-30))),
    ("rpow", (arb(0, 1e-30), fmpq(1, 2))), ("power", (arb(0, 1e-30), -1)),
    ("real_tan", (arb.pi() / 2,)), ("arcsin", (arb(1, 1e-30),)), ("floor", (arb(2, 1e-30),)),
    ("sign", (arb(0, 1e-30),)), ("enn_mul", (arb(0, 1e-30), arb.pos_inf())),
    ("enn_inv", (arb(0, 1e-30),)), ("enn_sub", (arb(1, 1e-30), 1)),
])
def test_an_undecided_guard_marks_the_evaluation_undecided(method, args):
    rt = _rt()
    _one(rt, method, *args)
    assert rt.undecided and rt.reasons


def test_ball_clamps_and_roundings_decided():
    rt = _rt()
    assert _one(rt, "arcsin", fmpq(2)).overlaps(arb.pi() / 2)
    assert _one(rt, "arcsin", fmpq(1)).overlaps(arb.pi() / 2)
    assert _one(rt, "arcsin", fmpq(-1)).overlaps(-arb.pi() / 2)
    assert _one(rt, "arcsin", fmpq(-3)).overlaps(-arb.pi() / 2)
    assert _one(rt, "arcsin", fmpq(1, 2)).overlaps(arb.pi() / 6)
    assert _one(rt, "floor", fmpq(-7, 2)) == -4 and _one(rt, "ceil", fmpq(-7, 2)) == -3
    assert _one(rt, "floor", arb(2.5)) == 2 and _one(rt, "ceil", arb(2.5)) == 3
    assert _one(rt, "sign", fmpq(-3)) == -1 and _one(rt, "sign", 0) == 0
    assert _one(rt, "sign", arb(2)) == 1
    assert _one(rt, "real_tan", fmpq(0)) == 0
    assert _one(rt, "real_cot", fmpq(1)).overlaps(arb(1).cos() / arb(1).sin())
    assert not rt.undecided


def test_ball_ennreal():
    rt = _rt()
    top = arb.pos_inf()
    assert _one(rt, "enn_mul", top, 0) == 0 and _one(rt, "enn_mul", 0, top) == 0
    assert balls.is_top(_one(rt, "enn_mul", fmpq(2), top))
    assert _one(rt, "enn_mul", fmpq(2), fmpq(3)) == 6
    assert _one(rt, "enn_sub", top, top) == 0 and balls.is_top(_one(rt, "enn_sub", top, 3))
    assert _one(rt, "enn_sub", fmpq(2), fmpq(3)) == 0 and _one(rt, "enn_sub", fmpq(3), 1) == 2
    assert balls.is_top(_one(rt, "enn_inv", 0)) and _one(rt, "enn_inv", top) == 0
    assert _one(rt, "enn_inv", fmpq(4)) == fmpq(1, 4)
    assert balls.is_top(_one(rt, "enn_add", top, 1)) and _one(rt, "enn_add", 1, 2) == 3
    assert _one(rt, "enn_to_real", top) == 0 and _one(rt, "enn_to_real", fmpq(5)) == 5
    assert not rt.undecided


# ---- relations ---------------------------------------------------------------------------------

@pytest.mark.parametrize("a, b, lt, le, eq", [
    (fmpq(1), fmpq(2), True, True, False),
    (fmpq(2), fmpq(2), False, True, True),
    (fmpq(3), fmpq(2), False, False, False),
    (arb(1), arb(2).sqrt(), True, True, False),
    (arb(2).sqrt(), arb(1), False, False, False),
    (arb(2).sqrt() * arb(2).sqrt(), 2, None, None, None),  # contains 2, not exactly 2
    (arb(0.5), fmpq(1, 2), False, True, True),  # a ball of radius 0 is exact
])
def test_relations_are_decided_only_by_their_enclosures(a, b, lt, le, eq):
    rt = _rt()
    for method, expected in (("lt", lt), ("le", le), ("eq", eq)):
        truth = _one_truth(rt, method, a, b)
        assert (bool(truth.sure[0]), bool(truth.ok[0])) == (
            (expected is not None), bool(expected)), (method, a, b)
    ne = _one_truth(rt, "ne", a, b)
    assert bool(ne.sure[0]) == (eq is not None) and bool(ne.ok[0]) == (eq is False)


def _one_truth(rt, method, a, b):
    return getattr(rt, method)(np.array([a], dtype=object), np.array([b], dtype=object))


def test_enclosure_strings_are_exact_and_contain_the_value():
    with working_precision(64):
        value = arb(1) / 3
    enclosure = balls.enclosure(value)
    from fractions import Fraction

    mid, rad = Fraction(enclosure["mid"]), Fraction(enclosure["rad"])
    assert mid - rad <= Fraction(1, 3) <= mid + rad and rad > 0
    assert balls.enclosure(fmpq(2, 3)) == {"mid": "2/3", "rad": "0"}


def test_difference_sign_and_equality_with_top():
    top = arb.pos_inf()
    assert balls.difference_sign(top, top) == 0 and balls.difference_sign(top, 5) == 1
    assert balls.difference_sign(5, top) == -1
    assert balls.decided_equal(top, top) is True and balls.decided_equal(top, 5) is False


# ---- decisions ---------------------------------------------------------------------------------

def _decide(prop, x):
    return decide(prop, PLAN, {"x": np.float64(x)})


def test_verdicts_of_a_decision():
    assert _decide(lambda rt, v_x: (rt.lt(v_x, 0), rt.truth(False)), 1.0).verdict == VACUOUS
    assert _decide(lambda rt, v_x: (rt.lt(0, v_x), rt.lt(v_x, 0)), 1.0).verdict == FAILS
    assert _decide(lambda rt, v_x: (rt.lt(0, v_x), rt.le(0, v_x)), 1.0).verdict == HOLDS
    # an undecided hypothesis supports nothing, whatever the conclusion
    undecided = _decide(lambda rt, v_x: (rt.eq(_vanishing(rt, v_x), 0), rt.truth(False)), 0.5)
    assert undecided.verdict == UNDECIDED and undecided.reasons


def _vanishing(rt, v_x):
    """``toReal (exp x) - exp x``: exactly 0, but no ball is exactly 0 and the sympy runtime
    does not evaluate ℝ≥0∞ (so neither decides it)."""
    return rt.enn_to_real(rt.exp(v_x)) - rt.exp(v_x)


def test_the_sympy_identity_does_not_decide_an_order_it_cannot_prove():
    # exp x > 0 is not an identity: balls decide it, sympy alone would not
    held = _decide(lambda rt, v_x: (rt.truth(True), rt.lt(0, rt.exp(v_x))), 0.3)
    assert held.verdict == HOLDS and held.method.startswith("ball arithmetic")


# ---- classification of draws ---------------------------------------------------------------

def _judge(prop, bound=False):
    return Judge(prop, PLAN, {}, bound, Tally())


def test_a_vacuous_draw_is_a_rejection_not_a_pass():
    judge = _judge(lambda rt, v_x: (rt.eq(v_x, rt.exp(v_x)), rt.truth(True)))
    kind = judge.classify({"x": np.float64(0.5)}, True, True, False, True, 0.0)
    assert kind == REJECT and judge.tally.valid == 0 and judge.tally.rejected == 1


def test_unsure_hypotheses_are_decided_not_counted_as_rejections():
    # float64 doubts the hypothesis (not sure), the exact decision says it holds
    judge = _judge(lambda rt, v_x: (rt.le(v_x, v_x), rt.le(v_x, v_x + 1)))
    kind = judge.classify({"x": np.float64(0.5)}, False, True, False, True, 0.0)
    assert kind == PASS and judge.tally.rejected == 0 and judge.tally.valid == 1


def test_an_undecided_failing_draw_makes_the_statement_inconclusive():
    judge = _judge(lambda rt, v_x: (rt.truth(True), rt.eq(rt.div(1, _vanishing(rt, v_x)), 0)))
    kind = judge.classify({"x": np.float64(0.5)}, True, False, True, False, 1.0)
    assert kind == UNSETTLED and judge.tally.undecided_failing == 1
    judge.tally.valid = 100
    outcome = _summarize(judge.tally, ["m"], False, 0.5)
    assert outcome.status == "inconclusive" and "undecided" in outcome.reason


def test_a_decided_failing_draw_refutes():
    judge = _judge(lambda rt, v_x: (rt.truth(True), rt.lt(v_x, 0)))
    assert judge.classify({"x": np.float64(0.5)}, True, False, True, True, 1.0) == REFUTED
    outcome = _summarize(judge.tally, ["m"], False, 0.5)
    assert outcome.status == "refuted" and outcome.decision_method == "exact rational arithmetic"


# ---- truth values: connectives propagate "decided" (sure) as three-valued logic -----------

def _truths():
    """Four draws: (true, sure), (false, sure), (true, unsure), (false, unsure)."""
    from mirror.evaluate.truth import Truth

    ok = np.array([True, False, True, False])
    return Truth(ok, ok.copy(), np.array([0.0, 2.0, 0.5, 3.0]),
                 np.array([True, True, False, False]))


def _pairs():
    from mirror.evaluate.truth import Truth

    # a over the 16 combinations with b
    a_ok = np.repeat([True, False, True, False], 4)
    a_sure = np.repeat([True, True, False, False], 4)
    b_ok = np.tile([True, False, True, False], 4)
    b_sure = np.tile([True, True, False, False], 4)
    a = Truth(a_ok, a_ok.copy(), np.where(a_ok, 0.0, 1.0), a_sure)
    b = Truth(b_ok, b_ok.copy(), np.where(b_ok, 0.0, 2.0), b_sure)
    return a, b, NumpyRuntime(16, 8)


def _kleene(values, sure):
    return [v if s else None for v, s in zip(values, sure)]


def _expected(op):
    out = []
    for a in (True, False, None, None):
        for b in (True, False, None, None):
            out.append(op(a, b))
    return out


def _k_and(a, b):
    return False if False in (a, b) else (None if None in (a, b) else True)


def _k_or(a, b):
    return True if True in (a, b) else (None if None in (a, b) else False)


def _k_not(a):
    return None if a is None else not a


@pytest.mark.parametrize("method, op", [
    ("and_", _k_and), ("or_", _k_or),
    ("implies", lambda a, b: _k_or(_k_not(a), b)),
    ("iff", lambda a, b: None if None in (a, b) else a == b),
])
def test_connectives_are_decided_exactly_where_kleene_logic_decides(method, op):
    a, b, rt = _pairs()
    t = getattr(rt, method)(a, b)
    decided = _kleene(list(t.ok), list(t.sure))
    assert decided == _expected(op), method


def test_connectives_exact_and_errors():
    a, b, rt = _pairs()
    both = rt.and_(a, b)
    assert list(both.exact) == list(a.exact & b.exact)
    assert list(both.err) == list(np.maximum(a.err, b.err))
    either = rt.or_(a, b)
    assert list(either.exact) == list(a.exact | b.exact)
    # a disjunction's error: the smallest among the parts that hold, else the smallest
    assert list(either.err) == [0.0 if (x or y) else min(e, f)
                                for x, y, e, f in zip(a.ok, b.ok, a.err, b.err)]
    implied = rt.implies(a, b)
    assert list(implied.exact) == list(~a.exact | b.exact)
    assert list(implied.err) == list(np.where(a.ok, b.err, 0.0))
    negated = rt.not_(a)
    assert list(negated.ok) == list(~a.ok) and list(negated.exact) == list(~a.exact)
    assert list(negated.sure) == list(a.sure)
    assert list(negated.err) == list(np.where(a.ok, np.inf, 0.0))
    assert rt.and_().ok.all() and rt.and_().sure.all()


def test_prop_ite_takes_the_decided_branch_and_its_sureness():
    a, b, rt = _pairs()
    from mirror.evaluate.truth import Truth

    cond = Truth(a.ok, a.ok.copy(), np.zeros(16), a.sure)
    t = rt.prop_ite(cond, lambda: b, lambda: rt.not_(b))
    other = rt.not_(b)
    assert list(t.ok) == list(np.where(a.ok, b.ok, other.ok))
    assert list(t.exact) == list(np.where(a.ok, b.exact, other.exact))
    assert list(t.err) == list(np.where(a.ok, b.err, other.err))
    assert list(t.sure) == list(a.sure & np.where(a.ok, b.sure, other.sure))


def test_float_equality_of_arrays_is_normwise_and_sure_beyond_the_tolerance():
    rt = NumpyRuntime(3, 8, 1e-9)
    a = np.array([[[1.0, 2.0], [3.0, 4.0]], [[1e6, 1.0], [0.0, 0.0]], [[1.0, np.nan], [0, 0]]])
    b = a.copy()
    b[0, 0, 0] = 1.0 + 1e-12  # within the tolerance: holds, not sure
    b[1, 1, 1] = 1e-4  # 1e-4 against an entry of 1e6: norm-wise 1e-10, within
    b[2, 0, 0] = 2.0  # off by 1 in a matrix of scale 1 (a NaN entry is infinitely off)
    t = rt.eq(a, b)
    assert list(t.ok) == [True, True, False]
    assert list(t.exact) == [False, False, False]
    assert t.err[0] == pytest.approx(1e-12 / 4, rel=1e-3, abs=0)  # scale: the largest entry
    assert t.err[1] == pytest.approx(1e-10, rel=1e-6) and t.err[2] == np.inf
    assert list(t.sure) == [False, False, True]
    same = rt.eq(np.ones((3, 2)), np.ones((3, 2)))
    assert same.ok.all() and same.exact.all() and (same.err == 0).all()
    empty = rt.eq(np.ones((3, 0)), np.ones((3, 0)))
    assert empty.ok.all() and (empty.err == 0).all()
    ints = rt.eq(np.array([1, 2, 3]), np.array([1, 2, 4]))
    assert list(ints.ok) == [True, True, False] and ints.sure.all()
    nan = rt.eq(np.array([np.nan, np.inf, 1.0]), np.array([np.nan, np.inf, 1.0]))
    assert list(nan.ok) == [False, True, True] and nan.err[0] == np.inf


def test_quantifiers_decide_by_one_sure_witness_or_all_sure():
    from mirror.evaluate.truth import Truth

    rt = NumpyRuntime(2, 8)
    # draw 0: terms (true sure, false sure); draw 1: (true sure, false unsure)
    terms = {0: Truth(np.array([True, True]), np.array([True, True]), np.zeros(2),
                      np.array([True, True])),
             1: Truth(np.array([False, False]), np.array([False, False]), np.array([1.0, 1.0]),
                      np.array([True, False]))}
    every = rt.forall_range(lambda j: terms[j], 0, 2)
    assert list(every.ok) == [False, False] and list(every.sure) == [True, False]
    some = rt.exists_range(lambda j: terms[j], 0, 2)
    assert list(some.ok) == [True, True] and list(some.sure) == [True, True]
    assert list(some.err) == [0.0, 0.0] and list(every.err) == [1.0, 1.0]


def test_quantifiers_over_ranges_that_differ_per_draw():
    from mirror.evaluate.truth import Truth

    rt = NumpyRuntime(3, 8)
    # draw 0 sees j = 0 only, draw 1 sees j = 0, 1, draw 2 sees nothing (empty range)
    hi = np.array([1, 2, 0])
    ok = {0: np.array([True, True, True]), 1: np.array([False, False, False])}
    exact = {0: np.array([True, False, True]), 1: np.array([False, False, False])}
    err = {0: np.array([0.0, 0.5, 0.0]), 1: np.array([2.0, 3.0, 4.0])}
    sure = {0: np.array([True, False, True]), 1: np.array([True, True, False])}

    def body(j):
        return Truth(ok[j], exact[j], err[j], sure[j])

    every = rt.forall_range(body, 0, hi)
    assert list(every.ok) == [True, False, True]
    assert list(every.exact) == [True, False, True]
    assert list(every.err) == [0.0, 3.0, 0.0]
    assert list(every.sure) == [True, True, True]  # draw 1: a sure false term decides
    some = rt.exists_range(body, 0, hi)
    assert list(some.ok) == [True, True, False]
    assert list(some.exact) == [True, False, False]
    assert list(some.err) == [0.0, 0.0, np.inf]
    assert list(some.sure) == [True, False, True]  # draw 1: its true term is not sure


# ---- the tolerance comparison of a bound implementation -------------------------------------

def test_the_tolerance_path_compares_at_fifty_digits_within_the_tolerance():
    from mirror.evaluate.runtime import OutOfDomain

    example = {"x": np.float64(3.0)}
    off = decide(lambda rt, v_x: (rt.truth(True), rt.eq(v_x, v_x * (1 + rt.number("1e-7")))),
                 PLAN, example, tolerance=1e-9)
    assert off.verdict == FAILS and off.method == "mpmath at 50 digits within 1e-09"
    assert off.error == pytest.approx(1e-7, rel=1e-6)
    close = decide(lambda rt, v_x: (rt.truth(True), rt.eq(v_x, v_x * (1 + rt.number("1e-12")))),
                   PLAN, example, tolerance=1e-9)
    assert close.verdict == HOLDS and close.error == pytest.approx(1e-12, rel=1e-6, abs=0)
    vacuous = decide(lambda rt, v_x: (rt.lt(v_x, 0), rt.truth(False)), PLAN, example,
                     tolerance=1e-9)
    assert vacuous.verdict == VACUOUS and vacuous.method.startswith("mpmath at 50 digits")

    def outside(rt, v_x):
        raise OutOfDomain("an index outside the sampled prefix")

    assert decide(outside, PLAN, example, tolerance=1e-9).verdict == UNDECIDED

    def invalid(rt, v_x):
        rt.invalid[:] = True
        return rt.truth(True), rt.truth(False)

    assert decide(invalid, PLAN, example, tolerance=1e-9).verdict == UNDECIDED

    def raises(rt, v_x):
        raise ZeroDivisionError("1 / 0")

    failed = decide(raises, PLAN, example, tolerance=1e-9)
    assert failed.verdict == UNDECIDED and "ZeroDivisionError" in failed.method


def test_undecided_ennreal_guards_name_the_operation():
    rt = _rt()
    _one(rt, "enn_mul", arb(0, 1e-30), fmpq(2))
    _one(rt, "enn_mul", fmpq(2), arb(0, 1e-30))
    _one(rt, "enn_inv", arb(0, 1e-30))
    assert rt.reasons == ["whether an operand of a product is 0",
                          "whether an operand of an inverse is 0"]
    assert balls.is_top(_one(rt, "enn_add", fmpq(1), arb.pos_inf()))
