"""Round 21 mutation tests: the survivors of round 20 (docs/mutation-survivors.md) that are not
equivalent, each checked against an independent reference — exact fractions and hand
computation, Lean's stated junk values, the documented contracts of the decision code.
"""

from __future__ import annotations

import functools
import math
import time

import numpy as np
import pytest
import sympy as sp
from flint import acb, arb

from mirror.evaluate.balls import sign_of
from mirror.evaluate.batch import OutOfDomain
from mirror.evaluate.numpy_runtime import NumpyRuntime
from mirror.evaluate.truth import Truth
from mirror.judge import checks, exact
from mirror.judge.checks import FLOAT_ONLY, REFUTED, REJECT, SKIPPED, Judge
from mirror.judge.exact import UNDECIDED, decide, start_bits
from mirror.judge.identity import SymbolicRuntime, SympyRuntime, faithful, symbolic_draw
from mirror.judge.tally import Tally

PLAN = {"settings": {"nat_domain": 8}, "variables": [{"name": "x", "param": "v_x"}]}
HALF = {"x": np.float64(0.5)}
#: A simplification bound no load reaches (the default 0.5 s is wall-clock time): these tests
#: are about what is proved, not about the bound.
ROOMY = 30.0


def _one(value):
    """A sympy runtime's array of one draw."""
    out = np.empty(1, dtype=object)
    out[0] = value
    return out


# ---- balls: the sign of an enclosure ----------------------------------------------------------


def test_sign_of_a_ball_touching_zero_is_undecided():
    # [0, 2] and [-2, 0] contain 0 and numbers of one sign: no sign is decided
    assert sign_of(arb(1, 1)) is None
    assert sign_of(arb(-1, 1)) is None
    assert sign_of(arb(1, 0.5)) == 1 and sign_of(arb(-1, 0.5)) == -1
    # 2 + εi with |ε| ≤ 2⁻³⁰ not known to be 0: maybe not real, so no sign
    assert sign_of(acb(2, arb(0, 2.0 ** -30))) is None
    assert sign_of(acb(2, 0)) == 1 and sign_of(acb(-3, 0)) == -1


# ---- identity: what sympy means as Lean does ----------------------------------------------------


def test_faithful_accepts_only_expressions_sympy_means_as_lean_does():
    x = sp.Symbol("x", real=True)
    assert faithful(x) and faithful(x ** 2 + 3 * x) and faithful(sp.sin(x) ** 2)
    assert not faithful(0.5) and not faithful("x")        # not a sympy expression
    # 1 / (x² + 1): the base is never 0, so sympy's and Lean's division agree
    assert faithful(1 / (x ** 2 + 1))
    # 1 / x: sympy's zoo at x = 0, Lean's x / 0 = 0
    assert not faithful(1 / x) and not faithful(x ** -2)
    assert not faithful(x + sp.zoo) and not faithful(x + sp.nan) and not faithful(x + sp.oo)
    # √x: complex in sympy for x < 0, 0 in Lean; √(x² + 1) has a non-negative base
    assert not faithful(sp.sqrt(x)) and faithful(sp.sqrt(x ** 2 + 1))
    assert not faithful(sp.log(x)) and faithful(sp.log(x ** 2 + 1))
    assert not faithful(sp.tan(x))                          # Lean's tan (π/2) = 0


def test_symbolic_draw_makes_one_symbol_of_the_draws_kind():
    out = symbolic_draw({"x": np.array([0.5]), "n": np.array([3])})
    x, n = out["x"].reshape(-1)[0], out["n"].reshape(-1)[0]
    assert out["x"].shape == (1,) and out["x"].dtype == object
    assert x.name == "_x" and x.is_real is True and x.is_integer is None
    assert n.name == "_n" and n.is_integer is True
    assert symbolic_draw({"x": np.array([0.5, 1.5])}) is None      # not one scalar
    assert symbolic_draw({"z": np.array([1j])}) is None              # not real


def test_sympy_runtime_messages_name_the_runtime():
    rt = SympyRuntime(8)
    with pytest.raises(TypeError, match="^SympyRuntime: a complex draw$"):
        rt.lift(np.array([1 + 2j]))
    with pytest.raises(TypeError, match="^SympyRuntime: an exact power too large to form$"):
        rt.rpow(_one(sp.Integer(3)), _one(sp.Integer(10 ** 9)))
    with pytest.raises(TypeError, match="^SympyRuntime: an integral$"):
        rt.integral(lambda t: t, 0, 1)


def test_sympy_order_uses_a_proved_zero_difference():
    rt = SympyRuntime(8, seconds=ROOMY)
    one = sp.Integer(1)
    s = sp.sin(one) ** 2 + sp.cos(one) ** 2                 # = 1, not a rational to sympy
    le, lt = rt.le(_one(s), _one(one)), rt.lt(_one(s), _one(one))
    assert bool(np.asarray(le.ok)[0]) and bool(np.asarray(le.sure)[0])
    assert not bool(np.asarray(lt.ok)[0]) and bool(np.asarray(lt.sure)[0])


# ---- exact: identities proved once, at the draw, within their budgets ---------------------------

@pytest.fixture
def roomy(monkeypatch):
    monkeypatch.setattr(exact, "SymbolicRuntime", functools.partial(SymbolicRuntime, seconds=ROOMY))
    monkeypatch.setattr(exact, "SympyRuntime", functools.partial(SympyRuntime, seconds=ROOMY))


def _strict_trig(rt, v_x):
    return rt.truth(True), rt.lt(rt.sin(v_x) ** 2 + rt.cos(v_x) ** 2, 1)


def _int_trig(rt, v_n):
    return rt.truth(True), rt.lt(rt.sin(v_n) ** 2 + rt.cos(v_n) ** 2, 1)


def _bound_trig(rt, v_x):
    return rt.truth(True), rt.lt(rt.call("pyth", (), v_x), 1)


def _pythagoras(rt, dims, x):
    return rt.sin(x) ** 2 + rt.cos(x) ** 2


def test_identities_are_instantiated_at_the_draws_exact_value(roomy):
    half = sp.Rational(1, 2)
    known = exact._identities(_strict_trig, PLAN, {"x": np.float64(0.5)}, None)
    assert known == {1 - (sp.sin(half) ** 2 + sp.cos(half) ** 2)}
    plan = {"settings": {"nat_domain": 8}, "variables": [{"name": "n", "param": "v_n"}]}
    three = sp.Integer(3)
    assert exact._identities(_int_trig, plan, {"n": np.int64(3)}, None) == {
        1 - (sp.sin(three) ** 2 + sp.cos(three) ** 2)}


def test_an_identity_is_proved_per_draw_signature(roomy):
    def prop(rt, v_x):
        return _strict_trig(rt, v_x)
    # a vector draw has no symbol (nothing proved); a scalar draw after it still has its identity
    assert exact._identities(prop, PLAN, {"x": np.array([0.5, 0.25])}, None) == frozenset()
    assert len(exact._identities(prop, PLAN, {"x": np.float64(0.5)}, None)) == 1


def test_identities_and_the_sympy_step_see_the_bindings(roomy):
    bindings = {"pyth": _pythagoras}
    half = sp.Rational(1, 2)
    known = exact._identities(_bound_trig, PLAN, HALF, bindings)
    assert known == {1 - (sp.sin(half) ** 2 + sp.cos(half) ** 2)}
    # at the draw, sympy decides sin² + cos² < 1 false through the bound definition
    (hyp, concl) = exact._sympy_states(_bound_trig, PLAN, HALF, bindings)
    assert hyp == (True, True) and concl == (False, True)
    symbolic = SymbolicRuntime(8, bindings)
    assert symbolic.bindings is bindings


def test_a_sympy_evaluation_outside_the_domain_decides_nothing():
    def outside(rt, v_x):
        raise OutOfDomain("index 9 of a sequence sampled to 8")
    assert exact._sympy_states(outside, PLAN, HALF, None) == (None, None)


def _sleeper(rt, v_x):
    time.sleep(20)     # past the (patched) budget: the guard's alarm interrupts it
    return _strict_trig(rt, v_x)


def test_the_symbolic_and_draw_steps_stop_at_their_budget(monkeypatch):
    monkeypatch.setattr(exact, "EVALUATION_SECONDS", 0.2)
    batch = exact.as_batch(HALF, PLAN)
    assert exact._prove_identities(_sleeper, PLAN, batch, None)[1] == ()
    assert exact._sympy_states(_sleeper, PLAN, HALF, None) == (None, None)


def test_a_disagreement_of_balls_and_sympy_is_undecided_with_its_trace(monkeypatch):
    def trig_eq(rt, v_x):
        return rt.truth(True), rt.eq(rt.sin(v_x) ** 2 + rt.cos(v_x) ** 2, 1)
    # a sympy step that (wrongly) calls the hypotheses false, which balls decided true
    monkeypatch.setattr(exact, "_sympy_states", lambda *args: ((False, True), (None, False)))
    d = decide(trig_eq, PLAN, {"x": np.float64(0.3)})
    assert d.verdict == UNDECIDED
    assert d.method == "ball arithmetic and sympy decide a part differently"
    assert math.isnan(d.error)
    assert d.bits == 128 + 2                  # log2 0.3 ≈ -1.74: two more bits
    assert len(d.trace) == 1 and d.trace[0]["decision"] == "undecided"
    assert d.reasons and all(r.endswith("not decided by its enclosure") for r in d.reasons)
    assert d.undecided_in == "conclusion"


def test_start_bits_reads_every_float_draw():
    # magnitudes 2⁰ and 2³⁰⁰: 300 bits of span above the 128
    assert start_bits({"x": 1.0, "y": 2.0 ** 300}) == 428
    assert start_bits({"x": 2.0 ** -40, "y": np.float64(8.0)}) == 128 + 3 + 40


def test_open_radii_and_their_convergence():
    trace = ({"relation": "<", "decision": "undecided", "difference": {"mid": "0", "rad": "3*2^-20"}},
             {"relation": "=", "decision": "true", "difference": {"mid": "0", "rad": "0"}},
             {"relation": "=", "decision": "undecided", "difference": {"mid": "0", "rad": "1/1024"}})
    # log2 of each open radius, within one bit (the decided relation is not open)
    radii = exact._open_radii(trace)
    assert len(radii) == 2
    assert all(abs(r - math.log2(v)) < 1 for r, v in zip(radii, (3 * 2.0 ** -20, 2.0 ** -10)))
    assert exact._open_radii(trace[1:2]) is None
    # radii shrinking by at least a quarter of the bits: converged; by less: not
    assert exact._converged([-10.0], [-80.0], 128)
    assert not exact._converged([-10.0], [-30.0], 128)
    assert not exact._converged(None, [-80.0], 128) and not exact._converged([-10.0], None, 128)


def test_log2_size_of_texts_not_in_lowest_terms():
    assert exact._log2_size("0/5") == -math.inf          # zero, however written
    assert exact._log2_size("2/2") == 0                  # one: 2⁰
    assert abs(exact._log2_size("6/4") - math.log2(1.5)) < 1


def test_evaluate_reports_failures_and_the_domain():
    def outside(rt, v_x):
        raise OutOfDomain("index 9 of a sequence sampled to 8")
    rt = exact.BallRuntime(8)
    assert exact._evaluate(outside, PLAN, HALF, rt) == ("out", "out")
    message = "m" * 300

    def failing(rt, v_x):
        raise TypeError(message)
    rt = exact.BallRuntime(8)
    assert exact._evaluate(failing, PLAN, HALF, rt) == (exact.UNKNOWN, exact.UNKNOWN)
    assert rt.undecided is True
    assert rt.reasons == ["TypeError: " + "m" * 120]

    def invalid(rt, v_x):
        rt.invalid[0] = True
        return rt.truth(True), rt.truth(True)
    assert exact._evaluate(invalid, PLAN, HALF, exact.BallRuntime(8)) == ("out", "out")


# ---- the classification of draws: counts, counterexamples, bound kernels ------------------------


def _true(rt, v_x):
    return rt.truth(True), rt.lt(0, v_x)          # 0 < x: true at x = 1/2


def _false(rt, v_x):
    return rt.truth(True), rt.lt(v_x, 0)          # x < 0: false at x = 1/2


def _near(rt, v_x):
    return rt.truth(True), rt.le(v_x, rt.number("0.4999999999999"))   # fails by 1e-13


def _judge(prop, bound=False, unfolded=None, bindings=None):
    return Judge(prop, PLAN, bindings or {}, bound, Tally(), unfolded)


def test_every_classified_draw_adds_one_to_its_count():
    judge = _judge(_false)
    for _ in range(3):
        assert judge.classify(HALF, False, True, True, True, 0.0) == REJECT
    assert judge.tally.rejected == 3
    skipper = _judge(_false)
    for v in (0.5, 0.25):
        assert skipper.classify({"x": np.float64(v)}, True, True, False, True, 0.0,
                                exact_allowed=False) == SKIPPED
    assert skipper.tally.skipped == 2

    def outside(rt, v_x):
        raise OutOfDomain("index 9 of a sequence sampled to 8")
    refuser = _judge(outside)
    for v in (0.5, 0.25):
        assert refuser.classify({"x": np.float64(v)}, True, True, False, False, 0.0) == REJECT
    assert refuser.tally.refused == 2


def test_leans_definition_refuting_keeps_the_counterexample():
    judge = _judge(_near, bound=True, unfolded=_false)
    assert judge.classify(HALF, True, False, True, False, 0.5) == REFUTED
    example, err, decision = judge.tally.counterexample
    assert example == HALF and err == 0.5 and decision.verdict == "fails"


def test_a_bound_kernel_is_compared_through_its_binding():
    def bound(rt, v_x):
        return rt.truth(True), rt.lt(rt.call("k", (), v_x), 0)    # k x < 0 with k x = x
    judge = _judge(bound, bound=True, bindings={"k": lambda rt, dims, x: x})
    assert judge.classify(HALF, True, False, True, False, 0.5) == REFUTED
    assert judge.tally.counterexample[2].verdict == "fails"
    # a kernel off by only 1e-13 through its binding is a float-only mismatch
    near = _judge(bound, bound=True,
                  bindings={"k": lambda rt, dims, x: x - rt.number("0.5000000000001")})
    assert near.classify(HALF, True, False, True, False, 1e-13) == FLOAT_ONLY


def test_an_undecided_lean_decision_is_tallied_without_its_precision():
    def undecidable(rt, v_x):
        raise TypeError("not decided")
    judge = _judge(_true, bound=True, unfolded=undecidable)
    assert judge.lean_decision(HALF).verdict == UNDECIDED
    assert judge.tally.exact_methods == {"Lean's own definitions: no enclosure decides it": 1}


# ---- float64: truth values and junk values ------------------------------------------------------


def test_an_integer_against_a_float_within_rounding_is_not_sure():
    rt = NumpyRuntime(1, 8)
    t = rt.lt(np.array([1]), np.array([1.0 + 2.0 ** -52]))
    assert bool(t.ok[0]) and not bool(t.sure[0])           # 1 < 1 + ε: true, but fragile
    t = rt.lt(np.array([1]), np.array([3.0]))
    assert bool(t.ok[0]) and bool(t.sure[0])


def test_a_true_order_with_infinite_sides_has_no_error():
    rt = NumpyRuntime(2, 8)
    t = rt.lt(np.array([-np.inf, -np.inf]), np.array([np.inf, 5.0]))
    assert t.ok.tolist() == [True, True] and t.err.tolist() == [0.0, 0.0]


def test_integer_comparisons_are_sure_boolean_masks():
    rt = NumpyRuntime(2, 8)
    t = rt.eq(np.array([1, 2]), np.array([1, 3]))
    assert t.ok.tolist() == [True, False] and t.sure.dtype == bool and t.sure.all()
    t = rt.lt(np.array([1, 4]), np.array([2, 3]))
    assert t.sure.dtype == bool and t.sure.all()


def test_prop_ite_is_decided_by_the_branch_taken():
    rt = NumpyRuntime(2, 8)
    cond = Truth(np.array([True, False]), np.array([True, False]), np.zeros(2))
    sure = Truth(np.ones(2, bool), np.ones(2, bool), np.zeros(2), np.ones(2, bool))
    unsure = Truth(np.ones(2, bool), np.ones(2, bool), np.zeros(2), np.zeros(2, bool))
    t = rt.prop_ite(cond, lambda: sure, lambda: unsure)
    assert t.sure.tolist() == [True, False]
    t = rt.prop_ite(cond, lambda: unsure, lambda: sure)
    assert t.sure.tolist() == [False, True]


def test_numpy_negative_powers_of_integers_and_complex_numbers():
    rt = NumpyRuntime(2, 8)
    # 2⁻¹ = 1/2 and 3⁴⁰ (past int64: 3⁴⁰ > 2⁶³) computed in floating point
    out = rt.power(np.array([2, 3]), np.array([-1, 40]))
    assert out[0] == 0.5 and out[1] == float(3 ** 40)
    # i⁻¹ = -i, (2 + 0i)⁻² = 1/4 in ℂ
    out = rt.power(np.array([1j, 2 + 0j]), np.array([-1, -2]))
    assert out.tolist() == [-1j, 0.25 + 0j]


def test_numpy_integer_division_of_large_float_operands():
    rt = NumpyRuntime(2, 8)
    # 1000 / 7 = 142 and 2⁶² / 2 = 2⁶¹: integers below 2⁶³ given as floats are exact
    assert rt.nat_div(np.array([1000.0, 2.0 ** 62]), np.array([7.0, 2.0])).tolist() == [142, 2 ** 61]
    out = rt.nat_div(np.array([2.0 ** 64, 10.0]), np.array([3.0, 3.0]))
    assert math.isnan(out[0]) and out[1] == 3


def test_numpy_power_mod_by_repeated_squaring():
    rt = NumpyRuntime(4, 8)
    xs, ks, ns = [3, 2, 6, 10], [1, 2, 3, 13], [7, 5, 11, 13]
    got = rt.power_mod(np.array(xs), np.array(ks), np.array(ns))
    # 3¹ = 3, 2² = 4, 6³ = 216 = 19·11 + 7, 10¹³ ≡ 10 (Fermat) mod 13
    assert got.tolist() == [3, 4, 7, 10]


def test_numpy_power_mod_with_a_modulus_past_int64_squares():
    """In ``ZMod n``, ``(n − 1)² = (−1)² = 1`` and ``(n − 1)³ = n − 1``, whatever the size of
    ``n``: for ``n`` past √(2⁶³) the squares no longer fit int64 (base 2c65b97 wrapped them)."""
    rt = NumpyRuntime(3, 8)
    n = 2 ** 40 + 15
    got = rt.power_mod(np.array([n - 1, n - 1, 2 ** 39]), np.array([2, 3, 2]), np.array([n, n, n]))
    assert got.tolist() == [1, n - 1, 2 ** 78 % n] and got.dtype == np.int64
    # below √(2⁶³) but past 2^26.5: the residues' squares are exact only in int64, not float64
    m = 2 ** 30 + 3
    assert rt.power_mod(np.array([m - 1, 7, 5]), np.array([2, 1, 0]), np.array([m, m, m])).tolist() == [1, 7, 1]


def test_numpy_sqrt_of_exact_integers_and_the_sub_batch_of_a_runtime():
    rt = NumpyRuntime(2, 8)
    # √4 = 2, √(2⁷⁰) = 2³⁵ of Python integers (an object column), √(−1) = 0 in Lean
    assert rt.sqrt(np.array([4, 2 ** 70], dtype=object)).tolist() == [2.0, 2.0 ** 35]
    assert rt.sqrt(np.array([-1, 9])).tolist() == [0.0, 3.0]
    sub = rt.resized(3)
    assert sub.batch == 3 and sub.invalid.tolist() == [False] * 3
    assert sub.impl_nonfinite.tolist() == [False] * 3


# ---- the ball runtime -----------------------------------------------------------------------


def test_ball_integral_of_a_complex_integrand_keeps_its_imaginary_part():
    from mirror.evaluate.ball_runtime import BallRuntime
    rt = BallRuntime(8)
    # ∫₀¹ i·s ds = i/2
    value = rt.integral(lambda s: s * acb(0, 1), 0, 1)[0]
    assert isinstance(value, acb)
    assert value.imag.contains(arb(1) / 2) and not value.imag.contains(0) and value.real.contains(0)
    # ∫₀¹ s ds = 1/2, a real ball
    real = rt.integral(lambda s: s, 0, 1)[0]
    assert isinstance(real, arb) and real.contains(arb(1) / 2)


def test_ball_top_inverse_is_exactly_zero():
    """``ENNReal.inv_top``: ``⊤⁻¹ = 0`` exactly, so ``⊤⁻¹ + 1/3 = 1/3`` is decided exactly."""
    from flint import fmpq
    from mirror.evaluate.ball_runtime import BallRuntime
    rt = BallRuntime(8)
    zero = rt.enn_inv(np.array([arb.pos_inf()], dtype=object))
    third = np.array([fmpq(1, 3)], dtype=object)
    t = rt.eq(zero + third, third)
    assert bool(t.ok[0]) and bool(t.sure[0])
    assert rt.trace[-1]["difference"] == {"mid": "0", "rad": "0"}


def test_ball_relation_without_an_enclosure_is_traced_as_nan():
    from mirror.evaluate.ball_runtime import BallRuntime
    from mirror.evaluate.balls import enclosure
    rt = BallRuntime(8)
    rt._record("<", "not a number", 0, None)
    assert rt.trace[-1] == {"relation": "<", "difference": enclosure(arb.nan()),
                            "decision": "undecided"}


def test_ball_lift_of_a_matrix_draw_is_exact_entry_by_entry():
    from flint import fmpq
    from mirror.evaluate.ball_runtime import BallRuntime
    out = BallRuntime(8).lift(np.array([[[0.5, -0.25], [3.0, 0.1]]]))
    assert out.shape == (1, 2, 2) and out.dtype == object
    assert out[0, 0, 0] == fmpq(1, 2) and out[0, 0, 1] == fmpq(-1, 4) and out[0, 1, 0] == 3
    # 0.1 as float64 is the dyadic 3602879701896397 / 2⁵⁵, exactly
    assert out[0, 1, 1] == fmpq(3602879701896397, 2 ** 55)


def test_ball_equation_of_a_vector_against_a_scalar_compares_every_entry():
    from flint import fmpq
    from mirror.evaluate.ball_runtime import BallRuntime
    rt = BallRuntime(8)
    vector = np.array([[fmpq(2), fmpq(2), fmpq(2)]], dtype=object)
    assert bool(rt.eq(vector, 2).ok[0])
    assert len(rt.trace) == 3                       # one decided relation per entry
    vector[0, 1] = fmpq(5, 2)
    assert not bool(rt.eq(vector, 2).ok[0])


def test_start_bits_reads_float_arrays_after_other_draws():
    # an integer draw first: the float vector's magnitudes 2⁻⁴ … 2³⁰⁰ still count
    assert start_bits({"n": np.array([3]), "v": np.array([2.0 ** 300, 2.0 ** -4])}) == 128 + 304
    assert start_bits({"n": np.array([3])}) == 128


def test_vacuous_and_out_of_budget_draws_count_one_each():
    def vacuous(rt, v_x):
        return rt.lt(v_x, 0), rt.lt(v_x, 0)          # the hypothesis x < 0 is false
    judge = _judge(vacuous)
    for v in (0.5, 0.25):
        assert judge.classify({"x": np.float64(v)}, True, True, False, True, 0.0) == REJECT
    assert judge.tally.rejected == 2 and judge.tally.valid == 0
    lean_vacuous = _judge(_true, bound=True, unfolded=vacuous)
    for v in (0.5, 0.25):
        assert lean_vacuous.classify({"x": np.float64(v)}, True, False, True, False, 0.5) == REJECT
    assert lean_vacuous.tally.rejected == 2
    spent = _judge(_false)
    spent.exact_seconds = checks.EXACT_SECONDS
    for v in (0.5, 0.25):
        assert spent.classify({"x": np.float64(v)}, True, False, True, False, 1.0) == SKIPPED
    assert spent.tally.skipped == 2 and spent.tally.exact == 0
