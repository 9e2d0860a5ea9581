"""Polynomial identities in a hypothesis (:mod:`mirror.translate.identities`): ``∀ x : ℝ, p x =
q x`` between polynomials is the equations of its coefficients, which the solver then solves
exactly. Before, each was ``cannot translate a quantifier over Real``. The true statements
are from miniF2F (``amc12b_2002_p6``, ``mathd_algebra_140``) and FormalMATH
(``omni_theorem_2682``); each has a false twin."""

from __future__ import annotations

from tests.mirror.twins import assert_twins

SOURCE = """
theorem ident_linear {a b : ℝ} (h : ∀ x, a * (x + b) = 3 * x + 12) : a + b = 7 := by sorry
theorem ident_linear_false {a b : ℝ} (h : ∀ x, a * (x + b) = 3 * x + 12) : a + b = 8 := by sorry
theorem ident_roots (a b : ℝ) (h₀ : a ≠ 0 ∧ b ≠ 0)
    (h₁ : ∀ x, x ^ 2 + a * x + b = (x - a) * (x - b)) : a = 1 ∧ b = -2 := by sorry
theorem ident_roots_false (a b : ℝ) (h₀ : a ≠ 0 ∧ b ≠ 0)
    (h₁ : ∀ x, x ^ 2 + a * x + b = (x - a) * (x - b)) : a = 1 ∧ b = 2 := by sorry
theorem ident_factor (a b c : ℝ) (h₀ : 0 < a ∧ 0 < b ∧ 0 < c)
    (h₁ : ∀ x, 24 * x ^ 2 - 19 * x - 35 = (a * x - 5) * (2 * (b * x) + c)) :
    a * b - 3 * c = -9 := by sorry
theorem ident_factor_false (a b c : ℝ) (h₀ : 0 < a ∧ 0 < b ∧ 0 < c)
    (h₁ : ∀ x, 24 * x ^ 2 - 19 * x - 35 = (a * x - 5) * (2 * (b * x) + c)) :
    a * b - 3 * c = 9 := by sorry
theorem ident_int (a : ℤ) (h : ∀ n : ℤ, (n + a) ^ 2 = n ^ 2 + 6 * n + 9) : a = 3 := by sorry
theorem ident_int_false (a : ℤ) (h : ∀ n : ℤ, (n + a) ^ 2 = n ^ 2 + 6 * n + 9) :
    a = -3 := by sorry
theorem ident_div (a : ℝ) (h : ∀ x : ℝ, x / a = 0) : a = 0 := by sorry
theorem ident_div_false (a : ℝ) (h : ∀ x : ℝ, x / a = 0) : a = 1 := by sorry
theorem ident_negated (a : ℝ) (h : a = 3) : ¬ ∀ x : ℝ, a * x = 3 * x := by sorry
theorem ident_reciprocal (a : ℝ) (h : ∀ x : ℝ, a / x = 0) : a = 0 := by sorry
theorem ident_inequality (a : ℝ) (h : ∀ x : ℝ, a * x ^ 2 ≤ x ^ 2) : a ≤ 1 := by sorry
"""

PAIRS = ("ident_linear", "ident_roots", "ident_factor", "ident_int", "ident_div")


def test_polynomial_identities_are_solved_through_their_coefficients(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    assert_twins(rows, PAIRS)
    for name in PAIRS:
        assert "solved the hypotheses exactly" in rows[name].method, rows[name].method


def test_an_identity_under_a_negation_is_decided(lean_verdicts):
    # the equivalence holds in every polarity: ¬ (a - 3 = 0) at a = 3 is false
    row = lean_verdicts(SOURCE)["ident_negated"]
    assert row.mirror_status == "refuted", row.reason


def test_what_is_no_polynomial_identity_stays_a_quantifier(lean_verdicts):
    # `a / x` (Lean's a / 0 = 0 at x = 0) and an inequality are not read as coefficients
    rows = lean_verdicts(SOURCE)
    for name in ("ident_reciprocal", "ident_inequality"):
        assert rows[name].mirror_status == "untranslatable", (name, rows[name].reason)
        assert "quantifier over Real" in rows[name].reason, rows[name].reason
