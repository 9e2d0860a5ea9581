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
            lanes = _overflowed_lanes(k, exact, top)
            if lanes is None:
                return math.inf, math.inf, (f"returned {k} where Lean's value is "
                                            f"{_CTX.nstr(exact, 17)}")
            modulus = _CTX.mpf(top)  # of a value beyond the range: the largest ulp
            k, exact = lanes
            if k == exact:
                continue
        else:
            modulus = abs(exact)
        diff = abs((_CTX.mpc(k) if isinstance(k, complex) else _CTX.mpf(k)) - exact)
        # a complex value: the error's modulus in ulps of the value's modulus
        size = modulus if scale is None else scale
        ulps = float(diff / ulp(size, dtype))
        rel = 0.0 if diff == 0 else (math.inf if size == 0 else float(diff / size))
        if ulps > worst_ulps:
            worst_ulps = ulps
            reason = f"returned {k!r} where Lean's value is {_CTX.nstr(exact, 17)}"
        worst_rel = max(worst_rel, rel)
    return worst_ulps, worst_rel, reason


def _overflowed_lanes(k: float | complex, exact: Any, top: float):
    """A kernel value with an infinite lane, where IEEE round-to-nearest gives that ``±inf``:
    every infinite lane (real, or real/imaginary part) equals the sign of a Lean lane whose
    magnitude exceeds the dtype's largest finite number (``±inf`` is then that lane's correct
    rounding). The pair ``(k, exact)`` to measure then has those lanes zeroed in both, so
    the finite lane's error is measured in ulps of the largest finite number (the ulp of a
    modulus beyond the range; ``None``: a NaN, an infinity where Lean's lane is in range, or
    a wrong sign)."""
    value = _CTX.mpc(exact)
    got = complex(k)
    kept_k, kept_e = [], []
    for g, e in ((got.real, value.real), (got.imag, value.imag)):
        if math.isinf(g):
            if not (abs(e) > top and (g > 0) == (e > 0)):
                return None
            kept_k.append(0.0)
            kept_e.append(_CTX.mpf(0))
        elif math.isnan(g):
            return None
        else:
            kept_k.append(g)
            kept_e.append(e)
    if not isinstance(k, complex):
        return kept_k[0], kept_e[0]
    return complex(*kept_k), _CTX.mpc(*kept_e)


__all__ = ["CTX", "errors", "norm_scale", "radius", "to_mpf", "ulp"]
