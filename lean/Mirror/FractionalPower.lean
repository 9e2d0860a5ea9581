import Mathlib

/-!
# The resolvent fractional-power layer

Spec: `spec/fractional-power-layer.txt`.

The layer returns `Y = X (A ^ r)ᵀ` for a shared `d × d` operator parameterised as `A = S + K`
with `S = L Lᵀ + δ I` (symmetric positive definite for `δ > 0`) and `K = (U − Uᵀ) / 2`
(skew-symmetric), and evaluates `A ^ r`, `0 < r < 1`, through the resolvent mixture

  `t ^ r = sin (π r) / π * ∫ s in (0, ∞), s ^ (r - 1) * t / (s + t)`

applied to `A`, with a quadrature in `s` and one solve `(s I + A) Z = A Xᵀ` per node.

This file states the facts the layer relies on:

* the scalar Balakrishnan formula (`rpow_eq_resolvent_integral`);
* `S` is positive definite (`symPart_posDef`) and, elementwise, its quadratic form is
  positive (`symPart_quadratic_pos`);
* `K` is skew-symmetric (`skewPart_transpose`, `skewPart_apply_swap`);
* the symmetric part of `A` is `S` (`accretiveParam_symm_part`) and the quadratic forms of
  `A` and `S` agree (`accretiveParam_quadratic_eq`);
* spectral facts: `(t ^ (r / 2)) ^ 2 = t ^ r` for `t > 0` (`rpow_half_sq`), and `l I + A` is
  invertible for an accretive `A` and `l > 0` (`resolvent_isUnit`).

The definitions use `Fin d` indices and explicit elementwise formulas (through `Matrix.of`)
so the Python side can unfold them. The integration variable is written `s` because `λ` is
a keyword in Lean 4.

Status: nothing in this file has been built or checked here (no Lean toolchain on the
machine it was written on). Proved: `skewPart_apply_swap` (by `ring`, unchecked); all other
theorems are `sorry`.
-/

open scoped Matrix

namespace Mirror.FractionalPower

/-- The symmetric positive part `S = L Lᵀ + δ I`, elementwise
`S i j = (∑ k, L i k * L j k) + if i = j then δ else 0`. -/
noncomputable def symPart {d q : ℕ} (L : Fin d → Fin q → ℝ) (δ : ℝ) :
    Matrix (Fin d) (Fin d) ℝ :=
  Matrix.of fun i j => (∑ k, L i k * L j k) + if i = j then δ else 0

/-- The skew part `K = (U − Uᵀ) / 2`, elementwise `K i j = (U i j - U j i) / 2`. -/
noncomputable def skewPart {d : ℕ} (U : Matrix (Fin d) (Fin d) ℝ) : Matrix (Fin d) (Fin d) ℝ :=
  Matrix.of fun i j => (U i j - U j i) / 2

/-- The accretive parameterisation `A = S + K` from `L`, `δ` and `U`, elementwise. -/
noncomputable def accretiveParam {d q : ℕ} (L : Fin d → Fin q → ℝ) (δ : ℝ)
    (U : Matrix (Fin d) (Fin d) ℝ) : Matrix (Fin d) (Fin d) ℝ :=
  Matrix.of fun i j => symPart L δ i j + skewPart U i j

/-- The resolvent mixture the layer evaluates for shifts `lam` and weights `w`:
`(sin (π r) / π) • ∑ j, (w j * lam j ^ (r - 1)) • ((lam j • 1 + A)⁻¹ * A)`, the quadrature of
the Balakrishnan integral applied to the matrix `A` (`⁻¹` is `Matrix.inv`, `0` when singular). -/
noncomputable def resolventMixture {d m : ℕ} (A : Matrix (Fin d) (Fin d) ℝ) (r : ℝ)
    (lam w : Fin m → ℝ) : Matrix (Fin d) (Fin d) ℝ :=
  (Real.sin (Real.pi * r) / Real.pi) •
    ∑ j, (w j * lam j ^ (r - 1)) • ((lam j • (1 : Matrix (Fin d) (Fin d) ℝ) + A)⁻¹ * A)

/-- The layer's operator: the resolvent mixture of the accretive parameterisation
`A = S + K` built from `L`, `δ` and `U` (what `fractional_apply` evaluates). -/
noncomputable def accretiveLayer {d q m : ℕ} (L : Fin d → Fin q → ℝ) (δ : ℝ)
    (U : Matrix (Fin d) (Fin d) ℝ) (r : ℝ) (lam w : Fin m → ℝ) : Matrix (Fin d) (Fin d) ℝ :=
  resolventMixture (accretiveParam L δ U) r lam w

/-- The scalar resolvent-mixture (Balakrishnan) formula: for `0 < r < 1` and `t > 0`,
`t ^ r = sin (π r) / π * ∫ s in (0, ∞), s ^ (r - 1) * t / (s + t)`.
Proof: sorry (not yet checked). -/
theorem rpow_eq_resolvent_integral (r t : ℝ) (hr : 0 < r ∧ r < 1) (ht : 0 < t) :
    t ^ r = Real.sin (Real.pi * r) / Real.pi *
      ∫ s in Set.Ioi (0 : ℝ), s ^ (r - 1) * t / (s + t) := by
  sorry

/-- `S = L Lᵀ + δ I` is positive definite for `δ > 0`. Proof: sorry (not yet checked). -/
theorem symPart_posDef {d q : ℕ} (L : Fin d → Fin q → ℝ) (δ : ℝ) (hδ : 0 < δ) :
    (symPart L δ).PosDef := by
  sorry

/-- Elementwise positive definiteness of `S = L Lᵀ + δ I`: every nonzero `x` has
`0 < ∑ i, ∑ j, x i * S i j * x j`, with `S` written out. Proof: sorry (not yet checked). -/
theorem symPart_quadratic_pos {d q : ℕ} (L : Fin d → Fin q → ℝ) (δ : ℝ) (hδ : 0 < δ) :
    ∀ x : Fin d → ℝ, x ≠ 0 →
      0 < ∑ i, ∑ j, x i * ((∑ k, L i k * L j k) + if i = j then δ else 0) * x j := by
  sorry

/-- `K = (U − Uᵀ) / 2` is skew-symmetric: `Kᵀ = -K`. Proof: sorry (not yet checked). -/
theorem skewPart_transpose {d : ℕ} (U : Matrix (Fin d) (Fin d) ℝ) :
    (skewPart U)ᵀ = -skewPart U := by
  sorry

/-- `K = (U − Uᵀ) / 2` is skew-symmetric, elementwise: `K i j = - K j i`.
Proof: given (`simp only [skewPart, Matrix.of_apply]` then `ring`), unchecked. -/
theorem skewPart_apply_swap {d : ℕ} (U : Matrix (Fin d) (Fin d) ℝ) (i j : Fin d) :
    skewPart U i j = -skewPart U j i := by
  simp only [skewPart, Matrix.of_apply]
  ring

/-- The symmetric part of `A = S + K` is `S`: `(A + Aᵀ) / 2 = S`, written
`(2 : ℝ)⁻¹ • (A + Aᵀ) = S`. Proof: sorry (not yet checked). -/
theorem accretiveParam_symm_part {d q : ℕ} (L : Fin d → Fin q → ℝ) (δ : ℝ)
    (U : Matrix (Fin d) (Fin d) ℝ) :
    (2 : ℝ)⁻¹ • (accretiveParam L δ U + (accretiveParam L δ U)ᵀ) = symPart L δ := by
  sorry

/-- The quadratic forms of `A = S + K` and `S` agree: the skew part contributes nothing.
Proof: sorry (not yet checked). -/
theorem accretiveParam_quadratic_eq {d q : ℕ} (L : Fin d → Fin q → ℝ) (δ : ℝ)
    (U : Matrix (Fin d) (Fin d) ℝ) (x : Fin d → ℝ) :
    ∑ i, ∑ j, x i * accretiveParam L δ U i j * x j = ∑ i, ∑ j, x i * symPart L δ i j * x j := by
  sorry

/-- A positive scalar's half power squares to its power: `(t ^ (r / 2)) ^ 2 = t ^ r` for
`t > 0` (the square-root factorisation used for a diagonal/positive spectrum).
Proof: sorry (not yet checked). -/
theorem rpow_half_sq (t r : ℝ) (ht : 0 < t) : (t ^ (r / 2)) ^ 2 = t ^ r := by
  sorry

/-- For an accretive `A` (nonnegative quadratic form) and `l > 0`, the shifted operator
`l I + A` is invertible, so every resolvent solve of the layer is well posed.
Proof: sorry (not yet checked). -/
theorem resolvent_isUnit {d : ℕ} (A : Matrix (Fin d) (Fin d) ℝ)
    (hA : ∀ x : Fin d → ℝ, 0 ≤ ∑ i, ∑ j, x i * A i j * x j) (l : ℝ) (hl : 0 < l) :
    IsUnit (l • (1 : Matrix (Fin d) (Fin d) ℝ) + A) := by
  sorry

/-- The layer's operator `A = S + K` is invertible-after-shift: for `δ > 0` and `l ≥ 0`,
`l I + A` is invertible (the case the quadrature nodes need).
Proof: sorry (not yet checked). -/
theorem accretiveParam_shift_isUnit {d q : ℕ} (L : Fin d → Fin q → ℝ) (δ : ℝ) (hδ : 0 < δ)
    (U : Matrix (Fin d) (Fin d) ℝ) (l : ℝ) (hl : 0 ≤ l) :
    IsUnit (l • (1 : Matrix (Fin d) (Fin d) ℝ) + accretiveParam L δ U) := by
  sorry

/-- The layer commutes with its operator: every term of the mixture is a rational function of
`A = S + K`, so `M A = A M`. Proof: sorry (not yet checked). -/
theorem accretiveLayer_comm {d q m : ℕ} (L : Fin d → Fin q → ℝ) (δ : ℝ)
    (U : Matrix (Fin d) (Fin d) ℝ) (r : ℝ) (lam w : Fin m → ℝ) :
    accretiveLayer L δ U r lam w * accretiveParam L δ U =
      accretiveParam L δ U * accretiveLayer L δ U r lam w := by
  sorry

/-- On the symmetric part `S = L Lᵀ + δ I` the mixture is symmetric (the eigh baseline's
setting). Proof: sorry (not yet checked). -/
theorem resolventMixture_symPart_symm {d q m : ℕ} (L : Fin d → Fin q → ℝ) (δ r : ℝ)
    (lam w : Fin m → ℝ) :
    (resolventMixture (symPart L δ) r lam w)ᵀ = resolventMixture (symPart L δ) r lam w := by
  sorry

end Mirror.FractionalPower
