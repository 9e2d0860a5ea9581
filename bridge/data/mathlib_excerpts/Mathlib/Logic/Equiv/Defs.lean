/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands only) of Mathlib/Logic/Equiv/Defs.lean (line 80), seen through
-- the code index; the stored version of the file is at
-- leanprover-community/mathlib4 commit 023fdfb94340bcbe35f0a3b0f95699410fb4331c.
@[inherit_doc]
infixl:25 " ≃ " => Equiv
