/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands and their namespaces only) of
-- Mathlib/Algebra/Group/Equiv/Defs.lean
-- at leanprover-community/mathlib4 commit 001ff9204562ec435c2b7900f06056a0ecdc34f6.
/-- Notation for a `MulEquiv`. -/
infixl:25 " ≃* " => MulEquiv

/-- Notation for an `AddEquiv`. -/
infixl:25 " ≃+ " => AddEquiv
