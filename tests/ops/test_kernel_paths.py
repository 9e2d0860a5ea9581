"""The blocked attention path against the vectorized one it replaces for large heads.

``causal_gqa`` and ``sliding_gqa`` take ``_banded_attention`` (BLAS blocks over the visible
key range, scale folded into the queries, normaliser applied after the value product, no
max-shift when every logit is within +-300) once ``S * L >= BLOCKED_MIN_WORK``, and the
vectorized ``_grouped_attention`` below that. Both must give the same values: agreement is
held to ``1e-12`` in float64 (``1e-5`` in float32), rows that see no key are exactly 0 on
both, and NaN propagates on both.
"""

from __future__ import annotations

import numpy as np
import pytest

from mirror.bundled.impl import ops
from mirror.bundled.impl.ops import attention


def _problem(seed: int, s: int, length: int, hkv: int, g: int, d: int, batch=(), scale=1.0):
    rng = np.random.default_rng(seed)
    q = scale * rng.normal(size=batch + (s, hkv, g, d))
    k = scale * rng.normal(size=batch + (length, hkv, d))
    v = rng.normal(size=batch + (length, hkv, d))
    return q, k, v


def _vectorized(scale, q, k, v, pos, window=None):
    keys = np.arange(k.shape[-3])
    mask = keys <= pos[..., :, None]
    if window is not None:
        mask = mask & (keys + window > pos[..., :, None])
    return attention._grouped_attention(scale, q, k, v, mask)


def _blocked(scale, q, k, v, pos, window=None):
    lo = np.zeros_like(pos) if window is None else pos - window + 1
    return attention._banded_attention(scale, q, k, v, lo, pos)


POSITIONS = {
    "causal": lambda s, length, rng: np.arange(s),
    "offset": lambda s, length, rng: np.arange(s) + (length - s),
    "sorted": lambda s, length, rng: np.sort(rng.integers(0, length, s)),
    "shuffled": lambda s, length, rng: rng.integers(0, length + 5, s),
}


@pytest.mark.parametrize("positions", sorted(POSITIONS))
@pytest.mark.parametrize("window", [None, 0, 1, 7, 200])
def test_blocked_and_vectorized_attention_agree(positions, window):
    rng = np.random.default_rng(len(positions) + (window or 0))
    s, length = 90, 130
    q, k, v = _problem(3, s, length, 2, 3, 8)
    pos = POSITIONS[positions](s, length, rng)
    want = _vectorized(0.4, q, k, v, pos, window)
    got = _blocked(0.4, q, k, v, pos, window)
    assert got.shape == want.shape == (s, 2, 3, 8)
    assert np.abs(got - want).max() <= 1e-12
    blind = ~((np.arange(length) <= pos[:, None]).any(axis=1))
    if window == 0:  # a window of 0 sees nothing: exactly 0 on both paths
        assert np.all(got == 0) and np.all(want == 0)
    assert np.all(got[blind] == 0)


def test_large_logits_take_the_shifted_branch_and_stay_finite():
    q, k, v = _problem(4, 70, 70, 1, 2, 4, scale=30.0)  # logits far beyond +-300
    pos = np.arange(70)
    got = _blocked(1.0, q, k, v, pos)
    assert np.all(np.isfinite(got))
    assert np.abs(got - _vectorized(1.0, q, k, v, pos)).max() <= 1e-12


def test_broadcast_batch_axes_and_float32():
    q, k, v = _problem(5, 64, 64, 2, 2, 8, batch=(3,))
    pos = np.stack([np.arange(64), np.arange(64) // 2, np.full(64, 63)])
    got = _blocked(0.3, q, k[:1], v[:1], pos)  # k, v broadcast over the batch
    want = _vectorized(0.3, q, k[:1], v[:1], pos)
    assert got.shape == (3, 64, 2, 2, 8)
    assert np.abs(got - want).max() <= 1e-12
    single = _blocked(0.3, q.astype(np.float32), k.astype(np.float32), v.astype(np.float32),
                      np.arange(64))
    assert single.dtype == np.float32
    assert np.abs(single - _vectorized(0.3, q, k, v, np.arange(64))).max() <= 1e-5


def test_nan_propagates_on_both_paths():
    q, k, v = _problem(6, 64, 64, 1, 2, 4)
    q[10, 0, 1, 2] = np.nan
    pos = np.arange(64)
    got, want = _blocked(0.5, q, k, v, pos), _vectorized(0.5, q, k, v, pos)
    assert np.array_equal(np.isnan(got), np.isnan(want)) and np.isnan(got[10, 0, 1]).all()


def test_public_kernels_switch_paths_by_size_with_the_same_values():
    assert 90 * 130 >= attention.BLOCKED_MIN_WORK > 8 * 8
    q, k, v = _problem(7, 90, 130, 2, 3, 8)
    pos = np.arange(90) + 40
    assert np.abs(ops.causal_gqa(0.4, pos, q, k, v)
                  - _vectorized(0.4, q, k, v, pos)).max() <= 1e-12
    assert np.abs(ops.sliding_gqa(0.4, 9, pos, q, k, v)
                  - _vectorized(0.4, q, k, v, pos, 9)).max() <= 1e-12
    small = _problem(8, 8, 8, 1, 2, 4)
    assert np.abs(ops.causal_gqa(0.4, np.arange(8), *small)
                  - _blocked(0.4, *small, np.arange(8))).max() <= 1e-12


def test_the_blocked_path_matches_torch_sdpa():
    import torch
    s, hkv, g, d = 200, 2, 4, 16
    q, k, v = _problem(9, s, s, hkv, g, d)
    tq = torch.from_numpy(np.ascontiguousarray(q.reshape(s, hkv * g, d).transpose(1, 0, 2)))
    tk = torch.from_numpy(np.ascontiguousarray(k.transpose(1, 0, 2)))
    tv = torch.from_numpy(np.ascontiguousarray(v.transpose(1, 0, 2)))
    ref = torch.nn.functional.scaled_dot_product_attention(
        tq[None], tk[None], tv[None], is_causal=True, scale=d ** -0.5, enable_gqa=True)
    want = ref[0].permute(1, 0, 2).reshape(s, hkv, g, d).numpy()
    assert np.abs(ops.causal_gqa(d ** -0.5, np.arange(s), q, k, v) - want).max() <= 1e-12
