"""The independent checker of a refutation certificate (:mod:`mirror.judge.certificate`).

It re-evaluates the statement *from its sympy form* — not the generated code, not the
runtimes, not :func:`mirror.judge.exact.decide` — at the certificate's exact draw: the draw's
rationals are substituted, sympy folds what it knows (Lean's junk nodes fold only once their
guard is known), and what remains is enclosed with python-flint balls at rising precision by
this module's own evaluator. A relation is decided only by its enclosure (``a = b`` only
exactly); a junk branch only when its guard is decided. The certificate is accepted when every
hypothesis is decided true, the conclusion decided false, and every enclosure the certificate
states overlaps the recomputed one and decides what it claims.

``ℝ≥0∞``'s ``⊤`` (a draw written ``"⊤"``, certificate version 2, or sympy's ``oo`` in the
statement) is the checker's own value :data:`~mirror.judge.checker_values.TOP`, evaluated by
Mathlib's rules in :mod:`mirror.judge.checker_values` (the checker's numbers, shared with no
search code).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import acb, arb, ctx, fmpq

from mirror.judge.checker_algebraic import (ALGEBRAIC_KEY, AlgebraicPoint, algebraic_symbols,
                                            exact_zero)
from mirror.judge.checker_observed import observed_call
from mirror.judge.checker_recurrence import RECURRENCE_KEY, decide as decide_recurrence
from mirror.judge.checker_values import (FUNCTIONS, TOP, CheckerError, Undecided, _compare,
                                         _difference, _exact, _no_top, _pow, _sign, _top)
from mirror.translate import big_operators, matrices, recursive_nodes, vocabulary
from mirror.translate.values import NAT_DOMAIN

#: Binary exponents of enclosures the checker writes as exact rationals, at most.
EXPONENT_LIMIT = 1 << 16
#: How many indices of a quantifier cut at the sampling bound the checker looks at (any prefix
#: is sound: it only ever decides in the polarity a finite part decides).
TRUNCATED_PREFIX = 32
#: Precisions the checker tries, in bits.
PRECISIONS = (128, 512, 2048, 8192)


@dataclass
class Verdict:
    """The checker's answer."""

    accepted: bool
    reason: str

    def line(self, name: str) -> str:
        return f"{'accepted' if self.accepted else 'rejected'}: {name}: {self.reason}"


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
    if expr is sp.oo:
        return TOP
    if expr is sp.pi:
        return arb.pi()
    if expr is sp.E:
        return arb.const_e()
    if expr is sp.I:
        return acb(0, 1)
    if isinstance(expr, sp.Add):
        total = 0
        for arg in expr.args:
            total = total + _no_top(number(arg, env), "+")
        return total
    if isinstance(expr, sp.Mul):
        product = 1
        for arg in expr.args:
            product = product * _no_top(number(arg, env), "*")
        return product
    if isinstance(expr, sp.Pow):
        return _pow(number(expr.base, env), number(expr.exp, env))
    if isinstance(expr, (big_operators.FinMax, big_operators.FinMin)):
        return _range_extremum(expr, env)
    if isinstance(expr, (big_operators.FinSum, big_operators.FinProd)):
        total = 0 if isinstance(expr, big_operators.FinSum) else 1
        for term in _range_terms(expr, env):
            total = (total + number(*term)) if isinstance(expr, big_operators.FinSum) \
                else total * number(*term)
        return total
    if isinstance(expr, vocabulary.Index):
        return _index(expr, env)
    if isinstance(expr, vocabulary.BoundCall):  # only a kernel-output certificate's observed
        return observed_call(expr, env, number)
    if isinstance(expr, (recursive_nodes.RecursiveEval, recursive_nodes.RecursiveCall)):
        return _recursive(expr, env)
    if isinstance(expr, vocabulary.LeanIte):
        condition = proposition(expr.args[0], env, [])
        if condition is None:
            raise Undecided("the condition of an if-then-else")
        return number(expr.args[1] if condition else expr.args[2], env)
    for cls, evaluate in FUNCTIONS.items():
        if isinstance(expr, cls):
            return evaluate(*(number(arg, env) for arg in expr.args))
    raise CheckerError(f"the checker does not evaluate {type(expr).__name__} ({expr})"[:200])


#: The most terms of a finite sum, product or bounded quantifier the checker evaluates.
RANGE_LIMIT = 4096


def _range_terms(expr: sp.Basic, env: dict) -> list[tuple[sp.Basic, dict]]:
    """``(body, env with its index bound)`` for each index of ``[lo, hi)`` of a finite
    big operator (the body evaluated by this module with the index in its environment, not
    substituted by sympy)."""
    body, lo, hi = expr.args
    if not isinstance(body, sp.Lambda) or len(body.variables) != 1:
        raise CheckerError(f"a big operator over {type(body).__name__}, not a one-index body")
    low, high = number(lo, env), number(hi, env)
    if not (isinstance(low, int) and isinstance(high, int)):
        raise CheckerError("a big operator whose bounds are not exact integers")
    if high - low > RANGE_LIMIT:
        raise CheckerError(f"a big operator over {high - low} indices (beyond {RANGE_LIMIT})")
    index = body.variables[0]
    return [(body.expr, {**env, index: j}) for j in range(low, max(low, high))]


def _range_extremum(expr: sp.Basic, env: dict):
    """``max``/``min`` over ``[lo, hi)`` (``Finset.sup'``, ``⨆ i : Fin n``); the empty range's
    value, or undecided where it is marked unreachable (``nan``: a ``sup'`` needs a proof
    that its set is nonempty)."""
    body, lo, hi, empty = expr.args
    values = [number(*term) for term in _range_terms(sp.Tuple(body, lo, hi), env)]
    if not values:
        if empty is sp.nan:
            raise Undecided("a sup'/inf' of an empty set (unreachable in Lean)")
        return number(empty, env)
    pick = FUNCTIONS[sp.Max if isinstance(expr, big_operators.FinMax) else sp.Min]
    return pick(*values)


#: The most calls of a recursive definition one evaluation makes (Lean's recursion
#: terminates; the checker's budget keeps it bounded all the same).
CALL_LIMIT = 100_000
#: The environment's keys for the recursive system being evaluated and its call count.
_SYSTEM, _CALLS = "system", "calls"


def _recursive(expr: sp.Basic, env: dict):
    """A member of a recursive system (``RecursiveEval``: applied in the statement, the
    system its second argument; ``RecursiveCall``: inside a body, the system being
    evaluated) on its evaluated arguments: the member's body evaluated by this module with
    its parameters bound."""
    if isinstance(expr, (recursive_nodes.RecursiveEval, recursive_nodes.RecursiveEvalTruth)):
        name, system, *args = expr.args
        calls = [0]
    else:
        (name, *args), system, calls = expr.args, env.get(_SYSTEM), env.get(_CALLS)
        if system is None:
            raise CheckerError(f"a recursive call of {name} outside its definition")
    members = {entry.args[0].name: entry.args[1:] for entry in system.args}
    if name.name not in members:
        raise CheckerError(f"the recursive system has no member {name.name}")
    body, truth = members[name.name]
    calls[0] += 1
    if calls[0] > CALL_LIMIT:
        raise CheckerError(f"more than {CALL_LIMIT} recursive calls")
    values = [number(a, env) for a in args]
    inner = {**dict(zip(body.variables, values)), _SYSTEM: system, _CALLS: calls}
    return proposition(body.expr, inner, []) if truth is sp.true else number(body.expr, inner)


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


#: A relation with ``⊤`` on a side, decided by the order of ℝ≥0∞ (``⊤`` the greatest):
#: the sign of ``a − b`` (+1: only ``a`` is ⊤, −1: only ``b``, 0: both) → its truth.
_TOP_RELATIONS = {"=": lambda sign: sign == 0, "<": lambda sign: sign < 0,
                  "≤": lambda sign: sign <= 0}
_TOP_SIDES = {1: "left", -1: "right", 0: "both"}


def _top_relation(kind: str, a, b, trace: list) -> bool:
    sign = _compare(a, b)
    value = _TOP_RELATIONS[kind](sign)
    trace.append({"relation": kind, "difference": {"top": _TOP_SIDES[sign]},
                  "decision": "true" if value else "false"})
    return value


def _relation(kind: str, a: sp.Basic, b: sp.Basic, env: dict, trace: list) -> bool | None:
    """``a <kind> b`` decided by the enclosure of ``a − b`` (``None``: undecided); a side
    that is ``⊤`` decides it by the order of ℝ≥0∞."""
    try:
        left, right = number(a, env), number(b, env)
    except Undecided:
        trace.append({"relation": kind, "difference": None, "decision": "undecided"})
        return None
    if algebraic_symbols(env) and _undecided_zero(left, right) \
            and exact_zero(a - b, env, lambda expr: _nonzero(expr, env)):
        value = _decide(kind, 0, 0, trace)  # exactly 0 at the algebraic point (never a ball)
        trace[-1]["method"] = "exactly 0: the numerator's remainder modulo the polynomial"
        return value
    return _decide(kind, left, right, trace)


def _undecided_zero(left, right) -> bool:
    """Whether ``left − right`` is an inexact ball containing 0 (what only an exact argument
    decides)."""
    if isinstance(left, tuple) or isinstance(right, tuple) or _top(left) or _top(right):
        return False
    try:
        difference = _difference(left, right)
        if _exact(difference):
            return False
        _sign(difference)
    except Undecided:
        return True
    return False


def _nonzero(expr: sp.Basic, env: dict) -> bool:
    """``expr`` decided non-zero by the balls."""
    try:
        return _sign(number(expr, env)) != 0
    except (Undecided, CheckerError, TypeError, ZeroDivisionError):
        return False


def _decide(kind: str, left, right, trace: list) -> bool | None:
    """``left <kind> right`` on evaluated values (see :func:`_relation`); arrays are equal
    when every entry is."""
    if isinstance(left, tuple) or isinstance(right, tuple):
        if kind != "=":
            raise CheckerError(f"an order {kind} between arrays")
        return _and([_decide("=", x, y, trace) for x, y in _entry_pairs(left, right)])
    try:
        if _top(left) or _top(right):
            return _top_relation(kind, left, right, trace)
        low, high = _interval(_difference(left, right))
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


def _entry_pairs(left, right) -> list:
    """The entries of two arrays of one shape, side by side (rows first)."""
    if not (isinstance(left, tuple) and isinstance(right, tuple)):
        raise CheckerError("an array equation between values that are not both arrays")
    if len(left) != len(right):
        raise CheckerError(f"an array equation between {len(left)} and {len(right)} entries")
    pairs = []
    for x, y in zip(left, right):
        pairs.extend(_entry_pairs(x, y) if isinstance(x, tuple) or isinstance(y, tuple)
                     else [(x, y)])
    return pairs


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
    if isinstance(expr, (big_operators.FinAll, big_operators.FinExists)):
        universal = isinstance(expr, big_operators.FinAll)
        if expr.args[2].has(NAT_DOMAIN):
            shape = env.get(RECURRENCE_KEY, {}).get(expr) if universal else None
            if shape is not None:  # a recurrence the certificate names: checker_recurrence
                return decide_recurrence(shape, env, trace, proposition)
            return _truncated(expr, env, trace, universal)
        values = [proposition(body, inner, trace) for body, inner in _range_terms(expr, env)]
        return (_and if universal else _or)(values)
    if isinstance(expr, (recursive_nodes.RecursiveEvalTruth, recursive_nodes.RecursiveTruth)):
        return _recursive(expr, env)
    if isinstance(expr, vocabulary.PropIte):
        condition = proposition(expr.args[0], env, [])
        if condition is None:
            return None
        return proposition(expr.args[1] if condition else expr.args[2], env, trace)
    if isinstance(expr, matrices.ArrayEq):
        left, right = (number(side, env) for side in expr.args)
        pairs = _entry_pairs(left, right)
        return _and([_decide("=", x, y, trace) for x, y in pairs])
    if isinstance(expr, vocabulary.Holds):
        value = number(expr.args[0], env)
        if value not in (0, 1):
            raise CheckerError(f"a proposition read from data that is not 0 or 1 ({value})")
        return bool(value)
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


def _truncated(expr: sp.Basic, env: dict, trace: list, universal: bool) -> bool | None:
    """A ``∀``/``∃`` the translator cut at the sampling bound (an infinite ℕ domain, or a
    candidate-witness search): the checker looks at its own prefix of :data:`TRUNCATED_PREFIX`
    indices, a part of the true domain, so only what that part decides holds — a failing
    instance makes the ``∀`` false, a witness makes the ``∃`` true; anything else is
    undecided, whatever the prefix (the polarity table of ``mirror/evaluate/polarity.py``)."""
    inner = {**env, NAT_DOMAIN: TRUNCATED_PREFIX}
    decisive = not universal
    for body, at in _range_terms(expr, inner):
        if proposition(body, at, trace) is decisive:
            return decisive
    return None


def _draw_value(value: Any, env: dict) -> Any:
    """A drawn value: a number, an algebraic number (its ball at the working precision), or
    an array as nested tuples of numbers."""
    if isinstance(value, tuple):
        return tuple(_draw_value(v, env) for v in value)
    if isinstance(value, AlgebraicPoint):
        return value.ball()
    return number(value, env)


def _index(expr: sp.Basic, env: dict):
    """``f i j …`` on a drawn array; an index beyond the drawn part is undecided (the draw
    says nothing there)."""
    value = number(expr.args[0], env)
    for position in expr.args[1:]:
        i = number(position, env)
        if not isinstance(value, tuple) or not isinstance(i, int):
            raise CheckerError(f"an index {i} into a value that is not a drawn array")
        if not 0 <= i < len(value):
            raise Undecided(f"the index {i} beyond the {len(value)} drawn entries")
        value = value[i]
    return value


def environment(statement: Any, draw: dict[str, sp.Basic],
                context: dict | None = None) -> dict[sp.Symbol, Any]:
    """The statement's symbols → their values at the working precision: the draw's exact
    numbers, and for a variable the statement defines by an equation hypothesis, its
    defining expression evaluated. ``context``: what a certificate of another kind adds
    (the recurrences it decides, the kernel outputs it observed), kept under its keys."""
    env: dict[Any, Any] = dict(context or {})
    defined = {d.name for d in getattr(statement, "definitions", [])}
    for variable in statement.variables:
        if variable.name in defined:
            continue
        if variable.name not in draw:
            raise CheckerError(f"the draw has no value for the variable {variable.name}")
        value = draw[variable.name]
        if isinstance(value, AlgebraicPoint):
            value.verify(variable.name)
            env.setdefault(ALGEBRAIC_KEY, {})[variable.symbol] = value
        env[variable.symbol] = _draw_value(value, env)
    for definition in getattr(statement, "definitions", []):
        env[definition.symbol] = number(definition.expr, env)
    return env


def evaluate_parts(statement: Any, draw: dict[str, sp.Basic], context: dict | None = None,
                   conclusion_context: dict | None = None) -> dict[str, Any]:
    """Each hypothesis and the conclusion at ``draw``, decided at rising precision:
    ``{"hypotheses": [(label, decision, trace, bits)], "conclusion": (decision, trace, bits)}``
    with decisions ``True``/``False``/``None``. ``context`` (:func:`environment`) for every
    part, ``conclusion_context`` in its place for the conclusion."""
    parts = [*statement.hypotheses, ("conclusion", statement.conclusion)]
    results = []
    for position, (label, expr) in enumerate(parts):
        last = position == len(parts) - 1
        here = conclusion_context if last and conclusion_context is not None else context
        value, trace, bits = None, [], PRECISIONS[0]
        for bits in PRECISIONS:
            previous = ctx.prec
            ctx.prec = bits
            try:
                trace = []
                try:
                    value = proposition(expr, environment(statement, draw, here), trace)
                except Undecided:
                    value = None
                except (TypeError, ZeroDivisionError) as exc:  # (an array where a number is)
                    raise CheckerError(f"{type(exc).__name__}: {exc}"[:200]) from None
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
        if "top" in mine["difference"] or "top" in theirs["difference"]:
            if theirs["difference"] != mine["difference"]:
                return (f"{what}: relation {i + 1} is stated with difference "
                        f"{theirs['difference']}, evaluated {mine['difference']}")
        else:
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
    exact sympy numbers) against ``statement`` (the translated sympy form). A ``"recurrence"``
    certificate (version 4) decides the recurrences it names by
    :mod:`mirror.judge.checker_recurrence`; every other part as a plain certificate."""
    kind = certificate.get("kind", "statement")
    context = None
    if kind == "recurrence":
        from mirror.judge.checker_recurrence import justified

        if certificate.get("version", 0) < 4:
            return Verdict(False, "a recurrence certificate needs version 4")
        try:
            context = {RECURRENCE_KEY: justified(statement, certificate.get("recurrences"),
                                                 draw)}
        except CheckerError as exc:
            return Verdict(False, f"the recurrence is not one the checker decides: {exc}")
    elif kind != "statement":
        return Verdict(False, f"a {kind!r} certificate is not a statement's refutation")
    try:
        parts = evaluate_parts(statement, draw, context)
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
    extended = "" if context is None else (
        "; each recurrence named holds on the drawn prefix and is solvable for its top term, "
        "so it holds for every n on the sequence the prefix extends to")
    return Verdict(True, f"every hypothesis holds and the conclusion fails at the draw "
                   f"(re-evaluated from the sympy form with balls at {bits} bits{extended})")


__all__ = ["CheckerError", "PRECISIONS", "TOP", "Verdict", "check", "evaluate_parts", "number",
           "proposition", "environment"]
