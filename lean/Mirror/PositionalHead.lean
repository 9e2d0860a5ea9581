import Mathlib

/-!
# A position-only causal softmax head is a causal convolution

Spec: `spec/positional-head.txt`.

If a head's score for query `i` and key `j` depends only on `i - j` (score `a (i - j)`), its
causal softmax output at position `i` is

  `(∑ d ≤ i, exp (a d) * v (i - d)) / ∑ d ≤ i, exp (a d)`,

an exact causal convolution of the values with kernel `exp ∘ a`, divided by a prefix sum of
the kernel. One value channel is shown; channels are independent.

Lean semantics that matter for a numerical mirror: `i - j` is truncated natural subtraction
(it never truncates inside these sums, since `j ≤ i` there), division by `0` is `0`, and
`Finset.range (i + 1) = {0, …, i}`.

`posHead` is the dense (softmax) form, `convHead` the convolution form;
`pos_head_is_causal_convolution` is the spec's statement verbatim and `posHead_eq_convHead`
restates it through the two definitions.

Status: nothing in this file has been built or checked here (no Lean toolchain on the
machine it was written on).
-/

namespace Mirror.PositionalHead

/-- The dense position-only causal softmax head at position `i`: weights
`exp (a (i - j)) / ∑ j' ≤ i, exp (a (i - j'))` applied to the values `v j`, `j ≤ i`. -/
noncomputable def posHead (a v : ℕ → ℝ) (i : ℕ) : ℝ :=
  ∑ j ∈ Finset.range (i + 1),
    Real.exp (a (i - j)) / (∑ j' ∈ Finset.range (i + 1), Real.exp (a (i - j'))) * v j

/-- The convolution form at position `i`: the causal convolution of `v` with the kernel
`exp ∘ a`, divided by the prefix sum of the kernel. -/
noncomputable def convHead (a v : ℕ → ℝ) (i : ℕ) : ℝ :=
  (∑ d ∈ Finset.range (i + 1), Real.exp (a d) * v (i - d))
    / ∑ d ∈ Finset.range (i + 1), Real.exp (a d)

/-- A position-only causal softmax head equals a causal convolution divided by a prefix
normaliser (the spec's statement, verbatim). Proof: sorry (not yet checked; the source
reports a 27-line kernel-checked proof, not reproduced here). -/
theorem pos_head_is_causal_convolution (a v : ℕ → ℝ) (i : ℕ) :
    ∑ j ∈ Finset.range (i + 1),
        Real.exp (a (i - j)) / (∑ j' ∈ Finset.range (i + 1), Real.exp (a (i - j'))) * v j
      = (∑ d ∈ Finset.range (i + 1), Real.exp (a d) * v (i - d))
        / ∑ d ∈ Finset.range (i + 1), Real.exp (a d) := by
  sorry

/-- The dense head and the convolution form agree at every position.
Proof: given, as `pos_head_is_causal_convolution` through the definitions (so it inherits
that theorem's `sorry`). -/
theorem posHead_eq_convHead (a v : ℕ → ℝ) (i : ℕ) : posHead a v i = convHead a v i :=
  pos_head_is_causal_convolution a v i

end Mirror.PositionalHead
