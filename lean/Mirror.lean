import Mirror.Resolvent
import Mirror.PositionalHead
import Mirror.Ops
import Mirror.Ops.Scalar
import Mirror.Ops.Norm
import Mirror.Ops.Linear
import Mirror.Ops.Attention
import Mirror.Ops.Rope
import Mirror.Ops.DeltaNet
import Mirror.Ops.Conv
import Mirror.FractionalPower

/-!
# leanmirror: the mirrored statements

Root of the `Mirror` library; it imports every `Mirror.*` module:

* `Mirror.Resolvent` — the three-switch resolvent head (`spec/resolvent-operator.txt`);
* `Mirror.PositionalHead` — a position-only softmax head is a causal convolution
  (`spec/positional-head.txt`);
* `Mirror.Ops.*` — the Op Specs (`spec/op-specs.txt`);
* `Mirror.FractionalPower` — the resolvent fractional-power layer
  (`spec/fractional-power-layer.txt`).

Status: nothing here has been built or checked (no Lean toolchain on the machine it was
written on). Most proofs are `sorry`; each docstring says which.
-/
