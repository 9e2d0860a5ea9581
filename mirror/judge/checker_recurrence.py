"""The independent checker's decision of a recurrence hypothesis (certificate version 4, kind
``"recurrence"``; :mod:`mirror.judge.certificate`).

A hypothesis ``∀ n, s (n + k) = e`` (or ``∀ n, c ≤ n → …``) is a ``∀`` over all of ℕ: no
finite prefix of ``s`` decides it in general. It does decide it here, by an argument the
checker verifies from the statement itself (never from the search's reduction,
:mod:`mirror.sample.recurrences`):

1. **The shape.** The atom is ``∀ n ∈ ℕ, body`` with ``body`` an equation or ``premise →
   equation``; the premise does not read ``s``; every read of ``s`` in the equation is
   ``s (n + j)`` (``n - j`` written ``NatSub``), with one greatest offset ``k`` (the *top*
   read ``s (n + k)``, never a subtraction); it may read another sequence ``t`` whose
   recurrence the certificate also names, at ``t (n + j)`` with ``j < k`` only; the
   sequences appear nowhere else in it; its other symbols are drawn scalars.
2. **The top read is solvable**, for every value of the rest: over ℝ or ℚ the equation is
   ``c · s (n + k) + r = 0`` with ``c`` a non-zero rational constant and ``r`` free of the
   top read (checked on the expanded difference, term by term); over ℕ or ℤ one side is the
   top read itself and the other does not contain it (a Lean term of the codomain's type).
3. **The prefix satisfies it.** The draw gives ``s 0 … s N`` exactly; for every ``n`` with
   ``n + k ≤ N`` the body is decided true on it by the checker's ordinary evaluator.

Then the hypothesis holds for the sequence that extends the prefix by the recurrence: each
``n`` with ``n + k > N`` constrains only ``s (n + k)`` (different ``n``, different top
indices), in terms of earlier indices (``n + j < n + k``; a truncated ``n - j`` reads ``0 <
n + k``) and the scalars, and by 2 that term has a value. Sequences whose recurrences read
each other (``a (n + 1) = a n - b n``, ``b (n + 1) = b n + a n``) are extended together, index
by index: every read is below the index it defines, so each term's value is fixed before it
is read. The rest of the statement is
evaluated on the prefix as usual: an index past it is undecided, so nothing that reads the
extension is ever decided. One recurrence per sequence is decided this way (two would have to
agree on one extension); any other ``∀`` over ℕ stays truncated (undecided when it holds on
the prefix).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from mirror.judge.checker_values import CheckerError
from mirror.translate import big_operators, integers, vocabulary
from mirror.translate.values import NAT_DOMAIN

#: The environment's key for the recurrence atoms this certificate decides (atom → shape).
RECURRENCE_KEY = "recurrences"
#: Codomains whose top read is solved as ``c · x + r = 0`` (a field) or only bare (ℕ, ℤ).
_FIELDS, _RINGS = ("Real", "Rat"), ("Nat", "Int")


@dataclass(frozen=True)
class Shape:
    """A recurrence atom as the checker read it."""

    sequence: sp.Symbol
    index: sp.Symbol
    body: sp.Basic
    top: int


def _offset(position: sp.Basic, n: sp.Symbol) -> int | None:
    """``n + j`` → ``j`` (``j ≥ 0``), ``NatSub(n, j)`` → ``-j``; anything else ``None``."""
    if position == n:
        return 0
    if isinstance(position, integers.NatSub) and position.args[0] == n \
            and position.args[1].is_Integer and int(position.args[1]) >= 0:
        return -int(position.args[1])
    if isinstance(position, sp.Add) and len(position.args) == 2 and n in position.args:
        (other,) = [a for a in position.args if a != n]
        if other.is_Integer and int(other) >= 0:
            return int(other)
    return None


def _solvable(equation: sp.Eq, top_read: sp.Basic, kind: str) -> str | None:
    """Why the equation cannot be solved for ``top_read`` whatever the rest is (``None``:
    it can)."""
    if kind in _RINGS:
        for this, other in (equation.args, equation.args[::-1]):
            if this == top_read and not other.has(top_read):
                return None
        return f"over {kind} the equation must be s (n + k) = e with e free of s (n + k)"
    if kind not in _FIELDS:
        return f"a recurrence over {kind} (only ℝ, ℚ, ℕ, ℤ)"
    x = sp.Dummy("top")
    # only the ring's own rewriting (products and integer powers of sums distributed, at the
    # top level): a node around the top read (a division, a power, a function) stays whole
    # and is refused below
    difference = sp.expand((equation.lhs - equation.rhs).xreplace({top_read: x}), deep=False,
                           power_exp=False, power_base=False, log=False)
    coefficient = sp.Integer(0)
    for term in sp.Add.make_args(difference):
        if not term.has(x):
            continue
        c, rest = term.as_coeff_Mul()
        if rest != x or not c.is_Rational:
            return "the top read is not affine with a rational coefficient"
        coefficient += c
    if coefficient == 0:
        return "the top read's coefficient is 0"
    return None


def read_shape(atom: sp.Basic, sequence: sp.Symbol, kind: str, scalars: set,
               others: frozenset = frozenset()) -> Shape:
    """The atom's :class:`Shape`; :class:`CheckerError` with the reason when it is not a
    recurrence the checker decides. ``others``: the other sequences the certificate names a
    recurrence of, which this one may read below its top index."""
    if not (isinstance(atom, big_operators.FinAll) and atom.args[2] == NAT_DOMAIN
            and atom.args[1] == 0 and isinstance(atom.args[0], sp.Lambda)
            and len(atom.args[0].variables) == 1):
        raise CheckerError("the recurrence is not a ∀ n over ℕ")
    n, body = atom.args[0].variables[0], atom.args[0].expr
    equation, premise = body, sp.true
    if isinstance(body, sp.Implies):
        premise, equation = body.args
    if not isinstance(equation, sp.Eq):
        raise CheckerError("the recurrence's body is not an equation")
    if premise.has(sequence) or premise.has(NAT_DOMAIN):
        raise CheckerError("the recurrence's premise reads the sequence")
    reads = [r for r in equation.atoms(vocabulary.Index) if r.args[0] == sequence]
    offsets = {}
    for read in reads:
        j = _offset(read.args[1], n) if len(read.args) == 2 else None
        if j is None:
            raise CheckerError(f"the read {read} is not s (n + j) or s (n - j)")
        offsets[read] = j
    if not offsets:
        raise CheckerError("the recurrence does not read its sequence")
    top = max(offsets.values())
    tops = [r for r, j in offsets.items() if j == top]
    if top < 0 or len(tops) != 1 or isinstance(tops[0].args[1], integers.NatSub):
        raise CheckerError("the recurrence has no single top read s (n + k)")
    crossing = [r for r in equation.atoms(vocabulary.Index) if r.args[0] in others - {sequence}]
    for read in crossing:
        j = _offset(read.args[1], n) if len(read.args) == 2 else None
        if j is None:
            raise CheckerError(f"the read {read} is not t (n + j) or t (n - j)")
        if j >= top:
            raise CheckerError(f"the read {read} of another sequence is not below the top "
                               f"index n + {top}")
    if equation.xreplace({r: sp.Integer(0) for r in reads + crossing}).has(sequence, *others):
        raise CheckerError("the recurrence uses a sequence other than at n + j")
    rest = equation.free_symbols - {n, sequence} - {r.args[0] for r in crossing}
    if not rest <= scalars or equation.has(NAT_DOMAIN, vocabulary.BoundCall):
        raise CheckerError("the recurrence reads a value that is not a drawn scalar")
    problem = _solvable(equation, tops[0], kind)
    if problem:
        raise CheckerError(f"the recurrence is not solvable for its top read: {problem}")
    return Shape(sequence, n, body, top)


def justified(statement: Any, stated: Any, draw: dict) -> dict[sp.Basic, Shape]:
    """The recurrence atoms a certificate names (``[{"hypothesis": label, "sequence":
    name}]``), each read by :func:`read_shape`; :class:`CheckerError` for a name that is not
    the statement's, a sequence named twice or an atom that is not a recurrence."""
    if not isinstance(stated, list) or not stated:
        raise CheckerError("a recurrence certificate names no recurrence")
    variables = {v.name: v for v in statement.variables}
    hypotheses = dict(statement.hypotheses)
    scalars = {v.symbol for v in statement.variables
               if not isinstance(draw.get(v.name), tuple)}
    found: dict[sp.Basic, tuple[str, Any]] = {}
    seen: set[str] = set()
    for entry in stated:
        if not isinstance(entry, dict):
            raise CheckerError("a recurrence entry is not an object")
        label, name = entry.get("hypothesis"), entry.get("sequence")
        if label not in hypotheses or name not in variables:
            raise CheckerError(f"the recurrence {label!r} on {name!r} is not the statement's")
        if name in seen:
            raise CheckerError(f"the sequence {name} is named by two recurrences")
        seen.add(name)
        prefix = draw.get(name)
        if not isinstance(prefix, tuple) or not prefix \
                or any(isinstance(v, tuple) for v in prefix):
            raise CheckerError(f"the draw gives no prefix of the sequence {name}")
        variable = variables[name]
        atoms = [a for a in sp.And.make_args(hypotheses[label])
                 if isinstance(a, big_operators.FinAll) and a.has(variable.symbol)
                 and a.args[2] == NAT_DOMAIN]
        if len(atoms) != 1:
            raise CheckerError(f"hypothesis {label} has {len(atoms)} ∀ n over ℕ reading {name}")
        if atoms[0] in found:
            raise CheckerError(f"hypothesis {label} is named for two sequences")
        found[atoms[0]] = (label, variable)
    named = frozenset(variable.symbol for _, variable in found.values())
    return {atom: read_shape(atom, variable.symbol, variable.ty.codomain().kind, scalars,
                             named)
            for atom, (label, variable) in found.items()}


def decide(shape: Shape, env: dict, trace: list, proposition) -> bool | None:
    """The recurrence at the drawn prefix: the body at every ``n`` whose top index lies in
    it (``proposition``: the checker's evaluator); true when all hold (the rest is the
    extension's, see the module's docstring)."""
    length = len(env[shape.sequence])
    values = [proposition(shape.body, {**env, shape.index: n}, trace)
              for n in range(0, max(0, length - shape.top))]
    return False if False in values else (None if None in values else True)


__all__ = ["RECURRENCE_KEY", "Shape", "decide", "justified", "read_shape"]
