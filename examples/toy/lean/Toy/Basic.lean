import Mathlib

/-!
# Toy kernels

Four small definitions and theorems about them. leanmirror binds each definition to a NumPy
function of the package `toyimpl` (see `pyproject.toml`), checks every function against the
unfolded definition, and checks the theorems against the functions.
-/

open Finset

namespace Toy

/-- The rectified linear unit. -/
def relu (x : ℝ) : ℝ := max x 0

/-- Inclusive prefix sums: `prefixSum a i = a 0 + … + a i`. -/
def prefixSum (a : ℕ → ℝ) (i : ℕ) : ℝ := ∑ j ∈ range (i + 1), a j

/-- Log-sum-exp of a vector of length `n` (`Real.log 0 = 0` for `n = 0`). -/
def logsumexp (n : ℕ) (x : Fin n → ℝ) : ℝ := Real.log (∑ i, Real.exp (x i))

/-- Softmax of the scores `s` at temperature `tau`. -/
def attn {n : ℕ} (tau : ℝ) (s : Fin n → ℝ) : Fin n → ℝ :=
  fun i => Real.exp (s i / tau) / ∑ j, Real.exp (s j / tau)

theorem relu_nonneg (x : ℝ) : 0 ≤ relu x := le_max_right x 0

theorem relu_of_nonneg (x : ℝ) (h : 0 ≤ x) : relu x = x := max_eq_left h

/-- Each prefix sum adds the next entry. -/
theorem prefixSum_succ (a : ℕ → ℝ) (i : ℕ) :
    prefixSum a (i + 1) = prefixSum a i + a (i + 1) := by
  simp [prefixSum, sum_range_succ]

theorem prefixSum_zero (a : ℕ → ℝ) : prefixSum a 0 = a 0 := by
  simp [prefixSum]

theorem attn_nonneg {n : ℕ} (tau : ℝ) (s : Fin n → ℝ) (i : Fin n) : 0 ≤ attn tau s i := by
  unfold attn
  positivity

end Toy
