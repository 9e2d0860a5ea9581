import Mirror.Ops.Scalar

/-!
# Op Specs: causal depthwise convolution

Spec: `spec/op-specs.txt`, section "Gated DeltaNet": `causalConvSilu` is a depthwise causal
convolution of width `K` followed by SiLU, with zero left padding.

Tap convention (PyTorch `conv1d` with `K - 1` zeros of left padding): the output at
position `t`, channel `c`, is `silu (∑ j < K, w c j * x (t + j - (K - 1)) c)`, where a
position before the start of the sequence reads `0`. The last tap `j = K - 1` multiplies the
current input.

Status: nothing in this file has been built or checked here (no Lean toolchain on the
machine it was written on).
-/

namespace Mirror.Ops

/-- The zero-left-padded input of a causal convolution: tap `j` of the width-`K` window ending
at `t` reads `x (t + j - (K - 1))`, or `0` before the sequence start. -/
noncomputable def causalTap {T Ch : ℕ} (K : ℕ) (x : Fin T → Fin Ch → ℝ) (t : Fin T) (j : ℕ)
    (c : Fin Ch) : ℝ :=
  if h : K - 1 ≤ t.val + j ∧ t.val + j - (K - 1) < T then
    x ⟨t.val + j - (K - 1), h.2⟩ c
  else 0

/-- Depthwise causal convolution of width `K` with weights `w c j`, zero left padding,
followed by SiLU. -/
noncomputable def causalConvSilu {T Ch K : ℕ} (w : Fin Ch → Fin K → ℝ)
    (x : Fin T → Fin Ch → ℝ) : Fin T → Fin Ch → ℝ :=
  fun t c => silu (∑ j : Fin K, w c j * causalTap K x t j.val c)

/-- The convolution is causal: the output at `t` depends only on inputs at positions `≤ t`.
Proof: sorry (not yet checked). -/
theorem causalConvSilu_causal {T Ch K : ℕ} (w : Fin Ch → Fin K → ℝ)
    (x x' : Fin T → Fin Ch → ℝ) (t : Fin T) (h : ∀ s : Fin T, s.val ≤ t.val → x s = x' s) :
    causalConvSilu w x t = causalConvSilu w x' t := by
  sorry

/-- A width-1 convolution is a per-channel scale followed by SiLU.
Proof: sorry (not yet checked). -/
theorem causalConvSilu_width_one {T Ch : ℕ} (w : Fin Ch → Fin 1 → ℝ)
    (x : Fin T → Fin Ch → ℝ) (t : Fin T) (c : Fin Ch) :
    causalConvSilu w x t c = silu (w c 0 * x t c) := by
  sorry

end Mirror.Ops
