"""The independent checker of a refutation certificate (:mod:`mirror.judge.certificate`).

It re-evaluates the statement *from its sympy form* — not the generated code, not the
runtimes, not :func:`mirror.judge.exact.decide` — at the certificate's exact draw: the draw's
rationals are substituted, sympy folds what it knows (Lean's junk nodes fold only once their
guard is known), and what remains is enclosed with python-flint balls at rising precision by
this module's own evaluator. A relation is decided only by its enclosure (``a = b`` only
exactly); a junk branch only when its guard is decided. The certificate is accepted when every
hypothesis is decided true, the conclusion decided false, and every enclosure the certificate
states overlaps the recomputed one and decides what it claims.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import sympy as sp
from flint import acb, arb, ctx, fmpq

from bridge.errors import LeanMirrorError
from mirror.translate import big_operators, digits, integers, reals

#: Binary exponents of enclosures the checker writes as exact rationals, at most.
EXPONENT_LIMIT = 1 << 16
#: Precisions the checker tries, in bits.
PRECISIONS = (128, 512, 2048, 8192)


class CheckerError(LeanMirrorError, ValueError):
    """The checker cannot evaluate a construct of the statement (the certificate is then
    rejected with this reason, never accepted)."""


class Undecided(ArithmeticError):
    """A guard or a relation the enclosures do not decide at this precision."""


@dataclass
class Verdict:
    """The checker's answer."""

    accepted: bool
    reason: str

    def line(self, name: str) -> str:
        return f"{'accepted' if self.accepted else 'rejected'}: {name}: {self.reason}"


# ---- numbers ------------------------------------------------------------------------------------


def _exact(value) -> bool:
    return isinstance(value, (int, fmpq))


def _ball(value):
    if isinstance(value, (arb, acb)):
        return value
    return arb(value)


def _sign(value) -> int:
    """The decided sign of a real number; :class:`Undecided` otherwise. (The search's
    :func:`mirror.evaluate.balls.sign_of` is deliberately not reused: the checker shares no
    deciding code with the search.)"""
    if _exact(value):
        return (value > 0) - (value < 0)
    if isinstance(value, acb):
        if not value.imag.is_zero():
            raise Undecided("the sign of a complex number")
        value = value.real
    if value.is_zero():
        return 0
    if value > 0:
        return 1
    if value < 0:
        return -1
    raise Undecided("a sign the enclosure does not decide")


def _positive_real(value, what: str):
    if _sign(value) <= 0:
        raise Undecided(f"{what} of a number not decided positive")
    return _ball(value)


def _log(x):
    return _positive_real(x, "log").log()


def _sqrt(x):
    return 0 if _sign(x) == 0 else _positive_real(x, "sqrt").sqrt()


def _pow(base, exponent):
    if isinstance(exponent, int):
        if _exact(base):
            if base == 0 and exponent < 0:
                raise CheckerError("0 to a negative power in the sympy form")
            return fmpq(base) ** exponent if exponent < 0 else base ** exponent
        return base ** exponent
    if _exact(exponent) and exponent == fmpq(1, 2):
        return _sqrt(base)
    return (_positive_real(base, "a real power") .log() * _ball(exponent)).exp()


def _lean_div(a, b):
    s = _sign(b)
    if s == 0:
        return 0
    if _exact(a) and _exact(b):
        return fmpq(a) / b
    return _ball(a) / _ball(b)


def _lean_log(x):
    s = _sign(x)
    return 0 if s == 0 else _ball(abs(x)).log()


def _lean_sqrt(x):
    return 0 if _sign(x) <= 0 else _ball(x).sqrt()


def _lean_rpow(x, y):
    s = _sign(x)
    if s == 0:
        return 1 if _sign(y) == 0 else 0
    magnitude = (_ball(abs(x)).log() * _ball(y)).exp()
    return magnitude if s > 0 else magnitude * (_ball(y) * arb.pi()).cos()


def _lean_ratio(num: str, den: str) -> Callable:
    def evaluate(x):
        d = getattr(_ball(x), den)()
        return 0 if _sign(d) == 0 else getattr(_ball(x), num)() / d

    return evaluate


def _lean_arcsin(x):
    if _sign(_difference(x, 1)) >= 0:
        return arb.pi() / 2
    if _sign(_difference(x, -1)) <= 0:
        return -arb.pi() / 2
    return _ball(x).asin()


def _difference(a, b):
    if _exact(a) and _exact(b):
        return fmpq(a) - b
    return _ball(a) - _ball(b)


def _extremum(pick_first: Callable) -> Callable:
    def evaluate(*values):
        out = values[0]
        for v in values[1:]:
            out = out if pick_first(_sign(_difference(out, v))) else v
        return out

    return evaluate


def _integer(method: str) -> Callable:
    def evaluate(x):
        if isinstance(x, int):
            return x
        if isinstance(x, fmpq):
            return int(getattr(x, method)())
        value = getattr(_ball(x), method)().unique_fmpz()
        if value is None:
            raise Undecided(f"the {method} of a ball")
        return int(value)

    return evaluate


def _on_integers(fn: Callable) -> Callable:
    """An integer function (ℕ/ℤ division and remainder with Lean's junk values, digits…) on
    exact integer arguments; undecided on anything else."""
    def evaluate(*xs):
        ints = []
        for x in xs:
            if isinstance(x, fmpq) and x.q == 1:
                x = int(x.p)
            if not isinstance(x, int):
                raise Undecided("an integer function of a value that is not an exact integer")
            ints.append(x)
        return fn(*ints)

    return evaluate


def _rational_part(part: str) -> Callable:
    """``Rat.num`` / ``Rat.den`` of an exact rational (``fmpq`` is kept in lowest terms)."""
    def evaluate(x):
        if isinstance(x, int):
            return x if part == "p" else 1
        if isinstance(x, fmpq):
            return int(getattr(x, part))
        raise Undecided("the numerator or denominator of a value that is not exact")

    return evaluate


#: sympy function classes → their rigorous evaluation on the evaluated arguments.
_FUNCTIONS: dict[type, Callable] = {
    integers.NatMod: _on_integers(integers.int_emod),
    integers.NatDiv: _on_integers(lambda a, b: 0 if b == 0 else a // b),
    integers.IntDiv: _on_integers(integers.int_ediv),
    integers.NatSub: _on_integers(lambda a, b: max(a - b, 0)),
    integers.NatGcd: _on_integers(math.gcd),
    integers.NatLcm: _on_integers(math.lcm),
    integers.RatNum: _rational_part("p"),
    integers.RatDen: _rational_part("q"),
    digits.DigitSum: _on_integers(digits.digit_sum),
    digits.DigitLength: _on_integers(digits.digit_length),
    digits.Digit: _on_integers(digits.digit_at),
    sp.exp: lambda x: _ball(x).exp(),
    sp.log: _log,
    sp.sin: lambda x: _ball(x).sin(),
    sp.cos: lambda x: _ball(x).cos(),
    sp.tan: lambda x: _ball(x).tan(),
    sp.atan: lambda x: _ball(x).atan(),
    sp.sinh: lambda x: _ball(x).sinh(),
    sp.cosh: lambda x: _ball(x).cosh(),
    sp.tanh: lambda x: _ball(x).tanh(),
    sp.Abs: lambda x: abs(x),
    sp.sign: _sign,
    sp.floor: _integer("floor"),
    sp.ceiling: _integer("ceil"),
    sp.Max: _extremum(lambda s: s >= 0),
    sp.Min: _extremum(lambda s: s <= 0),
    reals.LeanDiv: _lean_div,
    reals.LeanLog: _lean_log,
    reals.LeanSqrt: _lean_sqrt,
    reals.LeanRpow: _lean_rpow,
    reals.LeanTan: _lean_ratio("sin", "cos"),
    reals.LeanCot: _lean_ratio("cos", "sin"),
    reals.LeanArcsin: _lean_arcsin,
}


def number(expr: sp.Basic, env: dict):
    """A rigorous value of a sympy number whose symbols ``env`` gives (``int``/``fmpq``
    exactly, else a ball). sympy evaluates nothing here: every node is this module's."""
    if isinstance(expr, sp.Symbol):
        if expr not in env:
            raise CheckerError(f"no value for the symbol {expr}")
        return env[expr]
    if expr.is_Integer:
        return int(expr)
    if expr.is_Rational:
        return fmpq(int(expr.p), int(expr.q))
    if isinstance(expr, sp.Float):
        exact = Fraction(*sp.Rational(expr).as_numer_denom())
        return fmpq(exact.numerator, exact.denominator)
    if expr is sp.pi:
        return arb.pi()
    if expr is sp.E:
        return arb.const_e()
    if expr is sp.I:
        return acb(0, 1)
    if isinstance(expr, sp.Add):
        total = 0
        for arg in expr.args:
            total = total + number(arg, env)
        return total
    if isinstance(expr, sp.Mul):
        product = 1
        for arg in expr.args:
            product = product * number(arg, env)
        return product
    if isinstance(expr, sp.Pow):
        return _pow(number(expr.base, env), number(expr.exp, env))
    if isinstance(expr, (big_operators.FinMax, big_operators.FinMin)):
        return _range_extremum(expr, env)
    for cls, evaluate in _FUNCTIONS.items():
        if isinstance(expr, cls):
            return evaluate(*(number(arg, env) for arg in expr.args))
    raise CheckerError(f"the checker does not evaluate {type(expr).__name__} ({expr})"[:200])


def _range_extremum(expr: sp.Basic, env: dict):
    """``max``/``min`` of a ``Lambda`` over ``[lo, hi)`` (exact integer bounds); the empty
    range's value, or undecided where it is marked unreachable (``nan``)."""
    body, lo, hi, empty = expr.args
    lo, hi = (_on_integers(lambda v: v)(number(b, env)) for b in (lo, hi))
    (var,) = body.variables
    values = [number(body.expr, {**env, var: j}) for j in range(lo, hi)]
    if not values:
        if empty is sp.nan:
            raise Undecided("a sup'/inf' of an empty set (unreachable in Lean)")
        return number(empty, env)
    pick = (lambda s: s >= 0) if isinstance(expr, big_operators.FinMax) else (lambda s: s <= 0)
    return _extremum(pick)(*values)


# ---- propositions -----------------------------------------------------------------------------


def _interval(value) -> tuple[Fraction, Fraction]:
    if _exact(value):
        exact = Fraction(int(fmpq(value).p), int(fmpq(value).q))
        return exact, exact
    if isinstance(value, acb):
        if not value.imag.is_zero():
            raise Undecided("a complex difference")
        value = value.real
    if not value.is_finite():
        raise Undecided("a non-finite enclosure")
    mid = _dyadic(value.mid())
    rad = _dyadic(value.rad())
    return mid - rad, mid + rad


def _dyadic(value: arb) -> Fraction:
    mantissa, exponent = value.man_exp()
    if abs(int(exponent)) > EXPONENT_LIMIT:
        raise Undecided(f"an enclosure with binary exponent {int(exponent)} (beyond "
                        f"{EXPONENT_LIMIT}: too large to write as a rational)")
    return Fraction(int(mantissa)) * Fraction(2) ** int(exponent)


def _relation(kind: str, a: sp.Basic, b: sp.Basic, env: dict, trace: list) -> bool | None:
    """``a <kind> b`` decided by the enclosure of ``a − b`` (``None``: undecided)."""
    try:
        low, high = _interval(_difference(number(a, env), number(b, env)))
    except Undecided:
        trace.append({"relation": kind, "difference": None, "decision": "undecided"})
        return None
    value = {
        "=": True if low == high == 0 else (False if low > 0 or high < 0 else None),
        "<": True if high < 0 else (False if low >= 0 else None),
        "≤": True if high <= 0 else (False if low > 0 else None),
    }[kind]
    mid, rad = (low + high) / 2, (high - low) / 2
    trace.append({"relation": kind, "difference": {"mid": str(mid), "rad": str(rad)},
                  "decision": {True: "true", False: "false", None: "undecided"}[value]})
    return value


def _not(value):
    return None if value is None else not value


def _and(values):
    return False if False in values else (None if None in values else True)


def _or(values):
    return True if True in values else (None if None in values else False)


def proposition(expr: sp.Basic, env: dict, trace: list) -> bool | None:
    """The three-valued truth of a sympy proposition whose symbols ``env`` gives; relations
    are appended to ``trace`` in evaluation order."""
    if expr is sp.true:
        return True
    if expr is sp.false:
        return False
    if isinstance(expr, sp.Eq):
        return _relation("=", expr.lhs, expr.rhs, env, trace)
    if isinstance(expr, sp.Ne):
        return _not(_relation("=", expr.lhs, expr.rhs, env, trace))
    if isinstance(expr, sp.StrictLessThan):
        return _relation("<", expr.lhs, expr.rhs, env, trace)
    if isinstance(expr, sp.LessThan):
        return _relation("≤", expr.lhs, expr.rhs, env, trace)
    if isinstance(expr, sp.StrictGreaterThan):
        return _relation("<", expr.rhs, expr.lhs, env, trace)
    if isinstance(expr, sp.GreaterThan):
        return _relation("≤", expr.rhs, expr.lhs, env, trace)
    if isinstance(expr, sp.Not):
        return _not(proposition(expr.args[0], env, trace))
    if isinstance(expr, sp.And):
        return _and([proposition(arg, env, trace) for arg in expr.args])
    if isinstance(expr, sp.Or):
        return _or([proposition(arg, env, trace) for arg in expr.args])
    if isinstance(expr, sp.Implies):
        return _or([_not(proposition(expr.args[0], env, trace)), proposition(expr.args[1], env, trace)])
    if isinstance(expr, sp.Equivalent):
        values = [proposition(arg, env, trace) for arg in expr.args]
        return None if None in values else len(set(values)) == 1
    raise CheckerError(f"the checker does not evaluate {type(expr).__name__} ({expr})"[:200])


def environment(statement: Any, draw: dict[str, sp.Basic]) -> dict[sp.Symbol, Any]:
    """The statement's symbols → their values at the working precision: the draw's exact
    numbers, and for a variable the statement defines by an equation hypothesis, its
    defining expression evaluated."""
    env: dict[sp.Symbol, Any] = {}
    defined = {d.name for d in getattr(statement, "definitions", [])}
    for variable in statement.variables:
        if variable.name in defined:
            continue
        if variable.name not in draw:
            raise CheckerError(f"the draw has no value for the variable {variable.name}")
        env[variable.symbol] = number(draw[variable.name], env)
    for definition in getattr(statement, "definitions", []):
        env[definition.symbol] = number(definition.expr, env)
    return env


def evaluate_parts(statement: Any, draw: dict[str, sp.Basic]) -> dict[str, Any]:
    """Each hypothesis and the conclusion at ``draw``, decided at rising precision:
    ``{"hypotheses": [(label, decision, trace, bits)], "conclusion": (decision, trace, bits)}``
    with decisions ``True``/``False``/``None``."""
    parts = [*statement.hypotheses, ("conclusion", statement.conclusion)]
    results = []
    for label, expr in parts:
        value, trace, bits = None, [], PRECISIONS[0]
        for bits in PRECISIONS:
            previous = ctx.prec
            ctx.prec = bits
            try:
                trace = []
                try:
                    value = proposition(expr, environment(statement, draw), trace)
                except Undecided:
                    value = None
            finally:
                ctx.prec = previous
            if value is not None:
                break
        results.append((label, value, trace, bits))
    return {"hypotheses": results[:-1], "conclusion": results[-1][1:]}


# ---- checking a certificate -------------------------------------------------------------------


def _stated_interval(enclosure: dict) -> tuple[Fraction, Fraction]:
    mid, rad = Fraction(enclosure["mid"]), Fraction(enclosure["rad"])
    if rad < 0:
        raise CheckerError(f"a negative radius {enclosure['rad']}")
    return mid - rad, mid + rad


def _consistent(stated: list, computed: list, what: str) -> str | None:
    """Why the stated relation enclosures contradict the recomputed ones (``None``: they
    agree: same relations, overlapping enclosures, each deciding what it claims)."""
    if len(stated) != len(computed):
        return f"{what}: {len(stated)} relation(s) stated, {len(computed)} evaluated"
    for i, (mine, theirs) in enumerate(zip(computed, stated)):
        if theirs.get("relation") != mine["relation"]:
            return f"{what}: relation {i + 1} is {mine['relation']}, not {theirs.get('relation')}"
        if mine["difference"] is None or theirs.get("difference") is None:
            continue
        low, high = _stated_interval(theirs["difference"])
        my_low, my_high = _stated_interval(mine["difference"])
        if high < my_low or my_high < low:
            return (f"{what}: the stated enclosure of relation {i + 1} "
                    f"[{float(low):.6g}, {float(high):.6g}] does not contain its value "
                    f"[{float(my_low):.6g}, {float(my_high):.6g}]")
        if theirs.get("decision") != mine["decision"] and mine["decision"] != "undecided":
            return (f"{what}: relation {i + 1} is stated {theirs.get('decision')}, "
                    f"evaluated {mine['decision']}")
    return None


def check(statement: Any, certificate: dict[str, Any], draw: dict[str, sp.Basic]) -> Verdict:
    """Re-verify ``certificate`` (already read and validated, with its ``draw`` parsed to
    exact sympy numbers) against ``statement`` (the translated sympy form)."""
    try:
        parts = evaluate_parts(statement, draw)
    except CheckerError as exc:
        return Verdict(False, f"the checker cannot evaluate the statement: {exc}")
    stated_hyps = certificate["hypotheses"]
    if [h.get("name") for h in stated_hyps] != [label for label, *_ in parts["hypotheses"]]:
        return Verdict(False, "the certificate's hypotheses are not the statement's ("
                       + ", ".join(str(h.get("name")) for h in stated_hyps) + ")")
    for stated, (label, value, trace, _bits) in zip(stated_hyps, parts["hypotheses"]):
        if stated.get("decision") != "true":
            return Verdict(False, f"hypothesis {label} is stated {stated.get('decision')}: "
                           "a refutation needs every hypothesis true")
        if value is not True:
            found = "false" if value is False else "undecided"
            return Verdict(False, f"hypothesis {label} is {found} at the draw")
        problem = _consistent(stated.get("relations", []), trace, f"hypothesis {label}")
        if problem:
            return Verdict(False, problem)
    value, trace, bits = parts["conclusion"]
    stated = certificate["conclusion"]
    if stated.get("decision") != "false":
        return Verdict(False, f"the conclusion is stated {stated.get('decision')}")
    if value is not False:
        return Verdict(False, "the conclusion is " + ("true" if value else "undecided")
                       + " at the draw")
    problem = _consistent(stated.get("relations", []), trace, "the conclusion")
    if problem:
        return Verdict(False, problem)
    return Verdict(True, f"every hypothesis holds and the conclusion fails at the draw "
                   f"(re-evaluated from the sympy form with balls at {bits} bits)")


__all__ = ["CheckerError", "PRECISIONS", "Verdict", "check", "evaluate_parts", "number",
           "proposition", "environment"]
