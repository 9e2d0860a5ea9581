"""Balls and exact numbers: the scalar helpers of the ball runtime
(:mod:`mirror.evaluate.ball_runtime`) and of its junk-value functions.

A number is an ``int``, a ``flint.fmpq`` (exact) or an ``arb``/``acb`` ball (python-flint,
Arb's ball arithmetic) that contains the mathematical value. Signs and equalities are
*decided* here only when the enclosure decides them; ``None`` means undecided.
"""

from __future__ import annotations

import contextlib
from fractions import Fraction
from typing import Any, Callable, Iterator

import numpy as np
from flint import acb, arb, ctx, fmpq, fmpz

#: Exact scalar types of this runtime.
EXACT = (int, np.integer, fmpz, fmpq)


@contextlib.contextmanager
def working_precision(bits: int) -> Iterator[None]:
    """flint's working precision set to ``bits`` for the block, restored afterwards."""
    previous = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = previous


#: The shapes of one number of a batch of one (a scalar, one cell).
ONE_DRAW = ((), (1,))


def each(fn: Callable, *xs: Any) -> Any:
    """``np.frompyfunc(fn, len(xs), 1)`` applied to ``xs`` as object arrays: ``fn`` on every
    broadcast element. One draw (every operand a scalar or one cell, the ball runtime's case)
    takes no ufunc: the same result, a scalar for scalars, else one cell."""
    if len(xs) == 1:  # a unary function: the most frequent call, without the generality
        arr = np.asarray(xs[0], dtype=object)
        if arr.shape == (1,):
            out = np.empty(1, dtype=object)
            out[0] = fn(arr[0])
            return out
        if not arr.ndim:
            return fn(arr[()])
        return np.frompyfunc(fn, 1, 1)(arr)
    arrays = [np.asarray(x, dtype=object) for x in xs]
    if all(a.shape in ONE_DRAW for a in arrays):
        value = fn(*(a.reshape(-1)[0] for a in arrays))
        if not any(a.ndim for a in arrays):
            return value
        out = np.empty(1, dtype=object)
        out[0] = value
        return out
    return np.frompyfunc(fn, len(arrays), 1)(*arrays)


def is_exact(value: Any) -> bool:
    """Is ``value`` an exact number of this runtime (an integer or an ``fmpq``)?"""
    kind = type(value)  # the common types first, without the isinstance chain
    if kind is fmpq or kind is int:
        return True
    if kind is arb or kind is acb:
        return False
    return isinstance(value, EXACT) and not isinstance(value, (bool, np.bool_))


def exact_value(value: Any) -> Any:
    """An exact number as ``int`` or ``fmpq`` (numpy integers and ``Fraction`` converted)."""
    kind = type(value)
    if kind is fmpq or kind is int or kind is arb or kind is acb:
        return value
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, np.integer, fmpz)):
        return int(value)
    if isinstance(value, Fraction):
        return fmpq(value.numerator, value.denominator)
    return value


def ball(value: Any) -> arb | acb:
    """A ball containing ``value`` (exact numbers are rounded outward at the working
    precision; ``fmpq`` converts to ``arb`` rigorously)."""
    kind = type(value)
    if kind is arb or kind is acb:
        return value
    if kind is fmpq or kind is int:
        return arb(value)
    if isinstance(value, (arb, acb)):
        return value
    if isinstance(value, (complex, np.complexfloating)):
        return acb(complex(value))
    if isinstance(value, fmpq):
        return arb(value)
    if isinstance(value, (int, np.integer, fmpz)):
        return arb(int(value))
    if isinstance(value, Fraction):
        return arb(fmpq(value.numerator, value.denominator))
    if isinstance(value, (float, np.floating)):
        return arb(float(value))
    raise TypeError(f"ball: cannot enclose a {type(value).__name__} rigorously")


def is_top(value: Any) -> bool:
    """``⊤`` of ``ℝ≥0∞`` (a ball at +∞)."""
    return isinstance(value, arb) and not value.is_finite() and value > 0


def sign_of(value: Any) -> int | None:
    """The sign of ``value`` (-1, 0, 1) when decided, else ``None``."""
    if is_exact(value):
        return (value > 0) - (value < 0)
    if isinstance(value, acb):
        if value.is_zero():
            return 0
        if not value.imag.contains(0):
            return None  # a non-real number has no sign; callers only ask of reals
        value = value.real if value.imag.is_zero() else None
        if value is None:
            return None
    if value.is_zero():
        return 0
    if value > 0:
        return 1
    if value < 0:
        return -1
    return None


def difference_sign(a: Any, b: Any) -> int | None:
    """The decided sign of ``a − b``: exactly for exact operands, by the enclosure otherwise
    (``0`` only when the difference is exactly zero)."""
    if is_exact(a) and is_exact(b):
        return sign_of(exact_value(a) - exact_value(b))
    if is_top(a) or is_top(b):
        if is_top(a) and is_top(b):
            return 0
        return 1 if is_top(a) else -1
    return sign_of(ball(a) - ball(b))


def decided_equal(a: Any, b: Any) -> bool | None:
    """``a = b`` decided: ``True`` only exactly, ``False`` when the difference excludes 0."""
    if is_exact(a) and is_exact(b):
        return exact_value(a) == exact_value(b)
    if is_top(a) or is_top(b):
        return is_top(a) and is_top(b)
    d = ball(a) - ball(b)
    if d.is_zero():
        return True
    if isinstance(d, acb):
        return False if not d.contains(0) else None
    return False if not d.contains(0) else None


def enclosure(value: Any) -> dict[str, str]:
    """``{"mid": …, "rad": …}`` of a number as exact rational strings."""
    if is_exact(value):
        value = exact_value(value)
        return {"mid": str(value), "rad": "0"}
    if isinstance(value, acb):
        real, imag = enclosure(value.real), enclosure(value.imag)
        return {"mid": real["mid"], "rad": real["rad"], "imag_mid": imag["mid"],
                "imag_rad": imag["rad"]}
    if not value.is_finite():
        return {"mid": "inf" if value > 0 else "nan", "rad": "0" if value > 0 else "inf"}
    return {"mid": _dyadic(value.mid()), "rad": _dyadic(value.rad())}


#: Beyond this binary exponent a dyadic number is written ``m*2^e`` (still exact): its
#: rational form would have more digits than is reasonable to build.
DYADIC_EXPONENT_LIMIT = 4096


def _dyadic(value: arb) -> str:
    """``m * 2^e`` (an exact arb) as ``str`` of the rational in lowest terms (``p`` or
    ``p/q``, the sign on ``p``), by shifts rather than rational arithmetic."""
    mantissa, exponent = value.man_exp()
    mantissa, exponent = int(mantissa), int(exponent)
    if abs(exponent) > DYADIC_EXPONENT_LIMIT:
        return f"{mantissa}*2^{exponent}"
    if exponent >= 0 or mantissa == 0:
        return str(mantissa << exponent if exponent >= 0 else 0)
    # cancel the powers of 2 the mantissa shares with the denominator 2^-exponent
    shift = min((mantissa & -mantissa).bit_length() - 1, -exponent)
    mantissa, exponent = mantissa >> shift, exponent + shift
    return str(mantissa) if exponent == 0 else f"{mantissa}/{1 << -exponent}"


__all__ = ["EXACT", "ONE_DRAW", "ball", "each", "decided_equal", "difference_sign", "enclosure", "exact_value",
           "is_exact", "is_top", "sign_of", "working_precision"]
