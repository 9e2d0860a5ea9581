"""Finite sets as a translated term sees them: ``[lo, hi)`` and a membership condition.

``Finset.range n``, the intervals ``Ico``/``Icc``/… , ``Finset.univ`` of a finite type and
``Finset.filter p s`` are ``(lo, hi, cond)``: the elements of ``[lo, hi)`` satisfying ``cond``
(``None`` for all of them). The big operators, ``∈`` and bounded quantifiers
(``∀ x ∈ s, p``, ``∃ x < n, p``) read them from here.
"""

from __future__ import annotations

import sympy as sp

from bridge import term as T
from mirror.translate import vocabulary as V
from mirror.translate.types import NAT, PROP, Ty
from mirror.translate.values import NAT_DOMAIN, Elab, Env, Known, Untranslatable, is_logical


def finset(tr: Elab, s_t: T.Term, env: Env, elem_ty: Ty | None):
    """A finset as ``(lo, hi, cond)``: the elements of ``[lo, hi)`` satisfying ``cond``."""
    if isinstance(s_t, T.Const) and s_t.name == "Finset.univ":
        if elem_ty is None:
            raise Untranslatable("Finset.univ of an unknown type")
        if elem_ty.kind != "Fin":
            raise Untranslatable(f"Finset.univ of {elem_ty}", "it is not a finite type here")
        lo, hi = tr.type_range(elem_ty)
        return lo, hi, None
    s_t = _filter_form(s_t)
    if isinstance(s_t, T.App) and isinstance(s_t.fn, T.Const):
        name, a = s_t.fn.name, s_t.args
        nat = lambda t: tr.scalar(t, env, elem_ty if elem_ty is not None else NAT)  # noqa
        if name == "Finset.range" and len(a) == 1:
            return sp.Integer(0), nat(a[0]), None
        if name == "Finset.Ico" and len(a) == 2:
            return nat(a[0]), nat(a[1]), None
        if name == "Finset.Icc" and len(a) == 2:
            return nat(a[0]), nat(a[1]) + 1, None
        if name == "Finset.Ioc" and len(a) == 2:
            return nat(a[0]) + 1, nat(a[1]) + 1, None
        if name == "Finset.Ioo" and len(a) == 2:
            return nat(a[0]) + 1, nat(a[1]), None
        if name == "Finset.Iio" and len(a) == 1:
            return sp.Integer(0), nat(a[0]), None
        if name == "Finset.Iic" and len(a) == 1:
            return sp.Integer(0), nat(a[0]) + 1, None
        if name == "Finset.filter" and len(a) == 2:
            pred_t, inner = a
            lo, hi, cond = finset(tr, inner, env, elem_ty)
            pred = tr.elab(pred_t, env, None)

            def both(x, pred=pred, cond=cond):
                applied = tr.apply(pred, [(Known(x), Env())], PROP)
                c = applied.expr
                if not is_logical(c):
                    c = V.Holds(c)
                if NAT_DOMAIN in c.free_symbols:
                    # the elements a card or a sum counts would rest on a quantifier decided on
                    # the sampled prefix of ℕ only (a number carries no `known` flag)
                    raise Untranslatable("a filter whose condition quantifies over the sampled "
                                         "prefix of ℕ only", "the elements it keeps are not known")
                return c if cond is None else sp.And(cond(x), c)

            return lo, hi, both
    raise Untranslatable("finset", f"{s_t} (supported: range, Ico, Icc, Ioc, Ioo, Iio, Iic, "
                                   "univ, filter)")


def _filter_form(s_t: T.Term) -> T.Term:
    """``s.filter p`` and ``Finset.univ.filter p`` as ``Finset.filter p s``."""
    if isinstance(s_t, T.App) and isinstance(s_t.fn, T.Proj) and s_t.fn.field == "filter":
        return T.App(T.Const("Finset.filter"), (s_t.args[0], s_t.fn.expr))
    if (isinstance(s_t, T.App) and isinstance(s_t.fn, T.Const)
            and s_t.fn.name.endswith(".filter") and s_t.fn.name != "Finset.filter"):
        inner = T.Const(s_t.fn.name[: -len(".filter")])
        return T.App(T.Const("Finset.filter"), (s_t.args[0], inner))
    return s_t


#: Intervals of an ordered type: their elements have their bounds' type.
INTERVALS = frozenset({"Finset.Ico", "Finset.Icc", "Finset.Ioc", "Finset.Ioo", "Finset.Iio",
                       "Finset.Iic"})


def element_type(tr: Elab, s_t: T.Term, env: Env) -> Ty | None:
    """The element type a finset term fixes by itself: ℕ for ``range n``, the bounds' type
    for an interval (numerals alone: ℕ, Lean's default); ``None`` for ``univ``, whose type
    its use must give."""
    s_t = _filter_form(s_t)
    if not (isinstance(s_t, T.App) and isinstance(s_t.fn, T.Const)):
        return None
    name, args = s_t.fn.name, s_t.args
    if name == "Finset.range":
        return NAT
    if name in INTERVALS and args:
        return tr.tree_type(list(args), env, None)
    if name == "Finset.filter" and len(args) == 2:
        return element_type(tr, args[1], env)
    return None


def bound_of(tr: Elab, name: str, premise: T.Term | None, env: Env, ty: Ty):
    """``x ∈ s`` / ``x < n`` / ``x ≤ n`` as ``(lo, hi, cond)`` for a quantified ``x``."""
    if not (isinstance(premise, T.App) and isinstance(premise.fn, T.Const)):
        return None
    pname = premise.fn.name
    if pname == "Membership.mem" and len(premise.args) == 2 and premise.args[1] == T.Var(name):
        return finset(tr, premise.args[0], env, ty)
    if pname in ("LT.lt", "LE.le") and premise.args[0] == T.Var(name):
        hi = tr.scalar(premise.args[1], env, NAT)
        return sp.Integer(0), (hi if pname == "LT.lt" else hi + 1), None
    return None
