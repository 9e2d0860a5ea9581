"""Polynomial identities: ``∀ x : ℝ, p x = q x`` as the equations of its coefficients.

Over an infinite integral domain of characteristic zero (ℤ, ℚ, ℝ, ℂ) a polynomial vanishes at
every point exactly when each of its coefficients is zero. So a quantified equation whose two
sides are polynomials in the bound variable — ``∀ x, a * (x + b) = 3 * x + 12`` — is equivalent
to the equations of the coefficients of their difference in that variable (``a - 3 = 0``,
``a * b - 12 = 0``), whatever the polarity it stands in: the equivalence is exact, and the
equations are what :mod:`mirror.sample.solve` and :mod:`mirror.sample.parametric` solve.

Only sums, products, powers with natural exponents of the bound variable and field divisions
by what does not contain it are read as polynomial: another Lean operation with its own meaning
around the variable (``1 / x``, ``Int.floor``, ``x ^ (r : ℝ)``, ℤ's ``/``) makes the identity a
quantifier the translator cannot expand, as before.
The coefficients themselves may be anything not containing the variable.
"""

from __future__ import annotations

import sympy as sp

from mirror.translate.reals import LeanDiv

#: Carriers over which a polynomial that vanishes everywhere has zero coefficients.
IDENTITY_CARRIERS = frozenset({"Int", "Rat", "Real", "Complex"})
#: The largest degree expanded (a larger identity is left to the caller's refusal).
MAX_DEGREE = 64


def _polynomial(expr: sp.Basic, var: sp.Symbol) -> sp.Basic | None:
    """``expr`` as a polynomial expression in ``var`` — every part containing ``var`` a sum, a
    product, a power with a natural exponent, or a field division by something free of ``var``
    (``e / c`` is ``e * (1 / c)``, which keeps Lean's ``e / 0 = 0``) — or ``None``."""
    if not expr.has(var) or expr == var:
        return expr
    if isinstance(expr, (sp.Add, sp.Mul)):
        args = [_polynomial(arg, var) for arg in expr.args]
        return None if any(a is None for a in args) else expr.func(*args)
    if isinstance(expr, sp.Pow):
        exp = expr.exp
        if not (exp.is_Integer and 0 <= int(exp) <= MAX_DEGREE):
            return None
        base = _polynomial(expr.base, var)
        return None if base is None else base ** exp
    if isinstance(expr, LeanDiv) and not expr.args[1].has(var):
        numerator = _polynomial(expr.args[0], var)
        return None if numerator is None else numerator * LeanDiv(sp.Integer(1), expr.args[1])
    return None


def coefficient_equations(body: sp.Basic, var: sp.Symbol) -> sp.Basic | None:
    """``∀ var, body`` as the equations of the coefficients, when ``body`` is an equation (or a
    conjunction of equations) between polynomials in ``var``; ``body`` itself when it does not
    mention ``var`` (the carriers are non-empty); ``None`` when it is neither."""
    if not body.has(var):
        return body
    parts = body.args if isinstance(body, sp.And) else (body,)
    equations: list[sp.Basic] = []
    for part in parts:
        if not part.has(var):
            equations.append(part)
            continue
        if not isinstance(part, sp.Eq):
            return None
        difference = _polynomial(part.lhs - part.rhs, var)
        if difference is None:
            return None
        try:
            poly = sp.Poly(sp.expand(difference), var)
        except sp.PolynomialError:
            return None
        if poly.degree() > MAX_DEGREE:
            return None
        equations.extend(sp.Eq(sp.expand(c), 0) for c in poly.all_coeffs())
    return sp.And(*equations)
