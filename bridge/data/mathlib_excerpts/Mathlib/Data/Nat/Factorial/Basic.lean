/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands and their namespaces only) of
-- Mathlib/Data/Nat/Factorial/Basic.lean
-- at leanprover-community/mathlib4 commit 000999064e8edbd0e08d1ed797cda08d7a780959.
namespace Nat

/-- factorial notation `n!` -/
scoped notation:10000 n "!" => Nat.factorial n

end Nat
