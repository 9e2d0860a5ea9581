/-
Copyright (c) 2023 Rémy Degenne. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
Authors: Rémy Degenne
-/
-- Excerpt (notation commands and their namespaces only) of
-- Mathlib/Probability/Kernel/Composition/MeasureCompProd.lean
-- at leanprover-community/mathlib4 commit 139b491c4eccc3a605bb558ab89bc884a9b89f1c.
namespace MeasureTheory.Measure

@[inherit_doc]
scoped[ProbabilityTheory] infixl:100 " ⊗ₘ " => MeasureTheory.Measure.compProd

end MeasureTheory.Measure
