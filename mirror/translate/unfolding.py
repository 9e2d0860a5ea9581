"""Unfolding: the project's own definitions, where a statement uses them.

A definition applied to all its explicit parameters is unfolded: its arguments are bound to
its parameters (named arguments, unification of implicit dimensions, late typing of
lambdas), then

- when it has a NumPy implementation and the run does not unfold bound definitions, it
  becomes a :class:`~mirror.translate.vocabulary.BoundCall`;
- when it is not recursive, its body is elaborated in place;
- when its equations are a fold on ℕ (``| 0 => base | n + 1 => step`` calling itself on
  ``n`` only), it is a :class:`~mirror.translate.vocabulary.Recursion`;
- any other recursion — well-founded, on several arguments, mutual (the definitions that
  reach each other through their bodies) — is a *system* of member bodies over their
  parameters, evaluated at run time with a step budget (:mod:`mirror.evaluate.recursion`).
"""

from __future__ import annotations

import sympy as sp
from sympy.core.symbol import Str

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate import vocabulary as V
from mirror.translate.recursive_nodes import call_node, eval_node
from mirror.translate.types import NAT, PROP, REAL, Ty
from mirror.translate.values import (
    DefFn,
    Env,
    Known,
    MemberSignature,
    RecursiveStep,
    RecursiveSystem,
    Unbound,
    Untranslatable,
    Value,
    drop_pis,
    fresh,
    is_prop_type,
    post_colon_params,
)

#: Arguments with the environment each is elaborated in.
Args = list[tuple[T.Term, Env]]
#: Definitions unfolded inside each other past which a term is untranslatable (a definition
#: that unfolds into itself would otherwise exhaust Python's stack).
MAX_UNFOLDING = 40


class Unfolding:
    """Mixed into the translator next to :class:`~mirror.translate.elaborator.Elaborator`."""

    declarations: dict[str, Declaration]
    bound: set[str]
    unfold_bound: bool
    used_bound: set[str]
    #: Definitions being unfolded inside each other, and whether their limit was passed.
    _unfolding: int
    _too_deep: bool
    #: name → the project definitions it reaches / the recursive system it belongs to.
    _reaches: dict[str, frozenset[str]]
    _systems: dict[str, tuple[sp.Tuple, dict[str, MemberSignature]]]

    def _explicit_params(self, decl: Declaration) -> list[T.Binder]:
        return [b for b in decl.binders if b.info == "default"]

    def _apply_def(self, decl: Declaration, args: Args, expected: Ty | None) -> Value:
        """``decl`` applied to ``args``: a partial application, a bound call, the unfolded
        body, or a recursion."""
        named = [(a, e) for a, e in args if _is_named(a)]
        args = [(a, e) for a, e in args if not _is_named(a)]
        params = self._explicit_params(decl)
        if len(args) < len(params):
            return Value(fn=DefFn(decl, tuple(named + args)))
        if self._unfolding >= MAX_UNFOLDING or self._too_deep:
            # sticky until the outermost unfolding returns: the probes that catch
            # Untranslatable (the type of a leaf, of a lambda) must not retry each level
            self._too_deep = True
            raise Untranslatable("deeply nested term", f"more than {MAX_UNFOLDING} definitions "
                                 f"unfolded inside each other (at {decl.name})")
        self._unfolding += 1
        try:
            return self._unfold(decl, params, named, args, expected)
        finally:
            self._unfolding -= 1
            if not self._unfolding:
                self._too_deep = False

    def _unfold(self, decl: Declaration, params: list[T.Binder], named: Args, args: Args,
                expected: Ty | None) -> Value:
        def_env = Env()
        self._bind_named(decl, named, def_env)
        values = self._bind_params(decl, params, args[: len(params)], def_env)
        extra = args[len(params):]
        post = post_colon_params(decl.type)
        if decl.name in self.bound and not self.unfold_bound and len(extra) >= len(post):
            return self._bound_call(decl, values, extra, def_env, expected)
        cycle = self._cycle(decl.name)
        if decl.value is not None and not cycle:
            return self._unfold_body(decl, def_env, extra, expected)
        if decl.equations and len(cycle) <= 1:
            try:
                return self._recursion(decl, def_env, extra, expected)
            except Untranslatable:
                pass  # not a fold on ℕ: the general evaluation below
        if decl.value is not None or decl.equations:
            return self._apply_system(decl, values, extra, expected)
        raise Unbound(decl.name)

    def _bind_named(self, decl: Declaration, named: Args, def_env: Env) -> None:
        """Named arguments ``(S := e)`` for implicit parameters, into ``def_env``."""
        for (arg, arg_env) in named:
            name, value_t = arg.args[0].value, arg.args[1]
            binder = next((b for b in decl.binders if b.name == name), None)
            if binder is None:
                raise Untranslatable(f"named argument ({name} := …)",
                                     f"{decl.name} has no parameter {name}")
            if binder.info == "default":
                raise Untranslatable(f"named argument ({name} := …) for an explicit parameter")
            bty = self.try_type(binder.type, def_env)
            if bty is not None and bty.kind in ("Sort",):
                raise Untranslatable(f"named type argument ({name} := …)")
            def_env[name] = self.elab(value_t, arg_env, bty or NAT)

    def _bind_params(self, decl: Declaration, params: list[T.Binder], args: Args,
                     def_env: Env) -> list[Value]:
        """The explicit arguments elaborated at their parameters' types, bound in ``def_env``;
        implicit parameters (dimensions, type variables) are solved from them on the way."""
        implicit = {b.name for b in decl.binders if b.info != "default"}
        values: list[Value] = []
        for binder, (arg, arg_env) in zip(params, args):
            pty = None
            if binder.type is not None and not _mentions_unsolved(binder.type, implicit, def_env):
                pty = self.try_type(binder.type, def_env)
            if is_prop_type(binder.type):
                values.append(Value(sp.true, PROP))
                def_env[binder.name] = values[-1]
                continue
            value = self.elab(arg, arg_env, pty)
            if pty is None and binder.type is not None:
                if value.is_fn and value.ty is None:
                    value = Value(fn=value.fn,
                                  ty=self._infer_fn_type(value, binder.type, def_env))
                self._unify(binder.type, value.ty, def_env, implicit)
                pty = self.try_type(binder.type, def_env)
            if pty is not None and not value.is_fn:
                value = self.coerce(value, pty)
            if pty is not None and value.is_fn and value.ty is None:
                value = Value(fn=value.fn, ty=pty)
            values.append(value)
            def_env[binder.name] = value
        # a lambda met before the dimensions it ranges over were solved takes its type now
        for index, (binder, value) in enumerate(zip(params, values)):
            if value.is_fn and value.ty is None and binder.type is not None:
                late = self.try_type(binder.type, def_env)
                if late is not None:
                    values[index] = def_env[binder.name] = Value(fn=value.fn, ty=late)
        return values

    def _bound_call(self, decl: Declaration, values: list[Value], extra: Args, def_env: Env,
                    expected: Ty | None) -> Value:
        """A call of the NumPy implementation bound to ``decl``. Explicit parameters after the
        colon are the implementation's too (proofs are not)."""
        self.used_bound.add(decl.name)
        post = post_colon_params(decl.type)
        values = list(values)
        for binder, (arg, arg_env) in zip(post, extra[: len(post)]):
            if is_prop_type(binder.type):
                continue
            pty = self.try_type(binder.type, def_env)
            value = self.elab(arg, arg_env, pty)
            if pty is not None and not value.is_fn:
                value = self.coerce(value, pty)
            values.append(value)
            def_env[binder.name] = value
        result_ty = self._declared_type(drop_pis(decl.type, len(post)), def_env)
        exprs = [self.tabulated(v, v.ty) if v.is_fn else v.expr for v in values]
        call = V.BoundCall(sp.Symbol(decl.name), sp.Tuple(*self._dims_of(decl, def_env)), *exprs)
        return self.apply(Value.of(call, result_ty), extra[len(post):], expected)

    def _unfold_body(self, decl: Declaration, def_env: Env, extra: Args,
                     expected: Ty | None) -> Value:
        """``decl``'s body in ``def_env``, at its declared result type, applied to ``extra``."""
        result_ty = self._declared_type(decl.type, def_env)
        result = self.elab(decl.value, def_env, result_ty)
        if result_ty is not None and not result.is_fn and result.ty is not None \
                and result_ty.is_numeric:
            result = self.coerce(result, result_ty)
        if result.is_fn and result.ty is None and result_ty is not None:
            result = Value(fn=result.fn, ty=result_ty)
        return self.apply(result, extra, expected)

    def _declared_type(self, term: T.Term | None, def_env: Env) -> Ty | None:
        """A definition's declared result type, or ``None`` where it declares none. A type
        that is declared but cannot be read (``ZMod (2 ^ p - 1)``, a type variable the
        arguments leave unsolved) raises: the body's arithmetic is that type's, so reading it
        at a default type (ℕ) would be a guess."""
        if term is None:
            return None
        return self.type_of(term, def_env)

    def _dims_of(self, decl: Declaration, def_env: Env) -> list[sp.Basic]:
        """Values of the implicit ℕ binders (dimensions) of a bound definition, in order."""
        dims = []
        for binder in decl.binders:
            if binder.info == "default":
                continue
            found = def_env.get(binder.name)
            if isinstance(found, Value) and found.expr is not None:
                dims.append(found.expr)
            elif isinstance(found, Ty) and found.kind == "Fin":
                dims.append(found.args[0])
        return dims


    def _unify(self, pattern: T.Term, ty: Ty | None, env: Env, implicit: set[str]) -> None:
        """Solve implicit binders of ``pattern`` (a Lean type) against the argument type ``ty``."""
        if ty is None:
            return
        if isinstance(pattern, T.Const) and pattern.name in implicit:
            pattern = T.Var(pattern.name)
        if isinstance(pattern, T.Var) and pattern.name in implicit and pattern.name not in env:
            env[pattern.name] = ty
            return
        if isinstance(pattern, T.Pi) and ty.kind in ("Fun", "Matrix"):
            doms = ty.domains()
            binders = pattern.binders
            for binder, dom in zip(binders, doms):
                self._unify(binder.type, dom, env, implicit)
            rest = ty.apply(min(len(binders), len(doms)))
            self._unify(pattern.body, rest, env, implicit)
            return
        if isinstance(pattern, T.App) and isinstance(pattern.fn, T.Const):
            name = pattern.fn.name
            if name == "Fin" and ty.kind == "Fin":
                arg = pattern.args[0]
                if isinstance(arg, T.Const) and arg.name in implicit:
                    arg = T.Var(arg.name)
                if isinstance(arg, T.Var) and arg.name in implicit and arg.name not in env:
                    env[arg.name] = Value(ty.args[0], NAT)
                    return
                self._solve_dimension(arg, ty.args[0], env, implicit)
                return
            if name == "Matrix" and ty.kind == "Matrix":
                for sub, sub_ty in zip(pattern.args, ty.args):
                    self._unify(sub, sub_ty, env, implicit)

    def _solve_dimension(self, pattern: T.Term, size: sp.Basic, env: Env, implicit: set[str]):
        """Solve ``Fin (I + I)`` against ``Fin n``: one unknown dimension, by sympy."""
        unknown = sorted(
            {n.name for n in T.walk(pattern) if isinstance(n, (T.Var, T.Const))
             and n.name in implicit and n.name not in env}
        )
        if len(unknown) != 1:
            return
        symbol = sp.Dummy(unknown[0], integer=True, nonnegative=True)
        trial = Env(env)
        trial[unknown[0]] = Value(symbol, NAT)
        try:
            expr = self.scalar(pattern, trial, NAT)
        except Untranslatable:
            return
        solutions = sp.solve(sp.Eq(expr, size), symbol, dict=False)
        if len(solutions) == 1:
            env[unknown[0]] = Value(sp.simplify(solutions[0]), NAT)

    def _recursion(
        self, decl: Declaration, def_env: Env, extra: list, expected: Ty | None
    ) -> Value:
        """Structural recursion on ℕ: equations ``| 0, … => base`` and ``| t + 1, … => step``."""
        if not extra:
            raise Untranslatable(f"recursive definition {decl.name}", "applied to too few arguments")
        base_eq = step_eq = None
        for eq in decl.equations:
            head = eq.patterns[0] if eq.patterns else None
            if isinstance(head, T.Lit) and head.value == 0:
                base_eq = eq
            elif (
                isinstance(head, T.App)
                and isinstance(head.fn, T.Const)
                and head.fn.name == "HAdd.hAdd"
                and isinstance(head.args[0], T.Var)
                and head.args[1] == T.Lit(1)
            ):
                step_eq = eq
        if base_eq is None or step_eq is None:
            raise Untranslatable(
                f"recursive definition {decl.name}",
                "only structural recursion on ℕ with `| 0 => …` and `| n + 1 => …` is supported",
            )
        n_term, n_env = extra[0]
        n_value = self.scalar(n_term, n_env, NAT)
        value_ty = self._declared_type(decl.type, def_env)
        if isinstance(decl.type, T.Pi):
            value_ty = self._declared_type(drop_pis(decl.type, len(base_eq.patterns)), def_env)
        base_env = Env(def_env)
        base = self.elab(base_eq.rhs, base_env, value_ty)
        t_name = step_eq.patterns[0].args[0].name
        t_sym = fresh(t_name, NAT)
        prev = fresh("prev", value_ty or REAL)
        step_env = Env(def_env)
        step_env[t_name] = Value(t_sym, NAT)
        step_env.recursion = RecursiveStep(
            decl.name, Value.of(prev, value_ty),
            tuple(b.name for b in self._explicit_params(decl)), _extra_prop_args(decl), t_name)
        for pattern in step_eq.patterns[1:]:
            if isinstance(pattern, T.Var):
                step_env[pattern.name] = Value(sp.true, PROP)
        step = self.elab(step_eq.rhs, step_env, value_ty)
        base_expr = self.materialize(base) if base.is_fn else base.expr
        step_expr = self.materialize(step) if step.is_fn else step.expr
        node = V.Recursion(base_expr, sp.Lambda((t_sym, prev), step_expr), n_value)
        rest = extra[1 + max(0, len(base_eq.patterns) - 1):]
        return self.apply(Value.of(node, value_ty), rest, expected)

    def _recursive_call(self, step: RecursiveStep | RecursiveSystem, name: str, args, env: Env,
                        expected) -> Value:
        """``f params t`` inside the step of ``f``'s recursion: the previous value; a call of
        a member inside a recursive system's body: a :class:`RecursiveCall`."""
        if isinstance(step, RecursiveSystem):
            return self._member_call(step, name, [(a, env) for a in args], expected)
        for arg, pname in zip(args, step.params):
            if arg != T.Var(pname):
                raise Untranslatable(
                    f"recursive call of {step.name}",
                    "only recursion with unchanged parameters is supported",
                )
        if len(args) <= len(step.params) or args[len(step.params)] != T.Var(step.argument):
            raise Untranslatable(f"recursive call of {step.name}",
                                 "a fold on ℕ calls itself on the predecessor only")
        skip = len(step.params) + 1 + step.extra_proofs
        return self.apply(step.previous, [(a, env) for a in args[skip:]], expected)

    # ---- general recursion: systems evaluated at run time -----------------------------------

    def _cycle(self, name: str) -> frozenset[str]:
        """The definitions recursive together with ``name`` (itself included), or nothing
        when ``name`` does not reach itself through the project's definitions."""
        if name not in self._reaches_of(name):
            return frozenset()
        return frozenset(m for m in self._reaches_of(name) if name in self._reaches_of(m))

    def _reaches_of(self, name: str) -> frozenset[str]:
        """The project definitions ``name``'s body mentions, transitively (a work list, not
        Python recursion)."""
        if name in self._reaches:
            return self._reaches[name]
        seen: set[str] = set()
        todo = list(_mentions(self.declarations[name], self.declarations))
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            todo.extend(_mentions(self.declarations[current], self.declarations))
        self._reaches[name] = frozenset(seen)
        return self._reaches[name]

    def _apply_system(self, decl: Declaration, values: list[Value], extra: Args,
                      expected: Ty | None) -> Value:
        """``decl`` applied, as a :class:`~mirror.translate.recursive_nodes.RecursiveEval` of its system:
        ``values`` are its explicit parameters before the colon, ``extra`` the rest."""
        system, signatures = self._system(decl)
        signature = signatures[decl.name]
        given = [(Known(v.expr, v.ty) if not v.is_fn else None, Env()) for v in values]
        if any(term is None for term, _ in given):
            raise Untranslatable(f"recursive definition {decl.name}",
                                 "a function passed as its parameter")
        exprs, rest = self._member_args(decl.name, signature, [*given, *extra])
        node = eval_node(decl.name, system, exprs, signature.truth)
        return self.apply(Value(node, signature.result), rest, expected)

    def _member_call(self, system: RecursiveSystem, name: str, args: Args,
                     expected: Ty | None) -> Value:
        signature = system.members[name]
        exprs, rest = self._member_args(name, signature, args)
        return self.apply(Value(call_node(name, exprs, signature.truth), signature.result), rest,
                          expected)

    def _member_args(self, name: str, signature: MemberSignature, args: Args):
        """The scalar arguments of a call of a system member (proofs dropped), and the rest."""
        arity = len(signature.params)
        if len(args) < arity:
            raise Untranslatable(f"recursive definition {name}", "applied to too few arguments")
        exprs = []
        for pty, (arg, arg_env) in zip(signature.params, args[:arity]):
            if pty is None:
                continue
            value = self.elab(arg, arg_env, pty)
            if value.is_fn:
                raise Untranslatable(f"recursive definition {name}",
                                     "a function passed as its parameter")
            exprs.append(self.coerce(value, pty).expr)
        return exprs, args[arity:]

    def _system(self, decl: Declaration) -> tuple[sp.Tuple, dict[str, MemberSignature]]:
        """The recursive system ``decl`` belongs to (its ``mutual`` block, or itself), built
        once per translator: each member's body as a ``Lambda`` over its parameters."""
        if decl.name in self._systems:
            return self._systems[decl.name]
        names = sorted(self._cycle(decl.name) or {decl.name})
        signatures = {n: self._signature(self.declarations[n]) for n in names}
        system = RecursiveSystem(signatures)
        entries = []
        for n in names:
            params, body = self._member_body(self.declarations[n], signatures[n], system)
            entries.append(sp.Tuple(Str(n), sp.Lambda(tuple(params), body),
                                    sp.true if signatures[n].truth else sp.false))
        built = (sp.Tuple(*entries), signatures)
        for n in names:
            self._systems[n] = built
        return built

    def _signature(self, decl: Declaration) -> MemberSignature:
        if any(b.info in ("implicit", "strictImplicit") for b in decl.binders):
            raise Untranslatable(f"recursive definition {decl.name}", "it has implicit parameters")
        binders = self._explicit_params(decl) + self._matched_params(decl)
        params = tuple(None if is_prop_type(b.type) else self._scalar_type(decl, b.type)
                       for b in binders)
        result = self._scalar_type(decl, drop_pis(decl.type, len(self._matched_params(decl))))
        return MemberSignature(params, result, result.kind in ("Prop", "Bool"))

    def _matched_params(self, decl: Declaration) -> list[T.Binder]:
        """The parameters after the colon that the equations match on."""
        count = len(decl.equations[0].patterns) if decl.equations else 0
        binders: list[T.Binder] = []
        rest = decl.type
        while len(binders) < count and isinstance(rest, T.Pi):
            binders.extend(rest.binders)
            rest = rest.body
        if len(binders) < count:
            raise Untranslatable(f"recursive definition {decl.name}",
                                 "its equations match more arguments than its type has")
        return binders[:count]

    def _scalar_type(self, decl: Declaration, term: T.Term | None) -> Ty:
        ty = self.try_type(term, Env())
        if ty is None or ty.is_array or not (ty.is_numeric or ty.kind in ("Prop", "Bool")):
            raise Untranslatable(f"recursive definition {decl.name}",
                                 f"only numbers and truth values are passed and returned, not {ty}")
        return ty

    def _member_body(self, decl: Declaration, signature: MemberSignature,
                     system: RecursiveSystem) -> tuple[list[sp.Dummy], sp.Basic]:
        """``decl``'s parameters as dummies and its body over them (equations as a chain of
        if-then-else, first match first, as Lean compiles them)."""
        env = Env()
        env.recursion = system
        binders = self._explicit_params(decl) + self._matched_params(decl)
        dummies, matched = [], []
        for index, (binder, pty) in enumerate(zip(binders, signature.params)):
            value = Value(sp.true, PROP) if pty is None else Value(fresh(binder.name, pty), pty)
            if pty is not None:
                dummies.append(value.expr)
            if index < len(self._explicit_params(decl)):
                env[binder.name] = value
            else:
                matched.append(value)
        if decl.value is not None:
            return dummies, self._member_rhs(decl.value, env, signature)
        branches = []
        for equation in decl.equations:
            conditions: list[sp.Basic] = []
            bindings: dict[str, Value] = {}
            for pattern, value in zip(equation.patterns, matched):
                _match(decl.name, pattern, value, conditions, bindings)
            rhs = self._member_rhs(equation.rhs, env.extend(**bindings), signature)
            branches.append((sp.And(*conditions), rhs))
        body = branches[-1][1]  # Lean checked that the equations cover every case
        for condition, rhs in reversed(branches[:-1]):
            body = (V.PropIte if signature.truth else V.LeanIte)(condition, rhs, body)
        return dummies, body

    def _member_rhs(self, term: T.Term, env: Env, signature: MemberSignature) -> sp.Basic:
        if signature.truth:
            return self.prop(term, env)
        value = self.elab(term, env, signature.result)
        if value.is_fn:
            raise Untranslatable("a recursive definition whose value is a function")
        return self.coerce(value, signature.result).expr


def _mentions_unsolved(term: T.Term, implicit: set[str], env: Env) -> bool:
    return any(
        isinstance(node, T.Var) and node.name in implicit and node.name not in env
        for node in T.walk(term)
    )


def _is_named(term: T.Term) -> bool:
    return (isinstance(term, T.App) and isinstance(term.fn, T.Const)
            and term.fn.name == T.NAMED_ARGUMENT and len(term.args) == 2)


def _extra_prop_args(decl: Declaration) -> int:
    """Proof arguments right after the recursion argument (``gdnState … t h``)."""
    count = 0
    rest = decl.type
    first = True
    while isinstance(rest, T.Pi):
        for binder in rest.binders:
            if first:
                first = False
                continue
            if not is_prop_type(binder.type):
                return count
            count += 1
        rest = rest.body
    return count


def _mentions(decl: Declaration, declarations: dict[str, Declaration]) -> set[str]:
    """The project definitions ``decl``'s body or equations mention."""
    terms = [decl.value] if decl.value is not None else [eq.rhs for eq in decl.equations]
    return {name for term in terms for name in T.constants(term) if name in declarations}


def _match(name: str, pattern: T.Term, value: Value, conditions: list, bindings: dict) -> None:
    """A pattern of an equation against the parameter ``value``: the conditions under which
    it matches (appended) and the variables it binds (added). ``n + k`` matches ``value ≥ k``
    on ℕ and binds ``n`` to ``value - k``."""
    if isinstance(pattern, T.Var):
        bindings[pattern.name] = value
        return
    if isinstance(pattern, T.Hole):
        return
    if isinstance(pattern, T.Const) and pattern.name == "Nat.zero":
        pattern = T.Lit(0)
    if isinstance(pattern, T.Lit) and isinstance(pattern.value, int):
        conditions.append(sp.Eq(value.expr, pattern.value))
        return
    if isinstance(pattern, T.App) and isinstance(pattern.fn, T.Const) and value.ty.kind == "Nat":
        inner = None
        if pattern.fn.name == "Nat.succ" and len(pattern.args) == 1:
            inner, k = pattern.args[0], 1
        elif (pattern.fn.name == "HAdd.hAdd" and len(pattern.args) == 2
              and isinstance(pattern.args[1], T.Lit) and isinstance(pattern.args[1].value, int)):
            inner, k = pattern.args[0], pattern.args[1].value
        if inner is not None:
            conditions.append(sp.Ge(value.expr, k))
            _match(name, inner, Value(value.expr - k, value.ty), conditions, bindings)
            return
    raise Untranslatable(f"pattern {pattern} in the equations of {name}")
