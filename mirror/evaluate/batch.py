"""What every batched runtime shares: the out-of-domain error, the bound on ranges, the keys
that memoize evaluations, the table of one-argument functions and exact wrapping.

The lowest module of :mod:`mirror.evaluate` besides :mod:`mirror.evaluate.truth`: the NumPy
runtime, the exact runtime and the recursion evaluator all build on it, so none of them needs
another's module for these names.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any, Callable

import mpmath
import numpy as np

from bridge.errors import LeanMirrorError

#: Sums and quantifiers over more indices than this are refused (the draw is out of domain).
MAX_RANGE = 1 << 16


class OutOfDomain(LeanMirrorError, IndexError):
    """A whole evaluation left the sampled domain."""


def _de_substitution(u: float, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(s, ds/du)`` of the double-exponential map from ``u ∈ ℝ`` onto ``(lo, hi)``."""
    lower, upper = np.isfinite(lo), np.isfinite(hi)
    inner = np.pi / 2 * np.sinh(u)
    douter = np.pi / 2 * np.cosh(u)
    lo0, hi0 = np.where(lower, lo, 0.0), np.where(upper, hi, 0.0)
    grow = np.exp(inner)
    s = np.where(lower & upper, (hi0 + lo0) / 2 + (hi0 - lo0) / 2 * np.tanh(inner),
                 np.where(lower, lo0 + grow,
                          np.where(upper, hi0 - 1 / grow, np.sinh(inner))))
    ds = np.where(lower & upper, (hi0 - lo0) / 2 / np.cosh(inner) ** 2 * douter,
                  np.where(lower, grow * douter,
                           np.where(upper, douter / grow, np.cosh(inner) * douter)))
    return s, ds


def _value_key(value: Any) -> Any:
    """A hashable key equal for equal values (``None`` when there is none): arrays by dtype,
    shape and contents, numbers by type and value."""
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            try:
                return ("o", value.shape, tuple(map(_value_key, value.reshape(-1).tolist())))
            except TypeError:
                return None
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (int, float, complex, np.integer, np.floating, np.complexfloating)):
        return (type(value), value)
    return None


def _closure_key(fn: Callable) -> tuple | None:
    """``fn``'s code and captured values: numbers by value, other objects by identity (the
    memo that uses it keeps them alive, so an identity is not reused)."""
    cells = []
    for cell in fn.__closure__ or ():
        try:
            value = cell.cell_contents
        except ValueError:
            return None
        key = _value_key(value) if not isinstance(value, np.ndarray) else None
        cells.append(key if key is not None else ("id", id(value)))
    return (fn.__code__, tuple(cells))


#: Functions of one number: runtime method → (NumPy ufunc, mpmath function). Each runtime
#: makes its methods from this one table (:func:`install_unary`).
UNARY_FUNCTIONS: dict[str, tuple[str, str]] = {
    "exp": ("exp", "exp"), "sin": ("sin", "sin"), "cos": ("cos", "cos"), "tan": ("tan", "tan"),
    "tanh": ("tanh", "tanh"), "sinh": ("sinh", "sinh"), "cosh": ("cosh", "cosh"),
    "arctan": ("arctan", "atan"), "log_pos": ("log", "log"), "sqrt_pos": ("sqrt", "sqrt"),
}


def install_unary(cls: type, make: Callable[[str, str, str], Callable]) -> None:
    """Give ``cls`` one method per :data:`UNARY_FUNCTIONS` entry: ``make(method name, NumPy
    name, mpmath name)``."""
    for name, (numpy_name, mpmath_name) in UNARY_FUNCTIONS.items():
        method = make(name, numpy_name, mpmath_name)
        method.__name__ = method.__qualname__ = name
        setattr(cls, name, method)


def _numpy_unary(name: str, numpy_name: str, mpmath_name: str) -> Callable:
    function = getattr(np, numpy_name)
    return lambda self, x: function(x)


@functools.lru_cache(maxsize=64)
def _everyone(batch: int) -> np.ndarray:
    """The mask of every draw of a batch, read-only (the base of a runtime's mask stack)."""
    mask = np.ones(batch, dtype=bool)
    mask.setflags(write=False)
    return mask


def _wrap_exactly(value, n) -> int:
    """``value mod n`` on an exact integer (a Python int, an integral Fraction or mpf)."""
    n = int(n) or 1
    if isinstance(value, Fraction):
        value = value.numerator // value.denominator
    elif not isinstance(value, (int, np.integer)):
        value = int(mpmath.nint(value))
    return int(value) % n
