"""Operations on desugared collections and propositions about them (a mixin of
:class:`mirror.translate.collections.Desugarer`).

Given the representation of a collection (:mod:`mirror.translate.collection_values`: a
:class:`Sequence` of segments, an :class:`Optional`, a :class:`Subset`), the operations
(``length``/``card``, ``sum``, ``prod``, ``count``, ``countP``, ``getD``, ``l[i]``, the option
and finset operations) become folds over ``Fin``, ``if``s and masks; membership, ``∀ x ∈ l``,
``∃ x ∈ l``, intervals and equations of options become propositions over numbers. Anything
else raises :class:`~mirror.translate.translation.Untranslatable` naming the construct.
"""

from __future__ import annotations

from typing import Callable

from bridge import term as T
from mirror.translate.collection_values import KINDS, Optional, Rep, Segment, Sequence, Subset, operation
from mirror.translate.lean_terms import (NAT, ONE, TRUE, ZERO, app, beta, conj, disj, fold, is_call,
                                         ite, neg, pi, premise, show, type_head)
from mirror.translate.translation import Untranslatable

#: ``x ∈ Set.I?? a b`` as (lower relation, upper relation); ``None`` for an open end.
INTERVALS = {
    "Set.Icc": ("LE.le", "LE.le"), "Set.Ico": ("LE.le", "LT.lt"),
    "Set.Ioc": ("LT.lt", "LE.le"), "Set.Ioo": ("LT.lt", "LT.lt"),
    "Set.Ici": ("LE.le", None), "Set.Ioi": ("LT.lt", None),
    "Set.Iic": (None, "LE.le"), "Set.Iio": (None, "LT.lt"),
}


class CollectionOperations:
    """Operations and propositions; relies on ``fresh``, ``term`` and ``collection`` of the
    desugarer."""

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
