"""Number-theory vocabulary, by Mathlib's own definitions (a table of Lean-term rewrites).

Each entry replaces an application of a Mathlib constant by the Lean term of its definition
(or of the ``iff`` lemma named beside it), built from constants the translator already knows,
before translation. The rewritten term is elaborated like any Lean term, so both sides of
``a ∣ b`` are unified to one type exactly as Lean's ``binrel%`` would (``b % a = 0`` has the
same unification as ``a ∣ b``), and Lean's junk values come along (``b % 0 = b``, so
``0 ∣ b ↔ b = 0``: ``zero_dvd_iff``).

==================  ================================================  ==============================
Lean                rewritten to                                      Mathlib
==================  ================================================  ==============================
``a ∣ b``           ``b % a = 0`` (in ℕ and ℤ only)                   ``Nat.dvd_iff_mod_eq_zero``,
                                                                      ``Int.dvd_iff_emod_eq_zero``
``a ≡ b [MOD n]``   ``a % n = b % n``                                 ``Nat.ModEq`` (its definition)
``a ≡ b [ZMOD n]``  ``a % n = b % n``                                 ``Int.ModEq`` (its definition)
``Nat.Coprime m n`` ``Nat.gcd m n = 1``                               ``Nat.Coprime`` (definition)
``Nat.Prime p``     ``2 ≤ p ∧ ∀ m : ℕ, m < p → 2 ≤ m → p % m ≠ 0``    ``Nat.prime_def_lt''``-style:
                                                                      ``Nat.prime_def_lt``
``Even n``          ``n % 2 = 0``                                     ``Nat.even_iff``, ``Int.even_iff``
``Odd n``           ``n % 2 = 1``                                     ``Nat.odd_iff``, ``Int.odd_iff``
``Nat.divisors n``  ``Finset.filter (· ∣ n) (Finset.Ico 1 (n + 1))``  ``Nat.divisors`` (definition)
``Nat.properDivisors n``  ``Finset.filter (· ∣ n) (Finset.Ico 1 n)``  ``Nat.properDivisors``
``Nat.primeFactors n``  ``Finset.filter (fun p => p.Prime ∧ p ∣ n)    ``Nat.mem_primeFactors``
                    (Finset.Ico 1 (n + 1))`` (empty at ``n = 0``)     (``n ≠ 0``)
==================  ================================================  ==============================

``Nat.digits b n`` is read where a statement uses it (``.sum``, ``.length``, ``∈``,
``= [x₀, …]``, ``∀ d ∈ …``): :mod:`mirror.translate.digits`.
``(s.filter p).card`` of such a finset becomes ``∑ x ∈ s, if p x then 1 else 0``
(``Finset.card_filter``). ``Nat.Prime`` is also read in field notation (``p.Prime``). The rewrite applies to the
statement (its binders and its type) and to the bodies of the project's definitions that
the translator unfolds (:func:`rewrite_number_theory_definition`); a name the table lacks is left for the translator, which
reports it with the advice to bind it in the project.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterator, Mapping

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate import digits
from mirror.translate.lean_terms import fresh_name
from mirror.translate.term_rewriter import TermRewriter, rewrite_declaration, taken_names


def _c(name: str, *args: T.Term) -> T.App:
    return T.App(T.Const(name), tuple(args))


def _lit(value: int) -> T.Lit:
    return T.Lit(value)


def _mod(a: T.Term, n: T.Term) -> T.App:
    return _c("HMod.hMod", a, n)


def _eq(a: T.Term, b: T.Term) -> T.App:
    return _c("Eq", a, b)


#: The constant ``a ∣ b`` is rewritten to: a special form (:mod:`mirror.translate.forms`) that
#: reads it as ``b % a = 0`` once the operands' type is known to be ℕ or ℤ (in another ring —
#: ``ZMod n``, a field — ``b % a = 0`` is not divisibility, and the statement is untranslatable).
DVD = "leanmirror.Dvd.dvd"


def _dvd(a: T.Term, b: T.Term) -> T.Term:
    return _c(DVD, a, b)


def _mod_eq(n: T.Term, a: T.Term, b: T.Term) -> T.Term:
    return _eq(_mod(a, n), _mod(b, n))


def _prime(p: T.Term, taken: set[str]) -> T.Term:
    m = fresh_name("m_prime", taken)
    var = T.Var(m)
    # `m < p` first: the translator bounds the quantifier by it (exact, never truncated)
    body = T.Pi((T.Binder("_", _c("LT.lt", var, p)),),
                T.Pi((T.Binder("_", _c("LE.le", _lit(2), var)),),
                     _c("Ne", _mod(p, var), _lit(0))))
    return _c("And", _c("LE.le", _lit(2), p), T.Pi((T.Binder(m, T.Const("Nat")),), body))


def _filtered(pred: Callable[[T.Term], T.Term], lo: T.Term, hi: T.Term,
              taken: set[str]) -> T.Term:
    x = fresh_name("d_div", taken)
    lam = T.Lam((T.Binder(x, T.Const("Nat")),), pred(T.Var(x)))
    return _c("Finset.filter", lam, _c("Finset.Ico", lo, hi))


def _succ(n: T.Term) -> T.Term:
    return _c("HAdd.hAdd", n, _lit(1))


#: Lean constant → (arity, builder of the rewritten term from the arguments and taken names).
REWRITES: dict[str, tuple[int, Callable[..., T.Term]]] = {
    "Dvd.dvd": (2, lambda taken, a, b: _dvd(a, b)),
    "Nat.ModEq": (3, lambda taken, n, a, b: _mod_eq(n, a, b)),
    "Int.ModEq": (3, lambda taken, n, a, b: _mod_eq(n, a, b)),
    "Nat.Coprime": (2, lambda taken, m, n: _eq(_c("Nat.gcd", m, n), _lit(1))),
    "Nat.Prime": (1, lambda taken, p: _prime(p, taken)),
    "Even": (1, lambda taken, n: _eq(_mod(n, _lit(2)), _lit(0))),
    "Odd": (1, lambda taken, n: _eq(_mod(n, _lit(2)), _lit(1))),
    "Nat.divisors": (1, lambda taken, n: _filtered(lambda x: _dvd(x, n), _lit(1), _succ(n),
                                                   taken)),
    "Nat.properDivisors": (1, lambda taken, n: _filtered(lambda x: _dvd(x, n), _lit(1), n,
                                                         taken)),
    "Nat.primeFactors": (1, lambda taken, n: _filtered(
        lambda x: _c("And", _prime(x, taken), _dvd(x, n)), _lit(1), _succ(n), taken)),
}
#: Field notation read as a constant of the table (``p.Prime`` is ``Nat.Prime p``).
FIELDS = {"Prime": "Nat.Prime", "Coprime": "Nat.Coprime", "divisors": "Nat.divisors",
          "primeFactors": "Nat.primeFactors", "properDivisors": "Nat.properDivisors"}


class _Rewriter(TermRewriter):
    def term(self, t: T.Term) -> T.Term:
        if isinstance(t, T.App):
            head, args = t.fn, [self.term(a) for a in t.args]
            if isinstance(head, T.Proj) and head.field in FIELDS:
                head, args = T.Const(FIELDS[head.field]), [self.term(head.expr)] + args
            if head == T.Const("Finset.card") and len(args) == 1:
                return self._card(args[0])
            read = self._digits(head, args)
            if read is not None:
                return read
            if isinstance(head, T.Const) and head.name in REWRITES:
                arity, build = REWRITES[head.name]
                if len(args) >= arity:
                    out = build(self.taken, *args[:arity])
                    return T.App(out, tuple(args[arity:])) if len(args) > arity else out
            return T.App(self.term(head), tuple(args), t.ty)
        if isinstance(t, T.Proj) and t.field in FIELDS:
            return self.term(T.App(T.Const(FIELDS[t.field]), (t.expr,)))
        if isinstance(t, T.Proj) and digits.digits_args(t.expr) is not None:
            found = digits.read(t.field, digits.digits_args(self.term(t.expr)))
            if found is not None:
                return found
        if isinstance(t, T.Proj) and t.field == "card" and _mentions(t.expr):
            return self._card(self.term(t.expr))
        if isinstance(t, T.Pi) and (found := self._forall_digits(t)) is not None:
            return found
        return self.structural(t)

    def _digits(self, head: T.Term, args: list[T.Term]) -> T.Term | None:
        """``Nat.digits b n`` under ``List.sum``/``List.length``, ``∈`` or ``= [x₀, …]``
        (:mod:`mirror.translate.digits`); ``None`` for any other term."""
        if not isinstance(head, T.Const):
            return None
        fields = {"List.sum": "sum", "List.length": "length"}
        if head.name in fields and len(args) == 1 and digits.digits_args(args[0]):
            return digits.read(fields[head.name], digits.digits_args(args[0]))
        if head.name == "Membership.mem" and len(args) == 2 and digits.digits_args(args[0]):
            return digits.member(args[1], digits.digits_args(args[0]), self.fresh("i_dig"))
        if head.name == "Eq" and len(args) == 2:
            for side, other in (args, args[::-1]):
                entries = digits.list_literal(other)
                if digits.digits_args(side) is not None and entries is not None:
                    return digits.equals(digits.digits_args(side), entries)
        return None

    def _forall_digits(self, t: T.Pi) -> T.Term | None:
        """``∀ d, d ∈ Nat.digits b n → P d`` as ``∀ i : ℕ, i < length → P (digit i)``
        (``List.forall_mem_iff_getElem``): a quantifier bounded exactly by the length."""
        if len(t.binders) != 1 or t.binders[0].type not in (None, T.Const("Nat")):
            return None
        d, body = t.binders[0].name, t.body
        if not (isinstance(body, T.Pi) and len(body.binders) == 1):
            return None
        premise = body.binders[0].type
        if not (isinstance(premise, T.App) and premise.fn == T.Const("Membership.mem")
                and len(premise.args) == 2 and premise.args[1] == T.Var(d)):
            return None
        read = digits.digits_args(self.term(premise.args[0]))
        if read is None:
            return None
        i = T.Var(self.fresh("i_dig"))
        rest = T.substitute(body.body, {d: _c(digits.AT, *read, i)})
        bounded = T.Pi((T.Binder("_", _c("LT.lt", i, _c(digits.LENGTH, *read))),),
                       self.term(rest))
        return T.Pi((T.Binder(i.name, T.Const("Nat")),), bounded)

    def _card(self, s: T.Term) -> T.Term:
        """``(s.filter p).card`` as ``∑ x ∈ s, if p x then 1 else 0`` (``Finset.card_filter``);
        another finset's card is left as it is."""
        if isinstance(s, T.App) and s.fn == T.Const("Finset.filter") and len(s.args) == 2 \
                and isinstance(s.args[0], T.Lam) and len(s.args[0].binders) == 1:
            lam = s.args[0]
            body = _c("ite", lam.body, _lit(1), _lit(0))
            return _c("Finset.sum", s.args[1], T.Lam(lam.binders, body))
        return _c("Finset.card", s)


def _mentions(t: T.Term) -> bool:
    for node in T.walk(t):
        if isinstance(node, T.Const) and (node.name in REWRITES or node.name == "Nat.digits"):
            return True
        if isinstance(node, T.Proj) and node.field in FIELDS:
            return True
    return False


def rewrite_number_theory(decl: Declaration) -> Declaration:
    """``decl`` with the table's constants replaced by their definitions (unchanged when it
    names none)."""
    return rewrite_declaration(decl, _mentions, _Rewriter)


def rewrite_number_theory_definition(decl: Declaration) -> Declaration:
    """A project definition (not a theorem) with the table's constants replaced in its body and
    equations: ``def sumOfDigits (n : ℕ) : ℕ := (Nat.digits 10 n).sum`` reads its digits as a
    statement that says ``(Nat.digits 10 n).sum`` does (unchanged when it names none)."""
    if decl.kind == "theorem":
        return decl
    bodies = ([decl.value] if decl.value is not None else []) + [eq.rhs for eq in decl.equations]
    if not any(_mentions(t) for t in bodies):
        return decl
    taken = taken_names(decl)
    for t in bodies + [p for eq in decl.equations for p in eq.patterns]:
        taken |= T.free_vars(t) | {b.name for node in T.walk(t)
                                   if isinstance(node, (T.Lam, T.Pi)) for b in node.binders}
    rewriter = _Rewriter(taken)
    return dataclasses.replace(
        decl, value=None if decl.value is None else rewriter.term(decl.value),
        equations=tuple(dataclasses.replace(eq, rhs=rewriter.term(eq.rhs))
                        for eq in decl.equations))


class Definitions(Mapping[str, Declaration]):
    """A project's declarations by name, each definition read through
    :func:`rewrite_number_theory_definition` the first time it is looked up (the translator
    unfolds few of them: rewriting all for every theorem would cost more)."""

    def __init__(self, declarations: Mapping[str, Declaration]) -> None:
        self._declarations = declarations
        self._rewritten: dict[str, Declaration] = {}

    def __getitem__(self, name: str) -> Declaration:
        found = self._rewritten.get(name)
        if found is None:
            found = self._rewritten[name] = rewrite_number_theory_definition(
                self._declarations[name])
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._declarations)

    def __len__(self) -> int:
        return len(self._declarations)

    def __contains__(self, name: object) -> bool:
        return name in self._declarations


__all__ = ["FIELDS", "REWRITES", "Definitions", "rewrite_number_theory",
           "rewrite_number_theory_definition"]
