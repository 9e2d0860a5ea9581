"""Linear maps and feed-forward Op Specs: ``linear``, ``gateUp``, ``siluMul``, ``geluMul``,
``residual``, ``embed``, ``lmHead``.

Weights are stored as PyTorch stores them: ``W[N, K]`` for a bias-free ``nn.Linear(K, N)``.
Leading axes of activations are free (tokens, batch). Weights and scalar factors may carry
leading batch axes too, one weight per leading batch index of ``x`` (``x[B, T, K]``,
``W[B, N, K]``); a 2-D weight is shared.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from bridge.errors import InvalidArgument
from mirror.bundled.impl.ops._checks import _array, _dtype, _int_array, _per_row
from mirror.bundled.impl.ops.scalar import gelu_tanh, silu, softcap


def _matrix(name: str, value: Any, dt: np.dtype, x: np.ndarray, meaning: str) -> np.ndarray:
    """A weight ``[N, K]`` with ``K = x.shape[-1]``, or one per leading batch index of ``x``
    (``[B, N, K]`` with ``x[B, ..., K]``, ``x`` at least 3-D)."""
    arr = _array(name, value, dt)
    lead = arr.shape[:-2]
    if arr.ndim < 2 or arr.shape[-1] != x.shape[-1] or (
            lead and (x.ndim < arr.ndim or x.shape[:len(lead)] != lead)):
        raise InvalidArgument(
            f"argument {name!r} has shape {arr.shape}; expected {meaning} = (N, {x.shape[-1]})"
        )
    return arr


def _times(x: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """``x Wᵀ`` over the last axis, a batched weight matched to ``x``'s leading axes.

    BLAS first; an entry it leaves non-finite from finite operands (a product or a partial
    sum overflowed, ``inf − inf``) is recomputed exactly (:func:`_exact_dot`), so it is the
    correct rounding of the true sum: finite when the sum is in range, ``±inf`` beyond it."""
    with np.errstate(over="ignore", invalid="ignore"):
        if weight.ndim == 2:
            out = x @ weight.T
        else:
            lead = weight.shape[:-2]
            rows = x.reshape(lead + (-1, x.shape[-1]))
            out = np.matmul(rows, np.swapaxes(weight, -1, -2)).reshape(
                x.shape[:-1] + weight.shape[-2:-1])
    if out.dtype.kind == "f" and not np.isfinite(out).all() and np.isfinite(x).all() \
            and np.isfinite(weight).all():
        lead = weight.ndim - 2
        for idx in map(tuple, np.argwhere(~np.isfinite(out))):
            out[idx] = _exact_dot(x[idx[:-1]], weight[idx[:lead] + idx[-1:]])
    return out


def _exact_dot(a: np.ndarray, b: np.ndarray) -> float:
    """``Σ a_k b_k`` in exact rational arithmetic, rounded once to float64 (``±inf`` beyond
    its range, as round-to-nearest overflows)."""
    total = sum((Fraction(float(u)) * Fraction(float(v)) for u, v in zip(a, b)), Fraction(0))
    try:
        return float(total)
    except OverflowError:
        return math.inf if total > 0 else -math.inf


def linear(x: Any, W: Any, *, dtype: Any = None) -> np.ndarray:
    """``y[t, n] = Σₖ x[t, k] · W[n, k]``; ``x[..., K]``, ``W[N, K]`` → ``y[..., N]``."""
    dt = _dtype(dtype)
    a = _array("x", x, dt, min_ndim=1)
    weight = _matrix("W", W, dt, a, "(N, K) with K = x.shape[-1]")
    return _times(a, weight)


def gate_up(x: Any, W_gate: Any, W_up: Any, *, dtype: Any = None) -> np.ndarray:
    """``[x W_gateᵀ ‖ x W_upᵀ]`` along the last axis, gate first; both weights ``[I, K]``."""
    dt = _dtype(dtype)
    a = _array("x", x, dt, min_ndim=1)
    gate = _matrix("W_gate", W_gate, dt, a, "(I, K) with K = x.shape[-1]")
    up = _matrix("W_up", W_up, dt, a, "(I, K) with K = x.shape[-1]")
    if gate.shape != up.shape:
        raise InvalidArgument(
            f"argument 'W_up' has shape {up.shape}; expected W_gate's shape {gate.shape}"
        )
    return np.concatenate([_times(a, gate), _times(a, up)], axis=-1)


def _halves(gu: Any, dt: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """Split a fused ``[gate ‖ up]`` row (last axis of even size ``2I``) into its halves."""
    a = _array("gu", gu, dt, min_ndim=1)
    if a.shape[-1] % 2:
        raise InvalidArgument(
            f"argument 'gu' has shape {a.shape}; expected an even last axis 2·I ([gate ‖ up])"
        )
    half = a.shape[-1] // 2
    return a[..., :half], a[..., half:]


def silu_mul(gu: Any, *, dtype: Any = None) -> np.ndarray:
    """SwiGLU on a fused row: ``y[t, i] = silu(gu[t, i]) · gu[t, I + i]``."""
    dt = _dtype(dtype)
    gate, up = _halves(gu, dt)
    return silu(gate, dtype=dt) * up


def gelu_mul(gu: Any, *, dtype: Any = None) -> np.ndarray:
    """GeGLU on a fused row: ``y[t, i] = geluTanh(gu[t, i]) · gu[t, I + i]``."""
    dt = _dtype(dtype)
    gate, up = _halves(gu, dt)
    return gelu_tanh(gate, dtype=dt) * up


def residual(x: Any, h: Any, r: Any = 1.0, *, dtype: Any = None) -> np.ndarray:
    """``y = x + r · h`` (``r`` is a model's residual multiplier, 1 by default)."""
    dt = _dtype(dtype)
    a = _array("x", x, dt)
    b = _array("h", h, dt)
    if a.shape != b.shape:
        raise InvalidArgument(f"argument 'h' has shape {b.shape}; expected x's shape {a.shape}")
    return a + _per_row("r", r, a) * b


def embed(tokens: Any, E: Any, c: Any = 1.0, *, dtype: Any = None) -> np.ndarray:
    """``y[t] = c · E[tokens[t]]``; ``tokens`` integer array of any shape, ``E[V, H]``."""
    dt = _dtype(dtype)
    table = _array("E", E, dt)
    ids = _int_array("tokens", tokens)
    lead = table.shape[:-2]
    if table.ndim < 2 or (lead and (ids.ndim <= len(lead) or ids.shape[:len(lead)] != lead)):
        raise InvalidArgument(f"argument 'E' has shape {table.shape}; expected (V, H), or one "
                              f"table per leading index of tokens {ids.shape}")
    vocab = table.shape[-2]
    if ids.size and (ids.min() < 0 or ids.max() >= vocab):
        bad = int(ids.min()) if ids.min() < 0 else int(ids.max())
        raise InvalidArgument(
            f"argument 'tokens' holds token id {bad}; expected ids in [0, {vocab})"
        )
    if lead:  # one table per batch index: gather along each table's V axis
        flat = ids.reshape(lead + (-1, 1))
        rows = np.take_along_axis(table, flat, axis=-2).reshape(ids.shape + table.shape[-1:])
    else:
        rows = table[ids]
    return _per_row("c", c, rows) * rows


def lm_head(x: Any, W: Any, mul: Any = 1.0, cap: Any = None, *, dtype: Any = None) -> np.ndarray:
    """``z = mul · x Wᵀ``, then ``softcap cap z`` when ``cap`` is given; ``W[V, H]``."""
    dt = _dtype(dtype)
    y = linear(x, W, dtype=dt)
    z = _per_row("mul", mul, y) * y
    if cap is None:
        return z
    return softcap(cap, z, dtype=dt)
