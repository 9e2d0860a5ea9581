"""A row says which hypothesis rejected its draws (issue "Reach"); on 7478b2e it said only how
many were rejected in all."""

from __future__ import annotations

SOURCE = """
theorem by_sine (x y : ℝ) (h₀ : x + y = 10) (h₁ : 0 < x + 1000) (h₂ : Real.sin x = 1 / 2) :
    x < 100 := by sorry

theorem by_remainder (m n : ℕ) (h : (m + n) % 7 = 5) (h' : m < 1000000) :
    (m + n) % 7 ≤ 5 := by sorry
"""


def test_the_rejecting_hypothesis_is_named_with_its_count(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    row = rows["by_sine"]
    assert row.mirror_status == "inconclusive" and row.rejected > 0
    assert "rejected draws: of 128 fresh draws, h₂ rejects 128" in row.method
    assert "h₁" not in row.method.split("rejected draws:")[1]  # it rejects none
    # and the solved variable is said to be computed from the equation
    assert "y drawn among (or computed from) the exact solutions" in row.method


def test_a_partly_rejecting_hypothesis_is_counted(lean_verdicts):
    # (a remainder of two variables: one variable's own congruence, `n % 7 = 5`, is drawn
    # among its solutions since round 20 and rejects nothing)
    row = lean_verdicts(SOURCE)["by_remainder"]
    text = row.method.split("rejected draws: ")[1]
    count = int(text.split("h rejects ")[1].split(",")[0].split(";")[0])
    assert 0 < count < 128
