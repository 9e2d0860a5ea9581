"""Tiny random-weight transformers models vs the same weights through our kernels.

The transformers models run in float64 (``.double()``), but some of their pieces compute in
float32 inside (RMSNorm casts, RoPE tables, the gated-delta functions), so logits are
compared at float32 tolerance relative to the largest logit.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import transformers

from mirror.bundled.models.compose import forward
from mirror.bundled.models.spec import load_model_spec

_TOKENS = np.array([3, 17, 5, 0, 88, 41, 41, 7, 99, 12, 64, 2, 30, 5, 71, 9, 23, 50, 1, 77])


def _run(model, spec_key: str, tokens: np.ndarray = _TOKENS, perturb_norms: bool = True):
    torch.manual_seed(0)
    model = model.double().eval()
    if perturb_norms:  # norm weights start at 0 or 1: make them informative
        with torch.no_grad():
            for name, p in model.named_parameters():
                if "norm" in name or name.endswith("dt_bias"):
                    p.add_(0.3 * torch.randn_like(p))
    with torch.no_grad():
        ref = model(torch.from_numpy(tokens)[None]).logits[0].numpy()
    weights = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    ours = forward(load_model_spec(spec_key), model.config.to_dict(), weights, tokens)
    return ours, ref


def _relative_error(ours: np.ndarray, ref: np.ndarray) -> float:
    assert ours.shape == ref.shape
    return float(np.abs(ours - ref).max() / np.abs(ref).max())


def _qwen3():
    return transformers.Qwen3ForCausalLM(transformers.Qwen3Config(
        vocab_size=100, hidden_size=48, intermediate_size=96, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, head_dim=16, max_position_embeddings=64,
        tie_word_embeddings=False, attn_implementation="eager"))


def _granite():
    return transformers.GraniteForCausalLM(transformers.GraniteConfig(
        vocab_size=100, hidden_size=48, intermediate_size=96, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, embedding_multiplier=3.0,
        attention_multiplier=0.2, residual_multiplier=0.4, logits_scaling=2.5,
        attn_implementation="eager"))


def _gemma3():
    return transformers.Gemma3ForCausalLM(transformers.Gemma3TextConfig(
        vocab_size=100, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, head_dim=16, query_pre_attn_scalar=16,
        sliding_window=5, layer_types=["sliding_attention", "full_attention"],
        final_logit_softcapping=3.0, attn_implementation="eager",
        rope_parameters={"sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                         "full_attention": {"rope_type": "default", "rope_theta": 1000000.0}}))


def _qwen3_next_config(**extra):
    return transformers.Qwen3NextConfig(
        vocab_size=100, hidden_size=48, intermediate_size=96, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, head_dim=16,
        layer_types=["linear_attention", "full_attention"], mlp_only_layers=[0, 1],
        linear_num_key_heads=2, linear_num_value_heads=4, linear_key_head_dim=8,
        linear_value_head_dim=8, linear_conv_kernel_dim=4, attn_implementation="eager", **extra)


def _qwen3_next():
    return transformers.Qwen3NextForCausalLM(_qwen3_next_config())


@pytest.mark.parametrize(("spec_key", "seed", "build", "softcap"), [
    ("qwen3-0.6b", 1, _qwen3, None),
    ("granite", 2, _granite, None),
    ("gemma3", 3, _gemma3, 3.0),
    ("qwen3-next", 4, _qwen3_next, None),
])
def test_tiny_model_logits_match(spec_key: str, seed: int, build, softcap: float | None) -> None:
    torch.manual_seed(seed)
    ours, ref = _run(build(), spec_key)
    if softcap is not None:
        assert np.abs(ref).max() <= softcap  # the softcap is active
    assert _relative_error(ours, ref) <= 1e-5


def test_qwen3_spec_with_wrong_op_does_not_match() -> None:
    """The composition really follows the spec: rmsnormOffset in place of rmsnorm breaks it."""
    import dataclasses

    torch.manual_seed(1)
    cfg = transformers.Qwen3Config(
        vocab_size=100, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, head_dim=8, attn_implementation="eager")
    model = transformers.Qwen3ForCausalLM(cfg).double().eval()
    with torch.no_grad():
        ref = model(torch.from_numpy(_TOKENS)[None]).logits[0].numpy()
    spec = load_model_spec("qwen3-0.6b")
    wrong = dataclasses.replace(spec, nodes=tuple(
        dataclasses.replace(n, op="rmsnormOffset") if n.name == "attn.norm" else n
        for n in spec.nodes))
    weights = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    assert _relative_error(forward(spec, cfg.to_dict(), weights, _TOKENS), ref) <= 1e-5
    assert _relative_error(forward(wrong, cfg.to_dict(), weights, _TOKENS), ref) > 1e-2


@pytest.mark.parametrize("length", [70, 131])
def test_qwen3_next_hybrid_longer_than_a_chunk(length: int) -> None:
    """Sequences spanning several 64-token chunks exercise the chunked delta rule."""
    torch.manual_seed(5)
    tokens = np.random.default_rng(length).integers(0, 100, size=length)
    model = transformers.Qwen3NextForCausalLM(_qwen3_next_config())
    ours, ref = _run(model, "qwen3-next", tokens=tokens)
    assert _relative_error(ours, ref) <= 1e-5
