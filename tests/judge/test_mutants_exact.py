"""The decision of one draw (``mirror.judge.exact``) and the sympy identity runtime
(``mirror.judge.identity``): the verdict table in the polarity truncation allows, the
combination of the two sound deciders, the starting precision, and the sympy runtime's
operations against exact references.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

from mirror.evaluate.truth import Truth
from mirror.judge import exact
from mirror.judge.exact import (EXACT_METHOD, FAILS, HOLDS, MAX_BITS, START_BITS, UNDECIDED,
                                VACUOUS, Decision, decide, start_bits)
from mirror.judge.identity import SympyRuntime
from mirror.translate.reals import LeanDiv, LeanRpow

PLAN = {"settings": {"nat_domain": 8}, "variables": [{"name": "x", "param": "v_x"}]}


def _truth(ok, sure=True, known=True):
    return Truth(np.array([ok]), np.array([ok]), np.array([0.0]), np.array([sure]),
                 np.array([known]))


@pytest.mark.parametrize("ok, sure, known, part", [
    (True, True, True, (True, True)), (False, True, True, (False, True)),
    (True, False, True, (None, True)), (False, False, False, (None, False)),
    (True, True, False, (True, False)),
])
def test_a_part_is_its_decided_value_and_whether_it_is_known(ok, sure, known, part):
    assert exact._part(_truth(ok, sure, known)) == part


# (hyp value, hyp known), (concl value, concl known) → verdict
@pytest.mark.parametrize("hyp, concl, verdict", [
    ((False, True), (None, False), VACUOUS),
    ((False, False), (True, True), UNDECIDED),  # a false hypothesis seen on a prefix only
    ((True, True), (True, True), HOLDS),
    ((True, False), (True, False), HOLDS),
    ((True, True), (False, True), FAILS),
    ((True, False), (False, True), UNDECIDED),  # no refutation rests on a truncated ∀
    ((True, True), (False, False), UNDECIDED),
    ((None, True), (False, True), UNDECIDED),
    ((True, True), (None, True), UNDECIDED),
    ((None, True), (True, True), UNDECIDED),
])
def test_the_verdict_table(hyp, concl, verdict):
    assert exact._verdict(hyp, concl) == verdict


def test_two_sound_decisions_combine_and_never_disagree():
    assert exact._combine((True, True), None) == (True, True)
    assert exact._combine((None, True), (None, True)) == (None, True)
    assert exact._combine((None, True), (False, True)) == (False, True)
    assert exact._combine((True, True), (True, False)) == (True, False)
    assert exact._combine((None, False), (True, True)) == (True, False)
    assert exact._combine((False, True), (None, False)) == (False, True)
    with pytest.raises(ArithmeticError, match="decide a part differently"):
        exact._combine((True, True), (False, True))


def test_the_starting_precision_spans_the_draws_magnitudes():
    assert start_bits({}) == START_BITS
    assert start_bits({"n": np.array([5, 7])}) == START_BITS  # integers need no span
    assert start_bits({"x": np.array([0.0, np.inf])}) == START_BITS
    assert start_bits({"x": np.float64(1.0)}) == START_BITS
    assert start_bits({"x": np.float64(2.0 ** 40)}) == START_BITS + 40
    assert start_bits({"x": np.float64(2.0 ** -30)}) == START_BITS + 30
    assert start_bits({"x": np.array([2.0 ** -30, 2.0 ** 20])}) == START_BITS + 50
    assert start_bits({"x": np.float64(3.0)}) == START_BITS + 2  # ceil(log2 3)
    assert start_bits({"x": np.array([], dtype=float)}) == START_BITS
    assert start_bits({"x": np.float64(1e300), "y": np.float64(1e-300)}) == min(
        MAX_BITS, START_BITS + math.ceil(math.log2(1e300) - math.log2(1e-300)))
    assert start_bits({"x": np.float64(5e-324), "y": np.float64(1.7e308)}) == min(
        MAX_BITS, START_BITS + math.ceil(math.log2(1.7e308) - math.log2(5e-324)))


def test_the_method_names_exact_arithmetic_only_when_every_difference_is_exact():
    assert exact._ball_method([], 64) == "exact evaluation (no relation left to decide)"
    exact_trace = [{"difference": {"mid": "1", "rad": "0"}}]
    assert exact._ball_method(exact_trace, 64) == EXACT_METHOD
    ball_trace = exact_trace + [{"difference": {"mid": "1", "rad": "1/1024"}}]
    assert exact._ball_method(ball_trace, 256) == "ball arithmetic at 256 bits"


def test_a_decisions_kind_is_its_method_without_precision():
    assert Decision(HOLDS, "ball arithmetic at 128 bits").kind == "ball arithmetic"
    assert Decision(FAILS, "sympy identity at the draw, ball arithmetic at 64 bits").kind == (
        "sympy identity")
    assert Decision(UNDECIDED, "ball arithmetic at 128 bits").kind == "undecided"
    assert Decision(HOLDS, EXACT_METHOD).kind == EXACT_METHOD


def _decide(prop, x, **options):
    return decide(prop, PLAN, {"x": np.float64(x)}, **options)


def test_a_decision_carries_its_precision_trace_and_error():
    held = _decide(lambda rt, v_x: (rt.truth(True), rt.lt(0, rt.exp(v_x))), 0.5)
    assert held.verdict == HOLDS and held.error == 0.0 and held.bits == START_BITS + 1
    assert held.method == f"ball arithmetic at {START_BITS + 1} bits"
    assert [entry["relation"] for entry in held.trace] == ["<"]
    failed = _decide(lambda rt, v_x: (rt.truth(True), rt.lt(v_x, 0)), 0.5)
    assert failed.verdict == FAILS and failed.error == math.inf and failed.method == EXACT_METHOD
    assert failed.trace and failed.bits == START_BITS + 1


def test_an_identity_the_balls_leave_open_is_proved_by_sympy():
    both = _decide(lambda rt, v_x: (rt.truth(True), rt.eq(rt.mul(rt.sqrt(v_x), rt.sqrt(v_x))
                                                          if hasattr(rt, "mul") else
                                                          rt.sqrt(v_x) * rt.sqrt(v_x), v_x)), 2.0)
    assert both.verdict == HOLDS
    assert both.method == f"sympy identity at the draw, ball arithmetic at {START_BITS + 1} bits"
    assert both.error == 0.0 and both.bits == START_BITS + 1 and both.trace


def test_an_undecided_draw_says_why_at_the_last_precision():
    def fuzzy(rt, v_x):
        # toReal (exp x) − exp x = 0: no ball is exactly 0 and sympy has no ℝ≥0∞
        return rt.truth(True), rt.eq(rt.enn_to_real(rt.exp(v_x)) - rt.exp(v_x), 0)

    undecided = _decide(fuzzy, 0.5)
    assert undecided.verdict == UNDECIDED and math.isnan(undecided.error)
    assert START_BITS < undecided.bits <= MAX_BITS  # escalated, then stopped
    assert undecided.method == (f"no enclosure decides it up to {undecided.bits} bits "
                                "(= not decided by its enclosure)")
    assert undecided.reasons == ("= not decided by its enclosure",)


def test_a_guard_undecided_is_the_reason():
    def guard(rt, v_x):
        return rt.truth(True), rt.eq(rt.div(1, rt.enn_to_real(rt.exp(v_x)) - rt.exp(v_x)), 0)

    undecided = _decide(guard, 0.5)
    assert undecided.verdict == UNDECIDED
    assert undecided.reasons == ("the sign of the argument of a division",)
    assert "the sign of the argument of a division" in undecided.method


def test_outside_the_sampled_domain_is_undecided():
    from mirror.evaluate.runtime import OutOfDomain

    def outside(rt, v_x):
        raise OutOfDomain("an index outside the sampled prefix")

    out = _decide(outside, 0.5)
    assert out.verdict == UNDECIDED and out.method == "outside the sampled domain"
    assert math.isnan(out.error) and out.bits == START_BITS + 1


def test_bindings_reach_both_decision_paths():
    calls = []

    def adapter(rt, dims, x):
        calls.append(type(rt).__name__)
        return x

    bindings = {"f": adapter}

    def prop(rt, v_x):
        return rt.truth(True), rt.eq(rt.call("f", (), v_x), v_x)

    assert _decide(prop, 0.5, bindings=bindings).verdict == HOLDS
    assert calls == ["BallRuntime"]
    within = _decide(prop, 0.5, bindings=bindings, tolerance=1e-9)
    assert within.verdict == HOLDS and calls[-1] == "MpRuntime"


def test_the_tolerance_path_does_not_refute_on_a_truncated_hypothesis():
    def prop(rt, v_x):
        every = rt.forall_range(lambda j: rt.truth(True), 0, rt.nat_domain)
        return every, rt.lt(v_x, 0)

    within = _decide(prop, 0.5, tolerance=1e-9)
    assert within.verdict == UNDECIDED and within.error == pytest.approx(0.5)
    plain = _decide(lambda rt, v_x: (rt.truth(True), rt.lt(v_x, 0)), 0.5, tolerance=1e-9)
    assert plain.verdict == FAILS
    vacuous_unknown = _decide(lambda rt, v_x: (rt.forall_range(
        lambda j: rt.lt(j, 3), 0, rt.nat_domain), rt.truth(True)), 0.5, tolerance=1e-9)
    assert vacuous_unknown.verdict == VACUOUS  # a false instance settles the ∀


def test_the_tolerance_path_on_an_error_names_it():
    def raises(rt, v_x):
        raise ValueError("no such value")

    failed = _decide(raises, 0.5, tolerance=1e-9)
    assert failed.verdict == UNDECIDED and failed.method == "ValueError: no such value"
    assert math.isnan(failed.error)

    def out_of_domain(rt, v_x):
        from mirror.evaluate.runtime import OutOfDomain
        raise OutOfDomain("beyond")

    out = _decide(out_of_domain, 0.5, tolerance=1e-9)
    assert out.method == "outside the sampled domain" and math.isnan(out.error)

    def invalid(rt, v_x):
        rt.invalid[:] = True
        return rt.truth(True), rt.truth(True)

    bad = _decide(invalid, 0.5, tolerance=1e-9)
    assert bad.verdict == UNDECIDED and math.isnan(bad.error)


# ---- the sympy runtime ------------------------------------------------------------------------

def _s(rt, method, *args):
    return getattr(rt, method)(*(np.array([a], dtype=object) for a in args)).reshape(-1)[0]


def test_sympy_runtime_numbers_are_exact():
    rt = SympyRuntime(8)
    lifted = rt.lift(np.array([0.1, -2.0]))
    assert lifted[0] == sp.Rational(3602879701896397, 36028797018963968) and lifted[1] == -2
    assert list(rt.lift(np.array([3, 4]))) == [3, 4] and rt.lift(np.array([3])).dtype == object
    with pytest.raises(TypeError, match="complex"):
        rt.lift(np.array([1j]))
    with pytest.raises(TypeError, match="non-finite"):
        rt.lift(np.array([np.inf]))
    assert rt.rational(2, 4) == sp.Rational(1, 2) and rt.number("0.25") == sp.Rational(1, 4)
    assert rt.integer("-3") == -3 and isinstance(rt.integer("5"), sp.Integer)
    assert rt.pi is sp.pi and rt.I is sp.I
    with pytest.raises(TypeError):
        _ = rt.inf


def test_sympy_runtime_functions():
    rt = SympyRuntime(8)
    half = sp.Rational(1, 2)
    assert _s(rt, "abs", sp.Integer(-3)) == 3
    assert _s(rt, "re", 2 + 3 * sp.I) == 2 and _s(rt, "im", 2 + 3 * sp.I) == 3
    assert _s(rt, "conj", 2 + 3 * sp.I) == 2 - 3 * sp.I
    assert _s(rt, "log", sp.Integer(-4)) == sp.log(4)
    assert _s(rt, "sqrt", sp.Integer(-4)) == 0 and _s(rt, "sqrt", sp.Integer(9)) == 3
    assert _s(rt, "div", 3, 0) == 0 and _s(rt, "div", 3, 4) == sp.Rational(3, 4)
    assert _s(rt, "real_tan", sp.pi / 2) == 0 and _s(rt, "real_cot", sp.Integer(0)) == 0
    assert _s(rt, "arcsin", sp.Integer(2)) == sp.pi / 2
    assert _s(rt, "floor", sp.Rational(-7, 2)) == -4 and _s(rt, "ceil", sp.Rational(-7, 2)) == -3
    assert _s(rt, "sign", sp.Rational(-7, 2)) == -1 and _s(rt, "sign", 0) == 0
    assert isinstance(_s(rt, "floor", half), int)
    with pytest.raises(TypeError, match="floor"):
        _s(rt, "floor", sp.Symbol("t"))
    assert _s(rt, "power", 2, -2) == sp.Rational(1, 4) and _s(rt, "power", 0, -1) == 0
    assert _s(rt, "power", sp.Rational(2, 3), 2) == sp.Rational(4, 9)
    with pytest.raises(TypeError, match="too large"):
        _s(rt, "power", sp.Rational(3, 2), 10 ** 6)
    with pytest.raises(TypeError, match="too large"):
        _s(rt, "rpow", sp.Rational(3, 2), 10 ** 6)
    assert sp.N(_s(rt, "rpow", 2, half) - sp.sqrt(2), 30) == 0
    assert sp.N(_s(rt, "rpow", -2, half), 30) == 0  # √2 · cos (π / 2)
    assert sp.N(_s(rt, "rpow", -8, sp.Rational(1, 3)) - 1, 30) == 0
    assert _s(rt, "rpow", 0, 0) == 1 and _s(rt, "rpow", 3, 2) == 9
    assert isinstance(_s(rt, "rpow", sp.Symbol("t"), half), LeanRpow)
    assert _s(rt, "exp", 0) == 1 and _s(rt, "sin", sp.pi) == 0 and _s(rt, "cosh", 0) == 1
    assert _s(rt, "arctan", 1) == sp.pi / 4 and _s(rt, "log_pos", sp.E) == 1
    assert _s(rt, "sqrt_pos", 4) == 2 and _s(rt, "tanh", 0) == 0 and _s(rt, "tan", 0) == 0
    assert _s(rt, "cos", sp.pi) == -1 and _s(rt, "sinh", 0) == 0
    assert rt.maximum(*(np.array([v], dtype=object) for v in (1, 3, 2)))[0] == 3
    assert rt.minimum(*(np.array([v], dtype=object) for v in (1, 3, 2)))[0] == 1
    assert isinstance(_s(rt, "div", 1, sp.Symbol("t")), LeanDiv)


@pytest.mark.parametrize("method, args", [
    ("integral", (lambda s: s, 0, 1)), ("det", (np.zeros((1, 2, 2), dtype=object),)),
    ("mat_inv", (np.zeros((1, 2, 2), dtype=object),)),
    ("pos_def", (np.zeros((1, 2, 2), dtype=object),)),
    ("enn_add", (1, 2)), ("enn_sub", (1, 2)), ("enn_mul", (1, 2)), ("enn_inv", (1,)),
    ("enn_to_real", (1,)),
])
def test_sympy_runtime_leaves_to_the_balls_what_it_does_not_model(method, args):
    with pytest.raises(TypeError, match="SympyRuntime"):
        getattr(SympyRuntime(8), method)(*args)


def test_sympy_runtime_relations():
    rt = SympyRuntime(8)

    def obj(v):
        return np.array([v], dtype=object)

    root = sp.sqrt(2)
    proved = rt.eq(obj(root * root), obj(2))
    assert proved.ok[0] and proved.sure[0]
    hyperbolic = rt.eq(obj(sp.cosh(1) ** 2), obj(1 + sp.sinh(1) ** 2))  # proved by rewriting
    assert hyperbolic.ok[0] and hyperbolic.sure[0]
    same = rt.eq(obj(sp.Symbol("t")), obj(sp.Symbol("t")))
    assert same.ok[0] and same.sure[0]
    differ = rt.eq(obj(sp.Rational(1, 3)), obj(sp.Rational(1, 2)))
    assert not differ.ok[0] and differ.sure[0] and differ.err[0] == np.inf
    open_ = rt.eq(obj(sp.E), obj(sp.Rational(27, 10)))
    assert not open_.ok[0] and not open_.sure[0]
    powers = sp.Symbol("a", positive=True)
    assert rt._zero(powers ** (sp.Rational(5, 2) - 1) - powers ** sp.Rational(5, 2) / powers)
    assert rt._zero(sp.cosh(powers) ** 2 - sp.sinh(powers) ** 2 - 1)
    assert not rt._zero(sp.exp(powers) - powers)
    lt = rt.lt(obj(sp.Rational(1, 3)), obj(sp.Rational(1, 2)))
    assert lt.ok[0] and lt.sure[0]
    not_lt = rt.lt(obj(2), obj(1))
    assert not not_lt.ok[0] and not_lt.sure[0]
    le_equal = rt.le(obj(root * root), obj(2))
    assert le_equal.ok[0] and le_equal.sure[0]
    lt_equal = rt.lt(obj(root * root), obj(2))
    assert not lt_equal.ok[0] and lt_equal.sure[0]
    order_open = rt.lt(obj(sp.E), obj(3))
    assert not order_open.ok[0] and not order_open.sure[0]
    assert rt.le(obj(2), obj(2)).ok[0] and not rt.lt(obj(2), obj(2)).ok[0]


@pytest.mark.parametrize("name, function", [
    ("exp", sp.exp), ("sin", sp.sin), ("cos", sp.cos), ("tan", sp.tan), ("tanh", sp.tanh),
    ("sinh", sp.sinh), ("cosh", sp.cosh), ("arctan", sp.atan), ("log_pos", sp.log),
    ("sqrt_pos", sp.sqrt),
])
def test_each_unary_method_the_sympy_factory_makes_is_sympys_function(name, function):
    from mirror.evaluate.batch import UNARY_FUNCTIONS
    from mirror.judge.identity import _sympy_unary

    made = _sympy_unary(name, *UNARY_FUNCTIONS[name])  # the factory itself, not its import
    third = sp.Rational(1, 3)
    out = made(SympyRuntime(8), np.array([third], dtype=object))
    assert out.shape == (1,) and out[0] == function(third)


def test_sympy_runtime_powers_of_zero_and_negative_exponents():
    rt = SympyRuntime(8)
    assert _s(rt, "power", 0, 2) == 0 and _s(rt, "power", 0, 0) == 1
    assert _s(rt, "power", 3, -2) == sp.Rational(1, 9)
    assert _s(rt, "power", sp.Rational(-2, 5), 3) == sp.Rational(-8, 125)


def test_the_tolerance_path_on_a_false_hypothesis_seen_on_a_prefix_only():
    def prop(rt, v_x):
        never = rt.exists_range(lambda j: rt.lt(j, 0), 0, rt.nat_domain)  # not known false
        return never, rt.truth(True)

    assert _decide(prop, 0.5, tolerance=1e-9).verdict == UNDECIDED
    assert _decide(prop, 0.5).verdict == UNDECIDED
