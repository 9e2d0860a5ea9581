"""Matrix and vector nodes (``Matrix (Fin m) (Fin n) ℝ``, ``Fin n → ℝ``): their values are
arrays, so these nodes are opaque to sympy's algebra and computed by the runtime.
"""

from __future__ import annotations

import sympy as sp
from sympy.logic.boolalg import BooleanFunction


class LMatMul(sp.Function):
    """Matrix product (``*`` on ``Matrix``)."""

    nargs = 2


class LMatAdd(sp.Function):
    """Matrix sum."""

    nargs = 2


class LMatSub(sp.Function):
    """Matrix difference."""

    nargs = 2


class LMatNeg(sp.Function):
    """Matrix negation."""

    nargs = 1


class LMatSMul(sp.Function):
    """Scalar multiple ``c • A``."""

    nargs = 2


class LMatInv(sp.Function):
    """``A⁻¹`` as Lean's ``Matrix.inv``: the zero matrix when ``A`` is singular."""

    nargs = 1


class LMatPow(sp.Function):
    """``A ^ k`` for ``k : ℕ`` (``A ^ 0 = 1``)."""

    nargs = 2


class LMatOne(sp.Function):
    """The identity matrix of size ``n`` (``1 : Matrix (Fin n) (Fin n) R``)."""

    nargs = 1


class LMatZero(sp.Function):
    """The zero matrix of shape ``(m, n)``."""

    nargs = 2


class LMatTranspose(sp.Function):
    """``Aᵀ``."""

    nargs = 1


class LMatDet(sp.Function):
    """``Matrix.det A``."""

    nargs = 1


class VecMulVec(sp.Function):
    """``Matrix.vecMulVec u v`` (outer product)."""

    nargs = 2


class MulVec(sp.Function):
    """``Matrix.mulVec A v`` (``A *ᵥ v``)."""

    nargs = 2


class ArrayEq(BooleanFunction):
    """Equality of two array-valued terms (matrices, vectors, functions on ``Fin n``)."""

    nargs = 2


class PosDef(BooleanFunction):
    """``Matrix.PosDef A``: ``A`` is symmetric and ``0 < xᵀ A x`` for every ``x ≠ 0``
    (evaluated as: symmetric, and every eigenvalue positive — the same statement for real
    matrices)."""

    nargs = 1


class SupNorm(sp.Function):
    """``‖v‖`` of a ``Fin n → ℝ`` vector: Mathlib's sup norm on ``Pi`` types."""

    nargs = 2  # (Lambda(i, |v i|), n)
