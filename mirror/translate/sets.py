"""Sets given by a condition, as values: equalities of sets and the number of elements of a
bounded set, by Mathlib's definitions (Lean-term rewrites, before the collections are
desugared).

=======================================  ===================================================  ==============================
Lean                                     rewritten to                                         Mathlib
=======================================  ===================================================  ==============================
``A = B``, a side ``{x : α | p x}`` or   ``∀ x : α, x ∈ A ↔ x ∈ B``, each membership          ``Set.ext_iff``,
``Set.Icc a b`` (any interval)           unfolded: ``p x``; ``a ≤ x ∧ x ≤ b``;                ``Set.mem_setOf_eq``,
                                         ``x = a ∨ x ∈ s`` for ``insert a s`` / ``{a, …}``;    ``Set.mem_insert_iff``,
                                         ``∨``/``∧``/``∧ ¬`` for ``∪``/``∩``/``\\``;            ``Set.mem_union`` …
                                         ``True`` for ``Set.univ``
``Set.ncard {k : ℕ | … ∧ k < N ∧ …}``    ``∑ k ∈ Finset.Ico lo hi, if … ∧ k < N ∧ … then 1     ``Set.ncard_coe_finset``,
(also ``≤``, ``>``, ``≥``, ``∈ Icc``;    else 0`` (``lo`` = 0 on ℕ when no lower bound is       ``Finset.card_filter``
on ℤ both ends needed)                   written): the condition itself bounds ``k``, so
                                         the count is complete, never a truncated range
=======================================  ===================================================  ==============================

Only equalities whose two sides unfold completely are rewritten (a side that is a variable
``s : Set ℝ`` or a set of another shape leaves the equality as it is). The element type is the
one a set-builder's binder names; when no side names it the quantifier's binder is left
untyped and typed from its uses (or the row says "cannot infer the type"), never at a default.

``Set.ncard`` of any other set is untranslatable with the reason: a set of reals (its count
is the number of solutions of an equation, which needs a proof, not an enumeration), or a
condition that does not bound the element from both sides (any count taken over a range would
be a truncated one), or a condition with a quantifier of its own (``∃ n, …``: decided on
sampled ``n`` only, the count could be wrong). ``Set.encard`` likewise.

``(s.filter p).card`` in dot notation, ``s`` an interval or ``range`` (surely a finset), is
``Finset.card (Finset.filter p s)``, the form the translator counts.
"""

from __future__ import annotations

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.collection_ops import INTERVALS
from mirror.translate.extrema import BOUNDS, EXTREMA
from mirror.translate.lean_terms import NAT, app, beta, conj, conjuncts, disj, is_call, neg, show
from mirror.translate.orders import ORDERS
from mirror.translate.term_rewriter import TermRewriter, rewrite_declaration
from mirror.translate.translation import Untranslatable

#: Constants whose presence makes a statement worth rewriting here.
TRIGGERS = frozenset({"setOf", "Set.ncard", "Set.encard", *INTERVALS})
#: Element types whose bounded sets are counted by a sum over an integer range.
COUNTED = {"Nat": NAT, "Int": T.Const("Int")}
_ONE_NAT, _ZERO_NAT = T.Typed(T.Lit(1), NAT), T.Typed(T.Lit(0), NAT)
#: Constants that are, or later rewrite to, quantifiers over an unbounded domain.
_QUANTIFIERS = frozenset({"Exists", "ExistsUnique", *EXTREMA, *BOUNDS, *ORDERS})


def _quantifies(body: T.Term) -> bool:
    """Whether ``body`` has a ``∀``/``∃`` of its own: inside the condition of a count, a
    quantifier decided on sampled values only would make the count wrong (``{m | m ≤ 30 ∧ ∀ n,
    n ≠ m + 1000}`` is empty, but no sampled ``n`` reaches ``m + 1000``)."""
    for node in T.walk(body):
        if isinstance(node, T.Pi) and any(b.name != "_" for b in node.binders):
            return True
        if T.constants(node) & _QUANTIFIERS:
            return True
    return False


def _set_builder(s: T.Term) -> T.Lam | None:
    """The predicate of ``{x : α | p x}`` (one binder), or ``None``."""
    if is_call(s, "setOf") and len(s.args) == 1 and isinstance(s.args[0], T.Lam) \
            and len(s.args[0].binders) == 1:
        return s.args[0]
    return None


def _element_type(s: T.Term) -> T.Term | None:
    lam = _set_builder(s)
    if lam is not None:
        return lam.binders[0].type
    if is_call(s, "Union.union", "Inter.inter", "SDiff.sdiff") and len(s.args) == 2:
        return _element_type(s.args[0]) or _element_type(s.args[1])
    return None


def _member(s: T.Term, x: T.Term) -> T.Term | None:
    """``x ∈ s`` unfolded completely, or ``None`` when ``s`` has a part of another shape."""
    lam = _set_builder(s)
    if lam is not None:
        out = beta(lam, x)
        return None if isinstance(out, T.App) and out.fn is lam else out
    if is_call(s, *INTERVALS) and len(s.args) == sum(
            end is not None for end in INTERVALS[s.fn.name]):
        return app("Membership.mem", s, x)
    if s == T.Const("Set.univ"):
        return T.Const("True")
    if is_call(s, "Singleton.singleton") and len(s.args) == 1:
        return app("Eq", x, s.args[0])
    parts = {"Insert.insert": None, "Union.union": disj, "Inter.inter": conj,
             "SDiff.sdiff": lambda a, b: conj(a, neg(b))}
    if isinstance(s, T.App) and isinstance(s.fn, T.Const) and s.fn.name in parts \
            and len(s.args) == 2:
        if s.fn.name == "Insert.insert":
            rest = _member(s.args[1], x)
            return None if rest is None else disj(app("Eq", x, s.args[0]), rest)
        left, right = _member(s.args[0], x), _member(s.args[1], x)
        if left is None or right is None:
            return None
        return parts[s.fn.name](left, right)
    return None


def _is_set_value(s: T.Term) -> bool:
    """A side that makes ``=`` an equality of sets: a set-builder or an interval, possibly
    combined by ``∪``/``∩``/``\\``."""
    if _set_builder(s) is not None or is_call(s, *INTERVALS):
        return True
    return is_call(s, "Union.union", "Inter.inter", "SDiff.sdiff") and len(s.args) == 2 \
        and (_is_set_value(s.args[0]) or _is_set_value(s.args[1]))


def _bounds(k: str, kind: str, body: T.Term) -> tuple[T.Term | None, T.Term | None]:
    """The first lower bound (inclusive) and upper bound (exclusive) on ``k`` among the
    conjuncts of ``body``, each a term free of ``k``."""
    lo = hi = None
    var = T.Var(k)

    def free(t: T.Term) -> bool:
        return k not in T.free_vars(t)

    def succ(t: T.Term) -> T.Term:
        return app("HAdd.hAdd", t, T.Lit(1))

    for c in conjuncts(body):
        if not (isinstance(c, T.App) and isinstance(c.fn, T.Const) and len(c.args) == 2):
            continue
        name, (a, b) = c.fn.name, c.args
        if name in ("GT.gt", "GE.ge"):
            name, a, b = ("LT.lt" if name == "GT.gt" else "LE.le"), b, a
        found_lo = found_hi = None
        if name in ("LT.lt", "LE.le") and a == var and free(b):
            found_hi = b if name == "LT.lt" else succ(b)
        elif name in ("LT.lt", "LE.le") and b == var and free(a):
            found_lo = a if name == "LE.le" else succ(a)
        elif name == "Membership.mem" and b == var and is_call(a, "Finset.range") \
                and len(a.args) == 1 and free(a.args[0]) and kind == "Nat":
            found_hi = a.args[0]
        elif name == "Membership.mem" and b == var and is_call(
                a, "Set.Icc", "Finset.Icc", "Set.Ico", "Finset.Ico") and len(a.args) == 2 \
                and free(a.args[0]) and free(a.args[1]):
            found_lo = a.args[0]
            found_hi = succ(a.args[1]) if a.fn.name.endswith("Icc") else a.args[1]
        lo = lo if lo is not None else found_lo
        hi = hi if hi is not None else found_hi
    if lo is None and kind == "Nat":
        lo = T.Lit(0)
    return lo, hi


class _Sets(TermRewriter):
    def term(self, t: T.Term) -> T.Term:
        if isinstance(t, T.App) and t.fn == T.Const("Eq") and len(t.args) == 2 \
                and any(_is_set_value(side) for side in t.args):
            found = self._extensional(*t.args)
            if found is not None:
                return self.term(found)
        if isinstance(t, T.App) and t.fn in (T.Const("Set.ncard"), T.Const("Set.encard")) \
                and len(t.args) == 1:
            return self._count(t.args[0], t.fn.name)
        if isinstance(t, T.Proj) and t.field in ("ncard", "encard") \
                and _set_builder(t.expr) is not None:
            return self._count(t.expr, "Set." + t.field)
        if isinstance(t, T.Proj) and t.field == "card" and _finset_filter(t.expr) is not None:
            return app("Finset.card", self.term(_finset_filter(t.expr)))
        return self.structural(t)

    def _extensional(self, a: T.Term, b: T.Term) -> T.Term | None:
        types = [ty for ty in (_element_type(a), _element_type(b)) if ty is not None]
        x = T.Var(self.fresh("x_set"))
        left, right = _member(a, x), _member(b, x)
        if left is None or right is None or any(ty != types[0] for ty in types):
            return None
        # no set-builder names the element type: the binder is typed from its uses (or the row
        # says "cannot infer the type"), never at a default
        return T.Pi((T.Binder(x.name, types[0] if types else None),), app("Iff", left, right))

    def _count(self, s: T.Term, name: str) -> T.Term:
        lam = _set_builder(s)
        if lam is None:
            raise Untranslatable(f"{name} of {show(s)}",
                                 "only a set-builder {k : ℕ | …} whose condition bounds k is counted")
        binder = lam.binders[0]
        kind = binder.type.name if isinstance(binder.type, T.Const) else None
        shown = f"{name} {{{binder.name} : " \
            f"{show(binder.type) if binder.type is not None else '?'} | …}}"
        if kind not in COUNTED:
            raise Untranslatable(shown, "a set of reals: its count is a number of solutions, "
                                 "which needs a proof, not an enumeration" if kind == "Real"
                                 else "only sets of ℕ or ℤ bounded by their condition are counted")
        if name != "Set.ncard":
            raise Untranslatable(shown, "ℕ∞-valued counts are not read (Set.ncard is)")
        if _quantifies(lam.body):
            raise Untranslatable(shown, "its condition quantifies (∀/∃): the count would rest "
                                 "on the quantifier's sampled values only")
        body = self.term(lam.body)
        lo, hi = _bounds(binder.name, kind, body)
        if lo is None or hi is None:
            raise Untranslatable(
                shown, f"its condition does not bound {binder.name} "
                f"{'from above' if lo is not None else 'from both sides'} by a conjunct "
                "(a count over a chosen range would be truncated)")
        counted = T.Lam((T.Binder(binder.name, COUNTED[kind]),),
                        app("ite", body, _ONE_NAT, _ZERO_NAT))
        return app("Finset.sum", app("Finset.Ico", lo, hi), counted)


#: Finsets whose dot notation ``s.filter p`` is surely ``Finset.filter`` (not a multiset's).
FINSETS = frozenset({"Finset.range", "Finset.Icc", "Finset.Ico", "Finset.Ioc", "Finset.Ioo",
                     "Finset.Iic", "Finset.Iio"})


def _finset_filter(t: T.Term) -> T.Term | None:
    """``s.filter p`` of an interval or range ``s`` as ``Finset.filter p s``, else ``None``."""
    if isinstance(t, T.App) and isinstance(t.fn, T.Proj) and t.fn.field == "filter" \
            and len(t.args) == 1 and is_call(t.fn.expr, *FINSETS):
        return app("Finset.filter", t.args[0], t.fn.expr)
    return None


def _mentions(t: T.Term) -> bool:
    if T.constants(t) & TRIGGERS:
        return True
    return any(isinstance(node, T.Proj) and node.field == "card"
               and _finset_filter(node.expr) is not None for node in T.walk(t))


def rewrite_sets(decl: Declaration) -> Declaration:
    """``decl`` with set equalities read extensionally and bounded ``Set.ncard`` counted
    (unchanged when it has neither)."""
    return rewrite_declaration(decl, _mentions, _Sets)


__all__ = ["COUNTED", "TRIGGERS", "rewrite_sets"]
