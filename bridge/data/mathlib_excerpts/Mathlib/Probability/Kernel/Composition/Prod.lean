/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands only) of Mathlib/Probability/Kernel/Composition/Prod.lean, seen
-- through the code index; the file is indexed at
-- leanprover-community/mathlib4 commit bb4f801b1ee97381fddba6a79a873d65b98554e4.
@[inherit_doc]
scoped[ProbabilityTheory] infixl:100 " ×ₖ " => ProbabilityTheory.Kernel.prod
