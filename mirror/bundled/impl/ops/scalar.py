"""Scalar Op Specs, applied elementwise: ``sigmoid``, ``silu``, ``softplus``, ``geluTanh``, ``softcap``."""

from __future__ import annotations

from typing import Any

import numpy as np

from mirror.bundled.impl.ops._checks import _array, _dtype, _per_row

#: √(2/π), the constant of the tanh approximation of GELU.
_SQRT_2_OVER_PI = float(np.sqrt(2.0 / np.pi))
#: 44715/1000000, the cubic coefficient of the tanh approximation of GELU.
_GELU_CUBIC = 44715 / 1000000


def sigmoid(x: Any, *, dtype: Any = None) -> np.ndarray:
    """``1 / (1 + exp(-x))`` elementwise, evaluated without overflow for large ``|x|``."""
    dt = _dtype(dtype)
    a = _array("x", x, dt)
    e = np.exp(-np.abs(a))
    return np.where(a >= 0, 1.0 / (1.0 + e), e / (1.0 + e)).astype(dt, copy=False)


def silu(x: Any, *, dtype: Any = None) -> np.ndarray:
    """``x · sigmoid(x)`` elementwise."""
    dt = _dtype(dtype)
    a = _array("x", x, dt)
    return a * sigmoid(a, dtype=dt)


def softplus(x: Any, *, dtype: Any = None) -> np.ndarray:
    """``log(1 + exp(x))`` elementwise, in the stable form ``max(x, 0) + log1p(exp(-|x|))``."""
    dt = _dtype(dtype)
    a = _array("x", x, dt)
    return (np.maximum(a, 0) + np.log1p(np.exp(-np.abs(a)))).astype(dt, copy=False)


def gelu_tanh(x: Any, *, dtype: Any = None) -> np.ndarray:
    """The tanh approximation of GELU (``gelu_pytorch_tanh``):
    ``x/2 · (1 + tanh(√(2/π) · (x + 0.044715 x³)))``, evaluated as ``x / (1 + e^{-2u})``
    (the same real number): ``1 + tanh(u)`` cancels for negative ``u`` and lost 12 bits at
    ``x = -4`` (bench/bench_accuracy.py)."""
    dt = _dtype(dtype)
    a = _array("x", x, dt)
    with np.errstate(over="ignore"):
        inner = _SQRT_2_OVER_PI * (a + _GELU_CUBIC * a * a * a)
        return (a / (1.0 + np.exp(-2.0 * inner))).astype(dt, copy=False)


def softcap(c: Any, x: Any, *, dtype: Any = None) -> np.ndarray:
    """Soft-capping ``c · tanh(x / c)`` elementwise.

    Lean's junk value is kept: ``x / 0 = 0``, so ``c = 0`` gives ``0``. ``c`` is a scalar or
    one per leading index of ``x``.
    """
    dt = _dtype(dtype)
    a = _array("x", x, dt)
    cap = _per_row("c", c, a)
    if np.ndim(cap) == 0:
        if cap == 0.0:
            return np.zeros_like(a)
        return (cap * np.tanh(a / cap)).astype(dt, copy=False)
    safe = np.where(cap == 0.0, 1.0, cap)
    return np.where(cap == 0.0, 0.0, safe * np.tanh(a / safe)).astype(dt, copy=False)
