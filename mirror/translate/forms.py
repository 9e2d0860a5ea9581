"""Special forms: one entry per Lean constant whose translation is not a plain function.

Binders (``∃``, ``Finset.sum``), propositions (``And``, ``ite``), matrix operations and the
like read their arguments as terms, so they cannot sit in :data:`mirror.translate.vocabulary.FUNCTIONS`
(which takes values of fixed types). Each is a function ``(translator, args, env, expected)
→ Value`` registered in :data:`FORMS` under the Lean constant's full name by :func:`form`,
the way SymPy's printers keep one ``_print_X`` per node. Adding a constant is one decorated
function here (and its test).

``tr`` is the :class:`~mirror.translate.elaborator.Elaborator`, seen through the protocol
:class:`~mirror.translate.values.Elab` (so this module does not import the elaborator that
imports it); the forms call its public methods (``elab``, ``apply``, ``prop``, ``arith``,
``scalar``, ``coerce``, …).
"""

from __future__ import annotations

from typing import Callable, Sequence

import sympy as sp

from bridge import term as T
from mirror.translate import vocabulary as V
from mirror.translate.types import ENNREAL, NAT, PROP, REAL, Ty, fin, fun, numeric_max
from mirror.translate.finsets import bound_of, element_type, finset
from mirror.translate.calculus import CALCULUS_FORMS
from mirror.translate.lattice_forms import LATTICE_FORMS
from mirror.translate.witnesses import SEARCHED, candidate_exists
from mirror.translate.values import (
    NAT_DOMAIN,
    ArrayFn,
    Elab,
    Env,
    Known,
    UnknownType,
    Untranslatable,
    Value,
    fresh,
    matrix_ty,
)

Args = Sequence[T.Term]
Form = Callable[["Elab", Args, Env, "Ty | None"], Value]

#: Lean constant name → its special form.
FORMS: dict[str, Form] = {}


def form(*names: str) -> Callable[[Form], Form]:
    """Register the decorated function as the special form of the Lean constants ``names``."""

    def register(fn: Form) -> Form:
        for name in names:
            if name in FORMS:
                raise ValueError(f"two special forms for {name}")
            FORMS[name] = fn
        return fn

    return register


@form("And")
def _and(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    return Value(sp.And(*(tr.prop(a, env) for a in args)), PROP)


@form("Or")
def _or(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    return Value(sp.Or(*(tr.prop(a, env) for a in args)), PROP)


@form("Not")
def _not(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    (arg,) = args
    return Value(sp.Not(tr.prop(arg, env)), PROP)


@form("Iff")
def _iff(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    a, b = args
    return Value(sp.Equivalent(tr.prop(a, env), tr.prop(b, env)), PROP)


@form("ite")
def _ite(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    if len(args) < 3:
        raise Untranslatable("ite with fewer than 3 arguments")
    cond_t, then_t, else_t = args[:3]
    cond = tr.prop(cond_t, env)
    ty = expected
    if ty is None or not (ty.is_numeric or ty.kind == "Prop"):
        ty = tr.tree_type([then_t, else_t], env, expected)
    if ty.kind == "Prop":
        return Value(V.PropIte(cond, tr.prop(then_t, env), tr.prop(else_t, env)), PROP)
    if NAT_DOMAIN in cond.free_symbols:
        # a number carries no `known` flag (mirror.evaluate.polarity): a value chosen by a
        # quantifier decided on the sampled prefix of ℕ only would be taken as exact (a count
        # `∑ m < 31, if ∀ n, n ≠ m + 1000 then 1 else 0` came out 31, not 0)
        raise Untranslatable("an if-then-else value whose condition quantifies over the "
                             "sampled prefix of ℕ only", "the value it picks is not known")
    a = tr.arith(then_t, env, ty)
    b = tr.arith(else_t, env, ty)
    if a.is_fn or b.is_fn or (ty is not None and ty.is_array):
        arr_ty = a.ty if a.ty is not None and a.ty.is_array else b.ty
        if arr_ty is None or not arr_ty.is_array:
            raise Untranslatable("if-then-else between functions of unknown type")
        node = V.LeanIte(cond, tr.tabulated(a, arr_ty), tr.tabulated(b, arr_ty))
        return tr.apply(Value(fn=ArrayFn(node, arr_ty), ty=arr_ty),
                          [(x, env) for x in args[3:]], expected)
    return tr.apply(Value(V.LeanIte(cond, a.expr, b.expr), ty), [(x, env) for x in args[3:]],
                      expected)


@form("dite")
def _dite(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    if len(args) < 3:
        raise Untranslatable("dite with fewer than 3 arguments")
    cond_t, then_t, else_t = args[:3]
    strip = [t.body if isinstance(t, T.Lam) else T.App(t, (T.Hole(),)) for t in (then_t,
                                                                                  else_t)]
    return _ite(tr, (cond_t, strip[0], strip[1], *args[3:]), env, expected)


@form("Exists")
def _exists(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    (lam,) = args[:1]
    if not isinstance(lam, T.Lam) or not lam.binders:
        raise Untranslatable("∃ over a non-lambda")
    binder = lam.binders[0]
    rest = T.Lam(lam.binders[1:], lam.body) if len(lam.binders) > 1 else None
    body = lam.body if rest is None else T.App(T.Const("Exists"), (rest,))
    ty = (
        tr.type_of(binder.type, env)
        if binder.type is not None
        else tr.infer_binder_type(binder.name, body, env)
    )
    if isinstance(body, T.App) and isinstance(body.fn, T.Const) and body.fn.name == "And":
        bound = bound_of(tr, binder.name, body.args[0], env, ty)
        if bound is not None:
            lo, hi, cond = bound
            inner = body.args[1] if len(body.args) == 2 else T.App(T.Const("And"), body.args[1:])
            return Value(tr.fin_quant(V.FinExists, binder.name, ty, lo, hi, cond, inner, env),
                         PROP)
    if ty.kind in SEARCHED:  # ℝ, ℚ, ℤ: among candidate witnesses (mirror.translate.witnesses)
        return Value(candidate_exists(tr, binder.name, ty, body, env), PROP)
    lo, hi = tr.type_range(ty)
    return Value(tr.fin_quant(V.FinExists, binder.name, ty, lo, hi, None, body, env), PROP)


@form("Membership.mem")
def _membership_mem(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    s_t, x_t = args
    x = tr.scalar(x_t, env, None)
    lo, hi, cond = finset(tr, s_t, env, None)
    out = sp.And(sp.Le(lo, x), sp.Lt(x, hi))
    if cond is not None:
        out = sp.And(out, cond(x))
    return Value(out, PROP)


def _index_type(tr: Elab, s_t: T.Term, f_t: T.Term, env: Env) -> Ty:
    """The type of a big operator's index: written on its binder, else fixed by the finset
    (``range n``: ℕ), else by its use in the body (``softmax x i``: ``Fin n``)."""
    if isinstance(f_t, T.Lam) and f_t.binders:
        binder = f_t.binders[0]
        if binder.type is not None:
            return tr.type_of(binder.type, env)
        try:
            return element_type(tr, s_t, env) or tr.infer_binder_type(binder.name, f_t.body,
                                                                      env)
        except UnknownType:
            if not isinstance(s_t, T.Const):
                finset(tr, s_t, env, NAT)  # an unsupported finset: its own reason first
            raise
    fval = tr.elab(f_t, env, None)
    if fval.ty is not None and fval.ty.is_array:
        return fval.ty.domains()[0]
    found = element_type(tr, s_t, env)
    if found is None:
        raise UnknownType("the index of a big operator", "neither the finset nor the "
                          "function fixes it")
    return found


def _big_operator(tr: Elab, args, env, expected, kind: str) -> Value:
    if len(args) != 2:
        raise Untranslatable(f"Finset.{kind} with {len(args)} arguments")
    s_t, f_t = args
    elem_ty = _index_type(tr, s_t, f_t, env)
    lo, hi, cond = finset(tr, s_t, env, elem_ty)
    var = fresh("j", elem_ty)
    fval = tr.elab(f_t, env, None)
    term_value = tr.apply(fval, [(Known(var, elem_ty), Env())], expected)
    if term_value.is_fn:
        body = tr.as_matrix(term_value)
        ty = term_value.ty
        if cond is not None:
            raise Untranslatable("a filtered sum of matrices")
        if kind != "sum":
            raise Untranslatable("a product of matrices")
        return Value(V.LMatSum(sp.Lambda(var, body), lo, hi), ty)
    ty = term_value.ty if term_value.ty is not None else (expected or REAL)
    if expected is not None and expected.is_numeric and ty.is_numeric:
        term_value = tr.coerce(term_value, numeric_max(ty, expected))
        ty = term_value.ty
    body = term_value.expr
    if ty is not None and ty.kind == "Matrix":
        return Value(V.LMatSum(sp.Lambda(var, body), lo, hi), ty)
    if cond is not None:
        neutral = sp.Integer(0) if kind == "sum" else sp.Integer(1)
        body = V.LeanIte(cond(var), body, neutral)
    cls = V.FinSum if kind == "sum" else V.FinProd
    total = cls(sp.Lambda(var, body), lo, hi)
    if ty is not None and ty.kind == "Fin":  # Fin n and ZMod n: the total wraps modulo n
        total = V.FinWrap(total, ty.args[0])
    return Value(total, ty)


@form("Finset.sum")
def _finset_sum(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    return _big_operator(tr, args, env, expected, "sum")


@form("Finset.prod")
def _finset_prod(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    return _big_operator(tr, args, env, expected, "prod")


@form("Finset.card")
def _finset_card(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    (s_t,) = args
    lo, hi, cond = finset(tr, s_t, env, NAT)
    if cond is None:
        return Value(V.NatSub(hi, lo), NAT)
    var = fresh("j", NAT)
    return Value(V.FinSum(sp.Lambda(var, V.LeanIte(cond(var), 1, 0)), lo, hi), NAT)


def _minmax(tr: Elab, args, env, expected, cls) -> Value:
    if len(args) < 2:
        raise Untranslatable(f"{cls.__name__.lower()} with fewer than 2 arguments")
    ty = tr.tree_type(list(args[:2]), env, expected)
    a = tr.arith(args[0], env, ty)
    b = tr.arith(args[1], env, ty)
    return tr.apply(Value(cls(a.expr, b.expr), ty), [(x, env) for x in args[2:]], expected)


@form("max", "Max.max")
def _max(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    return _minmax(tr, args, env, expected, sp.Max)


@form("min", "Min.min")
def _min(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    return _minmax(tr, args, env, expected, sp.Min)


@form("Top.top")
def _top_top(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    """``⊤``: only in ``ℝ≥0∞`` (``∞``), where it is ``sympy.oo``."""
    if expected is None or expected.kind != "ENNReal" or args:
        raise Untranslatable("⊤ outside ℝ≥0∞")
    return Value(sp.oo, ENNREAL)


@form("leanmirror.Dvd.dvd")
def _dvd(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    """``a ∣ b`` (as :mod:`mirror.translate.number_theory` rewrites it): ``b % a = 0`` in ℕ
    and ℤ (``Nat.dvd_iff_mod_eq_zero``, ``Int.dvd_iff_emod_eq_zero``; ``0 ∣ b ↔ b = 0``
    comes with ``b % 0 = b``). In any other type the remainder says nothing about
    divisibility (``4 ∣ 2`` in ``ZMod 6``: ``4 · 2 = 2``), so it is untranslatable."""
    if len(args) != 2:
        raise Untranslatable("∣ with other than two arguments")
    ty = tr.tree_type(list(args), env, None)
    if ty.kind not in ("Nat", "Int"):
        raise Untranslatable(f"∣ in {ty}", "divisibility is read as b % a = 0 in ℕ and ℤ only")
    mod = T.App(T.Const("HMod.hMod"), (args[1], args[0]))
    return Value(tr.prop(T.App(T.Const("Eq"), (mod, T.Lit(0))), env), PROP)


@form("ZMod.val")
def _zmod_val(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    """``ZMod.val``: the representative in ``[0, n)``; on ``ZMod 0 = ℤ`` it is ``natAbs``."""
    if len(args) != 1:
        raise Untranslatable("ZMod.val with other than one argument")
    value = tr.elab(args[0], env, None)
    if value.ty is not None and value.ty.kind == "Fin":
        return Value(value.expr, NAT)
    if value.ty is not None and value.ty.kind == "Int":
        return Value(sp.Abs(value.expr), NAT)
    raise Untranslatable(f"ZMod.val of a value of type {value.ty}")


@form("abs")
def _abs(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    ty = tr.tree_type([args[0]], env, expected)
    value = tr.arith(args[0], env, ty)
    return Value(sp.Abs(value.expr), ty if ty.kind != "Complex" else REAL)


@form("Norm.norm")
def _norm_norm(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    value = tr.elab(args[0], env, None)
    if value.is_fn:
        ty = value.ty
        if ty is None or ty.kind != "Fun" or ty.args[1].is_array:
            raise Untranslatable("‖·‖ of a matrix or nested function",
                                 "Mathlib has no default norm instance there")
        if ty.args[0].kind != "Fin":
            raise Untranslatable(f"‖·‖ of a function on {ty.args[0]}",
                                 "the sup norm needs a finite domain (Fin n)")
        var = fresh("i", ty.args[0])
        entry = tr.apply(value, [(Known(var, ty.args[0]), Env())], None)
        return Value(V.SupNorm(sp.Lambda(var, sp.Abs(entry.expr)),
                               tr.domain_size(ty.args[0])), REAL)
    return Value(sp.Abs(value.expr), REAL)


@form("Matrix.vecMulVec")
def _matrix_vec_mul_vec(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    u, v = (tr.elab(a, env, None) for a in args[:2])
    if not (u.ty and u.ty.kind == "Fun" and v.ty and v.ty.kind == "Fun"):
        raise Untranslatable("Matrix.vecMulVec of vectors of unknown type")
    ty = Ty("Matrix", (u.ty.args[0], v.ty.args[0], u.ty.args[1]))
    result = Value(fn=ArrayFn(V.VecMulVec(tr.as_matrix(u), tr.as_matrix(v)), ty), ty=ty)
    return tr.apply(result, [(x, env) for x in args[2:]], expected)


@form("Matrix.mulVec")
def _matrix_mul_vec(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    a, v = (tr.elab(x, env, None) for x in args[:2])
    mat = matrix_ty(a.ty)
    ty = fun(mat.args[0], mat.args[2])
    result = Value(fn=ArrayFn(V.MulVec(tr.as_matrix(a), tr.as_matrix(v)), ty), ty=ty)
    return tr.apply(result, [(x, env) for x in args[2:]], expected)


@form("Matrix.transpose")
def _matrix_transpose(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    a = tr.elab(args[0], env, None)
    mat = matrix_ty(a.ty)
    ty = Ty("Matrix", (mat.args[1], mat.args[0], mat.args[2]))
    result = Value(fn=ArrayFn(V.LMatTranspose(tr.as_matrix(a)), ty), ty=ty)
    return tr.apply(result, [(x, env) for x in args[1:]], expected)


@form("Matrix.of")
def _matrix_of(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    if expected is None or expected.kind != "Matrix":
        raise Untranslatable("Matrix.of without a known matrix type")
    f = tr.elab(args[0], env, expected)
    result = Value(fn=ArrayFn(tr.tabulated(Value(fn=f.fn, ty=expected), expected),
                              expected), ty=expected)
    return tr.apply(result, [(x, env) for x in args[1:]], expected)


@form("Finset.univ")
def _finset_univ(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    raise Untranslatable("Finset.univ outside a big operator")


@form("no_index", "id")
def _identity(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    """``no_index t`` (a simp-index annotation) and ``id t`` are ``t``."""
    if not args:
        raise Untranslatable("no_index/id used as a function value")
    if len(args) == 1:
        return tr.elab(args[0], env, expected)
    return tr.apply(tr.elab(args[0], env, None), [(a, env) for a in args[1:]], expected)


@form("Function.comp")
def _function_comp(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    if len(args) < 3:
        raise Untranslatable("Function.comp used as a value")
    f_t, g_t, x_t = args[:3]
    inner = T.App(g_t, (x_t,))
    return tr.apply(tr.elab(f_t, env, None), [(inner, env), *[(a, env) for a in args[3:]]],
                      expected)


@form("MeasureTheory.integral")
def _measure_theory_integral(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    """``∫ s in I, f s`` over an interval ``I`` of ℝ (or ``∫ s, f s`` over ℝ)."""
    if len(args) != 2 or not isinstance(args[1], T.Lam) or len(args[1].binders) != 1:
        raise Untranslatable("an integral that is not `∫ s in I, f s`")
    lo, hi = _interval(tr, args[0], env)
    binder = args[1].binders[0]
    var = fresh(binder.name, REAL)
    body = tr.elab(args[1].body, env.extend(**{binder.name: Value(var, REAL)}), REAL)
    if body.is_fn or body.ty is None or body.ty.kind not in ("Real", "Rat", "Nat", "Int"):
        raise Untranslatable("an integral of a non-real function")
    return Value(V.LeanIntegral(sp.Lambda(var, body.expr), lo, hi), REAL)


def _interval(tr: Elab, measure: T.Term, env: Env) -> tuple[sp.Basic, sp.Basic]:
    """The bounds of ``volume`` or ``volume.restrict (Set.Ixx a b)``."""
    if isinstance(measure, T.Const) and measure.name in (
        "MeasureTheory.MeasureSpace.volume", "MeasureTheory.volume"
    ):
        return -sp.oo, sp.oo
    if (isinstance(measure, T.App) and isinstance(measure.fn, T.Const)
            and measure.fn.name == "MeasureTheory.Measure.restrict" and len(measure.args) == 2
            and isinstance(measure.args[1], T.App)
            and isinstance(measure.args[1].fn, T.Const)):
        name = measure.args[1].fn.name
        bounds = [tr.scalar(a, env, REAL) for a in measure.args[1].args]
        table = {
            "Set.Ioi": lambda a: (a, sp.oo), "Set.Ici": lambda a: (a, sp.oo),
            "Set.Iio": lambda b: (-sp.oo, b), "Set.Iic": lambda b: (-sp.oo, b),
            "Set.Ioo": lambda a, b: (a, b), "Set.Icc": lambda a, b: (a, b),
            "Set.Ioc": lambda a, b: (a, b), "Set.Ico": lambda a, b: (a, b),
        }
        if name in table:
            try:
                return table[name](*bounds)
            except TypeError:
                pass
    raise Untranslatable("an integral over a measure other than volume on an interval of ℝ")


def _matrix_arg(tr: Elab, term: T.Term, env: Env) -> tuple[sp.Basic, Ty]:
    value = tr.elab(term, env, None)
    if value.ty is None or not value.ty.is_array:
        raise Untranslatable("a matrix property of a value that is not a matrix")
    return tr.as_matrix(value), matrix_ty(value.ty)


@form("Matrix.PosDef")
def _matrix_pos_def(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    if len(args) != 1:
        raise Untranslatable("Matrix.PosDef with other than one argument")
    matrix, _ = _matrix_arg(tr, args[0], env)
    return Value(V.PosDef(matrix), PROP)


@form("Matrix.det")
def _matrix_det(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    matrix, ty = _matrix_arg(tr, args[0], env)
    return tr.apply(Value(V.LMatDet(matrix), ty.args[2]), [(a, env) for a in args[1:]],
                      expected)


@form("IsUnit")
def _is_unit(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    """``IsUnit A`` for a square matrix over a field is ``det A ≠ 0``; for a number, ``≠ 0``."""
    if len(args) != 1:
        raise Untranslatable("IsUnit with other than one argument")
    value = tr.elab(args[0], env, None)
    if value.ty is not None and value.ty.is_array:
        return Value(sp.Ne(V.LMatDet(tr.as_matrix(value)), 0), PROP)
    if value.ty is not None and value.ty.kind in ("Real", "Rat", "Complex"):
        return Value(sp.Ne(value.expr, 0), PROP)
    raise Untranslatable(f"IsUnit in {value.ty}")


@form("Fin.append")
def _fin_append(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    if len(args) < 2:
        raise Untranslatable("Fin.append with fewer than 2 arguments")
    u = tr.elab(args[0], env, None)
    v = tr.elab(args[1], env, None)
    if not (u.ty and u.ty.kind == "Fun" and v.ty and v.ty.kind == "Fun"):
        raise Untranslatable("Fin.append of functions with unknown domains")
    m = u.ty.args[0].args[0]
    n = v.ty.args[0].args[0]
    dom = fin(m + n)
    idx = fresh("i", dom)
    entry = V.LeanIte(
        sp.Lt(idx, m),
        _apply_sym(tr, u, idx, u.ty.args[0]),
        _apply_sym(tr, v, idx - m, v.ty.args[0]),
    )
    ty = fun(dom, u.ty.args[1])
    node = V.Tabulate(sp.Lambda((idx,), entry), sp.Tuple(m + n))
    return tr.apply(Value(fn=ArrayFn(node, ty), ty=ty), [(a, env) for a in args[2:]],
                      expected)


def _apply_sym(tr: Elab, value: Value, index: sp.Basic, dom: Ty) -> sp.Basic:
    out = tr.apply(value, [(Known(index, dom), Env())], None)
    return tr.tabulated(out, out.ty) if out.is_fn else out.expr


@form("Fin.castAdd")
def _fin_cast_add(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    return _fin_embedding(tr, "Fin.castAdd", args, env, shifted=False)


@form("Fin.natAdd")
def _fin_nat_add(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    return _fin_embedding(tr, "Fin.natAdd", args, env, shifted=True)


def _fin_embedding(tr: Elab, name: str, args: Args, env: Env, shifted: bool) -> Value:
    """``Fin.castAdd k i`` (same value) / ``Fin.natAdd k i`` (``k + i``) in ``Fin (n + k)``."""
    if len(args) < 2:
        raise Untranslatable(f"{name} used as a value")
    k = tr.scalar(args[0], env, NAT)
    value = tr.elab(args[1], env, None)
    size = value.ty.args[0] + k if value.ty is not None and value.ty.kind == "Fin" else None
    return Value(k + value.expr if shifted else value.expr, fin(size) if size is not None else NAT)


@form("Equiv.swap")
def _equiv_swap(tr: Elab, args: Args, env: Env, expected: Ty | None) -> Value:
    if len(args) < 3:
        raise Untranslatable("Equiv.swap used as a value")
    a, b, x = (tr.scalar(t, env, NAT) for t in args[:3])
    return Value(V.LeanIte(sp.Eq(x, a), b, V.LeanIte(sp.Eq(x, b), a, x)), NAT)


for _name, _lattice_form in LATTICE_FORMS.items():  # sup', max', ⨆ …: their own module
    form(_name)(_lattice_form)
for _name, _calculus_form in CALCULUS_FORMS.items():  # deriv, iteratedDeriv: their own module
    form(_name)(_calculus_form)
