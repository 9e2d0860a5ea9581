/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands, their namespaces and the definitions they name, bodies elided as `sorry`) of
-- Mathlib/Data/Int/ModEq.lean
-- at leanprover-community/mathlib4 commit 007a9043baa8123a88ecc65af9b2ec138a8c5bb3.
namespace Int

/-- `a ≡ b [ZMOD n]` when `a % n = b % n`. -/
def ModEq (n a b : ℤ) := sorry

@[inherit_doc]
notation:50 a " ≡ " b " [ZMOD " n "]" => ModEq n a b

end Int
