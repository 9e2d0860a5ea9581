"""Sequences given by a recurrence, computed exactly instead of drawn and rejected.

A hypothesis ``∀ n, s (n + 2) = f (s (n + 1)) (s n)`` (or ``∀ n ≥ c, …``, or
``s (n + 2) - s (n + 1) = s (n + 1) - s n`` over a field, or ``1 < n → t n = t (n - 1) +
t (n - 2)``) determines ``s`` from its first values: every ``s i`` past them is ``f`` of the
earlier ones. When the rest of the statement reads ``s`` only at numeral indices (``s 9 =
110``, ``∑ k ∈ range 98, u (k + 1) = 137``, already expanded by the translator), the statement
is equivalent to one over the free first values, as scalars ``s₀, s₁ …`` of ``s``'s codomain:
each ``s i`` becomes the exact expression the recurrence gives in them, and the recurrence
hypothesis, which every sequence so defined satisfies for *all* ``n`` (not only on the
sampled prefix), is dropped. The reduced statement is what :mod:`mirror.sample.solve`
solves (``s 9 = 110 ∧ s 7 = 42`` is a linear system in ``s₀, s₁``); what the hypotheses do
not determine stays a free scalar (drawn, or left to the draws of the original statement).

A ``Fin n → K`` array or a sequence without a recurrence that the statement reads only at
numeral indices (``x 0 + 4 * x 1 + … = 1``) is likewise the statement over one scalar per entry
read (:func:`_entries`): the entries it does not read do not matter.

Only what is exact is done: a top term solved with a numeral coefficient (over ℕ and ℤ only
a bare ``s (n + k) = e``), indices ``n ± j`` with the guard covering every subtraction,
expressions bounded in size, indices bounded by :data:`MAX_INDEX`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import sympy as sp

from mirror.translate import vocabulary as V
from mirror.translate.types import Ty
from mirror.translate.values import NAT_DOMAIN, Statement, Variable, assumptions

#: The largest index a sequence is computed to.
MAX_INDEX = 3000
#: The largest expression (in operations) a computed term may be.
MAX_OPS = 400
_KINDS = ("Real", "Rat", "Int", "Nat")


@dataclass
class Recurrence:
    """``s m = step`` for every ``m ≥ guard`` (``step`` over ``index`` ``m`` and reads of
    sequences), read from hypothesis ``label``; ``lags`` gives each read ``t (…)`` of
    ``step`` (``t`` this sequence or another one with its own recurrence) as the offset
    ``l < 0`` of the term it reads: ``t (max (m + l) 0)`` (the ``max`` is Lean's truncated
    ``n - j`` at small ``n``)."""

    label: str
    array: sp.Symbol
    index: sp.Symbol
    top: int
    guard: int
    step: sp.Basic
    lags: dict[sp.Basic, int] = field(default_factory=dict)


@dataclass
class Unfolded:
    """The statement over the free first values, and what was done."""

    statement: Statement
    #: ``"s on [0, 100] from s₀, s₁ (h₀)"`` per sequence.
    described: list[str]
    #: Per sequence, its terms ``s 0 … s N`` over the free values.
    prefixes: dict[sp.Symbol, list[sp.Basic]]
    #: Per sequence, the label of the hypothesis whose recurrence computed it (what a
    #: refutation's certificate names: :mod:`mirror.judge.checker_recurrence`).
    sources: dict[sp.Symbol, str] = field(default_factory=dict)


def _offset(arg: sp.Basic, n: sp.Symbol) -> int | None:
    """An index ``n + j`` (or ``NatSub(n, j)``, read as ``n - j``) as ``j``."""
    if isinstance(arg, V.NatSub) and arg.args[0] == n and arg.args[1].is_Integer:
        return -int(arg.args[1])
    shift = arg - n
    if shift.is_Integer:
        return int(shift)
    return None


def _guard(premise: sp.Basic, n: sp.Symbol) -> int | None:
    """``c ≤ n`` / ``c < n`` (either way round) as the least ``n`` it allows."""
    if isinstance(premise, (sp.GreaterThan, sp.StrictGreaterThan)):
        small, big = premise.rhs, premise.lhs
    elif isinstance(premise, (sp.LessThan, sp.StrictLessThan)):
        small, big = premise.lhs, premise.rhs
    else:
        return None
    if big != n or not small.is_Integer:
        return None
    return int(small) + int(isinstance(premise, (sp.StrictLessThan, sp.StrictGreaterThan)))


def _read(label: str, atom: sp.Basic, arrays: dict[sp.Symbol, str]) -> Recurrence | None:
    if not (isinstance(atom, V.FinAll) and atom.args[2] == NAT_DOMAIN and atom.args[1] == 0
            and isinstance(atom.args[0], sp.Lambda)):
        return None
    lam = atom.args[0]
    n, body = lam.variables[0], lam.expr
    guard = 0
    if isinstance(body, sp.Implies):
        guard = _guard(body.args[0], n)
        if guard is None:
            return None
        body = body.args[1]
    if not isinstance(body, sp.Eq):
        return None
    reads = [i for i in body.atoms(V.Index)]
    if not reads or any(len(r.args) != 2 or r.args[0] not in arrays for r in reads):
        return None
    offsets = {}
    for read in reads:
        j = _offset(read.args[1], n)
        if j is None:
            return None
        offsets[read] = j
    top = max(offsets.values())
    tops = [r for r, j in offsets.items() if j == top]
    if guard + top < 1 or len(tops) != 1:
        return None  # s 0 would be read to define itself (a truncated 0 - j is 0)
    (top_read,) = tops
    array = top_read.args[0]  # the sequence it defines; others are read below its top
    kind = arrays[array]
    if kind in ("Int", "Nat"):  # only a bare s (n + k) = e: no division, no cancellation
        side = [other for this, other in (body.args, body.args[::-1]) if this == top_read]
        if not side or top_read in side[0].atoms(V.Index):
            return None
        step = side[0]
    else:
        difference = body.lhs - body.rhs
        x = sp.Dummy("top")
        linear = difference.xreplace({top_read: x})
        coefficient = sp.diff(linear, x)
        if not coefficient.is_Rational or coefficient == 0 or x in (linear - coefficient * x
                                                                  ).free_symbols:
            return None
        step = sp.expand(-(linear - coefficient * x) / coefficient)
    # the step in terms of the index of the term it defines: s m = step(m - top)
    m = sp.Dummy("m", integer=True, nonnegative=True)
    step = step.xreplace({n: m - top})
    in_step = step.atoms(V.Index)
    lags = {shifted: j - top for read, j in offsets.items()
            if read != top_read and (shifted := read.xreplace({n: m - top})) in in_step}
    return Recurrence(label, array, m, top, guard + top, step, lags)


def _sequences(statement: Statement) -> dict[sp.Symbol, str]:
    """The statement's ``ℕ → K`` sequences, each with its codomain's kind."""
    return {v.symbol: v.ty.codomain().kind for v in statement.variables
            if v.ty.kind == "Fun" and len(v.ty.domains()) == 1
            and v.ty.domains()[0].kind == "Nat" and v.ty.codomain().kind in _KINDS}


def recurrences(statement: Statement) -> list[Recurrence]:
    """The recurrence hypotheses of ``statement`` over its ``ℕ → K`` sequences."""
    arrays = _sequences(statement)
    found = []
    for label, hyp in statement.hypotheses:
        for atom in sp.And.make_args(hyp):
            rec = _read(label, atom, arrays)
            if rec is not None:
                found.append(rec)
    return found


#: The most terms computed by sympy substitution (a step that is not a polynomial).
MAX_GENERIC = 400


def _terms(recs: list[Recurrence], free: dict[sp.Symbol, list[sp.Symbol]], last: int,
           deadline: float) -> dict[sp.Symbol, list[sp.Basic]] | None:
    """``s 0 … s last`` for the sequence ``s`` of each of ``recs``: its free first values,
    then each term by its step, index by index for all of them together (a step reads its own
    and the other sequences' terms below its index) — in a polynomial ring over ℚ when every
    step is a polynomial in the terms it reads whose coefficients are expressions in the
    index alone (``2 ^ n``, ``n ^ 2``: rational at every index; fast, exact), else by sympy
    substitution (at most :data:`MAX_GENERIC` terms)."""
    symbols = [f for rec in recs for f in free[rec.array]]
    polys: dict[sp.Symbol, tuple[list, list]] | None = {}
    for rec in recs:
        reads, poly = list(rec.lags), None
        if symbols and reads:
            try:
                poly = sp.Poly(rec.step, *reads)
            except (sp.PolynomialError, sp.CoercionFailed, sp.GeneratorsNeeded):
                poly = None
        if poly is None or not all(c.free_symbols <= {rec.index} and c.is_rational
                                   for c in poly.coeffs()):
            polys = None  # a coefficient like √3: the sympy substitution below
            break
        polys[rec.array] = (reads, poly.terms())
    if polys is not None:
        ring, *gens = sp.ring([f.name for f in symbols], sp.QQ)
        of = dict(zip(symbols, gens))
        values = {rec.array: [of[f] for f in free[rec.array]] for rec in recs}
        for i in range(last + 1):
            if time.monotonic() > deadline:
                return None
            for rec in recs:
                if i < len(free[rec.array]):
                    continue
                reads, terms = polys[rec.array]
                value = ring.zero
                for monomial, coefficient in terms:
                    at = coefficient.xreplace({rec.index: sp.Integer(i)})
                    if not at.is_Rational:
                        return None  # an index coefficient that is not rational (√n)
                    term = ring(at)
                    for read, power in zip(reads, monomial):
                        if power:
                            term *= values[read.args[0]][max(i + rec.lags[read], 0)] ** power
                    value += term
                if len(value.terms()) > MAX_OPS:
                    return None
                values[rec.array].append(value)
        return {a: [v.as_expr(*symbols) if v != 0 else sp.Integer(0) for v in vs]
                for a, vs in values.items()}
    if (last + 1) * len(recs) - len(symbols) > MAX_GENERIC:
        return None
    exprs: dict[sp.Symbol, list[sp.Basic]] = {rec.array: list(free[rec.array]) for rec in recs}
    for i in range(last + 1):
        if time.monotonic() > deadline:
            return None
        for rec in recs:
            if i < len(free[rec.array]):
                continue
            earlier = {read: exprs[read.args[0]][max(i + j, 0)] for read, j in rec.lags.items()}
            value = sp.expand(rec.step.xreplace(earlier).xreplace({rec.index: sp.Integer(i)}))
            if sp.count_ops(value) > MAX_OPS:
                return None
            exprs[rec.array].append(value)
    return exprs


def unfold(statement: Statement, seconds: float = 2.0) -> Unfolded | None:
    """``statement`` with its recurrence sequences replaced by their exact terms over free
    first values, or ``None`` (no recurrence, a sequence read at a non-numeral index or by
    two recurrences, a term too large, past the time)."""
    found = recurrences(statement)
    by_array: dict[sp.Symbol, Recurrence] = {}
    for rec in found:
        if rec.array in by_array:
            return None
        by_array[rec.array] = rec
    if not by_array:
        return _entries(statement)
    if any(read.args[0] not in by_array for rec in found for read in rec.lags):
        return None  # a step reads a sequence no recurrence computes
    deadline = time.monotonic() + seconds
    dropped = {(rec.label, rec.array) for rec in found}
    kinds = _sequences(statement)
    variables = {v.symbol: v for v in statement.variables}
    hypotheses = []
    for label, hyp in statement.hypotheses:
        kept = [a for a in sp.And.make_args(hyp)
                if (rec := _read(label, a, kinds)) is None or (label, rec.array) not in dropped]
        hypotheses.append((label, sp.And(*kept)))
    parts = [h for _, h in hypotheses] + [statement.conclusion]
    new_vars = [v for v in statement.variables if v.symbol not in by_array]
    reads: dict[sp.Symbol, set[int]] = {}
    for array in by_array:
        indices = _numeral_reads(array, parts)
        if indices is None:
            return None  # not a finite set of terms
        reads[array] = indices
    # one length for all: a step may read the other sequences (and the checker decides each
    # recurrence on the prefixes, which must then reach as far)
    last = max(max([*reads[a], rec.guard - 1]) for a, rec in by_array.items())
    if last > MAX_INDEX:
        return None
    free = {}
    for array, rec in by_array.items():
        var = variables[array]
        kind = var.ty.codomain()
        free[array] = [sp.Symbol(f"{var.name}_{i}", **assumptions(kind))
                       for i in range(rec.guard)]
        new_vars += [Variable(f.name, Ty(kind.kind), f) for f in free[array]]
    prefixes = _terms(list(by_array.values()), free, last, deadline)
    if prefixes is None:
        return None
    substitution: dict[sp.Basic, sp.Basic] = {}
    described = []
    for array, rec in by_array.items():
        for i in reads[array]:
            substitution[V.Index(array, sp.Integer(i))] = prefixes[array][i]
        described.append(f"{variables[array].name} on [0, {last}] computed by {rec.label} from "
                         f"{', '.join(f.name for f in free[array]) or 'no free value'}")
    reduced = replace(statement, variables=new_vars, hypotheses=hypotheses)
    entries = _entries(reduced)
    if entries is not None:
        reduced = entries.statement
        described += entries.described
        prefixes.update(entries.prefixes)
    hypotheses = [(label, h.xreplace(substitution)) for label, h in reduced.hypotheses]
    reduced = replace(reduced, hypotheses=hypotheses,
                      conclusion=reduced.conclusion.xreplace(substitution), definitions=[])
    return Unfolded(reduced, described, prefixes, {a: r.label for a, r in by_array.items()})


#: How many values ``k = 0, 1, …`` of an index variable are tried (:func:`index_variable`).
MAX_INSTANCES = 30


def index_variable(statement: Statement) -> Variable | None:
    """The one ℕ variable ``k`` at which ``statement`` reads its recurrence sequences at
    indices that are not numerals (``a k``, ``a (k + 1)``: a conclusion ``∀ k ≥ 3, a k > …``
    taken apart into a variable and a hypothesis), or ``None``. At each numeral value of
    ``k`` (:func:`instance`) the reads are numerals and the statement unfolds."""
    found = recurrences(statement)
    arrays = {rec.array for rec in found}
    if not arrays:
        return None
    kinds = _sequences(statement)
    defined = {d.symbol for d in statement.definitions}
    nat = {v.symbol: v for v in statement.variables
           if not v.ty.is_array and v.ty.kind == "Nat" and v.symbol not in defined}
    parts = [atom for label, h in statement.hypotheses for atom in sp.And.make_args(h)
             if _read(label, atom, kinds) is None] + [statement.conclusion]
    at: set[sp.Symbol] = set()
    for part in parts:
        for read in part.atoms(V.Index):
            if read.args[0] not in arrays or len(read.args) != 2 or read.args[1].is_Integer:
                continue
            symbols = read.args[1].free_symbols
            if not symbols <= nat.keys():
                return None  # read at a bound variable (a sum over a variable range)
            at |= symbols
    if len(at) != 1:
        return None
    return nat[at.pop()]


def instance(statement: Statement, variable: Variable, value: int) -> Statement:
    """``statement`` at ``variable = value``: the variable replaced by the numeral."""
    at = {variable.symbol: sp.Integer(value)}
    return replace(statement,
                   variables=[v for v in statement.variables if v.symbol != variable.symbol],
                   hypotheses=[(label, h.xreplace(at)) for label, h in statement.hypotheses],
                   conclusion=statement.conclusion.xreplace(at),
                   definitions=[replace(d, expr=d.expr.xreplace(at))
                                for d in statement.definitions])


def _numeral_reads(array: sp.Symbol, parts: list[sp.Basic]) -> set[int] | None:
    """The indices ``array`` is read at in ``parts`` when every use of it is a read at a
    numeral index (``x 0``, ``a 7``; none at all gives the empty set), else ``None``: a read
    at a variable index, or the array itself used (a bound call, a sum over a range)."""
    reads = {r for p in parts for r in p.atoms(V.Index) if r.args[0] == array}
    if any(len(r.args) != 2 or not r.args[1].is_Integer for r in reads):
        return None
    if any(array in p.xreplace({r: sp.Integer(0) for r in reads}).free_symbols for p in parts):
        return None
    return {int(r.args[1]) for r in reads}


def _entries(statement: Statement) -> Unfolded | None:
    """``statement`` with each sequence or ``Fin n`` array that it reads only at numeral
    indices replaced by one scalar per entry read (``x 0 … x 6`` of ``x : Fin 7 → ℝ`` become
    ``x_0 … x_6``): the entries not read do not matter, so the statement is equivalent to the
    one over those scalars, which :mod:`mirror.sample.solve` can solve. In a counterexample an
    entry not read is ``0``. ``None`` when there is no such array."""
    parts = [h for _, h in statement.hypotheses] + [statement.conclusion]
    new_vars, substitution, described, prefixes = [], {}, [], {}
    for var in statement.variables:
        ty = var.ty
        if not (ty.kind == "Fun" and len(ty.domains()) == 1
                and ty.domains()[0].kind in ("Nat", "Fin") and ty.codomain().kind in _KINDS):
            new_vars.append(var)
            continue
        indices = _numeral_reads(var.symbol, parts)
        size = ty.domains()[0].args[0] if ty.domains()[0].kind == "Fin" else None
        if not indices or max(indices) > MAX_INDEX or (
                size is not None and not (getattr(size, "is_Integer", False)
                                          and max(indices) < int(size) <= MAX_INDEX + 1)):
            new_vars.append(var)
            continue
        kind = ty.codomain()
        scalars = {i: sp.Symbol(f"{var.name}_{i}", **assumptions(kind)) for i in sorted(indices)}
        new_vars += [Variable(s.name, Ty(kind.kind), s) for s in scalars.values()]
        for i, scalar in scalars.items():
            substitution[V.Index(var.symbol, sp.Integer(i))] = scalar
        length = int(size) if size is not None else max(indices) + 1
        prefixes[var.symbol] = [scalars.get(i, sp.Integer(0)) for i in range(length)]
        described.append(f"{var.name} read only at {', '.join(map(str, sorted(indices)))}: "
                         f"one scalar per entry")
    if not prefixes:
        return None
    reduced = replace(statement, variables=new_vars,
                      hypotheses=[(label, h.xreplace(substitution))
                                  for label, h in statement.hypotheses],
                      conclusion=statement.conclusion.xreplace(substitution), definitions=[])
    return Unfolded(reduced, described, prefixes, {})


__all__ = ["MAX_INDEX", "Recurrence", "Unfolded", "recurrences", "unfold"]
