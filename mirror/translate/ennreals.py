"""``ℝ≥0∞`` (``ENNReal``) arithmetic, with ``⊤`` as sympy's ``oo``: truncated subtraction,
``0 * ⊤ = 0``, ``0⁻¹ = ⊤``, ``⊤.toReal = 0``.
"""

from __future__ import annotations

import sympy as sp


def _is_top(x) -> bool:
    return x is sp.oo


class ENNAdd(sp.Function):
    """``ℝ≥0∞`` sum: ``⊤ + a = ⊤`` (``top_add``)."""

    nargs = 2

    @classmethod
    def eval(cls, a, b):
        if _is_top(a) or _is_top(b):
            return sp.oo
        if a.is_finite and b.is_finite:
            return a + b
        return None


class ENNSub(sp.Function):
    """``ℝ≥0∞`` subtraction, truncated: ``a - b = 0`` for ``a ≤ b``, ``⊤ - b = ⊤`` for
    ``b ≠ ⊤`` and ``⊤ - ⊤ = 0`` (``ENNReal.top_sub_top``… via ``tsub_self``)."""

    nargs = 2

    @classmethod
    def eval(cls, a, b):
        if _is_top(b):
            return sp.Integer(0)
        if _is_top(a) and b.is_finite:
            return sp.oo
        if b.is_zero:
            return a
        if a.is_finite and b.is_finite:
            return sp.Max(a - b, 0)
        return None


class ENNMul(sp.Function):
    """``ℝ≥0∞`` product: ``0 * ⊤ = 0`` (``zero_mul``), ``a * ⊤ = ⊤`` for ``a ≠ 0``
    (``ENNReal.mul_top``)."""

    nargs = 2

    @classmethod
    def eval(cls, a, b):
        if a.is_zero or b.is_zero:
            return sp.Integer(0)
        if _is_top(a) or _is_top(b):
            other = b if _is_top(a) else a
            if other.is_zero is False:
                return sp.oo
            return None
        if a.is_finite and b.is_finite:
            return a * b
        return None


class ENNInv(sp.Function):
    """``ℝ≥0∞`` inverse: ``0⁻¹ = ⊤`` (``ENNReal.inv_zero``), ``⊤⁻¹ = 0``
    (``ENNReal.inv_top``); ``a / b = a * b⁻¹`` (``ENNReal.div_zero``: ``a / 0 = ⊤`` for
    ``a ≠ 0``)."""

    nargs = 1

    @classmethod
    def eval(cls, a):
        if a.is_zero:
            return sp.oo
        if _is_top(a):
            return sp.Integer(0)
        if a.is_finite and a.is_zero is False:
            return 1 / a
        return None


class ENNToReal(sp.Function):
    """``ENNReal.toReal``: ``⊤.toReal = 0`` (``ENNReal.top_toReal``)."""

    nargs = 1

    @classmethod
    def eval(cls, a):
        if _is_top(a):
            return sp.Integer(0)
        if a.is_finite:
            return a
        return None
