"""Existential hypotheses opened into variables (:func:`mirror.translate.prenex.
_open_hypotheses`): ``(h : ∃ d, p d) → C`` is ``∀ d, p d → C``, so ``d`` is solved with the
statement's other unknowns. ``ex_linear`` is FormalMATH's ``omni_theorem_2732``; before, its
hypothesis rejected every draw (no candidate witness satisfied both equations) and the row
was inconclusive, true or false."""

from __future__ import annotations

from tests.mirror.twins import assert_twins

SOURCE = """
theorem ex_linear (x : ℝ) (h : ∃ d, 2 * x - 3 = 4 * x + d ∧ 4 * x - 3 = 2 * x - 3 + d) :
    x = -3 / 4 := by sorry
theorem ex_linear_false (x : ℝ) (h : ∃ d, 2 * x - 3 = 4 * x + d ∧ 4 * x - 3 = 2 * x - 3 + d) :
    x = 3 / 4 := by sorry
theorem ex_two (a : ℤ) (h : ∃ m n : ℤ, a = m + n ∧ m = 1 ∧ n = 2) : a = 3 := by sorry
theorem ex_two_false (a : ℤ) (h : ∃ m n : ℤ, a = m + n ∧ m = 1 ∧ n = 2) : a = 4 := by sorry
theorem ex_shadow (d : ℝ) (hd : d = 1) (h : ∃ d, d = 5) : d = 1 := by sorry
theorem ex_shadow_false (d : ℝ) (hd : d = 1) (h : ∃ d, d = 5) : d = 5 := by sorry
theorem ex_inequality (c : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = 2 * x ^ 2 + 5 * x + c)
    (h₁ : ∃ x, f x ≤ 0) : c ≤ 25 / 8 := by sorry
theorem ex_untyped (n : ℕ) (h₀ : 2 ≤ n) (h₁ : ∃ x, x ^ 3 = n) : 1 ≤ n := by sorry
"""

PAIRS = ("ex_linear", "ex_two", "ex_shadow")


def test_an_existential_hypothesis_is_solved_as_variables_and_false_twins_refuted(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    assert_twins(rows, PAIRS)
    assert "d = -3/2" in rows["ex_linear"].method, rows["ex_linear"].method
    # the opened binder is renamed, never captured by the statement's own `d`
    assert rows["ex_shadow_false"].counterexample["d"] == 1


def test_what_solving_cannot_use_stays_an_existential(lean_verdicts):
    # an ∃ of inequalities only (miniF2F mathd_algebra_28) keeps its candidate witnesses, and
    # one whose variable no use types here stays as Lean has it: neither is opened
    rows = lean_verdicts(SOURCE)
    for name in ("ex_inequality", "ex_untyped"):
        assert rows[name].mirror_status not in ("refuted", "untranslatable"), rows[name].reason
        assert "x =" not in (rows[name].method or ""), rows[name].method
