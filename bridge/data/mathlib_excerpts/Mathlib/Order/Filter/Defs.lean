/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands, their namespaces and the definitions they name, bodies elided as `sorry`) of
-- Mathlib/Order/Filter/Defs.lean
-- at leanprover-community/mathlib4 commit 06cf16b3159a079add73993fd800c4f38f55fec7.
namespace Filter

def principal (s : Set α) : Filter α := sorry

@[inherit_doc]
scoped notation "𝓟" => Filter.principal

protected def Eventually (p : α → Prop) (f : Filter α) : Prop := sorry

@[inherit_doc Filter.Eventually]
notation3 "∀ᶠ "(...)" in "f", "r:(scoped p => Filter.Eventually p f) => r

protected def Frequently (p : α → Prop) (f : Filter α) : Prop := sorry

@[inherit_doc Filter.Frequently]
notation3 "∃ᶠ "(...)" in "f", "r:(scoped p => Filter.Frequently p f) => r

def EventuallyEq (l : Filter α) (f g : α → β) : Prop := sorry

@[inherit_doc]
notation:50 f " =ᶠ[" l:50 "] " g:50 => EventuallyEq l f g

def EventuallyLE [LE β] (l : Filter α) (f g : α → β) : Prop := sorry

@[inherit_doc]
notation:50 f " ≤ᶠ[" l:50 "] " g:50 => EventuallyLE l f g

end Filter
