"""Greatest and least values of a function on a finite set, by Mathlib's definitions.

===============================  ====================================================  =====================
Lean                             value                                                 empty set
===============================  ====================================================  =====================
``s.sup' H f`` / ``s.inf' H f``  ``max`` / ``min`` of ``f`` on ``s``                    unreachable (``H``)
``s.max' H`` / ``s.min' H``      ``s.sup' H id`` / ``s.inf' H id``                     unreachable (``H``)
``s.sup f`` (ℕ, ℝ≥0)             ``max`` of ``f`` on ``s``                              ``⊥ = 0``
                                 (``Finset.sup_empty``)
``⨆ i : Fin n, f i`` (ℝ, ℕ)      ``max`` of ``f`` (``ciSup`` of a finite range)          ``0``
                                 (``Real.iSup_of_isEmpty``; ``sSup ∅ = 0`` on ℕ)
``⨅ i : Fin n, f i`` (ℝ, ℕ)      ``min`` of ``f``                                       ``0``
                                 (``Real.iInf_of_isEmpty``, ``Nat.sInf_empty``)
===============================  ====================================================  =====================

``s`` is a finset the translator reads as a range (``univ`` of ``Fin n``, ``range``,
intervals); the proof ``H`` of ``s.Nonempty`` is not read. Where Lean's statement cannot
reach the empty set (``sup'``), an empty range is marked ``nan``: no verdict rests on such a
draw (a dropped instance such as ``[NeZero n]`` cannot let a junk value decide).
``Finset.inf`` needs an ``OrderTop`` (ℕ and ℝ have none) and is left untranslatable, as are
filtered finsets and index types other than ``Fin n``.
"""

from __future__ import annotations

from typing import Callable

import sympy as sp

from bridge import term as T
from mirror.translate import vocabulary as V
from mirror.translate.finsets import element_type, finset
from mirror.translate.types import Ty, numeric_max
from mirror.translate.values import Elab, Env, Known, KnownType, Untranslatable, Value, fresh

Args = tuple[T.Term, ...]
_BOTTOM = {"Nat": sp.Integer(0), "NNReal": sp.Integer(0)}
_EMPTY_SUP = {"Real": sp.Integer(0), "Nat": sp.Integer(0)}


def _extremum(tr: Elab, s_t: T.Term, f_t: T.Term | None, env: Env, expected: Ty | None,
              cls, empty: Callable[[Ty], sp.Basic], what: str,
              elem_ty: Ty | None = None) -> Value:
    fval = tr.elab(f_t, env, None) if f_t is not None else None
    elem_ty = elem_ty or element_type(tr, s_t, env)
    if elem_ty is None and fval is not None and fval.ty is not None and fval.ty.is_array:
        elem_ty = fval.ty.domains()[0]
    if elem_ty is None:
        raise Untranslatable(what, "neither the finset nor the function fixes the index type")
    lo, hi, cond = finset(tr, s_t, env, elem_ty)
    if cond is not None:
        raise Untranslatable(what, "of a filtered finset")
    var = fresh("j", elem_ty)
    if fval is None:
        term = Value(var, elem_ty)
    else:
        term = tr.apply(fval, [(Known(var, elem_ty), Env())], None)
    if term.is_fn or term.ty is None or not term.ty.is_numeric:
        raise Untranslatable(what, f"of values of type {term.ty}")
    ty = term.ty
    if expected is not None and expected.is_numeric:
        ty = numeric_max(ty, expected)
        term = tr.coerce(term, ty)
    return Value(cls(sp.Lambda(var, term.expr), lo, hi, empty(ty)), ty)


def _unreachable(ty: Ty) -> sp.Basic:
    return sp.nan


def _junk(table: dict[str, sp.Basic], what: str) -> Callable[[Ty], sp.Basic]:
    def empty(ty: Ty) -> sp.Basic:
        if ty.kind not in table:
            raise Untranslatable(what, f"on {ty}: its empty-set value is not known here")
        return table[ty.kind]
    return empty


def sup_prime(tr: Elab, args: Args, env: Env, expected: Ty | None, cls=V.FinMax,
              what: str = "Finset.sup'") -> Value:
    """``Finset.sup' s H f``."""
    if len(args) != 3:
        raise Untranslatable(f"{what} with {len(args)} arguments")
    return _extremum(tr, args[0], args[2], env, expected, cls, _unreachable, what)


def inf_prime(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    return sup_prime(tr, args, env, expected, V.FinMin, "Finset.inf'")


def max_prime(tr: Elab, args: Args, env: Env, expected: Ty | None, cls=V.FinMax,
              what: str = "Finset.max'") -> Value:
    """``Finset.max' s H = s.sup' H id``."""
    if len(args) != 2:
        raise Untranslatable(f"{what} with {len(args)} arguments")
    return _extremum(tr, args[0], None, env, expected, cls, _unreachable, what)


def min_prime(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    return max_prime(tr, args, env, expected, V.FinMin, "Finset.min'")


def finset_sup(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    """``Finset.sup s f``: ``⊥`` on the empty set (``Finset.sup_empty``)."""
    if len(args) != 2:
        raise Untranslatable(f"Finset.sup with {len(args)} arguments")
    return _extremum(tr, args[0], args[1], env, expected, V.FinMax,
                     _junk(_BOTTOM, "Finset.sup"), "Finset.sup")


def finset_inf(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    raise Untranslatable("Finset.inf", "it needs an OrderTop, which ℕ and ℝ do not have")


def _indexed(tr: Elab, args: Args, env: Env, expected: Ty | None, cls, what: str) -> Value:
    """``⨆ i, f i`` / ``⨅ i, f i`` over ``Fin n``."""
    if len(args) != 1:
        raise Untranslatable(f"{what} with {len(args)} arguments")
    (f_t,) = args
    if isinstance(f_t, T.Lam) and len(f_t.binders) == 1:
        binder = f_t.binders[0]
        index = (tr.infer_binder_type(binder.name, f_t.body, env) if binder.type is None
                 else tr.type_of(binder.type, env))
        f_t = T.Lam((T.Binder(binder.name, KnownType(index), binder.info),), f_t.body)
    else:
        fval = tr.elab(f_t, env, None)
        index = fval.ty.domains()[0] if fval.ty is not None and fval.ty.is_array else None
    if index is None or index.kind != "Fin":
        raise Untranslatable(what, f"over the index type {index}: only Fin n is finite here")
    return _extremum(tr, T.Const("Finset.univ"), f_t, env, expected, cls,
                     _junk(_EMPTY_SUP, what), what, index)


def indexed_sup(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    return _indexed(tr, args, env, expected, V.FinMax, "iSup")


def indexed_inf(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    return _indexed(tr, args, env, expected, V.FinMin, "iInf")


def _on_univ(form):
    return lambda tr, args, env, expected: form(tr, (T.Const("Finset.univ"), *args), env,
                                                expected)


#: Lean constant → special form (registered by :mod:`mirror.translate.forms`).
LATTICE_FORMS = {
    "Finset.sup'": sup_prime, "Finset.inf'": inf_prime,
    "Finset.max'": max_prime, "Finset.min'": min_prime,
    "Finset.sup": finset_sup, "Finset.inf": finset_inf,
    "iSup": indexed_sup, "iInf": indexed_inf,
    # `Finset.univ.sup' h f`, read by the front end as one name
    **{f"Finset.univ.{name}": _on_univ(fn) for name, fn in (
        ("sup'", sup_prime), ("inf'", inf_prime), ("max'", max_prime), ("min'", min_prime),
        ("sup", finset_sup))},
}

__all__ = ["LATTICE_FORMS"]
