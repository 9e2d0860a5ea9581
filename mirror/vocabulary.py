"""The sympy vocabulary of Lean semantics.

Each class is a sympy function that keeps one piece of Lean's meaning exactly, including the
junk values (``x / 0 = 0``, truncated ℕ subtraction, ``Real.log 0 = 0``, ``Real.sqrt`` of a
negative is ``0``, Lean's ``Real.rpow`` on negative bases). ``eval`` folds a node to ordinary
sympy when the arguments settle the junk case (a divisor known to be non-zero, a ℕ difference
known to be non-negative…), so that sympy's algebra can work on what remains, and computes
exactly when the arguments are numbers.
"""

from __future__ import annotations

import sympy as sp
from sympy.logic.boolalg import Boolean, BooleanFunction

#: Finite sums and products with concrete bounds are expanded up to this many terms.
EXPAND_LIMIT = 4096


def _is_num(x: sp.Basic) -> bool:
    return isinstance(x, sp.Number) or (x.is_number and x.is_comparable)


class LeanDiv(sp.Function):
    """Division in a field (ℝ, ℂ): ``x / 0 = 0``."""

    nargs = 2

    @classmethod
    def eval(cls, a, b):
        if b.is_zero:
            return sp.Integer(0)
        if b.is_zero is False:
            return a / b
        return None


class NatDiv(sp.Function):
    """``ℕ`` division: floor, ``n / 0 = 0``."""

    nargs = 2

    @classmethod
    def eval(cls, a, b):
        if b.is_zero:
            return sp.Integer(0)
        if isinstance(a, sp.Integer) and isinstance(b, sp.Integer):
            return sp.Integer(int(a) // int(b))
        return None


class IntDiv(sp.Function):
    """``ℤ`` division as in Lean 4 core (``Int.div`` is Euclidean: ``Int.ediv``), ``x / 0 = 0``."""

    nargs = 2

    @classmethod
    def eval(cls, a, b):
        if b.is_zero:
            return sp.Integer(0)
        if isinstance(a, sp.Integer) and isinstance(b, sp.Integer):
            ai, bi = int(a), int(b)
            q = ai // abs(bi)
            return sp.Integer(q if bi > 0 else -q)
        return None


class NatMod(sp.Function):
    """``ℕ``/``ℤ`` remainder as Lean defines it: ``n % 0 = n``; Euclidean for ℤ."""

    nargs = 2

    @classmethod
    def eval(cls, a, b):
        if b.is_zero:
            return a
        if isinstance(a, sp.Integer) and isinstance(b, sp.Integer):
            return sp.Integer(int(a) % abs(int(b)))
        return None


class NatSub(sp.Function):
    """``ℕ`` subtraction, truncated at zero: ``2 - 5 = 0``."""

    nargs = 2

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


class LeanLog(sp.Function):
    """``Real.log``: ``log 0 = 0`` and ``log x = log |x|``."""

    nargs = 1

    @classmethod
    def eval(cls, x):
        if x.is_zero:
            return sp.Integer(0)
        if x.is_positive:
            return sp.log(x)
        if x.is_negative:
            return sp.log(-x)
        return None


class LeanSqrt(sp.Function):
    """``Real.sqrt``: ``sqrt x = 0`` for ``x < 0``."""

    nargs = 1

    @classmethod
    def eval(cls, x):
        if x.is_nonnegative:
            return sp.sqrt(x)
        if x.is_negative:
            return sp.Integer(0)
        return None


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


class LeanIte(sp.Function):
    """``if c then a else b`` (``c`` a sympy boolean)."""

    nargs = 3

    @classmethod
    def eval(cls, c, a, b):
        if c is sp.true:
            return a
        if c is sp.false:
            return b
        if a == b:
            return a
        return None


def _expanded_terms(body, lo, hi) -> list | None:
    """``[body lo, …, body (hi − 1)]`` when the bounds are numbers (and not too far apart)."""
    if not (isinstance(body, sp.Lambda) and isinstance(lo, sp.Integer)
            and isinstance(hi, sp.Integer)):
        return None
    lo_i, hi_i = int(lo), int(hi)
    if hi_i - lo_i > EXPAND_LIMIT:
        return None
    return [body(sp.Integer(j)) for j in range(lo_i, max(lo_i, hi_i))]


def _explicit(body):
    """``body`` as a ``Lambda`` node: sympy turns ``Lambda(j, j)`` into its argument-less
    ``IdentityFunction``, on which ``evalf`` (asked by any sign query) fails; keep it a
    ``Lambda`` with its variable."""
    if isinstance(body, type(sp.S.IdentityFunction)):
        index = sp.Dummy("j", integer=True)
        return sp.Basic.__new__(sp.Lambda, sp.Tuple(index), index)
    return body


class _FinOp(sp.Function):
    """Base of sums/products over ``[lo, hi)`` of a one-argument ``Lambda``."""

    nargs = 3

    def __new__(cls, body, lo, hi, **options):
        return super().__new__(cls, _explicit(body), lo, hi, **options)

    @classmethod
    def eval(cls, body, lo, hi):
        terms = _expanded_terms(body, lo, hi)
        return None if terms is None else cls._fold(terms)


class FinSum(_FinOp):
    """``∑ j ∈ [lo, hi), body j`` (Lean's ``Finset.sum`` over a half-open range)."""

    @staticmethod
    def _fold(terms):
        return sp.Add(*terms) if terms else sp.Integer(0)


class FinProd(_FinOp):
    """``∏ j ∈ [lo, hi), body j``."""

    @staticmethod
    def _fold(terms):
        return sp.Mul(*terms) if terms else sp.Integer(1)


class LMatSum(_FinOp):
    """A sum of matrices ``∑ j ∈ [lo, hi), body j``; ``shape`` comes from the terms."""

    @staticmethod
    def _fold(terms):
        return None


class _FinQuantifier(BooleanFunction):
    """Base of ``∀``/``∃`` over ``[lo, hi)`` of a boolean one-argument ``Lambda``."""

    nargs = 3
    _combine = None

    @classmethod
    def eval(cls, body, lo, hi):
        terms = _expanded_terms(body, lo, hi)
        return None if terms is None else cls._combine(*terms)


class FinAll(_FinQuantifier):
    """``∀ j ∈ [lo, hi), body j``."""

    _combine = sp.And


class FinExists(_FinQuantifier):
    """``∃ j ∈ [lo, hi), body j``."""

    _combine = sp.Or


class PropIte(BooleanFunction):
    """``if c then p else q`` between propositions."""

    nargs = 3

    @classmethod
    def eval(cls, c, p, q):
        if c is sp.true:
            return p
        if c is sp.false:
            return q
        return None


class Index(sp.Function):
    """``f i j …``: an argument array ``f`` (a ``Symbol``) read at indices."""

    @classmethod
    def eval(cls, *args):
        return None


class Tabulate(sp.Function):
    """A function value ``fun i => body`` materialized over ``[0, size)`` (for bound calls)."""

    nargs = 2


class BoundCall(sp.Function):
    """A call of a Lean definition bound to a NumPy implementation; ``args[0]`` is its name."""


class Recursion(sp.Function):
    """Structural recursion on ℕ: ``rec 0 = base``, ``rec (t + 1) = step t (rec t)``.

    Arguments: ``base``, ``Lambda((t, prev), step)``, ``n``.
    """

    nargs = 3


class FinWrap(sp.Function):
    """``Fin n`` arithmetic wraps: ``FinWrap(x, n) = x mod n``."""

    nargs = 2

    @classmethod
    def eval(cls, x, n):
        if isinstance(x, sp.Integer) and isinstance(n, sp.Integer) and int(n) > 0:
            return sp.Integer(int(x) % int(n))
        return None


class SupNorm(sp.Function):
    """``‖v‖`` of a ``Fin n → ℝ`` vector: Mathlib's sup norm on ``Pi`` types."""

    nargs = 2  # (Lambda(i, |v i|), n)


# Matrices: values are arrays; these nodes are opaque to sympy's algebra.
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


class VecMulVec(sp.Function):
    """``Matrix.vecMulVec u v`` (outer product)."""

    nargs = 2


class MulVec(sp.Function):
    """``Matrix.mulVec A v`` (``A *ᵥ v``)."""

    nargs = 2


class LMatOf(sp.Function):
    """A matrix built entrywise ``fun i j => body`` over ``(m, n)``: ``Lambda((i, j), body), m, n``."""

    nargs = 3


class ArrayEq(BooleanFunction):
    """Equality of two array-valued terms (matrices, vectors, functions on ``Fin n``)."""

    nargs = 2


class LeanIntegral(sp.Function):
    """``∫ s in lo..hi, body s`` over an interval of ℝ (``lo``/``hi`` may be ``∓oo``).

    Evaluated numerically. Lean's junk value for a non-integrable function (the Bochner
    integral is ``0``) is not detected: the translation assumes integrability.
    """

    nargs = 3


class PosDef(BooleanFunction):
    """``Matrix.PosDef A``: ``A`` is symmetric and ``0 < xᵀ A x`` for every ``x ≠ 0``
    (evaluated as: symmetric, and every eigenvalue positive — the same statement for real
    matrices)."""

    nargs = 1


class LMatDet(sp.Function):
    """``Matrix.det A``."""

    nargs = 1


class Holds(BooleanFunction):
    """A proposition read from data: a ``Prop``/``Bool``-valued array entry or variable."""

    nargs = 1

    @classmethod
    def eval(cls, x):
        if x is sp.true or x is sp.false:
            return x
        return None


__all__ = [
    name
    for name in (
        "LeanDiv NatDiv IntDiv NatMod NatSub LeanLog LeanSqrt LeanRpow LeanIte FinSum FinProd "
        "LMatSum FinAll FinExists PropIte Index Tabulate BoundCall Recursion FinWrap SupNorm "
        "LMatInv LMatMul LMatAdd LMatSub LMatNeg LMatSMul LMatPow LMatOne LMatZero LMatTranspose VecMulVec MulVec "
        "LMatOf ArrayEq Holds LeanIntegral PosDef LMatDet"
    ).split()
]
