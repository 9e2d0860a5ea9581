/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands and their namespaces only) of
-- Mathlib/Algebra/Quotient.lean
-- at leanprover-community/mathlib4 commit 074c32112aabcb999936eaa0403e931476097a02.
/-- Quotient notation based on the `HasQuotient` typeclass -/
notation:35 G " ⧸ " H:34 => HasQuotient.Quotient G H
