"""Lean-level rewrites of a theorem before it is translated, in the order they apply.

1. Mathlib's definitions of number-theory and order predicates (``∣``, ``Nat.Prime``,
   ``Nat.ModEq``, ``Nat.divisors`` …: :mod:`mirror.translate.number_theory`; ``Monotone``,
   ``StrictMono`` …: :mod:`mirror.translate.orders`; ``IsLeast``, ``IsGreatest``,
   ``lowerBounds``, ``upperBounds``: :mod:`mirror.translate.extrema`; ``Polynomial.eval`` of
   explicit polynomials, their degrees, coefficients and roots:
   :mod:`mirror.translate.polynomials`; extrema of literal finsets:
   :mod:`mirror.translate.finset_extrema`; a finset of reals given by an equation, solved:
   :mod:`mirror.translate.solved_sets`); equalities of sets and ``Set.ncard`` of bounded sets
   (:mod:`mirror.translate.sets`, first); equalities of derivative functions read pointwise
   (:mod:`mirror.translate.calculus`);
2. collection binders and set-builder membership (:func:`mirror.translate.collections.desugar`);
3. ``∀ x, f x = e`` hypotheses define ``f`` (:mod:`mirror.translate.functional`);
4. quantifiers nested in the conclusion lifted to the statement's binders
   (:mod:`mirror.translate.prenex`).

Each step returns a declaration of the same theorem or raises
:class:`~mirror.translate.translation.Untranslatable` naming what stops it.
"""

from __future__ import annotations

from bridge.declaration import Declaration
from mirror.translate.calculus import rewrite_derivatives
from mirror.translate.collections import desugar
from mirror.translate.extrema import rewrite_extrema
from mirror.translate.finset_extrema import rewrite_finset_extrema
from mirror.translate.functional import define_functions
from mirror.translate.number_theory import rewrite_number_theory
from mirror.translate.orders import rewrite_orders
from mirror.translate.polynomials import rewrite_polynomials
from mirror.translate.prenex import lift_quantifiers
from mirror.translate.sets import rewrite_sets
from mirror.translate.solved_sets import solve_finsets


def rewrite_theorem(decl: Declaration) -> Declaration:
    """``decl`` with every rewrite above applied."""
    decl = rewrite_extrema(rewrite_orders(rewrite_number_theory(rewrite_finset_extrema(
        rewrite_polynomials(rewrite_derivatives(solve_finsets(rewrite_sets(decl))))))))
    decl = desugar(decl)
    return lift_quantifiers(define_functions(decl))


__all__ = ["rewrite_theorem"]
