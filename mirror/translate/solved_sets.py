"""A finset of reals, rationals or integers given by a condition, solved exactly (a Lean-term
rewrite).

``(S : Finset ℝ) (h : ∀ x : ℝ, x ∈ S ↔ p x)`` determines ``S`` (``Finset.ext``): exactly one
finset satisfies ``h``. When ``p x`` is — or has as a conjunct — an equation ``a = b`` of
polynomials in ``x`` with numeral coefficients (``|u|`` allowed: each sign pattern of the
absolute values gives a polynomial, and every solution is a root of one of them), every
member of ``S`` is a root of one of those polynomials. When each of them is nonzero and all
its real roots are rational (exact, sympy over ℚ), the candidates are finitely many
rationals; ``p`` is decided exactly at each, and ``S`` is the set of those where it holds.
Over ℤ the candidates are the integers of the range that conjuncts ``|a x + b| ≤ c`` (or
``<``), ``x ≤ c``, ``c < x`` … of ``p`` bound on both sides (at most :data:`MAX_RANGE`);
``/`` by a positive numeral is ``Int.ediv``, rounding down.
Then ``∀ S, h S → Q S`` is exactly ``Q S₀``: ``S`` and ``h`` leave the statement, and the
statement's uses of ``S`` are computed on ``S₀``:

============================  ===============================================
``∑ k ∈ S, f k`` / ``∏``      ``f e₁ + … + f eₙ`` / ``f e₁ * … * f eₙ``
``S.card``                    ``n``
``y ∈ S``                     ``y = e₁ ∨ … ∨ y = eₙ``
============================  ===============================================

Anything else — an irrational root, ``S`` used another way, a condition that is not such an
equation — leaves the statement as it was (whatever the translator makes of it).
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import sympy as sp

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.extended_values import c, is_app, numeral, rational_numeral, value_term

_RINGS = frozenset({"Real", "Rat", "Int"})
#: An integer set is enumerated only over a range at most this long.
MAX_RANGE = 10000
_ARITHMETIC = {"HAdd.hAdd": sp.Add, "HMul.hMul": sp.Mul}
_RELATIONS = {"Eq": sp.Eq, "Ne": sp.Ne, "LT.lt": sp.Lt, "LE.le": sp.Le, "GT.gt": sp.Gt,
              "GE.ge": sp.Ge}
#: At most this many absolute values (2 ** n sign patterns).
MAX_ABS = 4


class _NotRead(Exception):
    """The condition is outside what is read here."""


def _expr(t: T.Term, x: str, symbol: sp.Symbol, ring: str) -> sp.Expr:
    if isinstance(t, T.Typed) and t.type == T.Const(ring):
        return _expr(t.expr, x, symbol, ring)
    if t == T.Var(x):
        return symbol
    value = rational_numeral(t, ring)
    if value is not None:
        return value
    if not (isinstance(t, T.App) and isinstance(t.fn, T.Const)):
        raise _NotRead
    name, args = t.fn.name, t.args
    if name in _ARITHMETIC and len(args) == 2:
        return _ARITHMETIC[name](*(_expr(a, x, symbol, ring) for a in args))
    if name == "HSub.hSub" and len(args) == 2:
        return _expr(args[0], x, symbol, ring) - _expr(args[1], x, symbol, ring)
    if name == "Neg.neg" and len(args) == 1:
        return -_expr(args[0], x, symbol, ring)
    if name == "abs" and len(args) == 1:
        return sp.Abs(_expr(args[0], x, symbol, ring))
    if name == "HPow.hPow" and len(args) == 2 and isinstance(args[1], T.Lit) \
            and isinstance(args[1].value, int):
        return _expr(args[0], x, symbol, ring) ** args[1].value
    if name == "HDiv.hDiv" and len(args) == 2:
        divisor = numeral(args[1], ring)
        if divisor is None or divisor == 0:
            raise _NotRead  # x / 0 = 0 in Lean; a variable divisor is not read
        quotient = _expr(args[0], x, symbol, ring) / sp.Rational(divisor.numerator,
                                                                 divisor.denominator)
        if ring == "Int":  # Int.div (ediv) by a positive integer rounds down (Int.ediv_emod_unique)
            if divisor < 0:
                raise _NotRead
            return sp.floor(quotient)
        return quotient
    raise _NotRead


def _prop(t: T.Term, x: str, symbol: sp.Symbol, ring: str) -> sp.Basic:
    if isinstance(t, T.App) and isinstance(t.fn, T.Const):
        name, args = t.fn.name, t.args
        if name in _RELATIONS and len(args) == 2:
            return _RELATIONS[name](*(_expr(a, x, symbol, ring) for a in args), evaluate=False)
        if name in ("And", "Or") and len(args) == 2:
            op = sp.And if name == "And" else sp.Or
            return op(*(_prop(a, x, symbol, ring) for a in args), evaluate=False)
        if name == "Not" and len(args) == 1:
            return sp.Not(_prop(args[0], x, symbol, ring))
    raise _NotRead


def _integer_candidates(condition: sp.Basic, symbol: sp.Symbol) -> set[sp.Integer] | None:
    """The integers of a range that every solution of ``condition`` lies in, read from its
    conjuncts ``|a x + b| ≤ c`` / ``< c`` and ``x ≤ c`` / ``c < x`` … (``a``, ``b``, ``c``
    numbers), or ``None`` when they do not bound it on both sides."""
    lo, hi = -sp.oo, sp.oo
    for atom in sp.And.make_args(condition):
        if isinstance(atom, (sp.GreaterThan, sp.StrictGreaterThan)):
            atom = atom.reversed
        if not isinstance(atom, (sp.LessThan, sp.StrictLessThan)):
            continue
        small, large = atom.lhs, atom.rhs
        if large.free_symbols or not large.is_number:
            if small.is_number and large == symbol:
                lo = max(lo, sp.ceiling(small))
            continue
        inner = small.args[0] if isinstance(small, sp.Abs) else small
        try:
            line = sp.Poly(inner, symbol, domain="QQ")
        except (sp.PolynomialError, sp.CoercionFailed):
            continue
        if line.degree() != 1:
            continue
        a, b = line.all_coeffs()
        ends = sorted([(-large - b) / a, (large - b) / a]) if isinstance(small, sp.Abs) else \
            ([-sp.oo, (large - b) / a] if a > 0 else [(large - b) / a, sp.oo])
        lo, hi = max(lo, sp.ceiling(ends[0])), min(hi, sp.floor(ends[1]))
    if lo == -sp.oo or hi == sp.oo or hi - lo > MAX_RANGE:
        return None
    return {sp.Integer(n) for n in range(int(lo), int(hi) + 1)}


def _candidates(condition: sp.Basic, symbol: sp.Symbol, ring: str) -> set[sp.Rational] | None:
    """Finitely many rationals that include every solution of ``condition``, or ``None``."""
    if ring == "Int":
        return _integer_candidates(condition, symbol)
    equations = [a for a in sp.And.make_args(condition) if isinstance(a, sp.Equality)]
    if not equations:
        return None
    difference = equations[0].lhs - equations[0].rhs
    absolutes = sorted(difference.atoms(sp.Abs), key=sp.default_sort_key)
    if len(absolutes) > MAX_ABS:
        return None
    found: set[sp.Rational] = set()
    for signs in itertools.product((1, -1), repeat=len(absolutes)):
        # innermost first would matter for nested |…|; a nested one is left unread
        if any(a.args[0].has(sp.Abs) for a in absolutes):
            return None
        branch = sp.expand(difference.xreplace({a: s * a.args[0]
                                                for a, s in zip(absolutes, signs)}))
        try:
            poly = sp.Poly(branch, symbol, domain="QQ")
        except (sp.PolynomialError, sp.CoercionFailed):
            return None
        if poly.is_zero:
            return None
        for root in poly.real_roots():
            if not root.is_Rational:
                if ring == "Real":
                    return None
                continue  # an irrational root is no element of ℚ
            found.add(root)
    return found


def _holds(condition: sp.Basic, symbol: sp.Symbol, value: sp.Rational) -> bool | None:
    decided = condition.xreplace({symbol: value}).doit()
    decided = sp.simplify(decided) if decided not in (sp.true, sp.false) else decided
    return True if decided is sp.true else False if decided is sp.false else None


def solved_set(binder: T.Binder, hypothesis: T.Term, ring: str) -> list[Fraction] | None:
    """The elements of the finset ``binder`` that ``hypothesis`` (``∀ x, x ∈ S ↔ p x``)
    determines, or ``None``."""
    if not (isinstance(hypothesis, T.Pi) and len(hypothesis.binders) == 1
            and is_app(hypothesis.body, "Iff", 2)):
        return None
    x = hypothesis.binders[0].name
    if hypothesis.binders[0].type not in (None, T.Const(ring)):
        return None
    member, condition = hypothesis.body.args
    if member != c("Membership.mem", T.Var(binder.name), T.Var(x)):
        return None
    if binder.name in T.free_vars(condition) or T.free_vars(condition) - {x}:
        return None
    symbol = sp.Symbol("x", integer=True) if ring == "Int" else sp.Symbol("x", real=True)
    try:
        prop = _prop(condition, x, symbol, ring)
    except _NotRead:
        return None
    candidates = _candidates(prop, symbol, ring)
    if candidates is None:
        return None
    members = []
    for value in sorted(candidates):
        holds = _holds(prop, symbol, value)
        if holds is None:
            return None
        if holds:
            members.append(Fraction(int(value.p), int(value.q)))
    return members


def _uses(t: T.Term, s: str, elements: list[T.Term], ring: str) -> T.Term:
    """``t`` with the uses of the finset ``s`` computed on ``elements``."""
    if is_app(t, "Finset.sum", 2) or is_app(t, "Finset.prod", 2):
        if t.args[0] == T.Var(s):
            f = _uses(t.args[1], s, elements, ring)
            terms = [_beta(f, e) for e in elements]
            if not terms:
                return T.Typed(T.Lit(0 if t.fn.name == "Finset.sum" else 1), T.Const(ring))
            op = "HAdd.hAdd" if t.fn.name == "Finset.sum" else "HMul.hMul"
            out = terms[0]
            for term in terms[1:]:
                out = c(op, out, term)
            return out
    if (is_app(t, "Finset.card", 1) and t.args[0] == T.Var(s)) or (
            isinstance(t, T.Proj) and t.field == "card" and t.expr == T.Var(s)):
        return T.Typed(T.Lit(len(elements)), T.Const("Nat"))
    if is_app(t, "Membership.mem", 2) and t.args[0] == T.Var(s):
        y = _uses(t.args[1], s, elements, ring)
        out: T.Term = T.Const("False")
        for e in reversed(elements):
            out = c("Eq", y, e) if out == T.Const("False") else c("Or", c("Eq", y, e), out)
        return out
    plain = T.map_plain(t, lambda u: _uses(u, s, elements, ring))
    if plain is not None:
        return plain
    if isinstance(t, (T.Lam, T.Pi)):
        if any(b.name == s for b in t.binders):
            return t
        binders = tuple(T.Binder(b.name, None if b.type is None else
                                 _uses(b.type, s, elements, ring), b.info) for b in t.binders)
        return type(t)(binders, _uses(t.body, s, elements, ring))
    return t


def _beta(f: T.Term, a: T.Term) -> T.Term:
    if isinstance(f, T.Lam) and len(f.binders) == 1:
        return T.substitute(f.body, {f.binders[0].name: a})
    return T.App(f, (a,))


def solve_finsets(decl: Declaration) -> Declaration:
    """``decl`` with each finset binder of ℝ or ℚ that a membership hypothesis determines by
    an equation replaced by its computed elements (unchanged when there is none)."""
    if decl.type is None or decl.kind != "theorem":
        return decl
    binders = list(decl.binders)
    for i, b in enumerate(binders):
        if not (is_app(b.type, "Finset", 1) and isinstance(b.type.args[0], T.Const)
                and b.type.args[0].name in _RINGS and b.info == "default"):
            continue
        ring = b.type.args[0].name
        for j in range(i + 1, len(binders)):
            h = binders[j]
            found = h.type is not None and solved_set(b, h.type, ring)
            if found is None or found is False:
                continue
            elements = [value_term(v, ring) for v in found]
            rest = [T.Binder(o.name, None if o.type is None else
                             _uses(o.type, b.name, elements, ring), o.info)
                    for k, o in enumerate(binders) if k not in (i, j)]
            body = _uses(decl.type, b.name, elements, ring)
            if any(b.name in T.free_vars(t) for t in [body] + [o.type for o in rest
                                                             if o.type is not None]):
                break  # ``S`` is used another way: left as it was
            return solve_finsets(dataclasses.replace(decl, binders=tuple(rest), type=body))
    return decl


__all__ = ["MAX_ABS", "solve_finsets", "solved_set"]
