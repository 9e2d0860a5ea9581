"""Finite sums, products and quantifiers over a half-open range ``[lo, hi)`` of a
one-argument ``Lambda`` (Mathlib's ``Finset.sum``/``Finset.prod`` over ``Finset.range``/``Ico``,
bounded ``∀``/``∃``), expanded when the bounds are numerals.

Nested expansions multiply: ``∑ i ≤ 1988, ∑ j ≤ i, ∑ k ≤ j, 1 / k`` is over 10⁹ terms. Inside
:func:`expansion_budget` (one statement's translation) at most :data:`EXPANSION_BUDGET` terms
are expanded in all; past it the statement is untranslatable, with that reason, instead of
running until its time limit.
"""

from __future__ import annotations

import contextlib
import contextvars

import sympy as sp
from sympy.logic.boolalg import BooleanFunction

from mirror.translate.values import Untranslatable


#: Finite sums and products with concrete bounds are expanded up to this many terms.
EXPAND_LIMIT = 4096
#: Nodes one expansion may substitute into (its terms × the size of its body).
SUBSTITUTION_LIMIT = 2_000_000
#: Terms one statement's expansions may produce in all (nested sums included).
EXPANSION_BUDGET = 50_000

#: Terms still allowed in the current statement (a one-item list), or ``None``: no budget.
_budget: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("expansion", default=None)


@contextlib.contextmanager
def expansion_budget(terms: int = EXPANSION_BUDGET):
    """Within this block, expanding finite sums/products/quantifiers may produce at most
    ``terms`` terms in all; one more raises :class:`Untranslatable`."""
    token = _budget.set([terms])
    try:
        yield
    finally:
        _budget.reset(token)


def _spend(count: int) -> None:
    left = _budget.get()
    if left is None:
        return
    left[0] -= count
    if left[0] < 0:
        raise Untranslatable(
            "a finite sum, product or bounded quantifier with numeral bounds",
            f"its nested expansion needs more than {EXPANSION_BUDGET:,} terms")


def _expanded_terms(body, lo, hi) -> list | None:
    """``[body lo, …, body (hi − 1)]`` when the bounds are numbers (and not too far apart)."""
    if not (isinstance(body, sp.Lambda) and isinstance(lo, sp.Integer)
            and isinstance(hi, sp.Integer)):
        return None
    lo_i, hi_i = int(lo), int(hi)
    if hi_i - lo_i > EXPAND_LIMIT:
        return None
    count = max(0, hi_i - lo_i)
    if count and _nodes_beyond(body.expr, SUBSTITUTION_LIMIT // count):
        # each term is a substitution into the body: `StrictMono a` on `Fin 2011` expands the
        # inner `∀ j` first, then substitutes 2011 times into its 2011 conjuncts, which ran
        # past the statement's time limit though few terms were counted
        raise Untranslatable(
            "a finite sum, product or bounded quantifier with numeral bounds",
            f"its {count:,} terms are substitutions into a body too large to expand "
            f"({count:,} × the body's size exceeds {SUBSTITUTION_LIMIT:,} nodes)")
    _spend(max(0, hi_i - lo_i))
    return [body(sp.Integer(j)) for j in range(lo_i, max(lo_i, hi_i))]


def _nodes_beyond(expr, limit: int) -> bool:
    """Whether ``expr`` has more than ``limit`` nodes (the walk stops there)."""
    for seen, _ in enumerate(sp.preorder_traversal(expr)):
        if seen >= limit:
            return True
    return False


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

    def _eval_is_commutative(self):
        # a sum/product of numbers is a number; sympy would otherwise take the ``Lambda``
        # argument's unknown commutativity, and ``FinSum(…) + 1`` (an ``Add`` with a part of
        # unknown commutativity) comes out non-commutative, hence neither real nor complex:
        # a relation on it raised "Invalid comparison of non-real"
        return True


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

    def _eval_simplify(self, **kwargs):
        # sympy's logic simplifier reads a BooleanFunction as a function of its free symbols
        # taken as booleans (so `∀ x < NATDOM, x ≤ 232` became True): the node stays as it is
        return self


class FinAll(_FinQuantifier):
    """``∀ j ∈ [lo, hi), body j``."""

    _combine = sp.And


class FinExists(_FinQuantifier):
    """``∃ j ∈ [lo, hi), body j``."""

    _combine = sp.Or


class _FinExtremum(sp.Function):
    """Base of ``max``/``min`` over ``[lo, hi)`` of a one-argument ``Lambda``; ``empty`` is the
    value of the empty range (the type's junk value), or ``nan`` where Lean's statement
    cannot reach it (``sup'`` needs a proof that the set is nonempty): an empty range then
    decides nothing."""

    nargs = 4
    _fold = None

    def __new__(cls, body, lo, hi, empty, **options):
        return super().__new__(cls, _explicit(body), lo, hi, empty, **options)

    @classmethod
    def eval(cls, body, lo, hi, empty):
        terms = _expanded_terms(body, lo, hi)
        if terms is None:
            return None
        if not terms:
            return None if empty is sp.nan else empty
        return cls._fold(*terms)


class FinMax(_FinExtremum):
    """``max`` of ``body j`` over ``j ∈ [lo, hi)`` (``Finset.sup'``, ``⨆ j : Fin n``)."""

    _fold = sp.Max


class FinMin(_FinExtremum):
    """``min`` of ``body j`` over ``j ∈ [lo, hi)`` (``Finset.inf'``, ``⨅ j : Fin n``)."""

    _fold = sp.Min
