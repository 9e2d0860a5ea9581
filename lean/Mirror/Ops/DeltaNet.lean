import Mathlib

/-!
# Op Specs: Gated DeltaNet

Spec: `spec/op-specs.txt`, section "Gated DeltaNet". `gdnState` and `gatedDeltaRule` are the
spec's definitions, verbatim:

  `S_t = α_t · S_{t-1} · (I − β_t k_t k_tᵀ) + β_t v_t k_tᵀ`,  `o_t = S_t q_t`.

* `gdnStep` is one decode step on a state; `gdnState_succ` says the recurrence is `gdnStep`
  applied to the previous state.
* `gdnApply` applies the steps `start, start + 1, …` (those below `T`) to a given state.
* `chunkState C c` is the state after the first `c` chunks of `C` steps, computed from the
  state after `c - 1` chunks by applying that chunk's steps; `chunkDeltaRule C` reads the
  output of step `i` from the state after `i / C` whole chunks plus `i % C + 1` steps.
  `chunkDeltaRule_eq` says it equals `gatedDeltaRule` for every chunk size `C > 0`. This is
  the chunk-by-chunk form, not the WY (chunk-parallel) algebra used by fast kernels.

Status: nothing in this file has been built or checked here (no Lean toolchain on the
machine it was written on).
-/

namespace Mirror.Ops

/-- State of the gated delta rule (single head):
    S_t = α_t · S_{t-1} · (I − β_t k_t k_tᵀ) + β_t v_t k_tᵀ -/
noncomputable def gdnState {T Dk Dv : ℕ} (α β : Fin T → ℝ)
    (k : Fin T → Fin Dk → ℝ) (v : Fin T → Fin Dv → ℝ) :
    (t : ℕ) → t ≤ T → Matrix (Fin Dv) (Fin Dk) ℝ
  | 0, _ => 0
  | t + 1, h =>
    let i : Fin T := ⟨t, h⟩
    α i • (gdnState α β k v t (Nat.le_of_succ_le h) * (1 - β i • Matrix.vecMulVec (k i) (k i)))
      + β i • Matrix.vecMulVec (v i) (k i)

/-- Output at step t: o_t = S_t q_t -/
noncomputable def gatedDeltaRule {T Dk Dv : ℕ} (α β : Fin T → ℝ)
    (q k : Fin T → Fin Dk → ℝ) (v : Fin T → Fin Dv → ℝ) : Fin T → Fin Dv → ℝ :=
  fun i => (gdnState α β k v (i.val + 1) i.isLt).mulVec (q i)

/-- One decode step of the gated delta rule on the state `S`:
`α · S · (I − β k kᵀ) + β v kᵀ`. -/
noncomputable def gdnStep {Dk Dv : ℕ} (S : Matrix (Fin Dv) (Fin Dk) ℝ) (α β : ℝ)
    (k : Fin Dk → ℝ) (v : Fin Dv → ℝ) : Matrix (Fin Dv) (Fin Dk) ℝ :=
  α • (S * (1 - β • Matrix.vecMulVec k k)) + β • Matrix.vecMulVec v k

/-- Apply `n` steps of the rule, the steps `start, …, start + n - 1`, to the state `S`;
steps at or beyond `T` are skipped (the state is kept). -/
noncomputable def gdnApply {T Dk Dv : ℕ} (α β : Fin T → ℝ) (k : Fin T → Fin Dk → ℝ)
    (v : Fin T → Fin Dv → ℝ) (S : Matrix (Fin Dv) (Fin Dk) ℝ) (start : ℕ) :
    ℕ → Matrix (Fin Dv) (Fin Dk) ℝ
  | 0 => S
  | n + 1 =>
    if h : start + n < T then
      gdnStep (gdnApply α β k v S start n) (α ⟨start + n, h⟩) (β ⟨start + n, h⟩)
        (k ⟨start + n, h⟩) (v ⟨start + n, h⟩)
    else gdnApply α β k v S start n

/-- The state after the first `c` chunks of `C` steps each: chunk `c` applies the steps
`c * C, …, c * C + C - 1` to the state after chunk `c - 1`. -/
noncomputable def chunkState {T Dk Dv : ℕ} (C : ℕ) (α β : Fin T → ℝ)
    (k : Fin T → Fin Dk → ℝ) (v : Fin T → Fin Dv → ℝ) : ℕ → Matrix (Fin Dv) (Fin Dk) ℝ
  | 0 => 0
  | c + 1 => gdnApply α β k v (chunkState C α β k v c) (c * C) C

/-- The chunked gated delta rule with chunk size `C`: the output of step `i` is read from
the state after `i / C` whole chunks and the `i % C + 1` first steps of the next chunk. -/
noncomputable def chunkDeltaRule {T Dk Dv : ℕ} (C : ℕ) (α β : Fin T → ℝ)
    (q k : Fin T → Fin Dk → ℝ) (v : Fin T → Fin Dv → ℝ) : Fin T → Fin Dv → ℝ :=
  fun i =>
    (gdnApply α β k v (chunkState C α β k v (i.val / C)) (i.val / C * C) (i.val % C + 1)).mulVec
      (q i)

/-- The recurrence's step `t + 1` is the decode step `gdnStep` applied to the state at `t`.
Proof: given (`rfl`: both sides unfold to the same term), unchecked. -/
theorem gdnState_succ {T Dk Dv : ℕ} (α β : Fin T → ℝ) (k : Fin T → Fin Dk → ℝ)
    (v : Fin T → Fin Dv → ℝ) (t : ℕ) (h : t + 1 ≤ T) :
    gdnState α β k v (t + 1) h =
      gdnStep (gdnState α β k v t (Nat.le_of_succ_le h)) (α ⟨t, h⟩) (β ⟨t, h⟩) (k ⟨t, h⟩)
        (v ⟨t, h⟩) :=
  rfl

/-- Applying `n` steps from `start` to the recurrence's state at `start` gives the
recurrence's state at `start + n` (within the sequence).
Proof: sorry (not yet checked). -/
theorem gdnApply_gdnState {T Dk Dv : ℕ} (α β : Fin T → ℝ) (k : Fin T → Fin Dk → ℝ)
    (v : Fin T → Fin Dv → ℝ) (start n : ℕ) (h : start + n ≤ T) :
    gdnApply α β k v (gdnState α β k v start (by omega)) start n =
      gdnState α β k v (start + n) h := by
  sorry

/-- After `c` whole chunks the chunked state is the recurrence's state at `c * C`.
Proof: sorry (not yet checked). -/
theorem chunkState_eq_gdnState {T Dk Dv : ℕ} (C : ℕ) (α β : Fin T → ℝ)
    (k : Fin T → Fin Dk → ℝ) (v : Fin T → Fin Dv → ℝ) (c : ℕ) (h : c * C ≤ T) :
    chunkState C α β k v c = gdnState α β k v (c * C) h := by
  sorry

/-- The chunked form equals the recurrence for every chunk size `C > 0`.
Proof: sorry (not yet checked). -/
theorem chunkDeltaRule_eq {T Dk Dv : ℕ} (C : ℕ) (hC : 0 < C) (α β : Fin T → ℝ)
    (q k : Fin T → Fin Dk → ℝ) (v : Fin T → Fin Dv → ℝ) :
    chunkDeltaRule C α β q k v = gatedDeltaRule α β q k v := by
  sorry

end Mirror.Ops
