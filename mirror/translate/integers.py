"""ℕ and ℤ functions with Lean's junk values: ``n / 0 = 0``, ``n % 0 = n``, truncated ℕ
subtraction, ``Nat.sqrt``/``Nat.log``/``Nat.choose``…, the ``Int`` rounding variants and
``Fin n`` wrap-around. Each folds to an exact integer when its arguments are numerals.
"""

from __future__ import annotations

import math
from typing import Callable

import sympy as sp


def nat_log(b: int, n: int) -> int:
    """``Nat.log b n`` on Python integers."""
    if b <= 1:
        return 0
    k = 0
    while n >= b:
        n //= b
        k += 1
    return k


def int_tdiv(a: int, b: int) -> int:
    """``Int.tdiv``: rounds toward zero; ``Int.tdiv_zero``: ``a.tdiv 0 = 0``."""
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def int_fdiv(a: int, b: int) -> int:
    """``Int.fdiv``: rounds toward −∞; ``Int.fdiv_zero``: ``a.fdiv 0 = 0``."""
    return 0 if b == 0 else a // b


def int_ediv(a: int, b: int) -> int:
    """``Int.ediv`` (Lean 4 core's ``/`` on ``ℤ``): Euclidean, the remainder is ``≥ 0``."""
    if b == 0:
        return 0
    q = a // abs(b)
    return q if b > 0 else -q


def int_emod(a: int, b: int) -> int:
    """``Int.emod``: ``a - b * a.ediv b``, in ``[0, |b|)``; ``Int.emod_zero``: ``a % 0 = a``."""
    return a if b == 0 else a % abs(b)


def _int_args(*xs) -> bool:
    return all(isinstance(x, sp.Integer) for x in xs)


def _zero(_: sp.Basic) -> sp.Basic:
    return sp.Integer(0)


def _same(a: sp.Basic) -> sp.Basic:
    return a


class _IntBinary(sp.Function):
    """A function of two integers, computed exactly on numerals (``_exact``, ``None`` where it
    stays unevaluated); ``_on_zero`` is its value when the second argument is known to be
    ``0`` (a function of the first)."""

    nargs = 2
    is_integer = True
    _exact: Callable[[int, int], int | None]
    _on_zero: Callable[[sp.Basic], sp.Basic] | None = None

    @classmethod
    def eval(cls, a, b):
        if cls._on_zero is not None and b.is_zero:
            return cls._on_zero(a)
        if _int_args(a, b):
            value = cls._exact(int(a), int(b))
            return None if value is None else sp.Integer(value)
        return None


class NatDiv(_IntBinary):
    """``ℕ`` division: floor, ``n / 0 = 0``."""

    is_nonnegative = True  # so a power with it as exponent is a monoid power
    _exact = staticmethod(lambda a, b: a // b)
    _on_zero = staticmethod(_zero)


class IntDiv(_IntBinary):
    """``ℤ`` division as in Lean 4 core (``Int.div`` is Euclidean: ``Int.ediv``), ``x / 0 = 0``."""

    _exact = staticmethod(int_ediv)
    _on_zero = staticmethod(_zero)


class NatMod(_IntBinary):
    """``ℕ``/``ℤ`` remainder as Lean defines it: ``n % 0 = n``; Euclidean for ℤ."""

    is_nonnegative = True
    _exact = staticmethod(int_emod)
    _on_zero = staticmethod(_same)


class NatSub(sp.Function):
    """``ℕ`` subtraction, truncated at zero: ``2 - 5 = 0``."""

    nargs = 2
    is_integer = is_nonnegative = True

    @classmethod
    def eval(cls, a, b):
        if b.is_zero:
            return a
        diff = a - b
        if diff.is_nonnegative:
            return diff
        if diff.is_negative:
            return sp.Integer(0)
        return None


class RatNum(sp.Function):
    """``Rat.num q``: the numerator of ``q`` in lowest terms (``Rat.reduced``), signed."""

    nargs = 1
    is_integer = True

    @classmethod
    def eval(cls, q):
        return sp.Integer(q.p) if isinstance(q, sp.Rational) else None


class RatDen(sp.Function):
    """``Rat.den q``: the positive denominator of ``q`` in lowest terms (``Rat.den_pos``,
    ``Rat.den_intCast``: an integer's is ``1``)."""

    nargs = 1
    is_integer = is_positive = True

    @classmethod
    def eval(cls, q):
        return sp.Integer(q.q) if isinstance(q, sp.Rational) else None


class NatSqrt(sp.Function):
    """``Nat.sqrt n``: the largest ``r`` with ``r * r ≤ n``."""

    nargs = 1
    is_integer = is_nonnegative = True

    @classmethod
    def eval(cls, n):
        if _int_args(n) and int(n) >= 0:
            return sp.Integer(math.isqrt(int(n)))
        return None


class NatLog(_IntBinary):
    """``Nat.log b n``: the largest ``k`` with ``b ^ k ≤ n``; ``0`` when ``n < b``
    (``Nat.log_of_lt``), when ``b ≤ 1`` (``Nat.log_of_left_le_one``) and when ``n = 0``
    (``Nat.log_zero_right``)."""

    _exact = staticmethod(nat_log)
    _on_zero = staticmethod(_zero)


class NatChoose(_IntBinary):
    """``Nat.choose n k``: ``0`` when ``n < k`` (``Nat.choose_eq_zero_of_lt``);
    ``Nat.choose_zero_right``: ``n.choose 0 = 1``."""

    _exact = staticmethod(math.comb)
    _on_zero = staticmethod(lambda n: sp.Integer(1))


class NatGcd(_IntBinary):
    """``Nat.gcd`` (``Nat.gcd_zero_right``: ``gcd n 0 = n``)."""

    _exact = staticmethod(math.gcd)
    _on_zero = staticmethod(_same)


class NatLcm(_IntBinary):
    """``Nat.lcm`` (``Nat.lcm_zero_right``: ``lcm n 0 = 0``)."""

    _exact = staticmethod(math.lcm)
    _on_zero = staticmethod(_zero)


class IntTDiv(_IntBinary):
    """``Int.tdiv`` (T-rounding), ``x.tdiv 0 = 0``."""

    _exact = staticmethod(int_tdiv)
    _on_zero = staticmethod(_zero)


class IntFDiv(_IntBinary):
    """``Int.fdiv`` (floor rounding), ``x.fdiv 0 = 0``."""

    _exact = staticmethod(int_fdiv)
    _on_zero = staticmethod(_zero)


class IntTMod(_IntBinary):
    """``Int.tmod a b = a - b * a.tdiv b`` (sign of ``a``); ``Int.tmod_zero``: ``a.tmod 0 = a``."""

    _exact = staticmethod(lambda a, b: a - b * int_tdiv(a, b))
    _on_zero = staticmethod(_same)


class IntFMod(_IntBinary):
    """``Int.fmod a b = a - b * a.fdiv b`` (sign of ``b``); ``Int.fmod_zero``: ``a.fmod 0 = a``."""

    _exact = staticmethod(lambda a, b: a - b * int_fdiv(a, b))
    _on_zero = staticmethod(_same)


class FinWrap(_IntBinary):
    """``Fin n`` arithmetic wraps: ``FinWrap(x, n) = x mod n`` (``Fin 0`` has no elements)."""

    is_nonnegative = True
    _exact = staticmethod(lambda x, n: x % n if n > 0 else None)
