import Mathlib

/-!
# Op Specs: rotary embeddings

Spec: `spec/op-specs.txt`, section "Rotary embeddings". `invFreq` is the spec's definition,
verbatim.

`rope θ rot denom active pos x` rotates the pairs `(i, i + rot / 2)` for `i < rot / 2` by the
angle `pos t * invFreq θ denom active i` and leaves the coordinates `≥ rot` unchanged
(the "rotate half" convention):

* `y i = x i * cos φ - x (i + rot / 2) * sin φ`,
* `y (i + rot / 2) = x (i + rot / 2) * cos φ + x i * sin φ`.

| Variant | Parameters |
|---|---|
| Full RoPE | `rot = denom = D`, `active = D / 2` |
| Partial RoPE | `rot = denom < D` |
| Proportional RoPE | `rot = denom = D`, `active < D / 2` (inactive pairs have frequency `0`) |

Coordinates are read through `coord`, which is `0` out of range (so a `rot > D` reads zeros
rather than failing).

Status: nothing in this file has been built or checked here (no Lean toolchain on the
machine it was written on).
-/

namespace Mirror.Ops

/-- Inverse frequency of pair `i`: `theta ^ (-(2 i / denom))` for the first `active` pairs,
`0` for the rest. -/
noncomputable def invFreq (theta : ℝ) (denom active i : ℕ) : ℝ :=
  if i < active then theta ^ (-(2 * (i : ℝ) / denom)) else 0

/-- Coordinate `j` of a vector `v : Fin D → ℝ`, read as `0` when `j ≥ D`. -/
noncomputable def coord {D : ℕ} (v : Fin D → ℝ) (j : ℕ) : ℝ :=
  if h : j < D then v ⟨j, h⟩ else 0

/-- Rotary position embedding of the rows `x t` at positions `pos t`: pairs
`(i, i + rot / 2)`, `i < rot / 2`, rotated by `pos t * invFreq theta denom active i`;
coordinates `≥ rot` unchanged. -/
noncomputable def rope {T D : ℕ} (theta : ℝ) (rot denom active : ℕ) (pos : Fin T → ℕ)
    (x : Fin T → Fin D → ℝ) : Fin T → Fin D → ℝ :=
  fun t d =>
    if d.val < rot / 2 then
      x t d * Real.cos ((pos t : ℝ) * invFreq theta denom active d.val)
        - coord (x t) (d.val + rot / 2)
          * Real.sin ((pos t : ℝ) * invFreq theta denom active d.val)
    else if d.val < rot then
      x t d * Real.cos ((pos t : ℝ) * invFreq theta denom active (d.val - rot / 2))
        + coord (x t) (d.val - rot / 2)
          * Real.sin ((pos t : ℝ) * invFreq theta denom active (d.val - rot / 2))
    else x t d

/-- RoPE preserves the Euclidean norm of each rotated pair `(i, i + rot / 2)`, for
`i < rot / 2` and `i + rot / 2 < D`. Proof: sorry (not yet checked). -/
theorem rope_pair_norm {T D : ℕ} (theta : ℝ) (rot denom active : ℕ) (pos : Fin T → ℕ)
    (x : Fin T → Fin D → ℝ) (t : Fin T) (i : ℕ) (hi : i < rot / 2) (hD : i + rot / 2 < D) :
    coord (rope theta rot denom active pos x t) i ^ 2
        + coord (rope theta rot denom active pos x t) (i + rot / 2) ^ 2
      = coord (x t) i ^ 2 + coord (x t) (i + rot / 2) ^ 2 := by
  sorry

/-- RoPE leaves every coordinate at or beyond `rot` unchanged.
Proof: sorry (not yet checked). -/
theorem rope_of_ge_rot {T D : ℕ} (theta : ℝ) (rot denom active : ℕ) (pos : Fin T → ℕ)
    (x : Fin T → Fin D → ℝ) (t : Fin T) (d : Fin D) (hd : rot ≤ d.val) :
    rope theta rot denom active pos x t d = x t d := by
  sorry

/-- At position `0` RoPE is the identity. Proof: sorry (not yet checked). -/
theorem rope_pos_zero {T D : ℕ} (theta : ℝ) (rot denom active : ℕ) (x : Fin T → Fin D → ℝ) :
    rope theta rot denom active (fun _ => 0) x = x := by
  sorry

/-- Pairs beyond `active` have frequency `0`. Proof: given (`simp` on the `if`), unchecked. -/
theorem invFreq_of_ge_active (theta : ℝ) (denom active i : ℕ) (hi : active ≤ i) :
    invFreq theta denom active i = 0 := by
  simp [invFreq, Nat.not_lt.mpr hi]

end Mirror.Ops
