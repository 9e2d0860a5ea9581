import Mirror.Ops.Scalar

/-!
# Op Specs: linear maps and feed-forward

Spec: `spec/op-specs.txt`, section "Linear maps and feed-forward".

| Op Spec | Formula |
|---|---|
| `linear` | `y[t, n] = Σₖ x[t, k] · W[n, k]` (bias-free `nn.Linear(K, N)`, `W` stored `[N, K]`) |
| `gateUp` | `[x W_gateᵀ ‖ x W_upᵀ]`, gate first |
| `siluMul` | `y[t, i] = silu(gu[t, i]) · gu[t, I + i]` (SwiGLU on a fused row) |
| `geluMul` | `y[t, i] = geluTanh(gu[t, i]) · gu[t, I + i]` (GeGLU) |
| `residual` | `y = x + r · h` |
| `embed` | `y[t] = c · E[tokens[t]]` |
| `lmHead` | `z = mul · x Wᵀ`, then optionally `softcap c z` |

The fused `[gate ‖ up]` row has index type `Fin (I + I)`: column `Fin.castAdd I i` is gate
column `i`, column `Fin.natAdd I i` (value `I + i`) is up column `i`. `lmHead`'s optional
soft-cap is a Boolean switch `cap` with cap value `c`.

Status: nothing in this file has been built or checked here (no Lean toolchain on the
machine it was written on).
-/

namespace Mirror.Ops

/-- Bias-free linear map `y[t, n] = Σₖ x[t, k] · W[n, k]`, `W` stored `[N, K]`. -/
noncomputable def linear {T K N : ℕ} (x : Fin T → Fin K → ℝ) (W : Fin N → Fin K → ℝ) :
    Fin T → Fin N → ℝ :=
  fun t n => ∑ k, x t k * W n k

/-- Fused gate/up projection `[x W_gateᵀ ‖ x W_upᵀ]`, gate columns first. -/
noncomputable def gateUp {T K I : ℕ} (x : Fin T → Fin K → ℝ) (Wg Wu : Fin I → Fin K → ℝ) :
    Fin T → Fin (I + I) → ℝ :=
  fun t => Fin.append (linear x Wg t) (linear x Wu t)

/-- SwiGLU on a fused `[gate ‖ up]` row: `y[t, i] = silu(gu[t, i]) · gu[t, I + i]`. -/
noncomputable def siluMul {T I : ℕ} (gu : Fin T → Fin (I + I) → ℝ) : Fin T → Fin I → ℝ :=
  fun t i => silu (gu t (Fin.castAdd I i)) * gu t (Fin.natAdd I i)

/-- GeGLU on a fused `[gate ‖ up]` row: `y[t, i] = geluTanh(gu[t, i]) · gu[t, I + i]`. -/
noncomputable def geluMul {T I : ℕ} (gu : Fin T → Fin (I + I) → ℝ) : Fin T → Fin I → ℝ :=
  fun t i => geluTanh (gu t (Fin.castAdd I i)) * gu t (Fin.natAdd I i)

/-- Residual connection `y = x + r · h` (`r = 1` except with a residual multiplier). -/
noncomputable def residual {T D : ℕ} (r : ℝ) (x h : Fin T → Fin D → ℝ) : Fin T → Fin D → ℝ :=
  fun t d => x t d + r * h t d

/-- Token embedding `y[t] = c · E[tokens[t]]`. -/
noncomputable def embed {V T D : ℕ} (c : ℝ) (E : Fin V → Fin D → ℝ) (tokens : Fin T → Fin V) :
    Fin T → Fin D → ℝ :=
  fun t d => c * E (tokens t) d

/-- LM head `z = mul · x Wᵀ`, soft-capped by `softcap c` when `cap` is set. -/
noncomputable def lmHead {T D V : ℕ} (mul : ℝ) (cap : Bool) (c : ℝ) (x : Fin T → Fin D → ℝ)
    (W : Fin V → Fin D → ℝ) : Fin T → Fin V → ℝ :=
  fun t v =>
    let z := mul * ∑ k, x t k * W v k
    if cap then softcap c z else z

/-- The gate half of the fused projection is the gate projection.
Proof: sorry (not yet checked; expected `simp [gateUp]` via `Fin.append_left`). -/
theorem gateUp_castAdd {T K I : ℕ} (x : Fin T → Fin K → ℝ) (Wg Wu : Fin I → Fin K → ℝ)
    (t : Fin T) (i : Fin I) : gateUp x Wg Wu t (Fin.castAdd I i) = linear x Wg t i := by
  sorry

/-- The up half of the fused projection is the up projection.
Proof: sorry (not yet checked; expected `simp [gateUp]` via `Fin.append_right`). -/
theorem gateUp_natAdd {T K I : ℕ} (x : Fin T → Fin K → ℝ) (Wg Wu : Fin I → Fin K → ℝ)
    (t : Fin T) (i : Fin I) : gateUp x Wg Wu t (Fin.natAdd I i) = linear x Wu t i := by
  sorry

/-- SwiGLU of the fused projection is `silu (x W_gateᵀ) ⊙ (x W_upᵀ)`.
Proof: sorry (not yet checked). -/
theorem siluMul_gateUp {T K I : ℕ} (x : Fin T → Fin K → ℝ) (Wg Wu : Fin I → Fin K → ℝ)
    (t : Fin T) (i : Fin I) :
    siluMul (gateUp x Wg Wu) t i = silu (linear x Wg t i) * linear x Wu t i := by
  sorry

/-- With multiplier `1` the residual is the plain sum `x + h`.
Proof: given (`funext`, `simp only` with `one_mul`), unchecked. -/
theorem residual_one {T D : ℕ} (x h : Fin T → Fin D → ℝ) :
    residual 1 x h = fun t d => x t d + h t d := by
  funext t d
  simp only [residual, one_mul]

/-- Without the cap the LM head is the scaled linear map.
Proof: given (`rfl`, by definition), unchecked. -/
theorem lmHead_no_cap {T D V : ℕ} (mul c : ℝ) (x : Fin T → Fin D → ℝ)
    (W : Fin V → Fin D → ℝ) :
    lmHead mul false c x W = fun t v => mul * linear x W t v := rfl

end Mirror.Ops
