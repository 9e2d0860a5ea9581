"""The independent check of a ``certified`` row's certificate (a box cover).

:mod:`mirror.judge.boxes` found the cover; this module trusts nothing of it but its shape. It
takes the statement from its own translation (the sympy hypotheses and conclusion, never text
read back from the certificate), rebuilds every piece by walking the bisection tree from the
box (so that the pieces cover the box by construction: each split cuts one side of its
parent at the recorded point, which must lie strictly inside it), and re-decides each leaf with
its own Arb evaluation: a leaf marked ``conclusion`` must have its conclusion certainly true
on the piece, a leaf marked ``hypothesis k`` its ``k``-th hypothesis certainly false. Lean's
junk cases (``x / 0``, ``log 0``, ``√`` of a negative, ``arcsin`` off ``[-1, 1]``) make an
evaluation fail unless the ball avoids them.

:func:`check_box_certificate` returns the list of problems (empty: the certificate holds).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from flint import arb, ctx

from mirror.translate import vocabulary as V


class _Rejected(Exception):
    """This piece cannot be enclosed safely."""


def _frac(text: str) -> Fraction:
    numerator, _, denominator = str(text).partition("/")
    return Fraction(int(numerator), int(denominator or 1))


def _hull(lo: Fraction, hi: Fraction) -> arb:
    a = arb(lo.numerator) / lo.denominator
    b = arb(hi.numerator) / hi.denominator
    return a.union(b)


def _positive(x: arb) -> arb:
    if not x > 0:
        raise _Rejected("a positive argument was needed")
    return x


def _away_from_zero(x: arb) -> arb:
    if not (x > 0 or x < 0):
        raise _Rejected("an argument may be zero")
    return x


def _value(e: sp.Basic, at: dict) -> arb:
    """The Arb enclosure of ``e`` (a second, separate evaluator; see :mod:`mirror.judge.boxes`)."""
    if isinstance(e, sp.Symbol):
        return at[e]
    if isinstance(e, sp.Rational):
        return arb(int(e.p)) / int(e.q)
    if e == sp.pi:
        return arb.pi()
    if e == sp.E:
        return arb(1).exp()
    a = [_value(x, at) for x in e.args] if not isinstance(e, sp.Pow) else None
    name = type(e).__name__
    if isinstance(e, sp.Add):
        return sum(a[1:], a[0])
    if isinstance(e, sp.Mul):
        out = a[0]
        for x in a[1:]:
            out = out * x
        return out
    if isinstance(e, sp.Pow):
        base, power = e.args
        b = _value(base, at)
        if isinstance(power, sp.Integer):
            n = int(power)
            return b ** n if n >= 0 else 1 / _away_from_zero(b ** (-n))
        if power == sp.Rational(1, 2) and b >= 0:
            return b.sqrt()
        return (_value(power, at) * _positive(b).log()).exp()
    unary = {"exp": arb.exp, "sin": arb.sin, "cos": arb.cos, "atan": arb.atan,
             "sinh": arb.sinh, "cosh": arb.cosh, "tanh": arb.tanh, "Abs": abs}
    if name in unary:
        return unary[name](a[0])
    if isinstance(e, V.LeanDiv):
        if a[1] == 0:
            return arb(0)
        return a[0] / _away_from_zero(a[1])
    if isinstance(e, V.LeanLog):
        return abs(_away_from_zero(a[0])).log()
    if isinstance(e, V.LeanSqrt):
        if a[0] >= 0:
            return a[0].sqrt()
        if a[0] <= 0:
            return arb(0)
        return arb(0).union(arb(a[0].upper()).sqrt())  # √ is 0 on the negative part
    if isinstance(e, V.LeanRpow):
        return (a[1] * _positive(a[0]).log()).exp()
    if isinstance(e, V.LeanTan):
        return a[0].sin() / _away_from_zero(a[0].cos())
    if isinstance(e, V.LeanArcsin):
        if not (a[0] >= -1 and a[0] <= 1):
            raise _Rejected("arcsin off [-1, 1]")
        return a[0].asin()
    if isinstance(e, (sp.Max, sp.Min)):
        ordered = sorted(a, key=lambda x: float(x.mid()))
        pick = ordered[-1] if isinstance(e, sp.Max) else ordered[0]
        if all((pick >= x) if isinstance(e, sp.Max) else (pick <= x) for x in a):
            return pick
        raise _Rejected("an undecided max/min")
    raise _Rejected(f"no enclosure for {name}")


def _gaps(difference: sp.Basic, at: dict, ends: dict):
    """Pairs of balls containing the least and the largest value of ``difference`` on the
    piece: the direct enclosure (twice), the first-order Taylor form around the piece's centre
    (``d(c) + ∇d(X)·(X - c)``, gradient by sympy), and the end faces along the axes where the
    slope keeps one sign."""
    try:
        whole = _value(difference, at)
        yield whole, whole
    except _Rejected:
        pass
    symbols = [s for s in at if s in difference.free_symbols]
    if not symbols:
        return
    slopes = [sp.diff(difference, s) for s in symbols]
    if any(g.has(sp.Derivative, sp.Subs) for g in slopes):
        return
    middle = {s: arb(at[s].mid()) for s in at}
    try:
        total = _value(difference, middle)
        for s, g in zip(symbols, slopes):
            total = total + _value(g, at) * (at[s] - middle[s])
    except _Rejected:
        return
    yield total, total
    # along an axis where the slope keeps one sign, the extremes lie on the end faces
    low, high = dict(at), dict(at)
    for s, g in zip(symbols, slopes):
        try:
            slope = _value(g, at)
        except _Rejected:
            continue
        if slope >= 0:
            low[s], high[s] = ends[s]
        elif slope <= 0:
            high[s], low[s] = ends[s]
    if low != at:
        try:
            yield _value(difference, low), _value(difference, high)
        except _Rejected:
            pass


def _certainly(p: sp.Basic, at: dict, ends: dict) -> bool:
    """``p`` holds at every point of the piece (``False``: not shown)."""
    if p is sp.true:
        return True
    if isinstance(p, sp.And):
        return all(_certainly(q, at, ends) for q in p.args)
    if isinstance(p, sp.Or):
        return any(_certainly(q, at, ends) for q in p.args)
    if isinstance(p, sp.Implies):
        return _never(p.args[0], at, ends) or _certainly(p.args[1], at, ends)
    if isinstance(p, sp.Not):
        return _never(p.args[0], at, ends)
    if isinstance(p, (sp.LessThan, sp.StrictLessThan, sp.GreaterThan, sp.StrictGreaterThan,
                      sp.Unequality)):
        for least, most in _gaps(p.rhs - p.lhs, at, ends):
            if {sp.LessThan: least >= 0, sp.StrictLessThan: least > 0, sp.GreaterThan: most <= 0,
                    sp.StrictGreaterThan: most < 0,
                    sp.Unequality: least > 0 or most < 0}[type(p)]:
                return True
        return False
    return False


def _never(p: sp.Basic, at: dict, ends: dict) -> bool:
    """``p`` fails at every point of the piece."""
    if p is sp.false:
        return True
    if isinstance(p, sp.And):
        return any(_never(q, at, ends) for q in p.args)
    if isinstance(p, sp.Or):
        return all(_never(q, at, ends) for q in p.args)
    if isinstance(p, sp.Implies):
        return _certainly(p.args[0], at, ends) and _never(p.args[1], at, ends)
    if isinstance(p, sp.Not):
        return _certainly(p.args[0], at, ends)
    if isinstance(p, (sp.Equality, sp.Unequality, sp.LessThan, sp.StrictLessThan,
                      sp.GreaterThan, sp.StrictGreaterThan)):
        return _certainly(p.negated, at, ends)
    return False


def check_box_certificate(certificate: dict, symbols: list[sp.Symbol], hypotheses: list[sp.Basic],
                          conclusion: sp.Basic) -> list[str]:
    """The problems of ``certificate`` for the statement ``hypotheses → conclusion`` over
    ``symbols`` (the drawn variables, in the certificate's order); ``[]`` when it holds."""
    if not isinstance(certificate, dict) or certificate.get("version") != 1 \
            or certificate.get("kind") != "box-cover":
        return ["certificate: expected a version-1 box-cover record"]
    box = [(_frac(lo), _frac(hi)) for lo, hi in certificate["box"]]
    if len(box) != len(symbols) or any(lo > hi for lo, hi in box):
        return [f"box: expected {len(symbols)} intervals lo ≤ hi, got {certificate['box']}"]
    problems: list[str] = []
    old = ctx.prec
    ctx.prec = int(certificate.get("precision", 96))
    try:
        stack = [(certificate["tree"], box, "root")]
        while stack:
            node, piece, path = stack.pop()
            at = {s: _hull(lo, hi) for s, (lo, hi) in zip(symbols, piece)}
            ends = {s: (_hull(lo, lo), _hull(hi, hi)) for s, (lo, hi) in zip(symbols, piece)}
            if "leaf" in node:
                problems.extend(_leaf_problems(node["leaf"], at, ends, hypotheses, conclusion,
                                               path))
                continue
            axis, cut = int(node["split"]), _frac(node["at"])
            lo, hi = piece[axis]
            if not lo < cut < hi or len(node["parts"]) != 2:
                problems.append(f"{path}: split at {cut} is not inside ({lo}, {hi})")
                continue
            left, right = list(piece), list(piece)
            left[axis], right[axis] = (lo, cut), (cut, hi)
            stack.append((node["parts"][0], left, path + ".0"))
            stack.append((node["parts"][1], right, path + ".1"))
    finally:
        ctx.prec = old
    return problems


def _leaf_problems(leaf: str, at: dict, ends: dict, hypotheses: list, conclusion,
                   path: str) -> list[str]:
    if leaf == "conclusion":
        return [] if _certainly(conclusion, at, ends) else [f"{path}: conclusion not certain"]
    kind, _, index = leaf.partition(" ")
    if kind == "hypothesis" and index.isdigit() and int(index) < len(hypotheses):
        return [] if _never(hypotheses[int(index)], at, ends) else [
            f"{path}: hypothesis {index} not certainly false"]
    return [f"{path}: unknown leaf {leaf!r}"]


__all__ = ["check_box_certificate"]
