import Mirror.Ops.Scalar

/-!
# Op Specs: attention

Spec: `spec/op-specs.txt`, section "Attention". `softmax` and `causalGQA` are the spec's
definitions, verbatim.

| Op Spec | What it is |
|---|---|
| `causalGQA` | causal grouped-query attention: KV head `c` serves `G` query heads |
| `slidingGQA` | the same, where the query at position `p` sees keys `l` with `p − w < l ≤ p` |
| `decodeGQA` | one query at the last of `L` cached positions; query head `c·G + g` reads `c` |
| `sigmoidGate` | output gate of gated attention: `o ⊙ σ(gate)` |

In `decodeGQA` the query head `c·G + g` is the index pair `(c, g)`.
`slidingGQA` writes the window condition `p − w < l` as `p < l + w`, which is the same over
the integers and avoids truncated natural subtraction (with `ℕ` subtraction, `p - w < l`
would wrongly hide key `0` whenever `w > p`).

Status: nothing in this file has been built or checked here (no Lean toolchain on the
machine it was written on).
-/

namespace Mirror.Ops

/-- Softmax of the scores `s` over the visible positions; invisible positions get `0`. -/
noncomputable def softmax {L : ℕ} (s : Fin L → ℝ) (visible : Fin L → Prop)
    [DecidablePred visible] : Fin L → ℝ :=
  fun l => if visible l then
    Real.exp (s l) / ∑ m ∈ Finset.univ.filter visible, Real.exp (s m) else 0

/-- Causal grouped-query attention: KV head `c` serves `G` query heads; the query at position
`pos s` sees the keys `l ≤ pos s`. -/
noncomputable def causalGQA {S L Hkv G D : ℕ} (scale : ℝ) (pos : Fin S → ℕ)
    (q : Fin S → Fin Hkv → Fin G → Fin D → ℝ)
    (k v : Fin L → Fin Hkv → Fin D → ℝ) : Fin S → Fin Hkv → Fin G → Fin D → ℝ :=
  fun s c g d =>
    let logit : Fin L → ℝ := fun l => scale * ∑ e, q s c g e * k l c e
    ∑ l, softmax logit (fun l => l.val ≤ pos s) l * v l c d

/-- Sliding-window grouped-query attention: the query at position `p = pos s` sees the keys
`l` with `p − w < l ≤ p` (written `p < l + w ∧ l ≤ p`). -/
noncomputable def slidingGQA {S L Hkv G D : ℕ} (scale : ℝ) (w : ℕ) (pos : Fin S → ℕ)
    (q : Fin S → Fin Hkv → Fin G → Fin D → ℝ)
    (k v : Fin L → Fin Hkv → Fin D → ℝ) : Fin S → Fin Hkv → Fin G → Fin D → ℝ :=
  fun s c g d =>
    let logit : Fin L → ℝ := fun l => scale * ∑ e, q s c g e * k l c e
    ∑ l, softmax logit (fun l => pos s < l.val + w ∧ l.val ≤ pos s) l * v l c d

/-- Decode attention: one query (per KV head `c` and group member `g`) at the last position
of `L` cached tokens, which sees every cached key. -/
noncomputable def decodeGQA {L Hkv G D : ℕ} (scale : ℝ) (q : Fin Hkv → Fin G → Fin D → ℝ)
    (k v : Fin L → Fin Hkv → Fin D → ℝ) : Fin Hkv → Fin G → Fin D → ℝ :=
  fun c g d =>
    let logit : Fin L → ℝ := fun l => scale * ∑ e, q c g e * k l c e
    ∑ l, softmax logit (fun _ => True) l * v l c d

/-- Output gate of gated attention: `o ⊙ σ(gate)`. -/
noncomputable def sigmoidGate {T H : ℕ} (o gate : Fin T → Fin H → ℝ) : Fin T → Fin H → ℝ :=
  fun t h => o t h * sigmoid (gate t h)

/-- Softmax weights are nonnegative.
Proof: given (case split on visibility; `div_nonneg` of exponentials), unchecked. -/
theorem softmax_nonneg {L : ℕ} (s : Fin L → ℝ) (visible : Fin L → Prop)
    [DecidablePred visible] (l : Fin L) : 0 ≤ softmax s visible l := by
  simp only [softmax]
  split_ifs
  · exact div_nonneg (Real.exp_pos _).le (Finset.sum_nonneg fun m _ => (Real.exp_pos _).le)
  · exact le_rfl

/-- Softmax weights sum to `1` over the visible set, when some position is visible.
Proof: sorry (not yet checked). -/
theorem softmax_sum_one {L : ℕ} (s : Fin L → ℝ) (visible : Fin L → Prop)
    [DecidablePred visible] (h : ∃ l, visible l) :
    ∑ l ∈ Finset.univ.filter visible, softmax s visible l = 1 := by
  sorry

/-- Invisible positions carry no softmax weight, so the sum over all positions is the sum
over the visible set. Proof: sorry (not yet checked). -/
theorem softmax_sum_univ {L : ℕ} (s : Fin L → ℝ) (visible : Fin L → Prop)
    [DecidablePred visible] :
    ∑ l, softmax s visible l = ∑ l ∈ Finset.univ.filter visible, softmax s visible l := by
  sorry

/-- A sliding window at least as long as the cache is causal attention: if every position is
below `L` and `L ≤ w`, then `slidingGQA` with window `w` equals `causalGQA`.
Proof: sorry (not yet checked). -/
theorem slidingGQA_eq_causalGQA_of_window_ge {S L Hkv G D : ℕ} (scale : ℝ) (w : ℕ)
    (pos : Fin S → ℕ) (q : Fin S → Fin Hkv → Fin G → Fin D → ℝ)
    (k v : Fin L → Fin Hkv → Fin D → ℝ) (hpos : ∀ s, pos s < L) (hw : L ≤ w) :
    slidingGQA scale w pos q k v = causalGQA scale pos q k v := by
  sorry

/-- Decode attention is causal attention at the last position: for a single query placed at
position `L - 1`, `decodeGQA` equals `causalGQA`. Proof: sorry (not yet checked). -/
theorem decodeGQA_eq_causalGQA_last {L Hkv G D : ℕ} (scale : ℝ)
    (q : Fin Hkv → Fin G → Fin D → ℝ) (k v : Fin L → Fin Hkv → Fin D → ℝ) :
    decodeGQA scale q k v =
      causalGQA (S := 1) scale (fun _ => L - 1) (fun _ => q) k v 0 := by
  sorry

end Mirror.Ops
