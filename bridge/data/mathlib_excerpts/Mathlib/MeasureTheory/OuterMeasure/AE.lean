/-
Released under Apache 2.0 license as described in the file LICENSE (Mathlib).
-/
-- Excerpt (notation commands and their namespaces only) of
-- Mathlib/MeasureTheory/OuterMeasure/AE.lean
-- at leanprover-community/mathlib4 commit 074d56eb0c6f513c84adb2f576f1625af1b41ad2.
namespace MeasureTheory

notation3 "∀ᵐ "(...)" ∂"μ", "r:(scoped p => Filter.Eventually p <| MeasureTheory.ae μ) => r

notation3 "∃ᵐ "(...)" ∂"μ", "r:(scoped P => Filter.Frequently P <| MeasureTheory.ae μ) => r

notation:50 f " =ᵐ[" μ:50 "] " g:50 => Filter.EventuallyEq (MeasureTheory.ae μ) f g

notation:50 f " ≤ᵐ[" μ:50 "] " g:50 => Filter.EventuallyLE (MeasureTheory.ae μ) f g

end MeasureTheory
