"""Statements reduced to ``True`` by sympy, only where sympy's meaning is Lean's (the
``symbolic`` evidence level): :func:`settle_symbolically` and its guard :func:`faithful`."""

from __future__ import annotations

import sympy as sp
from sympy.logic.boolalg import BooleanFunction

from mirror.judge.guard import Guard
from mirror.translate.reals import known_nonzero


#: Seconds one symbolic attempt may take before it gives up (the statement is then tested).
SYMBOLIC_LIMIT = 10.0

#: sympy functions whose meaning is Lean's on every argument (no junk value differs).
_FAITHFUL_FUNCTIONS = (sp.exp, sp.sin, sp.cos, sp.tanh, sp.sinh, sp.cosh, sp.Abs, sp.atan,
                       sp.Max, sp.Min, sp.floor, sp.ceiling, sp.sign, sp.re, sp.im)


def settle_symbolically(statement, time_limit: float | None = None) -> str | None:
    """Try to reduce a statement to ``True`` with sympy; the method on success, else ``None``.

    sympy reasons over ℝ and ℂ, so a statement is only settled when every node of its
    translation means in sympy what it means in Lean (:func:`faithful`): Lean's junk values
    live in opaque functions (``LeanDiv``, ``NatSub``, ``LeanLog``…) that sympy cannot
    simplify away. The attempt is bounded by :data:`SYMBOLIC_LIMIT` seconds, or by
    ``time_limit`` when that is shorter."""
    if statement.hypotheses:
        return None
    concl = statement.conclusion
    if not faithful(concl):
        return None
    if concl is sp.true:
        return "sympy: the statement evaluates to True exactly"
    if concl is sp.false:
        return None
    guard = Guard(SYMBOLIC_LIMIT if time_limit is None else max(min(time_limit, SYMBOLIC_LIMIT),
                                                                 1e-3))
    if not statement.variables:
        value = guard.call("doit", lambda: concl.doit() if hasattr(concl, "doit") else concl)
        if value is sp.true and faithful(value):
            return "sympy: exact rational evaluation of the closed statement"
        if value is not None and guard.call("simplify", sp.simplify, _atomized(value)) is sp.true:
            return "sympy: simplification of the closed statement"
    if isinstance(concl, sp.Equality):
        difference = concl.lhs - concl.rhs
        if sp.count_ops(difference) > 80:
            return None
        if guard.call("simplify", sp.simplify, difference) == 0:
            return "sympy: simplify(lhs - rhs) = 0"
        rewritten = guard.call("rewrite", difference.rewrite, sp.exp)
        if rewritten is not None and guard.call("simplify", sp.simplify, rewritten) == 0:
            return "sympy: simplify(rewrite(lhs - rhs, exp)) = 0"
    return None


def _atomized(expr: sp.Basic) -> sp.Basic:
    """``expr`` with each of leanmirror's propositions (``FinAll``, ``Holds``, ``ArrayEq``…)
    replaced by a fresh boolean symbol. sympy's logic simplifier reads a ``BooleanFunction``'s
    arguments as propositional atoms (``∀ x < NATDOM, x ≤ 232`` simplified to True): as opaque
    atoms, the simplification proves only what holds whatever their values."""
    mapping: dict[sp.Basic, sp.Basic] = {}
    for node in sp.preorder_traversal(expr):
        if isinstance(node, BooleanFunction) and type(node).__module__.startswith("mirror."):
            mapping.setdefault(node, sp.Dummy("proposition"))
    return expr.xreplace(mapping) if mapping else expr


def faithful(expr) -> bool:
    """Does sympy's meaning of ``expr`` agree with Lean's everywhere? No infinities or NaN
    from a division by zero, no sympy function whose value differs from Lean's junk value
    (``log`` of a number not known positive, ``tan``, a power with a negative or fractional
    exponent of a base not known non-zero / non-negative), only known function classes."""
    if not isinstance(expr, sp.Basic):
        return False
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return False
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Pow):
            base, exponent = node.args
            if exponent.is_negative is not False and not known_nonzero(base):
                return False
            if exponent.is_integer is not True and base.is_nonnegative is not True:
                return False
        elif isinstance(node, sp.log):
            if node.args[0].is_positive is not True:
                return False
        elif type(node).__module__.startswith("mirror."):
            continue  # leanmirror's own vocabulary: Lean's semantics, opaque to sympy
        elif isinstance(node, sp.Function) and not isinstance(node, _FAITHFUL_FUNCTIONS):
            return False
    return True



__all__ = ["SYMBOLIC_LIMIT", "faithful", "settle_symbolically"]
