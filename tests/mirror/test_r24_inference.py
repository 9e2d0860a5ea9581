"""Types Lean's unification gives untyped binders (:mod:`mirror.translate.inference`,
:func:`mirror.translate.extrema._typed_image`): the operands of ``t = e`` in a set-builder
take ``t``'s type, the two sides of ``∣`` share one, an ascribed ``(e : ℝ)`` types ``e``'s
operands. Each true statement holds, each false twin is refuted; before, every one was
``cannot infer the type``."""

from __future__ import annotations

SOURCE = """
theorem set_real : IsGreatest {u : ℝ | ∃ x y, u = x ^ 2 + y ^ 2 ∧ x ^ 2 + y ^ 2 ≤ 2} 2 := by sorry
theorem set_real_false :
    IsGreatest {u : ℝ | ∃ x y, u = x ^ 2 + y ^ 2 ∧ x ^ 2 + y ^ 2 ≤ 2} 1 := by sorry
theorem set_int : IsLeast {u : ℤ | ∃ x, u = x - 1 ∧ -3 ≤ x} (-4) := by sorry
theorem set_int_false : IsLeast {u : ℤ | ∃ x, u = x - 1 ∧ -3 ≤ x} (-3) := by sorry
theorem dvd_nat (c : ℕ) (hc : c = 12) : ∃ p, p.Prime ∧ p ^ 2 ∣ c := by sorry
theorem dvd_nat_false (c : ℕ) (hc : c = 12) : ¬∃ p, p.Prime ∧ p ^ 2 ∣ c := by sorry
theorem ascribed : ∃ x, (x ^ 2 : ℝ) = 1 / 4 := by sorry
theorem ascribed_false : ¬∃ x, (x ^ 2 : ℝ) = 1 / 4 := by sorry
theorem set_order (k : ℕ) (hk : k = 3) : IsGreatest {u : ℝ | ∃ x, x < k ∧ u = x} 2 := by sorry
theorem ascribed_order (k : ℕ) (hk : k = 3) : ¬∃ n, n < k ∧ (n : ℝ) = 1 / 2 := by sorry
theorem set_exponent_untyped : IsGreatest {u : ℝ | ∃ n, u = 2 ^ n ∧ n < 2} 2 := by sorry
"""

GOOD = {"tested", "symbolic", "certified"}


def test_binders_typed_by_unification_hold(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    for name in ("set_real", "set_int", "dvd_nat", "ascribed"):
        assert rows[name].mirror_status in GOOD, (name, rows[name].reason)


def test_their_false_twins_are_refuted(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    for name in ("set_real_false", "set_int_false", "dvd_nat_false", "ascribed_false"):
        assert rows[name].mirror_status == "refuted", (name, rows[name].reason)


def test_an_exponent_is_not_typed_by_the_set(lean_verdicts):
    # `2 ^ n` leaves n's type to the default instance (ℕ: true, n ∈ {0, 1}), not the set's ℝ
    # (false: 2 ^ 1.5 > 2): an exponent is no operand of the unification
    row = lean_verdicts(SOURCE)["set_exponent_untyped"]
    assert row.mirror_status != "refuted", row.reason


def test_a_type_another_use_may_fix_first_is_not_guessed(lean_verdicts):
    # `x < k` with `k : ℕ` makes x natural when Lean elaborates it first (true: the greatest is
    # 2; false at ℝ); `n < k` beside `(n : ℝ)` likewise (true at ℕ, false at ℝ: n = 1/2)
    rows = lean_verdicts(SOURCE)
    for name in ("set_order", "ascribed_order"):
        assert rows[name].mirror_status == "untranslatable", (name, rows[name].reason)
        assert "different types" in rows[name].reason, rows[name].reason
