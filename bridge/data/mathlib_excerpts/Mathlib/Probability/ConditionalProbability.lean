/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands, the definitions they name, and their namespaces only) of
-- Mathlib/Probability/ConditionalProbability.lean, from a recent version seen through the code
-- index (its commit was not identified; an older stored version is at
-- leanprover-community/mathlib4 commit 020fb89f3245b7b171292f56c299437c74ee9a79).
namespace ProbabilityTheory

def cond (s : Set Ω) : Measure Ω :=
  (μ s)⁻¹ • μ.restrict s

scoped notation:max μ "[|" s "]" => ProbabilityTheory.cond μ s
@[inherit_doc cond] scoped notation3:max μ "[" t " | " s "]" => ProbabilityTheory.cond μ s t
scoped notation:max μ "[|" X " in " s "]" => μ[|X ⁻¹' s]
scoped notation:max μ "[" s " | "  X " in " t "]" => μ[s | X ⁻¹' t]
scoped notation:max μ "[|" X " ← " x "]" => μ[|X in {x}]
scoped notation:max μ "[" s " | "  X " ← " x "]" => μ[s | X in {x}]

end ProbabilityTheory
