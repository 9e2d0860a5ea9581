"""Derivatives of explicit smooth real functions at a point, by Mathlib's ``deriv``.

=================================  =============================================================
Lean                               value
=================================  =============================================================
``deriv (fun x : ℝ => e) a``       ``e'(a)``, sympy's derivative of ``e`` at ``a``
``iteratedDeriv k (fun x => e) a`` ``e⁽ᵏ⁾(a)`` (``iteratedDeriv_eq_iterate``), ``k`` a numeral
=================================  =============================================================

Lean's ``deriv f a`` is ``0`` where ``f`` is not differentiable (``deriv_zero_of_not_
differentiableAt``), so the classical derivative is its value only where differentiability is
known. It is read only for functions that are differentiable everywhere: every part of the
translated ``e`` that depends on ``x`` is built from ``x``, ``+``, ``*``, powers with a natural
exponent, ``exp``, ``sin`` and ``cos`` (the parts free of ``x`` are constants, whatever they
are). There ``deriv`` is the classical derivative (``deriv_add``, ``deriv_mul``,
``deriv_pow``, ``Real.deriv_exp``, ``Real.deriv_sin``, ``Real.deriv_cos``), and so are all
iterated derivatives. Anything else — a division by an expression in ``x``, ``√``, ``log``,
``|x|``, a real power, a function given only by name — is untranslatable with that reason:
its derivative, or whether it has one, would need a proof at the point. A function given by
a hypothesis ``hf : f = fun x => e`` or ``∀ x, f x = e`` is inlined first
(:mod:`mirror.translate.functional`).

An equality of functions ``deriv f = fun x : ℝ => e`` (or ``iteratedDeriv k f = …``) is read
as ``∀ x : ℝ, deriv f x = e`` (``funext``), a Lean-term rewrite before translation
(:func:`rewrite_derivatives`).
"""

from __future__ import annotations

import sympy as sp

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.term_rewriter import TermRewriter, rewrite_declaration
from mirror.translate.types import REAL, Ty
from mirror.translate.values import Elab, Env, Known, Untranslatable, Value, fresh

Args = tuple[T.Term, ...]
#: The functions differentiable everywhere that the reading accepts, applied to such a part.
SMOOTH = (sp.exp, sp.sin, sp.cos)


def smooth(e: sp.Basic, x: sp.Symbol) -> bool:
    """Whether ``e`` is differentiable in ``x`` everywhere by construction (module doc)."""
    if x not in e.free_symbols:
        return not e.has(sp.zoo, sp.nan, sp.oo, -sp.oo)
    if e == x:
        return True
    if isinstance(e, (sp.Add, sp.Mul)):
        return all(smooth(a, x) for a in e.args)
    if isinstance(e, sp.Pow):
        return bool(e.exp.is_Integer and e.exp >= 0) and smooth(e.base, x)
    if isinstance(e, SMOOTH):
        return smooth(e.args[0], x)
    return False


def _derivative(tr: Elab, what: str, order: int, f_t: T.Term, point_t: T.Term,
                env: Env) -> Value:
    if not (isinstance(f_t, T.Lam) and len(f_t.binders) == 1):
        raise Untranslatable(what, "of a function not given explicitly (write it as fun x => …, "
                                   "or define it by a hypothesis f = fun x => …)")
    binder = f_t.binders[0]
    if binder.type != T.Const("Real"):
        raise Untranslatable(what, "of a function whose domain is not written as ℝ")
    x = fresh("x_deriv", REAL)
    body = tr.apply(tr.elab(T.Lam((T.Binder(binder.name, T.Const("Real")),), f_t.body), env,
                            None), [(Known(x, REAL), Env())], None)
    if body.is_fn or body.ty is None or body.ty.kind != "Real":
        raise Untranslatable(what, f"of a function with values in {body.ty}, not ℝ")
    if not smooth(body.expr, x):
        raise Untranslatable(what, "of a function not built from +, *, natural powers, exp, "
                                   "sin and cos: whether it is differentiable at the point (where "
                                   "Lean's deriv is 0 if not) is not decided")
    derivative = body.expr
    for _ in range(order):
        derivative = sp.diff(derivative, x)
    point = tr.scalar(point_t, env, REAL)
    return Value(derivative.xreplace({x: point}), REAL)


def deriv(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    """``deriv f a``."""
    if len(args) != 2:
        raise Untranslatable("deriv used as a function", "only its value at a point is read")
    return _derivative(tr, "deriv", 1, args[0], args[1], env)


def iterated_deriv(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    """``iteratedDeriv k f a``, ``k`` a numeral."""
    if len(args) != 3:
        raise Untranslatable("iteratedDeriv used as a function",
                             "only its value at a point is read")
    if not (isinstance(args[0], T.Lit) and isinstance(args[0].value, int)):
        raise Untranslatable("iteratedDeriv", "of an order that is not a numeral")
    return _derivative(tr, "iteratedDeriv", args[0].value, args[1], args[2], env)


#: The derivative operators and the number of arguments that make them a function.
_OPERATORS = {"deriv": 1, "iteratedDeriv": 2}


def _operator(t: T.Term) -> bool:
    return isinstance(t, T.App) and isinstance(t.fn, T.Const) \
        and _OPERATORS.get(t.fn.name) == len(t.args)


class _Funext(TermRewriter):
    def term(self, t: T.Term) -> T.Term:
        if isinstance(t, T.App) and t.fn == T.Const("Eq") and len(t.args) == 2:
            for op, lam in (t.args, t.args[::-1]):
                if _operator(op) and isinstance(lam, T.Lam) and len(lam.binders) == 1 \
                        and lam.binders[0].type in (None, T.Const("Real")):
                    x = lam.binders[0].name
                    if x in T.free_vars(op):
                        x = self.fresh("x_deriv")
                        lam = T.Lam((T.Binder(x, None),), T.substitute(
                            lam.body, {lam.binders[0].name: T.Var(x)}))
                    point = T.App(op.fn, op.args + (T.Var(x),))
                    return T.Pi((T.Binder(x, T.Const("Real")),),
                                T.App(T.Const("Eq"), (point, self.term(lam.body))))
        return self.structural(t)


def _mentions(t: T.Term) -> bool:
    return bool(T.constants(t) & set(_OPERATORS))


def rewrite_derivatives(decl: Declaration) -> Declaration:
    """``decl`` with equalities of derivative functions read pointwise (``funext``)."""
    return rewrite_declaration(decl, _mentions, _Funext)


#: Lean constant → its form (registered by :mod:`mirror.translate.forms`).
CALCULUS_FORMS = {"deriv": deriv, "iteratedDeriv": iterated_deriv}

__all__ = ["CALCULUS_FORMS", "SMOOTH", "deriv", "iterated_deriv", "rewrite_derivatives",
           "smooth"]
