"""Exact decisions at a point: a proposition of the statement's variables at integer, rational
or algebraic values, never by a floating comparison (:mod:`mirror.judge.presettle` and the
parametric solver decide every candidate point here)."""

from __future__ import annotations

import sympy as sp
from sympy.logic.boolalg import BooleanAtom
from sympy.polys.polyerrors import NotAlgebraic

from mirror.judge.boxes import Undecidable, enclose
from mirror.sample.exponentials import log_ball, log_zero
from mirror.sample.residues import Unevaluated, truth


def decide_integer(prop: sp.Basic, point: dict) -> bool | None:
    """``prop`` at an integer point: on Python integers where it is built of integer
    arithmetic (:func:`mirror.sample.residues.truth`), else by :func:`decide_at`."""
    try:
        return truth(prop, {s: int(v) for s, v in point.items()})
    except Unevaluated:
        return decide_at(prop, point)


def hypotheses_hold(hyps: list, point: dict, decide) -> bool | None:
    """Whether every hypothesis holds at ``point`` (the first false one settles it; ``None``:
    one is undecided and none is false)."""
    undecided = False
    for h in hyps:
        verdict = decide(h, point)
        if verdict is False:
            return False
        undecided = undecided or verdict is None
    return None if undecided else True


def exact_value(value: sp.Basic) -> int | float | str:
    """A solution value for the counterexample record: an integer, a dyadic rational as the
    float it is exactly, another rational as ``"p/q"``, an algebraic number as sympy text."""
    if value.is_Integer:
        return int(value)
    if value.is_Rational and value.q & (value.q - 1) == 0:
        return float(value)
    return str(value)


_ORDER_SIGNS = {sp.StrictLessThan: lambda sign: sign < 0, sp.LessThan: lambda sign: sign <= 0,
                sp.StrictGreaterThan: lambda sign: sign > 0,
                sp.GreaterThan: lambda sign: sign >= 0, sp.Equality: lambda sign: sign == 0,
                sp.Unequality: lambda sign: sign != 0}


def sign(d: sp.Basic) -> int | None:
    """The sign of a closed real expression, decided exactly or rigorously: a rational by
    itself, zero by the minimal polynomial of an algebraic number (exact arithmetic in its
    number field), a non-zero sign by an Arb enclosure that excludes ``0``."""
    if d.is_Rational:
        return 1 if d > 0 else -1 if d < 0 else 0
    try:
        ball_ = enclose(d, {})
    except Undecidable:
        ball_ = None
    if ball_ is None:
        ball_ = log_ball(d)  # logarithms of rationals and powers of rational bases
    if ball_ is not None and (ball_ > 0 or ball_ < 0):
        return 1 if ball_ > 0 else -1
    if log_zero(d):  # an identity in the logarithms of primes
        return 0
    if d.is_algebraic:
        t = sp.Dummy("t")
        try:
            if sp.minimal_polynomial(d, t) == t:
                return 0
        except (NotImplementedError, sp.PolynomialError, NotAlgebraic, ValueError):
            return None  # NotAlgebraic: sympy called it algebraic and then found it is not
    return None


def decide_at(prop: sp.Basic, point: dict[sp.Symbol, sp.Basic]) -> bool | None:
    """``prop`` at an exact point, never by sympy's floating comparison: relations by the
    exact or rigorous sign of ``lhs - rhs`` (:func:`sign`), connectives recursively, anything
    else by sympy's exact evaluation at a rational point (Lean's vocabulary folds exactly on
    numbers); ``None`` when that does not decide."""
    if isinstance(prop, BooleanAtom):
        return bool(prop)
    if type(prop) in _ORDER_SIGNS:
        d = (prop.lhs - prop.rhs).xreplace(point)
        if d.free_symbols or not d.is_number:
            return None
        if d.is_extended_real is False:
            return type(prop) is sp.Unequality
        found = sign(d)
        return None if found is None else _ORDER_SIGNS[type(prop)](found)
    if isinstance(prop, (sp.And, sp.Or)):
        parts = [decide_at(arg, point) for arg in prop.args]
        strong = isinstance(prop, sp.Or)
        if strong in parts:
            return strong
        return None if None in parts else not strong
    if isinstance(prop, sp.Not):
        inner = decide_at(prop.args[0], point)
        return None if inner is None else not inner
    if isinstance(prop, sp.Implies):
        return decide_at(sp.Or(sp.Not(prop.args[0]), prop.args[1]), point)
    if all(v.is_Rational for v in point.values()):
        value = prop.xreplace(point)
        if not isinstance(value, BooleanAtom) and hasattr(value, "doit"):
            value = value.doit()
        if isinstance(value, BooleanAtom):
            return bool(value)
    return None


__all__ = ["decide_at", "decide_integer", "exact_value", "hypotheses_hold", "sign"]
