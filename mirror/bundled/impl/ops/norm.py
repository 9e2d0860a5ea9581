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


def _inv_rms(eps: float | np.ndarray, x: np.ndarray) -> np.ndarray:
    """``1 / √(mean(x²) + eps)`` over the last axis, kept as a trailing axis of size 1."""
    return 1.0 / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)


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
    return (a * _inv_rms(e, a) * weight).astype(dt, copy=False)


def rmsnorm_offset(eps: Any, x: Any, w: Any, *, dtype: Any = None) -> np.ndarray:
    """``x / √(mean(x²) + ε) · (1 + w)`` over the last axis (Gemma / Qwen3-Next form)."""
    dt = _dtype(dtype)
    a = _array("x", x, dt, min_ndim=1)
    e = _per_row("eps", eps, a)
    weight = _weight("w", w, a, dt)
    return (a * _inv_rms(e, a) * (1.0 + weight)).astype(dt, copy=False)


def rmsnorm_unit(eps: Any, x: Any, *, dtype: Any = None) -> np.ndarray:
    """``x / √(mean(x²) + ε)`` over the last axis, without weight."""
    dt = _dtype(dtype)
    a = _array("x", x, dt, min_ndim=1)
    e = _per_row("eps", eps, a)
    return (a * _inv_rms(e, a)).astype(dt, copy=False)


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
    return (weight * (a * _inv_rms(e, a)) * silu(gate, dtype=dt)).astype(dt, copy=False)


def l2norm(eps: Any, x: Any, *, dtype: Any = None) -> np.ndarray:
    """``x / √(Σ x² + ε)`` over the last axis (delta-rule queries and keys)."""
    dt = _dtype(dtype)
    a = _array("x", x, dt, min_ndim=1)
    e = _per_row("eps", eps, a)
    return (a / np.sqrt(np.sum(a * a, axis=-1, keepdims=True) + e)).astype(dt, copy=False)
