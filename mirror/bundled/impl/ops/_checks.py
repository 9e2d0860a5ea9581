"""Private argument checks shared by the NumPy Op Spec kernels.

Every kernel converts its inputs through :func:`_array` and checks shapes with
:func:`_check_shape`, so bad input raises :class:`bridge.errors.InvalidArgument` naming the
argument, the value (or shape) that came and what was expected.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from bridge.errors import InvalidArgument

_FLOAT_DTYPES = (np.dtype(np.float64), np.dtype(np.float32))


def _dtype(dtype: Any) -> np.dtype:
    """The computation dtype: float64 unless float32 is requested."""
    if dtype is None:
        return np.dtype(np.float64)
    try:
        resolved = np.dtype(dtype)
    except TypeError as exc:
        raise InvalidArgument(
            f"argument 'dtype' is {dtype!r}; expected numpy.float64 or numpy.float32"
        ) from exc
    if resolved not in _FLOAT_DTYPES:
        raise InvalidArgument(
            f"argument 'dtype' is {resolved}; expected numpy.float64 or numpy.float32"
        )
    return resolved


def _array(name: str, value: Any, dtype: np.dtype, min_ndim: int = 0) -> np.ndarray:
    """``value`` as a finite-typed float array of ``dtype`` with at least ``min_ndim`` axes."""
    try:
        arr = np.asarray(value)
    except Exception as exc:  # ragged lists and similar
        raise InvalidArgument(
            f"argument {name!r} could not be read as an array ({exc}); expected a numeric array"
        ) from exc
    return _checked(name, arr, "biuf", "a real numeric array", min_ndim).astype(dtype, copy=False)


def _int_array(name: str, value: Any, min_ndim: int = 0) -> np.ndarray:
    """``value`` as an integer array (positions, token ids, indices)."""
    arr = np.asarray(value)
    if arr.dtype.kind == "f" and arr.size and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
        arr = arr.astype(np.int64)
    return _checked(name, arr, "biu", "an integer array", min_ndim).astype(np.int64, copy=False)


def _checked(name: str, arr: np.ndarray, kinds: str, expected: str, min_ndim: int) -> np.ndarray:
    """``arr`` once its dtype kind is one of ``kinds`` and it has at least ``min_ndim`` axes."""
    if arr.dtype.kind not in kinds:
        raise InvalidArgument(f"argument {name!r} has dtype {arr.dtype}; expected {expected}")
    if arr.ndim < min_ndim:
        raise InvalidArgument(
            f"argument {name!r} has shape {arr.shape}; expected at least {min_ndim} axes"
        )
    return arr


def _scalar(name: str, value: Any) -> float:
    """``value`` as a Python float (a real scalar)."""
    arr = np.asarray(value)
    if arr.ndim != 0 or arr.dtype.kind not in "biuf":
        raise InvalidArgument(f"argument {name!r} is {value!r}; expected a real scalar")
    return float(arr)


def _per_row(name: str, value: Any, arr: np.ndarray) -> float | np.ndarray:
    """A real scalar, or one per leading index of ``arr`` (shape ``arr.shape[:k]``: one per
    batch row), shaped to broadcast against ``arr``."""
    v = np.asarray(value)
    if v.ndim == 0:
        return _scalar(name, value)
    if v.dtype.kind not in "biuf" or v.shape != arr.shape[:v.ndim]:
        raise InvalidArgument(
            f"argument {name!r} has shape {v.shape}; expected a real scalar or one per leading "
            f"index, a shape that prefixes {arr.shape}")
    return v.astype(np.float64).reshape(v.shape + (1,) * (arr.ndim - v.ndim))


def _natural(name: str, value: Any, minimum: int = 0) -> int:
    """``value`` as a Python int at least ``minimum``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidArgument(f"argument {name!r} is {value!r}; expected an integer >= {minimum}")
    if value < minimum:
        raise InvalidArgument(f"argument {name!r} is {value}; expected an integer >= {minimum}")
    return int(value)


def _check_shape(name: str, arr: np.ndarray, expected: Sequence[int | None], meaning: str) -> None:
    """Check the trailing axes of ``arr`` against ``expected`` (``None`` is any size)."""
    tail = arr.shape[arr.ndim - len(expected):] if arr.ndim >= len(expected) else None
    ok = tail is not None and all(e is None or e == t for e, t in zip(expected, tail))
    if not ok:
        shown = tuple("*" if e is None else e for e in expected)
        raise InvalidArgument(
            f"argument {name!r} has shape {arr.shape}; expected trailing shape {meaning} = {shown}"
        )


def _broadcast_batch(names: Sequence[str], shapes: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """The broadcast of leading batch shapes, or an error naming the arguments."""
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError as exc:
        listed = ", ".join(f"{n}: {s}" for n, s in zip(names, shapes))
        raise InvalidArgument(
            f"leading batch axes do not broadcast ({listed}); expected broadcastable batch shapes"
        ) from exc
