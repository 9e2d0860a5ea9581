/-
Copyright (c) 2023 Rémy Degenne. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
Authors: Rémy Degenne
-/
-- Excerpt (notation commands and their namespaces only) of
-- Mathlib/Probability/Kernel/Composition/CompProd.lean
-- at leanprover-community/mathlib4 commit 093d215e37b4b2acd591fa1880a189985be98b49.
namespace ProbabilityTheory

namespace Kernel

@[inherit_doc]
scoped[ProbabilityTheory] infixl:100 " ⊗ₖ " => ProbabilityTheory.Kernel.compProd

end Kernel

end ProbabilityTheory
