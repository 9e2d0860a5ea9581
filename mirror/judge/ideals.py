"""Equations that follow from the hypotheses' equations: ideal membership over ℚ.

When every conjunct of the conclusion is a polynomial equation ``P = Q`` with rational
coefficients and ``P - Q`` lies in the ideal the hypotheses' polynomial equations
``H₁ = 0, …, Hₖ = 0`` generate (``P - Q = Σ gᵢ Hᵢ``, decided by reducing it to 0 modulo a
Gröbner basis over ℚ), the conclusion holds at every point where the hypotheses do — over
ℂ, hence over ℝ, ℚ, ℤ and ℕ, whatever the other hypotheses say. The row is ``symbolic`` with
that method; no draw is needed (random draws never satisfy an equation such as
``x ^ 2 + 8 * x + y ^ 2 - 6 * y = 0``). A conclusion ``a / b = c`` whose divisor a hypothesis
says is nonzero (``b ≠ 0``) is read as ``a = c * b``. A basis ``{1}`` (no common solution even over ℂ)
proves nothing here: such hypotheses are the solvers' ``vacuous``, never a proof.

Only expressions whose sympy meaning is Lean's are read (:func:`mirror.judge.identity.faithful`,
no leanmirror node such as ``LeanDiv`` or ``NatSub``, scalar variables only): anything else
leaves the statement to the next attempt.
"""

from __future__ import annotations

import sympy as sp

from mirror.judge.guard import Guard
from mirror.judge.identity import faithful
from mirror.translate.reals import LeanDiv
from mirror.translate.values import Statement

#: Generators beyond this are not tried (a Gröbner basis grows fast).
MAX_GENERATORS = 8


def _polynomial(expr: sp.Basic, scalars: set[sp.Symbol]) -> sp.Expr | None:
    """``expr`` if it is a polynomial over ℚ in the scalar variables, else ``None``."""
    if not faithful(expr) or not expr.free_symbols <= scalars:
        return None
    if any(type(node).__module__.startswith("mirror.") for node in sp.preorder_traversal(expr)):
        return None
    try:
        sp.Poly(expr, *sorted(expr.free_symbols, key=str) or [sp.Dummy()], domain="QQ")
    except (sp.PolynomialError, sp.CoercionFailed, sp.GeneratorsNeeded):
        return None
    return expr


def _cleared(atom: sp.Equality, nonzero: set[sp.Basic]) -> sp.Basic:
    """``a - c * b`` for ``a / b = c`` (either side) when a hypothesis says ``b ≠ 0``: there
    Lean's ``a / b`` is the quotient, and the equation is ``a = c * b``; else ``lhs - rhs``."""
    for side, other in ((atom.lhs, atom.rhs), (atom.rhs, atom.lhs)):
        if isinstance(side, LeanDiv) and side.args[1] in nonzero:
            return side.args[0] - other * side.args[1]
    return atom.lhs - atom.rhs


def _differences(prop: sp.Basic, scalars: set[sp.Symbol],
                 nonzero: set[sp.Basic]) -> list[sp.Expr] | None:
    """``lhs - rhs`` of each conjunct of ``prop`` (``None``: one is not a polynomial equation)."""
    out = []
    for atom in sp.And.make_args(prop):
        if not isinstance(atom, sp.Equality):
            return None
        difference = _polynomial(_cleared(atom, nonzero), scalars)
        if difference is None:
            return None
        out.append(difference)
    return out


def prove_in_ideal(statement: Statement, seconds: float) -> tuple[str, str, str | None] | None:
    """``(status, method, reason)`` — ``symbolic`` by ideal membership — or ``None``."""
    scalars = {v.symbol for v in statement.variables
               if v.ty is not None and v.ty.is_numeric and not v.ty.is_array}
    nonzero = {b for _, hyp in statement.hypotheses for atom in sp.And.make_args(hyp)
               if isinstance(atom, sp.Unequality)
               for b, zero in (atom.args, atom.args[::-1]) if zero == 0}  # b ≠ 0, 0 ≠ b
    goals = _differences(statement.conclusion, scalars, nonzero)
    if not goals:
        return None
    equations, labels = [], []
    for label, hyp in statement.hypotheses:
        for atom in sp.And.make_args(hyp):
            if isinstance(atom, sp.Equality):
                difference = _polynomial(atom.lhs - atom.rhs, scalars)
                if difference is not None and difference != 0:
                    equations.append(difference)
                    labels.append(label)
    if not equations:
        return None
    gens = sorted(set().union(*(e.free_symbols for e in equations + goals)), key=str)
    if not gens or len(gens) > MAX_GENERATORS:
        return None
    guard = Guard(max(seconds, 1e-3))
    basis = guard.call("ideal", sp.groebner, equations, *gens, order="grevlex", domain="QQ")
    if basis is None:
        return None
    used = ", ".join(dict.fromkeys(labels))
    if list(basis.exprs) == [1]:
        # no common solution even over ℂ: every goal is in the ideal, and proving the
        # conclusion so would hide a vacuous statement; the solvers say ``vacuous`` with proof
        return None
    members = [guard.call("reduce", basis.contains, g) for g in goals]
    if not all(m is True for m in members):
        return None
    return ("symbolic", f"the conclusion lies in the ideal the equations of {used} generate "
            "(reduced to 0 by their Gröbner basis over ℚ): it holds wherever they do, no draw "
            "needed", None)


__all__ = ["MAX_GENERATORS", "prove_in_ideal"]
