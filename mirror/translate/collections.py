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
from mirror.translate.collection_values import (KINDS, QUALIFIED, Optional, Rep, Segment, Sequence, Subset,
                                      operation)
from mirror.translate.lean_terms import (BOOL, FALSE, NAT, ONE, TRUE, ZERO, app, beta, binder_names, conj,
                               conjuncts, disj, fold, is_call, ite, neg, pi, premise, show,
                               type_head)
from mirror.translate.translation import Untranslatable

#: ``x ∈ Set.I?? a b`` as (lower relation, upper relation); ``None`` for an open end.
INTERVALS = {
    "Set.Icc": ("LE.le", "LE.le"), "Set.Ico": ("LE.le", "LT.lt"),
    "Set.Ioc": ("LT.lt", "LE.le"), "Set.Ioo": ("LT.lt", "LT.lt"),
    "Set.Ici": ("LE.le", None), "Set.Ioi": ("LT.lt", None),
    "Set.Iic": (None, "LE.le"), "Set.Iio": (None, "LT.lt"),
}
#: Constants whose presence makes a statement worth desugaring.
TRIGGERS = frozenset({"setOf", "Set.univ", "List.nil", "List.cons", "List.replicate",
                      "List.range", "some", "none", "Option.some", "Option.none",
                      "HAppend.hAppend", "Insert.insert", "Finset.insert", *KINDS, *INTERVALS, *QUALIFIED})
# ---- the rewriting ---------------------------------------------------------------------------


class Desugarer:
    """Rewrites one statement; ``taken`` are the names already used in it."""

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
        if isinstance(term, T.App):
            return T.App(self.term(term.fn), tuple(self.term(a) for a in term.args), term.ty)
        if isinstance(term, T.Typed):
            return T.Typed(self.term(term.expr), self.term(term.type))
        if isinstance(term, T.Coe):
            return T.Coe(self.term(term.expr))
        if isinstance(term, T.Proj):
            return T.Proj(self.term(term.expr), term.field)
        if isinstance(term, T.Anon):
            return T.Anon(tuple(self.term(a) for a in term.args))
        return term

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

    # ---- operations ------------------------------------------------------------------------

    def _fin_fold(self, seg: Segment, body: Callable[[T.Term], T.Term], name: str) -> T.Term:
        """``∑ i : Fin length, body i`` (``name`` = ``Finset.sum``/``Finset.prod``)."""
        if seg.single:
            return body(ZERO)
        index = self.fresh("i")
        lam = T.Lam((T.Binder(index, app("Fin", seg.length)),), body(T.Var(index)))
        return app(name, T.Const("Finset.univ"), lam)

    def _count(self, seq: Sequence, pred: Callable[[T.Term], T.Term] | None = None) -> T.Term:
        """How many entries satisfy ``pred`` (all of them: ``None``), as a natural number."""
        nat_one = T.Typed(ONE, NAT)
        terms = []
        for seg in seq.segments:
            def body(i, seg=seg):
                cond = conj(seg.mask(i) if seg.mask else TRUE,
                            pred(seg.entry(i)) if pred else TRUE)
                return ite(cond, nat_one, T.Typed(ZERO, NAT))
            if seg.mask is None and pred is None:
                terms.append(seg.length)
            else:
                terms.append(self._fin_fold(seg, body, "Finset.sum"))
        return fold("HAdd.hAdd", terms, T.Typed(ZERO, NAT))

    def _big(self, seq: Sequence, op: str) -> T.Term:
        name, neutral, infix = (("Finset.sum", ZERO, "HAdd.hAdd") if op == "sum"
                                else ("Finset.prod", ONE, "HMul.hMul"))
        terms = []
        for seg in seq.segments:
            def body(i, seg=seg):
                value = seg.entry(i)
                return ite(seg.mask(i), value, neutral) if seg.mask else value
            terms.append(self._fin_fold(seg, body, name))
        empty = neutral if seq.elem is None else T.Typed(neutral, seq.elem)
        return fold(infix, terms, empty)

    def _sequence_op(self, seq: Sequence, op: str, args: tuple, term: T.Term) -> T.Term:
        args = tuple(self.term(a) for a in args)
        where = f"{seq.kind}.{op}"
        if op in ("length", "card") and not args:
            return self._count(seq)
        if op in ("sum", "prod") and not args:
            return self._big(seq, op)
        if op == "countP" and len(args) == 1:
            return self._count(seq, lambda e: beta(args[0], e))
        if op == "count" and len(args) == 1:
            return self._count(seq, lambda e: app("Eq", e, args[0]))
        if seq.kind == "List" and op == "getD" and len(args) == 2:
            return self._get(seq, args[0], args[1], where)
        if seq.kind == "List" and op == "headD" and len(args) == 1:
            return self._get(seq, ZERO, args[0], where)
        if seq.kind == "List" and op == "get" and len(args) == 1:
            return self._get_fin(seq, args[0], where)
        raise Untranslatable(where if op.isidentifier() else show(term),
                             f"not among the {seq.kind} operations desugared (length/card, "
                             "sum, prod, countP, count, map, filter, ∈, getD, get, indexing)")

    def _get(self, seq: Sequence, index: T.Term, default: T.Term, where: str) -> T.Term:
        """``seq.getD index default``: the entry at a natural-number index, else the default.

        Segment ``k`` holds the indices ``start ≤ index < start + length``; the test
        ``start ≤ index`` comes first because ℕ subtraction truncates."""
        if any(seg.mask is not None for seg in seq.segments):
            raise Untranslatable(f"{where} of a filtered list")
        pieces = []
        start: T.Term = ZERO
        for seg in seq.segments:
            pieces.append((seg, start))
            start = seg.length if start == ZERO else app("HAdd.hAdd", start, seg.length)
        out = default
        for seg, begin in reversed(pieces):
            local = index if begin == ZERO else app("HSub.hSub", index, begin)
            cond = app("LT.lt", local, seg.length)
            if seg.single:
                found = ite(cond, seg.entry(ZERO), out)
            else:
                proof = self.fresh("h")
                found = app("dite", cond,
                             T.Lam((T.Binder(proof, cond),), seg.entry(T.Anon((local, T.Var(proof))))),
                             T.Lam((T.Binder(proof, app("Not", cond)),), out))
            out = found if begin == ZERO else ite(app("LE.le", begin, index), found, out)
        return out

    def _get_fin(self, seq: Sequence, index: T.Term, where: str) -> T.Term:
        """``seq.get i`` / ``seq[i]`` with ``i : Fin seq.length`` (always in range)."""
        if len(seq.segments) == 1 and seq.segments[0].mask is None:
            return seq.segments[0].entry(index)
        junk = ZERO if seq.elem is None else T.Typed(ZERO, seq.elem)
        value = T.Typed(index, NAT) if not isinstance(index, T.Anon) else index.args[0]
        return self._get(seq, value, junk, where)

    def _index(self, term: T.App) -> T.Term:
        """``l[i]`` (the scanner reads it as ``l`` applied to the list ``[i]``)."""
        seq = self.collection(term.fn)
        arg = self.collection(term.args[0]) if len(term.args) == 1 else None
        if not (isinstance(seq, Sequence) and seq.kind == "List" and isinstance(arg, Sequence)
                and len(arg.segments) == 1 and arg.segments[0].single):
            raise Untranslatable(f"{show(term)}", "a collection applied like a function")
        return self._get_fin(seq, arg.segments[0].entry(ZERO), "List indexing")

    def _option_op(self, opt: Optional, op: str, args: tuple, term: T.Term) -> T.Term:
        args = tuple(self.term(a) for a in args)
        if op == "getD" and len(args) == 1:
            return ite(opt.present, opt.value, args[0])
        if op == "get!" and not args:
            return ite(opt.present, opt.value, ZERO)
        if op == "isSome" and not args:
            return opt.present
        if op == "isNone" and not args:
            return neg(opt.present)
        raise Untranslatable(f"Option.{op}" if op.isidentifier() else show(term),
                             "not among the Option operations desugared (getD, get!, isSome, "
                             "isNone, map, = none, = some a)")

    def _subset_op(self, subset: Subset, op: str, args: tuple, term: T.Term) -> T.Term:
        args = tuple(self.term(a) for a in args)
        if op == "card" and not args:
            return self._subset_fold(subset, lambda _x: T.Typed(ONE, NAT), "Finset.sum",
                                     T.Typed(ZERO, NAT))
        if op in ("sum", "prod") and len(args) == 1:
            name, neutral = ("Finset.sum", ZERO) if op == "sum" else ("Finset.prod", ONE)
            return self._subset_fold(subset, lambda x: beta(args[0], x), name, neutral)
        if op == "Nonempty" and not args:
            return self._exists_in(subset, lambda _x: TRUE)
        raise Untranslatable(f"Finset.{op}" if op.isidentifier() else show(term),
                             "not among the Finset operations desugared (card, sum, prod, "
                             "filter, ∈, ⊆, ∪, ∩, Nonempty)")

    def _subset_fold(self, subset: Subset, body, name: str, neutral: T.Term) -> T.Term:
        x = self.fresh("x")
        value = ite(subset.mask(T.Var(x)), body(T.Var(x)), neutral)
        domain = T.Const("Finset.univ") if subset.fin else app("Finset.range", subset.size)
        return app(name, domain, T.Lam((T.Binder(x, subset.elem),), value))

    # ---- propositions ----------------------------------------------------------------------

    def _member(self, container: T.Term, element: T.Term) -> T.Term:
        """``element ∈ container``, desugared when the container is a collection."""
        found = self._membership(container, element)
        if found is None:
            return app("Membership.mem", self.term(container), self.term(element))
        return found

    def _membership(self, container: T.Term, element: T.Term) -> T.Term | None:
        if is_call(container, "setOf") and len(container.args) == 1:
            return self.term(beta(container.args[0], element))
        if is_call(container, *INTERVALS):
            lower, upper = INTERVALS[container.fn.name]
            bounds = [self.term(a) for a in container.args]
            x = self.term(element)
            parts = []
            if lower is not None:
                parts.append(app(lower, bounds.pop(0), x))
            if upper is not None:
                parts.append(app(upper, x, bounds.pop(0)))
            return conj(*parts)
        if container == T.Const("Set.univ"):
            return TRUE
        rep = self.collection(container)
        if rep is None:
            return None
        x = self.term(element)
        elem = rep.elem if isinstance(rep, (Sequence, Subset)) else None
        if isinstance(x, T.Var) and elem is not None:
            self.members[x.name] = elem
        if isinstance(rep, Subset):
            return rep.member(x)
        if isinstance(rep, Optional):
            return conj(rep.present, app("Eq", rep.value, x))
        return self._sequence_any(rep, lambda e: app("Eq", e, x))

    def _sequence_any(self, seq: Sequence, pred: Callable[[T.Term], T.Term]) -> T.Term:
        parts = []
        for seg in seq.segments:
            if seg.single:
                parts.append(pred(seg.entry(ZERO)))
                continue
            index = self.fresh("i")
            i = T.Var(index)
            body = conj(seg.mask(i) if seg.mask else TRUE, pred(seg.entry(i)))
            parts.append(app("Exists", T.Lam((T.Binder(index, app("Fin", seg.length)),),
                                              body)))
        return disj(*parts)

    def _sequence_forall(self, quant: T.Pi) -> T.Term | None:
        """``∀ x ∈ l, p``: ``p`` at every entry of every segment of ``l``."""
        binders = quant.binders
        for k in range(len(binders) - 1):
            seq = self._member_of(binders[k + 1].type, binders[k].name)
            if binders[k].name == "_" or not isinstance(seq, Sequence):
                continue
            if k > 0:
                return self.term(T.Pi(binders[:k], T.Pi(binders[k:], quant.body)))
            name = binders[0].name
            rest = pi(list(binders[2:]), quant.body)
            body = T.Lam((T.Binder(name, None),), self._shadowed((name,), lambda: self.term(rest)))
            parts = []
            for seg in seq.segments:
                if seg.single:
                    parts.append(beta(body, seg.entry(ZERO)))
                    continue
                index = self.fresh("i")
                i = T.Var(index)
                inner = [T.Binder(index, app("Fin", seg.length))]
                if seg.mask is not None:
                    inner.append(T.Binder("_", premise(seg.mask(i))))
                parts.append(T.Pi(tuple(inner), beta(body, seg.entry(i))))
            return conj(*parts)
        return None

    def _forall(self, rep: Rep, pred: Callable[[T.Term], T.Term]) -> T.Term:
        if isinstance(rep, Subset):
            x = self.fresh("x")
            binders = [T.Binder(x, rep.elem)]
            if not rep.fin:
                binders.append(T.Binder("_", rep.bound(T.Var(x))))
            binders.append(T.Binder("_", premise(rep.mask(T.Var(x)))))
            return T.Pi(tuple(binders), pred(T.Var(x)))
        raise Untranslatable("⊆ between lists or options")

    def _exists_in(self, subset: Subset, pred: Callable[[T.Term], T.Term]) -> T.Term:
        x = self.fresh("x")
        v = T.Var(x)
        body = conj(subset.bound(v), conj(subset.mask(v), pred(v)))
        return app("Exists", T.Lam((T.Binder(x, subset.elem),), body))

    def _exists(self, lam: T.Term) -> T.Term | None:
        """``∃ x ∈ c, p`` (``∃ x, x ∈ c ∧ p``) over a drawn collection."""
        if not (isinstance(lam, T.Lam) and len(lam.binders) == 1
                and is_call(lam.body, "And") and len(lam.body.args) == 2):
            return None
        name = lam.binders[0].name
        rep = self._member_of(lam.body.args[0], name)
        if rep is None or isinstance(rep, Optional):
            return None
        rest = lam.body.args[1]
        if isinstance(rep, Subset):
            x = T.Var(name)
            inner = self._shadowed((name,), lambda: self.term(rest))
            return app("Exists", T.Lam((T.Binder(name, rep.elem),),
                                        conj(rep.bound(x), conj(rep.mask(x), inner))))
        rewritten = T.Lam((T.Binder(name, None),),
                          self._shadowed((name,), lambda: self.term(rest)))
        return self._sequence_any(rep, lambda e: beta(rewritten, e))

    def _equation(self, left: T.Term, right: T.Term) -> T.Term | None:
        """``a = b`` between options, or a list against ``[]``."""
        a, b = self.collection(left), self.collection(right)
        if isinstance(a, Optional) and isinstance(b, Optional):
            both = conj(a.present, b.present, app("Eq", a.value, b.value))
            return disj(both, conj(neg(a.present), neg(b.present)))
        for seq, other in ((a, b), (b, a)):
            if isinstance(seq, Sequence) and isinstance(other, Sequence) and not other.segments:
                return app("Eq", self._count(seq), T.Typed(ZERO, NAT))
        if a is not None or b is not None:
            raise Untranslatable(f"an equation between collections {show(left)} = "
                                 f"{show(right)}")
        for side, other in ((left, right), (right, left)):
            call = operation(side)
            if call and call[0] in ("isSome", "isNone") and other in (
                    T.Const("true"), T.Const("Bool.true"), T.Const("false"),
                    T.Const("Bool.false")):
                value = self.term(side)
                return value if other.name.endswith("true") else neg(value)
        return None


def _require_scalar(elem: T.Term, where: str) -> None:
    head, args = type_head(elem)
    if head in KINDS:
        raise Untranslatable(f"{where} of {head}s", "nested collections are not drawn")


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
    binders = list(decl.binders)
    body = decl.type
    while isinstance(body, T.Pi):
        binders.extend(body.binders)
        body = body.body
    if not _needed(binders, body):
        return decl
    taken = {b.name for b in binders} | binder_names(body)
    for term in [b.type for b in binders if b.type is not None] + [body]:
        taken |= T.free_vars(term)
    rewriter = Desugarer(taken)
    new_binders, new_body = rewriter.statement(infer_types(binders, body), body)
    return dataclasses.replace(decl, binders=tuple(new_binders), type=new_body)


__all__ = ["Desugarer", "Optional", "Sequence", "Subset", "desugar"]
