import Mirror.Ops.Scalar
import Mirror.Ops.Norm
import Mirror.Ops.Linear
import Mirror.Ops.Attention
import Mirror.Ops.Rope
import Mirror.Ops.DeltaNet
import Mirror.Ops.Conv

/-!
# Op Specs

Every Op Spec of `spec/op-specs.txt`, over `ℝ`, in the namespace `Mirror.Ops` (the spec's
project calls it `TheFormalEra.Ops`). One file per section: scalar functions, normalisation,
linear maps and feed-forward, attention, rotary embeddings, Gated DeltaNet, causal
convolution.

Status: nothing here has been built or checked (no Lean toolchain on the machine it was
written on).
-/
