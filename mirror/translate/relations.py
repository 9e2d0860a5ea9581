"""Relations and propositions: ``binrel%``, ``∀`` as a Pi type, and quantifiers over finite
domains.

A mixin of :class:`mirror.translate.elaborator.Elaborator`. A relation elaborates both sides
at one type (the largest of their leaves); equality of functions compares their tables; a
``∀`` over ``Fin n`` or ``ℕ`` becomes :class:`~mirror.translate.vocabulary.FinAll` over its
range (ℕ cut at the sampling bound, which :mod:`mirror.evaluate.polarity` accounts for).
"""

from __future__ import annotations

import sympy as sp

from bridge import term as T
from mirror.translate import vocabulary as V
from mirror.translate.finsets import bound_of
from mirror.translate.identities import IDENTITY_CARRIERS, coefficient_equations
from mirror.translate.types import PROP, Ty
from mirror.translate.values import (
    NAT_DOMAIN,
    ArrayFn,
    Env,
    Untranslatable,
    Value,
    fresh,
    is_logical,
    is_prop_type,
    is_type_term,
)


#: Lean's relation → sympy's (``GT``/``GE`` are flipped to these first).
_RELATIONS = {"Eq": sp.Eq, "Ne": sp.Ne, "LT.lt": sp.Lt, "LE.le": sp.Le}
#: A closed relation whose sides have more nodes than this is built unevaluated: sympy's own
#: evaluation of it (``evalf`` of nested radicals, say ``cos (k * π / 180)`` for 89 values
#: of ``k``) can run for minutes. The later stages decide it (exactly, or in Arb balls).
LARGE_CLOSED = 400


def _large_closed(a: sp.Basic, b: sp.Basic) -> bool:
    """Whether ``a`` and ``b`` are both closed and together exceed :data:`LARGE_CLOSED` nodes."""
    if a.free_symbols or b.free_symbols:
        return False
    nodes = 0
    for side in (a, b):
        for _ in sp.preorder_traversal(side):
            nodes += 1
            if nodes > LARGE_CLOSED:
                return True
    return False


class Relations:
    """Relations and propositions; the elaborating methods come from the elaborator."""

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
        if ty.kind == "Complex" and name not in ("Eq", "Ne"):
            raise Untranslatable("order on ℂ")
        return _RELATIONS[name](a, b, evaluate=not _large_closed(a, b))

    def relation_type(self, term: T.App, env: Env) -> Ty:
        """The type both sides of a relation are elaborated at (``binrel%``)."""
        annotated = self.try_type(term.ty, env) if term.ty is not None else None
        return annotated or self.tree_type(
            self._leaves(term.args[0]) + self._leaves(term.args[1]), env, None)

    def equal_values(self, lhs: Value, rhs: Value) -> sp.Basic:
        if not lhs.is_fn and not rhs.is_fn:
            return sp.Eq(lhs.expr, rhs.expr)
        ty = lhs.ty if lhs.ty is not None and lhs.ty.is_array else rhs.ty
        a, b = self.tabulated(lhs, ty), self.tabulated(rhs, ty)
        domains = ty.domains() if ty is not None and ty.is_array else []
        if any(d.kind == "Nat" for d in domains[1:]):
            raise Untranslatable("equality of functions of ℕ in an inner argument")
        if domains and domains[0].kind == "Nat":
            # two functions of ℕ agree on the sampled prefix: a ∀ over ℕ, truncated like one
            index = fresh("n", domains[0])
            return V.FinAll(sp.Lambda(index, V.ArrayEq(V.Index(a, index), V.Index(b, index))),
                            sp.Integer(0), NAT_DOMAIN)
        return V.ArrayEq(a, b)

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
        if ty.kind in IDENTITY_CARRIERS:
            # ``∀ x : ℝ, p x = q x`` between polynomials: its coefficients' equations
            var = fresh(first.name, ty)
            try:
                body = self.prop(remainder, env.extend(**{first.name: Value(var, ty)}))
            except Untranslatable:
                body = None  # then the quantifier is what cannot be translated, said below
            identity = None if body is None else coefficient_equations(body, var)
            if identity is not None:
                return identity
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
