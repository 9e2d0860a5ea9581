"""NumPy kernels for every Op Spec of the spec (``spec/op-specs.txt``), vectorized, float64
by default and float32 on request (``dtype=``), with leading batch axes where natural.

``OP_SPECS`` maps each Lean Op Spec name (``"rmsnormOffset"``) to its kernel.
"""

from mirror.bundled.impl.ops.attention import (
    causal_gqa,
    decode_gqa,
    sigmoid_gate,
    sliding_decode_gqa,
    sliding_gqa,
    softmax,
)
from mirror.bundled.impl.ops.conv import causal_conv_silu
from mirror.bundled.impl.ops.deltanet import chunk_gated_delta_rule, gated_delta_rule, gdn_state, gdn_step
from mirror.bundled.impl.ops.linear import embed, gate_up, gelu_mul, linear, lm_head, residual, silu_mul
from mirror.bundled.impl.ops.norm import l2norm, rmsnorm, rmsnorm_gated, rmsnorm_offset, rmsnorm_unit
from mirror.bundled.impl.ops.registry import LEAN_NAMESPACE, OP_SPECS, OpSpec
from mirror.bundled.impl.ops.rope import inv_freq, rope
from mirror.bundled.impl.ops.scalar import gelu_tanh, sigmoid, silu, softcap, softplus

__all__ = [
    "LEAN_NAMESPACE",
    "OP_SPECS",
    "OpSpec",
    "causal_conv_silu",
    "causal_gqa",
    "chunk_gated_delta_rule",
    "decode_gqa",
    "embed",
    "gate_up",
    "gated_delta_rule",
    "gdn_state",
    "gdn_step",
    "gelu_mul",
    "gelu_tanh",
    "inv_freq",
    "l2norm",
    "linear",
    "lm_head",
    "residual",
    "rmsnorm",
    "rmsnorm_gated",
    "rmsnorm_offset",
    "rmsnorm_unit",
    "rope",
    "sigmoid",
    "sigmoid_gate",
    "silu",
    "silu_mul",
    "sliding_decode_gqa",
    "sliding_gqa",
    "softcap",
    "softmax",
    "softplus",
]
