"""Ulps: errors of a kernel's values against Lean's, in the units of a dtype.

Lean's values arrive as exact numbers (``int``, ``Fraction``, ``fmpq``) or balls (``arb``,
``acb``: their midpoints are used, their radii checked by the caller); the kernel's as floats.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from mirror.sample.wide import dtype_range

#: The context every measurement is made in (60 digits: far below any dtype's ulp).
CTX = mpmath.mp.clone()
CTX.dps = 60
_CTX = CTX


def to_mpf(value: Any) -> mpmath.mpf:
    """A recorded value (Fraction, int, mpf, float, or a ball with a midpoint) as an mpf."""
    if isinstance(value, Fraction):
        return _CTX.mpf(value.numerator) / value.denominator
    if isinstance(value, (bool, int, np.integer, np.bool_)):
        return _CTX.mpf(int(value))
    if isinstance(value, complex | np.complexfloating) or type(value).__name__ == "mpc":
        return _CTX.mpc(value) if value.imag != 0 else _CTX.mpf(value.real)
    kind = type(value).__name__
    if kind == "fmpq":
        return _CTX.mpf(int(value.p)) / int(value.q)
    if kind == "fmpz":
        return _CTX.mpf(int(value))
    if kind == "acb":
        re, im = to_mpf(value.real), to_mpf(value.imag)
        return _CTX.mpc(re, im) if im != 0 else re
    if kind == "arb":
        if not value.is_finite():
            return _CTX.inf
        mantissa, exponent = value.mid().man_exp()
        return _CTX.ldexp(_CTX.mpf(int(mantissa)), int(exponent))
    return _CTX.mpf(value)


def radius(value: Any) -> mpmath.mpf:
    """The radius of a ball (0 for an exact number)."""
    kind = type(value).__name__
    if kind == "acb":
        return radius(value.real) + radius(value.imag)
    if kind == "arb":
        return to_mpf(value.rad())
    return _CTX.mpf(0)


def ulp(value: mpmath.mpf, dtype: str) -> mpmath.mpf:
    """The spacing of ``dtype`` at ``|value|`` (the smallest subnormal's at 0)."""
    r = dtype_range(dtype)
    digits = -int(round(math.log2(r["eps"])))
    min_exp = int(round(math.log2(r["normal"])))
    max_exp = int(math.floor(math.log2(r["max"])))
    if value == 0:
        exponent = min_exp
    else:
        exponent = int(_CTX.floor(_CTX.log(abs(value), 2)))
        exponent = min(max(exponent, min_exp), max_exp)
    return _CTX.ldexp(_CTX.mpf(1), exponent - digits)


def norm_scale(lean: list, measure: str) -> mpmath.mpf | None:
    """What each error is measured against: ``None`` (entrywise: each entry's own value) or,
    normwise, the largest magnitude of Lean's value."""
    if measure != "normwise":
        return None
    return max((abs(v) for v in lean), default=_CTX.mpf(0))


def errors(kernel: np.ndarray, lean: list, dtype: str,
           scale: mpmath.mpf | None = None) -> tuple[float, float, str]:
    """``(ulps, rel, reason)`` of the kernel's values against Lean's (the worst entry), in
    ulps of each entry's value, or of ``scale`` (normwise, :func:`norm_scale`) when given."""
    top = dtype_range(dtype)["max"]
    worst_ulps, worst_rel, reason = 0.0, 0.0, ""
    for k, exact in zip(kernel.reshape(-1), lean):
        k = complex(k) if np.iscomplexobj(k) and complex(k).imag != 0 else float(np.real(k))
        if not (math.isfinite(abs(k)) if isinstance(k, complex) else math.isfinite(k)):
            if (not isinstance(k, complex) and abs(exact) > top and math.isinf(k)
                    and (k > 0) == (exact > 0)):
                continue  # beyond the dtype's range: overflow is the correct rounding
            return math.inf, math.inf, (f"returned {k} where Lean's value is "
                                        f"{_CTX.nstr(exact, 17)}")
        diff = abs((_CTX.mpc(k) if isinstance(k, complex) else _CTX.mpf(k)) - exact)
        # a complex value: the error's modulus in ulps of the value's modulus
        size = abs(exact) if scale is None else scale
        ulps = float(diff / ulp(size, dtype))
        rel = 0.0 if diff == 0 else (math.inf if size == 0 else float(diff / size))
        if ulps > worst_ulps:
            worst_ulps = ulps
            reason = f"returned {k!r} where Lean's value is {_CTX.nstr(exact, 17)}"
        worst_rel = max(worst_rel, rel)
    return worst_ulps, worst_rel, reason


__all__ = ["CTX", "errors", "norm_scale", "radius", "to_mpf", "ulp"]
