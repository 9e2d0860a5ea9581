"""Sizes of the values a statement takes at its draws, estimated without computing them
(:mod:`mirror.judge.presettle` refuses a statement no draw would finish)."""

from __future__ import annotations

import math

import sympy as sp

from mirror.translate.values import Statement


#: Values with more digits than this are not evaluated (a draw would not finish).
MAX_DIGITS = 10 ** 6


def _log10_size(expr: sp.Basic, probe: dict) -> float:
    """An upper estimate of ``log10 |expr|`` (``probe``: the ``log10`` size of each variable),
    computed in log space so that no large number is ever built."""
    if expr in probe:
        return probe[expr]
    if expr.is_Integer or expr.is_Rational:
        return math.log10(max(abs(int(expr.p)), 1))
    args = [_log10_size(a, probe) for a in expr.args if isinstance(a, sp.Basic)]
    if isinstance(expr, sp.Pow) and len(args) == 2:
        base, exponent = args
        value = 10 ** exponent if exponent < 300 else float("inf")
        return value * base if base > 0 else 0.0
    if isinstance(expr, sp.Mul):
        return sum(args)
    if isinstance(expr, sp.Add):
        return max(args, default=0.0) + math.log10(max(len(args), 1))
    return max(args, default=0.0)


def astronomical(statement: Statement) -> str | None:
    """A statement whose powers have more than :data:`MAX_DIGITS` digits at the values the
    draws take (``10 ^ 10 ^ 10 ^ n``): no draw would finish, so none is run. The reason
    that says so, or ``None``."""
    probe = {v.symbol: math.log10(8) for v in statement.variables
             if not v.ty.is_array and v.ty.kind in ("Nat", "Int", "PNat")}
    for definition in statement.definitions:  # a defined variable is as large as its value
        probe[definition.symbol] = _log10_size(definition.expr, probe)
    parts = [h for _, h in statement.hypotheses] + [statement.conclusion]
    if max((_log10_size(p, probe) for p in parts), default=0.0) <= MAX_DIGITS:
        return None
    return (f"its powers have more than {MAX_DIGITS:.0e} digits at the values drawn (a power "
            "tower): no example is evaluated")


__all__ = ["MAX_DIGITS", "astronomical"]
