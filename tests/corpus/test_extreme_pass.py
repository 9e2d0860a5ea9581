"""The extreme-magnitude setting of a plan (``mirror.sample.extremes``) and the pass built on it.

Ordinary plans never set it (both draw paths are unchanged); a plan that sets it draws the
forced magnitudes inside each variable's range, never outside it, on both the sweep and the
Hypothesis path; and a statement false only at a tiny magnitude, tested by ordinary draws, is
refuted by the pass.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings

from mirror.product.pipeline import CheckSettings, check_mirror
from mirror.sample.extremes import candidates
from mirror.sample.strategies import examples, plan_statement, sample_batch
from mirror.translate.translation import Translator
from tests.mirror.conftest import verdicts_of
from tests.mirror.test_translation import theorem

FORCED = [0.0, 5e-324, 1e-300, 1e300]


def _plan(statement: str, binders: str, forced: bool = True) -> dict:
    plan = plan_statement(Translator({}).translate_statement(theorem(statement, binders)))
    if forced:
        plan["settings"].update(extremes=FORCED, real_bound=1e300)
    return plan


def test_the_forced_values_are_signed_and_unique():
    assert candidates({}).size == 0
    assert list(candidates({"extremes": [0.0, 1e300]})) == [-1e300, 0.0, 1e300]
    assert not np.signbit(candidates({"extremes": [0.0, 1e300]})[1])  # never -0.0


def test_the_sweep_draws_the_forced_values_inside_the_range_only():
    plan = _plan("(h : 0 < x) → (k : x ≤ 1) → x = x", "x y : ℝ")
    batch = sample_batch(plan, np.random.default_rng(4), 4000)
    x, y = batch["x"], batch["y"]
    assert np.all((x > 0) & (x <= 1))  # 0, -5e-324 and ±1e300 are outside (0, 1]
    assert {5e-324, 1e-300} <= set(x.tolist())
    assert {-1e300, -1e-300, 0.0, 5e-324, 1e300} <= set(y.tolist())
    assert np.isin(y, candidates({"extremes": FORCED})).mean() > 0.3


def test_the_hypothesis_path_draws_them_too():
    plan = _plan("(h : 0 ≤ x) → x = x", "x : ℝ")
    seen: set[float] = set()

    @settings(max_examples=200, database=None)
    @given(examples(plan))
    def draw(example):
        assert example["x"] >= 0
        seen.add(example["x"])

    draw()
    assert {5e-324, 1e-300, 1e300} & seen


def test_ordinary_plans_are_not_forced():
    plan = _plan("x = x", "x : ℝ", forced=False)
    assert "extremes" not in plan["settings"]
    batch = sample_batch(plan, np.random.default_rng(5), 2000)["x"]
    assert np.all(np.abs(batch) <= plan["settings"]["real_bound"])
    assert not np.isin(batch, [5e-324, 1e-300]).any()


def test_a_statement_false_only_at_a_tiny_magnitude_is_refuted_by_the_pass(coverage_tool, tmp_path):
    """``0 < x → 10⁻²⁰⁰ < x`` holds at every ordinary draw (reals below ``1e-30`` are not drawn)
    and fails at ``x = 1e-300``: the pass must reach it."""
    source = "theorem tiny_lower (x : ℝ) (h : 0 < x) : (10 : ℝ) ^ (-200 : ℤ) < x := by sorry\n"
    ordinary = verdicts_of(source, tmp_path)["tiny_lower"]
    assert ordinary.mirror_status == "tested", (ordinary.mirror_status, ordinary.reason)
    from bridge.scanner import scan_project
    from mirror.product.pipeline import build_mirrors

    mirror = next(m for m in build_mirrors(scan_project(tmp_path / "project"))
                  if m.name.endswith("tiny_lower"))
    forced = check_mirror(coverage_tool._extreme_mirror(mirror),
                          CheckSettings(max_examples=10, sweep=32, symbolic=False))
    assert forced.mirror_status == "refuted", (forced.mirror_status, forced.reason)
    assert 0 < forced.counterexample["x"] <= 1e-200
