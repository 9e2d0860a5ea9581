"""NumPy kernels for every Op Spec of the spec (``spec/op-specs.txt``), vectorized, float64
by default and float32 on request (``dtype=``), with leading batch axes where natural.

``OP_SPECS`` maps each Lean Op Spec name (``"rmsnormOffset"``) to its kernel.

Part of the bundled project (above the pipeline): may import every stage and the rest of
``mirror.bundled``; no generic module imports it.
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
from mirror.bundled.impl.ops.op_spec import LEAN_NAMESPACE, OpSpec
from mirror.bundled.impl.ops.rope import inv_freq, rope
from mirror.bundled.impl.ops.scalar import gelu_tanh, sigmoid, silu, softcap, softplus


def _entries() -> list[OpSpec]:
    """The Op Spec entries, in the spec's order."""
    return [
        OpSpec("sigmoid", sigmoid, "1 / (1 + exp(-x))", "sigmoid(x)"),
        OpSpec("silu", silu, "x · sigmoid x", "silu(x)"),
        OpSpec("softplus", softplus, "log(1 + exp x), stable form", "softplus(x)"),
        OpSpec("geluTanh", gelu_tanh, "tanh approximation of GELU (gelu_pytorch_tanh)",
               "gelu_tanh(x)"),
        OpSpec("softcap", softcap, "c · tanh(x / c)", "softcap(c, x)"),
        OpSpec("rmsnorm", rmsnorm, "x / √(mean(x²) + ε) · w", "rmsnorm(eps, x, w)"),
        OpSpec("rmsnormOffset", rmsnorm_offset, "x / √(mean(x²) + ε) · (1 + w)",
               "rmsnorm_offset(eps, x, w)"),
        OpSpec("rmsnormUnit", rmsnorm_unit, "x / √(mean(x²) + ε), no weight",
               "rmsnorm_unit(eps, x)"),
        OpSpec("rmsnormGated", rmsnorm_gated, "w ⊙ x / √(mean(x²) + ε) ⊙ silu(z)",
               "rmsnorm_gated(eps, x, w, z)"),
        OpSpec("l2norm", l2norm, "x / √(Σ x² + ε)", "l2norm(eps, x)"),
        OpSpec("linear", linear, "y[t, n] = Σₖ x[t, k] · W[n, k] (W stored [N, K])",
               "linear(x, W)"),
        OpSpec("gateUp", gate_up, "[x W_gateᵀ ‖ x W_upᵀ], gate first",
               "gate_up(x, W_gate, W_up)"),
        OpSpec("siluMul", silu_mul, "silu(gu[t, i]) · gu[t, I + i] (SwiGLU)", "silu_mul(gu)"),
        OpSpec("geluMul", gelu_mul, "geluTanh(gu[t, i]) · gu[t, I + i] (GeGLU)", "gelu_mul(gu)"),
        OpSpec("residual", residual, "x + r · h", "residual(x, h, r=1)"),
        OpSpec("embed", embed, "c · E[tokens[t]]", "embed(tokens, E, c=1)"),
        OpSpec("lmHead", lm_head, "mul · x Wᵀ, then optionally softcap c",
               "lm_head(x, W, mul=1, cap=None)"),
        OpSpec("softmax", softmax, "softmax over the visible set, 0 elsewhere",
               "softmax(s, visible)"),
        OpSpec("causalGQA", causal_gqa, "causal grouped-query attention, key l visible iff l ≤ pos s",
               "causal_gqa(scale, pos, q[S,Hkv,G,D], k[L,Hkv,D], v[L,Hkv,D])"),
        OpSpec("slidingGQA", sliding_gqa, "GQA where position p sees keys p − w < l ≤ p",
               "sliding_gqa(scale, window, pos, q, k, v)"),
        OpSpec("decodeGQA", decode_gqa,
               "one query at the last of L cached positions; head c·G + g reads KV head c",
               "decode_gqa(scale, q[H,D], k[L,Hkv,D], v[L,Hkv,D])"),
        OpSpec("slidingDecodeGQA", sliding_decode_gqa,
               "decode attention over the last w cached positions (no Lean definition in "
               "spec 1.0: UNKNOWN)",
               "sliding_decode_gqa(scale, window, q[H,D], k, v)", lean_defined=False),
        OpSpec("sigmoidGate", sigmoid_gate, "o ⊙ σ(gate)", "sigmoid_gate(o, gate)"),
        OpSpec("invFreq", inv_freq, "theta^(-(2 i / denom)) if i < active else 0",
               "inv_freq(theta, denom, active, i)"),
        OpSpec("rope", rope, "rotate pairs (i, i + rot/2), i < rot/2, by pos · invFreq i",
               "rope(x, pos, theta, rot, denom, active)"),
        OpSpec("gdnState", gdn_state, "gated delta rule state S_t (Dv × Dk)",
               "gdn_state(alpha, beta, k, v, t)"),
        OpSpec("gatedDeltaRule", gated_delta_rule, "o_t = S_t q_t by the recurrence",
               "gated_delta_rule(alpha, beta, q, k, v)"),
        OpSpec("gdnStep", gdn_step, "decode step α S (I − β k kᵀ) + β v kᵀ",
               "gdn_step(state, alpha, beta, k, v)"),
        OpSpec("chunkDeltaRule", chunk_gated_delta_rule,
               "gated delta rule in the chunk-parallel (WY) form, any chunk size",
               "chunk_gated_delta_rule(alpha, beta, q, k, v, chunk_size)"),
        OpSpec("causalConvSilu", causal_conv_silu,
               "depthwise causal convolution of width K, zero left padding, then SiLU",
               "causal_conv_silu(x[T,C], w[C,K])"),
    ]


#: Lean Op Spec name → :class:`OpSpec`.
OP_SPECS: dict[str, OpSpec] = {spec.name: spec for spec in _entries()}


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
