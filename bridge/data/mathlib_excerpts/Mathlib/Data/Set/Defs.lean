/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands, the definitions they name, and their namespaces only) of
-- Mathlib/Data/Set/Defs.lean
-- at leanprover-community/mathlib4 commit 00da6a5847cea333285586e943780393e7961ee6.
namespace Set

def powerset (s : Set α) : Set (Set α) := {t | t ⊆ s}

@[inherit_doc] prefix:100 "𝒫 " => powerset

def image {β : Type v} (f : α → β) (s : Set α) : Set β := {f a | a ∈ s}

end Set
