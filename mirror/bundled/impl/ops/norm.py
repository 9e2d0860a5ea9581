"""Normalisation Op Specs: ``rmsnorm``, ``rmsnormOffset``, ``rmsnormUnit``, ``rmsnormGated``,
``l2norm``.

All normalise over the last axis; every leading axis is a row index (tokens, or
(token, head) pairs for per-head norms). Arguments follow the Lean order: ``eps`` first.
``eps`` and the weights may carry leading batch axes too (one per leading index of ``x``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bridge.errors import InvalidArgument
from mirror.bundled.impl.ops._checks import _array, _dtype, _per_row
from mirror.bundled.impl.ops.scalar import silu


def _normalised(x: np.ndarray, eps: float | np.ndarray, mean: bool) -> np.ndarray:
    """``x / √(Σ x² (/ H) + eps)`` over the last axis, scaled so that no square overflows or
    underflows: with ``c = max(max|x|, √|eps|)`` per row, ``Σ x²/c² + eps/c²`` lies in
    ``[-1, H + 1]``, and the result is ``(x/c) / √(that)`` (the LAPACK ``dnrm2`` idea). A row
    with ``x = 0`` and ``eps = 0`` is ``0 / 0`` (NaN), as the unscaled formula gives."""
    dt = x.dtype
    top = np.max(np.abs(x), axis=-1, keepdims=True) if x.shape[-1] else np.zeros(
        x.shape[:-1] + (1,), dtype=dt)
    eps_rows = np.broadcast_to(np.asarray(eps, dtype=dt), top.shape)
    c = np.maximum(top, np.sqrt(np.abs(eps_rows)))
    safe = np.where(c > 0, c, 1).astype(dt, copy=False)
    y = x / safe
    total = np.sum(y * y, axis=-1, keepdims=True)
    if mean:
        total = total / x.shape[-1] if x.shape[-1] else total
    with np.errstate(invalid="ignore", divide="ignore"):
        return y / np.sqrt(total + (eps_rows / safe) / safe)


def _weight(name: str, w: Any, x: np.ndarray, dt: np.dtype) -> np.ndarray:
    """A per-feature weight ``[H]`` matching ``x``'s last axis, or one per leading index of
    ``x`` (``[..., H]``), shaped to broadcast against ``x``."""
    arr = _array(name, w, dt, min_ndim=1)
    lead = arr.shape[:-1]
    if arr.shape[-1:] != x.shape[-1:] or arr.ndim > x.ndim or x.shape[:len(lead)] != lead:
        raise _shape_error(name, arr.shape, x.shape[:len(lead)] + (x.shape[-1],))
    return arr.reshape(lead + (1,) * (x.ndim - arr.ndim) + arr.shape[-1:])


def _shape_error(name: str, shape: tuple[int, ...], expected: tuple[int, ...]) -> InvalidArgument:
    """The error for an argument whose whole shape must equal ``expected``."""
    return InvalidArgument(f"argument {name!r} has shape {shape}; expected {expected}")


def rmsnorm(eps: Any, x: Any, w: Any, *, dtype: Any = None) -> np.ndarray:
    """``x / √(mean(x²) + ε) · w`` over the last axis; ``x[..., H]``, ``w[H]``."""
    dt = _dtype(dtype)
    a = _array("x", x, dt, min_ndim=1)
    e = _per_row("eps", eps, a)
    weight = _weight("w", w, a, dt)
    return (_normalised(a, e, True) * weight).astype(dt, copy=False)


def rmsnorm_offset(eps: Any, x: Any, w: Any, *, dtype: Any = None) -> np.ndarray:
    """``x / √(mean(x²) + ε) · (1 + w)`` over the last axis (Gemma / Qwen3-Next form)."""
    dt = _dtype(dtype)
    a = _array("x", x, dt, min_ndim=1)
    e = _per_row("eps", eps, a)
    weight = _weight("w", w, a, dt)
    return (_normalised(a, e, True) * (1.0 + weight)).astype(dt, copy=False)


def rmsnorm_unit(eps: Any, x: Any, *, dtype: Any = None) -> np.ndarray:
    """``x / √(mean(x²) + ε)`` over the last axis, without weight."""
    dt = _dtype(dtype)
    a = _array("x", x, dt, min_ndim=1)
    e = _per_row("eps", eps, a)
    return _normalised(a, e, True).astype(dt, copy=False)


def rmsnorm_gated(eps: Any, x: Any, w: Any, z: Any, *, dtype: Any = None) -> np.ndarray:
    """``w ⊙ x / √(mean(x²) + ε) ⊙ silu(z)`` (the Gated DeltaNet output norm); ``z`` has
    ``x``'s shape."""
    dt = _dtype(dtype)
    a = _array("x", x, dt, min_ndim=1)
    e = _per_row("eps", eps, a)
    weight = _weight("w", w, a, dt)
    gate = _array("z", z, dt, min_ndim=1)
    if gate.shape != a.shape:
        raise _shape_error("z", gate.shape, a.shape)
    return (weight * _normalised(a, e, True) * silu(gate, dtype=dt)).astype(dt, copy=False)


def l2norm(eps: Any, x: Any, *, dtype: Any = None) -> np.ndarray:
    """``x / √(Σ x² + ε)`` over the last axis (delta-rule queries and keys)."""
    dt = _dtype(dtype)
    a = _array("x", x, dt, min_ndim=1)
    e = _per_row("eps", eps, a)
    return _normalised(a, e, False).astype(dt, copy=False)
