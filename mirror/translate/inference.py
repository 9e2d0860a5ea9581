"""Types of untyped binders, as Lean's elaborator would find them.

A mixin of :class:`mirror.translate.elaborator.Elaborator`. An untyped binder takes the index
type of the first function it is an argument of (an array's index type, a project
definition's parameter type with the implicit parameters solved from the arguments before
it: ``softmax x i`` with ``x : Fin n → ℝ`` makes ``i : Fin n``), else the type
``binop%``/``binrel%`` unification gives it among the leaves of arithmetic and relations,
else ℕ when its only company there is numerals (Lean's default instance for numerals).
Otherwise nothing is guessed: :class:`~mirror.translate.values.UnknownType`.
"""

from __future__ import annotations

from typing import Iterator

from bridge import term as T
from mirror.translate.binder_types import (BIG_OPERATORS, INTERVALS, NAT_ARGUMENTS,
                                           among_numerals)
from mirror.translate.lean_terms import is_call
from mirror.translate.number_theory import DVD
from mirror.translate.types import NAT, Ty, numeric_max
from mirror.translate.values import (
    ARITH,
    RELATIONS,
    DefFn,
    Env,
    UnknownType,
    Untranslatable,
    Value,
    is_named,
    is_type_term,
)


#: Predicates ``α → α → Prop`` written as plain infix notation (not ``binrel%``): their two
#: arguments have one type, so an untyped leaf of one side takes the other side's type
#: (``p ^ 2 ∣ c`` with ``c : ℕ`` makes ``p : ℕ``).
_HOMOGENEOUS = frozenset({"Dvd.dvd", DVD})


class Inference:
    """Binder-type inference; the elaborating methods come from the class it is mixed into."""

    def infer_binder_type(self, name: str, body: T.Term, env: Env) -> Ty:
        """The type of an untyped binder from the first function it is an argument of.

        The function applied to the arguments before it is elaborated once; the domain of
        what comes out is the binder's type (an array's index type, a definition's
        parameter or result domain)."""
        found = self._applied_type(name, body, env)
        if found is not None:
            return found
        found = self._index_type(name, body, env)
        if found is not None:
            return found
        found = self._unified_type(name, body, env)
        if found is not None:
            return found
        if among_numerals(name, body):
            return NAT
        raise UnknownType(name, "no use of it in the statement fixes one")

    def _applied_type(self, name: str, body: T.Term, env: Env) -> Ty | None:
        """The domain of the first function ``name`` is an argument of, or ``None``."""
        for node in T.walk(body):
            if not isinstance(node, T.App):
                continue
            for position, arg in enumerate(node.args):
                if arg != T.Var(name):
                    continue
                if isinstance(node.fn, T.Const) and (node.fn.name in ARITH
                                                     or node.fn.name in RELATIONS):
                    continue
                head = T.App(node.fn, node.args[:position]) if position else node.fn
                if name in T.free_vars(head):
                    continue
                try:
                    value = self.elab(head, env, None)
                except (Untranslatable, ValueError, TypeError, IndexError):
                    continue  # a probe: special forms applied to too few arguments
                ty = value.ty
                if ty is None and value.is_fn:
                    domain = self._next_domain(value)
                    if domain is not None:
                        return domain
                if ty is not None and ty.is_array:
                    return ty.domains()[0]
        return None

    def _index_type(self, name: str, body: T.Term, env: Env) -> Ty | None:
        """The type an untyped binder takes as an argument of a function of naturals
        (``Finset.range n``, ``n !``) or as an endpoint of an interval (``Finset.Icc a b``:
        one type ``α`` for both endpoints): the other endpoint's type, else the type of the
        binder of the sum or product the interval is the range of, when written or fixed by an
        application (``∑ i ∈ Icc 1 n, a i`` with ``a : ℕ → ℝ`` makes ``i``, so ``n``,
        natural)."""
        var = T.Var(name)
        for node in T.walk(body):
            if is_call(node, *NAT_ARGUMENTS) and var in node.args:
                return NAT
            if not (is_call(node, *BIG_OPERATORS) and len(node.args) == 2
                    and is_call(node.args[0], *INTERVALS) and var in node.args[0].args
                    and isinstance(node.args[1], T.Lam) and len(node.args[1].binders) == 1):
                continue
            for other in node.args[0].args:
                if name not in T.free_vars(other):
                    ty = self._leaf_type(other, env)
                    if ty is not None and ty.is_numeric:
                        return ty
            lam = node.args[1]
            binder = lam.binders[0]
            if binder.name == name:
                continue
            if binder.type is not None:
                ty = self.try_type(binder.type, env)
                if ty is not None and ty.is_numeric:
                    return ty
                continue
            # only what an application fixes: a numeral default of the binder would be a guess
            # (the sum's own uses may type the interval, ``∑ … = (k : ℤ)``)
            ty = self._applied_type(binder.name, lam.body, env)
            if ty is not None and ty.is_numeric:
                return ty
        return None

    def _unified_type(self, name: str, body: T.Term, env: Env) -> Ty | None:
        """The type Lean's ``binop%``/``binrel%`` elaboration gives an untyped binder that is a
        leaf of arithmetic or a relation: the largest type of the other leaves of that tree (``r``
        in ``a i = r * b i`` is real); ``None`` when no leaf has one (numerals default to ℕ).

        Each tree is elaborated on its own, and the first one Lean elaborates fixes the binder's
        type for the others (``x < k ∧ u = x`` with ``k : ℕ``, ``u : ℝ`` makes ``x`` natural and
        coerces it in ``u = ↑x``). Which one comes first depends on postponement, so trees that
        disagree raise :class:`UnknownType`: the binder stays untyped rather than guessed."""
        found = {ty for ty in self._use_types(name, body, env) if ty is not None}
        if len(found) > 1:
            raise UnknownType(name, "its uses in the statement give it different types ("
                              + ", ".join(sorted(map(str, found))) + "), and which one Lean "
                              "takes depends on the order it elaborates them in; ascribe it")
        return found.pop() if found else None

    def _use_types(self, name: str, term: T.Term, env: Env,
                   ascribed: Ty | None = None) -> Iterator[Ty | None]:
        """The type of each ``binop%`` tree of ``term`` that has ``name`` among its leaves (the
        largest type of its leaves and of an ascription ``(e : ℝ)`` around it)."""
        if isinstance(term, T.Typed):
            ty = self.try_type(term.type, env)
            yield from self._use_types(name, term.expr, env,
                                       ty if ty is not None and ty.is_numeric else None)
            return
        leaves: list[T.Term] | None = None
        if isinstance(term, T.App) and isinstance(term.fn, T.Const):
            if term.fn.name in RELATIONS or term.fn.name in _HOMOGENEOUS:
                leaves = [leaf for arg in term.args for leaf in self._leaves(arg)]
            elif term.fn.name in ARITH:
                leaves = self._leaves(term)
        if leaves is None:
            if ascribed is not None and term == T.Var(name):
                yield ascribed
            for child in T.children(term):
                yield from self._use_types(name, child, env)
            return
        if T.Var(name) in leaves:
            found = ascribed
            for leaf in leaves:
                if name not in T.free_vars(leaf):
                    ty = self._leaf_type(leaf, env)
                    if ty is not None and ty.is_numeric:
                        found = numeric_max(found, ty)
            yield found
        for leaf in leaves:
            if isinstance(leaf, T.Typed):
                yield from self._use_types(name, leaf, env)
            elif leaf != T.Var(name):
                for child in T.children(leaf):
                    yield from self._use_types(name, child, env)

    def _leaf_type(self, leaf: T.Term, env: Env) -> Ty | None:
        """A leaf's type without elaborating variables bound inside the body: ``b i`` has
        the codomain of ``b``."""
        probe = leaf
        count = 0
        while isinstance(probe, T.App) and not T.free_vars(probe).issubset(env.keys()):
            probe, count = probe.fn, count + len(probe.args)
        try:
            ty = self._synth(probe, env)
        except (Untranslatable, ValueError, TypeError, IndexError, KeyError):
            return None
        if ty is not None and count:
            return ty.apply(count) if ty.is_array and ty.arity() >= count else None
        return ty

    def _next_domain(self, value: Value) -> Ty | None:
        """The type of the next argument of a function value: a partly applied definition's
        next parameter (its implicit parameters solved from the arguments given so far), or a
        lambda's first binder."""
        fnv = value.fn
        if isinstance(fnv, DefFn):
            return self._next_param_type(fnv)
        ty = self._infer_fn_type(value)
        return ty.domains()[0] if ty is not None and ty.is_array else None

    def _next_param_type(self, fnv: DefFn) -> Ty | None:
        params = self._explicit_params(fnv.decl)
        named = [(a, e) for a, e in fnv.args if is_named(a)]
        given = [(a, e) for a, e in fnv.args if not is_named(a)]
        if len(given) >= len(params) or not is_type_term(params[len(given)].type):
            return None
        def_env = Env()
        try:
            self._bind_named(fnv.decl, named, def_env)
            self._bind_params(fnv.decl, params[: len(given)], given, def_env)
        except Untranslatable:
            return None
        return self.try_type(params[len(given)].type, def_env)
