"""A conclusion of polynomial equations in the ideal the hypotheses' equations generate is
proved (``symbolic``) without draws, which never satisfy such hypotheses
(``mirror.judge.ideals``); the unit ideal proves nothing."""

from __future__ import annotations

SOURCE = (
    # miniF2F mathd_algebra_107 (as stated there): completing the square
    "theorem mathd_algebra_107 (x y : ℝ) (h₀ : x^2 + 8 * x + y^2 - 6 * y = 0) :\n"
    "    (x + 4)^2 + (y-3)^2 = 5^2 := by sorry\n"
    "theorem mathd_algebra_107_false (x y : ℝ) (h₀ : x^2 + 8 * x + y^2 - 6 * y = 0) :\n"
    "    (x + 4)^2 + (y-3)^2 = 24 := by sorry\n"
    # two equations, three unknowns, over ℤ: x = y + z and y = 2 z give x - 3 z = 0
    "theorem two_equations (x y z : ℤ) (h₀ : x = y + z) (h₁ : y * y = 4 * z * z + y - 2 * z)\n"
    "    (h₂ : y = 2 * z) : x * x = 9 * z * z := by sorry\n"
    "theorem two_equations_false (x y z : ℤ) (h₀ : x = y + z) (h₂ : y = 2 * z) :\n"
    "    x * x = 9 * z := by sorry\n"
    # miniF2F mathd_algebra_33 (as stated there): x ≠ 0 makes z / x the quotient
    "theorem mathd_algebra_33 (x y z : ℝ) (h₀ : x ≠ 0) (h₁ : 2 * x = 5 * y) (h₂ : 7 * y = 10 * z) :\n"
    "    z / x = 7 / 25 := by sorry\n"
    "theorem mathd_algebra_33_false (x y z : ℝ) (h₀ : x ≠ 0) (h₁ : 2 * x = 5 * y)\n"
    "    (h₂ : 7 * y = 10 * z) : z / x = 7 / 24 := by sorry\n"
    # without x ≠ 0, z / x = 0 at x = 0 (div_zero): not proved
    "theorem div_unguarded (x y z : ℝ) (h₁ : 2 * x = 5 * y) (h₂ : 7 * y = 10 * z) :\n"
    "    z / x = 7 / 25 := by sorry\n"
    # x y + z w = 1 and = 2: no solution even over ℂ; every goal is in the ideal {1}, which
    # proves nothing (the solvers say vacuous)
    "theorem no_solution (x y z w : ℝ) (h₀ : x * y + z * w = 1) (h₁ : x * y + z * w = 2) :\n"
    "    x = 3 := by sorry\n")


def test_equations_that_follow_from_the_hypotheses_are_proved(lean_verdicts):
    verdicts = lean_verdicts(SOURCE)
    for name in ("mathd_algebra_107", "two_equations", "mathd_algebra_33"):
        row = verdicts[name]
        assert row.mirror_status == "symbolic", (name, row.mirror_status, row.reason)
    assert "ideal" in verdicts["mathd_algebra_107"].method
    for name in ("mathd_algebra_107_false", "two_equations_false", "mathd_algebra_33_false",
                 "div_unguarded"):
        assert verdicts[name].mirror_status == "refuted", (name, verdicts[name].reason)
    row = verdicts["no_solution"]
    assert row.mirror_status == "vacuous", (row.mirror_status, row.reason)
