/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands, their namespaces and the definitions they name, bodies elided as `sorry`) of
-- Mathlib/Data/Nat/ModEq.lean
-- at leanprover-community/mathlib4 commit 0107d4f3aa826891bf85995c988f71e81d948c93.
namespace Nat

/-- Modular equality. `n.ModEq a b`, or `a ≡ b [MOD n]`, means that `a % n = b % n`. -/
def ModEq (n a b : ℕ) := sorry

@[inherit_doc]
notation:50 a " ≡ " b " [MOD " n "]" => ModEq n a b

end Nat
