"""Real functions with Lean's junk values: ``x / 0 = 0``, ``Real.log 0 = 0`` and
``log x = log |x|``, ``Real.sqrt`` of a negative is ``0``, ``Real.rpow`` on negative bases,
``tan``/``cot`` through ``Complex`` division, the clamped ``arcsin``; and the interval integral.

``eval`` folds a node to ordinary sympy once the arguments settle the junk case.
"""

from __future__ import annotations

from typing import Callable

import sympy as sp


def known_nonzero(expr: sp.Basic) -> bool:
    """Does sympy know ``expr`` is a non-zero number? ``is_zero is False`` alone is not enough:
    sympy also says it of what it does not take for a number at all (an opaque function of a
    ``Lambda``, say), where every numeric assumption comes out ``False``."""
    return expr.is_zero is False and expr.is_complex is True


class LeanDiv(sp.Function):
    """Division in a field (ℝ, ℂ): ``x / 0 = 0``."""

    nargs = 2

    @classmethod
    def eval(cls, a, b):
        if b.is_zero:
            return sp.Integer(0)
        if known_nonzero(b):
            return a / b
        return None


class _BySign(sp.Function):
    """A function of one real defined by cases on its argument: ``_cases`` pairs a sympy
    assumption (``"zero"``, ``"positive"``…) with the value where it holds; the first case
    known to hold is taken, and the node stays unevaluated when none is known."""

    nargs = 1
    _cases: tuple[tuple[str, Callable[[sp.Basic], sp.Basic]], ...]

    @classmethod
    def eval(cls, x):
        for assumption, value in cls._cases:
            if getattr(x, f"is_{assumption}"):
                return value(x)
        return None


def _zero(_: sp.Basic) -> sp.Basic:
    return sp.Integer(0)


class LeanLog(_BySign):
    """``Real.log``: ``log 0 = 0`` and ``log x = log |x|``."""

    _cases = (("zero", _zero), ("positive", sp.log), ("negative", lambda x: sp.log(-x)))


class LeanSqrt(_BySign):
    """``Real.sqrt``: ``sqrt x = 0`` for ``x < 0``."""

    _cases = (("nonnegative", sp.sqrt), ("negative", _zero))


class LeanRpow(sp.Function):
    """``Real.rpow x y``: ``exp (log x * y)`` for ``x > 0``; ``0 ^ 0 = 1``, ``0 ^ y = 0``;
    ``x < 0``: ``exp (log |x| * y) * cos (y * π)``."""

    nargs = 2

    @classmethod
    def eval(cls, x, y):
        if y.is_zero:
            return sp.Integer(1)
        if x.is_positive:
            return sp.Pow(x, y)
        if x.is_zero and y.is_zero is False:
            return sp.Integer(0)
        if x.is_negative:
            return sp.exp(sp.log(-x) * y) * sp.cos(y * sp.pi)
        return None


class _TrigRatio(sp.Function):
    """``num x / den x`` through ``Complex`` division: ``0`` where ``den x = 0``; sympy's own
    function (``_folded``) once ``den x ≠ 0`` is known for a number."""

    nargs = 1
    _den: Callable[[sp.Basic], sp.Basic]
    _folded: Callable[[sp.Basic], sp.Basic]

    @classmethod
    def eval(cls, x):
        d = cls._den(x)
        if d.is_zero:
            return sp.Integer(0)
        if d.is_zero is False and x.is_number:
            return cls._folded(x)
        return None


class LeanTan(_TrigRatio):
    """``Real.tan x = sin x / cos x`` (through ``Complex.tan``), so ``tan x = 0`` where
    ``cos x = 0`` (``Real.tan_pi_div_two``)."""

    _den = staticmethod(sp.cos)
    _folded = staticmethod(sp.tan)


class LeanCot(_TrigRatio):
    """``Real.cot x = cos x / sin x``: ``cot x = 0`` where ``sin x = 0`` (``Real.cot_zero``)."""

    _den = staticmethod(sp.sin)
    _folded = staticmethod(sp.cot)


class LeanArcsin(sp.Function):
    """``Real.arcsin``, clamped: ``π / 2`` for ``1 ≤ x`` (``Real.arcsin_of_one_le``) and
    ``-(π / 2)`` for ``x ≤ -1`` (``Real.arcsin_of_le_neg_one``)."""

    nargs = 1

    @classmethod
    def eval(cls, x):
        if (x - 1).is_nonnegative:
            return sp.pi / 2
        if (x + 1).is_nonpositive:
            return -sp.pi / 2
        if (x - 1).is_negative and (x + 1).is_positive and x.is_number:
            return sp.asin(x)
        return None


class LeanIntegral(sp.Function):
    """``∫ s in lo..hi, body s`` over an interval of ℝ (``lo``/``hi`` may be ``∓oo``).

    Evaluated numerically. Lean's junk value for a non-integrable function (the Bochner
    integral is ``0``) is not detected: the translation assumes integrability.
    """

    nargs = 3
