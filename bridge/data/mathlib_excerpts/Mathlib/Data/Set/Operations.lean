/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands, the definitions they name, and their namespaces only) of
-- Mathlib/Data/Set/Operations.lean
-- at leanprover-community/mathlib4 commit 00cff0188f73d3cddf8455cf7ebace667b010be1.
namespace Set

def preimage (f : α → β) (s : Set β) : Set α := {x | f x ∈ s}

/-- `f ⁻¹' t` denotes the preimage of `t : Set β` under the function `f : α → β`. -/
infixl:80 " ⁻¹' " => preimage

/-- `f '' s` denotes the image of `s : Set α` under the function `f : α → β`. -/
infixl:80 " '' " => image

end Set
