"""Solve before you sample: the exact solution set of a statement's equation hypotheses.

Random draws never satisfy an equation (``h₀ : x + y = 10``, ``h₁ : x - y = 2``); the
planner therefore first solves what it can, exactly:

- every conjunct ``lhs = rhs`` of a hypothesis whose difference is a polynomial with rational
  coefficients in the statement's scalar variables (``x / 50 = 40`` is one: the divisor is a
  non-zero numeral); a Lean division ``a / b`` by a polynomial ``b`` is split into its two
  cases, ``b = 0`` (the quotient is Lean's ``0``) and ``b ≠ 0`` (denominators cleared);
- the system is solved by a lex Gröbner basis (exact rationals; linear systems, one
  polynomial in one unknown, and substitutions ``y = e`` are its special cases): a basis
  ``{1}`` proves there is no solution even over ℂ; a zero-dimensional basis gives every
  complex solution (sympy's ``solve`` of a triangular system), of which the real ones are
  kept, and those of the variables' types (ℕ: integers ≥ 0, ℤ: integers, ℚ: rationals,
  ℝ≥0 / ℕ+: their floors);
- a hypothesis that reduced to ``False`` at translation (``x ^ 2 = -1`` over ℝ), and a ``%``
  equation whose value is out of the remainder's range (``(3 * n) % 2 = 11``:
  ``Nat.mod_lt``) has no solution.

An equation the solver does not read only enlarges the candidate set, never shrinks it: the
set returned is *complete* (every solution of the hypotheses is in it) and each candidate is
then decided against every hypothesis and the conclusion (:mod:`mirror.judge.presettle`).
Sizes are bounded (:class:`SolveBudget`); the caller bounds the time.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import sympy as sp

from mirror.translate import vocabulary as V
from mirror.translate.values import NAT_DOMAIN, Statement

#: Variable kinds the solver reads, and the test a solution value must pass for each.
_ADMISSIBLE = {
    "Real": lambda v: v.is_real,
    "Rat": lambda v: v.is_rational,
    "NNReal": lambda v: (v.is_real and v.is_nonnegative) if v.is_real is not None else None,
    "Int": lambda v: v.is_integer,
    "Nat": lambda v: (v.is_integer and v.is_nonnegative) if v.is_integer is not None else None,
    "PNat": lambda v: (v.is_integer and v.is_positive) if v.is_integer is not None else None,
}
_TYPE_WORDS = {"Real": "ℝ", "Rat": "ℚ", "NNReal": "ℝ≥0", "Int": "ℤ", "Nat": "ℕ", "PNat": "ℕ+"}


@dataclass(frozen=True)
class SolveBudget:
    """How large a system the solver takes on."""

    seconds: float = 4.0
    max_equations: int = 8
    max_degree: int = 8
    max_divisions: int = 3


@dataclass
class Solutions:
    """The complete solution set of the equations read (``candidates`` over ``solved``), or
    the proof that there is none (``vacuous``)."""

    solved: list[str]
    candidates: list[dict[str, sp.Basic]]
    equations: list[str]
    vacuous: str | None = None
    free: list[str] = field(default_factory=list)


def _remainder_out_of_range(atom: sp.Basic) -> str | None:
    """``a % m = c`` with ``c`` outside ``[0, m)`` (``Nat.mod_lt``, ``Int.emod_nonneg``)."""
    if not isinstance(atom, sp.Eq):
        return None
    for mod, other in ((atom.lhs, atom.rhs), (atom.rhs, atom.lhs)):
        if isinstance(mod, V.NatMod) and other.is_Integer:
            m = mod.args[1]
            if m.is_Integer and m != 0 and not (0 <= other < abs(m)):
                return (f"{sp.sstr(atom)} has no solution: a remainder modulo {abs(m)} lies in "
                        f"[0, {abs(m) - 1}] (Nat.mod_lt / Int.emod_lt_of_pos)")
    return None


def _branches(equations: list[sp.Basic], budget: SolveBudget):
    """The systems the equations split into at each Lean division ``a / b`` (``b = 0``: the
    quotient is ``0``; ``b ≠ 0``: ordinary division): ``(equations, nonzero)`` pairs."""
    divisions = sorted(set().union(*(e.atoms(V.LeanDiv) for e in equations)),
                       key=sp.default_sort_key) if equations else []
    if len(divisions) > budget.max_divisions:
        divisions = []  # the equations with divisions are left unread (a larger set)
    for cases in itertools.product((True, False), repeat=len(divisions)):
        replace, extra, nonzero = {}, [], []
        for division, zero in zip(divisions, cases):
            a, b = division.args
            replace[division] = sp.Integer(0) if zero else a / b
            (extra if zero else nonzero).append(b)
        yield [e.xreplace(replace) for e in equations] + extra, nonzero


def _polynomial(expr: sp.Basic, symbols: list[sp.Symbol], budget: SolveBudget) -> sp.Poly | None:
    numerator, denominator = sp.fraction(sp.together(expr))
    if denominator.free_symbols & set(symbols) and not denominator.is_polynomial(*symbols):
        return None
    try:
        poly = sp.Poly(numerator, *symbols, domain="QQ")
    except (sp.PolynomialError, sp.CoercionFailed, sp.GeneratorsNeeded):
        return None
    if poly.total_degree() > budget.max_degree:
        return None
    return poly


def solve_statement(statement: Statement, budget: SolveBudget = SolveBudget()) -> Solutions | None:
    """The exact solution set of ``statement``'s equation hypotheses, or ``None`` when there
    is no equation to read (or a variable the solver does not take)."""
    scalars = [v for v in statement.variables if not v.ty.is_array]
    if len(scalars) != len(statement.variables) or any(v.ty.kind not in _ADMISSIBLE
                                                        for v in scalars):
        return None
    for label, hyp in statement.hypotheses:
        if hyp is sp.false:
            return Solutions([], [], [], vacuous=f"hypothesis {label} reduces to False over the "
                             "variables' types (sympy, at translation)")
    atoms = [a for _, hyp in statement.hypotheses for a in sp.And.make_args(hyp)]
    for atom in atoms:
        proof = _remainder_out_of_range(atom)
        if proof is not None:
            return Solutions([], [], [sp.sstr(atom)], vacuous=proof)
    symbols = [v.symbol for v in scalars]
    equations = [a.lhs - a.rhs for a in atoms if isinstance(a, sp.Eq)]
    equations = [e for e in equations if e.free_symbols <= set(symbols) and e.free_symbols]
    if not equations or len(equations) > budget.max_equations:
        return None
    candidates: list[dict[sp.Symbol, sp.Basic]] = []
    involved: set[sp.Symbol] = set()
    read: list[str] = []
    for system, nonzero in _branches(equations, budget):
        polys = [p for p in (_polynomial(e, symbols, budget) for e in system) if p is not None]
        polys = [p for p in polys if not p.is_zero]
        if not polys:
            return None  # an equation we cannot read in some branch: no complete set
        read.extend(sp.sstr(p.as_expr()) for p in polys)
        if any(p.is_ground for p in polys):  # a non-zero constant = 0: no solution here
            continue
        gens = sorted(set().union(*(p.free_symbols for p in polys)), key=sp.default_sort_key)
        involved |= set(gens)
        try:
            basis = sp.groebner([p.as_expr() for p in polys], *gens, order="lex", domain="QQ")
            if list(basis.exprs) == [1]:
                continue  # this branch has no solution over ℂ
            if not basis.is_zero_dimensional:
                return None
            found = sp.solve(list(basis.exprs), gens, dict=True)
        except (sp.polys.polyerrors.BasePolynomialError, NotImplementedError):
            return None  # sympy gave up: no complete set is claimed
        for solution in found:
            if set(solution) != set(gens):
                return None
            if any(sp.simplify(b.xreplace(solution)) == 0 for b in nonzero):
                continue  # the branch assumed this divisor non-zero
            candidates.append(solution)
    names = {v.symbol: v for v in scalars}
    admissible = []
    for solution in candidates:
        verdicts = [_ADMISSIBLE[names[s].ty.kind](sp.nsimplify(value) if value.is_Float else value)
                    for s, value in solution.items()]
        if any(v is None for v in verdicts):
            return None
        if all(verdicts) and solution not in admissible:
            admissible.append(solution)
    ordered = sorted(involved, key=lambda s: symbols.index(s))
    free = [names[s].name for s in symbols if s not in involved]
    solved = [names[s].name for s in ordered]
    if not admissible:
        kinds = ", ".join(f"{names[s].name} : {_TYPE_WORDS[names[s].ty.kind]}" for s in ordered)
        shown = "; ".join(sp.sstr(c) for c in candidates[:4]) or "none, even over ℂ"
        proof = (f"the equations {', '.join(sorted(set(read)))} = 0 have no solution with "
                 f"{kinds} (lex Gröbner basis; solutions over ℂ: {shown})")
        return Solutions(solved, [], sorted(set(read)), vacuous=proof, free=free)
    return Solutions(solved, [{names[s].name: v for s, v in c.items()} for c in admissible],
                     sorted(set(read)), free=free)


def linear_parametrization(statement: Statement, order: list[str]) -> dict[str, sp.Basic]:
    """The variables a consistent, under-determined *linear* system of equation hypotheses
    fixes in terms of the others: ``{name: expression}``, each expression over variables drawn
    before it (``order``), so that the draw computes it (``2 x = 5 y`` draws ``y`` and computes
    ``x = 5 y / 2``); only expressions with dyadic coefficients, which a float draw computes
exactly (``x = y / 3`` would miss the exact equation). ``{}`` when nothing is fixed so."""
    names = {v.symbol: v.name for v in statement.variables if not v.ty.is_array}
    symbols = [s for s in names if names[s] in order]
    atoms = [a for _, hyp in statement.hypotheses for a in sp.And.make_args(hyp)
             if isinstance(a, sp.Eq)]
    equations = []
    for atom in atoms:
        difference = atom.lhs - atom.rhs
        if not difference.free_symbols or not difference.free_symbols <= set(symbols):
            continue
        poly = _polynomial(difference, symbols, SolveBudget())
        if poly is None or poly.total_degree() != 1:
            continue
        equations.append(poly.as_expr())
    if not equations:
        return {}
    # pivots are taken first in the order given: the latest-drawn variables
    latest_first = sorted(symbols, key=lambda s: -order.index(names[s]))
    solutions = sp.linsolve(equations, *latest_first)
    if not isinstance(solutions, sp.FiniteSet) or len(solutions) != 1:
        return {}
    (values,) = solutions
    out = {}
    for symbol, value in zip(latest_first, values):
        if value == symbol or value.free_symbols - set(symbols):
            continue
        dyadic = all(c.q & (c.q - 1) == 0 for c in value.atoms(sp.Rational))
        if dyadic and all(order.index(names[s]) < order.index(names[symbol])
                          for s in value.free_symbols):
            out[names[symbol]] = value  # dyadic coefficients: a float draw computes it exactly
    return out


@dataclass
class MemberSet:
    """A finite set given by membership, ``∀ n, n ∈ S ↔ p n``, with the predicate ``p`` of the
    bound index alone (``predicate`` over ``index``): computable on any bounded range, but
    only *truncated* there — what lies beyond the range is not known."""

    label: str
    index: sp.Symbol
    predicate: sp.Basic


def membership_sets(statement: Statement) -> list[MemberSet]:
    """The hypotheses that give a set by a membership condition over the sampled prefix of ℕ
    (``FinAll(n ↦ (n ∈ S) ↔ p n, 0, NATDOM)``, the translator's reading of the ``∀ n``)."""
    drawn = {v.symbol for v in statement.variables}
    found = []
    for label, hyp in statement.hypotheses:
        for atom in sp.And.make_args(hyp):
            if not (isinstance(atom, V.FinAll) and atom.args[2] == NAT_DOMAIN
                    and isinstance(atom.args[0], sp.Lambda)):
                continue
            lam = atom.args[0]
            body = lam.expr
            if not isinstance(body, sp.Equivalent) or len(body.args) != 2:
                continue
            index = lam.variables[0]
            for side, other in (body.args, body.args[::-1]):
                if side.free_symbols & drawn and not (other.free_symbols & drawn):
                    found.append(MemberSet(label, index, other))
                    break
    return found


__all__ = ["MemberSet", "SolveBudget", "Solutions", "linear_parametrization",
           "membership_sets", "solve_statement"]
