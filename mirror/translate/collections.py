"""Collections in statements, desugared before translation into terms the translator reads.

A statement that quantifies over a ``List``, ``Multiset``, ``Option`` or ``Finset`` is
rewritten, keeping Lean's meaning exactly, into one over numbers, Booleans and functions on
``Fin n`` / ``ℕ``, which the translator and the samplers already handle:

- ``l : List α`` (or ``Multiset α``) becomes a length ``l_len : ℕ`` (a dimension, drawn
  from 0) and its entries ``l : Fin l_len → α``. A list expression is a :class:`Sequence` of
  segments (``l ++ m``, ``a :: l``, ``[a, b]``, ``s + t`` on multisets), each segment a length,
  an entry function and, after ``filter``, a mask. ``length``/``card``, ``sum`` (``[]`` sums to
  0), ``prod`` (``[]`` multiplies to 1), ``countP``, ``count``, ``map``, ``filter``, ``∈``,
  ``∀ x ∈ l``, ``∃ x ∈ l`` become sums, products, ``if``s and quantifiers over ``Fin``;
  ``getD``, ``l[i]`` and ``get`` (lists only) become ``if i < length then … else default``.
- ``o : Option α`` becomes ``o_isSome : Bool`` and ``o_val : α`` (read only when
  ``o_isSome``): ``getD``, ``isSome``, ``isNone``, ``map``, ``get!``, ``= none``, ``= some a``.
- ``s : Finset ℕ`` becomes a bound ``s_bound : ℕ`` and a mask ``s : ℕ → Bool``: the finset is
  ``{x < s_bound | s x}`` (the empty set included); ``s : Finset (Fin n)`` is a mask
  ``s : Fin n → Bool``. ``card``, ``∑``/``∏`` over it, ``filter``, ``∈``, ``⊆``, ``∪``, ``∩``,
  ``Nonempty``, ``∀ x ∈ s`` and ``∃ x ∈ s`` become sums and bounded quantifiers.
- ``x ∈ {y | p y}`` is ``p x``; ``x ∈ Set.Icc a b`` (and the other intervals) are the
  inequalities.
- An untyped binder in the statement's prefix (``∀ f : ℕ → ℝ, ∀ n, …``) gets the type its
  uses force: an argument of a function binder, of ``Finset.range``/``Fin``, an ascription,
  or a relation with a typed variable. Conflicting or missing evidence leaves it untyped.

Anything else done with a collection (``l.reverse``, a list passed to a definition, a list
quantified inside a hypothesis) raises :class:`~mirror.translate.translation.Untranslatable` naming the
construct. A statement without any of these constructs is returned unchanged.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.binder_types import infer_types
from mirror.translate.collection_ops import INTERVALS, CollectionOperations, _require_scalar
from mirror.translate.collection_values import (KINDS, QUALIFIED, Optional, Rep, Segment, Sequence, Subset,
                                      operation)
from mirror.translate.lean_terms import (theorem_binders, BOOL, FALSE, NAT, ONE, TRUE, ZERO, app, beta, binder_names,
                                         conj, conjuncts, disj, is_call, neg, pi, premise, show,
                                         type_head)
from mirror.translate.translation import Untranslatable

#: Constants whose presence makes a statement worth desugaring.
TRIGGERS = frozenset({"setOf", "Set.univ", "List.nil", "List.cons", "List.replicate",
                      "List.range", "some", "none", "Option.some", "Option.none",
                      "HAppend.hAppend", "Insert.insert", "Finset.insert", *KINDS, *INTERVALS, *QUALIFIED})
# ---- the rewriting ---------------------------------------------------------------------------


class Desugarer(CollectionOperations):
    """Rewrites one statement; ``taken`` are the names already used in it. Binders, terms and
    the representations of collections are here; the operations on them and the propositions
    about them are :class:`~mirror.translate.collection_ops.CollectionOperations`'."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = set(taken)
        self.reps: dict[str, Rep] = {}
        #: Element types of the variables whose membership in a collection was desugared.
        self.members: dict[str, T.Term] = {}

    def fresh(self, base: str) -> str:
        name, count = base, 0
        while name in self.taken:
            count += 1
            name = f"{base}{count}"
        self.taken.add(name)
        return name

    # ---- binders --------------------------------------------------------------------------

    def prefix_binder(self, binder: T.Binder) -> list[T.Binder]:
        """A binder of the statement's prefix: a collection becomes the binders drawing it."""
        head, args = type_head(binder.type)
        if head not in KINDS or len(args) != 1:
            return [self._plain(binder)]
        elem = self.term(args[0])
        name, info = binder.name, binder.info
        self.taken.add(name)
        if head in ("List", "Multiset"):
            _require_scalar(elem, f"a {head} binder {name}")
            size = self.fresh(f"{name}_len")
            self.reps[name] = Sequence(head, elem, (Segment(
                T.Var(size), lambda i, name=name: T.App(T.Var(name), (i,))),))
            entries = T.Pi((T.Binder("_", app("Fin", T.Var(size))),), elem)
            return [T.Binder(size, NAT, info), T.Binder(name, entries, info)]
        if head == "Option":
            _require_scalar(elem, f"an Option binder {name}")
            some, value = self.fresh(f"{name}_isSome"), self.fresh(f"{name}_val")
            self.reps[name] = Optional(T.Var(some), T.Var(value))
            return [T.Binder(some, BOOL, info), T.Binder(value, elem, info)]
        fin_head, fin_args = type_head(elem)
        if elem == NAT:
            size = self.fresh(f"{name}_bound")
            self.reps[name] = Subset(T.Var(size), False,
                                     lambda x, name=name: T.App(T.Var(name), (x,)))
            mask = T.Pi((T.Binder("_", NAT),), BOOL)
            return [T.Binder(size, NAT, info), T.Binder(name, mask, info)]
        if fin_head == "Fin" and len(fin_args) == 1:
            self.reps[name] = Subset(fin_args[0], True,
                                     lambda x, name=name: T.App(T.Var(name), (x,)))
            return [T.Binder(name, T.Pi((T.Binder("_", elem),), BOOL), info)]
        raise Untranslatable(f"a Finset binder {name} over {show(elem)}",
                             "only Finset ℕ and Finset (Fin n) are drawn")

    def _plain(self, binder: T.Binder) -> T.Binder:
        """A binder that is not a collection: its type rewritten; a hypothesis that became a
        Bool (``x ∈ s`` on a ``Finset (Fin n)``, ``o.isSome``) kept a premise."""
        if binder.type is None:
            return binder
        ty = self.term(binder.type)
        if ty != binder.type and (is_call(binder.type, "Membership.mem") or (
                operation(binder.type) or ("",))[0] in ("Nonempty", "isSome", "isNone")):
            ty = premise(ty)
        return T.Binder(binder.name, ty, binder.info)

    def binders(self, binders: list[T.Binder], prefix: bool) -> list[T.Binder]:
        """Binders in order; ``x`` followed by ``_ : x ∈ s`` with ``s`` a drawn finset
        becomes ``x`` bounded by the finset's domain and its mask as a premise."""
        out: list[T.Binder] = []
        index = 0
        while index < len(binders):
            binder = binders[index]
            nxt = binders[index + 1] if index + 1 < len(binders) else None
            subset = self._member_of(nxt.type, binder.name) if nxt is not None else None
            if isinstance(subset, Subset) and binder.name != "_":
                x = T.Var(binder.name)
                out.append(T.Binder(binder.name, subset.elem, binder.info))
                if not subset.fin:
                    out.append(T.Binder("_", subset.bound(x)))
                out.append(T.Binder(nxt.name, premise(self._shadowed(
                    (binder.name,), lambda: subset.mask(x)))))
                index += 2
                continue
            if prefix:
                out.extend(self.prefix_binder(binder))
            else:
                head, _ = type_head(binder.type)
                if head in KINDS:
                    raise Untranslatable(f"a {head} quantified inside the statement",
                                         "only the statement's own binders are drawn")
                out.append(self._plain(binder))
            index += 1
        return out

    def statement(self, binders: list[T.Binder], body: T.Term) -> tuple[list[T.Binder], T.Term]:
        """The statement's prefix and body, desugared.

        A hypothesis ``o = some e`` / ``o = none`` on an option binder no earlier binder
        mentions replaces the option (the statement is the same with ``o`` substituted);
        ``∀ x ∈ l`` over a list ends the prefix (the rest is a conjunction over the list's
        segments) unless a collection binder follows; a hypothesis that became a conjunction
        is split into its parts."""
        out: list[T.Binder] = []
        drawn: dict[str, list[str]] = {}
        for index, binder in enumerate(binders):
            nxt = binders[index + 1] if index + 1 < len(binders) else None
            later = binders[index + 2:]
            if (nxt is not None and binder.name != "_"
                    and isinstance(self._member_of(nxt.type, binder.name), Sequence)
                    and not any(type_head(b.type)[0] in KINDS for b in later)):
                return out, self.term(pi(binders[index:], body))
            if self._specialize(binder, drawn, out):
                continue
            for name in list(drawn):
                if binder.type is not None and name in T.free_vars(binder.type):
                    del drawn[name]
            new = self.binders([binder], prefix=True)
            if binder.name in self.reps:
                drawn[binder.name] = [b.name for b in new]
            if len(new) == 1 and new[0].type != binder.type and is_call(new[0].type, "And"):
                parts = list(conjuncts(new[0].type))
                new = [T.Binder(binder.name if k == 0 else self.fresh(f"{binder.name}_{k + 1}"),
                                premise(part), binder.info) for k, part in enumerate(parts)]
            out.extend(new)
        return out, self.term(body)

    def _specialize(self, binder: T.Binder, drawn: dict[str, list[str]],
                    out: list[T.Binder]) -> bool:
        """A hypothesis on an undisturbed collection binder, built into the collection.

        ``h : o = some e`` (or ``none``) substitutes the option. ``h : x ∈ s`` makes ``s``
        ``insert x s`` (every finset holding ``x`` is one); ``h : x ∈ l`` makes ``l``
        ``l_pre ++ [x] ++ l`` (every list holding ``x`` is one), once per list."""
        if is_call(binder.type, "Membership.mem") and len(binder.type.args) == 2:
            return self._insert(binder.type.args[0], binder.type.args[1], drawn, out)
        call = operation(binder.type) if binder.type is not None else None
        if call and call[0] == "isSome" and not call[2] and isinstance(call[1], T.Var):
            rep = self.reps.get(call[1].name)
            if call[1].name in drawn and isinstance(rep, Optional):
                self.reps[call[1].name] = Optional(TRUE, rep.value)
                out[:] = [b for b in out if b.name != rep.present.name]
                del drawn[call[1].name]
                return True
        if not (is_call(binder.type, "Eq") and len(binder.type.args) == 2):
            return False
        for side, other in (binder.type.args, binder.type.args[::-1]):
            if not (isinstance(side, T.Var) and side.name in drawn):
                continue
            value = self.collection(other)
            if isinstance(value, Optional) and value.present in (TRUE, FALSE):
                self.reps[side.name] = value
                names = drawn.pop(side.name)
                out[:] = [b for b in out if b.name not in names]
                return True
        return False

    def _insert(self, container: T.Term, element: T.Term, drawn: dict[str, list[str]],
                out: list[T.Binder]) -> bool:
        if not (isinstance(container, T.Var) and container.name in drawn
                and container.name not in T.free_vars(element)):
            return False
        name = container.name
        rep, x = self.reps[name], self.term(element)
        if isinstance(rep, Subset):
            self.reps[name] = rep.insert(x)
            return True
        if not isinstance(rep, Sequence):
            return False
        size = self.fresh(f"{name}_pre_len")
        pre = self.fresh(f"{name}_pre")
        out.append(T.Binder(size, NAT))
        out.append(T.Binder(pre, T.Pi((T.Binder("_", app("Fin", T.Var(size))),), rep.elem)))
        first = Segment(T.Var(size), lambda i: T.App(T.Var(pre), (i,)))
        single = Segment(ONE, lambda _i: x, single=True)
        self.reps[name] = Sequence(rep.kind, rep.elem, (first, single) + rep.segments)
        del drawn[name]
        return True

    def _member_of(self, premise: T.Term | None, name: str) -> Rep | None:
        if not (is_call(premise, "Membership.mem") and len(premise.args) == 2
                and premise.args[1] == T.Var(name)):
            return None
        return self.collection(premise.args[0])

    def _shadowed(self, names, build: Callable[[], T.Term]) -> T.Term:
        saved = {n: self.reps.pop(n) for n in names if n in self.reps}
        try:
            return build()
        finally:
            self.reps.update(saved)

    # ---- terms ----------------------------------------------------------------------------

    def term(self, term: T.Term) -> T.Term:
        """``term`` with every collection operation replaced by its desugared form."""
        special = self._special(term)
        if special is not None:
            return special
        rep = self.collection(term)
        if rep is not None:
            kind = rep.kind if isinstance(rep, Sequence) else (
                "Option" if isinstance(rep, Optional) else "Finset")
            raise Untranslatable(f"the {kind} {show(term)} used as a value",
                                 "collections are read through length/card, sum, prod, "
                                 "countP, count, map, filter, ∈, getD and indexing")
        if isinstance(term, T.Var) and term.name in self.reps:
            raise Untranslatable(f"the collection {term.name} used as {show(term)}")
        if isinstance(term, T.Pi):
            while isinstance(term.body, T.Pi):  # ∀ x, x ∈ l → p: one binder list
                term = T.Pi(term.binders + term.body.binders, term.body.body)
            found = self._sequence_forall(term)
            if found is not None:
                return found
            names = tuple(b.name for b in term.binders)
            return self._shadowed(names, lambda: self._typed_pi(term))
        if isinstance(term, T.Lam):
            names = tuple(b.name for b in term.binders)
            binders = tuple(T.Binder(b.name, None if b.type is None else self.term(b.type),
                                     b.info) for b in term.binders)
            return T.Lam(binders, self._shadowed(names, lambda: self.term(term.body)))
        if isinstance(term, T.Let):
            return T.Let(term.name, None if term.type is None else self.term(term.type),
                         self.term(term.value),
                         self._shadowed((term.name,), lambda: self.term(term.body)))
        plain = T.map_plain(term, self.term, type_of=self.term)
        return term if plain is None else plain

    def _typed_pi(self, term: T.Pi) -> T.Term:
        """A ∀ rewritten; a binder left untyped whose membership in a collection was
        desugared gets the collection's element type (the translator would guess ℕ)."""
        binders = self.binders(list(term.binders), False)
        body = self.term(term.body)
        binders = [T.Binder(b.name, self.members.pop(b.name, None), b.info)
                   if b.type is None and b.name in self.members else b for b in binders]
        return pi(binders, body)

    def _special(self, term: T.Term) -> T.Term | None:
        """The desugared form of a collection operation, a membership or an equation between
        options; ``None`` when ``term`` is none of these."""
        if is_call(term, "Membership.mem") and len(term.args) == 2:
            return self._membership(term.args[0], term.args[1])
        if is_call(term, "HasSubset.Subset") and len(term.args) == 2:
            left, right = (self.collection(a) for a in term.args)
            if isinstance(left, Subset):
                return self._forall(left, lambda x: self._member(term.args[1], x))
            if isinstance(right, Subset):  # `range n ⊆ s`: every element of a known finset
                x = self.fresh("x")
                inside = app("Membership.mem", self.term(term.args[0]), T.Var(x))
                return T.Pi((T.Binder(x, right.elem), T.Binder("_", inside)),
                            right.member(T.Var(x)))
            return None
        if is_call(term, "Eq", "Ne") and len(term.args) == 2:
            equal = self._equation(*term.args)
            if equal is not None:
                return equal if term.fn.name == "Eq" else neg(equal)
            return None
        if is_call(term, "Exists") and len(term.args) == 1:
            return self._exists(term.args[0])
        if isinstance(term, T.App) and self.collection(term.fn) is not None:
            return self._index(term)
        if (is_call(term, "HAppend.hAppend", "List.cons") and len(term.args) == 3
                and self.collection(T.App(term.fn, term.args[:2])) is not None):
            return self._index(T.App(T.App(term.fn, term.args[:2]), term.args[2:]))
        found = self._receiver(term)
        if found is None:
            return None
        op, rep, args = found
        if isinstance(rep, Sequence):
            return self._sequence_op(rep, op, args, term)
        if isinstance(rep, Optional):
            return self._option_op(rep, op, args, term)
        return self._subset_op(rep, op, args, term)

    # ---- collections as representations ------------------------------------------------------

    def _receiver(self, term: T.Term) -> tuple[str, Rep, tuple[T.Term, ...]] | None:
        """``(operation, collection, other arguments)`` when ``term`` operates on one."""
        call = operation(term)
        rep = self.collection(call[1]) if call is not None else None
        return None if rep is None else (call[0], rep, call[2])

    def collection(self, term: T.Term) -> Rep | None:
        """The representation of a collection-valued ``term``, or ``None``."""
        if isinstance(term, T.Var):
            return self.reps.get(term.name)
        if isinstance(term, T.Const):
            if term.name == "List.nil":
                return Sequence("List", None, ())
            if term.name in ("none", "Option.none"):
                return Optional(FALSE, ZERO)
            return None
        if isinstance(term, (T.Typed, T.Coe)):
            inner = self.collection(term.expr)
            head, _ = type_head(term.type) if isinstance(term, T.Typed) else (None, ())
            if isinstance(inner, Sequence) and head in ("List", "Multiset"):
                elem = self.term(term.type.args[0]) if term.type.args else inner.elem
                return dataclasses.replace(inner, kind=head, elem=inner.elem or elem)
            return inner if head is None or head in KINDS else None
        if is_call(term, "List.cons") and len(term.args) == 2:
            rest = self.collection(term.args[1])
            if isinstance(rest, Sequence):
                head = self.term(term.args[0])
                seg = Segment(ONE, lambda _i, head=head: head, single=True)
                return Sequence(rest.kind, rest.elem, (seg,) + rest.segments)
            return None
        if is_call(term, "some", "Option.some") and len(term.args) == 1:
            return Optional(TRUE, self.term(term.args[0]))
        if is_call(term, "HAppend.hAppend", "HAdd.hAdd") and len(term.args) == 2:
            left, right = (self.collection(a) for a in term.args)
            if isinstance(left, Sequence) and isinstance(right, Sequence):
                if term.fn.name == "HAdd.hAdd" and "List" in (left.kind, right.kind):
                    return None
                return Sequence(left.kind, left.elem or right.elem,
                                left.segments + right.segments)
            return None
        if is_call(term, "List.replicate") and len(term.args) == 2:
            count, value = (self.term(a) for a in term.args)
            return Sequence("List", None, (Segment(count, lambda _i, value=value: value),))
        if is_call(term, "List.range") and len(term.args) == 1:
            return Sequence("List", NAT, (Segment(self.term(term.args[0]),
                                                  lambda i: T.Typed(i, NAT)),))
        if is_call(term, "Multiset.ofList") and len(term.args) == 1:
            inner = self.collection(term.args[0])
            return dataclasses.replace(inner, kind="Multiset") if isinstance(
                inner, Sequence) else None
        if is_call(term, "Insert.insert", "Finset.insert", "insert") and len(term.args) == 2:
            rep = self.collection(term.args[1])
            return rep.insert(self.term(term.args[0])) if isinstance(rep, Subset) else None
        if is_call(term, "Union.union", "Inter.inter") and len(term.args) == 2:
            return self._combine(term)
        found = self._receiver(term)
        if found is None or len(found[2]) != 1 or found[0] not in ("map", "filter"):
            return None
        op, rep, args = found
        fn = self.term(args[0])
        if isinstance(rep, Sequence):
            if op == "map":
                return Sequence(rep.kind, None, tuple(dataclasses.replace(
                    s, entry=lambda i, s=s: beta(fn, s.entry(i))) for s in rep.segments))
            return Sequence(rep.kind, rep.elem, tuple(dataclasses.replace(
                s, single=False, mask=lambda i, s=s: conj(
                    s.mask(i) if s.mask else TRUE, beta(fn, s.entry(i))))
                for s in rep.segments))
        if isinstance(rep, Optional) and op == "map":
            return Optional(rep.present, beta(fn, rep.value))
        if isinstance(rep, Subset) and op == "filter":
            return Subset(rep.size, rep.fin, lambda x: conj(rep.mask(x), beta(fn, x)))
        return None

    def _combine(self, term: T.App) -> Subset | None:
        left, right = (self.collection(a) for a in term.args)
        if not (isinstance(left, Subset) and isinstance(right, Subset)):
            return None
        union = term.fn.name == "Union.union"
        if left.fin != right.fin:
            return None
        if left.fin:
            size = left.size
        else:
            size = app("max" if union else "min", left.size, right.size)
        join = disj if union else conj
        return Subset(size, left.fin, lambda x: join(left.member(x), right.member(x)))


# ---- entry point -------------------------------------------------------------------------------


def _needed(binders: list[T.Binder], body: T.Term) -> bool:
    for binder in binders:
        if binder.type is None and binder.name != "_":
            return True
        if type_head(binder.type)[0] in KINDS:
            return True
    terms = [b.type for b in binders if b.type is not None] + [body]
    return any(T.constants(t) & TRIGGERS for t in terms)


def desugar(decl: Declaration) -> Declaration:
    """``decl`` with its collections desugared (unchanged when it has none).

    Raises :class:`~mirror.translate.translation.Untranslatable` naming a collection construct that
    cannot be rewritten."""
    if decl.type is None or decl.kind != "theorem":
        return decl
    binders, body = theorem_binders(decl)
    if not _needed(binders, body):
        return decl
    taken = {b.name for b in binders} | binder_names(body)
    for term in [b.type for b in binders if b.type is not None] + [body]:
        taken |= T.free_vars(term)
    rewriter = Desugarer(taken)
    new_binders, new_body = rewriter.statement(infer_types(binders, body), body)
    return dataclasses.replace(decl, binders=tuple(new_binders), type=new_body)


__all__ = ["Desugarer", "Optional", "Sequence", "Subset", "desugar"]
