"""Rotary embedding Op Specs: ``invFreq`` and ``rope``.

``rope θ rot denom active`` rotates the pairs ``(i, i + rot/2)`` for ``i < rot/2`` by
``pos · invFreq i`` and leaves coordinates ``≥ rot`` unchanged. Full, partial and
proportional RoPE are parameter choices of this one definition.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bridge.errors import InvalidArgument
from mirror.bundled.impl.ops._checks import _array, _dtype, _int_array, _natural, _scalar


def inv_freq(theta: Any, denom: Any, active: Any, i: Any, *, dtype: Any = None) -> np.ndarray:
    """``theta ^ (-(2 i / denom))`` if ``i < active`` else 0, elementwise over integer ``i``.

    Lean's junk value is kept: ``denom = 0`` makes the exponent ``0`` (``x / 0 = 0``), so
    active frequencies are 1.
    """
    dt = _dtype(dtype)
    th = _scalar("theta", theta)
    den = _natural("denom", denom)
    act = _natural("active", active)
    idx = _int_array("i", i)
    if idx.size and idx.min() < 0:
        raise InvalidArgument(f"argument 'i' holds {int(idx.min())}; expected natural numbers")
    # in extended precision: the rounding of 2 i / denom, times |log theta|, cost 16 ulps
    # at theta = 1e-30 in float64 (bench/bench_accuracy.py)
    wide = np.longdouble
    exponent = -(2 * idx.astype(wide) / wide(den)) if den else np.zeros(idx.shape, dtype=wide)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        freq = np.power(wide(th), exponent).astype(np.float64)
    return np.where(idx < act, freq, 0.0).astype(dt)


def rope(x: Any, pos: Any, theta: Any, rot: Any, denom: Any, active: Any, *, axis: int = -2,
         dtype: Any = None) -> np.ndarray:
    """Rotate pairs ``(i, i + rot/2)``, ``i < rot/2``, of ``x[..., D]`` by ``pos · invFreq i``.

    ``pos`` is either 1-D with one position per entry of ``x``'s token axis ``axis``
    (default ``-2``: ``x[..., S, D]``), or any array broadcastable to ``x.shape[:-1]``.
    ``rot`` must be even and at most ``D``; coordinates ``≥ rot`` are unchanged.
    """
    dt = _dtype(dtype)
    a = _array("x", x, dt, min_ndim=1)
    d = a.shape[-1]
    r = _natural("rot", rot)
    if r % 2 or r > d:
        raise InvalidArgument(
            f"argument 'rot' is {r}; expected an even number at most D = {d} (x's last axis)"
        )
    p = _int_array("pos", pos)
    batch = a.shape[:-1]
    if p.ndim == 1 and a.ndim >= 2:
        ax = axis if axis >= 0 else a.ndim + axis
        if not 0 <= ax < a.ndim - 1:
            raise InvalidArgument(
                f"argument 'axis' is {axis}; expected a token axis of x other than the last "
                f"(x has shape {a.shape})"
            )
        if p.shape[0] != a.shape[ax]:
            raise InvalidArgument(
                f"argument 'pos' has shape {p.shape}; expected ({a.shape[ax]},), the length "
                f"of x's axis {axis} (x has shape {a.shape})"
            )
        p = p.reshape((-1,) + (1,) * (a.ndim - 2 - ax))
    try:
        p = np.broadcast_to(p, batch)
    except ValueError as exc:
        raise InvalidArgument(
            f"argument 'pos' has shape {p.shape}; expected a shape broadcastable to "
            f"x.shape[:-1] = {batch}"
        ) from exc
    half = r // 2
    freqs = inv_freq(theta, denom, active, np.arange(half), dtype=np.float64)
    angle = p[..., None].astype(np.float64) * freqs
    cos = np.cos(angle).astype(dt)
    sin = np.sin(angle).astype(dt)
    x1 = a[..., :half]
    x2 = a[..., half:r]
    out = a.copy()
    out[..., :half] = x1 * cos - x2 * sin
    out[..., half:r] = x2 * cos + x1 * sin
    return out
