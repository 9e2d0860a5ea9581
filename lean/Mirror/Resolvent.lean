import Mathlib

/-!
# The resolvent operator: one causal head with three switches

Spec: `spec/resolvent-operator.txt` (the Rust module `aether_core::resolvent`).

The head acts on a causal sequence. For `j ≤ i` it reads

* `s i j = ⟪q i, k j⟫ / √d` (`logit`),
* `m t = clamp (lerp 1 (u t) g) 0 1` (`blendMag`), phase `g * θ t`,
* `a t = m t * exp (i * g * θ t)` (`gate`),
* `G i j = ∏ t ∈ (j, i], a t` (`pathProd`), `R i j = ∏ t ∈ (j, i], m t` (`pathMag`),
* `Z i = ∑ j ≤ i, R i j * exp (qk * s i j)` (`rowNorm`),
* `W i j = G i j * exp (qk * s i j) / Z i ^ β` (`head`), and `W i j = 0` above the diagonal.

The three switch settings `(β, qk, g) = (1, 1, 0)`, `(0, 1, 0)`, `(0, 0, 1)` are softmax
attention, the unnormalised exponential kernel, and the path product of a gated chain
(`chain`), which is the resolvent `(I - A)⁻¹ = ∑ t < n, A ^ t` of the gate shift.

The statements are kept to the fragment the Python side translates without Lean: full
constant names, explicit casts, `∑ x ∈ Finset.range n, f` / `∏ x ∈ Finset.Ico a b, f`.

Status: nothing in this file has been built or checked here (no Lean toolchain on the
machine it was written on). Each docstring says whether a proof is given or is `sorry`;
a given proof is still only *unchecked* until `lake build` runs.
-/

namespace Mirror.Resolvent

/-- The blended gate magnitude `clamp (1 + g * (u - 1)) 0 1`: the raw magnitude `u`
interpolated from `1` by the switch `g` and clamped to `[0, 1]`. -/
noncomputable def blendMag (u g : ℝ) : ℝ := max 0 (min 1 (1 + g * (u - 1)))

/-- The complex gate `m * exp (θ * I)` of magnitude `m` and phase `θ`. -/
noncomputable def gate (m θ : ℝ) : ℂ := (m : ℂ) * Complex.exp ((θ : ℂ) * Complex.I)

/-- The path product `∏ t ∈ [j + 1, i], a t` for `j ≤ i` (empty product `1` on the
diagonal); `0` above the diagonal, like the operator. -/
noncomputable def pathProd (a : ℕ → ℂ) (i j : ℕ) : ℂ :=
  if j ≤ i then ∏ k ∈ Finset.Ico (j + 1) (i + 1), a k else 0

/-- The real path product of magnitudes `∏ t ∈ [j + 1, i], m t` for `j ≤ i`; `0` above the
diagonal. It is the modulus of `pathProd` for nonnegative magnitudes. -/
noncomputable def pathMag (m : ℕ → ℝ) (i j : ℕ) : ℝ :=
  if j ≤ i then ∏ k ∈ Finset.Ico (j + 1) (i + 1), m k else 0

/-- The scaled logit `⟪q i, k j⟫ / √d`. -/
noncomputable def logit (d : ℕ) (q k : ℕ → Fin d → ℝ) (i j : ℕ) : ℝ :=
  (∑ e : Fin d, q i e * k j e) / Real.sqrt (d : ℝ)

/-- The row normaliser `Z i = ∑ j ≤ i, R i j * exp (qk * s i j)`. -/
noncomputable def rowNorm (d : ℕ) (qk g : ℝ) (q k : ℕ → Fin d → ℝ) (u : ℕ → ℝ) (i : ℕ) : ℝ :=
  ∑ j ∈ Finset.range (i + 1),
    pathMag (fun t => blendMag (u t) g) i j * Real.exp (qk * logit d q k i j)

/-- The head entry `W i j = G i j * exp (qk * s i j) / Z i ^ β` for `j ≤ i`, `0` above the
diagonal; `β`, `qk`, `g` are the three switches. -/
noncomputable def head (d : ℕ) (β qk g : ℝ) (q k : ℕ → Fin d → ℝ) (u θ : ℕ → ℝ) (i j : ℕ) :
    ℂ :=
  if j ≤ i then
    pathProd (fun t => gate (blendMag (u t) g) (g * θ t)) i j
        * (Real.exp (qk * logit d q k i j) : ℂ)
      / ((rowNorm d qk g q k u i ^ β : ℝ) : ℂ)
  else 0

/-- The gated chain `y 0 = b 0`, `y (n + 1) = a (n + 1) * y n + b (n + 1)`
(structural recursion on `ℕ`). -/
noncomputable def chain (a b : ℕ → ℝ) : ℕ → ℝ
  | 0 => b 0
  | n + 1 => a (n + 1) * chain a b n + b (n + 1)

/-- Softmax corner: at `(β, qk, g) = (1, 1, 0)` the head is causal softmax attention.
Proof: sorry (not yet checked). -/
theorem corner_softmax (d : ℕ) (q k : ℕ → Fin d → ℝ) (u θ : ℕ → ℝ) (i j : ℕ) :
    head d 1 1 0 q k u θ i j =
      if j ≤ i then
        ((Real.exp (logit d q k i j) /
            ∑ j' ∈ Finset.range (i + 1), Real.exp (logit d q k i j') : ℝ) : ℂ)
      else 0 := by
  sorry

/-- Kernel corner: at `(β, qk, g) = (0, 1, 0)` the head is the bare exponential kernel
`exp (s i j)` on the causal triangle. Proof: sorry (not yet checked). -/
theorem corner_linear (d : ℕ) (q k : ℕ → Fin d → ℝ) (u θ : ℕ → ℝ) (i j : ℕ) :
    head d 0 1 0 q k u θ i j = if j ≤ i then (Real.exp (logit d q k i j) : ℂ) else 0 := by
  sorry

/-- Path-product corner: at `(β, qk, g) = (0, 0, 1)` the head is the path product of the
unblended gates. Proof: sorry (not yet checked). -/
theorem corner_path_product (d : ℕ) (q k : ℕ → Fin d → ℝ) (u θ : ℕ → ℝ) (i j : ℕ) :
    head d 0 0 1 q k u θ i j = pathProd (fun t => gate (blendMag (u t) 1) (θ t)) i j := by
  sorry

/-- The family contains the three named operators (the three corners at once).
Proof: given, by pairing `corner_softmax`, `corner_linear`, `corner_path_product`
(so it inherits their `sorry`). -/
theorem three_corners_containment (d : ℕ) (q k : ℕ → Fin d → ℝ) (u θ : ℕ → ℝ) (i j : ℕ) :
    (head d 1 1 0 q k u θ i j =
      if j ≤ i then
        ((Real.exp (logit d q k i j) /
            ∑ j' ∈ Finset.range (i + 1), Real.exp (logit d q k i j') : ℝ) : ℂ)
      else 0) ∧
    (head d 0 1 0 q k u θ i j = if j ≤ i then (Real.exp (logit d q k i j) : ℂ) else 0) ∧
    (head d 0 0 1 q k u θ i j = pathProd (fun t => gate (blendMag (u t) 1) (θ t)) i j) :=
  ⟨corner_softmax d q k u θ i j, corner_linear d q k u θ i j,
    corner_path_product d q k u θ i j⟩

/-- The corners are distinct: with `g = 0`, `qk = 0`, entry `(1, 0)` is `1 / 2` at `β = 1`
and `1` at `β = 0`. Proof: sorry (not yet checked). -/
theorem corners_are_distinct :
    head 1 1 0 0 (fun _ _ => 0) (fun _ _ => 0) (fun _ => 0) (fun _ => 0) 1 0 = 1 / 2 ∧
    head 1 0 0 0 (fun _ _ => 0) (fun _ _ => 0) (fun _ => 0) (fun _ => 0) 1 0 = 1 := by
  sorry

/-- At the softmax corner every row sums to `1`. Proof: sorry (not yet checked). -/
theorem softmax_row_sum_one (d : ℕ) (q k : ℕ → Fin d → ℝ) (u θ : ℕ → ℝ) (i : ℕ) :
    ∑ j ∈ Finset.range (i + 1), head d 1 1 0 q k u θ i j = 1 := by
  sorry

/-- At `β = 1` with zero phases every row sums to `1`, whatever `qk` and `g`.
Proof: sorry (not yet checked). -/
theorem beta_one_row_is_one (d : ℕ) (qk g : ℝ) (q k : ℕ → Fin d → ℝ) (u θ : ℕ → ℝ)
    (hθ : ∀ t, θ t = 0) (i : ℕ) :
    ∑ j ∈ Finset.range (i + 1), head d 1 qk g q k u θ i j = 1 := by
  sorry

/-- With the gate off (`g = 0`) and `β = 0` the head is the bare kernel
`exp (qk * s i j)` on the causal triangle. Proof: sorry (not yet checked). -/
theorem gate_zero_beta_zero_is_linear_attention (d : ℕ) (qk : ℝ) (q k : ℕ → Fin d → ℝ)
    (u θ : ℕ → ℝ) (i j : ℕ) :
    head d 0 qk 0 q k u θ i j =
      if j ≤ i then (Real.exp (qk * logit d q k i j) : ℂ) else 0 := by
  sorry

/-- With `g = 0`, `β = 0`, `qk = 0`, row `i` sums to `i + 1`, not `1`: `β`, not `g`,
decides row-stochasticity. Proof: sorry (not yet checked). -/
theorem gate_zero_beta_zero_row_not_one (d : ℕ) (q k : ℕ → Fin d → ℝ) (u θ : ℕ → ℝ)
    (i : ℕ) :
    ∑ j ∈ Finset.range (i + 1), head d 0 0 0 q k u θ i j = (i : ℂ) + 1 := by
  sorry

/-- For nonnegative magnitudes the modulus of the gate path product is the product of the
magnitudes. Proof: sorry (not yet checked). -/
theorem pathProd_abs (m θ : ℕ → ℝ) (hm : ∀ t, 0 ≤ m t) (i j : ℕ) :
    ‖pathProd (fun t => gate (m t) (θ t)) i j‖ = pathMag m i j := by
  sorry

/-- For magnitudes in `[0, 1]` the path product has modulus at most `1`, with equality
exactly when every magnitude on the path is `1`. Proof: sorry (not yet checked). -/
theorem prefix_logit_mask_restated (m θ : ℕ → ℝ) (hm : ∀ t, 0 ≤ m t ∧ m t ≤ 1) (i j : ℕ)
    (hji : j ≤ i) :
    ‖pathProd (fun t => gate (m t) (θ t)) i j‖ ≤ 1 ∧
      (‖pathProd (fun t => gate (m t) (θ t)) i j‖ = 1 ↔
        ∀ t ∈ Finset.Ico (j + 1) (i + 1), m t = 1) := by
  sorry

/-- On the causal triangle the path product vanishes exactly when some magnitude on the
path is `0`. Proof: sorry (not yet checked). -/
theorem pathProd_eq_zero_iff (m θ : ℕ → ℝ) (hm : ∀ t, 0 ≤ m t) (i j : ℕ) (hji : j ≤ i) :
    pathProd (fun t => gate (m t) (θ t)) i j = 0 ↔
      ∃ t ∈ Finset.Ico (j + 1) (i + 1), m t = 0 := by
  sorry

/-- `exp (C i - C j)` is never `0`, so a prefix-sum (log-domain) form cannot represent a
closed gate. Proof: given (`Real.exp_ne_zero`). -/
theorem no_prefix_scan_represents_a_zero_gate (C : ℕ → ℝ) (i j : ℕ) :
    Real.exp (C i - C j) ≠ 0 :=
  Real.exp_ne_zero _

/-- The values `-1`, `0`, `1` are the gates `(m, θ) = (1, π)`, `(0, 0)`, `(1, 0)`.
Proof: given (`simp` with `Complex.exp_pi_mul_I`), unchecked. -/
theorem bedM_gate_exact : gate 1 Real.pi = -1 ∧ gate 0 0 = 0 ∧ gate 1 0 = 1 := by
  refine ⟨?_, ?_, ?_⟩ <;> simp [gate, Complex.exp_pi_mul_I]

/-- A draw `a ∈ {-1, 0, 1}` is the gate of magnitude `|a|` and phase `π` when `a < 0`,
`0` otherwise. Proof: sorry (not yet checked). -/
theorem negative_draw_is_on_the_band (a : ℤ) (ha : a = -1 ∨ a = 0 ∨ a = 1) :
    gate |(a : ℝ)| (if a < 0 then Real.pi else 0) = (a : ℂ) := by
  sorry

/-- A unit gate of constant phase `ω` gives the RoPE kernel `exp (i ω (i - j))`.
Proof: sorry (not yet checked). -/
theorem constant_phase_gate_is_rope (ω : ℝ) (i j : ℕ) (hji : j ≤ i) :
    pathProd (fun _ => gate 1 ω) i j =
      Complex.exp (((ω * ((i : ℝ) - (j : ℝ)) : ℝ) : ℂ) * Complex.I) := by
  sorry

/-- Any phase schedule of unit gates separates: the path product is
`exp (i (Θ i - Θ j))` with `Θ` the prefix sum of the phases. Proof: sorry (not yet
checked). -/
theorem cumulative_phase_is_separable (θ : ℕ → ℝ) (i j : ℕ) (hji : j ≤ i) :
    pathProd (fun t => gate 1 (θ t)) i j =
      Complex.exp ((((∑ t ∈ Finset.range (i + 1), θ t) -
        ∑ t ∈ Finset.range (j + 1), θ t : ℝ) : ℂ) * Complex.I) := by
  sorry

namespace PhaseH

/-- A scalar path product is invariant under swapping two gates inside its window
`(j, i]`. Proof: sorry (not yet checked). -/
theorem scalar_gate_commutes (a : ℕ → ℂ) (i j p r : ℕ) (hp : j < p ∧ p ≤ i)
    (hr : j < r ∧ r ≤ i) :
    pathProd (fun t => a (if t = p then r else if t = r then p else t)) i j =
      pathProd a i j := by
  sorry

end PhaseH

namespace CEQ.V15

/-- The chain is the sum of path-weighted inputs:
`chain a b i = ∑ s ≤ i, (∏ t ∈ (s, i], a t) * b s`, over the reals, with no hypothesis on
`a`. Proof: sorry (not yet checked). -/
theorem chain_path_product (a b : ℕ → ℝ) (i : ℕ) :
    chain a b i =
      ∑ s ∈ Finset.range (i + 1), (∏ t ∈ Finset.Ico (s + 1) (i + 1), a t) * b s := by
  sorry

end CEQ.V15

namespace CEQ.V15Fork

/-- The path-product corner with zero phases reads out the chain of its magnitudes.
Proof: sorry (not yet checked). -/
theorem chain_eq_sum (d : ℕ) (q k : ℕ → Fin d → ℝ) (u b : ℕ → ℝ) (i : ℕ) :
    ∑ s ∈ Finset.range (i + 1), head d 0 0 1 q k u (fun _ => 0) i s * (b s : ℂ) =
      (chain (fun t => blendMag (u t) 1) b i : ℂ) := by
  sorry

end CEQ.V15Fork

namespace CEQ.Nilpotent

/-- For strictly lower-triangular `A`, the terminating Neumann series `∑ t < n, A ^ t` is the
exact two-sided inverse of `1 - A`. Proof: sorry (not yet checked). -/
theorem occupancy_is_exact_inverse (n : ℕ) (A : Matrix (Fin n) (Fin n) ℝ)
    (hA : ∀ i j, i ≤ j → A i j = 0) :
    (∑ t ∈ Finset.range n, A ^ t) * (1 - A) = 1 ∧
      (1 - A) * (∑ t ∈ Finset.range n, A ^ t) = 1 := by
  sorry

end CEQ.Nilpotent

end Mirror.Resolvent
