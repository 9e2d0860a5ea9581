/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands and their namespaces only) of Mathlib/Data/ENNReal/Basic.lean
-- at leanprover-community/mathlib4 commit 004ccd5e7240dc57b7e9a858817098110ca09103.
def ENNReal := WithTop ℝ≥0

@[inherit_doc]
scoped[ENNReal] notation "ℝ≥0∞" => ENNReal

/-- Notation for infinity as an `ENNReal` number. -/
scoped[ENNReal] notation3 "∞" => (⊤ : ENNReal)
