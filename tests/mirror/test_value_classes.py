"""An instance binder that assumes something of a value is a hypothesis, never dropped.

The first look of round 20 (``mathlib/round-2026-12-01c``, ``Algebra.Order.AbsoluteValue``)
refuted eleven proved theorems of ``IsAbsoluteValue``, e.g. ``abv_nonneg (x) : 0 ≤ abv x`` under
``variable (abv : R → S) [IsAbsoluteValue abv]`` at ``R := ℕ, S := ℝ``: the translator skips
instance binders (right for a class on a type: the carrier is an instance), so the class on the
function ``abv`` was dropped and ``abv`` drawn as any function ``ℕ → ℝ``. A class on a value that
leanmirror cannot state as a hypothesis makes the statement untranslatable, naming the class;
``[Fact p]``, ``[NeZero n]`` and the decidability classes stay as they were.
"""

from __future__ import annotations

import pytest

SOURCE = """
class IsAbsoluteValue {S} [OrderedSemiring S] {R} [Semiring R] (f : R → S) : Prop where
  abv_nonneg' : ∀ x, 0 ≤ f x

namespace IsAbsoluteValue

section OrderedSemiring
variable {S : Type*} [OrderedSemiring S]
variable {R : Type*} [Semiring R] (abv : R → S) [IsAbsoluteValue abv]

lemma abv_nonneg (x) : 0 ≤ abv x := abv_nonneg' x

end OrderedSemiring

end IsAbsoluteValue

theorem concrete_nonneg (f : ℕ → ℝ) [IsAbsoluteValue f] (x : ℕ) : 0 ≤ f x :=
  IsAbsoluteValue.abv_nonneg f x

theorem invertible_ne (x : ℚ) [Invertible x] : x ≠ 0 := by
  sorry

theorem decidable_kept (p : ℕ → Prop) [DecidablePred p] (n : ℕ) : n + 0 = n := by
  simp

theorem fact_kept (p : ℕ) [Fact (1 < p)] : 2 ≤ p := by
  sorry
"""


@pytest.fixture(scope="module")
def verdicts(lean_verdicts):
    return lean_verdicts(SOURCE)


@pytest.mark.parametrize(("name", "cls"), [("abv_nonneg", "IsAbsoluteValue"),
                                           ("concrete_nonneg", "IsAbsoluteValue"),
                                           ("invertible_ne", "Invertible")])
def test_a_class_on_a_value_is_untranslatable_not_dropped(verdicts, name, cls):
    result = verdicts[name]
    assert result.mirror_status == "untranslatable", (result.mirror_status, result.counterexample)
    assert f"the class {cls} assumes something of" in result.reason


@pytest.mark.parametrize("name", ["decidable_kept", "fact_kept"])
def test_decidability_and_value_hypotheses_are_still_checked(verdicts, name):
    assert verdicts[name].mirror_status in ("tested", "symbolic"), verdicts[name].reason
