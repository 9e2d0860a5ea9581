"""Real draw ranges are exact float64 sets that never make Hypothesis raise.

The extreme-magnitude pass of 2026-12-01 crashed 18 proved theorems with Hypothesis's
``InvalidArgument``: a bound computed from an earlier draw overflowed (``x ^ 2 ≤ y`` at
``x = 1e300`` gives ``y ≥ inf``), two strict ends were adjacent floats (``0 < b < 5e-324``
holds no float) or a bound came out ``-0.0`` (``0 ≤ x ≤ -0.0``). A range with no float in it
rejects the draw; it is never an error.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mirror.sample.ranges import FLOAT_MAX, float_ends
from mirror.sample.strategies import examples, sample_batch
from tests.mirror.test_constraints import plan_of

INF = math.inf


@pytest.mark.parametrize(("ends", "closed"), [
    ((0.0, 5e-324, True, True), None),  # adjacent floats, both ends open: no float between
    ((0.0, 5e-324, True, False), (5e-324, 5e-324)),
    ((0.0, -0.0, False, False), (0.0, 0.0)),  # ℝ has one zero
    ((INF, INF, False, False), None),  # a lower bound that overflowed: beyond every float
    ((INF, FLOAT_MAX, False, False), None),
    ((-INF, 1.0, False, False), (-FLOAT_MAX, 1.0)),  # an overflowed lower bound bounds nothing
    ((-INF, INF, True, True), (-FLOAT_MAX, FLOAT_MAX)),
    ((math.nan, 1.0, False, False), None),  # a bound with no value: no draw
    ((1.0, 2.0, True, True), (np.nextafter(1.0, 2.0), np.nextafter(2.0, 1.0))),
])
def test_float_ends_are_exactly_the_floats_the_range_holds(ends, closed):
    lo, hi = (float(e) for e in float_ends(*ends))
    if closed is None:
        assert lo > hi
    else:
        assert (lo, hi) == closed
        assert math.copysign(1.0, lo) == 1.0 or lo != 0  # never -0.0


def test_float_ends_work_per_draw_on_batches():
    lo, hi = float_ends(np.array([0.0, INF, -0.0]), np.array([5e-324, INF, 0.0]),
                        np.array([True, False, False]), np.array([True, False, False]))
    assert list(lo > hi) == [True, True, False]


#: Statements of the first look whose extreme draws crashed the check (as Mathlib writes them).
CRASHED = [
    ("(h : x ^ 2 ≤ y) → |x| ≤ Real.sqrt y", "x y : ℝ"),  # Real.abs_le_sqrt: y ≥ inf
    ("(hb : 0 < b) → (h : b < a) → a⁻¹ < b⁻¹", "a b : ℝ"),  # inv_lt_inv_of_lt: 0 < b < 5e-324
    ("(hb : b < 0) → (h : a ≤ b) → 1 / b ≤ 1 / a", "a b : ℝ"),
    ("(h : a ≤ b * c) → (hb : b ≤ 1) → (hc : 0 ≤ c) → a ≤ c", "a b c : ℝ"),  # 0 ≤ c ≤ -0.0
]
FORCED = [0.0, 5e-324, 1e-310, 2.2250738585072014e-308, 1e-300, 1e300]


def _extreme(plan: dict) -> dict:
    plan["settings"]["extremes"] = FORCED
    plan["settings"]["real_bound"] = 1e300
    return plan


@pytest.mark.parametrize(("statement", "binders"), CRASHED)
def test_extreme_draws_of_a_chained_bound_are_drawn_or_rejected_never_raised(statement, binders):
    plan = _extreme(plan_of(statement, binders))

    @settings(max_examples=200, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(examples(plan))
    def draws(values):
        for value in values.values():
            if isinstance(value, float):
                assert math.isfinite(value)

    draws()


@pytest.mark.parametrize(("statement", "binders"), CRASHED)
def test_the_sweep_masks_a_range_with_no_float_and_draws_inside_the_others(statement, binders):
    plan = _extreme(plan_of(statement, binders))
    batch = sample_batch(plan, np.random.default_rng(7), 512)
    valid = batch["__valid__"]
    assert valid.any()
    for entry in plan["variables"]:
        drawn = np.asarray(batch[entry["name"]], dtype=float)[valid]
        assert np.isfinite(drawn).all(), entry["name"]


@given(st.floats(allow_nan=False), st.floats(allow_nan=False), st.booleans(), st.booleans())
def test_a_nonempty_float_range_holds_its_ends_and_respects_strictness(lo, hi, lo_s, hi_s):
    a, b = (float(e) for e in float_ends(lo, hi, lo_s, hi_s))
    if a > b:  # empty: no finite float lies strictly/closedly between the ends
        inside = [v for v in (np.nextafter(lo, INF) if lo_s else lo,) if math.isfinite(v)]
        assert all(not (v <= hi if not hi_s else v < hi) for v in inside)
        return
    assert math.isfinite(a) and math.isfinite(b)
    assert (a > lo if lo_s else a >= lo) and (b < hi if hi_s else b <= hi)


def test_a_computed_value_keeps_its_type_bound_or_the_draw_is_rejected():
    """``NNReal.rpow_arith_mean_le_arith_mean2_rpow`` (MeanInequalitiesPow, first look of
    2026-12-01b) was refuted at ``w₁ = 2, w₂ = -1``: ``w₂ := 1 - w₁`` from ``w₁ + w₂ = 1``
    dropped ``w₂ : ℝ≥0``'s ``0 ≤ w₂``."""
    plan = plan_of("(hw : w₁ + w₂ = 1) → w₁ * z₁ + w₂ * z₂ ≤ w₁ * z₁ + w₂ * z₂ + 1",
                   "w₁ w₂ z₁ z₂ : NNReal")
    assert "value" in {e["name"]: e for e in plan["variables"]}["w₂"]
    batch = sample_batch(plan, np.random.default_rng(3), 512)
    valid = batch["__valid__"]
    assert valid.any() and not valid.all()
    assert (batch["w₂"][valid] >= 0).all()

    @settings(max_examples=100, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(examples(plan))
    def draws(values):
        assert values["w₂"] >= 0 and values["w₁"] >= 0

    draws()
