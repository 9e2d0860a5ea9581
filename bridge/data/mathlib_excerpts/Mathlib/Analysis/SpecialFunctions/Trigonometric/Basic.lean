/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands and their namespaces only) of
-- Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean
-- at leanprover-community/mathlib4 commit 02071f5bebc3d02f2912653411662c1943cfa435.
namespace Real

@[inherit_doc]
scoped notation "π" => Real.pi

end Real
