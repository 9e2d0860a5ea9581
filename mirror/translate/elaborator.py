"""The core elaborator: Lean terms → sympy with Lean's types, one ``_elab_<Node>`` per node.

Like Lean's ``binop%``/``binrel%`` it computes the type of an arithmetic tree from its leaves
and the expected type (so ``i - j`` on ℕ truncates while ``(i - j : ℝ)`` does not), then emits
the :mod:`mirror.translate.vocabulary` node that keeps Lean's meaning (``LeanDiv`` for ``x / 0 = 0``,
``NatSub`` for truncation, …). Application, coercion and propositions live here; constants are
looked up in :data:`mirror.translate.forms.FORMS` (binders, big operators: one entry per Lean constant),
then :data:`mirror.translate.vocabulary.CONSTANTS` / :data:`~mirror.translate.vocabulary.FUNCTIONS`, then the
project's definitions (:class:`mirror.translate.unfolding.Unfolding`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

import sympy as sp

from bridge import term as T
from mirror.translate import vocabulary as V
from mirror.translate.forms import FORMS, bound_of
from mirror.translate.inference import Inference
from mirror.translate.types import COMPLEX, NAT, PROP, RAT, REAL, SORT, Ty, coerces, fin, fun, numeric_max
from mirror.translate.values import (
    ARITH,
    NAT_DOMAIN,
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
    is_arith,
    is_logical,
    is_prop_type,
    is_type_term,
    matrix_ty,
    zmod,
)
from mirror.translate.vocabulary import CONSTANTS, FUNCTIONS

#: Nesting depth (terms inside unfolded definitions) past which a term is untranslatable.
MAX_DEPTH = 200

#: ``a - b`` on the ordered carriers where it truncates (``tsub``): the floor it stops at.
TRUNCATED_SUB = {"NNReal": sp.Integer(0), "PNat": sp.Integer(1)}

#: ``ℝ≥0∞`` arithmetic: ``⊤`` absorbs, ``0 * ⊤ = 0``, ``a / 0 = ⊤`` for ``a ≠ 0``.
ENNREAL_OPS: dict[str, Callable] = {
    "add": V.ENNAdd,
    "sub": V.ENNSub,
    "mul": V.ENNMul,
    "div": lambda a, b: V.ENNMul(a, V.ENNInv(b)),
}




class Elaborator(Inference):
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
        raise Untranslatable(f"type {term}")

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
        """``e.f a …`` is ``T.f e a …`` where ``T`` is the head of ``e``'s type."""
        value = self.elab(proj.expr, env, None)
        ty = value.ty
        namespace = {"Matrix": "Matrix", "Fin": "Fin", "Finset": "Finset", "Real": "Real",
                     "Complex": "Complex", "Nat": "Nat", "Int": "Int", "NNReal": "NNReal",
                     "ENNReal": "ENNReal", "PNat": "PNat"}.get(ty.kind if ty else "")
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

    # ---- arithmetic (binop%) ----------------------------------------------------------------

    def _leaves(self, term: T.Term) -> list[T.Term]:
        if isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name in ARITH:
            kind = ARITH[term.fn.name]
            if kind == "pow":
                return self._leaves(term.args[0])
            if kind == "smul":
                return self._leaves(term.args[1])
            out: list[T.Term] = []
            for arg in term.args:
                out.extend(self._leaves(arg))
            return out
        return [term]

    def _synth(self, term: T.Term, env: Env) -> Ty | None:
        """The type of a leaf when elaborated without an expected type (``None`` for numerals)."""
        if isinstance(term, T.Lit):
            return None
        if isinstance(term, T.Typed):
            return self.try_type(term.type, env)
        if isinstance(term, T.Coe):
            return None
        if isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name == "ite":
            if len(term.args) == 3:
                return numeric_max(self._synth(term.args[1], env), self._synth(term.args[2], env))
        try:
            value = self.elab(term, env, None)
        except Untranslatable:
            return None
        if value.numeral:
            return None
        return value.ty

    def tree_type(self, terms: list[T.Term], env: Env, expected: Ty | None) -> Ty:
        result: Ty | None = expected if expected is not None and (
            expected.is_numeric or expected.kind in ("Matrix", "Fin")
        ) else None
        for leaf in terms:
            ty = self._synth(leaf, env)
            if ty is not None and (ty.is_numeric or ty.kind in ("Fin", "Matrix")):
                result = numeric_max(result, ty)
        return result if result is not None else NAT

    def arith_tree(
        self, term: T.App, env: Env, expected: Ty | None, annotated: T.Term | None = None
    ) -> Value:
        ty = self.try_type(annotated, env) if annotated is not None else None
        if ty is None:
            ty = self.tree_type(self._leaves(term), env, expected)
        return self.arith(term, env, ty)

    def arith(self, term: T.Term, env: Env, ty: Ty) -> Value:
        if not (
            isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name in ARITH
        ):
            value = self.elab(term, env, ty)
            if value.is_fn and ty.kind == "Matrix":
                return value
            return self.coerce(value, ty)
        kind = ARITH[term.fn.name]
        args = term.args
        if kind == "pow":
            return self._pow(args[0], args[1], env, ty)
        if kind == "smul":
            scalar = self.elab(args[0], env, None)
            target = self.arith(args[1], env, ty)
            if ty.kind == "Matrix" or target.is_fn:
                return Value(V.LMatSMul(scalar.expr, self.as_matrix(target)), ty)
            return Value(scalar.expr * target.expr, ty)
        if kind in ("neg", "inv"):
            (arg,) = args
            inner = self.arith(arg, env, ty)
            if kind == "inv":
                if ty.kind == "Matrix":
                    return Value(V.LMatInv(self.as_matrix(inner)), ty)
                if ty.kind in ("Real", "Rat", "Complex", "NNReal"):
                    return Value(V.LeanDiv(sp.Integer(1), inner.expr), ty)
                if ty.kind == "ENNReal":
                    return Value(V.ENNInv(inner.expr), ty)
                raise Untranslatable(f"⁻¹ on {ty}")
            if ty.kind == "Matrix":
                return Value(V.LMatNeg(self.as_matrix(inner)), ty)
            if ty.kind in ("Nat", "Fin", "PNat", "NNReal", "ENNReal"):
                raise Untranslatable(f"negation on {ty}")
            return Value(-inner.expr, ty)
        if ty.kind == "Matrix" and kind == "mul":
            # a matrix product changes shapes: each factor is its own tree
            a = self.arith_tree(args[0], env, None) if is_arith(args[0]) else self.elab(
                args[0], env, None)
            b = self.arith_tree(args[1], env, None) if is_arith(args[1]) else self.elab(
                args[1], env, None)
            ta, tb = matrix_ty(a.ty), matrix_ty(b.ty)
            out_ty = Ty("Matrix", (ta.args[0], tb.args[1], ta.args[2]))
            return Value(V.LMatMul(self.as_matrix(a), self.as_matrix(b)), out_ty)
        a = self.arith(args[0], env, ty)
        b = self.arith(args[1], env, ty)
        if ty.kind == "Matrix":
            ma, mb = self.as_matrix(a), self.as_matrix(b)
            table = {"add": V.LMatAdd, "sub": V.LMatSub, "mul": V.LMatMul}
            if kind not in table:
                raise Untranslatable(f"matrix operation {term.fn.name}")
            return Value(table[kind](ma, mb), ty)
        x, y = a.expr, b.expr
        if ty.kind == "ENNReal":
            if kind not in ENNREAL_OPS:
                raise Untranslatable(f"{term.fn.name} on {ty}")
            return Value(ENNREAL_OPS[kind](x, y), ty)
        if ty.kind == "PNat" and kind in ("div", "mod"):
            raise Untranslatable(f"{term.fn.name} on {ty}")
        if kind == "sub" and ty.kind in TRUNCATED_SUB:
            return Value(sp.Max(x - y, TRUNCATED_SUB[ty.kind]), ty)
        if kind == "add":
            out = x + y
        elif kind == "mul":
            out = x * y
        elif kind == "sub":
            out = V.NatSub(x, y) if ty.kind == "Nat" else x - y
        elif kind == "div":
            out = {"Nat": V.NatDiv, "Int": V.IntDiv, "Fin": V.NatDiv}.get(ty.kind, V.LeanDiv)(x, y)
        elif kind == "mod":
            if ty.kind not in ("Nat", "Int", "Fin"):
                raise Untranslatable(f"% on {ty}")
            out = V.NatMod(x, y)
        else:  # pragma: no cover - table is closed
            raise Untranslatable(term.fn.name)
        if ty.kind == "Fin":
            out = V.FinWrap(out, ty.args[0])
        return Value(out, ty)

    def _pow(self, base_t: T.Term, exp_t: T.Term, env: Env, ty: Ty) -> Value:
        base = self.arith(base_t, env, ty)
        exp_ty = self._synth(exp_t, env) or NAT
        exponent = self.scalar(exp_t, env, exp_ty)
        if ty.kind == "Matrix":
            return Value(V.LMatPow(self.as_matrix(base), exponent), ty)
        if exp_ty.kind in ("Nat", "Fin", "PNat"):
            if ty.kind == "Fin":  # Fin n and ZMod n: the power is reduced modulo n
                return Value(V.FinWrap(sp.Pow(base.expr, exponent), ty.args[0]), ty)
            return Value(sp.Pow(base.expr, exponent), ty)
        if exp_ty.kind == "Int":
            if ty.kind == "ENNReal":
                raise Untranslatable("power of ℝ≥0∞ with an integer exponent")
            return Value(
                V.LeanIte(
                    sp.Ge(exponent, 0),
                    sp.Pow(base.expr, exponent),
                    V.LeanDiv(sp.Integer(1), sp.Pow(base.expr, -exponent)),
                ),
                ty,
            )
        if exp_ty.kind in ("Real", "Rat", "NNReal"):
            if ty.kind in ("Complex", "ENNReal"):
                raise Untranslatable(f"power of {ty} with a real exponent")
            return Value(V.LeanRpow(base.expr, exponent), ty)
        raise Untranslatable(f"power with exponent of type {exp_ty}")

    def as_matrix(self, value: Value) -> sp.Basic:
        if value.is_fn:
            return self.materialize(value) if not isinstance(value.fn, ArrayFn) else (
                value.fn.array if not value.fn.indices else V.Index(value.fn.array, *value.fn.indices)
            )
        return value.expr

    # ---- relations and propositions ---------------------------------------------------------

    def _relation(self, name: str, term: T.App, env: Env) -> sp.Basic:
        if len(term.args) != 2:
            raise Untranslatable(f"{name} with {len(term.args)} arguments")
        lhs_t, rhs_t = term.args
        if name in ("GT.gt", "GE.ge"):
            lhs_t, rhs_t = rhs_t, lhs_t
            name = "LT.lt" if name == "GT.gt" else "LE.le"
        ty = self.relation_type(term, env)
        if ty.kind == "Prop":
            lhs, rhs = self.prop(lhs_t, env), self.prop(rhs_t, env)
            return sp.Equivalent(lhs, rhs) if name == "Eq" else sp.Not(sp.Equivalent(lhs, rhs))
        lhs = self.arith(lhs_t, env, ty)
        rhs = self.arith(rhs_t, env, ty)
        if all(not v.is_fn and v.ty is not None and v.ty.kind in ("Bool", "Prop")
               for v in (lhs, rhs)):
            # `b = true` between truth values (a Bool-valued definition, say)
            if name not in ("Eq", "Ne"):
                raise Untranslatable(f"order on {lhs.ty}")
            a, b = (v.expr if is_logical(v.expr) else V.Holds(v.expr) for v in (lhs, rhs))
            return sp.Equivalent(a, b) if name == "Eq" else sp.Not(sp.Equivalent(a, b))
        if lhs.is_fn or rhs.is_fn or ty.kind in ("Matrix", "Fun"):
            eq = self.equal_values(lhs, rhs)
            if name == "Eq":
                return eq
            if name == "Ne":
                return sp.Not(eq)
            raise Untranslatable(f"order on {ty}")
        a, b = lhs.expr, rhs.expr
        if name == "Eq":
            return sp.Eq(a, b)
        if name == "Ne":
            return sp.Ne(a, b)
        if ty.kind == "Complex":
            raise Untranslatable("order on ℂ")
        if name == "LT.lt":
            return sp.Lt(a, b)
        return sp.Le(a, b)

    def relation_type(self, term: T.App, env: Env) -> Ty:
        """The type both sides of a relation are elaborated at (``binrel%``)."""
        annotated = self.try_type(term.ty, env) if term.ty is not None else None
        return annotated or self.tree_type(
            self._leaves(term.args[0]) + self._leaves(term.args[1]), env, None)

    def equal_values(self, lhs: Value, rhs: Value) -> sp.Basic:
        if not lhs.is_fn and not rhs.is_fn:
            return sp.Eq(lhs.expr, rhs.expr)
        ty = lhs.ty if lhs.ty is not None and lhs.ty.is_array else rhs.ty
        return V.ArrayEq(self.tabulated(lhs, ty), self.tabulated(rhs, ty))

    def tabulated(self, value: Value, ty: Ty | None) -> sp.Basic:
        if not value.is_fn:
            return value.expr
        if isinstance(value.fn, ArrayFn):
            return self.as_matrix(value)
        if ty is None or not ty.is_array:
            raise Untranslatable("equality of functions with unknown domains")
        lam = self.materialize(Value(fn=value.fn, ty=ty))
        sizes = [self.domain_size(d) for d in ty.domains()]
        return V.Tabulate(lam, sp.Tuple(*sizes))

    def domain_size(self, ty: Ty) -> sp.Basic:
        if ty.kind == "Fin":
            return ty.args[0]
        if ty.kind == "Nat":
            return NAT_DOMAIN
        raise Untranslatable(f"functions on {ty}")

    def prop(self, term: T.Term, env: Env) -> sp.Basic:
        """Translate a proposition to a sympy boolean."""
        if isinstance(term, T.Pi):
            return self._pi_prop(term, env)
        value = self.elab(term, env, PROP)
        if value.ty is not None and value.ty.kind not in ("Prop", "Bool"):
            raise Untranslatable("a non-proposition in a proposition position", str(value.expr))
        if value.is_fn:
            raise Untranslatable("a predicate used as a proposition")
        if not is_logical(value.expr):
            return V.Holds(value.expr)  # a Bool/Prop variable or array entry read as data
        return value.expr

    def _pi_prop(self, term: T.Pi, env: Env) -> sp.Basic:
        binders = list(term.binders)
        body = term.body
        if not binders:
            return self.prop(body, env)
        first, rest = binders[0], binders[1:]
        remainder = T.Pi(tuple(rest), body) if rest else body
        if first.type is not None and (is_prop_type(first.type) or first.name == "_"
                                       and not is_type_term(first.type)):
            return sp.Implies(self.prop(first.type, env), self.prop(remainder, env))
        if first.type is None:
            ty = self.infer_binder_type(first.name, remainder, env)
        else:
            ty = self.type_of(first.type, env)
        # `∀ x ∈ s, p`: the next premise bounds x
        bound = None
        if isinstance(remainder, T.Pi) and remainder.binders:
            premise = remainder.binders[0]
            bound = bound_of(self, first.name, premise.type, env, ty)
            if bound is not None:
                lo, hi, cond = bound
                inner_rest = remainder.binders[1:]
                inner = T.Pi(tuple(inner_rest), remainder.body) if inner_rest else remainder.body
                return self.fin_quant(V.FinAll, first.name, ty, lo, hi, cond, inner, env)
        lo, hi = self.type_range(ty)
        return self.fin_quant(V.FinAll, first.name, ty, lo, hi, None, remainder, env)

    def fin_quant(self, cls, name, ty, lo, hi, cond, body_t, env) -> sp.Basic:
        var = fresh(name, ty)
        inner_env = env.extend(**{name: Value(var, ty)})
        body = self.prop(body_t, inner_env)
        if cond is not None:
            c = cond(var)
            body = sp.Implies(c, body) if cls is V.FinAll else sp.And(c, body)
        return cls(sp.Lambda(var, body), lo, hi)

    def type_range(self, ty: Ty) -> tuple[sp.Basic, sp.Basic]:
        if ty.kind == "Fin":
            return sp.Integer(0), ty.args[0]
        if ty.kind == "Nat":
            return sp.Integer(0), NAT_DOMAIN
        raise Untranslatable(f"a quantifier over {ty}", "only ℕ and Fin n are finite here")

