/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands only) of Mathlib/Algebra/Notation/Defs.lean, lines seen through the
-- code index just before the `recommended_spelling` lines of the version stored at
-- leanprover-community/mathlib4 commit 009d7c50a0600090e9a4b77199c138a23cb2ee1b.
@[inherit_doc] infixr:65 " +ᵥ " => HVAdd.hVAdd
@[inherit_doc] infixl:65 " -ᵥ " => VSub.vsub

@[inherit_doc] infixr:65 " ∘ᶠ " => FComp.comp
