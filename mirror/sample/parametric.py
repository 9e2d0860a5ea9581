"""Solve the equations for some unknowns at chosen values of the others (the parameters).

An under-determined system of equation hypotheses (``4 a² + 9 b² = 20``; ``5 (B - A) = C - A``
beside ``A < B < C < D``; ``m n = 2005``) has infinitely many solutions, or finitely many that
:func:`mirror.sample.solve.solve_statement` cannot list without fixing some variables first. Here
the variables of the equations are split into *parameters* and *solved* unknowns so that, at
generic parameter values, the remaining system is zero-dimensional (a lex Gröbner basis with
finitely many solutions); every other variable is a parameter too. Then:

- each parameter value is chosen — every point of its range when all parameters are integers
  that the hypotheses bound (``1 < m``, ``m ≤ c`` from ``m · n = c``: a product of naturals equal
  to a positive constant bounds each factor), otherwise small rationals drawn from a seeded
  generator (inside the parameter's constant bounds);
- the equations are solved at those values exactly (sympy: rational or algebraic numbers), and
  the solutions of the variables' types are the points;
- :mod:`mirror.judge.presettle` decides every point against every hypothesis and the conclusion
  (a point is a candidate, never assumed to satisfy anything).

A point is a genuine point of the statement's variables, so a point where the hypotheses hold
and the conclusion fails is a counterexample however it was found. A *complete* enumeration
(:attr:`Parametrization.complete`: integer parameters over finite ranges every solution lies in,
each solved exactly) also decides the statement when none fails; drawn parameters only test it.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from dataclasses import dataclass, field
from typing import Iterator

import sympy as sp

from mirror.sample.residues import INTEGER_FLOORS, integer_bounds
from mirror.sample.solve import SolveBudget, _branches, _polynomial
from mirror.translate import vocabulary as V
from mirror.translate.values import Statement

#: Variable kinds read here.
_KINDS = ("Real", "Rat", "NNReal", "Int", "Nat", "PNat")
_INTEGERS = ("Int", "Nat", "PNat")


@dataclass(frozen=True)
class ParametricBudget:
    """How much the parametric solver takes on."""

    seconds: float = 12.0
    #: Parameter draws when the parameters are not all bounded integers.
    draws: int = 40
    #: The most parameter points enumerated (a complete enumeration).
    max_points: int = 3000
    max_unknowns: int = 6
    #: The most unknowns of a system whose equations are all linear (cheap to eliminate).
    max_linear_unknowns: int = 24
    max_choices: int = 40


@dataclass
class Parametrization:
    """Per branch of Lean's divisions: the polynomial system, its parameters and unknowns."""

    parameters: list[sp.Symbol]
    branches: list[tuple[list[sp.Poly], list[sp.Symbol]]]
    #: Integer parameter → its finite range (every solution lies in it), when all are so.
    ranges: dict[sp.Symbol, range] = field(default_factory=dict)
    equations: list[str] = field(default_factory=list)

    #: Some solutions are not listed (a branch unread or degenerate, a parameter unbounded,
    #: too many points): the points then only test the statement.
    partial: bool = False

    @property
    def complete(self) -> bool:
        return not self.partial


def _admissible(kind: str, value: sp.Basic) -> bool | None:
    if value.is_real is not True:
        return None if value.is_real is None else False
    if kind in _INTEGERS:
        if value.is_integer is None:
            return None
        return bool(value.is_integer) and (kind == "Int" or bool(value >= INTEGER_FLOORS[kind]))
    if kind == "Rat":
        return value.is_rational
    if kind == "NNReal":
        return None if value.is_nonnegative is None else bool(value.is_nonnegative)
    return True


def _generic(symbols: list[sp.Symbol], rng: random.Random) -> dict[sp.Symbol, sp.Rational]:
    return {s: sp.Rational(rng.randint(-97, 97), rng.choice((7, 11, 13, 17))) for s in symbols}


def _zero_dimensional(polys: list[sp.Poly], substitution: dict, unknowns: list[sp.Symbol]
                      ) -> bool:
    exprs = [p.as_expr().xreplace(substitution) for p in polys]
    exprs = [e for e in exprs if e != 0]
    if not exprs or not unknowns:
        return not unknowns
    try:
        basis = sp.groebner(exprs, *unknowns, order="lex", domain="QQ")
    except (sp.polys.polyerrors.BasePolynomialError, NotImplementedError):
        return False
    return list(basis.exprs) != [1] and basis.is_zero_dimensional


def _inconsistent(polys: list[sp.Poly], gens: list[sp.Symbol]) -> bool:
    """The system has no solution even over ℂ (its Gröbner basis is ``{1}``)."""
    try:
        basis = sp.groebner([p.as_expr() for p in polys], *gens, order="lex", domain="QQ")
    except (sp.polys.polyerrors.BasePolynomialError, NotImplementedError):
        return False
    return list(basis.exprs) == [1]


def _preference(statement: Statement, bounded: dict) -> dict[sp.Symbol, int]:
    """Lower first: bounded integers, then integers, then the rest (reals)."""
    rank = {}
    for var in statement.variables:
        rank[var.symbol] = 0 if var.symbol in bounded else 1 if var.ty.kind in _INTEGERS else 2
    return rank


def _rational_linear(polys: list[sp.Poly]) -> bool:
    """Whether ``polys`` are linear with rational coefficients (row reduction over ℚ splits
    them: :func:`_linear_split`)."""
    return all(p.total_degree() <= 1 and all(c.is_Rational for c in p.coeffs()) for p in polys)


def _linear_split(polys: list[sp.Poly], gens: list[sp.Symbol], rank: dict) -> list[sp.Symbol]:
    """The parameters of a linear system: the columns without a pivot once the unknowns a
    solution prefers come first (high ``rank``: reals before integers; of one rank the later,
    as :func:`_split` draws the earlier) — exact row reduction over ℚ, so the rest is then
    determined (zero-dimensional) at every parameter value."""
    order = sorted(gens, key=lambda g: (-rank[g], -gens.index(g)))
    matrix = sp.Matrix([[p.as_expr().coeff(g) for g in order] for p in polys])
    _, pivots = matrix.rref()
    return [g for i, g in enumerate(order) if i not in pivots]


def _split(polys: list[sp.Poly], gens: list[sp.Symbol], rank: dict, budget: ParametricBudget,
           rng: random.Random, deadline: float) -> list[sp.Symbol] | None:
    """The fewest parameters among ``gens`` (preferring low ``rank``) that leave a
    zero-dimensional system at generic values; ``None`` when none is found in time."""
    linear = _rational_linear(polys)
    tried = 0
    for k in range(len(gens)):
        choices = sorted(itertools.combinations(gens, k),
                         key=lambda c: sorted(rank[s] for s in c))
        for chosen in choices:
            tried += 1
            if tried > budget.max_choices or time.monotonic() > deadline:
                # a linear system too wide to search: its pivots decide
                return _linear_split(polys, gens, rank) if linear else None
            unknowns = [g for g in gens if g not in chosen]
            if _zero_dimensional(polys, _generic(list(chosen), rng), unknowns):
                return list(chosen)
    return None


def _floor(bounds: dict, symbol: sp.Symbol) -> int | float:
    lo = bounds.get(symbol, (None, None))[0]
    return -math.inf if lo is None else lo


def _positive_sums(atoms: list[sp.Basic], admitted) -> Iterator[tuple[sp.Poly, sp.Rational]]:
    """Equations ``p = c`` among ``atoms`` with ``c > 0`` rational and ``p`` a polynomial with
    positive coefficients in variables that ``admitted`` accepts (non-negative ones)."""
    for atom in atoms:
        if not isinstance(atom, sp.Eq):
            continue
        for side, const in ((atom.lhs, atom.rhs), (atom.rhs, atom.lhs)):
            if not (const.is_Rational and const > 0) or not side.free_symbols \
                    or not all(admitted(x) for x in side.free_symbols):
                continue
            try:
                poly = sp.Poly(side, *sorted(side.free_symbols, key=sp.default_sort_key))
            except sp.PolynomialError:
                continue
            if poly.domain in (sp.ZZ, sp.QQ) and all(c > 0 for c in poly.coeffs()):
                yield poly, const


def product_bounds(statement: Statement, atoms: list[sp.Basic]) -> dict[sp.Symbol, int]:
    """Upper bounds that equations of non-negative integers imply: ``a · x^e · y = c`` (one
    monomial, ``c > 0``) makes every factor at least 1, so ``x ≤ (c / a)^(1/e)``; a sum of
    monomials with positive coefficients equal to ``c`` bounds each monomial by ``c``, and a
    variable whose co-factors are all at least 1 there likewise."""
    kinds = {v.symbol: v.ty.kind for v in statement.variables if not v.ty.is_array}
    floors = integer_bounds(statement, atoms)
    found: dict[sp.Symbol, int] = {}
    for poly, const in _positive_sums(atoms, lambda x: kinds.get(x) in _INTEGERS
                                      and _floor(floors, x) >= 0):
        if not const.is_Integer:
            continue
        gens = poly.gens
        single = len(poly.terms()) == 1
        for monomial, coefficient in poly.terms():
            for i, e in enumerate(monomial):
                if e == 0:
                    continue
                others = [gens[j] for j, f in enumerate(monomial) if f and j != i]
                if not single and any(_floor(floors, s) < 1 for s in others):
                    continue
                limit = int(math.floor((int(const) / coefficient) ** (1.0 / e) + 1e-9))
                while (limit + 1) ** e * coefficient <= const:
                    limit += 1
                while limit > 0 and limit ** e * coefficient > const:
                    limit -= 1
                symbol = gens[i]
                found[symbol] = min(found.get(symbol, limit), limit)
    return found


def draw_bounds(statement: Statement, atoms: list[sp.Basic]) -> dict[sp.Symbol, tuple]:
    """Where to draw each parameter: its constant bounds, and for a non-negative variable in
    a sum of non-negative terms equal to a positive constant (``a + b + c = 1``,
    ``x² + y² + z² = 1``) the bound that sum implies (rounded up: draws only, every point is
    still decided against the hypotheses)."""
    bounds = integer_bounds(statement, atoms, exact=True)
    integral = {v.symbol for v in statement.variables if v.ty.kind in _INTEGERS}
    for poly, const in _positive_sums(atoms, lambda x: _floor(bounds, x) >= 0):
        for monomial, coefficient in poly.terms():
            powers = [(g, e) for g, e in zip(poly.gens, monomial) if e]
            if len(powers) != 1 or powers[0][0] in integral:
                continue
            (symbol, e), = powers
            limit = sp.Rational(math.ceil(float(const / coefficient) ** (1.0 / e) * 64), 64)
            lo, hi = bounds.get(symbol, (None, None))
            bounds[symbol] = (lo, limit if hi is None else min(hi, limit))
    return bounds


#: The most truncated subtractions split into their two cases.
MAX_SUBTRACTIONS = 3


def _subtraction_branches(equations: list[sp.Basic], budget: SolveBudget):
    """:func:`mirror.sample.solve._branches` after splitting each truncated subtraction
    ``a - b`` on ℕ into its two values, ``a - b`` (when ``b ≤ a``) and ``0``: every solution
    lies in one case (the case's condition need not be kept: every point is decided against
    the hypotheses as written)."""
    subtractions = sorted(set().union(*(e.atoms(V.NatSub) for e in equations)),
                          key=sp.default_sort_key)
    if len(subtractions) > MAX_SUBTRACTIONS:
        subtractions = []  # left unread: those equations are not polynomials
    for cases in itertools.product((True, False), repeat=len(subtractions)):
        replace = {t: (t.args[0] - t.args[1]) if keep else sp.Integer(0)
                   for t, keep in zip(subtractions, cases)}
        yield from _branches([e.xreplace(replace) for e in equations], budget)


def _independent(statement: Statement, atoms: list[sp.Basic], equations: list[sp.Basic]
                 ) -> dict[sp.Symbol, sp.Basic]:
    """Variables that only hypotheses of their own read (``d > 0``, nowhere else, not in the
    conclusion), each with a value satisfying those: the statement is then the same with the
    variable fixed there (``(∃ d, P d) → Q`` is ``Q`` once ``P 1`` holds)."""
    fixed = {}
    for var in statement.variables:
        symbol = var.symbol
        if symbol in statement.conclusion.free_symbols \
                or any(symbol in e.free_symbols for e in equations):
            continue
        own = [a for a in atoms if symbol in a.free_symbols]
        if any(a.free_symbols != {symbol} for a in own):
            continue
        for value in (0, 1, 2, -1, 3, 10, 100):
            candidate = sp.Integer(value)
            if _admissible(var.ty.kind, candidate) is not True:
                continue
            if all(a.xreplace({symbol: candidate}) is sp.true for a in own):
                fixed[symbol] = candidate
                break
    return fixed


#: The most cases the disjunctions of equations split into.
MAX_CASES = 8


def _disjunctions(atoms: list[sp.Basic], symbols: set) -> list[list[list[sp.Basic]]]:
    """Per hypothesis conjunct ``E₁ ∨ E₂ ∨ …`` whose disjuncts are equations (or conjunctions
    of them), the equations of each disjunct: every solution satisfies one disjunct, so the
    cases together list every solution. ``[]`` past :data:`MAX_CASES` cases."""
    found = []
    for atom in atoms:
        if not isinstance(atom, sp.Or):
            continue
        options = []
        for disjunct in atom.args:
            parts = sp.And.make_args(disjunct)
            if not all(isinstance(p, sp.Eq) and p.free_symbols <= symbols for p in parts):
                break
            options.append([p.lhs - p.rhs for p in parts])
        else:
            found.append(options)
    if math.prod(len(o) for o in found) > MAX_CASES:
        return []
    return found


def parametrize(statement: Statement, budget: ParametricBudget = ParametricBudget()
                ) -> Parametrization | None:
    """How to solve ``statement``'s equation hypotheses at parameter values, or ``None`` (an
    array variable, no equation read, or no split found in time)."""
    if not statement.variables or any(v.ty.is_array or v.ty.kind not in _KINDS
                                      for v in statement.variables):
        return None
    deadline = time.monotonic() + budget.seconds / 3
    symbols = [v.symbol for v in statement.variables]
    atoms = [a for _, hyp in statement.hypotheses for a in sp.And.make_args(hyp)]
    equations = [a.lhs - a.rhs for a in atoms if isinstance(a, sp.Eq)]
    equations = [e for e in equations if e.free_symbols and e.free_symbols <= set(symbols)]
    alternatives = _disjunctions(atoms, set(symbols))
    if not equations and not alternatives:
        return None
    bounds = integer_bounds(statement, atoms)
    for symbol, limit in product_bounds(statement, atoms).items():
        lo, hi = bounds.get(symbol, (None, None))
        bounds[symbol] = (lo, limit if hi is None else min(hi, limit))
    bounded = {s: range(lo, hi + 1) for s, (lo, hi) in bounds.items()
               if lo is not None and hi is not None}
    rank = _preference(statement, bounded)
    rng = random.Random(f"parametric:{statement.name}")
    solve_budget = SolveBudget(seconds=budget.seconds)
    systems, chosen_all, read, partial = [], set(), [], False
    cases = [equations + [e for chosen in choice for e in chosen]
             for choice in itertools.product(*alternatives)]
    for system, _nonzero in (branch for case in cases
                             for branch in _subtraction_branches(case, solve_budget)):
        polys = [p for p in (_polynomial(e, symbols, solve_budget) for e in system)
                 if p is not None and not p.is_zero]
        if any(p.is_ground for p in polys):
            continue  # a non-zero constant = 0: no solution in this branch
        if not polys:
            partial = True  # nothing read here: this branch's solutions are not listed
            continue
        read.extend(sp.sstr(p.as_expr()) for p in polys)
        gens = sorted(set().union(*(p.free_symbols for p in polys)), key=symbols.index)
        wide = budget.max_linear_unknowns if _rational_linear(polys) else budget.max_unknowns
        if len(gens) > wide:
            return None
        if _inconsistent(polys, gens):
            continue  # no solution at all in this case (a basis {1}, exact)
        chosen = _split(polys, gens, rank, budget, rng, deadline)
        if chosen is None:
            partial = True
            continue
        chosen_all |= set(chosen)
        systems.append((polys, gens))
    # one set of parameters for every branch: the union of the branches' choices and every
    # variable no equation reads; a branch that is then not zero-dimensional is dropped
    solved_somewhere = set().union(*(set(g) for _, g in systems)) - chosen_all if systems else set()
    parameters = [s for s in symbols if s not in solved_somewhere]
    fixed = _independent(statement, atoms, [e for case in cases for e in case])
    for symbol, value in fixed.items():
        bounded[symbol] = range(int(value), int(value) + 1)
    branches = []
    for polys, gens in systems:
        unknowns = [g for g in gens if g not in parameters]
        if set(unknowns) | set(parameters) != set(symbols) or not _zero_dimensional(
                polys, _generic(parameters, rng), unknowns):
            partial = True
            continue
        branches.append((polys, unknowns))
    if not branches:
        return None
    ranges = {s: bounded[s] for s in parameters if s in bounded}
    enumerable = len(ranges) == len(parameters) \
        and math.prod(len(r) for r in ranges.values()) <= budget.max_points
    return Parametrization(parameters, branches, ranges if enumerable else {},
                           sorted(set(read)), partial=partial or not enumerable)


#: Widths of the windows real parameters are drawn in (one chosen per draw): solutions of
#: the hypotheses often lie near the bounds or near 0.
_SCALES = (1, 3, 10)


def _draw(kind: str, bound: tuple, rng: random.Random) -> sp.Rational:
    lo, hi = bound
    scale = rng.choice(_SCALES)
    if kind in _INTEGERS:
        low = lo if lo is not None else (INTEGER_FLOORS[kind] if kind != "Int" else -2 * scale)
        high = hi if hi is not None else low + 4 * scale
        return sp.Integer(rng.randint(low, max(low, high)))
    if kind == "NNReal":
        lo = 0 if lo is None else max(lo, 0)
    if lo is None and hi is None:
        low, high = sp.Integer(-scale), sp.Integer(scale)
    else:
        low = sp.Rational(lo) if lo is not None else sp.Rational(hi) - 2 * scale
        high = sp.Rational(hi) if hi is not None else low + 2 * scale
        if high - low > 2 * scale:  # a wide range: a window of it, at either end
            low, high = (low, low + 2 * scale) if rng.random() < 0.5 else (high - 2 * scale, high)
    q = rng.choice((2, 3, 4, 5, 7, 8))
    return low + (high - low) * sp.Rational(rng.randint(1, 8 * q - 1), 8 * q)


def parameter_values(statement: Statement, par: Parametrization, budget: ParametricBudget,
                     deadline: float) -> Iterator[dict[sp.Symbol, sp.Basic] | None]:
    """The parameter points: all of them when :attr:`~Parametrization.complete`, else
    ``budget.draws`` seeded draws. ``None`` once the deadline passed."""
    if par.complete:
        for values in itertools.product(*(par.ranges[s] for s in par.parameters)):
            if time.monotonic() > deadline:
                yield None
                return
            yield {s: sp.Integer(v) for s, v in zip(par.parameters, values)}
        return
    kinds = {v.symbol: v.ty.kind for v in statement.variables}
    atoms = [a for _, hyp in statement.hypotheses for a in sp.And.make_args(hyp)]
    bounds = draw_bounds(statement, atoms)
    rng = random.Random(f"parameters:{statement.name}")
    seen = set()
    for _ in range(budget.draws * 3):
        if len(seen) >= budget.draws:
            return
        if time.monotonic() > deadline:
            yield None
            return
        values = {s: _draw(kinds[s], bounds.get(s, (None, None)), rng) for s in par.parameters}
        key = tuple(values.values())
        if key in seen:
            continue
        seen.add(key)
        yield values


def solve_at(statement: Statement, par: Parametrization, values: dict[sp.Symbol, sp.Basic]
             ) -> tuple[list[dict[sp.Symbol, sp.Basic]], bool]:
    """The points over ``values`` (every branch's solutions of the variables' types) and
    whether they are all of them (``False``: a branch was degenerate there, or sympy did not
    say whether a value is real or of its type)."""
    kinds = {v.symbol: v.ty.kind for v in statement.variables}
    found: list[dict[sp.Symbol, sp.Basic]] = []
    complete = True
    for polys, unknowns in par.branches:
        exprs = [p.as_expr().xreplace(values) for p in polys]
        exprs = [sp.expand(e) for e in exprs]
        if any(e.is_number and e != 0 for e in exprs):
            continue
        exprs = [e for e in exprs if e != 0]
        if not unknowns:
            found.append(dict(values))
            continue
        try:
            basis = sp.groebner(exprs, *unknowns, order="lex", domain="QQ")
            if list(basis.exprs) == [1]:
                continue
            if not basis.is_zero_dimensional:
                complete = False
                continue
            solutions = sp.solve(list(basis.exprs), unknowns, dict=True)
        except (sp.polys.polyerrors.BasePolynomialError, NotImplementedError, ValueError):
            complete = False
            continue
        for solution in solutions:
            if set(solution) != set(unknowns):
                complete = False
                continue
            verdicts = [_admissible(kinds[s], v) for s, v in solution.items()]
            if None in verdicts:
                complete = False
                continue
            if all(verdicts):
                point = {**values, **solution}
                if point not in found:
                    found.append(point)
    return found, complete


__all__ = ["ParametricBudget", "Parametrization", "parameter_values", "parametrize",
           "product_bounds", "solve_at"]
