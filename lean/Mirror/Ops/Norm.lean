import Mirror.Ops.Scalar

/-!
# Op Specs: normalisation

Spec: `spec/op-specs.txt`, section "Normalisation".

| Op Spec | Formula |
|---|---|
| `rmsnorm` | `x / √(mean(x²) + ε) · w` |
| `rmsnormOffset` | `x / √(mean(x²) + ε) · (1 + w)` |
| `rmsnormUnit` | `x / √(mean(x²) + ε)` (no weight) |
| `rmsnormGated` | `w ⊙ x / √(mean(x²) + ε) ⊙ silu(z)` |
| `l2norm` | `x / √(Σ x² + ε)` |

The spec states `rmsnormOffset` over an arbitrary row index type `ι`; here every
normalisation uses rows `Fin T` (tokens, or flattened (token, head) pairs), so the Python side
can draw arrays for them. The formula is the spec's, verbatim, with `ι := Fin T`.

Status: nothing in this file has been built or checked here (no Lean toolchain on the
machine it was written on).
-/

namespace Mirror.Ops

/-- RMSNorm with weight: `x / √(mean(x²) + ε) · w`, row-wise over `Fin H`. -/
noncomputable def rmsnorm {T H : ℕ} (eps : ℝ) (x : Fin T → Fin H → ℝ) (w : Fin H → ℝ) :
    Fin T → Fin H → ℝ :=
  fun t h => x t h / Real.sqrt ((∑ j, x t j ^ 2) / (H : ℝ) + eps) * w h

/-- RMSNorm with offset weight: `x / √(mean(x²) + ε) · (1 + w)` (the spec's formula with
`ι := Fin T`). -/
noncomputable def rmsnormOffset {T H : ℕ} (eps : ℝ) (x : Fin T → Fin H → ℝ)
    (w : Fin H → ℝ) : Fin T → Fin H → ℝ :=
  fun t h => x t h / Real.sqrt ((∑ j, x t j ^ 2) / (H : ℝ) + eps) * (1 + w h)

/-- RMSNorm without weight: `x / √(mean(x²) + ε)`. -/
noncomputable def rmsnormUnit {T H : ℕ} (eps : ℝ) (x : Fin T → Fin H → ℝ) :
    Fin T → Fin H → ℝ :=
  fun t h => x t h / Real.sqrt ((∑ j, x t j ^ 2) / (H : ℝ) + eps)

/-- Gated RMSNorm (Gated DeltaNet output): `w ⊙ x / √(mean(x²) + ε) ⊙ silu(z)`. -/
noncomputable def rmsnormGated {T H : ℕ} (eps : ℝ) (x z : Fin T → Fin H → ℝ)
    (w : Fin H → ℝ) : Fin T → Fin H → ℝ :=
  fun t h => w h * (x t h / Real.sqrt ((∑ j, x t j ^ 2) / (H : ℝ) + eps)) * silu (z t h)

/-- L2 normalisation of each row: `x / √(Σ x² + ε)`. -/
noncomputable def l2norm {T H : ℕ} (eps : ℝ) (x : Fin T → Fin H → ℝ) : Fin T → Fin H → ℝ :=
  fun t h => x t h / Real.sqrt ((∑ j, x t j ^ 2) + eps)

/-- RMSNorm with the all-ones weight is the unweighted RMSNorm.
Proof: given (`funext`, `simp only` with `mul_one`), unchecked. -/
theorem rmsnormUnit_eq_rmsnorm_one {T H : ℕ} (eps : ℝ) (x : Fin T → Fin H → ℝ) :
    rmsnorm eps x (fun _ => 1) = rmsnormUnit eps x := by
  funext t h
  simp only [rmsnorm, rmsnormUnit, mul_one]

/-- The offset form with weight `w` is RMSNorm with weight `1 + w`.
Proof: given (`rfl`, by definition), unchecked. -/
theorem rmsnormOffset_eq_rmsnorm {T H : ℕ} (eps : ℝ) (x : Fin T → Fin H → ℝ)
    (w : Fin H → ℝ) : rmsnormOffset eps x w = rmsnorm eps x (fun h => 1 + w h) := rfl

/-- Gated RMSNorm is RMSNorm with weight `w` times `silu z`, entrywise.
Proof: sorry (not yet checked). -/
theorem rmsnormGated_eq_rmsnorm_mul {T H : ℕ} (eps : ℝ) (x z : Fin T → Fin H → ℝ)
    (w : Fin H → ℝ) (t : Fin T) (h : Fin H) :
    rmsnormGated eps x z w t h = rmsnorm eps x w t h * silu (z t h) := by
  sorry

/-- L2 normalisation maps the zero row to the zero row.
Proof: given (`funext`, `simp`), unchecked. -/
theorem l2norm_zero {T H : ℕ} (eps : ℝ) :
    l2norm eps (fun (_ : Fin T) (_ : Fin H) => (0 : ℝ)) = fun _ _ => 0 := by
  funext t h
  simp [l2norm]

/-- With `ε = 0`, a nonzero row is mapped to a unit vector: `Σ (l2norm 0 x)² = 1`.
Proof: sorry (not yet checked). -/
theorem l2norm_sq_sum_eq_one {T H : ℕ} (x : Fin T → Fin H → ℝ) (t : Fin T)
    (hx : ∃ h, x t h ≠ 0) : ∑ h, l2norm 0 x t h ^ 2 = 1 := by
  sorry

/-- L2 normalisation is RMSNorm-without-weight up to the scale `√H` when `ε = 0`:
`l2norm 0 x = rmsnormUnit 0 x / √H`. Proof: sorry (not yet checked). -/
theorem l2norm_eq_rmsnormUnit_div {T H : ℕ} (x : Fin T → Fin H → ℝ) (t : Fin T)
    (h : Fin H) : l2norm 0 x t h = rmsnormUnit 0 x t h / Real.sqrt (H : ℝ) := by
  sorry

end Mirror.Ops
