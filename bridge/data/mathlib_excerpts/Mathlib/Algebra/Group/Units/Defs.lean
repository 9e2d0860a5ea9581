/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands and their namespaces only) of
-- Mathlib/Algebra/Group/Units/Defs.lean
-- at leanprover-community/mathlib4 commit 048a33751ec6f2370314ca51b563ce334bf2a827.
@[inherit_doc]
postfix:1024 "ˣ" => Units

@[inherit_doc]
infixl:70 " /ₚ " => divp
