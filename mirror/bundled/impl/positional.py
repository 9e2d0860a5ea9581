"""The position-only causal softmax head, dense and as an FFT causal convolution.

Mirrors ``pos_head_is_causal_convolution`` (spec: ``spec/positional-head.txt``): if the score of
query ``i`` for key ``j`` depends only on ``i - j`` (score ``a(i - j)``), the causal softmax
output is a causal convolution of the values with the kernel ``e^a``, divided by the prefix
sum of the kernel::

    sum_{j<=i} softmax_j(a(i - j)) v_j  =  (sum_{d<=i} e^{a(d)} v_{i-d}) / sum_{d<=i} e^{a(d)}

:func:`causal_softmax_head` evaluates the left side in O(n^2), :func:`causal_convolution_head`
the right side in O(n log n). ``i - j`` is Lean's natural-number subtraction
(:func:`truncated_subtraction`, ``2 - 5 = 0``); inside the sums ``j <= i`` so it never
truncates, but the dense head builds its score table with it faithfully.

Accuracy of the FFT form. An FFT convolution has an absolute error of roughly ``c * eps *
log2(n) * max_d e^{a_d - max a} * max|v|`` per output, spread over all positions, while the
output divides by the prefix sum ``sum_{d<=i} e^{a_d - max a}``. The relative error at
position ``i`` therefore grows like ``exp(max a - max_{d<=i} a_d)``: it is tiny when the
kernel's early lags are not far below its global maximum (e.g. any decaying kernel such as
ALiBi, ``a_d = -slope * d``, whatever its range), and large when an early prefix of the kernel
is many orders of magnitude below a later peak. Measured against the dense head with ``a``
uniform in ``[-A, A]`` (so ``max a - a_0`` up to ``2A``), ``n`` in {64, 1024, 8192}, three
channels, error relative to ``max|v|``: ``A = 1``: <= 2e-14; ``A = 5``: <= 3e-13; ``A = 10``:
up to 2e-9; ``A = 15``: up to 6e-4; ``A = 30``: meaningless at the early positions. So the
FFT form matches the dense head to ``1e-9`` relative for ``|a| <= ~5`` (any ``n`` tried), or for
any kernel whose early lags are within ``~18`` of its maximum (``max a - max_{d<=i} a_d <=
~18`` for every ``i``); decaying kernels (ALiBi, ``a_d = -0.05 d`` over 8192 lags, a range of
400) stay at ~1e-15. Outside that regime use the dense head.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import fft as _fft

from bridge.errors import InvalidArgument

__all__ = [
    "causal_convolution_head",
    "causal_softmax_head",
    "truncated_subtraction",
]

#: Rows per block in the dense head, so its memory stays O(block * n), not O(n^2).
_DENSE_BLOCK_ROWS = 256


def truncated_subtraction(i: Any, j: Any) -> Any:
    """Lean's ``i - j`` on ``ℕ``: ``max(i - j, 0)`` (``2 - 5 = 0``), elementwise on int arrays.

    Scalars in give a Python ``int`` out. Negative or non-integer arguments are refused: they
    are not natural numbers.
    """
    i_arr = _natural_array(i, "i")
    j_arr = _natural_array(j, "j")
    out = np.maximum(i_arr - j_arr, 0)
    if out.ndim == 0:
        return int(out)
    return out


def causal_softmax_head(a: Any, v: Any) -> np.ndarray:
    """Dense reference: ``out_i = sum_{j<=i} softmax_j(a(i ∸ j)) v_j``, in O(n^2).

    ``a`` holds the scores ``a(0), .., a(n-1)`` by lag; ``v`` has shape ``(n,)`` or ``(n,
    channels)`` and the output has the same shape (float64). Each row's softmax is shifted by
    that row's maximum over ``j <= i``, so no score range overflows. The score table is built
    with :func:`truncated_subtraction` and masked to ``j <= i``; rows are processed in blocks
    to keep memory at ``O(block * n)``.

    Raises:
        InvalidArgument: non-finite or non-numeric input, ``a`` not 1-D, ``v`` not 1-D/2-D,
            or ``len(a) != len(v)``.
    """
    a_vec, values, squeeze = _check(a, v, "causal_softmax_head")
    n = a_vec.size
    out = np.empty_like(values)
    columns = np.arange(n)
    for start in range(0, n, _DENSE_BLOCK_ROWS):
        rows = np.arange(start, min(n, start + _DENSE_BLOCK_ROWS))
        lags = truncated_subtraction(rows[:, None], columns[None, :])
        causal = columns[None, :] <= rows[:, None]
        scores = np.where(causal, a_vec[lags], -np.inf)
        scores -= scores.max(axis=1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=1, keepdims=True)
        out[rows] = weights @ values
    return out[:, 0] if squeeze else out


def causal_convolution_head(a: Any, v: Any) -> np.ndarray:
    """The same head in O(n log n): FFT causal convolution over a prefix sum of the kernel.

    ``out_i = (sum_{d<=i} K_d v_{i-d}) / sum_{d<=i} K_d`` with ``K_d = e^{a_d - max a}``; the
    shift by ``max a`` cancels between numerator and denominator and keeps ``K <= 1``. The
    convolution is a real FFT of size ``next_fast_len(2n - 1)`` (zero padding, so no wrap
    around), truncated to the first ``n`` outputs. Shapes and errors as
    :func:`causal_softmax_head`; see the module docstring for the accuracy regime.
    """
    a_vec, values, squeeze = _check(a, v, "causal_convolution_head")
    n = a_vec.size
    if n == 0:
        out = np.zeros_like(values)
        return out[:, 0] if squeeze else out
    kernel = np.exp(a_vec - a_vec.max())
    size = _fft.next_fast_len(2 * n - 1, real=True)
    spectrum = _fft.rfft(kernel, size)[:, None] * _fft.rfft(values, size, axis=0)
    numerator = _fft.irfft(spectrum, size, axis=0)[:n]
    denominator = np.cumsum(kernel)
    out = numerator / denominator[:, None]
    return out[:, 0] if squeeze else out


def _check(a: Any, v: Any, where: str) -> tuple[np.ndarray, np.ndarray, bool]:
    """Validate ``a`` and ``v``; return float64 ``a``, 2-D ``v`` and whether ``v`` was 1-D."""
    a_vec = _finite_array(a, "a", where)
    values = _finite_array(v, "v", where)
    if a_vec.ndim != 1:
        raise InvalidArgument(
            f"{where}: a has shape {a_vec.shape}; expected a 1-D vector of scores by lag"
        )
    if values.ndim not in (1, 2):
        raise InvalidArgument(
            f"{where}: v has shape {values.shape}; expected (n,) or (n, channels)"
        )
    if values.shape[0] != a_vec.size:
        raise InvalidArgument(
            f"{where}: a has length {a_vec.size} and v has shape {values.shape}; "
            "expected len(a) == len(v) (one score per lag 0 .. n-1)"
        )
    squeeze = values.ndim == 1
    return a_vec, values.reshape(-1, 1) if squeeze else values, squeeze


def _finite_array(value: Any, name: str, where: str) -> np.ndarray:
    """A float64 array of finite real numbers, or :class:`InvalidArgument`."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise InvalidArgument(f"{where}: {name} could not be read as an array ({exc})") from None
    if not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_) or np.iscomplexobj(arr):
        raise InvalidArgument(
            f"{where}: {name} has dtype {arr.dtype}; expected real numbers"
        )
    arr = arr.astype(np.float64)
    bad = ~np.isfinite(arr)
    if bad.any():
        index = ", ".join(str(int(x)) for x in np.argwhere(bad)[0])
        raise InvalidArgument(
            f"{where}: {name}[{index}] = {float(arr[tuple(np.argwhere(bad)[0])])!r}; "
            "expected finite values"
        )
    return arr


def _natural_array(value: Any, name: str) -> np.ndarray:
    """An int64 array of natural numbers, or :class:`InvalidArgument`."""
    arr = np.asarray(value)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise InvalidArgument(
            f"truncated_subtraction: {name} has dtype {arr.dtype}; expected natural numbers (ints)"
        )
    if (arr < 0).any():
        raise InvalidArgument(
            f"truncated_subtraction: {name} has a negative entry {int(arr.min())}; "
            "expected natural numbers"
        )
    return arr.astype(np.int64, copy=False)
