"""Translation: normalized Lean terms → sympy, keeping Lean's semantics exactly.

The translator is an elaborator in miniature, in four parts:

- :mod:`mirror.translate.elaborator` — the core: one ``_elab_<Node>`` per AST node kind, application,
  coercions, the typing of arithmetic trees (``binop%``/``binrel%``) and propositions;
- :mod:`mirror.translate.forms` — the special forms, one entry per Lean constant (binders, big
  operators, matrix operations); plain functions with fixed argument types are in
  :data:`mirror.translate.vocabulary.FUNCTIONS`;
- :mod:`mirror.translate.unfolding` — the project's own definitions, unfolded where they are used
  (bodies, structural recursion on ℕ as :class:`~mirror.translate.vocabulary.Recursion`, and
  :class:`~mirror.translate.vocabulary.BoundCall` for a definition bound to a NumPy implementation);
- :mod:`mirror.translate.values` — the values, environments and statements they share.

This module puts them together as :class:`Translator` and translates whole statements. An
unknown constant raises :class:`UnknownConstant`, which the report shows as
``untranslatable`` with the name.
"""

from __future__ import annotations

from typing import Iterable

import sympy as sp

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.big_operators import expansion_budget
from mirror.translate.elaborator import Elaborator
from mirror.translate.implicits import auto_bound
from mirror.translate.lean_terms import theorem_binders
from mirror.translate.number_theory import Definitions
from mirror.translate.types import NAT, Ty
from mirror.translate.forms import FORMS
from mirror.translate.unfolding import Unfolding
from mirror.translate.vocabulary import CONSTANTS, FUNCTIONS
from mirror.translate.values import (
    NAT_DOMAIN,
    ArrayFn,
    Closure,
    DefFn,
    Definition,
    Env,
    Statement,
    TableFn,
    Unbound,
    UnknownConstant,
    UnknownType,
    Untranslatable,
    Value,
    Variable,
    assumptions,
    drop_pis,
    is_prop_type,
    post_colon_params,
)

# the names other modules knew under this module (mirror.bind.registry reads the signature helpers)
_is_prop_type = is_prop_type
_post_colon_params = post_colon_params
_drop_pis = drop_pis


class Translator(Unfolding, Elaborator):
    """Lean terms → sympy. ``declarations`` are the project's (for unfolding); ``bound`` names
    the definitions that have a NumPy implementation (they become ``BoundCall``)."""

    def __init__(
        self,
        declarations: dict[str, Declaration],
        bound: Iterable[str] = (),
        unfold_bound: bool = False,
        table: dict | None = None,
    ) -> None:
        self.declarations = (declarations if isinstance(declarations, Definitions)
                             else Definitions(declarations))
        self.bound = set(bound)
        #: The binding table the bound names come from (read by the pipeline for domains).
        self.table = table if table is not None else {}
        self.unfold_bound = unfold_bound
        self.used_bound: set[str] = set()
        self._depth = 0
        self._unfolding = 0
        self._too_deep = False
        self._reaches: dict[str, frozenset[str]] = {}
        self._systems: dict = {}

    # ---- entry points -----------------------------------------------------------------------

    def translate_statement(self, decl: Declaration) -> Statement:
        """Translate a theorem's statement ``∀ binders, hyps → conclusion`` (finite
        expansions bounded: :func:`mirror.translate.big_operators.expansion_budget`)."""
        with expansion_budget():
            return self._translate_statement(decl)

    def _translate_statement(self, decl: Declaration) -> Statement:
        if decl.type is None:
            raise Untranslatable("statement", "the statement did not parse")
        self.used_bound = set()
        env = Env()
        variables: list[Variable] = []
        hyps: list[tuple[str, sp.Basic]] = []
        hyp_terms: list[tuple[str, T.Term]] = []
        hyp_envs: list[Env] = []
        binders, body = auto_bound(*theorem_binders(decl), self.is_constant, decl.statement_text)
        names = _unshadowed(binders)
        for index, binder in enumerate(binders):
            if binder.info == "instImplicit":
                _check_instance_binder(binder, env)
                continue
            if is_prop_type(binder.type) or (binder.name == "_" and binder.type is not None
                                              and is_prop_type(binder.type)):
                label = binder.name if binder.name != "_" else f"h{index}"
                hyps.append((label, self.prop(binder.type, env)))
                hyp_terms.append((label, binder.type))
                hyp_envs.append(Env(env))  # the binders in scope here (a later one may shadow)
                continue
            if binder.type is None:
                raise UnknownType(binder.name, "its type is not written and no use of it "
                                               "fixes one")
            ty = self.type_of(binder.type, env)
            if ty.kind in ("Sort", "TyVar", "Unknown"):
                raise Untranslatable(f"binder {binder.name} : {ty}", "type parameters are not drawn")
            # a shadowed binder keeps its own symbol, under the name Lean shows it by (`x✝`)
            symbol = sp.Symbol(names[index], **assumptions(ty))
            env[binder.name] = Value.of(symbol, ty)
            variables.append(
                Variable(names[index], ty, symbol, implicit=binder.info != "default")
            )
        conclusion = self.prop(body, env)
        definitions: list[Definition] = []
        for (label, hyp_term), hyp_env in zip(hyp_terms, hyp_envs):
            found = self._definition(label, hyp_term, hyp_env, variables, definitions)
            if found is not None:
                definitions.append(found)
        return Statement(decl.name, variables, hyps, conclusion, set(self.used_bound),
                         definitions=definitions)

    def is_constant(self, name: str) -> bool:
        """Whether ``name`` is a constant the translator or the project knows (also as the
        last component of one, which an ``open`` could make it)."""
        if name in self.declarations or name in FUNCTIONS or name in CONSTANTS or name in FORMS:
            return True
        suffix = "." + name
        return any(k.endswith(suffix) for table in (self.declarations, FUNCTIONS, CONSTANTS, FORMS)
                   for k in table)

    def _definition(self, label: str, hyp: T.Term, env: Env, variables: list[Variable],
                    earlier: list[Definition]) -> Definition | None:
        """``label : x = e`` (or ``e = x``) at ``x``'s own type, as a definition of ``x``.

        ``x`` must be a scalar, explicit variable that no type mentions (not a dimension),
        not defined already, absent from ``e`` and from the earlier definitions (so that
        computing the definitions in order gives each its final value). When both sides are
        variables, the later-declared one is defined from the earlier one."""
        if not (isinstance(hyp, T.App) and isinstance(hyp.fn, T.Const) and hyp.fn.name == "Eq"
                and len(hyp.args) == 2):
            return None
        # the variables the hypothesis's names denote in its scope (`env`)
        by_symbol = {v.symbol: v for v in variables}
        by_name = {name: by_symbol[value.expr] for name, value in env.items()
                   if isinstance(value, Value) and not value.is_fn and value.expr in by_symbol}
        position = {v.name: i for i, v in enumerate(variables)}
        dimensions = set()
        for var in variables:
            for dom in var.ty.domains() + [var.ty]:
                if dom.kind == "Fin":
                    dimensions |= {str(s) for s in dom.args[0].free_symbols}
        taken = {d.name for d in earlier}
        used = set().union(*(d.expr.free_symbols for d in earlier)) if earlier else set()
        sides = [(t, o) for t, o in (hyp.args, hyp.args[::-1])
                 if isinstance(t, (T.Var, T.Const)) and t.name in by_name]
        sides.sort(key=lambda pair: -position[by_name[pair[0].name].name])
        for target_t, other_t in sides:
            var = by_name[target_t.name]
            if (var.implicit or var.ty.is_array or not (var.ty.is_numeric or var.ty.kind == "Fin")
                    or var.name in dimensions or var.name in taken or var.symbol in used):
                continue
            try:
                ty = self.relation_type(hyp, env)
                if ty != var.ty:
                    continue
                value = self.arith(other_t, env, ty)
            except Untranslatable:
                return None
            if value.is_fn or value.expr is None or var.symbol in value.expr.free_symbols:
                continue
            return Definition(var.name, var.symbol, value.expr, label)
        return None

    def translate_conformance(self, decl: Declaration) -> Statement:
        """``impl args = unfolded definition args`` for a bound definition, over its binders."""
        env = Env()
        variables: list[Variable] = []
        args: list[T.Term] = []
        for binder in decl.binders:
            if binder.info == "instImplicit" or binder.type is None:
                continue
            if is_prop_type(binder.type):
                continue
            ty = self.type_of(binder.type, env)
            if ty.kind in ("Sort", "TyVar"):
                env[binder.name] = Ty("Fin", (sp.Symbol(f"{binder.name}_size", integer=True,
                                                        positive=True),))
                variables.append(Variable(f"{binder.name}_size", NAT,
                                          env[binder.name].args[0], implicit=True))
                continue
            symbol = sp.Symbol(binder.name, **assumptions(ty))
            env[binder.name] = Value.of(symbol, ty)
            variables.append(Variable(binder.name, ty, symbol, implicit=binder.info != "default"))
            if binder.info == "default":
                args.append(T.Var(binder.name))
        # extra explicit parameters after the colon become variables too
        rest = decl.type
        while isinstance(rest, T.Pi):
            for binder in rest.binders:
                if is_prop_type(binder.type):
                    args.append(T.Hole())
                    continue
                ty = self.type_of(binder.type, env)
                name = binder.name if binder.name != "_" else f"arg{len(args)}"
                symbol = sp.Symbol(name, **assumptions(ty))
                env[name] = Value.of(symbol, ty)
                variables.append(Variable(name, ty, symbol))
                args.append(T.Var(name))
            rest = rest.body
        call = T.App(T.Const(decl.name), tuple(args)) if args else T.Const(decl.name)
        self.used_bound = set()
        impl = self.elab(call, env, None)
        self.unfold_bound, saved = True, self.unfold_bound
        try:
            spec = self.elab(call, env, None)
        finally:
            self.unfold_bound = saved
        conclusion = self.equal_values(impl, spec)
        return Statement(f"{decl.name}.conformance", variables, [], conclusion, set(self.used_bound))


#: Classes whose instances carry no assumption: in classical logic every proposition is
#: decidable, and any two instances agree (a ``[DecidablePred p]`` on a value restricts nothing).
ASSUMPTION_FREE_CLASSES = frozenset({
    "Decidable", "DecidablePred", "DecidableRel", "DecidableEq", "DecidableLE", "DecidableLT",
})


def _check_instance_binder(binder: T.Binder, env: Env) -> None:
    """Refuse an instance binder that assumes something of the statement's values.

    The translator draws values, not instances, so it skips instance binders. That is sound
    for a class on a type (a carrier is an instance of every class the statement asks of it,
    :mod:`mirror.translate.instances`) and for the value classes made hypotheses before
    (``[Fact p]``, ``[NeZero n]``, ``[n.AtLeastTwo]``). Any other class applied to a value —
    ``[IsAbsoluteValue abv]`` for ``abv : R → S``, ``[Invertible x]`` — is a hypothesis the
    statement relies on; dropped, every function would be drawn for ``abv`` and a proved
    theorem refuted. Such a statement is untranslatable, naming the class."""
    mentioned = sorted(n for n in T.free_vars(binder.type) if n in env) if binder.type else []
    if not mentioned:
        return
    head = binder.type
    while isinstance(head, (T.App, T.Pi)):  # `[C x]`, `[∀ i, C (x i)]`
        head = head.fn if isinstance(head, T.App) else head.body
    name = head.name if isinstance(head, T.Const) else "an instance binder's class"
    if name in ASSUMPTION_FREE_CLASSES:
        return
    raise Untranslatable(f"instance [{name} …]",
                         f"the class {name} assumes something of {', '.join(mentioned)}, "
                         "which leanmirror cannot state as a hypothesis")


def _unshadowed(binders: list[T.Binder]) -> list[str]:
    """Each binder's variable name: its own, except for a binder a later one of the same name
    shadows, which is named as Lean shows it (``x✝``, then ``x✝¹``, … further out)."""
    later: dict[str, int] = {}
    names: list[str] = [""] * len(binders)
    for index in range(len(binders) - 1, -1, -1):
        name = binders[index].name
        seen = later.get(name, 0)
        names[index] = name if seen == 0 or name == "_" else f"{name}✝{_superscript(seen - 1)}"
        later[name] = seen + 1
    return names


def _superscript(n: int) -> str:
    return "" if n == 0 else str(n).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


__all__ = [
    "NAT_DOMAIN",
    "ArrayFn",
    "Closure",
    "DefFn",
    "Definition",
    "Env",
    "Statement",
    "TableFn",
    "Translator",
    "Unbound",
    "UnknownConstant",
    "Untranslatable",
    "Value",
    "Variable",
]
