"""Op Spec kernels among themselves, in float64 (1e-10..1e-12), and their float32 paths against
references that share no code with the kernels (loops from the definition, torch)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from mirror.bundled.impl import ops

_RNG_SEED = 20240601


def _rng(extra: int = 0) -> np.random.Generator:
    return np.random.default_rng(_RNG_SEED + extra)


def _gdn_inputs(rng: np.random.Generator, batch: tuple[int, ...], t: int, dk: int, dv: int):
    alpha = rng.uniform(0.3, 1.0, batch + (t,))
    beta = rng.uniform(0.0, 1.0, batch + (t,))
    q = rng.normal(size=batch + (t, dk))
    k = ops.l2norm(1e-6, rng.normal(size=batch + (t, dk)))
    v = rng.normal(size=batch + (t, dv))
    return alpha, beta, q, k, v


# --- gated DeltaNet --------------------------------------------------------------------------

@pytest.mark.parametrize("chunk", [1, 2, 3, 16, 64])
def test_chunked_equals_recurrent(chunk: int) -> None:
    rng = _rng(chunk)
    t = 101  # not a multiple of any chunk size above except 1
    alpha, beta, q, k, v = _gdn_inputs(rng, (2, 3), t, 8, 6)
    s0 = rng.normal(size=(2, 3, 6, 8))
    o_rec, s_rec = ops.gated_delta_rule(alpha, beta, q, k, v, initial_state=s0, return_state=True)
    o_chk, s_chk = ops.chunk_gated_delta_rule(alpha, beta, q, k, v, chunk, initial_state=s0,
                                              return_state=True)
    scale = np.abs(o_rec).max()
    assert np.abs(o_chk - o_rec).max() <= 1e-10 * scale
    assert np.abs(s_chk - s_rec).max() <= 1e-10 * np.abs(s_rec).max()


def test_chunked_handles_zero_and_negative_decay() -> None:
    rng = _rng(1)
    alpha, beta, q, k, v = _gdn_inputs(rng, (), 23, 4, 3)
    alpha[5] = 0.0
    alpha[11] = -0.7
    o_rec = ops.gated_delta_rule(alpha, beta, q, k, v)
    o_chk = ops.chunk_gated_delta_rule(alpha, beta, q, k, v, 8)
    assert np.all(np.isfinite(o_chk))
    assert np.abs(o_chk - o_rec).max() <= 1e-10 * np.abs(o_rec).max()


def test_chunk_longer_than_sequence() -> None:
    rng = _rng(2)
    alpha, beta, q, k, v = _gdn_inputs(rng, (), 5, 4, 3)
    o_rec = ops.gated_delta_rule(alpha, beta, q, k, v)
    o_chk = ops.chunk_gated_delta_rule(alpha, beta, q, k, v, 64)
    assert o_chk.shape == (5, 3)
    assert np.abs(o_chk - o_rec).max() <= 1e-12 * np.abs(o_rec).max()


def test_gdn_step_iterated_is_the_recurrence() -> None:
    rng = _rng(3)
    alpha, beta, q, k, v = _gdn_inputs(rng, (4,), 17, 5, 7)
    state = np.zeros((4, 7, 5))
    outputs = []
    for t in range(17):
        state = ops.gdn_step(state, alpha[:, t], beta[:, t], k[:, t], v[:, t])
        outputs.append(np.einsum("bij,bj->bi", state, q[:, t]))
    o_rec, s_rec = ops.gated_delta_rule(alpha, beta, q, k, v, return_state=True)
    assert np.abs(np.stack(outputs, axis=1) - o_rec).max() <= 1e-12 * np.abs(o_rec).max()
    assert np.abs(state - s_rec).max() <= 1e-12 * np.abs(s_rec).max()
    assert np.allclose(ops.gdn_state(alpha, beta, k, v), s_rec, rtol=0, atol=1e-13)


def test_gdn_state_matches_the_definition() -> None:
    """The state against the literal matrix formula S_t = α S (I − β k kᵀ) + β v kᵀ."""
    rng = _rng(4)
    alpha, beta, q, k, v = _gdn_inputs(rng, (), 9, 3, 2)
    s = np.zeros((2, 3))
    for t in range(6):
        s = alpha[t] * s @ (np.eye(3) - beta[t] * np.outer(k[t], k[t])) + beta[t] * np.outer(v[t], k[t])
    assert np.allclose(ops.gdn_state(alpha, beta, k, v, 6), s, rtol=0, atol=1e-14)
    assert np.all(ops.gdn_state(alpha, beta, k, v, 0) == 0)
    o = ops.gated_delta_rule(alpha, beta, q, k, v)
    assert np.allclose(o[5], s @ q[5], rtol=0, atol=1e-14)


def _gdn_by_definition(alpha, beta, q, k, v) -> np.ndarray:
    """``o_t = S_t q_t`` with ``S_t = α_t S_{t-1} (I − β_t k_t k_tᵀ) + β_t v_t k_tᵀ``, ``S_0 = 0``,
    written out per batch row and step in float64 (shares no code with ``ops``)."""
    *batch, steps, dk = q.shape
    out = np.zeros(tuple(batch) + (steps, v.shape[-1]))
    for index in np.ndindex(*batch):
        s = np.zeros((v.shape[-1], dk))
        for t in range(steps):
            kt, at, bt = k[index][t], alpha[index][t], beta[index][t]
            s = at * s @ (np.eye(dk) - bt * np.outer(kt, kt)) + bt * np.outer(v[index][t], kt)
            out[index][t] = s @ q[index][t]
    return out


def test_gdn_float32_path() -> None:
    """Both float32 paths against the recurrence written out in float64 (not against the
    project's own float64 path, which could share a bug with them)."""
    rng = _rng(5)
    alpha, beta, q, k, v = _gdn_inputs(rng, (2,), 40, 8, 8)
    ref = _gdn_by_definition(alpha, beta, q, k, v)
    assert np.abs(ops.gated_delta_rule(alpha, beta, q, k, v) - ref).max() <= 1e-12 * np.abs(ref).max()
    o32 = ops.chunk_gated_delta_rule(alpha, beta, q, k, v, 16, dtype=np.float32)
    r32 = ops.gated_delta_rule(alpha, beta, q, k, v, dtype=np.float32)
    assert o32.dtype == np.float32 and r32.dtype == np.float32
    assert np.allclose(o32, ref, rtol=1e-4, atol=1e-5)
    assert np.allclose(r32, ref, rtol=1e-4, atol=1e-5)


# --- attention -------------------------------------------------------------------------------

def _qkv(rng: np.random.Generator, s: int, l: int, hkv: int, g: int, d: int):
    return (rng.normal(size=(s, hkv, g, d)), rng.normal(size=(l, hkv, d)),
            rng.normal(size=(l, hkv, d)))


def _attention_by_loops(scale, pos, q, k, v, visible):
    """The Lean definition written out with Python loops (small shapes only)."""
    s_len, hkv, g, d = q.shape
    out = np.zeros_like(q)
    for s in range(s_len):
        for c in range(hkv):
            for gi in range(g):
                logits = np.array([scale * q[s, c, gi] @ k[l, c] for l in range(k.shape[0])])
                mask = np.array([visible(l, pos[s]) for l in range(k.shape[0])])
                e = np.where(mask, np.exp(logits - logits[mask].max()), 0.0)
                out[s, c, gi] = (e / e.sum()) @ v[:, c]
    return out


def test_causal_gqa_matches_loops() -> None:
    rng = _rng(6)
    q, k, v = _qkv(rng, 5, 7, 2, 3, 4)
    pos = np.array([2, 3, 4, 5, 6])
    got = ops.causal_gqa(0.5, pos, q, k, v)
    want = _attention_by_loops(0.5, pos, q, k, v, lambda l, p: l <= p)
    assert np.abs(got - want).max() <= 1e-12


def test_sliding_gqa_matches_loops() -> None:
    rng = _rng(7)
    q, k, v = _qkv(rng, 6, 6, 1, 2, 3)
    pos = np.arange(6)
    got = ops.sliding_gqa(0.7, 3, pos, q, k, v)
    want = _attention_by_loops(0.7, pos, q, k, v, lambda l, p: p - 3 < l <= p)
    assert np.abs(got - want).max() <= 1e-12


@pytest.mark.parametrize("window", [9, 10, 50])
def test_sliding_window_at_least_length_is_causal(window: int) -> None:
    rng = _rng(8)
    q, k, v = _qkv(rng, 9, 9, 2, 2, 4)
    pos = np.arange(9)
    assert np.abs(ops.sliding_gqa(0.3, window, pos, q, k, v)
                  - ops.causal_gqa(0.3, pos, q, k, v)).max() <= 1e-12


def test_decode_is_last_row_of_causal() -> None:
    rng = _rng(9)
    hkv, g, d, length = 2, 3, 4, 11
    q, k, v = _qkv(rng, length, length, hkv, g, d)
    full = ops.causal_gqa(0.4, np.arange(length), q, k, v)
    flat_q = q[-1].reshape(hkv * g, d)  # head c·G + g
    got = ops.decode_gqa(0.4, flat_q, k, v)
    assert got.shape == (hkv * g, d)
    assert np.abs(got - full[-1].reshape(hkv * g, d)).max() <= 1e-12
    # and against the definition written out (decode and causal share their code path)
    want = _attention_by_loops(0.4, [length - 1], q[-1:], k, v, lambda l, p: l <= p)
    assert np.abs(got - want[0].reshape(hkv * g, d)).max() <= 1e-12


def test_sliding_decode_is_last_row_of_sliding() -> None:
    rng = _rng(10)
    hkv, g, d, length, w = 2, 2, 3, 10, 4
    q, k, v = _qkv(rng, length, length, hkv, g, d)
    full = ops.sliding_gqa(0.4, w, np.arange(length), q, k, v)
    got = ops.sliding_decode_gqa(0.4, w, q[-1].reshape(hkv * g, d), k, v)
    assert np.abs(got - full[-1].reshape(hkv * g, d)).max() <= 1e-12
    want = _attention_by_loops(0.4, [length - 1], q[-1:], k, v, lambda l, p: p - w < l <= p)
    assert np.abs(got - want[0].reshape(hkv * g, d)).max() <= 1e-12
    # A window of one sees only the newest token: the output is its value row.
    one = ops.sliding_decode_gqa(0.4, 1, q[-1].reshape(hkv * g, d), k, v)
    assert np.abs(one - np.repeat(v[-1], g, axis=0)).max() <= 1e-12


def test_attention_batch_axes() -> None:
    rng = _rng(11)
    q = rng.normal(size=(3, 4, 2, 2, 5))
    k = rng.normal(size=(3, 6, 2, 5))
    v = rng.normal(size=(3, 6, 2, 5))
    pos = np.array([2, 3, 4, 5])
    batched = ops.causal_gqa(0.3, pos, q, k, v)
    for b in range(3):
        assert np.abs(batched[b] - ops.causal_gqa(0.3, pos, q[b], k[b], v[b])).max() <= 1e-14


def test_attention_float32() -> None:
    rng = _rng(12)
    q, k, v = _qkv(rng, 8, 8, 2, 2, 16)
    pos = np.arange(8)
    ref = _attention_by_loops(0.25, pos, q, k, v, lambda l, p: l <= p)  # not the float64 path
    got = ops.causal_gqa(0.25, pos, q, k, v, dtype=np.float32)
    assert got.dtype == np.float32
    assert np.allclose(got, ref, rtol=1e-5, atol=1e-5)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-50, 50), min_size=1, max_size=12), st.data())
def test_softmax_sums_to_one_over_visible(logits, data) -> None:
    s = np.array(logits)
    visible = np.array(data.draw(st.lists(st.booleans(), min_size=len(logits), max_size=len(logits))))
    p = ops.softmax(s, visible)
    assert np.all(p[~visible] == 0)
    assert np.all(p >= 0)
    if visible.any():
        assert abs(p.sum() - 1.0) <= 1e-12
    else:
        assert np.all(p == 0)


def test_sigmoid_gate() -> None:
    o = np.array([1.0, -2.0, 3.0])
    gate = np.array([0.0, 100.0, -100.0])
    assert np.allclose(ops.sigmoid_gate(o, gate), [0.5, -2.0, 3.0 / (1 + np.exp(100.0))], rtol=1e-12)


# --- norms -----------------------------------------------------------------------------------

def test_rmsnorm_identities() -> None:
    rng = _rng(13)
    x = rng.normal(size=(4, 3, 16))
    w = rng.normal(size=16)
    unit = ops.rmsnorm_unit(1e-6, x)
    assert np.abs(ops.rmsnorm(1e-6, x, w) - unit * w).max() <= 1e-14
    assert np.abs(ops.rmsnorm_offset(1e-6, x, w) - ops.rmsnorm(1e-6, x, 1 + w)).max() <= 1e-14
    assert np.abs(ops.rmsnorm_offset(1e-6, x, np.zeros(16)) - unit).max() <= 1e-15
    # With eps = 0 the unit norm has mean square exactly one and is scale invariant.
    assert np.allclose(np.mean(ops.rmsnorm_unit(0.0, x) ** 2, axis=-1), 1.0, rtol=0, atol=1e-13)
    assert np.abs(ops.rmsnorm_unit(0.0, 7.5 * x) - ops.rmsnorm_unit(0.0, x)).max() <= 1e-13
    z = rng.normal(size=x.shape)
    gated = ops.rmsnorm_gated(1e-6, x, w, z)
    assert np.abs(gated - ops.rmsnorm(1e-6, x, w) * ops.silu(z)).max() <= 1e-14
    l2 = ops.l2norm(0.0, x)
    assert np.allclose(np.sum(l2 ** 2, axis=-1), 1.0, rtol=0, atol=1e-13)


def test_rmsnorm_float32() -> None:
    rng = _rng(14)
    x = rng.normal(size=(5, 32))
    w = rng.normal(size=32)
    got = ops.rmsnorm(1e-6, x, w, dtype=np.float32)
    assert got.dtype == np.float32
    # torch's rms_norm in float64 is the reference, not the project's own float64 path
    want = torch.nn.functional.rms_norm(torch.from_numpy(x), (32,), torch.from_numpy(w), 1e-6)
    assert np.allclose(got, want.numpy(), rtol=1e-5, atol=1e-6)
    assert np.allclose(ops.rmsnorm(1e-6, x, w), want.numpy(), rtol=1e-13, atol=1e-14)


# --- rope --------------------------------------------------------------------------------------

@pytest.mark.parametrize("d,rot,denom,active", [(16, 16, 16, 8), (16, 8, 8, 4), (16, 16, 16, 3)])
def test_rope_preserves_pair_norms(d: int, rot: int, denom: int, active: int) -> None:
    rng = _rng(15)
    x = rng.normal(size=(6, 3, d))
    pos = np.array([0, 1, 5, 9, 100, 4096])
    y = ops.rope(x, pos, 10000.0, rot, denom, active, axis=0)
    half = rot // 2
    pair_x = x[..., :half] ** 2 + x[..., half:rot] ** 2
    pair_y = y[..., :half] ** 2 + y[..., half:rot] ** 2
    assert np.abs(pair_x - pair_y).max() <= 1e-12
    assert np.array_equal(y[..., rot:], x[..., rot:])
    # Inactive frequencies and position 0 do not rotate.
    assert np.array_equal(y[0], x[0])
    assert np.allclose(y[..., active:half], x[..., active:half], rtol=0, atol=0)


def test_rope_rotation_angle() -> None:
    x = np.zeros((1, 4))
    x[0, 0] = 1.0
    y = ops.rope(x, [3], 100.0, 4, 4, 2)
    angle = 3 * 100.0 ** 0.0
    assert np.allclose(y[0], [np.cos(angle), 0.0, np.sin(angle), 0.0], rtol=0, atol=1e-15)
    x2 = np.zeros((1, 4))
    x2[0, 1] = 1.0
    y2 = ops.rope(x2, [3], 100.0, 4, 4, 2)
    angle2 = 3 * 100.0 ** (-2 / 4)
    assert np.allclose(y2[0], [0.0, np.cos(angle2), 0.0, np.sin(angle2)], rtol=0, atol=1e-15)


def test_inv_freq_values() -> None:
    got = ops.inv_freq(10000.0, 8, 3, np.arange(5))
    assert np.allclose(got[:3], 10000.0 ** (-2 * np.arange(3) / 8), rtol=1e-15)
    assert np.all(got[3:] == 0)


# --- scalars, linear maps, conv ------------------------------------------------------------------

def test_scalar_functions() -> None:
    x = np.linspace(-30, 30, 301)
    assert np.allclose(ops.sigmoid(x), 1 / (1 + np.exp(-x)), rtol=1e-14, atol=0)
    assert np.allclose(ops.silu(x), x / (1 + np.exp(-x)), rtol=1e-14, atol=1e-300)
    assert np.allclose(ops.softplus(x), np.log1p(np.exp(x)), rtol=1e-13, atol=0)
    assert np.isfinite(ops.softplus(np.array([1000.0]))).all()
    assert ops.softplus(np.array([1000.0]))[0] == 1000.0
    # against mpmath at 350 digits: 1 + tanh(u) cancels for x < 0 (to 1e-292 at x = -20.8)
    import mpmath

    with mpmath.workdps(350):
        want = np.array([float(v / 2 * (1 + mpmath.tanh(mpmath.sqrt(2 / mpmath.pi) * (
            v + mpmath.mpf(44715) / 10 ** 6 * v ** 3)))) for v in map(mpmath.mpf, x)])
    # (rtol 1e-13: at x = -20, e^{-2u} with |2u| ≈ 600 carries |2u| eps of the input's rounding)
    assert np.allclose(ops.gelu_tanh(x), want, rtol=1e-13, atol=1e-300)


@settings(max_examples=40, deadline=None)
@given(st.floats(0.1, 100), st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=10))
def test_softcap_bounded(c: float, xs) -> None:
    y = ops.softcap(c, np.array(xs))
    assert np.all(np.abs(y) <= c)
    assert np.all(np.sign(y) == np.sign(np.array(xs)) * (np.abs(y) > 0))


def test_softcap_lean_junk_value() -> None:
    assert np.all(ops.softcap(0.0, np.array([1.0, -3.0])) == 0)


def test_feed_forward_pieces() -> None:
    rng = _rng(16)
    x = rng.normal(size=(3, 4))
    wg = rng.normal(size=(5, 4))
    wu = rng.normal(size=(5, 4))
    gu = ops.gate_up(x, wg, wu)
    assert gu.shape == (3, 10)
    # the definitions written out: gate and up projections side by side, then the products
    gate = np.array([[sum(x[i, j] * wg[o, j] for j in range(4)) for o in range(5)] for i in range(3)])
    up = np.array([[sum(x[i, j] * wu[o, j] for j in range(4)) for o in range(5)] for i in range(3)])
    assert np.allclose(gu, np.concatenate([gate, up], axis=1), rtol=1e-14, atol=1e-15)
    silu = gate / (1 + np.exp(-gate))
    gelu = 0.5 * gate * (1 + np.tanh(np.sqrt(2 / np.pi) * (gate + 0.044715 * gate ** 3)))
    assert np.allclose(ops.silu_mul(gu), silu * up, rtol=1e-13, atol=1e-15)
    assert np.allclose(ops.gelu_mul(gu), gelu * up, rtol=1e-13, atol=1e-15)
    assert np.allclose(ops.residual(x, 2 * x, 0.5), 2 * x, rtol=0, atol=0)
    table = rng.normal(size=(7, 4))
    assert np.array_equal(ops.embed([3, 0, 3], table, 2.0), 2.0 * table[[3, 0, 3]])
    z = ops.lm_head(x, table, 0.5, 1.0)
    assert np.allclose(z, np.tanh(0.5 * x @ table.T), rtol=1e-14)


def test_causal_conv_silu_matches_loops() -> None:
    rng = _rng(17)
    x = rng.normal(size=(7, 3))
    w = rng.normal(size=(3, 4))
    y = ops.causal_conv_silu(x, w)
    want = np.zeros_like(x)
    for t in range(7):
        for c in range(3):
            acc = sum(w[c, j] * x[t - 3 + j, c] for j in range(4) if t - 3 + j >= 0)
            want[t, c] = acc / (1 + np.exp(-acc))
    assert np.abs(y - want).max() <= 1e-14


def test_registry_covers_the_spec() -> None:
    names = {"sigmoid", "silu", "softplus", "geluTanh", "softcap", "rmsnorm", "rmsnormOffset",
             "rmsnormUnit", "rmsnormGated", "l2norm", "linear", "gateUp", "siluMul", "geluMul",
             "residual", "embed", "lmHead", "softmax", "causalGQA", "slidingGQA", "decodeGQA",
             "slidingDecodeGQA", "sigmoidGate", "invFreq", "rope", "gdnState",
             "gatedDeltaRule", "gdnStep", "chunkDeltaRule", "causalConvSilu"}
    assert set(ops.OP_SPECS) == names
    assert not ops.OP_SPECS["slidingDecodeGQA"].lean_defined
    assert ops.OP_SPECS["rmsnormOffset"].kernel is ops.rmsnorm_offset
    assert ops.OP_SPECS["causalGQA"].lean_name == "Mirror.Ops.causalGQA"
    assert all(callable(spec.kernel) for spec in ops.OP_SPECS.values())
