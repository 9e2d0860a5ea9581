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


# ---- definite integrals ----------------------------------------------------------------------
#
# Lean's ``∫ x in a..b, f x`` is ``intervalIntegral f a b volume`` (``∫ in Ioc a b`` minus
# ``∫ in Ioc b a``), a Bochner integral: ``0`` when ``f`` is not integrable there
# (``intervalIntegral.integral_undef``). It is the classical (Riemann) integral
# ``∫ₐᵇ f`` — oriented, ``-∫ᵦᵃ f`` when ``b < a`` — whenever ``f`` is continuous on the closed
# interval between the bounds (``ContinuousOn.intervalIntegrable``; the fundamental theorem
# ``intervalIntegral.integral_eq_sub_of_hasDerivAt``). Only then is it read; continuity is
# *decided* (:func:`continuous_on`), else the integral is untranslatable with that reason. Its
# value is then computed by Arb's rigorous integration (``acb.integral``, the ball runtime), so
# an inequality is decided by the enclosure and an equality of transcendental values only when
# the ball excludes the difference from 0 (refuted) — a ball containing 0 decides nothing.

#: Nodes read in an integrand: continuous on ℝ and holomorphic (entire, or meromorphic with
#: poles Arb's balls detect), which Arb's integration needs of the ball runtime's integrand
#: on complex balls — a function with a branch cut (√, log, arctan, rpow) or none at all
#: (|·|, max) would be given finite values where it is not analytic, an unsound error bound.
_CONTINUOUS = (sp.exp, sp.sin, sp.cos, sp.sinh, sp.cosh, sp.Add, sp.Mul)
#: Pieces the closed interval is split into, at most, to decide the junk guards on it.
_MAX_PIECES = 256


def _guards(e: sp.Basic, x: sp.Symbol) -> list[tuple[str, sp.Basic, sp.Basic | None]] | None:
    """The conditions under which ``e`` is continuous in ``x`` at a point, one per node of
    Lean's vocabulary with a junk case: ``("nonzero", d, None)`` (a division's denominator,
    or a negative power's base); ``None`` when ``e`` has a part outside ``_CONTINUOUS``.
    Parts free of ``x`` are constants."""
    from mirror.translate import vocabulary as V
    if x not in e.free_symbols:
        return None if e.has(sp.zoo, sp.nan, sp.oo, -sp.oo) else []
    if e == x:
        return []
    out: list = []
    if isinstance(e, sp.Pow):
        base, exponent = e.args
        if not exponent.is_Integer:
            return None
        if exponent < 0:
            out.append(("nonzero", base, None))
    elif isinstance(e, V.LeanDiv):
        if e.args[1] != 0:
            out.append(("nonzero", e.args[1], None))
    elif not isinstance(e, _CONTINUOUS):
        return None
    for arg in e.args:
        inner = _guards(arg, x)
        if inner is None:
            return None
        out.extend(inner)
    return out


def _holds_on(guard: tuple[str, sp.Basic, sp.Basic | None], x: sp.Symbol, piece) -> bool:
    from mirror.judge.boxes import Undecidable, enclose, interval_ball
    env = {x: interval_ball(*piece)}
    kind, a, b = guard
    try:
        value = enclose(a, env)
        if kind == "nonzero":
            return bool(value > 0 or value < 0)
        return bool(value > 0 or value < 0)
    except Exception as exc:  # noqa: BLE001 - Undecidable, or a junk case straddled
        if isinstance(exc, (Undecidable,)) or type(exc).__name__ == "_Straddles":
            return False
        raise


def _rational_hull(v: sp.Basic):
    """Rationals ``(l, u)`` with ``l ≤ v ≤ u`` (``v`` itself when rational)."""
    from fractions import Fraction

    from mirror.judge.boxes import enclose
    if v.is_Rational:
        return Fraction(v.p, v.q), Fraction(v.p, v.q)
    b = enclose(v, {})
    if not b.is_finite():
        raise ValueError("no finite enclosure")
    margin = Fraction(1, 2 ** 40)
    return Fraction(float(b.lower())) - margin, Fraction(float(b.upper())) + margin


def continuous_on(e: sp.Basic, x: sp.Symbol, lo: sp.Basic, hi: sp.Basic) -> str | None:
    """``None`` when ``e`` is proved continuous in ``x`` on the closed interval between ``lo``
    and ``hi``, else the reason it is not known to be. Every node must be continuous where
    its guard holds (:func:`_guards`); the guards are decided by ball enclosures on pieces of
    the interval (numeral bounds), split in halves up to ``_MAX_PIECES`` pieces — continuity on
    each closed piece of a finite cover is continuity on the union. With symbolic bounds or a
    parameter other than ``x``, only a guard-free ``e`` is accepted."""
    from fractions import Fraction
    guards = _guards(e, x)
    if guards is None:
        return ("its integrand is not built from +, ·, integer powers, division, exp, sin, cos, "
                "sinh and cosh (functions Arb integrates rigorously and whose continuity on the "
                "interval is decided), so whether it is integrable (else Lean's integral is 0) "
                "and its value are not decided")
    if not guards:
        return None
    if (e.free_symbols - {x}) or not (lo.is_Rational and hi.is_Rational):
        if (e.free_symbols - {x}) or not (lo.is_real and hi.is_real and lo.is_number
                                          and hi.is_number):
            return ("its integrand has a division whose junk point (a zero of the denominator) "
                    "may lie on the interval, and the interval or a parameter is not explicit")
    try:  # a rational interval containing the one between the bounds (outward margin)
        ends = [_rational_hull(v) for v in (lo, hi)]
    except Exception:  # noqa: BLE001 - no enclosure of the bounds
        return "the bounds of the interval have no enclosure"
    a, b = min(ends[0][0], ends[1][0]), max(ends[0][1], ends[1][1])
    pending, done = [(a, b)], 0
    while pending:
        piece = pending.pop()
        if all(_holds_on(g, x, piece) for g in guards):
            done += 1
            continue
        if len(pending) + done + 2 > _MAX_PIECES or piece[1] - piece[0] < Fraction(1, 2 ** 30):
            return ("its integrand's junk point (a zero of a denominator) is not excluded from "
                    "the closed interval, so whether it is integrable (else Lean's integral is "
                    "0) is not decided")
        mid = (piece[0] + piece[1]) / 2
        pending += [(piece[0], mid), (mid, piece[1])]
    return None


def interval_integral(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    """``∫ x in a..b, f x`` (``intervalIntegral f a b volume``), ``f`` continuous on the closed
    interval (module section above)."""
    from mirror.translate import vocabulary as V
    if len(args) != 4 or not isinstance(args[0], T.Lam) or len(args[0].binders) != 1:
        raise Untranslatable("an interval integral", "of a function not written as fun x => …")
    if not (isinstance(args[3], T.Const) and args[3].name in (
            "MeasureTheory.MeasureSpace.volume", "MeasureTheory.volume")):
        raise Untranslatable("an interval integral", "against a measure other than volume")
    lo, hi = (tr.scalar(a, env, REAL) for a in args[1:3])
    return Value(V.LeanIntegral(integrand(tr, args[0], env, lo, hi), lo, hi), REAL)


def integrand(tr: Elab, lam: T.Lam, env: Env, lo: sp.Basic, hi: sp.Basic) -> sp.Lambda:
    """The real integrand of ``lam`` as a ``Lambda``, proved continuous on the closed interval
    between ``lo`` and ``hi`` (else untranslatable: Lean's value would be 0 if it is not
    integrable, which is not decided)."""
    binder = lam.binders[0]
    var = fresh(binder.name, REAL)
    body = tr.elab(lam.body, env.extend(**{binder.name: Value(var, REAL)}), REAL)
    if body.is_fn or body.ty is None or body.ty.kind not in ("Real", "Rat", "Nat", "Int"):
        raise Untranslatable("an integral", "of a non-real function")
    if lo.has(sp.oo, -sp.oo) or hi.has(sp.oo, -sp.oo):
        raise Untranslatable("an integral over an unbounded set", "whether the function is "
                             "integrable there (else Lean's integral is 0) is not decided")
    why = continuous_on(body.expr, var, lo, hi)
    if why is not None:
        raise Untranslatable("an integral", why)
    return sp.Lambda(var, body.expr)


def tendsto(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    """``Filter.Tendsto f l₁ l₂``: a limit, a statement about infinitely many values that no
    finite evaluation decides."""
    raise Untranslatable("a limit (Filter.Tendsto)", "a limit is a statement about infinitely "
                         "many values of the function; leanmirror evaluates at points only")


CALCULUS_FORMS["intervalIntegral"] = interval_integral
CALCULUS_FORMS["Filter.Tendsto"] = tendsto
__all__ += ["continuous_on", "integrand", "interval_integral", "tendsto"]
