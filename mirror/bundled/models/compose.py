"""A NumPy forward pass composed from Op Spec kernels per a :class:`ModelSpec`.

:func:`forward` reads a transformers-style state dict (names as in
``Qwen3ForCausalLM.state_dict()``, values as NumPy arrays) and the model's configuration as
a plain mapping (``config.to_dict()``), and returns logits ``[T, V]`` for one sequence of
token ids. Each step calls the kernel of the Op Spec the spec's node names (so a spec that
says ``rmsnorm`` where the model uses ``rmsnormOffset`` gives different logits); the wiring
of the nodes is per family: ``qwen3``, ``granite``, ``gemma3``, ``qwen3_next``.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from bridge.errors import InvalidArgument
from mirror.bundled.impl.ops import OP_SPECS
from mirror.bundled.models.spec import ModelSpec

#: Families :func:`forward` can run.
COMPOSED_FAMILIES = ("qwen3", "granite", "gemma3", "qwen3_next")


class _Graph:
    """Looks up node kernels and weights for one forward pass."""

    def __init__(self, spec: ModelSpec, config: Mapping[str, Any], weights: Mapping[str, Any]):
        self.spec = spec
        self.config = config
        self.weights = weights

    def op(self, node: str) -> Callable:
        """The kernel of the Op Spec that ``node`` uses."""
        return OP_SPECS[self.spec.node(node).op].kernel

    def has(self, node: str) -> bool:
        return self.spec.has_node(node)

    def w(self, name: str) -> np.ndarray:
        if name not in self.weights:
            raise InvalidArgument(
                f"argument 'weights' has no tensor {name!r}; expected the state dict of a "
                f"{self.spec.family} model"
            )
        return np.asarray(self.weights[name], dtype=np.float64)

    def c(self, name: str, default: Any = None) -> Any:
        value = self.config.get(name, default)
        if value is None and default is None:
            raise InvalidArgument(
                f"argument 'config' has no {name!r}; expected a {self.spec.family} configuration"
            )
        return value


def _rope_theta(cfg: Mapping[str, Any], layer_type: str | None = None) -> float:
    """``rope_theta`` from transformers' ``rope_parameters`` (flat or per layer type)."""
    params = cfg.get("rope_parameters") or {}
    if layer_type is not None and layer_type in params:
        params = params[layer_type]
    if params.get("rope_type", "default") != "default":
        raise InvalidArgument(
            f"argument 'config' has rope_type {params.get('rope_type')!r}; expected 'default' "
            f"(scaled RoPE variants are not an Op Spec)"
        )
    theta = params.get("rope_theta", cfg.get("rope_theta"))
    if theta is None:
        raise InvalidArgument("argument 'config' has no rope_theta; expected one")
    return float(theta)


def _attention(g: _Graph, prefix: str, x: np.ndarray, pos: np.ndarray, *, scale: float,
               theta: float, rot: int, sliding: bool, gated: bool) -> np.ndarray:
    """Softmax attention block (projections, q/k norms, RoPE, GQA, gate, output)."""
    t = x.shape[0]
    heads, kv_heads = g.c("num_attention_heads"), g.c("num_key_value_heads")
    d = g.c("head_dim", 0) or g.c("hidden_size") // heads
    eps = g.c("rms_norm_eps")
    linear = g.op("attn.q")
    q = linear(x, g.w(prefix + "q_proj.weight"))
    gate = None
    if gated:
        q = q.reshape(t, heads, 2 * d)
        q, gate = q[..., :d], q[..., d:].reshape(t, heads * d)
    q = q.reshape(t, heads, d)
    k = g.op("attn.k")(x, g.w(prefix + "k_proj.weight")).reshape(t, kv_heads, d)
    v = g.op("attn.v")(x, g.w(prefix + "v_proj.weight")).reshape(t, kv_heads, d)
    if g.has("attn.q_norm"):
        q = g.op("attn.q_norm")(eps, q, g.w(prefix + "q_norm.weight"))
        k = g.op("attn.k_norm")(eps, k, g.w(prefix + "k_norm.weight"))
    rope_node = "attn.rope_sliding" if sliding and g.has("attn.rope_sliding") else "attn.rope"
    if g.has(rope_node):
        q = g.op(rope_node)(q, pos, theta, rot, rot, rot // 2, axis=0)
        k = g.op(rope_node)(k, pos, theta, rot, rot, rot // 2, axis=0)
    q = q.reshape(t, kv_heads, heads // kv_heads, d)  # query head c·G + g reads KV head c
    if sliding:
        o = g.op("attn.core_sliding")(scale, g.c("sliding_window"), pos, q, k, v)
    else:
        o = g.op("attn.core")(scale, pos, q, k, v)
    o = o.reshape(t, heads * d)
    if gate is not None:
        o = g.op("attn.gate")(o, gate)
    return g.op("attn.o")(o, g.w(prefix + "o_proj.weight"))


def _gated_deltanet(g: _Graph, prefix: str, x: np.ndarray) -> np.ndarray:
    """Gated DeltaNet block of the qwen3_next layout."""
    t = x.shape[0]
    hk, hv = g.c("linear_num_key_heads"), g.c("linear_num_value_heads")
    dk, dv = g.c("linear_key_head_dim"), g.c("linear_value_head_dim")
    r = hv // hk
    proj = g.op("linear_attn.in_proj")
    qkvz = proj(x, g.w(prefix + "in_proj_qkvz.weight")).reshape(t, hk, 2 * dk + 2 * r * dv)
    q, k = qkvz[..., :dk], qkvz[..., dk:2 * dk]
    v = qkvz[..., 2 * dk:2 * dk + r * dv].reshape(t, hv, dv)
    z = qkvz[..., 2 * dk + r * dv:].reshape(t, hv, dv)
    ba = proj(x, g.w(prefix + "in_proj_ba.weight")).reshape(t, hk, 2 * r)
    b, a = ba[..., :r].reshape(t, hv), ba[..., r:].reshape(t, hv)
    mixed = np.concatenate([q.reshape(t, -1), k.reshape(t, -1), v.reshape(t, -1)], axis=-1)
    conv_w = g.w(prefix + "conv1d.weight")
    mixed = g.op("linear_attn.conv")(mixed, conv_w.reshape(conv_w.shape[0], conv_w.shape[-1]))
    q = mixed[:, :hk * dk].reshape(t, hk, dk)
    k = mixed[:, hk * dk:2 * hk * dk].reshape(t, hk, dk)
    v = mixed[:, 2 * hk * dk:].reshape(t, hv, dv)
    beta = g.op("linear_attn.beta")(b)
    log_decay = -np.exp(g.w(prefix + "A_log")) * g.op("linear_attn.decay")(a + g.w(prefix + "dt_bias"))
    alpha = np.exp(log_decay)
    q = g.op("linear_attn.qk_norm")(1e-6, q) * dk ** -0.5
    k = g.op("linear_attn.qk_norm")(1e-6, k)
    q, k = np.repeat(q, r, axis=1), np.repeat(k, r, axis=1)  # key head j serves value heads j·r..
    heads_first = lambda arr: np.moveaxis(arr, 0, -2 if arr.ndim == 3 else -1)
    o = g.op("linear_attn.core")(heads_first(alpha), heads_first(beta), heads_first(q),
                                 heads_first(k), heads_first(v))
    o = np.moveaxis(o, -2, 0)  # [T, Hv, Dv]
    o = g.op("linear_attn.out_norm")(g.c("rms_norm_eps"), o, g.w(prefix + "norm.weight"), z)
    return g.op("linear_attn.out")(o.reshape(t, hv * dv), g.w(prefix + "out_proj.weight"))


def _mlp(g: _Graph, prefix: str, x: np.ndarray) -> np.ndarray:
    """Gated MLP: gate/up, activation (siluMul or geluMul), down."""
    gu = g.op("mlp.gate_up")(x, g.w(prefix + "gate_proj.weight"), g.w(prefix + "up_proj.weight"))
    return g.op("mlp.down")(g.op("mlp.act")(gu), g.w(prefix + "down_proj.weight"))


def forward(spec: ModelSpec, config: Mapping[str, Any], weights: Mapping[str, Any],
            tokens: Any) -> np.ndarray:
    """Logits ``[T, V]`` of one token sequence, in float64, composed per ``spec``."""
    if not isinstance(spec, ModelSpec):
        raise InvalidArgument(f"argument 'spec' is {type(spec).__name__}; expected a ModelSpec")
    if spec.family not in COMPOSED_FAMILIES:
        raise InvalidArgument(
            f"argument 'spec' has family {spec.family!r}; expected one of {COMPOSED_FAMILIES} "
            f"(models transformers does not carry cannot be run end to end)"
        )
    ids = np.asarray(tokens)
    if ids.ndim != 1 or ids.dtype.kind not in "iu":
        raise InvalidArgument(
            f"argument 'tokens' has shape {ids.shape} and dtype {ids.dtype}; expected a 1-D "
            f"integer array of token ids"
        )
    g = _Graph(spec, config, weights)
    fam = spec.family
    eps = g.c("rms_norm_eps")
    hidden = g.c("hidden_size")
    heads = g.c("num_attention_heads")
    d = g.c("head_dim", 0) or hidden // heads
    pos = np.arange(ids.shape[0])
    table = g.w("model.embed_tokens.weight")
    embed_scale = {"granite": g.c("embedding_multiplier", 1.0),
                   "gemma3": float(np.float32(hidden ** 0.5))}.get(fam, 1.0)
    h = g.op("embed")(ids, table, embed_scale)
    r = g.c("residual_multiplier", 1.0) if fam == "granite" else 1.0
    if fam == "granite":
        scale = g.c("attention_multiplier")
    elif fam == "gemma3":
        if config.get("attn_logit_softcapping") is not None:
            raise InvalidArgument("argument 'config' sets attn_logit_softcapping; expected None "
                                  "(attention logit softcapping is not an Op Spec)")
        scale = g.c("query_pre_attn_scalar") ** -0.5
    else:
        scale = d ** -0.5
    rot = d
    if fam == "qwen3_next":
        partial = (config.get("rope_parameters") or {}).get(
            "partial_rotary_factor", config.get("partial_rotary_factor", 1.0))
        rot = int(d * partial)
    layer_types = config.get("layer_types") or ["full_attention"] * g.c("num_hidden_layers")
    for i, kind in enumerate(layer_types[: g.c("num_hidden_layers")]):
        pre = f"model.layers.{i}."
        x = g.op("attn.norm")(eps, h, g.w(pre + "input_layernorm.weight"))
        if kind == "linear_attention":
            out = _gated_deltanet(g, pre + "linear_attn.", x)
        else:
            sliding = kind == "sliding_attention"
            theta = _rope_theta(config, kind if fam == "gemma3" else None)
            out = _attention(g, pre + "self_attn.", x, pos, scale=scale, theta=theta, rot=rot,
                             sliding=sliding, gated=fam == "qwen3_next")
        if g.has("attn.post_norm"):
            out = g.op("attn.post_norm")(eps, out, g.w(pre + "post_attention_layernorm.weight"))
            mlp_norm_name = pre + "pre_feedforward_layernorm.weight"
        else:
            mlp_norm_name = pre + "post_attention_layernorm.weight"
        h = g.op("attn.residual")(h, out, r)
        x = g.op("mlp.norm")(eps, h, g.w(mlp_norm_name))
        out = _mlp(g, pre + "mlp.", x)
        if g.has("mlp.post_norm"):
            out = g.op("mlp.post_norm")(eps, out, g.w(pre + "post_feedforward_layernorm.weight"))
        h = g.op("mlp.residual")(h, out, r)
    h = g.op("final_norm")(eps, h, g.w("model.norm.weight"))
    head = g.w("lm_head.weight") if "lm_head.weight" in weights else table
    mul = 1.0 / g.c("logits_scaling") if fam == "granite" else 1.0
    cap = config.get("final_logit_softcapping") if fam == "gemma3" else None
    return g.op("lm_head")(h, head, mul, cap)
