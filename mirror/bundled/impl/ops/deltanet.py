"""Gated DeltaNet Op Specs: ``gdnState``, ``gatedDeltaRule``, ``gdnStep`` and the chunked
delta rule (chunk-parallel WY form).

Single-head shapes follow the Lean definitions, with optional leading batch axes (batch,
heads): ``alpha, beta[..., T]``, ``q, k[..., T, Dk]``, ``v[..., T, Dv]``, state
``S[..., Dv, Dk]``. The recurrence is

    S_t = α_t · S_{t−1} · (I − β_t k_t k_tᵀ) + β_t v_t k_tᵀ,    o_t = S_t q_t.

``alpha`` is the decay itself (not its logarithm): any real value, 0 included, is allowed.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.linalg

from bridge.errors import InvalidArgument
from mirror.bundled.impl.ops._checks import _array, _broadcast_batch, _dtype, _natural


def _inputs(alpha: Any, beta: Any, q: Any, k: Any, v: Any, initial_state: Any,
            dt: np.dtype) -> tuple[np.ndarray, ...]:
    """Check and broadcast the recurrence inputs to one batch shape."""
    ka = _array("k", k, dt, min_ndim=2)
    t, dk = ka.shape[-2:]
    va = _array("v", v, dt, min_ndim=2)
    if va.shape[-2] != t:
        raise InvalidArgument(
            f"argument 'v' has shape {va.shape}; expected trailing shape (T, Dv) with T = {t} "
            f"from k's shape {ka.shape}"
        )
    dv = va.shape[-1]
    qa = ka if q is None else _array("q", q, dt, min_ndim=2)
    if qa.shape[-2:] != (t, dk):
        raise InvalidArgument(
            f"argument 'q' has shape {qa.shape}; expected trailing shape (T, Dk) = ({t}, {dk}) "
            f"like k"
        )
    aa = _array("alpha", alpha, dt, min_ndim=1)
    ba = _array("beta", beta, dt, min_ndim=1)
    for name, arr in (("alpha", aa), ("beta", ba)):
        if arr.shape[-1] != t:
            raise InvalidArgument(
                f"argument {name!r} has shape {arr.shape}; expected trailing shape (T,) = ({t},) "
                f"from k's shape {ka.shape}"
            )
    shapes = [aa.shape[:-1], ba.shape[:-1], qa.shape[:-2], ka.shape[:-2], va.shape[:-2]]
    names = ["alpha", "beta", "q", "k", "v"]
    s0 = None
    if initial_state is not None:
        s0 = _array("initial_state", initial_state, dt, min_ndim=2)
        if s0.shape[-2:] != (dv, dk):
            raise InvalidArgument(
                f"argument 'initial_state' has shape {s0.shape}; expected trailing shape "
                f"(Dv, Dk) = ({dv}, {dk})"
            )
        shapes.append(s0.shape[:-2])
        names.append("initial_state")
    batch = _broadcast_batch(names, shapes)
    aa = np.broadcast_to(aa, batch + (t,))
    ba = np.broadcast_to(ba, batch + (t,))
    qa = np.broadcast_to(qa, batch + (t, dk))
    ka = np.broadcast_to(ka, batch + (t, dk))
    va = np.broadcast_to(va, batch + (t, dv))
    if s0 is None:
        s0 = np.zeros(batch + (dv, dk), dtype=dt)
    else:
        s0 = np.broadcast_to(s0, batch + (dv, dk)).copy()
    return aa, ba, qa, ka, va, s0


def _step(state: np.ndarray, alpha: np.ndarray, beta: np.ndarray, k: np.ndarray,
          v: np.ndarray) -> np.ndarray:
    """One recurrence step on batched arrays (no checks). A closed gate ``α = 0`` drops the
    decayed state exactly (``α • S(…) = 0`` in Lean), so a state that overflowed earlier does
    not turn into ``0 · inf = NaN``."""
    with np.errstate(over="ignore", invalid="ignore"):
        sk = np.einsum("...ij,...j->...i", state, k)
        a = alpha[..., None, None]
        b = beta[..., None, None]
        decayed = a * state - (a * b) * (sk[..., :, None] * k[..., None, :])
        return np.where(a == 0, 0.0, decayed) + b * (v[..., :, None] * k[..., None, :])


def gdn_step(state: Any, alpha: Any, beta: Any, k: Any, v: Any, *, dtype: Any = None) -> np.ndarray:
    """One decode step: ``α · S · (I − β k kᵀ) + β v kᵀ``.

    ``state[..., Dv, Dk]``, ``alpha, beta[...]``, ``k[..., Dk]``, ``v[..., Dv]``; the output of
    the step is ``new_state @ q``.
    """
    dt = _dtype(dtype)
    s = _array("state", state, dt, min_ndim=2)
    dv, dk = s.shape[-2:]
    ka = _array("k", k, dt, min_ndim=1)
    va = _array("v", v, dt, min_ndim=1)
    if ka.shape[-1] != dk:
        raise InvalidArgument(
            f"argument 'k' has shape {ka.shape}; expected trailing shape (Dk,) = ({dk},) from "
            f"state's shape {s.shape} (Dv, Dk)"
        )
    if va.shape[-1] != dv:
        raise InvalidArgument(
            f"argument 'v' has shape {va.shape}; expected trailing shape (Dv,) = ({dv},) from "
            f"state's shape {s.shape} (Dv, Dk)"
        )
    aa = _array("alpha", alpha, dt)
    ba = _array("beta", beta, dt)
    _broadcast_batch(("state", "alpha", "beta", "k", "v"),
                     (s.shape[:-2], aa.shape, ba.shape, ka.shape[:-1], va.shape[:-1]))
    with np.errstate(over="ignore", invalid="ignore"):
        out = _step(s, aa, ba, ka, va)
    if out.dtype.kind == "f" and not np.isfinite(out).all():
        out = _exact_step(out, s, aa, ba, ka, va)
    return out


def _exact_step(out: np.ndarray, state: np.ndarray, alpha: np.ndarray, beta: np.ndarray,
                k: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The entries of one step that float64 left non-finite from finite operands, recomputed
    exactly (``α (S_ij − β (S k)_i k_j) + β v_i k_j`` in rationals) and rounded once: finite
    when the true entry is in range, ``±inf`` beyond it (round-to-nearest overflow)."""
    if not all(np.isfinite(a).all() for a in (state, alpha, beta, k, v)):
        return out
    batch = out.shape[:-2]
    s_b = np.broadcast_to(state, out.shape)
    a_b, b_b = np.broadcast_to(alpha, batch), np.broadcast_to(beta, batch)
    k_b = np.broadcast_to(k, batch + k.shape[-1:])
    v_b = np.broadcast_to(v, batch + v.shape[-1:])
    out = out.copy()
    for idx in map(tuple, np.argwhere(~np.isfinite(out))):
        *lead, i, j = idx
        lead = tuple(lead)
        row = [Fraction(float(x)) for x in s_b[lead + (i,)]]
        keys = [Fraction(float(x)) for x in k_b[lead]]
        a, b = Fraction(float(a_b[lead])), Fraction(float(b_b[lead]))
        sk = sum((x * y for x, y in zip(row, keys)), Fraction(0))
        exact = a * (row[j] - b * sk * keys[j]) + b * Fraction(float(v_b[lead + (i,)])) * keys[j]
        try:
            out[idx] = float(exact)
        except OverflowError:
            out[idx] = math.inf if exact > 0 else -math.inf
    return out


def _recurrent(aa: np.ndarray, ba: np.ndarray, qa: np.ndarray, ka: np.ndarray, va: np.ndarray,
               state: np.ndarray, steps: int, want_output: bool) -> tuple[np.ndarray | None, np.ndarray]:
    """Run ``steps`` recurrence steps from ``state``; outputs ``S_t q_t`` when asked."""
    out = np.empty(va.shape[:-2] + (steps, va.shape[-1]), dtype=va.dtype) if want_output else None
    for t in range(steps):
        state = _step(state, aa[..., t], ba[..., t], ka[..., t, :], va[..., t, :])
        if out is not None:
            out[..., t, :] = np.einsum("...ij,...j->...i", state, qa[..., t, :])
    return out, state


def gdn_state(alpha: Any, beta: Any, k: Any, v: Any, t: Any = None, *, initial_state: Any = None,
              dtype: Any = None) -> np.ndarray:
    """The state ``S_t`` (``[..., Dv, Dk]``) after ``t`` steps (default all ``T``), from ``0``
    or ``initial_state``."""
    dt = _dtype(dtype)
    aa, ba, qa, ka, va, s0 = _inputs(alpha, beta, None, k, v, initial_state, dt)
    total = ka.shape[-2]
    steps = total if t is None else _natural("t", t)
    if steps > total:
        raise InvalidArgument(f"argument 't' is {steps}; expected t <= T = {total}")
    _, state = _recurrent(aa, ba, qa, ka, va, s0, steps, want_output=False)
    return state


def gated_delta_rule(alpha: Any, beta: Any, q: Any, k: Any, v: Any, *, initial_state: Any = None,
                     return_state: bool = False, dtype: Any = None):
    """The gated delta rule by its recurrence: ``o[..., T, Dv]`` with ``o_t = S_t q_t``.

    With ``return_state=True`` returns ``(o, S_T)``.
    """
    dt = _dtype(dtype)
    aa, ba, qa, ka, va, s0 = _inputs(alpha, beta, q, k, v, initial_state, dt)
    out, state = _recurrent(aa, ba, qa, ka, va, s0, ka.shape[-2], want_output=True)
    return (out, state) if return_state else out


def _pad(arr: np.ndarray, pad: int, axis_from_end: int, value: float) -> np.ndarray:
    """Pad ``arr`` at the end of the axis ``axis_from_end`` (counted from the end) by ``pad``."""
    if pad == 0:
        return arr
    widths = [(0, 0)] * arr.ndim
    widths[arr.ndim - axis_from_end] = (0, pad)
    return np.pad(arr, widths, constant_values=value)


def chunk_gated_delta_rule(alpha: Any, beta: Any, q: Any, k: Any, v: Any, chunk_size: Any = 64, *,
                           initial_state: Any = None, return_state: bool = False,
                           dtype: Any = None):
    """The gated delta rule in the chunk-parallel (WY / UT-transform) form.

    Within a chunk of ``C`` steps with decays ``D[i, j] = Π_{j<m≤i} α_m`` and
    ``γ_i = Π_{m≤i} α_m``, the rank-one corrections ``u_i = β_i (v_i − α_i S_{i−1} k_i)`` solve
    the unit lower-triangular system ``(I + A) U = β ⊙ V − (βγ ⊙ K) S₀ᵀ`` with
    ``A[i, j] = β_i D[i, j] k_i·k_j`` (``j < i``); then
    ``O = γ ⊙ Q S₀ᵀ + (tril(D) ⊙ Q Kᵀ) U`` and ``S_C = γ_C S₀ + Uᵀ (D[C−1, :] ⊙ K)``.
    The triangular solves of all chunks run at once; only the state is carried chunk to
    chunk. ``T`` need not be a multiple of ``C`` (padded with identity steps). Same
    arguments and result as :func:`gated_delta_rule`.
    """
    dt = _dtype(dtype)
    c = _natural("chunk_size", chunk_size, minimum=1)
    aa, ba, qa, ka, va, state = _inputs(alpha, beta, q, k, v, initial_state, dt)
    batch = ka.shape[:-2]
    t, dk = ka.shape[-2:]
    dv = va.shape[-1]
    pad = (-t) % c
    n = (t + pad) // c
    # Padding steps are identities: α = 1, β = 0, k = q = v = 0.
    aa = _pad(aa, pad, 1, 1.0).reshape(batch + (n, c))
    ba = _pad(ba, pad, 1, 0.0).reshape(batch + (n, c))
    qa = _pad(qa, pad, 2, 0.0).reshape(batch + (n, c, dk))
    ka = _pad(ka, pad, 2, 0.0).reshape(batch + (n, c, dk))
    va = _pad(va, pad, 2, 0.0).reshape(batch + (n, c, dv))

    lower = np.tril(np.ones((c, c), dtype=bool))
    strict = np.tril(np.ones((c, c), dtype=bool), -1)
    # D[i, j] = Π_{j<m≤i} α_m (lower triangle), by a cumulative product down the rows: exact
    # for every real α, zero and negative included (no logarithms, no division).
    factors = np.where(strict, aa[..., :, None], 1.0)
    decay = np.where(lower, np.cumprod(factors, axis=-2), 0.0)
    gamma = aa[..., :1] * decay[..., :, 0]  # γ_i = α_0 · D[i, 0]

    kk = ka @ np.swapaxes(ka, -1, -2)
    system = np.eye(c, dtype=dt) + np.where(strict, ba[..., :, None] * decay * kk, 0.0)
    rhs = np.concatenate([ba[..., None] * va, (ba * gamma)[..., None] * ka], axis=-1)
    solved = scipy.linalg.solve_triangular(system, rhs, lower=True, unit_diagonal=True,
                                           check_finite=False)
    w_v = solved[..., :dv]  # (I + A)⁻¹ (β ⊙ V)
    w_k = solved[..., dv:]  # (I + A)⁻¹ (βγ ⊙ K)
    attn = decay * (qa @ np.swapaxes(ka, -1, -2))
    q_gamma = gamma[..., None] * qa
    k_last = decay[..., -1, :, None] * ka  # D[C−1, j] k_j
    gamma_last = gamma[..., -1]

    out = np.empty(batch + (n, c, dv), dtype=dt)
    for i in range(n):
        state_t = np.swapaxes(state, -1, -2)  # [..., Dk, Dv]
        u = w_v[..., i, :, :] - w_k[..., i, :, :] @ state_t
        out[..., i, :, :] = q_gamma[..., i, :, :] @ state_t + attn[..., i, :, :] @ u
        state = (gamma_last[..., i, None, None] * state
                 + np.swapaxes(u, -1, -2) @ k_last[..., i, :, :])
    out = out.reshape(batch + (n * c, dv))[..., :t, :]
    return (out, state) if return_state else out
