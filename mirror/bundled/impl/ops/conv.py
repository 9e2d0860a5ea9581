"""``causalConvSilu``: depthwise causal convolution of width ``K`` followed by SiLU."""

from __future__ import annotations

from typing import Any

import numpy as np

from bridge.errors import InvalidArgument
from mirror.bundled.impl.ops._checks import _array, _dtype
from mirror.bundled.impl.ops.scalar import silu


def causal_conv_silu(x: Any, w: Any, bias: Any = None, *, dtype: Any = None) -> np.ndarray:
    """``y[t, c] = silu(Σ_{j<K} w[c, j] · x[t − (K − 1) + j, c] + bias[c])``, zero left padding.

    ``x[..., T, C]`` (channels last), ``w[C, K]`` (tap ``K − 1`` multiplies the current token,
    as PyTorch's ``Conv1d(C, C, K, groups=C, padding=K−1)`` truncated to the first ``T``
    outputs; ``w[B, C, K]``: one per leading batch index of ``x``), optional ``bias[C]``.
    """
    dt = _dtype(dtype)
    a = _array("x", x, dt, min_ndim=2)
    t, channels = a.shape[-2:]
    weight = _array("w", w, dt)
    lead = weight.shape[:-2]
    if weight.ndim < 2 or weight.shape[-2] != channels or weight.shape[-1] < 1 or (
            lead and a.shape[:len(lead)] != lead):
        raise InvalidArgument(
            f"argument 'w' has shape {weight.shape}; expected (C, K) with C = {channels} "
            f"from x's shape {a.shape} (T, C) and K >= 1"
        )
    if lead:  # one weight per leading batch index of x
        weight = weight.reshape(lead + (1,) * (a.ndim - 2 - len(lead)) + weight.shape[-2:])
    width = weight.shape[-1]
    widths = [(0, 0)] * a.ndim
    widths[-2] = (width - 1, 0)
    padded = np.pad(a, widths)
    # windows[..., t, c, j] = padded[..., t + j, c]
    windows = np.lib.stride_tricks.sliding_window_view(padded, width, axis=-2)[..., :t, :, :]
    y = np.einsum("...tcj,...cj->...tc", windows, weight)
    if bias is not None:
        b = _array("bias", bias, dt)
        if b.shape != (channels,):
            raise InvalidArgument(
                f"argument 'bias' has shape {b.shape}; expected ({channels},)"
            )
        y = y + b
    return silu(y, dtype=dt)
