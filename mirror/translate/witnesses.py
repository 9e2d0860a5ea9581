"""``∃ x : ℝ`` (also ℚ, ℤ) as a search among candidate witnesses, decided only by a witness.

The translator expands quantifiers over finite types exactly and ``∃ n : ℕ`` over the sampled
prefix ``[0, nat_domain)`` (:mod:`mirror.evaluate.polarity`: a witness there proves the ``∃``,
no witness says nothing). A quantifier over ℝ, ℚ or ℤ has no such prefix, so it gets one:
``∃ x, P x`` becomes ``∃ j ∈ [0, nat_domain), P (c j)``, where ``c j`` is the ``j``-th
*candidate witness*, and the range ends at the sampling bound, so the runtime treats it as
truncated — in a conclusion a witness proves the statement at that draw and the absence of one
refutes nothing; in a hypothesis the absence of a witness does not reject the draw as false.

The candidates are, first, the **solutions** of the body's equations in ``x`` (``x = e``,
``e = x``, or a polynomial equation in ``x`` of degree ≤ 2 that sympy solves: ``2 * x + a =
7`` gives ``(7 − a) / 2``), then a fixed enumeration of small numbers (``0, 1, −1, 2, −2, 1/2,
…``; integers only for ℤ). A candidate is any value *of the type*: whether it is a witness is
decided by evaluating ``P`` at it in Lean's semantics, so a candidate sympy got wrong (a
degenerate coefficient) is merely no witness. To keep every candidate a value of the type,
only rational expressions in the other variables are taken, with Lean's division (``x / 0 =
0``) for their denominators, and closed real numbers (``√2``); never a square root of an
expression that may be negative. Two such searches may nest (``∃ x y : ℝ, …``: at most 16 × 16
candidate pairs, each inner one truncated too); an ``∃`` whose body quantifies otherwise
(``∃ x y z : ℤ, …``, ``∃ c, ∀ a b n : ℕ, …``) stays untranslatable: its search would multiply.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from mirror.translate import vocabulary as V
from mirror.translate.reals import LeanDiv
from mirror.translate.values import NAT_DOMAIN, Env, Untranslatable, Value, fresh

#: Carriers whose ``∃`` is searched among candidates.
SEARCHED = frozenset({"Real", "Rat", "Int"})
#: The fixed candidates after the solutions (each carrier keeps those of its type).
_SMALL = (0, 1, -1, 2, -2, Fraction(1, 2), Fraction(-1, 2), 3, -3, Fraction(1, 3),
          Fraction(-1, 3), 4, -4, Fraction(3, 2), Fraction(-3, 2), 5, -5, 10, -10)
#: Solutions of at most this many equations of the body are taken, at most this degree.
_MAX_SOLUTIONS, _MAX_DEGREE = 8, 2


def candidate_exists(tr, name: str, ty, body_t, env: Env) -> sp.Basic:
    """``∃ name : ty, body_t`` as a truncated ``∃`` over candidate witnesses (module doc)."""
    var = fresh(name, ty)
    body = tr.prop(body_t, env.extend(**{name: Value(var, ty)}))
    if not _nests_once(body):
        raise Untranslatable(f"∃ {name} : {ty} over a body that quantifies again",
                             "the candidate search would multiply with the inner quantifier")
    index = sp.Dummy(_INDEX, integer=True, nonnegative=True)
    candidates = _solutions(body, var, ty) + _small(ty)
    chosen = candidates[-1]
    for k in range(len(candidates) - 2, -1, -1):
        chosen = V.LeanIte(sp.Eq(index, k), candidates[k], chosen)
    return V.FinExists(sp.Lambda(index, body.xreplace({var: chosen})), sp.Integer(0), NAT_DOMAIN)


#: The name of a candidate index (how a nested search is told from other quantifiers).
_INDEX = "j_witness"


def _nests_once(body: sp.Basic) -> bool:
    """Whether ``body`` quantifies at most by candidate searches that quantify no further."""
    if body.has(V.FinAll):
        return False
    for inner in body.atoms(V.FinExists):
        lam = inner.args[0]
        if not (isinstance(lam, sp.Lambda) and len(lam.variables) == 1
                and lam.variables[0].name == _INDEX and inner.args[2] == NAT_DOMAIN
                and not lam.expr.has(V.FinExists, V.FinAll)):
            return False
    return True


def _small(ty) -> list[sp.Basic]:
    if ty.kind == "Int":
        return [sp.Integer(v) for v in _SMALL if isinstance(v, int)]
    return [sp.Rational(v.numerator, v.denominator) if isinstance(v, Fraction) else sp.Integer(v)
            for v in _SMALL]


def _equations(body: sp.Basic) -> list[sp.Eq]:
    """The equations among the conjuncts of ``body`` (itself one, or an ``And``)."""
    parts = body.args if isinstance(body, sp.And) else (body,)
    return [p for p in parts if isinstance(p, sp.Equality)]


def _solutions(body: sp.Basic, var: sp.Symbol, ty) -> list[sp.Basic]:
    found: list[sp.Basic] = []
    for eq in _equations(body)[:_MAX_SOLUTIONS]:
        difference = eq.lhs - eq.rhs
        if var not in difference.free_symbols:
            continue
        for root in _roots(difference, var):
            value = _as_value(root, ty)
            if value is not None and value not in found:
                found.append(value)
    return found


def _roots(difference: sp.Basic, var: sp.Symbol) -> list[sp.Basic]:
    """The roots in ``var`` of a polynomial ``difference`` (rational in the other symbols)."""
    try:
        poly = sp.Poly(sp.together(difference).as_numer_denom()[0], var)
    except sp.PolynomialError:
        return []
    if not 1 <= poly.degree() <= _MAX_DEGREE or not poly.domain.is_Exact:
        return []
    if any(not c.is_rational_function() for c in poly.all_coeffs()):
        return []
    if poly.degree() == 1:
        a, b = poly.all_coeffs()
        return [_lean_quotient(-b, a)]
    if poly.free_symbols - {var}:
        return []  # roots of a quadratic with parameters: a square root of unknown sign
    return [r for r in sp.roots(poly, filter="R")]


def _lean_quotient(numerator: sp.Basic, denominator: sp.Basic) -> sp.Basic:
    """``numerator / denominator`` with Lean's ``x / 0 = 0`` where the denominator may vanish."""
    if denominator.is_number and denominator != 0:
        return sp.expand(numerator / denominator)
    return LeanDiv(numerator, denominator)


#: Per carrier: whether a free symbol, and a coefficient, keep an expression inside it.
_INSIDE = {"Int": lambda e: e.is_integer is True, "Rat": lambda e: e.is_rational is True,
           "Real": lambda e: e.is_extended_real is True}


def _as_value(root: sp.Basic, ty) -> sp.Basic | None:
    """``root`` when it is certainly a value of ``ty`` (module doc), else ``None``: a closed
    finite number of the type, or a polynomial with coefficients of the type in variables of
    the type — for ℚ and ℝ also a Lean quotient of two such polynomials."""
    inside = _INSIDE[ty.kind]
    if not root.free_symbols:
        return root if root.is_finite and inside(root) else None
    parts = root.args if isinstance(root, LeanDiv) and ty.kind != "Int" else (root,)
    return root if all(_polynomial_in(part, inside) for part in parts) else None


def _polynomial_in(expr: sp.Basic, inside) -> bool:
    symbols = sorted(expr.free_symbols, key=str)
    if not all(inside(s) for s in symbols) or not expr.is_polynomial(*symbols):
        return False
    if not symbols:
        return expr.is_finite and inside(expr)
    return all(inside(c) for c in sp.Poly(expr, *symbols).coeffs())


__all__ = ["SEARCHED", "candidate_exists"]
