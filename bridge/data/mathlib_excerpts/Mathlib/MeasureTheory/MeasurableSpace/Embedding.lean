/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands and their namespaces only) of
-- Mathlib/MeasureTheory/MeasurableSpace/Embedding.lean
-- at leanprover-community/mathlib4 commit 06cf16b3159a079add73993fd800c4f38f55fec7.
@[inherit_doc]
infixl:25 " ≃ᵐ " => MeasurableEquiv
