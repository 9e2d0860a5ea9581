"""The core elaborator: Lean terms → sympy with Lean's types, one ``_elab_<Node>`` per node.

Like Lean's ``binop%``/``binrel%`` it computes the type of an arithmetic tree from its leaves
and the expected type (so ``i - j`` on ℕ truncates while ``(i - j : ℝ)`` does not), then emits
the :mod:`mirror.translate.vocabulary` node that keeps Lean's meaning (``LeanDiv`` for ``x / 0 = 0``,
``NatSub`` for truncation, …). Application and coercion live here, arithmetic trees in
:mod:`mirror.translate.arithmetic`, relations and propositions in
:mod:`mirror.translate.relations`; constants are looked up in :data:`mirror.translate.forms.FORMS` (binders, big operators: one entry per Lean constant),
then :data:`mirror.translate.vocabulary.CONSTANTS` / :data:`~mirror.translate.vocabulary.FUNCTIONS`, then the
project's definitions (:class:`mirror.translate.unfolding.Unfolding`).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from bridge import term as T
from mirror.translate import vocabulary as V
from mirror.translate.arithmetic import Arithmetic
from mirror.translate.forms import FORMS
from mirror.translate.inference import Inference
from mirror.translate.lean_terms import show
from mirror.translate.relations import Relations
from mirror.translate.types import COMPLEX, NAT, PROP, RAT, REAL, SORT, Ty, coerces, fin, fun
from mirror.translate.values import (
    ARITH,
    RELATIONS,
    TYPE_NAMES,
    ArrayFn,
    Closure,
    DefFn,
    Env,
    Known,
    KnownType,
    TableFn,
    UnknownConstant,
    Untranslatable,
    Value,
    fresh,
    is_type_term,
    over_applied,
    zmod,
)
from mirror.translate.vocabulary import CONSTANTS, FUNCTIONS

#: Nesting depth (terms inside unfolded definitions) past which a term is untranslatable.
MAX_DEPTH = 200


#: Finset constructors read as ranges (:func:`mirror.translate.finsets.finset`): ``(range n).card``.
_FINSETS = frozenset({"Finset.range", "Finset.Icc", "Finset.Ico", "Finset.Ioc", "Finset.Ioo",
                      "Finset.Iic", "Finset.Iio", "Finset.filter", "Finset.univ"})


class Elaborator(Inference, Arithmetic, Relations):
    """The term visitor. The translator that mixes it in provides ``declarations`` and the
    unfolding of project definitions (``_apply_def``, ``_recursive_call``)."""

    _depth = 0

    # ---- types --------------------------------------------------------------------------------

    def type_of(self, term: T.Term, env: Env) -> Ty:
        """The :class:`Ty` a Lean type term denotes in ``env``."""
        if isinstance(term, KnownType):
            return term.ty
        if isinstance(term, T.Const):
            if term.name in TYPE_NAMES:
                return TYPE_NAMES[term.name]
            raise Untranslatable(f"type {term.name}")
        if isinstance(term, T.Var):
            found = env.get(term.name)
            if isinstance(found, Ty):
                return found
            raise Untranslatable(f"type variable {term.name}", "it was not solved from the arguments")
        if isinstance(term, T.Sort):
            return PROP if term.level == 0 else SORT
        if isinstance(term, T.Pi):
            result = self.type_of(term.body, env)
            for binder in reversed(term.binders):
                result = fun(self.type_of(binder.type, env), result)
            return result
        if isinstance(term, T.App) and isinstance(term.fn, T.Const):
            name = term.fn.name
            if name == "Fin" and len(term.args) == 1:
                return fin(self.scalar(term.args[0], env, NAT))
            if name == "ZMod" and len(term.args) == 1:
                return zmod(self.scalar(term.args[0], env, NAT))
            if name == "Matrix" and len(term.args) == 3:
                return Ty(
                    "Matrix",
                    tuple(self.type_of(a, env) for a in term.args),
                )
            if name == "Finset" and len(term.args) == 1:
                return Ty("Finset", (self.type_of(term.args[0], env),))
            if name in RELATIONS or name in ("And", "Or", "Not", "Iff", "Membership.mem"):
                return PROP
        if isinstance(term, T.Hole):
            raise Untranslatable("type placeholder `_`")
        raise Untranslatable(f"type {show(term)}")

    # ---- elaboration --------------------------------------------------------------------------

    def elab(self, term: T.Term, env: Env, expected: Ty | None) -> Value:
        """Translate ``term`` with the expected type ``expected``."""
        if self._depth >= MAX_DEPTH:
            raise Untranslatable("deeply nested term", f"more than {MAX_DEPTH} levels of unfolding")
        self._depth += 1
        try:
            method = getattr(self, f"_elab_{type(term).__name__}", None)
            if method is None:
                raise Untranslatable(f"term node {type(term).__name__}")
            return method(term, env, expected)
        finally:
            self._depth -= 1

    def scalar(self, term: T.Term, env: Env, expected: Ty | None) -> sp.Basic:
        value = self.elab(term, env, expected)
        if value.is_fn:
            return self.materialize(value)
        return value.expr

    def _elab_Lit(self, term: T.Lit, env: Env, expected: Ty | None) -> Value:
        value = term.value
        number = sp.Rational(value.numerator, value.denominator) if isinstance(value, Fraction) \
            else sp.Integer(value)
        if expected is not None and expected.kind == "Fin":
            return Value(V.FinWrap(number, expected.args[0]), expected)
        if expected is not None and expected.kind == "Matrix":
            rows = expected.args[0]
            size = rows.args[0] if rows.kind == "Fin" else None
            if value == 0:
                return Value(V.LMatZero(size, expected.args[1].args[0]), expected)
            if value == 1:
                return Value(V.LMatOne(size), expected)
            return Value(V.LMatSMul(number, V.LMatOne(size)), expected)
        if expected is not None and expected.kind == "Fun":
            sizes = [self.domain_size(d) for d in expected.domains()]
            dummies = [fresh(f"z{i}", d) for i, d in enumerate(expected.domains())]
            return Value(V.Tabulate(sp.Lambda(tuple(dummies), number), sp.Tuple(*sizes)), expected)
        if expected is not None and (expected.is_numeric):
            return Value(number, expected, numeral=True)
        ty = RAT if isinstance(value, Fraction) else NAT
        return Value(number, ty, numeral=True)

    def _elab_Var(self, term: T.Var, env: Env, expected: Ty | None) -> Value:
        found = env.get(term.name)
        if found is None:
            # a statement may mention a project constant whose name the parser saw as local
            if term.name in self.declarations:
                return self.elab(T.Const(term.name), env, expected)
            raise Untranslatable(f"free variable {term.name}")
        if isinstance(found, Ty):
            raise Untranslatable(f"type {term.name} used as a value")
        return found

    def _elab_Typed(self, term: T.Typed, env: Env, expected: Ty | None) -> Value:
        ty = self.type_of(term.type, env)
        value = self.elab(term.expr, env, ty)
        return self.coerce(value, ty)

    def _elab_Coe(self, term: T.Coe, env: Env, expected: Ty | None) -> Value:
        value = self.elab(term.expr, env, None)
        if expected is not None:
            return self.coerce(value, expected)
        return value

    def _elab_Let(self, term: T.Let, env: Env, expected: Ty | None) -> Value:
        ty = self.type_of(term.type, env) if term.type is not None else None
        value = self.elab(term.value, env, ty)
        return self.elab(term.body, env.extend(**{term.name: value}), expected)

    def _elab_Lam(self, term: T.Lam, env: Env, expected: Ty | None) -> Value:
        binders = term.binders
        if expected is not None and expected.kind in ("Fun", "Matrix"):
            domains = expected.domains()
            binders = tuple(
                T.Binder(b.name, b.type, b.info) if b.type is not None or i >= len(domains)
                else T.Binder(b.name, KnownType(domains[i]), b.info)
                for i, b in enumerate(binders)
            )
        return Value(fn=Closure(binders, term.body, env), ty=expected)

    def _elab_Proj(self, term: T.Proj, env: Env, expected: Ty | None) -> Value:
        if isinstance(term.field, str) and term.field not in ("val", "toNat", "1", "re", "im"):
            return self._field_notation(term, (), env, expected)
        if term.field in ("val", 1, "toNat") or term.field == "1":
            value = self.elab(term.expr, env, None)
            if value.ty is not None and value.ty.kind in ("Fin", "Nat", "PNat"):
                return Value(value.expr, NAT)
            if value.ty is not None and value.ty.kind == "NNReal" and term.field != "toNat":
                return Value(value.expr, REAL)
            if value.ty is not None and value.ty.kind == "Int" and term.field == "toNat":
                return self.call_table("Int.toNat", [value], None)
        if term.field in ("re", "im"):
            value = self.elab(term.expr, env, COMPLEX)
            return Value(sp.re(value.expr) if term.field == "re" else sp.im(value.expr), REAL)
        raise Untranslatable(f"projection .{term.field}")

    def _field_notation(self, proj: T.Proj, args, env: Env, expected: Ty | None) -> Value:
        """``e.f a …`` is ``T.f e a …`` where ``T`` is the head of ``e``'s type (``Finset`` for
        a finset the translator reads as a range, which is no value of its own)."""
        head = proj.expr.fn if isinstance(proj.expr, T.App) else proj.expr
        if isinstance(head, T.Const) and head.name in _FINSETS:
            return self._apply_const(f"Finset.{proj.field}", (proj.expr, *args), env, expected)
        value = self.elab(proj.expr, env, None)
        ty = value.ty
        namespace = {"Matrix": "Matrix", "Fin": "Fin", "Finset": "Finset", "Real": "Real",
                     "Complex": "Complex", "Nat": "Nat", "Int": "Int", "NNReal": "NNReal",
                     "ENNReal": "ENNReal", "PNat": "PNat", "Rat": "Rat"}.get(ty.kind if ty else "")
        if namespace is None and ty is not None and ty.kind == "Fun" and ty.arity() == 2:
            namespace = "Matrix"
        if namespace is None:
            raise Untranslatable(f"projection .{proj.field}", f"on a value of type {ty}")
        return self._apply_const(f"{namespace}.{proj.field}", (proj.expr, *args), env, expected)

    def _elab_Anon(self, term: T.Anon, env: Env, expected: Ty | None) -> Value:
        if expected is not None and expected.kind == "Fin" and term.args:
            value = self.elab(term.args[0], env, NAT)
            return Value(value.expr, expected)
        raise Untranslatable("anonymous constructor ⟨…⟩", "only ⟨i, h⟩ : Fin n is supported")

    def _elab_Const(self, term: T.Const, env: Env, expected: Ty | None) -> Value:
        return self._apply_const(term.name, (), env, expected)

    def _elab_App(self, term: T.App, env: Env, expected: Ty | None) -> Value:
        fn = term.fn
        if isinstance(fn, T.Const):
            name = fn.name
            applied = over_applied(term)
            if applied is not None:  # `(1 - A) i j`: the value of `1 - A` (its own tree) applied
                head_t, extra = applied
                head = self.arith_tree(head_t, env, None)
                return self.apply(head, [(a, env) for a in extra], expected)
            if name in ARITH:
                return self.arith_tree(term, env, expected, term.ty)
            if name in RELATIONS:
                return Value(self._relation(name, term, env), PROP)
            return self._apply_const(name, term.args, env, expected)
        if isinstance(fn, T.Proj) and fn.field == "filter":
            # `s.filter p` in dot notation
            return self._apply_const("Finset.filter", (term.args[0], fn.expr), env, expected)
        if isinstance(fn, T.Proj) and isinstance(fn.field, str) and fn.field not in ("val", "re",
                                                                                    "im"):
            return self._field_notation(fn, term.args, env, expected)
        head = self.elab(fn, env, None)
        return self.apply(head, [(a, env) for a in term.args], expected)

    def _elab_Pi(self, term: T.Pi, env: Env, expected: Ty | None) -> Value:
        return Value(self.prop(term, env), PROP)

    def _elab_Sort(self, term: T.Sort, env: Env, expected: Ty | None) -> Value:
        raise Untranslatable("a type used as a value")

    def _elab_Hole(self, term: T.Hole, env: Env, expected: Ty | None) -> Value:
        raise Untranslatable("placeholder `_`")

    def _elab_Str(self, term: T.Str, env: Env, expected: Ty | None) -> Value:
        raise Untranslatable("string literal")

    def _elab_KnownType(self, term: KnownType, env: Env, expected: Ty | None) -> Value:
        raise Untranslatable("a type used as a value")

    def _elab_Known(self, term: Known, env: Env, expected: Ty | None) -> Value:
        ty = term.ty
        if ty is None:
            ty = NAT if term.expr.assumptions0.get("integer") else REAL
        if expected is not None and expected.kind == "Fin" and ty.kind in ("Nat", "Fin"):
            ty = expected
        return Value(term.expr, ty)

    # ---- application --------------------------------------------------------------------------

    def apply(self, head: Value, args: list[tuple[T.Term, Env]], expected: Ty | None) -> Value:
        """Apply a function value to argument terms (each with its own environment)."""
        if not args:
            return head
        fnv = head.fn
        if isinstance(fnv, ArrayFn):
            domains = fnv.ty.apply(len(fnv.indices)).domains()
            take = min(len(args), len(domains))
            indices = list(fnv.indices)
            for (arg, arg_env), dom in zip(args[:take], domains):
                indices.append(self.scalar(arg, arg_env, dom))
            rest_ty = fnv.ty.apply(len(indices))
            if rest_ty.is_array:
                result = Value(fn=ArrayFn(fnv.array, fnv.ty, tuple(indices)), ty=rest_ty)
            else:
                result = Value(V.Index(fnv.array, *indices), rest_ty)
            if take < len(args):
                return self.apply(result, args[take:], expected)
            return result
        if isinstance(fnv, Closure):
            new_env = Env(fnv.env)
            binders = fnv.binders
            count = min(len(binders), len(args))
            for binder, (arg, arg_env) in zip(binders[:count], args[:count]):
                bty = self.type_of(binder.type, fnv.env) if is_type_term(binder.type) else None
                new_env[binder.name] = self.elab(arg, arg_env, bty)
                if bty is not None and not new_env[binder.name].is_fn:
                    new_env[binder.name] = self.coerce(new_env[binder.name], bty)
            if count < len(binders):
                rest_ty = head.ty.apply(count) if head.ty is not None and head.ty.is_array else None
                return Value(fn=Closure(binders[count:], fnv.body, new_env), ty=rest_ty)
            body_expected = expected if count == len(args) else None
            result = self.elab(fnv.body, new_env, body_expected)
            return self.apply(result, args[count:], expected)
        if isinstance(fnv, DefFn):
            return self._apply_def(fnv.decl, list(fnv.args) + list(args), expected)
        if isinstance(fnv, TableFn):
            params, builder, result_ty = FUNCTIONS[fnv.name]
            values = list(fnv.args)
            for (arg, arg_env) in args[: len(params) - len(values)]:
                values.append(self.elab(arg, arg_env, params[len(values)]))
            if len(values) < len(params):
                return Value(fn=TableFn(fnv.name, tuple(values)))
            result = self.call_table(fnv.name, values, expected)
            return self.apply(result, args[len(params) - len(fnv.args):], expected)
        if isinstance(head.expr, sp.Basic) and head.ty is not None and head.ty.is_array:
            fnv = ArrayFn(head.expr, head.ty)
            return self.apply(Value(fn=fnv, ty=head.ty), args, expected)
        raise Untranslatable("application of a non-function", str(head.expr))

    def call_table(self, name: str, values: list[Value], expected: Ty | None) -> Value:
        params, builder, result_ty = FUNCTIONS[name]
        exprs = []
        for value, pty in zip(values, params):
            if pty is not None:
                value = self.coerce(value, pty)
            exprs.append(value.expr)
        if result_ty is None:
            result_ty = expected if expected is not None and expected.is_numeric else values[0].ty
        return Value(builder(*exprs), result_ty)

    def _apply_const(
        self, name: str, args: tuple[T.Term, ...], env: Env, expected: Ty | None
    ) -> Value:
        if name in env and isinstance(env[name], Value):
            # the front end could not tell a local from a constant
            return self.apply(env[name], [(a, env) for a in args], expected)
        if env.recursion is not None and env.recursion.calls(name):
            return self._recursive_call(env.recursion, name, args, env, expected)
        special = FORMS.get(name)
        if special is not None:
            return special(self, args, env, expected)
        if name in CONSTANTS:
            expr, ty = CONSTANTS[name]
            return self.apply(Value(expr, ty), [(a, env) for a in args], expected)
        if name in FUNCTIONS:
            return self.apply(Value(fn=TableFn(name, ())), [(a, env) for a in args], expected)
        decl = self.declarations.get(name)
        if decl is not None:
            return self._apply_def(decl, [(a, env) for a in args], expected)
        if "." in name:
            # generalized field notation on a constant: `Finset.univ.filter p`
            prefix, field_name = name.rsplit(".", 1)
            if prefix in CONSTANTS or prefix in self.declarations or prefix in (
                "Finset.univ",
            ):
                return self._elab_App(
                    T.App(T.Proj(T.Const(prefix), field_name), args), env, expected
                ) if field_name == "filter" and args else self._unknown(name)
        return self._unknown(name)

    def _unknown(self, name: str) -> Value:
        raise UnknownConstant(name)


    def _infer_fn_type(self, value: Value, hint: T.Term | None = None,
                       hint_env: Env | None = None) -> Ty | None:
        """The type of a lambda (its body elaborated once). Untyped binders take their types
        from ``hint``, the parameter type it is passed for, where that is already solved."""
        fnv = value.fn
        if not isinstance(fnv, Closure):
            return None
        hinted: list[Ty | None] = []
        pattern = hint
        while isinstance(pattern, T.Pi) and len(hinted) < len(fnv.binders):
            for binder in pattern.binders:
                hinted.append(self.try_type(binder.type, hint_env or Env()))
            pattern = pattern.body
        try:
            doms = []
            for index, b in enumerate(fnv.binders):
                if is_type_term(b.type):
                    doms.append(self.type_of(b.type, fnv.env))
                elif index < len(hinted) and hinted[index] is not None:
                    doms.append(hinted[index])
                else:
                    return None
            dummies = [(Known(fresh(b.name, d), d), Env()) for b, d in zip(fnv.binders, doms)]
            body = self.apply(value, dummies, None)
        except Untranslatable:
            return None
        result = body.ty
        if result is None:
            return None
        for dom in reversed(doms):
            result = fun(dom, result)
        return result

    def try_type(self, term: T.Term | None, env: Env) -> Ty | None:
        if term is None:
            return None
        try:
            return self.type_of(term, env)
        except Untranslatable:
            return None

    # ---- coercions and materialization ------------------------------------------------------

    def coerce(self, value: Value, target: Ty) -> Value:
        if value.is_fn or value.ty is None or target is None:
            return value if value.ty is not None or target is None else Value(
                value.expr, target, value.fn
            )
        source = value.ty
        if source == target:
            return value
        if target.kind == "Fin":
            if source.kind == "Fin" or value.numeral:
                return Value(value.expr, target)
            if source.kind in ("Nat", "Int", "PNat"):
                # Nat.cast / Int.cast into Fin n (= ZMod n) reduces modulo n
                return Value(V.FinWrap(value.expr, target.args[0]), target)
            raise Untranslatable(f"coercion from {source} to {target}")
        if target.kind == "Matrix" and source.kind in ("Nat", "Int", "PNat"):
            # Nat.cast / Int.cast into a matrix ring is `n • 1`; as LMatSMul(n, LMatOne) the
            # check of Mathlib's `Finset.sum_choose_succ_mul` ran past its 120 s budget, so
            # the cast stays untranslatable (named), never the scalar broadcast it was
            raise Untranslatable(f"coercion from {source} to {target}",
                                 "a cast into a matrix ring (n • 1) is not translated")
        src_kind = "Nat" if source.kind == "Fin" else source.kind
        if (source.is_numeric or source.kind == "Fin") and target.is_numeric:
            if coerces(src_kind, target.kind) or value.numeral:
                return Value(value.expr, target)
            raise Untranslatable(f"coercion from {source} to {target}")
        return value

    def materialize(self, value: Value) -> sp.Basic:
        """A sympy object for a function value: the array symbol, or a ``Lambda``."""
        fnv = value.fn
        if isinstance(fnv, ArrayFn):
            if fnv.indices:
                return V.Index(fnv.array, *fnv.indices)
            return fnv.array
        if isinstance(fnv, (Closure, DefFn, TableFn)):
            ty = value.ty
            if ty is None or not ty.is_array:
                if isinstance(fnv, Closure):
                    doms = [self.try_type(b.type, fnv.env) if is_type_term(b.type) else None
                            for b in fnv.binders]
                else:
                    doms = []
                if not doms or any(d is None for d in doms):
                    raise Untranslatable("a function value whose argument types are unknown")
            else:
                doms = ty.domains()
            dummies = [fresh(f"a{i}", d) for i, d in enumerate(doms)]
            args = [(Known(d), Env()) for d in dummies]
            body = self.apply(value, args, None)
            body_expr = self.materialize(body) if body.is_fn else body.expr
            return sp.Lambda(tuple(dummies), body_expr)
        raise Untranslatable("function value")
