"""Verdicts reached before any draw: a proof over a box, or a solved system of hypotheses.

Two attempts, in this order, each within its own time bound:

- :func:`mirror.judge.boxes.certify` — a statement over a bounded box of reals is proved at
  every point by branch-and-bound with Arb balls (``certified``, with the box cover as the
  certificate, re-checked here by :mod:`mirror.judge.box_check` before it is reported);
- :func:`mirror.sample.solve.membership_sets` — a set given by membership over ℕ is computed
  on a bounded range and reported, and the row stays ``inconclusive`` (truncated: no draw
  refutes from the sampled prefix);
- :func:`mirror.sample.solve.solve_statement` — hypotheses whose solution set is computed
  exactly (linear systems, polynomial equations in one unknown, substitutions, functional
  definitions): no solution is ``vacuous`` (with the proof), and a finite, exactly known
  solution set decides the statement at each solution (``symbolic`` with the method, or
  ``refuted`` with the solution as the counterexample).

- :func:`mirror.judge.ideals.prove_in_ideal` — a conclusion of polynomial equations in the
  ideal the hypotheses' equations generate is ``symbolic``;

- :func:`enumerate_points` — integer variables that the hypotheses bound to a small range are
  decided at every point of it, exactly.

``None`` means none applied: the statement goes to the draws as before.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from mirror.judge.at_point import decide_at, decide_integer, exact_value, hypotheses_hold
from mirror.judge.box_check import check_box_certificate
import sympy as sp

from mirror.judge.ideals import prove_in_ideal
from mirror.judge.sizes import astronomical
from mirror.judge.boxes import BoxBudget, boxed, describe, search
from mirror.sample.residues import Cover, cover, points
from mirror.sample.exponentials import solve_exponentials
from mirror.sample.parametric import ParametricBudget, parameter_values, parametrize, solve_at
from mirror.sample.recurrences import (MAX_INSTANCES, Unfolded, index_variable, instance,
                                       unfold)
from mirror.sample.solve import SolveBudget, Solutions, membership_sets, solve_statement
from mirror.translate import vocabulary as V
from mirror.translate.values import Statement


@dataclass
class Presettled:
    """A verdict reached without drawing."""

    status: str
    method: str
    reason: str | None = None
    certificate: dict[str, Any] | None = None
    counterexample: dict[str, Any] | None = None
    #: A refutation's exact point (variable name → ``int``, ``Fraction`` or sympy number):
    #: what its certificate records (:mod:`mirror.judge.certificate`).
    point: dict[str, Any] | None = None
    examples: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def presettle(statement: Statement, seconds: float = 4.0) -> Presettled | None:
    """The verdict on ``statement`` that needs no draw, or ``None``."""
    huge = astronomical(statement)
    if huge is not None:
        return Presettled("inconclusive", "not evaluated", reason=huge)
    certificate, point = search(statement, BoxBudget(seconds=seconds))
    if point is not None:
        refuted = _refuted_at(statement, point)
        if refuted is not None:
            return refuted
    if certificate is not None and _only_hypothesis_leaves(certificate["tree"]):
        return Presettled("vacuous", describe(certificate),
                          reason="the hypotheses never hold: on every piece of the box one of "
                                 "them is certainly false", certificate=certificate)
    if certificate is not None:
        problem = boxed(statement)
        problems = check_box_certificate(certificate, problem.symbols, problem.hypotheses,
                                         problem.conclusion)
        if not problems:
            return Presettled("certified", describe(certificate) + "; certificate re-checked",
                              certificate=certificate)
    truncated = _truncated_sets(statement, seconds)
    if truncated is not None:
        return truncated
    unfolded = unfold(statement, seconds)
    if unfolded is not None:
        settled = _settle_unfolded(statement, unfolded, seconds)
        if settled is not None:
            return settled
    else:
        settled = _settle_instances(statement, seconds)
        if settled is not None:
            return settled
    return _solve_or_enumerate(statement, seconds)


def _settle_instances(statement: Statement, seconds: float) -> Presettled | None:
    """A statement that reads its recurrence sequences at a ℕ variable ``k`` (``∀ n > 0, f n
    = 2 ^ n - 1``), decided at ``k = 0, 1, …`` (at most
    :data:`~mirror.sample.recurrences.MAX_INSTANCES` values, within ``seconds``): each instance
    reads the sequences at numerals, so it unfolds and is decided like any such statement.
    ``refuted`` at the first instance refuted (its value of ``k`` in the counterexample);
    ``tested`` when at least :data:`MIN_TESTED` instances whose hypotheses can hold are found
    to hold and none fails — never more: the values of ``k`` past the last tried are not
    checked. ``None`` otherwise."""
    variable = index_variable(statement)
    if variable is None:
        return None
    deadline = time.monotonic() + seconds
    held, undecided = [], 0
    for value in range(MAX_INSTANCES):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        at = instance(statement, variable, value)
        if any(h == sp.false for _, h in at.hypotheses):
            continue  # a hypothesis on k alone fails here (k ≥ 3 at k = 0)
        unfolded = unfold(at, remaining)
        settled = None if unfolded is None else _settle_unfolded(at, unfolded,
                                                                 min(remaining, 1.0))
        if settled is None or settled.status == "inconclusive":
            undecided += 1
        elif settled.status == "refuted":
            settled.method = f"{variable.name} = {value}: " + settled.method
            settled.counterexample = {variable.name: value, **(settled.counterexample or {})}
            settled.point = {variable.name: sp.Integer(value), **(settled.point or {})}
            return settled
        elif settled.status in ("symbolic", "certified", "tested"):
            held.append(value)
    if len(held) < MIN_TESTED:
        return None
    return Presettled("tested", f"decided at {variable.name} = {held[0]} … {held[-1]}: at each "
                      f"of {len(held)} values where the hypotheses can hold the sequences were "
                      f"unfolded exactly and the statement holds ({undecided} undecided); "
                      f"{variable.name} > {held[-1]} not checked", examples=len(held))


def _solve_or_enumerate(statement: Statement, seconds: float) -> Presettled | None:
    solutions = solve_statement(statement, SolveBudget(seconds=seconds))
    if solutions is not None:
        decided = decide_solutions(statement, solutions)
        if decided is not None:
            return decided
    ideal = prove_in_ideal(statement, seconds)
    if ideal is not None:
        status, method, reason = ideal
        return Presettled(status, method, reason=reason, examples=1)
    exponential = solve_exponentials(statement)
    if exponential is not None:
        decided = decide_solutions(statement, exponential, how="solved the exponential "
                                   "equations exactly through logarithms of primes")
        if decided is not None:
            return decided
    enumerated = enumerate_points(statement, seconds)
    if enumerated is not None:
        return enumerated
    return solve_parametric(statement, seconds)


#: The fewest satisfying points that make a parametric run ``tested``.
MIN_TESTED = 5


def solve_parametric(statement: Statement, seconds: float) -> Presettled | None:
    """An under-determined system of equation hypotheses solved for some unknowns at values
    of the others (:mod:`mirror.sample.parametric`), each point decided exactly: ``refuted`` at
    a point where the hypotheses hold and the conclusion fails; over a complete enumeration
    (bounded integer parameters) ``symbolic`` when it holds at every satisfying point and
    ``vacuous`` when none satisfies the hypotheses; over drawn parameters ``tested`` (at least
    :data:`MIN_TESTED` satisfying points, none failing). ``None`` otherwise."""
    budget = ParametricBudget(seconds=max(seconds, 1.0) * 3)
    par = parametrize(statement, budget)
    if par is None:
        return None
    deadline = time.monotonic() + budget.seconds
    names = {v.symbol: v.name for v in statement.variables}
    hyps = [h for _, h in statement.hypotheses]
    complete = par.complete
    tried = satisfying = undecided = 0
    for values in parameter_values(statement, par, budget, deadline):
        if values is None:
            complete = False
            break
        tried += 1
        found, whole = solve_at(statement, par, values)
        complete = complete and whole
        for point in found:
            if time.monotonic() > deadline:
                complete = False
                break
            decide = decide_integer if all(v.is_Integer for v in point.values()) else decide_at
            hold = hypotheses_hold(hyps, point, decide)
            if hold is False:
                continue
            holds = None if hold is None else decide(statement.conclusion, point)
            if holds is None:
                undecided += 1
                complete = False
                continue
            satisfying += 1
            if not holds:
                shown = {names[k]: exact_value(v) for k, v in point.items()}
                return Presettled("refuted", _parametric_method(par, names, tried),
                                  examples=satisfying, counterexample=shown,
                                  point={names[k]: v for k, v in point.items()},
                                  reason="counterexample decided exactly at a solution of the "
                                         "hypotheses' equations: the hypotheses hold and the "
                                         "conclusion fails")
    how = _parametric_method(par, names, tried)
    if complete and satisfying == 0:
        return Presettled("vacuous", how, reason="the hypotheses never hold: no solution of "
                          "their equations at any point of the parameters' ranges satisfies "
                          "all of them",
                          certificate={"version": 1, "kind": "no-solution",
                                       "equations": par.equations, "range": how})
    if complete:
        return Presettled("symbolic", how + f": the conclusion holds at each of the "
                          f"{satisfying} solution(s) that satisfy every hypothesis",
                          examples=satisfying)
    if satisfying >= MIN_TESTED:
        extra = f"; {undecided} undecided" if undecided else ""
        return Presettled("tested", how + f" (drawn: only tested): the conclusion holds at "
                          f"each of the {satisfying} solution(s) that satisfy every "
                          f"hypothesis{extra}", examples=satisfying)
    return None


def _parametric_method(par, names: dict, tried: int) -> str:
    unknowns = sorted({names[s] for _, u in par.branches for s in u})
    parameters = [names[s] for s in par.parameters]
    if par.complete and not par.parameters:
        over = "each of the finitely many solutions (no parameter)"
    elif par.complete:
        ranges = ", ".join(f"{names[s]} ∈ [{r.start}, {r.stop - 1}]" if len(r) > 1 else
                           f"{names[s]} = {r.start}" for s, r in par.ranges.items())
        over = (f"every point of the parameters' ranges ({ranges}: bounded by the hypotheses; "
                "a variable only its own hypotheses read fixed at a value satisfying them)")
    else:
        over = f"{tried} drawn value(s) of {', '.join(parameters) or 'nothing'}"
    return (f"solved {', '.join(unknowns) or 'nothing'} exactly from the equations "
            f"{', '.join(par.equations[:4])} = 0 at {over}")


def _settle_unfolded(original: Statement, unfolded: Unfolded,
                     seconds: float) -> Presettled | None:
    """The verdict on a statement whose recurrence sequences were computed exactly over
    their free first values (:mod:`mirror.sample.recurrences`): the reduced statement is
    solved, enumerated or, when closed, decided outright. A counterexample of the reduced
    statement is reported with each sequence as its computed prefix."""
    reduced = unfolded.statement
    how = ("unfolded the recurrence exactly (" if unfolded.sources else "read the arrays at "
           "their entries (") + "; ".join(unfolded.described) + ")"
    if not reduced.variables:
        hyps = [decide_at(h, {}) for _, h in reduced.hypotheses]
        holds = decide_at(reduced.conclusion, {})
        if None in hyps or holds is None:
            return None
        if not all(hyps):
            return Presettled("vacuous", how, reason="the hypotheses never hold: at the "
                              "computed sequence one of them is false",
                              certificate={"version": 1, "kind": "no-solution", "proof": how})
        settled = Presettled("symbolic" if holds else "refuted", how, examples=1,
                             point={}, counterexample={})
    else:
        settled = _solve_or_enumerate(reduced, seconds)
        if settled is None:
            return None
        settled.method = how + "; " + settled.method
    if settled.status == "refuted":
        reduced_point = settled.point or {}
        settled.counterexample = _sequence_point(original, unfolded, reduced_point)
        # the original's exact point (the certificate's draw): each sequence its prefix
        settled.point = _sequence_point(original, unfolded, reduced_point, _exact_number)
        # its certificate names the recurrences: the checker decides them on the prefixes
        settled.extra["recurrences"] = [
            {"hypothesis": unfolded.sources[v.symbol], "sequence": v.name}
            for v in original.variables if v.symbol in unfolded.sources]
        settled.reason = ("counterexample decided exactly: the sequences computed by their "
                          "recurrences from the free values shown satisfy every hypothesis "
                          "and the conclusion fails" if unfolded.sources else
                          "counterexample decided exactly: at the entries shown (an entry the "
                          "statement does not read is 0) every hypothesis holds and the "
                          "conclusion fails")
    return settled


def _exact_number(value: sp.Basic) -> sp.Basic:
    return value


def _sequence_point(original: Statement, unfolded: Unfolded, point: dict,
                    shown: Any = None) -> dict[str, Any]:
    """A reduced statement's counterexample as values of the original variables: scalars as
    they are, each sequence as its exactly computed prefix (each value as ``shown`` makes it:
    by default :func:`exact_value`, the record's text)."""
    show = shown or exact_value
    symbols = {v.name: v.symbol for v in unfolded.statement.variables}
    at = {symbols[k]: sp.sympify(v) for k, v in point.items() if k in symbols}
    out: dict[str, Any] = {}
    for var in original.variables:
        if var.name in point:
            out[var.name] = show(sp.sympify(point[var.name]))
        elif var.symbol in unfolded.prefixes:
            out[var.name] = [show(sp.simplify(t.xreplace(at)))
                             for t in unfolded.prefixes[var.symbol]]
    return out


def enumerate_points(statement: Statement, seconds: float) -> Presettled | None:
    """A statement over integer scalars decided at every point of a finite cover
    (:mod:`mirror.sample.residues`), exactly: first of the hypotheses alone (``x < 100`` over
    ℕ; ``n % 5 = 3``, every residue class modulo 5) — ``symbolic`` when the conclusion holds
    wherever the hypotheses do, ``refuted`` at the first point where it fails, ``vacuous``
    when no point satisfies the hypotheses; else of the search region ``hypotheses ∧
    ¬conclusion`` (``⊢ 17 ≤ n`` bounds a counterexample by ``n < 17``): ``refuted`` at a
    point of it, ``symbolic`` when none lies there. ``None`` when there is no finite cover,
    or a point is not decided within the time."""
    hyps = [h for _, h in statement.hypotheses]
    deadline = time.monotonic() + seconds
    plain = cover(statement, hyps, read=[statement.conclusion])
    if plain is not None:
        return _decide_cover(statement, plain, hyps, deadline, region=False)
    alone = cover(statement, hyps)  # the hypotheses alone: do they ever hold?
    if alone is not None:
        vacuous = _decide_cover(statement, alone, hyps, deadline, region=False, vacuity=True)
        if vacuous is not None:
            return vacuous
    region = cover(statement, hyps + [sp.Not(statement.conclusion)])
    if region is not None:
        return _decide_cover(statement, region, hyps, deadline, region=True)
    return None


def _decide_cover(statement: Statement, found: Cover, hyps: list, deadline: float,
                  region: bool, vacuity: bool = False) -> Presettled | None:
    """Decide every point of ``found`` (``vacuity``: only whether a point satisfies the
    hypotheses; ``None`` when one does)."""
    names = {v.symbol: v.name for v in statement.variables}
    satisfying = 0
    for point in points(found, deadline):
        if point is None:
            return None
        hold = hypotheses_hold(hyps, point, decide_integer)
        if hold is False:
            continue
        if hold is None or vacuity:
            return None
        holds = decide_integer(statement.conclusion, point)
        if holds is None:
            return None
        satisfying += 1
        if not holds:
            values = {names[k]: int(v) for k, v in point.items()}
            return Presettled("refuted", "every point of a finite integer cover decided "
                              f"exactly ({'; '.join(found.described)})", examples=satisfying,
                              counterexample=values, point=values,
                              reason="counterexample decided by exact integer arithmetic: the "
                                     "hypotheses hold and the conclusion fails")
    box = "; ".join(found.described)
    if region:
        return Presettled("symbolic", f"every point where the conclusion could fail decided "
                          f"exactly ({box}: the hypotheses and the negated conclusion bound or "
                          "reduce the integers to it): none is a counterexample",
                          examples=satisfying)
    if satisfying == 0:
        return Presettled("vacuous", f"every point of a finite integer cover decided exactly "
                          f"({box})",
                          reason="the hypotheses never hold: no point of the cover they reduce "
                                 f"the integers to ({box}) satisfies them (bounded ranges; "
                                 "residue classes, the atoms reading those variables only "
                                 "through remainders)",
                          certificate={"version": 1, "kind": "no-solution", "range": box})
    return Presettled("symbolic", f"every point of a finite integer cover decided exactly "
                      f"({box}: the hypotheses bound the integers to it, or read them only "
                      f"through remainders): the conclusion holds at the {satisfying} that "
                      "satisfy them", examples=satisfying)


def _only_hypothesis_leaves(tree: dict) -> bool:
    if "leaf" in tree:
        return tree["leaf"].startswith("hypothesis")
    return all(_only_hypothesis_leaves(part) for part in tree["parts"])


#: How far a set given by membership is computed (it stays truncated there).
MEMBERSHIP_RANGE = 2000


def _truncated_sets(statement: Statement, seconds: float) -> Presettled | None:
    """A statement with a set given by membership over ℕ (``∀ n, n ∈ S ↔ p n``): the draws
    would check the condition only on the sampled prefix, where a wrong set (often ``∅``)
    passes, so no draw may refute it. The set is computed on ``[0, MEMBERSHIP_RANGE)``
    exactly and shown; the row is ``inconclusive`` (truncated: beyond the range the set is
    not known, so neither a proof nor a refutation rests on it)."""
    sets = membership_sets(statement)
    if not sets:
        return None
    deadline = time.monotonic() + seconds
    shown, complete = [], []
    for member in sets:
        bound = _predicate_bound(member.predicate, member.index)
        end = bound + 1 if bound is not None and bound < COMPLETE_RANGE else MEMBERSHIP_RANGE
        elements, limit = [], 0
        # a set the condition bounds is worth more time: computed completely, it decides
        until = deadline + (2 * seconds if end != MEMBERSHIP_RANGE else 0)
        for n in range(end):
            if time.monotonic() > until:
                break
            value = decide_integer(member.predicate, {member.index: sp.Integer(n)})
            if value is None:
                break
            limit = n + 1
            if value:
                elements.append(n)
        listed = ", ".join(map(str, elements[:12])) + (", …" if len(elements) > 12 else "")
        shown.append(f"{member.label} gives the set {{{listed}}} ({len(elements)} element(s)) "
                     f"on [0, {limit})")
        if bound is not None and limit == bound + 1:
            complete.append((member, elements))
    if len(sets) == 1 and complete:
        settled = _complete_set(statement, *complete[0], shown[0])
        if settled is not None:
            return settled
    return Presettled("inconclusive", "a set given by membership, computed exactly on a bounded "
                      "range (truncated)",
                      reason="; ".join(shown) + "; beyond that range the set is not known, so "
                      "no refutation (nor proof) rests on it: a truncated set decides nothing")


#: How far a membership condition that bounds its index itself (``n < 1000``) is computed:
#: then the set is known completely.
COMPLETE_RANGE = 10000


def _predicate_bound(predicate: sp.Basic, index: sp.Symbol) -> int | None:
    """The largest ``n`` a membership condition allows, read from a conjunct ``n < c`` /
    ``n ≤ c`` (``None``: no such conjunct)."""
    best = None
    for atom in sp.And.make_args(predicate):
        if isinstance(atom, (sp.StrictLessThan, sp.LessThan)) and atom.lhs == index:
            limit = atom.rhs
        elif isinstance(atom, (sp.StrictGreaterThan, sp.GreaterThan)) and atom.rhs == index:
            limit = atom.lhs
        else:
            continue
        if not limit.is_Integer:
            continue
        value = int(limit) - int(isinstance(atom, (sp.StrictLessThan, sp.StrictGreaterThan)))
        best = value if best is None else min(best, value)
    return best


def _complete_set(statement: Statement, member, elements: list[int],
                  shown: str) -> Presettled | None:
    """A statement about one finite set given by a membership condition that bounds its
    index (``∀ x, x ∈ S ↔ 0 < x ∧ x < 1000 ∧ …``), the set computed completely: ``x ∈ S`` is
    ``x < S_bound ∧ S x`` (the translator's finite set), so every sum over ``S`` —
    ``∑ j < S_bound, if S j then f j else 0``, its card and sums — is ``Σ_{e ∈ E} f e``
    whatever ``S_bound`` is (it exceeds every element, or the element would be missing).
    Decided when the conclusion reads the set only so and nothing else is drawn."""
    if len(statement.hypotheses) != 1 or len(statement.variables) != 2:
        return None
    drawn = {v.symbol for v in statement.variables}
    reads = [a for a in statement.hypotheses[0][1].atoms(V.Index) if a.args[0] in drawn]
    if not reads:
        return None
    array = reads[0].args[0]
    (limit,) = drawn - {array}

    def summed(node):
        lam, lo, hi = node.args
        if hi != limit or lo != 0 or not isinstance(lam, sp.Lambda):
            return node
        body, j = lam.expr, lam.variables[0]
        if not (isinstance(body, V.LeanIte) and body.args[0] == V.Holds(V.Index(array, j))
                and body.args[2] == 0):
            return node
        return sp.Add(*[body.args[1].xreplace({j: sp.Integer(e)}) for e in elements])

    conclusion = statement.conclusion.replace(lambda e: isinstance(e, V.FinSum), summed)
    if conclusion.free_symbols & drawn:
        return None
    holds = decide_at(conclusion, {})
    if holds is None:
        return None
    how = ("a set given by membership whose condition bounds its index, computed completely "
           f"({shown}), and the conclusion's sums over it evaluated exactly")
    if holds:
        return Presettled("symbolic", how, examples=1)
    size = max(elements) + 1 if elements else 0
    names = {v.symbol: v.name for v in statement.variables}
    return Presettled("refuted", how, examples=1,
                      counterexample={names[limit]: size,
                                      names[array]: [n in elements for n in range(size)]},
                      reason="counterexample decided exactly: the set the hypothesis defines "
                             "is computed completely and the conclusion fails on it")


def _refuted_at(statement: Statement, point: dict) -> Presettled | None:
    """A counterexample the box search located, confirmed at the exact point (Arb signs)."""
    symbols = {v.name: v.symbol for v in statement.variables}
    at = {symbols[k]: sp.Rational(v.numerator, v.denominator) for k, v in point.items()}
    if not all(decide_at(h, at) is True for _, h in statement.hypotheses):
        return None
    if decide_at(statement.conclusion, at) is not False:
        return None
    how = ("branch-and-bound with Arb balls located a piece of the box where the conclusion "
           "fails" if point else "Arb enclosures of the closed statement")
    return Presettled("refuted", how, examples=1,
                      counterexample={k: exact_value(at[symbols[k]]) for k in point},
                      point=dict(point),
                      reason="counterexample decided by Arb enclosures at an exact point: the "
                             "hypotheses hold and the conclusion fails")


def decide_solutions(statement: Statement, solutions: Solutions,
                     how: str = "solved the hypotheses exactly (lex Gröbner basis; Lean's "
                                "division split by cases)") -> Presettled | None:
    """The verdict the complete solution set of the equations gives, or ``None``."""
    if solutions.vacuous is not None:
        return Presettled("vacuous", f"{how} (no draw needed)",
                          reason=f"the hypotheses never hold: {solutions.vacuous}",
                          certificate={"version": 1, "kind": "no-solution",
                                       "equations": solutions.equations,
                                       "proof": solutions.vacuous})
    if solutions.free:
        return None
    symbols = {v.name: v.symbol for v in statement.variables}
    shown = "; ".join(", ".join(f"{k} = {sp.sstr(v)}" for k, v in c.items())
                      for c in solutions.candidates[:6])
    satisfying, failing = 0, None
    for candidate in solutions.candidates:
        point = {symbols[k]: v for k, v in candidate.items()}
        hyps = [decide_at(h, point) for _, h in statement.hypotheses]
        if None in hyps:
            return None
        if not all(hyps):
            continue
        satisfying += 1
        holds = decide_at(statement.conclusion, point)
        if holds is None:
            return None
        if not holds and failing is None:
            failing = candidate
    how = f"{how}, no draw needed: solution(s) {shown}"
    if failing is not None:
        return Presettled("refuted", how, examples=satisfying,
                          counterexample={k: exact_value(v) for k, v in failing.items()},
                          point=dict(failing),
                          reason="counterexample decided exactly at a solution of the "
                                 "hypotheses: the hypotheses hold and the conclusion fails")
    if satisfying == 0:
        return Presettled("vacuous", how, reason="the hypotheses never hold: no solution of "
                          "their equations satisfies all of them",
                          certificate={"version": 1, "kind": "no-solution",
                                       "equations": solutions.equations, "solutions": shown})
    return Presettled("symbolic", how + f"; the conclusion holds at each of the {satisfying} "
                      "that satisfy every hypothesis", examples=satisfying)


__all__ = ["Presettled", "decide_solutions", "presettle"]
