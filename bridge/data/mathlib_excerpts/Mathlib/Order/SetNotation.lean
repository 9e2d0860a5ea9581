/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands, their namespaces and the definitions they name, bodies elided as `sorry`) of
-- Mathlib/Order/SetNotation.lean
-- at leanprover-community/mathlib4 commit 01d4764842ec3357fc19a9f982fa97fcbe2dd82e.
/-- Indexed supremum. -/
notation3 "⨆ "(...)", "r:60:(scoped f => iSup f) => r

/-- Indexed infimum. -/
notation3 "⨅ "(...)", "r:60:(scoped f => iInf f) => r

namespace Set

def sInter (S : Set (Set α)) : Set α := sorry

/-- Notation for `Set.sInter` Intersection of a set of sets. -/
prefix:110 "⋂₀ " => sInter

def sUnion (S : Set (Set α)) : Set α := sorry

/-- Notation for `Set.sUnion`. Union of a set of sets. -/
prefix:110 "⋃₀ " => sUnion

def iUnion (s : ι → Set α) : Set α := sorry

def iInter (s : ι → Set α) : Set α := sorry

/-- Notation for `Set.iUnion`. Indexed union of a family of sets -/
notation3 "⋃ "(...)", "r:60:(scoped f => iUnion f) => r

/-- Notation for `Set.iInter`. Indexed intersection of a family of sets -/
notation3 "⋂ "(...)", "r:60:(scoped f => iInter f) => r

end Set
