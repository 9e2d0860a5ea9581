"""Polynomials written out in ``X``: evaluation, degrees, coefficients and roots, by Mathlib's
definitions.

A polynomial written out of ``X``, ``C c``, numerals, ``+``, ``-``, ``*`` and ``^ k`` is
evaluated at ``x`` by rewriting it as the same term of its coefficient ring, each lemma the
ring homomorphism ``eval x`` gives:

=========================  ====================  ==========================================
Lean                       rewritten to          Mathlib
=========================  ====================  ==========================================
``eval x X``               ``x``                 ``Polynomial.eval_X``
``eval x (C c)``           ``c``                 ``Polynomial.eval_C``
``eval x n`` (numeral)     ``n``                 ``Polynomial.eval_ofNat``, ``eval_one``…
``eval x (p + q)`` …       ``eval x p + …``      ``eval_add``, ``eval_sub``, ``eval_mul``,
                                                 ``eval_neg``
``eval x (p ^ k)``         ``(eval x p) ^ k``    ``Polynomial.eval_pow``
``p.IsRoot x``             ``p.eval x = 0``      ``Polynomial.IsRoot.def``
=========================  ====================  ==========================================

``(p : Polynomial R)`` ascribes the result to ``R``. A polynomial that is a variable, or
built from anything else (``derivative``, ``comp``, a division), is left as it is; the
translator then names ``Polynomial.eval`` as the constant to bind.

Over ``R`` ∈ {ℤ, ℚ, ℝ, ℂ} (written ``Polynomial R`` or ``R[X]``) the polynomial is also read
as its list of coefficients (each a numeral, or a term ``c`` of ``C c``), and:

==============================  ==========================================================
Lean                            value (Mathlib)
==============================  ==========================================================
``p.coeff n``                   the coefficient of ``X ^ n``, ``0`` beyond the list
``p.natDegree``                 the largest ``n`` with ``coeff n ≠ 0``; ``natDegree 0 = 0``
``p.degree`` (in ``WithBot ℕ``)  ``↑natDegree``, ``degree 0 = ⊥``; read inside a comparison
                                with a numeral, ``⊥`` or another degree (``degree_eq_natDegree``)
``p.leadingCoeff``              ``coeff natDegree`` (``leadingCoeff 0 = 0``)
``p.roots`` (a multiset)        every root in ``R`` with its multiplicity, computed exactly
                                (sympy over ℚ: rational roots by factoring, real roots as
                                ``CRootOf``; over ℂ their number is the degree); ``roots 0 = ∅``
                                (``roots_zero``); read as ``card``, ``x ∈ p.roots``
                                (``mem_roots'``: ``p ≠ 0 ∧ IsRoot p x``) and ``=`` a
                                literal multiset of numerals
==============================  ==========================================================

A coefficient that is not a numeral (``C a``) makes ``natDegree``, ``degree`` and
``leadingCoeff`` a case split on which coefficients vanish (``a ≠ 0``), decided per draw;
``roots`` needs numerals. **A polynomial variable** ``(p : R[X])`` is drawn by its
coefficients ``p_0 … p_d`` (``p = Σ C p_k * X ^ k``) when a hypothesis bounds its degree
(``p.natDegree ≤ d``, ``= d``, ``< d``, and the same with ``degree``): every polynomial the
hypothesis allows is such a sum, so the draws miss none. Without a bound the row is
untranslatable, saying so.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import sympy as sp

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.extended_values import (BOT, RELATIONS, c, compare, extended, is_app,
                                              numeral, rational_numeral, truth, value_term)
from mirror.translate.lean_terms import fresh_name
from mirror.translate.term_rewriter import ReadingRewriter, rewrite_declaration, taken_names
from mirror.translate.values import Untranslatable

#: Ring operations ``eval x`` commutes with (their Lean names).
_OPERATIONS = frozenset({"HAdd.hAdd", "HSub.hSub", "HMul.hMul", "Neg.neg"})
_X = frozenset({"Polynomial.X", "X"})
_C = frozenset({"Polynomial.C", "C"})


def _ring(ty: T.Term) -> T.Term | None:
    """``R`` of ``Polynomial R`` (or of ``R[X]``, which the scanner reads as ``R`` applied to
    the list ``[X]``)."""
    if isinstance(ty, T.App) and ty.fn == T.Const("Polynomial") and len(ty.args) == 1:
        return ty.args[0]
    if (isinstance(ty, T.App) and isinstance(ty.fn, T.Const) and len(ty.args) == 1
            and ty.args[0] == T.App(T.Const("List.cons"), (T.Const("X"), T.Const("List.nil")))):
        return ty.fn
    return None


def evaluate(p: T.Term, x: T.Term) -> T.Term | None:
    """``Polynomial.eval x p`` as a term of the coefficient ring, or ``None``."""
    if isinstance(p, T.Const) and p.name in _X:
        return x
    if isinstance(p, T.Lit):
        return p
    if isinstance(p, T.Typed):
        ring = _ring(p.type)
        inner = evaluate(p.expr, x)
        return None if ring is None or inner is None else T.Typed(inner, ring)
    if not (isinstance(p, T.App) and isinstance(p.fn, T.Const)):
        return None
    name, args = p.fn.name, p.args
    if name in _C and len(args) == 1:
        return args[0]
    if name == "HPow.hPow" and len(args) == 2:
        base = evaluate(args[0], x)
        return None if base is None else T.App(p.fn, (base, args[1]))
    if name in _OPERATIONS:
        parts = [evaluate(a, x) for a in args]
        return None if None in parts else T.App(p.fn, tuple(parts))
    return None



#: Coefficient rings read as coefficient lists (characteristic 0, integral domains).
RINGS = frozenset({"Int", "Rat", "Real", "Complex"})
#: The vocabulary read here (Lean names; ``p.field`` spells the same).
_FIELDS = ("natDegree", "degree", "leadingCoeff", "coeff", "roots")
_NAMES = frozenset(f"Polynomial.{f}" for f in _FIELDS)
_X_SYMBOL = sp.Symbol("X")


def _ring_name(ty: T.Term | None) -> str | None:
    ring = None if ty is None else _ring(ty)
    return ring.name if isinstance(ring, T.Const) and ring.name in RINGS else None


class Coefficients:
    """A polynomial over ``ring`` as sympy coefficients (``coeffs[k]`` of ``X ^ k``), each a
    polynomial with rational coefficients in symbols that stand for the terms ``atoms``."""

    def __init__(self, ring: str, coeffs: list[sp.Expr], atoms: dict[sp.Symbol, T.Term]):
        while coeffs and coeffs[-1] == 0:
            coeffs = coeffs[:-1]
        self.ring, self.coeffs, self.atoms = ring, coeffs, atoms

    @property
    def numeric(self) -> bool:
        return all(k.is_Rational for k in self.coeffs)

    def coeff_term(self, k: int) -> T.Term:
        return self.term(self.coeffs[k] if k < len(self.coeffs) else sp.Integer(0))

    def term(self, e: sp.Expr) -> T.Term:
        """The coefficient expression ``e`` as a Lean term of the ring."""
        e = sp.expand(e)
        if e.is_Rational:
            return value_term(Fraction(int(e.p), int(e.q)), self.ring)
        if isinstance(e, sp.Symbol):
            return T.Typed(self.atoms[e], T.Const(self.ring))
        if isinstance(e, (sp.Add, sp.Mul)):
            parts = [self.term(a) for a in e.args]
            out = parts[0]
            for part in parts[1:]:
                out = c("HAdd.hAdd" if isinstance(e, sp.Add) else "HMul.hMul", out, part)
            return out
        if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp > 0:
            return c("HPow.hPow", self.term(e.base), T.Lit(int(e.exp)))
        raise Untranslatable("a polynomial coefficient", f"{e} is not a ring expression")

    def cases(self) -> list[tuple[T.Term | None, int | None]]:
        """The degree by cases, first true condition first: ``(condition, natDegree)``, the
        last with condition ``None``; natDegree ``None`` there is the zero polynomial."""
        out: list[tuple[T.Term | None, int | None]] = []
        for k in range(len(self.coeffs) - 1, -1, -1):
            e = self.coeffs[k]
            if e.is_Rational:  # nonzero: trailing zeros are stripped, zeros skipped below
                if e != 0:
                    out.append((None, k))
                    return out
                continue
            out.append((c("Ne", self.term(e), value_term(Fraction(0), self.ring)), k))
        out.append((None, None))
        return out


def _connective(name: str, a: T.Term, b: T.Term) -> T.Term:
    """``a ∧ b`` / ``a ∨ b`` with ``True`` and ``False`` folded away."""
    absorbing, unit = (T.Const("False"), T.Const("True")) if name == "And" else \
        (T.Const("True"), T.Const("False"))
    if absorbing in (a, b):
        return absorbing
    if a == unit:
        return b
    return a if b == unit else c(name, a, b)


def _and(a: T.Term, b: T.Term) -> T.Term:
    return _connective("And", a, b)


def _or(a: T.Term, b: T.Term) -> T.Term:
    return _connective("Or", a, b)


def _by_cases(cases: list[tuple[T.Term | None, object]], value) -> T.Term:
    """``if c₁ then v₁ else if c₂ …`` for propositions: ``(c₁ ∧ v₁) ∨ (¬c₁ ∧ …)``."""
    cond, last = cases[-1]
    out = value(last)
    for cond, v in reversed(cases[:-1]):
        out = _or(_and(cond, value(v)), _and(c("Not", cond), out))
    return out


def _ite_cases(cases: list[tuple[T.Term | None, object]], value) -> T.Term:
    """``if c₁ then v₁ else if c₂ …`` for values."""
    out = value(cases[-1][1])
    for cond, v in reversed(cases[:-1]):
        out = c("ite", cond, value(v), out)
    return out


class _Reader:
    """Reads a polynomial term as :class:`Coefficients`."""

    def __init__(self, ring: str):
        self.ring = ring
        self.atoms: dict[sp.Symbol, T.Term] = {}

    def read(self, t: T.Term) -> sp.Expr | None:
        if isinstance(t, T.Typed):
            ring = _ring_name(t.type)
            return self.read(t.expr) if ring == self.ring else None
        if isinstance(t, T.Const) and t.name in _X:
            return _X_SYMBOL
        value = rational_numeral(t, self.ring)
        if value is not None:
            return value
        if not (isinstance(t, T.App) and isinstance(t.fn, T.Const)):
            return None
        name, args = t.fn.name, t.args
        if name in _C and len(args) == 1:
            value = rational_numeral(args[0], self.ring)
            if value is not None:
                return value
            for symbol, atom in self.atoms.items():
                if atom == args[0]:
                    return symbol
            symbol = sp.Symbol(f"_c{len(self.atoms)}")
            self.atoms[symbol] = args[0]
            return symbol
        if name == "HPow.hPow" and len(args) == 2 and isinstance(args[1], T.Lit) \
                and isinstance(args[1].value, int) and args[1].value >= 0:
            base = self.read(args[0])
            return None if base is None else base ** args[1].value
        parts = [self.read(a) for a in args]
        if None in parts:
            return None
        if name == "HAdd.hAdd" and len(parts) == 2:
            return parts[0] + parts[1]
        if name == "HSub.hSub" and len(parts) == 2:
            return parts[0] - parts[1]
        if name == "HMul.hMul" and len(parts) == 2:
            return parts[0] * parts[1]
        if name == "Neg.neg" and len(parts) == 1:
            return -parts[0]
        return None


def coefficients(t: T.Term) -> Coefficients | None:
    """``t`` (ascribed ``Polynomial R`` or ``R[X]``, ``R`` ∈ :data:`RINGS`) as its
    coefficients, or ``None``."""
    if not isinstance(t, T.Typed):
        return None
    ring = _ring_name(t.type)
    if ring is None:
        return None
    reader = _Reader(ring)
    e = reader.read(t)
    if e is None:
        return None
    poly = sp.Poly(sp.expand(e), _X_SYMBOL)
    return Coefficients(ring, list(reversed(poly.all_coeffs())), reader.atoms)


def roots(p: Coefficients) -> tuple[dict[Fraction, int], int]:
    """The rational roots of ``p`` (numeric) with their multiplicities, and the number of its
    roots in ``p.ring`` counted with multiplicity (``Polynomial.roots``; ``0`` for ``p = 0``)."""
    if not p.coeffs:
        return {}, 0
    poly = sp.Poly(list(reversed(p.coeffs)), _X_SYMBOL, domain="QQ")
    rational: dict[Fraction, int] = {}
    for factor, multiplicity in sp.factor_list(poly)[1]:
        if factor.degree() == 1:
            a, b = factor.all_coeffs()
            root = -sp.Rational(b) / sp.Rational(a)
            value = Fraction(int(root.p), int(root.q))
            if p.ring == "Int" and value.denominator != 1:
                continue
            rational[value] = rational.get(value, 0) + multiplicity
    if p.ring in ("Int", "Rat"):
        return rational, sum(rational.values())
    if p.ring == "Real":
        return rational, len(poly.real_roots())
    return rational, poly.degree()  # ℂ is algebraically closed


def _multiset(t: T.Term, ring: str) -> list[Fraction] | None:
    """A literal multiset of numerals (``{a, b}``, ``∅``, ``0``), or ``None``."""
    if isinstance(t, T.Typed):
        return _multiset(t.expr, ring)
    if t == T.Const("EmptyCollection.emptyCollection") or t == T.Lit(0):
        return []
    if is_app(t, "Singleton.singleton", 1):
        value = numeral(t.args[0], ring)
        return None if value is None else [value]
    if is_app(t, "Insert.insert", 2):
        value, rest = numeral(t.args[0], ring), _multiset(t.args[1], ring)
        return None if value is None or rest is None else [value, *rest]
    return None


class _Polynomials(ReadingRewriter):
    def __init__(self, taken: set[str], types: dict[str, T.Term]) -> None:
        super().__init__(taken)
        self.types = types

    # ---- the polynomial a vocabulary node is about --------------------------------------

    def _split(self, t: T.Term) -> tuple[str, T.Term, tuple[T.Term, ...]] | None:
        """``(field, polynomial, other arguments)`` of ``p.field …`` / ``Polynomial.field p …``."""
        if isinstance(t, T.Proj) and t.field in _FIELDS:
            return t.field, t.expr, ()
        if isinstance(t, T.App) and isinstance(t.fn, T.Proj) and t.fn.field in _FIELDS:
            return t.fn.field, t.fn.expr, t.args
        if isinstance(t, T.App) and isinstance(t.fn, T.Const) and t.fn.name in _NAMES and t.args:
            return t.fn.name.split(".", 1)[1], t.args[0], t.args[1:]
        return None

    def _polynomial(self, field: str, p: T.Term, named: bool) -> Coefficients | None:
        """``p``'s coefficients; ``None`` when ``p`` is nothing known to be a polynomial (a
        field such as ``.coeff`` of another type is left alone); untranslatable when it is one
        that cannot be read."""
        found = coefficients(p)
        if found is not None:
            return found
        what = f"Polynomial.{field}"
        if isinstance(p, T.Var) and _ring(self.types.get(p.name)) is not None:
            raise Untranslatable(what, f"of the polynomial variable {p.name}: it is drawn only "
                                       "by its coefficients, with a hypothesis bounding its "
                                       f"degree ({p.name}.natDegree ≤ d), and there is none")
        if named or (isinstance(p, T.Typed) and _ring(p.type) is not None):
            raise Untranslatable(what, "of a polynomial that is not written out in X with "
                                       "numeral or C coefficients over ℤ, ℚ, ℝ or ℂ")
        return None

    def read(self, t: T.Term) -> T.Term | None:
        if isinstance(t, T.App) and isinstance(t.fn, T.Const) and len(t.args) == 2 \
                and t.fn.name in RELATIONS:
            found = self._relation(t.fn.name, *t.args)
            if found is not None:
                return found
        if isinstance(t, T.App) and isinstance(t.fn, T.Const) and len(t.args) == 2 \
                and t.fn.name == "Membership.mem":
            found = self._root_membership(t.args[0], t.args[1])
            if found is not None:
                return found
        if is_app(t, "Multiset.card", 1) or (isinstance(t, T.Proj) and t.field == "card"):
            inner = t.args[0] if isinstance(t, T.App) else t.expr
            p = self._roots_of(inner)
            if p is not None:
                return T.Typed(T.Lit(roots(p)[1]), T.Const("Nat"))
        split = self._split(t)
        if split is not None:
            return self._field(t, *split)
        if isinstance(t, T.App):
            return self._evaluation(t)
        return None

    def _field(self, t: T.Term, field: str, p_t: T.Term, rest: tuple[T.Term, ...]) -> T.Term | None:
        named = not isinstance(t, T.Proj) and not isinstance(t.fn, T.Proj)
        p = self._polynomial(field, p_t, named)
        if p is None:
            return None
        if field == "natDegree" and not rest:
            return _ite_cases(p.cases(), lambda k: T.Typed(T.Lit(k or 0), T.Const("Nat")))
        if field == "leadingCoeff" and not rest:
            return _ite_cases(p.cases(), lambda k: p.coeff_term(k or 0))
        if field == "coeff" and len(rest) == 1:
            n = self.term(rest[0])
            index = numeral(n, "Nat")
            if index is not None:
                return p.coeff_term(int(index))
            cases = [(c("Eq", n, T.Typed(T.Lit(k), T.Const("Nat"))), k)
                     for k in range(len(p.coeffs))] + [(None, len(p.coeffs))]
            return _ite_cases(cases, p.coeff_term)
        if field == "degree":
            raise Untranslatable("Polynomial.degree", "a value in WithBot ℕ is read only "
                                 "compared with a numeral, ⊥ or another degree")
        if field == "roots":
            raise Untranslatable("Polynomial.roots", "a multiset of roots is read only as its "
                                 "card, a membership or an equality with a literal multiset")
        return None

    # ---- degrees and roots inside a relation --------------------------------------------

    def _degree_cases(self, t: T.Term):
        split = self._split(t)
        if split is None or split[0] != "degree" or split[2]:
            return None
        named = isinstance(t, T.App) and isinstance(t.fn, T.Const)
        p = self._polynomial("degree", split[1], named)
        if p is None:
            return None
        return [(cond, BOT if k is None else Fraction(k)) for cond, k in p.cases()]

    def _relation(self, rel: str, a: T.Term, b: T.Term) -> T.Term | None:
        ca, cb = self._degree_cases(a), self._degree_cases(b)
        if ca is None and cb is None:
            return self._roots_equality(rel, a, b)
        if ca is None or cb is None:
            other = extended(b if ca is not None else a, "Nat")
            if other is None or other == "⊤":
                raise Untranslatable("Polynomial.degree", "compared with something other than "
                                     "a numeral, ⊥ or another degree")
            if ca is not None:
                return _by_cases(ca, lambda v: truth(compare(rel, v, other)))
            return _by_cases(cb, lambda v: truth(compare(rel, other, v)))
        return _by_cases(ca, lambda u: _by_cases(cb, lambda v: truth(compare(rel, u, v))))

    def _roots_of(self, t: T.Term) -> Coefficients | None:
        split = self._split(t)
        if split is None or split[0] != "roots" or split[2]:
            return None
        named = isinstance(t, T.App) and isinstance(t.fn, T.Const)
        p = self._polynomial("roots", split[1], named)
        if p is not None and not p.numeric:
            raise Untranslatable("Polynomial.roots", "of a polynomial whose coefficients are "
                                 "not all numerals")
        return p

    def _roots_equality(self, rel: str, a: T.Term, b: T.Term) -> T.Term | None:
        if rel not in ("Eq", "Ne"):
            return None
        p, literal = self._roots_of(a), b
        if p is None:
            p, literal = self._roots_of(b), a
        if p is None:
            return None
        values = _multiset(literal, p.ring)
        if values is None:
            raise Untranslatable("Polynomial.roots", "compared with something other than a "
                                 "literal multiset of numerals")
        rational, count = roots(p)
        wanted: dict[Fraction, int] = {}
        for v in values:
            wanted[v] = wanted.get(v, 0) + 1
        equal = count == len(values) and all(rational.get(v, 0) == m for v, m in wanted.items())
        return truth(equal == (rel == "Eq"))

    def _root_membership(self, s: T.Term, x: T.Term) -> T.Term | None:
        p = self._roots_of(s)
        if p is None:
            return None
        if not p.coeffs:
            return T.Const("False")  # roots 0 = ∅
        split = self._split(s)
        value = evaluate(split[1], self.term(x))
        if value is None:
            return None
        return c("Eq", value, value_term(Fraction(0), p.ring))

    # ---- evaluation ---------------------------------------------------------------------

    def _evaluation(self, t: T.App) -> T.Term | None:
        head, args = t.fn, t.args
        if isinstance(head, T.Proj) and head.field in ("eval", "IsRoot") and len(args) == 1:
            head, args = T.Const(f"Polynomial.{head.field}"), (args[0], head.expr) \
                if head.field == "eval" else (head.expr, args[0])
        if head == T.Const("Polynomial.eval") and len(args) == 2:
            return evaluate(args[1], self.term(args[0]))
        if head == T.Const("Polynomial.IsRoot") and len(args) == 2:
            value = evaluate(args[0], self.term(args[1]))
            return None if value is None else T.App(T.Const("Eq"), (value, T.Lit(0)))
        return None


def _mentions(t: T.Term) -> bool:
    names = _NAMES | {"Polynomial.eval", "Polynomial.IsRoot"}
    return any((isinstance(n, T.Const) and n.name in names)
               or (isinstance(n, T.Proj) and n.field in ("eval", "IsRoot", *_FIELDS))
               for n in T.walk(t))


def _degree_bound(p: str, hypothesis: T.Term) -> int | None:
    """The bound ``d`` that ``hypothesis`` puts on ``natDegree p`` (``≤ d``), or ``None``."""
    if not (isinstance(hypothesis, T.App) and isinstance(hypothesis.fn, T.Const)
            and len(hypothesis.args) == 2):
        return None
    rel, (a, b) = hypothesis.fn.name, hypothesis.args
    if rel in ("GE.ge", "GT.gt"):
        rel, a, b = ("LE.le" if rel == "GE.ge" else "LT.lt"), b, a
    if rel not in ("LE.le", "LT.lt", "Eq"):
        return None
    if rel == "Eq" and not _is_degree_of(p, a):
        a, b = b, a
    if not _is_degree_of(p, a) or not (isinstance(b, T.Lit) and isinstance(b.value, int)):
        return None
    d = b.value - (1 if rel == "LT.lt" else 0)
    return d if d >= 0 else None


def _is_degree_of(p: str, t: T.Term) -> bool:
    if isinstance(t, T.Typed):
        t = t.expr
    if isinstance(t, T.Proj):
        return t.field in ("natDegree", "degree") and t.expr == T.Var(p)
    return (isinstance(t, T.App) and t.args == (T.Var(p),)
            and t.fn in (T.Const("Polynomial.natDegree"), T.Const("Polynomial.degree")))


#: The largest degree of a polynomial variable drawn by its coefficients (``degree P = 1008``
#: would be a sum nested a thousand deep, past Python's recursion in every later stage).
MAX_DRAWN_DEGREE = 32


def _draw_polynomials(decl: Declaration, taken: set[str]) -> Declaration:
    """``decl`` with each polynomial variable whose degree a hypothesis bounds replaced by
    ``Σ C p_k * X ^ k`` over fresh coefficient binders ``p_0 … p_d``."""
    binders = list(decl.binders)
    out: list[T.Binder] = []
    mapping: dict[str, T.Term] = {}
    for i, b in enumerate(binders):
        ty = b.type if b.type is None else T.substitute(b.type, mapping)
        ring = _ring_name(ty)
        bounds = [d for later in binders[i + 1:] if later.type is not None
                  for d in (_degree_bound(b.name, later.type),) if d is not None]
        if ring is None or not bounds or b.info != "default":
            out.append(T.Binder(b.name, ty, b.info))
            mapping.pop(b.name, None)
            continue
        if min(bounds) > MAX_DRAWN_DEGREE:
            raise Untranslatable(f"polynomial variable {b.name} of degree {min(bounds)}",
                                 f"one is drawn by its coefficients up to degree "
                                 f"{MAX_DRAWN_DEGREE} only")
        names = [fresh_name(f"{b.name}_{k}", taken) for k in range(min(bounds) + 1)]
        out.extend(T.Binder(n, T.Const(ring), "default") for n in names)
        total: T.Term = c("Polynomial.C", T.Var(names[0]))
        for k, n in enumerate(names[1:], start=1):
            total = c("HAdd.hAdd", total, c("HMul.hMul", c("Polynomial.C", T.Var(n)),
                                              c("HPow.hPow", T.Const("Polynomial.X"), T.Lit(k))))
        mapping[b.name] = T.Typed(total, c("Polynomial", T.Const(ring)))
    if not mapping:
        return decl
    return dataclasses.replace(decl, binders=tuple(out),
                               type=T.substitute(decl.type, mapping))


def rewrite_polynomials(decl: Declaration) -> Declaration:
    """``decl`` with its polynomial variables drawn by their coefficients (when a hypothesis
    bounds the degree) and the vocabulary of explicit polynomials computed (unchanged when it
    has none)."""
    if decl.type is None or decl.kind != "theorem":
        return decl
    terms = [b.type for b in decl.binders if b.type is not None] + [decl.type]
    if not any(_mentions(t) for t in terms):
        return decl
    decl = _draw_polynomials(decl, taken_names(decl))
    types = {b.name: b.type for b in decl.binders if b.type is not None}
    return rewrite_declaration(decl, _mentions, lambda names: _Polynomials(names, types))


__all__ = ["Coefficients", "RINGS", "coefficients", "evaluate", "rewrite_polynomials", "roots"]
