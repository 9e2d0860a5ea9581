import Mathlib

/-!
# Op Specs: scalar functions

Spec: `spec/op-specs.txt`, section "Scalar functions" (the spec's project puts these in
`TheFormalEra.Ops`; here they live in `Mirror.Ops`). The formulas are the spec's, verbatim,
over Mathlib's `ℝ`.

Status: nothing in this file has been built or checked here (no Lean toolchain on the
machine it was written on).
-/

namespace Mirror.Ops

/-- The logistic sigmoid `1 / (1 + exp (-x))`. -/
noncomputable def sigmoid (x : ℝ) : ℝ := 1 / (1 + Real.exp (-x))

/-- SiLU (swish): `x * sigmoid x`. -/
noncomputable def silu (x : ℝ) : ℝ := x * sigmoid x

/-- Softplus `log (1 + exp x)`. -/
noncomputable def softplus (x : ℝ) : ℝ := Real.log (1 + Real.exp x)

/-- Tanh approximation of GELU (`gelu_pytorch_tanh`). -/
noncomputable def geluTanh (x : ℝ) : ℝ :=
  1 / 2 * x * (1 + Real.tanh (Real.sqrt (2 / Real.pi) * (x + 44715 / 1000000 * x ^ 3)))

/-- Soft-capping `c · tanh(x / c)`. -/
noncomputable def softcap (c x : ℝ) : ℝ := c * Real.tanh (x / c)

/-- SiLU is `x` times the sigmoid of `x`. Proof: given (`rfl`, by definition). -/
theorem silu_eq_mul_sigmoid (x : ℝ) : silu x = x * sigmoid x := rfl

/-- SiLU written out: `silu x = x / (1 + exp (-x))`. Proof: sorry (not yet checked). -/
theorem silu_eq_div (x : ℝ) : silu x = x / (1 + Real.exp (-x)) := by
  sorry

/-- The sigmoid is symmetric about `1 / 2`: `sigmoid x + sigmoid (-x) = 1`.
Proof: sorry (not yet checked). -/
theorem sigmoid_add_sigmoid_neg (x : ℝ) : sigmoid x + sigmoid (-x) = 1 := by
  sorry

/-- The sigmoid takes values in the open interval `(0, 1)`. Proof: sorry (not yet
checked). -/
theorem sigmoid_pos_lt_one (x : ℝ) : 0 < sigmoid x ∧ sigmoid x < 1 := by
  sorry

/-- Softplus is positive. Proof: sorry (not yet checked). -/
theorem softplus_pos (x : ℝ) : 0 < softplus x := by
  sorry

/-- Soft-capping with a positive cap stays within the cap: `|softcap c x| ≤ c`.
Proof: sorry (not yet checked; it is `|c * tanh (x / c)| = c * |tanh (x / c)| ≤ c`). -/
theorem softcap_abs_le (c x : ℝ) (hc : 0 < c) : |softcap c x| ≤ c := by
  sorry

/-- The tanh-GELU vanishes at `0`. Proof: given (`simp`), unchecked. -/
theorem geluTanh_zero : geluTanh 0 = 0 := by
  simp [geluTanh]

end Mirror.Ops
