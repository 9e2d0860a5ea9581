"""Ball arithmetic decides: the shapes that a normwise tolerance and a zero band refuted.

Each statement is written as in issue 19 (a proved Mathlib / competition theorem), run
through the real front end (scanner → translation → plan → codegen), and decided at the draw
the old mpmath path refuted it at. Ball arithmetic must never call it refuted there: a
relation is decided only when the enclosure of its difference decides it, ``a = b`` only
exactly, and a junk branch only when its guard is decided.
"""

from __future__ import annotations

import numpy as np
import pytest

from bridge.scanner import scan_project
from mirror.judge.exact import FAILS, HOLDS, UNDECIDED, VACUOUS, decide
from mirror.product.pipeline import build_mirrors
from tests.judge.conftest import planted_project

SOURCE = """
theorem rpow_sub' (x y z : ℝ) (hx : 0 < x) : x ^ (y - z) = x ^ y / x ^ z := by sorry
theorem le_rpow_inv_iff' (x y z : ℝ) (hx : 0 ≤ x) (hy : 0 ≤ y) (hz : 0 < z) :
    x ≤ y ^ z ↔ x ^ z⁻¹ ≤ y := by sorry
theorem le_zpow_iff_log_le' (x y : ℝ) (n : ℤ) (hx : 0 < x) (hy : 0 < y) :
    x ≤ y ^ n ↔ Real.log x ≤ n * Real.log y := by sorry
theorem arctan_eq_arccos' (x : ℝ) (h : 0 ≤ x) : Real.arctan x = Real.arccos (√(1 + x ^ 2))⁻¹ := by sorry
theorem amc_seven_eight (x : ℝ) (h : (7 : ℝ) ^ (x + 7) = 8 ^ x) :
    x = Real.logb (8 / 7) (7 ^ 7) := by sorry
theorem log_neg_two : Real.log (-2) = Real.log 2 := by sorry
theorem pow_tiny_le_zero (x : ℝ) (h : x = 1 / 4) : x ^ (256 : ℝ) ≤ 0 := by sorry
theorem div_tiny (x : ℝ) : x / (x * 0) = 0 := by sorry
"""


@pytest.fixture(scope="module")
def mirrors(tmp_path_factory):
    project = planted_project(tmp_path_factory.mktemp("ball"), SOURCE)
    return {m.name.rsplit(".", 1)[-1]: m for m in build_mirrors(scan_project(project))}


def decide_at(mirrors, name: str, **draw: float):
    mirror = mirrors[name]
    assert mirror.status == "ready", (mirror.status, mirror.reason)
    example = {e["name"]: np.asarray(draw[e["name"]])[()] for e in mirror.plan["variables"]}
    return decide(mirror.load(), mirror.plan, example)


def test_rpow_sub_at_a_tiny_base_is_not_refuted(mirrors):
    # x ^ z = 1e-180 is inside the old zero band, so x ^ y / x ^ z was "x ^ y / 0 = 0"
    decision = decide_at(mirrors, "rpow_sub'", x=1e-30, y=5.0, z=6.0)
    assert decision.verdict != FAILS, decision
    assert decision.verdict in (HOLDS, UNDECIDED)


def test_le_rpow_inv_iff_at_zero_base_holds(mirrors):
    # y ^ z = 0 ^ 2⁻⁸ = 0 and x ^ z⁻¹ = 0.25 ^ 256 ≈ 7e-155 > 0: both sides false
    decision = decide_at(mirrors, "le_rpow_inv_iff'", x=0.25, y=0.0, z=2.0 ** -8)
    assert decision.verdict == HOLDS, decision


def test_pow_tiny_is_not_zero(mirrors):
    # 0.25 ^ 256 ≈ 7e-155 ≤ 0 is false (the old zero band called it true)
    decision = decide_at(mirrors, "pow_tiny_le_zero", x=0.25)
    assert decision.verdict == FAILS, decision


def test_le_zpow_iff_log_le_at_a_tiny_base_is_not_refuted(mirrors):
    # y ^ -5 = 1 / y ^ 5 with y ^ 5 = 1e-150 inside the old zero band: "1 / 0 = 0"
    y, n = np.float64(1e-30), np.int64(-5)
    for x in (1.0, 0.5, 3.0, 1e-30, 1e150, 1e-300):
        decision = decide_at(mirrors, "le_zpow_iff_log_le'", x=np.float64(x), y=y, n=n)
        assert decision.verdict in (HOLDS, UNDECIDED), (x, decision)


def test_arctan_eq_arccos_near_one_is_not_refuted(mirrors):
    # (√(1 + x²))⁻¹ is within 2e-53 of 1: arccos cancels catastrophically there
    decision = decide_at(mirrors, "arctan_eq_arccos'", x=6e-27)
    assert decision.verdict in (HOLDS, UNDECIDED), decision


def test_a_false_hypothesis_between_tiny_numbers_is_not_accepted(mirrors):
    # 7 ^ (x + 7) ≈ 3.6e-173 and 8 ^ x ≈ 2.5e-191 at x ≈ -211: the hypothesis is false
    decision = decide_at(mirrors, "amc_seven_eight", x=-211.0)
    assert decision.verdict == VACUOUS, decision


def test_real_log_of_a_negative_is_the_log_of_its_absolute_value(mirrors):
    assert decide_at(mirrors, "log_neg_two").verdict == HOLDS


def test_a_division_by_exact_zero_takes_the_junk_branch(mirrors):
    assert decide_at(mirrors, "div_tiny", x=3.0).verdict == HOLDS
