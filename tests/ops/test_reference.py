"""Op Spec kernels against the references people run: torch, transformers, fla (CPU only).

References that compute in float32 inside are compared with float32 tolerances; torch
functionals evaluated in float64 are compared with float64 ones.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
# torch, transformers, einops and fla are test dependencies (the `test` extra, installed by
# `make test`): a missing one is an error, never a silently skipped conformance check
import torch

from mirror.bundled.impl import ops

pytestmark = pytest.mark.reference

F = torch.nn.functional

_RNG = np.random.default_rng(7)


def _t(a: np.ndarray, dtype=None) -> "torch.Tensor":
    return torch.from_numpy(np.ascontiguousarray(a)).to(dtype or torch.float64)


def _close(got: np.ndarray, want, rtol: float, atol: float) -> None:
    want = want.detach().double().numpy() if hasattr(want, "detach") else np.asarray(want)
    err = np.abs(got - want)
    assert np.all(err <= atol + rtol * np.abs(want)), f"max error {err.max():.3e}"


# --- torch functionals ----------------------------------------------------------------------

def test_scalars_against_torch() -> None:
    x = np.concatenate([np.linspace(-40, 40, 801), _RNG.normal(size=200) * 5])
    tx = _t(x)
    _close(ops.silu(x), F.silu(tx), 1e-13, 1e-14)
    _close(ops.sigmoid(x), torch.sigmoid(tx), 1e-13, 1e-14)
    # torch's softplus switches to the identity above its threshold (20): compare the exact
    # formula below it, and our stable form must match torch within float64 rounding there.
    small = x[x < 20]
    _close(ops.softplus(small), F.softplus(_t(small)), 1e-13, 1e-14)
    _close(ops.softplus(x[x >= 20]), F.softplus(_t(x[x >= 20])), 1e-8, 0)
    _close(ops.gelu_tanh(x), F.gelu(tx, approximate="tanh"), 1e-13, 1e-14)
    # float32 path against torch's float32.
    x32 = x.astype(np.float32)
    _close(ops.silu(x32, dtype=np.float32), F.silu(torch.from_numpy(x32)), 1e-5, 1e-6)
    _close(ops.gelu_tanh(x32, dtype=np.float32),
           F.gelu(torch.from_numpy(x32), approximate="tanh"), 1e-5, 1e-6)


@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-12), (np.float32, 1e-5)])
def test_causal_gqa_against_sdpa(dtype, tol: float) -> None:
    s, hkv, g, d = 24, 2, 3, 16
    q = _RNG.normal(size=(s, hkv, g, d))
    k = _RNG.normal(size=(s, hkv, d))
    v = _RNG.normal(size=(s, hkv, d))
    scale = d ** -0.5
    ours = ops.causal_gqa(scale, np.arange(s), q, k, v, dtype=dtype)
    tdt = torch.float64 if dtype == np.float64 else torch.float32
    tq = _t(q.reshape(s, hkv * g, d).transpose(1, 0, 2)[None], tdt)  # [1, H, S, D], head c·G+g
    tk = _t(k.transpose(1, 0, 2)[None], tdt)
    tv = _t(v.transpose(1, 0, 2)[None], tdt)
    ref = F.scaled_dot_product_attention(tq, tk, tv, is_causal=True, scale=scale, enable_gqa=True)
    ref = ref[0].permute(1, 0, 2).reshape(s, hkv, g, d)
    _close(ours, ref, tol, tol)
    # The same through repeat_interleave of the KV heads.
    rep = F.scaled_dot_product_attention(tq, tk.repeat_interleave(g, dim=1),
                                         tv.repeat_interleave(g, dim=1), is_causal=True,
                                         scale=scale)
    _close(ours, rep[0].permute(1, 0, 2).reshape(s, hkv, g, d), tol, tol)


def test_sliding_and_decode_against_sdpa_masks() -> None:
    s, hkv, g, d, w = 20, 2, 2, 8, 5
    q = _RNG.normal(size=(s, hkv, g, d))
    k = _RNG.normal(size=(s, hkv, d))
    v = _RNG.normal(size=(s, hkv, d))
    i = torch.arange(s)
    mask = (i[None, :] <= i[:, None]) & (i[None, :] > i[:, None] - w)  # [S, L] boolean, True = attend
    tq = _t(q.reshape(s, hkv * g, d).transpose(1, 0, 2)[None])
    tk = _t(k.transpose(1, 0, 2)[None])
    tv = _t(v.transpose(1, 0, 2)[None])
    ref = F.scaled_dot_product_attention(tq, tk, tv, attn_mask=mask, scale=0.3, enable_gqa=True)
    ref = ref[0].permute(1, 0, 2).reshape(s, hkv, g, d)
    _close(ops.sliding_gqa(0.3, w, np.arange(s), q, k, v), ref, 1e-12, 1e-12)
    dec = ops.sliding_decode_gqa(0.3, w, q[-1].reshape(hkv * g, d), k, v)
    _close(dec, ref[-1].reshape(hkv * g, d), 1e-12, 1e-12)
    full = F.scaled_dot_product_attention(tq[:, :, -1:], tk, tv, scale=0.3, enable_gqa=True)
    _close(ops.decode_gqa(0.3, q[-1].reshape(hkv * g, d), k, v), full[0, :, 0], 1e-12, 1e-12)


def test_causal_conv_silu_against_conv1d() -> None:
    t, c, width = 13, 5, 4
    x = _RNG.normal(size=(t, c))
    w = _RNG.normal(size=(c, width))
    b = _RNG.normal(size=c)
    ref = F.conv1d(_t(x.T[None]), _t(w[:, None, :]), _t(b), padding=width - 1, groups=c)[..., :t]
    _close(ops.causal_conv_silu(x, w, b), F.silu(ref)[0].T, 1e-12, 1e-12)


# --- transformers ---------------------------------------------------------------------------------

def _transformers_module(name: str):
    return importlib.import_module(name)


def _norm(module: str, cls: str, w: np.ndarray):
    """The norm layer ``cls`` of transformers' ``module`` (``eps = 1e-6``) with weight ``w``."""
    norm = getattr(_transformers_module(module), cls)(w.size, eps=1e-6)
    with torch.no_grad():
        norm.weight.copy_(torch.from_numpy(w))
    return norm


def _float32_output(layer, *inputs: np.ndarray):
    """``layer`` applied to ``inputs`` cast to float32 (as transformers' norms compute)."""
    with torch.no_grad():
        return layer(*(_t(x, torch.float32) for x in inputs))


def test_qwen3_rmsnorm() -> None:
    w = _RNG.normal(size=32)
    x = _RNG.normal(size=(4, 3, 32)) * 3
    ref = _float32_output(_norm("transformers.models.qwen3.modeling_qwen3", "Qwen3RMSNorm", w), x)
    _close(ops.rmsnorm(1e-6, x, w), ref, 1e-5, 1e-6)
    _close(ops.rmsnorm(1e-6, x, w, dtype=np.float32), ref, 1e-5, 1e-6)


def test_gemma3_rmsnorm_offset() -> None:
    w = _RNG.normal(size=24) * 0.5
    x = _RNG.normal(size=(5, 24))
    ref = _float32_output(_norm("transformers.models.gemma3.modeling_gemma3", "Gemma3RMSNorm", w), x)
    _close(ops.rmsnorm_offset(1e-6, x, w), ref, 1e-5, 1e-6)


def test_qwen3_next_gated_rmsnorm() -> None:
    w = _RNG.normal(size=16)
    x = _RNG.normal(size=(6, 16))
    z = _RNG.normal(size=(6, 16))
    norm = _norm("transformers.models.qwen3_next.modeling_qwen3_next", "Qwen3NextRMSNormGated", w)
    _close(ops.rmsnorm_gated(1e-6, x, w, z), _float32_output(norm, x, z), 1e-5, 1e-6)


@pytest.mark.parametrize("partial", [1.0, 0.5])
def test_rotary_helpers(partial: float) -> None:
    mod = _transformers_module("transformers.models.qwen3_next.modeling_qwen3_next")
    cfg_mod = _transformers_module("transformers.models.qwen3_next.configuration_qwen3_next")
    head_dim, theta = 16, 10000.0
    config = cfg_mod.Qwen3NextConfig(
        hidden_size=32, num_attention_heads=2, num_key_value_heads=1, head_dim=head_dim,
        rope_parameters={"rope_type": "default", "rope_theta": theta,
                         "partial_rotary_factor": partial})
    rotary = mod.Qwen3NextRotaryEmbedding(config)
    rot = int(head_dim * partial)
    ours_freq = ops.inv_freq(theta, rot, rot // 2, np.arange(rot // 2))
    _close(ours_freq, rotary.inv_freq, 1e-6, 0)
    s = 9
    q = _RNG.normal(size=(1, 2, s, head_dim))  # [B, H, S, D]
    k = _RNG.normal(size=(1, 1, s, head_dim))
    pos = torch.arange(s)[None]
    cos, sin = rotary(_t(q, torch.float32), pos)
    q_ref, k_ref = mod.apply_rotary_pos_emb(_t(q, torch.float32), _t(k, torch.float32), cos, sin)
    pos_np = np.arange(s)
    q_ours = ops.rope(q, pos_np, theta, rot, rot, rot // 2, axis=-2)
    k_ours = ops.rope(k, pos_np, theta, rot, rot, rot // 2, axis=-2)
    _close(q_ours, q_ref, 1e-5, 1e-5)
    _close(k_ours, k_ref, 1e-5, 1e-5)


def test_qwen3_rotary_embedding_inv_freq() -> None:
    mod = _transformers_module("transformers.models.qwen3.modeling_qwen3")
    cfg = _transformers_module("transformers.models.qwen3.configuration_qwen3").Qwen3Config(
        hidden_size=64, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
        rope_parameters={"rope_type": "default", "rope_theta": 1e6})
    rotary = mod.Qwen3RotaryEmbedding(cfg)
    _close(ops.inv_freq(1e6, 16, 8, np.arange(8)), rotary.inv_freq, 1e-6, 0)


def _gdn_problem(b: int, t: int, h: int, dk: int, dv: int):
    q = _RNG.normal(size=(b, t, h, dk))
    k = _RNG.normal(size=(b, t, h, dk))
    v = _RNG.normal(size=(b, t, h, dv))
    g = -_RNG.uniform(0.01, 1.0, size=(b, t, h))  # log-decay
    beta = _RNG.uniform(0.0, 1.0, size=(b, t, h))
    s0 = _RNG.normal(size=(b, h, dk, dv)) * 0.3  # [B, H, Dk, Dv] as references store it
    return q, k, v, g, beta, s0


def _ours_from_reference_layout(q, k, v, g, beta, s0, scale, l2, chunk=None):
    """Map reference layout/parameters to ours: alpha = exp(g), q scaled, state transposed."""
    to_heads = lambda a: np.moveaxis(a, 1, -2) if a.ndim == 4 else np.moveaxis(a, 1, -1)
    qh, kh, vh = to_heads(q), to_heads(k), to_heads(v)  # [B, H, T, D]
    if l2:
        qh, kh = ops.l2norm(1e-6, qh), ops.l2norm(1e-6, kh)
    qh = qh * scale
    alpha, bh = np.exp(to_heads(g)), to_heads(beta)
    state = np.swapaxes(s0, -1, -2)
    if chunk is None:
        o, s = ops.gated_delta_rule(alpha, bh, qh, kh, vh, initial_state=state, return_state=True)
    else:
        o, s = ops.chunk_gated_delta_rule(alpha, bh, qh, kh, vh, chunk, initial_state=state,
                                          return_state=True)
    return np.moveaxis(o, -2, 1), np.swapaxes(s, -1, -2)


@pytest.mark.parametrize("which", ["recurrent", "chunk"])
def test_qwen3_next_gated_delta_reference(which: str) -> None:
    mod = _transformers_module("transformers.models.qwen3_next.modeling_qwen3_next")
    q, k, v, g, beta, s0 = _gdn_problem(2, 45, 2, 16, 8)
    args = dict(initial_state=_t(s0, torch.float32), output_final_state=True,
                use_qk_l2norm_in_kernel=True)
    tensors = [_t(a, torch.float32) for a in (q, k, v)]
    if which == "recurrent":
        o_ref, s_ref = mod.torch_recurrent_gated_delta_rule(
            *tensors, g=_t(g, torch.float32), beta=_t(beta, torch.float32), **args)
    else:
        o_ref, s_ref = mod.torch_chunk_gated_delta_rule(
            *tensors, g=_t(g, torch.float32), beta=_t(beta, torch.float32), chunk_size=16, **args)
    for chunk in (None, 16, 7):
        o, s = _ours_from_reference_layout(q, k, v, g, beta, s0, 16 ** -0.5, True, chunk)
        _close(o, o_ref, 1e-4, 2e-5)
        _close(s, s_ref, 1e-4, 2e-5)


def _fla_naive():
    import einops  # noqa: F401  (fla's naive.py imports it)

    spec = importlib.util.find_spec("fla")  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        pytest.fail("flash-linear-attention (fla) is not installed; `make test` installs it",
                    pytrace=False)
    path = Path(list(spec.submodule_search_locations)[0]) / "ops" / "gated_delta_rule" / "naive.py"
    if not path.is_file():
        pytest.fail(f"flash-linear-attention's naive gated-delta reference not found at {path}",
                    pytrace=False)
    loader_spec = importlib.util.spec_from_file_location("_fla_gated_delta_naive", path)
    module = importlib.util.module_from_spec(loader_spec)
    loader_spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("which", ["recurrent", "chunk"])
def test_fla_naive_gated_delta_reference(which: str) -> None:
    naive = _fla_naive()
    q, k, v, g, beta, s0 = _gdn_problem(1, 37, 3, 8, 12)
    k = np.asarray(ops.l2norm(1e-6, k))  # keep the delta rule contractive, as models do
    tq, tk, tv, tg, tb = (_t(a, torch.float32) for a in (q, k, v, g, beta))
    if which == "recurrent":
        o_ref, s_ref = naive.naive_recurrent_gated_delta_rule(
            tq, tk, tv, tb, tg, scale=0.5, initial_state=_t(s0, torch.float32),
            output_final_state=True)
    else:
        o_ref, s_ref = naive.naive_chunk_gated_delta_rule(
            tq, tk, tv, tg, tb, chunk_size=16, scale=0.5, initial_state=_t(s0, torch.float32),
            output_final_state=True)
    for chunk in (None, 16, 5):
        o, s = _ours_from_reference_layout(q, k, v, g, beta, s0, 0.5, False, chunk)
        _close(o, o_ref, 1e-4, 2e-5)
        _close(s, s_ref, 1e-4, 2e-5)
