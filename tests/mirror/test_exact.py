"""Exact decisions: exact rationals where they suffice, ball arithmetic at rising precision
elsewhere, sympy for the equations balls leave open; never a tolerance or a zero band."""

from __future__ import annotations

from fractions import Fraction

from flint import fmpq

import numpy as np
import pytest

from mirror.evaluate.ball_runtime import BallRuntime
from mirror.judge.exact import (
    FAILS,
    HOLDS,
    UNDECIDED,
    VACUOUS,
    decide,
    start_bits,
)
from mirror.evaluate.runtime import MpRuntime


def _plan(*names: str) -> dict:
    return {"settings": {"nat_domain": 8},
            "variables": [{"name": n, "param": f"v_{n}"} for n in names]}


def test_rational_arithmetic_keeps_what_fifty_digits_lose():
    # (x + 10^300) - 10^300 ≤ x: 50-digit mpmath computes 0 ≤ -1 and "confirms" it false
    def prop(rt, v_x):
        big = rt.power(rt.number("10"), 300)
        return rt.truth(True), rt.le((v_x + big) - big, v_x)

    decision = decide(prop, _plan("x"), {"x": np.float64(-1.0)})
    assert decision.verdict == HOLDS
    assert decision.method == "exact rational arithmetic"
    fifty = MpRuntime(8, digits=50)
    _, concl = prop(fifty, fifty.lift(np.array([-1.0])))
    assert not concl.ok[0]  # the control: fixed 50 digits get it wrong


def test_a_strict_relation_holding_with_equality_fails():
    def prop(rt, v_x, v_y, v_z):
        return rt.truth(True), rt.lt((v_x + v_y) * v_z, v_x * v_z + v_y * v_z)

    example = {"x": np.float64(0.1), "y": np.float64(0.2), "z": np.float64(3.0)}
    assert decide(prop, _plan("x", "y", "z"), example).verdict == FAILS


def test_hypotheses_must_hold_exactly():
    # a = a' with a = 1e-30, a' = 0 is false: the example says nothing about a ^ b = c
    def prop(rt, v_a, v_a2):
        return rt.eq(v_a, v_a2), rt.truth(False)

    example = {"a": np.float64(1e-30), "a2": np.float64(0.0)}
    assert decide(prop, _plan("a", "a2"), example).verdict == VACUOUS


def test_transcendental_identities_hold_and_strict_versions_fail():
    def equal(rt, v_x):
        return rt.truth(True), rt.eq(rt.exp(v_x) * rt.exp(-v_x), 1)

    def strict(rt, v_x):
        return rt.truth(True), rt.lt(rt.exp(v_x) * rt.exp(-v_x), 1)

    example = {"x": np.float64(0.7)}
    held = decide(equal, _plan("x"), example)
    assert held.verdict == HOLDS and held.method.startswith("sympy identity at the draw")
    assert decide(strict, _plan("x"), example).verdict == FAILS


def test_a_tiny_nonzero_value_is_not_zero_once_precision_rises():
    # exp(-100) ≈ 3.7e-44 sits inside the 50-digit zero band, outside the 100-digit one
    def prop(rt, v_x):
        return rt.truth(True), rt.eq(rt.exp(v_x), 0)

    decision = decide(prop, _plan("x"), {"x": np.float64(-100.0)})
    assert decision.verdict == FAILS
    assert decision.method.startswith("ball arithmetic at")
    fifty = MpRuntime(8, digits=50)
    _, concl = prop(fifty, fifty.lift(np.array([-100.0])))
    assert concl.ok[0]  # the control: one fixed precision calls it zero


def test_junk_branches_see_a_mathematical_zero_computed_in_floating_point():
    # Real.tan (π / 2) = sin (π/2) / cos (π/2) = 1 / 0 = 0 in Lean
    def prop(rt):
        half = rt.pi / 2
        return rt.truth(True), rt.eq(rt.div(rt.sin(half), rt.cos(half)), 0)

    assert decide(prop, _plan(), {}).verdict == HOLDS


def test_out_of_domain_draws_are_undecided():
    from mirror.evaluate.runtime import OutOfDomain

    def prop(rt, v_x):
        raise OutOfDomain("outside the sampled prefix")

    assert decide(prop, _plan("x"), {"x": np.float64(1.0)}).verdict == UNDECIDED


def test_a_tolerance_is_only_for_implementations():
    def prop(rt, v_x):
        return rt.truth(True), rt.eq(v_x, v_x * (1 + rt.number("1e-12")))

    example = {"x": np.float64(3.0)}
    assert decide(prop, _plan("x"), example).verdict == FAILS
    assert decide(prop, _plan("x"), example, tolerance=1e-9).verdict == HOLDS


def test_the_ball_runtime_keeps_rationals_exact():
    rt = BallRuntime(8)
    third = rt.div(np.array([1], dtype=object), np.array([3], dtype=object))
    assert third[0] == fmpq(1, 3)
    assert rt.div(np.array([fmpq(5)], dtype=object),
                  np.array([0], dtype=object))[0] == 0  # x / 0 = 0
    assert rt.power(np.array([fmpq(0)], dtype=object),
                    np.array([-1], dtype=object))[0] == 0  # 0⁻¹ = 0
    exact = Fraction(0.1)
    assert rt.lift(np.array([0.1]))[0] == fmpq(exact.numerator, exact.denominator)


def test_a_division_by_a_ball_containing_zero_is_undecided_not_zero():
    # x / (exp x - exp x): the denominator's ball contains 0 but is not exactly 0
    def prop(rt, v_x):
        return rt.truth(True), rt.eq(rt.div(1, rt.exp(v_x) - rt.exp(v_x)), 0)

    rt = BallRuntime(8)
    prop(rt, rt.lift(np.array([0.7])))
    assert rt.undecided and "a division" in rt.reasons[0]


def test_the_starting_precision_covers_the_span_of_the_draws():
    assert start_bits({"x": np.float64(1.0)}) == 128
    assert start_bits({"x": np.float64(1e300), "y": np.float64(1.0)}) >= 128 + 996
    assert start_bits({"n": np.int64(10 ** 12)}) == 128  # integers are exact


def test_a_transcendental_in_a_branch_not_taken_keeps_the_rational_decision():
    # (if x < 0 then exp x else (x + 10^300) - 10^300) = x: at x = 1 exact rationals decide
    # it (50 and 100 digits both lose x); at x = -1 exp is on the path: balls decide
    def prop(rt, v_x):
        big = rt.power(rt.number("10"), 300)
        value = rt.ite(rt.lt(v_x, 0), lambda: rt.exp(v_x), lambda: (v_x + big) - big)
        return rt.truth(True), rt.eq(value, v_x)

    taken = decide(prop, _plan("x"), {"x": np.float64(1.0)})
    assert (taken.verdict, taken.method) == (HOLDS, "exact rational arithmetic")
    on_path = decide(prop, _plan("x"), {"x": np.float64(-1.0)})
    assert on_path.verdict == FAILS and on_path.method.startswith("ball arithmetic")


def test_a_quadrature_whose_error_estimate_is_optimistic_never_refutes():
    """``rpow_eq_resolvent_integral`` (a true identity) at ``t = 1e-30``: the integrand peaks
    at ``s ~ 1e-30``; mpmath's default subdivision missed it by 6e-13 while estimating 1e-18,
    and the draw was decided ``fails``. Arb's rigorous integration encloses it, or nothing
    is decided."""
    from pathlib import Path

    from bridge.scanner import scan_project
    from mirror.judge.exact import FAILS, decide
    from mirror.product.pipeline import build_mirrors

    root = Path(__file__).resolve().parents[2]
    mirrors = {m.name: m for m in build_mirrors(scan_project(root,
                                                            modules=["Mirror.FractionalPower"]))}
    mirror = mirrors["Mirror.FractionalPower.rpow_eq_resolvent_integral"]
    example = {"r": np.float64(0.13886047707962623), "t": np.float64(1e-30)}
    decision = decide(mirror.load(), mirror.plan, example)
    assert decision.verdict != FAILS, decision
