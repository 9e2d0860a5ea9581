"""Translation: normalized Lean terms → sympy, keeping Lean's semantics exactly.

The translator is an elaborator in miniature. Like Lean's ``binop%``/``binrel%`` it computes
the type of an arithmetic tree from its leaves and the expected type (so ``i - j`` on ℕ
truncates while ``(i - j : ℝ)`` does not), then emits the :mod:`mirror.vocabulary` node that
keeps Lean's meaning (``LeanDiv`` for ``x / 0 = 0``, ``NatSub`` for truncation, …).

It is strict and table-driven: one ``_elab_<Node>`` method per AST node kind, one table of
Lean constants (:data:`mirror.vocabulary.FUNCTIONS` for plain functions with fixed argument
types, and ``_special_<name>`` methods for binders and big operators). An unknown constant raises
:class:`UnknownConstant`, which the report shows as ``untranslatable`` with the name.

The project's own definitions are unfolded where they are used (non-recursive bodies, and
structural recursion on ℕ as :class:`~mirror.vocabulary.Recursion`); a definition bound to a
NumPy implementation becomes a :class:`~mirror.vocabulary.BoundCall` instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterable

import sympy as sp

from bridge import term as T
from bridge.declaration import Declaration
from bridge.errors import LeanMirrorError
from mirror import vocabulary as V
from mirror.vocabulary import CONSTANTS, FUNCTIONS
from mirror.types import (
    BOOL,
    COMPLEX,
    ENNREAL,
    INT,
    NAT,
    NNREAL,
    PNAT,
    PROP,
    RAT,
    REAL,
    SORT,
    Ty,
    coerces,
    fin,
    fun,
    numeric_max,
)


class Untranslatable(LeanMirrorError, NotImplementedError):
    """A construct the translator does not handle. ``construct`` names it."""

    def __init__(self, construct: str, detail: str = "") -> None:
        self.construct = construct
        message = f"cannot translate {construct}"
        if detail:
            message += f": {detail}"
        super().__init__(message)


class UnknownConstant(Untranslatable):
    """A Lean constant that is neither in the table nor a definition of the project."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"constant {name}",
            "it is not in mirror.vocabulary.FUNCTIONS and the project does not define it; "
            "add it there or bind an implementation",
        )
        self.name = name


class Unbound(Untranslatable):
    """A definition with no body available (opaque, axiom, or outside the project)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"definition {name}", "no body is available and no implementation is bound")
        self.name = name


#: The symbol standing for the length of the sampled prefix of an ``ℕ → α`` array.
NAT_DOMAIN = sp.Symbol("NATDOM", integer=True, positive=True)


# --------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class ArrayFn:
    """An array-valued variable (``ℕ → ℝ``, ``Fin n → Fin m → ℝ``, a matrix), partly applied."""

    array: sp.Basic
    ty: Ty
    indices: tuple = ()


@dataclass(frozen=True)
class Closure:
    """``fun binders => body`` in an environment."""

    binders: tuple[T.Binder, ...]
    body: T.Term
    env: "Env"


@dataclass(frozen=True)
class DefFn:
    """A project definition, partly applied (arguments as terms with their environment)."""

    decl: Declaration
    args: tuple  # tuple[(Term, Env)]


@dataclass(frozen=True)
class TableFn:
    """A table function used as a value (``Real.exp`` passed to ``Finset.sum``)."""

    name: str
    args: tuple  # tuple[Value]


@dataclass(frozen=True)
class Value:
    """A translated term: a sympy expression or a function value, with its type."""

    expr: Any = None
    ty: Ty | None = None
    fn: Any = None
    #: ``True`` for an untyped numeral (its type comes from the context).
    numeral: bool = False

    @property
    def is_fn(self) -> bool:
        return self.fn is not None


class Env(dict):
    """Variable name → :class:`Value` (or a :class:`Ty` for type variables)."""

    def extend(self, **values: Any) -> "Env":
        child = Env(self)
        child.update(values)
        return child

    def __hash__(self) -> int:  # closures are frozen dataclasses holding an Env
        return id(self)


@dataclass
class Variable:
    """A statement variable: a value to draw."""

    name: str
    ty: Ty
    symbol: sp.Symbol
    lean_type: str = ""
    #: Implicit dimension binders are drawn first.
    implicit: bool = False


@dataclass(frozen=True)
class Definition:
    """A variable the statement fixes by an equation hypothesis ``label : name = expr`` (or
    ``expr = name``) at the variable's own type: it is computed, not drawn."""

    name: str
    symbol: sp.Symbol
    expr: sp.Basic
    label: str


@dataclass
class Statement:
    """A translated statement: variables, hypotheses and the conclusion."""

    name: str
    variables: list[Variable]
    hypotheses: list[tuple[str, sp.Basic]]
    conclusion: sp.Basic
    bound: set[str] = field(default_factory=set)
    #: Hypotheses as terms (the strategy planner reads them).
    hypothesis_terms: list[tuple[str, T.Term]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: Variables defined by equation hypotheses, in an order that computes each from drawn or
    #: already computed values (the planner copies bare-variable definitions, the printer
    #: recomputes every one).
    definitions: list[Definition] = field(default_factory=list)


# --------------------------------------------------------------------------------------------
# Tables

_ARITH = {
    "HAdd.hAdd": "add",
    "HSub.hSub": "sub",
    "HMul.hMul": "mul",
    "HDiv.hDiv": "div",
    "HMod.hMod": "mod",
    "Neg.neg": "neg",
    "HPow.hPow": "pow",
    "HSMul.hSMul": "smul",
    "Inv.inv": "inv",
}
_RELATIONS = {"Eq": "eq", "Ne": "ne", "LT.lt": "lt", "LE.le": "le", "GT.gt": "gt", "GE.ge": "ge"}

_TYPE_NAMES = {
    "Nat": NAT,
    "Int": INT,
    "Rat": RAT,
    "Real": REAL,
    "Complex": COMPLEX,
    "Prop": PROP,
    "Bool": BOOL,
    "NNReal": NNREAL,
    "ENNReal": ENNREAL,
    "PNat": PNAT,
}


def _fresh(name: str, ty: Ty) -> sp.Dummy:
    return sp.Dummy(_symbol_name(name), **_assumptions(ty))


def _symbol_name(name: str) -> str:
    return name if name and name != "_" else "x"


def _assumptions(ty: Ty | None) -> dict[str, bool]:
    if ty is None:
        return {}
    if ty.kind in ("Nat", "Fin"):
        return {"integer": True, "nonnegative": True}
    if ty.kind == "PNat":
        return {"integer": True, "positive": True}
    if ty.kind == "NNReal":
        return {"real": True, "nonnegative": True}
    if ty.kind == "ENNReal":
        return {"extended_nonnegative": True}
    if ty.kind == "Int":
        return {"integer": True}
    if ty.kind == "Rat":
        return {"rational": True}
    if ty.kind == "Real":
        return {"real": True}
    if ty.kind == "Complex":
        return {"complex": True}
    return {}


def _is_prop_type(term: T.Term | None) -> bool:
    """A binder type that is a proposition (its value is a proof, irrelevant at run time)."""
    if term is None:
        return False
    if isinstance(term, T.App) and isinstance(term.fn, T.Const):
        return term.fn.name in _RELATIONS or term.fn.name in (
            "And",
            "Or",
            "Not",
            "Iff",
            "Membership.mem",
            "Exists",
            "Matrix.PosDef",
            "Matrix.PosSemidef",
            "Nat.Prime",
        )
    if isinstance(term, T.Const):
        return term.name in ("True", "False")
    if isinstance(term, T.Pi):
        return _is_prop_type(term.body)
    return False


# --------------------------------------------------------------------------------------------
# The translator


class Translator:
    """Lean terms → sympy. ``declarations`` are the project's (for unfolding); ``bound`` names
    the definitions that have a NumPy implementation (they become ``BoundCall``)."""

    def __init__(
        self,
        declarations: dict[str, Declaration],
        bound: Iterable[str] = (),
        unfold_bound: bool = False,
        table: dict | None = None,
    ) -> None:
        self.declarations = declarations
        self.bound = set(bound)
        #: The binding table the bound names come from (read by the pipeline for domains).
        self.table = table if table is not None else {}
        self.unfold_bound = unfold_bound
        self.used_bound: set[str] = set()
        self._depth = 0

    # ---- entry points -----------------------------------------------------------------------

    def translate_statement(self, decl: Declaration) -> Statement:
        """Translate a theorem's statement ``∀ binders, hyps → conclusion``."""
        if decl.type is None:
            raise Untranslatable("statement", "the statement did not parse")
        self.used_bound = set()
        env = Env()
        variables: list[Variable] = []
        hyps: list[tuple[str, sp.Basic]] = []
        hyp_terms: list[tuple[str, T.Term]] = []
        binders = list(decl.binders)
        body = decl.type
        while isinstance(body, T.Pi):
            binders.extend(body.binders)
            body = body.body
        for index, binder in enumerate(binders):
            if binder.info == "instImplicit":
                continue
            if _is_prop_type(binder.type) or (binder.name == "_" and binder.type is not None
                                              and self._is_prop(binder.type, env)):
                label = binder.name if binder.name != "_" else f"h{index}"
                hyps.append((label, self._prop(binder.type, env)))
                hyp_terms.append((label, binder.type))
                continue
            if binder.type is None:
                raise Untranslatable(f"binder {binder.name}", "its type is not written")
            ty = self.type_of(binder.type, env)
            if ty.kind in ("Sort", "TyVar", "Unknown"):
                raise Untranslatable(f"binder {binder.name} : {ty}", "type parameters are not drawn")
            symbol = sp.Symbol(binder.name, **_assumptions(ty))
            if ty.is_array:
                env[binder.name] = Value(fn=ArrayFn(symbol, ty), ty=ty)
            else:
                env[binder.name] = Value(expr=symbol, ty=ty)
            variables.append(
                Variable(binder.name, ty, symbol, implicit=binder.info != "default")
            )
        conclusion = self._prop(body, env)
        definitions: list[Definition] = []
        for label, hyp_term in hyp_terms:
            found = self._definition(label, hyp_term, env, variables, definitions)
            if found is not None:
                definitions.append(found)
        return Statement(decl.name, variables, hyps, conclusion, set(self.used_bound), hyp_terms,
                         definitions=definitions)

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
        by_name = {v.name: v for v in variables}
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
        sides.sort(key=lambda pair: -position[pair[0].name])
        for target_t, other_t in sides:
            var = by_name[target_t.name]
            if (var.implicit or var.ty.is_array or not (var.ty.is_numeric or var.ty.kind == "Fin")
                    or var.name in dimensions or var.name in taken or var.symbol in used
                    or env.get(var.name) is None or env[var.name].expr is not var.symbol):
                continue
            try:
                ty = self._relation_type(hyp, env)
                if ty != var.ty:
                    continue
                value = self._arith(other_t, env, ty)
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
            if _is_prop_type(binder.type):
                continue
            ty = self.type_of(binder.type, env)
            if ty.kind in ("Sort", "TyVar"):
                env[binder.name] = Ty("Fin", (sp.Symbol(f"{binder.name}_size", integer=True,
                                                        positive=True),))
                variables.append(Variable(f"{binder.name}_size", NAT,
                                          env[binder.name].args[0], implicit=True))
                continue
            symbol = sp.Symbol(binder.name, **_assumptions(ty))
            env[binder.name] = (
                Value(fn=ArrayFn(symbol, ty), ty=ty) if ty.is_array else Value(expr=symbol, ty=ty)
            )
            variables.append(Variable(binder.name, ty, symbol, implicit=binder.info != "default"))
            if binder.info == "default":
                args.append(T.Var(binder.name))
        # extra explicit parameters after the colon become variables too
        rest = decl.type
        while isinstance(rest, T.Pi):
            for binder in rest.binders:
                if _is_prop_type(binder.type):
                    args.append(T.Hole())
                    continue
                ty = self.type_of(binder.type, env)
                name = binder.name if binder.name != "_" else f"arg{len(args)}"
                symbol = sp.Symbol(name, **_assumptions(ty))
                env[name] = (
                    Value(fn=ArrayFn(symbol, ty), ty=ty) if ty.is_array else Value(expr=symbol, ty=ty)
                )
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
        conclusion = self._equal_values(impl, spec)
        return Statement(f"{decl.name}.conformance", variables, [], conclusion, set(self.used_bound))

    # ---- types --------------------------------------------------------------------------------

    def type_of(self, term: T.Term, env: Env) -> Ty:
        """The :class:`Ty` a Lean type term denotes in ``env``."""
        if isinstance(term, _TyTerm):
            return term.ty
        if isinstance(term, T.Const):
            if term.name in _TYPE_NAMES:
                return _TYPE_NAMES[term.name]
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
                return fin(self._scalar(term.args[0], env, NAT))
            if name == "ZMod" and len(term.args) == 1:
                return _zmod(self._scalar(term.args[0], env, NAT))
            if name == "Matrix" and len(term.args) == 3:
                return Ty(
                    "Matrix",
                    tuple(self.type_of(a, env) for a in term.args),
                )
            if name == "Finset" and len(term.args) == 1:
                return Ty("Finset", (self.type_of(term.args[0], env),))
            if name in _RELATIONS or name in ("And", "Or", "Not", "Iff", "Membership.mem"):
                return PROP
        if isinstance(term, T.Hole):
            raise Untranslatable("type placeholder `_`")
        raise Untranslatable(f"type {term}")

    # ---- elaboration --------------------------------------------------------------------------

    def elab(self, term: T.Term, env: Env, expected: Ty | None) -> Value:
        """Translate ``term`` with the expected type ``expected``."""
        self._depth += 1
        if self._depth > 200:
            self._depth = 0
            raise Untranslatable("deeply nested term", "more than 200 levels of unfolding")
        try:
            method = getattr(self, f"_elab_{type(term).__name__}", None)
            if method is None:
                raise Untranslatable(f"term node {type(term).__name__}")
            return method(term, env, expected)
        finally:
            self._depth -= 1

    def _scalar(self, term: T.Term, env: Env, expected: Ty | None) -> sp.Basic:
        value = self.elab(term, env, expected)
        if value.is_fn:
            return self._materialize(value)
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
            sizes = [self._domain_size(d) for d in expected.domains()]
            dummies = [_fresh(f"z{i}", d) for i, d in enumerate(expected.domains())]
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
        return self._coerce(value, ty)

    def _elab_Coe(self, term: T.Coe, env: Env, expected: Ty | None) -> Value:
        value = self.elab(term.expr, env, None)
        if expected is not None:
            return self._coerce(value, expected)
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
                else T.Binder(b.name, _TyTerm(domains[i]), b.info)
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
                return self._call_table("Int.toNat", [value], None)
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
            if name in _ARITH:
                return self._arith_tree(term, env, expected, term.ty)
            if name in _RELATIONS:
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
        return Value(self._prop(term, env), PROP)

    def _elab_Sort(self, term: T.Sort, env: Env, expected: Ty | None) -> Value:
        raise Untranslatable("a type used as a value")

    def _elab_Hole(self, term: T.Hole, env: Env, expected: Ty | None) -> Value:
        raise Untranslatable("placeholder `_`")

    def _elab_Str(self, term: T.Str, env: Env, expected: Ty | None) -> Value:
        raise Untranslatable("string literal")

    def _elab__TyTerm(self, term: "_TyTerm", env: Env, expected: Ty | None) -> Value:
        raise Untranslatable("a type used as a value")

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
                indices.append(self._scalar(arg, arg_env, dom))
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
                bty = self.type_of(binder.type, fnv.env) if _is_type_term(binder.type) else None
                new_env[binder.name] = self.elab(arg, arg_env, bty)
                if bty is not None and not new_env[binder.name].is_fn:
                    new_env[binder.name] = self._coerce(new_env[binder.name], bty)
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
            result = self._call_table(fnv.name, values, expected)
            return self.apply(result, args[len(params) - len(fnv.args):], expected)
        if isinstance(head.expr, sp.Basic) and head.ty is not None and head.ty.is_array:
            fnv = ArrayFn(head.expr, head.ty)
            return self.apply(Value(fn=fnv, ty=head.ty), args, expected)
        raise Untranslatable("application of a non-function", str(head.expr))

    def _call_table(self, name: str, values: list[Value], expected: Ty | None) -> Value:
        params, builder, result_ty = FUNCTIONS[name]
        exprs = []
        for value, pty in zip(values, params):
            if pty is not None:
                value = self._coerce(value, pty)
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
        marker = env.get(_RECURSIVE_MARK)
        if marker is not None and marker[0] == name:
            return self._recursive_call(marker, name, args, env, expected)
        special = getattr(self, "_special_" + name.replace(".", "_"), None)
        if special is not None:
            return special(args, env, expected)
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

    # ---- project definitions ----------------------------------------------------------------

    def _explicit_params(self, decl: Declaration) -> list[T.Binder]:
        params = [b for b in decl.binders if b.info == "default"]
        return params

    def _apply_def(
        self, decl: Declaration, args: list[tuple[T.Term, Env]], expected: Ty | None
    ) -> Value:
        named = [(a, e) for a, e in args if _is_named(a)]
        args = [(a, e) for a, e in args if not _is_named(a)]
        params = self._explicit_params(decl)
        if len(args) < len(params):
            return Value(fn=DefFn(decl, tuple(named + args)))
        def_env = Env()
        implicit = {b.name for b in decl.binders if b.info != "default"}
        for (arg, arg_env) in named:
            name, value_t = arg.args[0].value, arg.args[1]
            binder = next((b for b in decl.binders if b.name == name), None)
            if binder is None:
                raise Untranslatable(f"named argument ({name} := …)",
                                     f"{decl.name} has no parameter {name}")
            if binder.info == "default":
                raise Untranslatable(f"named argument ({name} := …) for an explicit parameter")
            bty = self._try_type(binder.type, def_env)
            if bty is not None and bty.kind in ("Sort",):
                raise Untranslatable(f"named type argument ({name} := …)")
            def_env[name] = self.elab(value_t, arg_env, bty or NAT)
        values: list[Value] = []
        for binder, (arg, arg_env) in zip(params, args[: len(params)]):
            pty = None
            if binder.type is not None and not _mentions_unsolved(binder.type, implicit, def_env):
                pty = self._try_type(binder.type, def_env)
            if _is_prop_type(binder.type):
                values.append(Value(sp.true, PROP))
                def_env[binder.name] = values[-1]
                continue
            value = self.elab(arg, arg_env, pty)
            if pty is None and binder.type is not None:
                if value.is_fn and value.ty is None:
                    value = Value(fn=value.fn,
                                  ty=self._infer_fn_type(value, binder.type, def_env))
                self._unify(binder.type, value.ty, def_env, implicit)
                pty = self._try_type(binder.type, def_env)
            if pty is not None and not value.is_fn:
                value = self._coerce(value, pty)
            if pty is not None and value.is_fn and value.ty is None:
                value = Value(fn=value.fn, ty=pty)
            values.append(value)
            def_env[binder.name] = value
        # a lambda met before the dimensions it ranges over were solved takes its type now
        for index, (binder, value) in enumerate(zip(params, values)):
            if value.is_fn and value.ty is None and binder.type is not None:
                late = self._try_type(binder.type, def_env)
                if late is not None:
                    values[index] = def_env[binder.name] = Value(fn=value.fn, ty=late)
        extra = args[len(params):]
        result_ty = self._try_type(decl.type, def_env) if decl.type is not None else None
        post = _post_colon_params(decl.type)
        if decl.name in self.bound and not self.unfold_bound and len(extra) >= len(post):
            # explicit parameters after the colon are the implementation's too (proofs are not)
            self.used_bound.add(decl.name)
            for binder, (arg, arg_env) in zip(post, extra[: len(post)]):
                if _is_prop_type(binder.type):
                    continue
                pty = self._try_type(binder.type, def_env)
                value = self.elab(arg, arg_env, pty)
                if pty is not None and not value.is_fn:
                    value = self._coerce(value, pty)
                values.append(value)
                def_env[binder.name] = value
            extra = extra[len(post):]
            result_ty = self._try_type(_drop_pis(decl.type, len(post)), def_env)
            exprs = [self._tabulated(v, v.ty) if v.is_fn else v.expr for v in values]
            dims = self._dims_of(decl, def_env)
            call = V.BoundCall(sp.Symbol(decl.name), sp.Tuple(*dims), *exprs)
            if result_ty is not None and result_ty.is_array:
                result = Value(fn=ArrayFn(call, result_ty), ty=result_ty)
            else:
                result = Value(call, result_ty)
            return self.apply(result, extra, expected)
        if decl.value is not None:
            result = self.elab(decl.value, def_env, result_ty)
            if result_ty is not None and not result.is_fn and result.ty is not None \
                    and result_ty.is_numeric:
                result = self._coerce(result, result_ty)
            if result.is_fn and result.ty is None and result_ty is not None:
                result = Value(fn=result.fn, ty=result_ty)
            return self.apply(result, extra, expected)
        if decl.equations:
            return self._recursion(decl, def_env, extra, expected)
        raise Unbound(decl.name)

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
                hinted.append(self._try_type(binder.type, hint_env or Env()))
            pattern = pattern.body
        try:
            doms = []
            for index, b in enumerate(fnv.binders):
                if _is_type_term(b.type):
                    doms.append(self.type_of(b.type, fnv.env))
                elif index < len(hinted) and hinted[index] is not None:
                    doms.append(hinted[index])
                else:
                    return None
            dummies = [(_SymTerm(_fresh(b.name, d), d), Env()) for b, d in zip(fnv.binders, doms)]
            body = self.apply(value, dummies, None)
        except Untranslatable:
            return None
        result = body.ty
        if result is None:
            return None
        for dom in reversed(doms):
            result = fun(dom, result)
        return result

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

    def _try_type(self, term: T.Term | None, env: Env) -> Ty | None:
        if term is None:
            return None
        try:
            return self.type_of(term, env)
        except Untranslatable:
            return None

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
            expr = self._scalar(pattern, trial, NAT)
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
        n_value = self._scalar(n_term, n_env, NAT)
        result_ty = self._try_type(decl.type, def_env)
        value_ty = result_ty
        while value_ty is not None and value_ty.kind == "Fun" and value_ty.args[0].kind == "Nat":
            value_ty = value_ty.args[1]
            break
        if isinstance(decl.type, T.Pi):
            value_ty = self._try_type(_drop_pis(decl.type, len(base_eq.patterns)), def_env)
        base_env = Env(def_env)
        base = self.elab(base_eq.rhs, base_env, value_ty)
        t_name = step_eq.patterns[0].args[0].name
        t_sym = _fresh(t_name, NAT)
        prev = _fresh("prev", value_ty or REAL)
        step_env = Env(def_env)
        step_env[t_name] = Value(t_sym, NAT)
        prev_value = (
            Value(fn=ArrayFn(prev, value_ty), ty=value_ty)
            if value_ty is not None and value_ty.is_array
            else Value(prev, value_ty)
        )
        step_env[_RECURSIVE_MARK] = (decl.name, prev_value, [b.name for b in self._explicit_params(decl)])
        for pattern in step_eq.patterns[1:]:
            if isinstance(pattern, T.Var):
                step_env[pattern.name] = Value(sp.true, PROP)
        step = self.elab(step_eq.rhs, step_env, value_ty)
        base_expr = self._materialize(base) if base.is_fn else base.expr
        step_expr = self._materialize(step) if step.is_fn else step.expr
        node = V.Recursion(base_expr, sp.Lambda((t_sym, prev), step_expr), n_value)
        result = (
            Value(fn=ArrayFn(node, value_ty), ty=value_ty)
            if value_ty is not None and value_ty.is_array
            else Value(node, value_ty)
        )
        rest = extra[1 + max(0, len(base_eq.patterns) - 1):]
        return self.apply(result, rest, expected)

    # ---- coercions and materialization ------------------------------------------------------

    def _coerce(self, value: Value, target: Ty) -> Value:
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
        if source.is_numeric or source.kind == "Fin":
            if target.is_numeric and (coerces(src_kind, target.kind) or value.numeral):
                return Value(value.expr, target)
            if target.is_numeric:
                raise Untranslatable(f"coercion from {source} to {target}")
        return value

    def _materialize(self, value: Value) -> sp.Basic:
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
                    doms = [self._try_type(b.type, fnv.env) if _is_type_term(b.type) else None
                            for b in fnv.binders]
                else:
                    doms = []
                if not doms or any(d is None for d in doms):
                    raise Untranslatable("a function value whose argument types are unknown")
            else:
                doms = ty.domains()
            dummies = [_fresh(f"a{i}", d) for i, d in enumerate(doms)]
            args = [(_SymTerm(d), Env()) for d in dummies]
            body = self.apply(value, args, None)
            body_expr = self._materialize(body) if body.is_fn else body.expr
            return sp.Lambda(tuple(dummies), body_expr)
        raise Untranslatable("function value")

    # ---- arithmetic (binop%) ----------------------------------------------------------------

    def _leaves(self, term: T.Term) -> list[T.Term]:
        if isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name in _ARITH:
            kind = _ARITH[term.fn.name]
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
            return self._try_type(term.type, env)
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

    def _tree_type(self, terms: list[T.Term], env: Env, expected: Ty | None) -> Ty:
        result: Ty | None = expected if expected is not None and (
            expected.is_numeric or expected.kind in ("Matrix", "Fin")
        ) else None
        for leaf in terms:
            ty = self._synth(leaf, env)
            if ty is not None and (ty.is_numeric or ty.kind in ("Fin", "Matrix")):
                result = numeric_max(result, ty)
        return result if result is not None else NAT

    def _arith_tree(
        self, term: T.App, env: Env, expected: Ty | None, annotated: T.Term | None = None
    ) -> Value:
        ty = self._try_type(annotated, env) if annotated is not None else None
        if ty is None:
            ty = self._tree_type(self._leaves(term), env, expected)
        return self._arith(term, env, ty)

    def _arith(self, term: T.Term, env: Env, ty: Ty) -> Value:
        if not (
            isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name in _ARITH
        ):
            value = self.elab(term, env, ty)
            if value.is_fn and ty.kind == "Matrix":
                return value
            return self._coerce(value, ty)
        kind = _ARITH[term.fn.name]
        args = term.args
        if kind == "pow":
            return self._pow(args[0], args[1], env, ty)
        if kind == "smul":
            scalar = self.elab(args[0], env, None)
            target = self._arith(args[1], env, ty)
            if ty.kind == "Matrix" or target.is_fn:
                return Value(V.LMatSMul(scalar.expr, self._as_matrix(target)), ty)
            return Value(scalar.expr * target.expr, ty)
        if kind in ("neg", "inv"):
            (arg,) = args
            inner = self._arith(arg, env, ty)
            if kind == "inv":
                if ty.kind == "Matrix":
                    return Value(V.LMatInv(self._as_matrix(inner)), ty)
                if ty.kind in ("Real", "Rat", "Complex", "NNReal"):
                    return Value(V.LeanDiv(sp.Integer(1), inner.expr), ty)
                if ty.kind == "ENNReal":
                    return Value(V.ENNInv(inner.expr), ty)
                raise Untranslatable(f"⁻¹ on {ty}")
            if ty.kind == "Matrix":
                return Value(V.LMatNeg(self._as_matrix(inner)), ty)
            if ty.kind in ("Nat", "Fin", "PNat", "NNReal", "ENNReal"):
                raise Untranslatable(f"negation on {ty}")
            return Value(-inner.expr, ty)
        if ty.kind == "Matrix" and kind == "mul":
            # a matrix product changes shapes: each factor is its own tree
            a = self._arith_tree(args[0], env, None) if _is_arith(args[0]) else self.elab(
                args[0], env, None)
            b = self._arith_tree(args[1], env, None) if _is_arith(args[1]) else self.elab(
                args[1], env, None)
            ta, tb = _matrix_ty(a.ty), _matrix_ty(b.ty)
            out_ty = Ty("Matrix", (ta.args[0], tb.args[1], ta.args[2]))
            return Value(V.LMatMul(self._as_matrix(a), self._as_matrix(b)), out_ty)
        a = self._arith(args[0], env, ty)
        b = self._arith(args[1], env, ty)
        if ty.kind == "Matrix":
            ma, mb = self._as_matrix(a), self._as_matrix(b)
            table = {"add": V.LMatAdd, "sub": V.LMatSub, "mul": V.LMatMul}
            if kind not in table:
                raise Untranslatable(f"matrix operation {term.fn.name}")
            return Value(table[kind](ma, mb), ty)
        x, y = a.expr, b.expr
        if ty.kind == "ENNReal":
            if kind not in _ENNREAL_OPS:
                raise Untranslatable(f"{term.fn.name} on {ty}")
            return Value(_ENNREAL_OPS[kind](x, y), ty)
        if ty.kind == "PNat" and kind in ("div", "mod"):
            raise Untranslatable(f"{term.fn.name} on {ty}")
        if kind == "sub" and ty.kind in _TRUNCATED_SUB:
            return Value(sp.Max(x - y, _TRUNCATED_SUB[ty.kind]), ty)
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
        base = self._arith(base_t, env, ty)
        exp_ty = self._synth(exp_t, env) or NAT
        exponent = self._scalar(exp_t, env, exp_ty)
        if ty.kind == "Matrix":
            return Value(V.LMatPow(self._as_matrix(base), exponent), ty)
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

    def _as_matrix(self, value: Value) -> sp.Basic:
        if value.is_fn:
            return self._materialize(value) if not isinstance(value.fn, ArrayFn) else (
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
        ty = self._relation_type(term, env)
        if ty.kind == "Prop":
            lhs, rhs = self._prop(lhs_t, env), self._prop(rhs_t, env)
            return sp.Equivalent(lhs, rhs) if name == "Eq" else sp.Not(sp.Equivalent(lhs, rhs))
        lhs = self._arith(lhs_t, env, ty)
        rhs = self._arith(rhs_t, env, ty)
        if lhs.is_fn or rhs.is_fn or ty.kind in ("Matrix", "Fun"):
            eq = self._equal_values(lhs, rhs)
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

    def _relation_type(self, term: T.App, env: Env) -> Ty:
        """The type both sides of a relation are elaborated at (``binrel%``)."""
        annotated = self._try_type(term.ty, env) if term.ty is not None else None
        return annotated or self._tree_type(
            self._leaves(term.args[0]) + self._leaves(term.args[1]), env, None)

    def _equal_values(self, lhs: Value, rhs: Value) -> sp.Basic:
        if not lhs.is_fn and not rhs.is_fn:
            return sp.Eq(lhs.expr, rhs.expr)
        ty = lhs.ty if lhs.ty is not None and lhs.ty.is_array else rhs.ty
        return V.ArrayEq(self._tabulated(lhs, ty), self._tabulated(rhs, ty))

    def _tabulated(self, value: Value, ty: Ty | None) -> sp.Basic:
        if not value.is_fn:
            return value.expr
        if isinstance(value.fn, ArrayFn):
            return self._as_matrix(value)
        if ty is None or not ty.is_array:
            raise Untranslatable("equality of functions with unknown domains")
        lam = self._materialize(Value(fn=value.fn, ty=ty))
        sizes = [self._domain_size(d) for d in ty.domains()]
        return V.Tabulate(lam, sp.Tuple(*sizes))

    def _domain_size(self, ty: Ty) -> sp.Basic:
        if ty.kind == "Fin":
            return ty.args[0]
        if ty.kind == "Nat":
            return NAT_DOMAIN
        raise Untranslatable(f"functions on {ty}")

    def _is_prop(self, term: T.Term, env: Env) -> bool:
        if _is_prop_type(term):
            return True
        return isinstance(term, T.Const) and term.name in ("True", "False")

    def _prop(self, term: T.Term, env: Env) -> sp.Basic:
        """Translate a proposition to a sympy boolean."""
        if isinstance(term, T.Pi):
            return self._pi_prop(term, env)
        value = self.elab(term, env, PROP)
        if value.ty is not None and value.ty.kind not in ("Prop", "Bool"):
            raise Untranslatable("a non-proposition in a proposition position", str(value.expr))
        if value.is_fn:
            raise Untranslatable("a predicate used as a proposition")
        if not _is_logical(value.expr):
            return V.Holds(value.expr)  # a Bool/Prop variable or array entry read as data
        return value.expr

    def _pi_prop(self, term: T.Pi, env: Env) -> sp.Basic:
        binders = list(term.binders)
        body = term.body
        if not binders:
            return self._prop(body, env)
        first, rest = binders[0], binders[1:]
        remainder = T.Pi(tuple(rest), body) if rest else body
        if first.type is not None and (_is_prop_type(first.type) or first.name == "_"
                                       and not _is_type_term(first.type)):
            return sp.Implies(self._prop(first.type, env), self._prop(remainder, env))
        if first.type is None:
            ty = self._infer_binder_type(first.name, remainder, env)
        else:
            ty = self.type_of(first.type, env)
        # `∀ x ∈ s, p`: the next premise bounds x
        bound = None
        if isinstance(remainder, T.Pi) and remainder.binders:
            premise = remainder.binders[0]
            bound = self._bound_of(first.name, premise.type, env, ty)
            if bound is not None:
                lo, hi, cond = bound
                inner_rest = remainder.binders[1:]
                inner = T.Pi(tuple(inner_rest), remainder.body) if inner_rest else remainder.body
                return self._fin_quant(V.FinAll, first.name, ty, lo, hi, cond, inner, env)
        lo, hi = self._type_range(ty)
        return self._fin_quant(V.FinAll, first.name, ty, lo, hi, None, remainder, env)

    def _fin_quant(self, cls, name, ty, lo, hi, cond, body_t, env) -> sp.Basic:
        var = _fresh(name, ty)
        inner_env = env.extend(**{name: Value(var, ty)})
        body = self._prop(body_t, inner_env)
        if cond is not None:
            c = cond(var)
            body = sp.Implies(c, body) if cls is V.FinAll else sp.And(c, body)
        return cls(sp.Lambda(var, body), lo, hi)

    def _type_range(self, ty: Ty) -> tuple[sp.Basic, sp.Basic]:
        if ty.kind == "Fin":
            return sp.Integer(0), ty.args[0]
        if ty.kind == "Nat":
            return sp.Integer(0), NAT_DOMAIN
        raise Untranslatable(f"a quantifier over {ty}", "only ℕ and Fin n are finite here")

    def _bound_of(self, name: str, premise: T.Term | None, env: Env, ty: Ty):
        """``x ∈ s`` / ``x < n`` / ``x ≤ n`` as ``(lo, hi, cond)`` for a quantified ``x``."""
        if not (isinstance(premise, T.App) and isinstance(premise.fn, T.Const)):
            return None
        pname = premise.fn.name
        if pname == "Membership.mem" and len(premise.args) == 2 and premise.args[1] == T.Var(name):
            return self._finset(premise.args[0], env, ty)
        if pname in ("LT.lt", "LE.le") and premise.args[0] == T.Var(name):
            hi = self._scalar(premise.args[1], env, NAT)
            return sp.Integer(0), (hi if pname == "LT.lt" else hi + 1), None
        return None

    def _infer_binder_type(self, name: str, body: T.Term, env: Env) -> Ty:
        """The type of an untyped binder from the first function it is an argument of.

        The function applied to the arguments before it is elaborated once; the domain of
        what comes out is the binder's type (an array's index type, a definition's
        parameter or result domain)."""
        for node in T.walk(body):
            if not isinstance(node, T.App):
                continue
            for position, arg in enumerate(node.args):
                if arg != T.Var(name):
                    continue
                if isinstance(node.fn, T.Const) and (node.fn.name in _ARITH
                                                     or node.fn.name in _RELATIONS):
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
                    ty = self._fn_value_type(value)
                if ty is not None and ty.is_array:
                    return ty.domains()[0]
        return NAT

    def _fn_value_type(self, value: Value) -> Ty | None:
        """The type of a partly applied definition, from its parameters and result type."""
        fnv = value.fn
        if isinstance(fnv, DefFn):
            params = self._explicit_params(fnv.decl)
            remaining = params[len(fnv.args):]
            if remaining and _is_type_term(remaining[0].type):
                dom = self._try_type(remaining[0].type, Env())
                if dom is not None:
                    return fun(dom, REAL)
        return self._infer_fn_type(value)

    # ---- special forms ----------------------------------------------------------------------

    def _special_And(self, args, env, expected) -> Value:
        return Value(sp.And(*(self._prop(a, env) for a in args)), PROP)

    def _special_Or(self, args, env, expected) -> Value:
        return Value(sp.Or(*(self._prop(a, env) for a in args)), PROP)

    def _special_Not(self, args, env, expected) -> Value:
        (arg,) = args
        return Value(sp.Not(self._prop(arg, env)), PROP)

    def _special_Iff(self, args, env, expected) -> Value:
        a, b = args
        return Value(sp.Equivalent(self._prop(a, env), self._prop(b, env)), PROP)

    def _special_ite(self, args, env, expected) -> Value:
        if len(args) < 3:
            raise Untranslatable("ite with fewer than 3 arguments")
        cond_t, then_t, else_t = args[:3]
        cond = self._prop(cond_t, env)
        ty = expected
        if ty is None or not (ty.is_numeric or ty.kind == "Prop"):
            ty = self._tree_type([then_t, else_t], env, expected)
        if ty.kind == "Prop":
            return Value(V.PropIte(cond, self._prop(then_t, env), self._prop(else_t, env)), PROP)
        a = self._arith(then_t, env, ty)
        b = self._arith(else_t, env, ty)
        if a.is_fn or b.is_fn or (ty is not None and ty.is_array):
            arr_ty = a.ty if a.ty is not None and a.ty.is_array else b.ty
            if arr_ty is None or not arr_ty.is_array:
                raise Untranslatable("if-then-else between functions of unknown type")
            node = V.LeanIte(cond, self._tabulated(a, arr_ty), self._tabulated(b, arr_ty))
            return self.apply(Value(fn=ArrayFn(node, arr_ty), ty=arr_ty),
                              [(x, env) for x in args[3:]], expected)
        return self.apply(Value(V.LeanIte(cond, a.expr, b.expr), ty), [(x, env) for x in args[3:]],
                          expected)

    def _special_dite(self, args, env, expected) -> Value:
        if len(args) < 3:
            raise Untranslatable("dite with fewer than 3 arguments")
        cond_t, then_t, else_t = args[:3]
        strip = [t.body if isinstance(t, T.Lam) else T.App(t, (T.Hole(),)) for t in (then_t,
                                                                                      else_t)]
        return self._special_ite((cond_t, strip[0], strip[1], *args[3:]), env, expected)

    def _special_Exists(self, args, env, expected) -> Value:
        (lam,) = args[:1]
        if not isinstance(lam, T.Lam) or not lam.binders:
            raise Untranslatable("∃ over a non-lambda")
        binder = lam.binders[0]
        rest = T.Lam(lam.binders[1:], lam.body) if len(lam.binders) > 1 else None
        body = lam.body if rest is None else T.App(T.Const("Exists"), (rest,))
        ty = (
            self.type_of(binder.type, env)
            if binder.type is not None
            else self._infer_binder_type(binder.name, body, env)
        )
        if isinstance(body, T.App) and isinstance(body.fn, T.Const) and body.fn.name == "And":
            bound = self._bound_of(binder.name, body.args[0], env, ty)
            if bound is not None:
                lo, hi, cond = bound
                inner = body.args[1] if len(body.args) == 2 else T.App(T.Const("And"), body.args[1:])
                return Value(self._fin_quant(V.FinExists, binder.name, ty, lo, hi, cond, inner, env),
                             PROP)
        lo, hi = self._type_range(ty)
        return Value(self._fin_quant(V.FinExists, binder.name, ty, lo, hi, None, body, env), PROP)

    def _special_Membership_mem(self, args, env, expected) -> Value:
        s_t, x_t = args
        x = self._scalar(x_t, env, None)
        lo, hi, cond = self._finset(s_t, env, None)
        out = sp.And(sp.Le(lo, x), sp.Lt(x, hi))
        if cond is not None:
            out = sp.And(out, cond(x))
        return Value(out, PROP)

    def _finset(self, s_t: T.Term, env: Env, elem_ty: Ty | None):
        """A finset as ``(lo, hi, cond)``: the elements of ``[lo, hi)`` satisfying ``cond``."""
        if isinstance(s_t, T.Const) and s_t.name == "Finset.univ":
            if elem_ty is None:
                raise Untranslatable("Finset.univ of an unknown type")
            lo, hi = self._type_range(elem_ty)
            return lo, hi, None
        if isinstance(s_t, T.App) and isinstance(s_t.fn, T.Proj) and s_t.fn.field == "filter":
            s_t = T.App(T.Const("Finset.filter"), (s_t.args[0], s_t.fn.expr))
        if (isinstance(s_t, T.App) and isinstance(s_t.fn, T.Const)
                and s_t.fn.name.endswith(".filter") and s_t.fn.name != "Finset.filter"):
            inner = T.Const(s_t.fn.name[: -len(".filter")])
            s_t = T.App(T.Const("Finset.filter"), (s_t.args[0], inner))
        if isinstance(s_t, T.App) and isinstance(s_t.fn, T.Const):
            name, a = s_t.fn.name, s_t.args
            nat = lambda t: self._scalar(t, env, elem_ty if elem_ty is not None else NAT)  # noqa
            if name == "Finset.range" and len(a) == 1:
                return sp.Integer(0), nat(a[0]), None
            if name == "Finset.Ico" and len(a) == 2:
                return nat(a[0]), nat(a[1]), None
            if name == "Finset.Icc" and len(a) == 2:
                return nat(a[0]), nat(a[1]) + 1, None
            if name == "Finset.Ioc" and len(a) == 2:
                return nat(a[0]) + 1, nat(a[1]) + 1, None
            if name == "Finset.Ioo" and len(a) == 2:
                return nat(a[0]) + 1, nat(a[1]), None
            if name == "Finset.Iio" and len(a) == 1:
                return sp.Integer(0), nat(a[0]), None
            if name == "Finset.Iic" and len(a) == 1:
                return sp.Integer(0), nat(a[0]) + 1, None
            if name == "Finset.filter" and len(a) == 2:
                pred_t, inner = a
                lo, hi, cond = self._finset(inner, env, elem_ty)
                pred = self.elab(pred_t, env, None)

                def both(x, pred=pred, cond=cond):
                    applied = self.apply(pred, [(_SymTerm(x), Env())], PROP)
                    c = applied.expr
                    if not _is_logical(c):
                        c = V.Holds(c)
                    return c if cond is None else sp.And(cond(x), c)

                return lo, hi, both
        raise Untranslatable("finset", f"{s_t} (supported: range, Ico, Icc, Ioc, Ioo, Iio, Iic, "
                                       "univ, filter)")

    def _big_operator(self, args, env, expected, kind: str) -> Value:
        if len(args) != 2:
            raise Untranslatable(f"Finset.{kind} with {len(args)} arguments")
        s_t, f_t = args
        elem_ty = None
        if isinstance(f_t, T.Lam) and f_t.binders:
            binder = f_t.binders[0]
            if binder.type is not None:
                elem_ty = self.type_of(binder.type, env)
            else:
                elem_ty = self._infer_binder_type(binder.name, f_t.body, env)
        else:
            fval = self.elab(f_t, env, None)
            if fval.ty is not None and fval.ty.is_array:
                elem_ty = fval.ty.domains()[0]
        if elem_ty is None:
            elem_ty = NAT
        lo, hi, cond = self._finset(s_t, env, elem_ty)
        var = _fresh("j", elem_ty)
        fval = self.elab(f_t, env, None)
        term_value = self.apply(fval, [(_SymTerm(var, elem_ty), Env())], expected)
        if term_value.is_fn:
            body = self._as_matrix(term_value)
            ty = term_value.ty
            if cond is not None:
                raise Untranslatable("a filtered sum of matrices")
            if kind != "sum":
                raise Untranslatable("a product of matrices")
            return Value(V.LMatSum(sp.Lambda(var, body), lo, hi), ty)
        ty = term_value.ty if term_value.ty is not None else (expected or REAL)
        if expected is not None and expected.is_numeric and ty.is_numeric:
            term_value = self._coerce(term_value, numeric_max(ty, expected))
            ty = term_value.ty
        body = term_value.expr
        if ty is not None and ty.kind == "Matrix":
            return Value(V.LMatSum(sp.Lambda(var, body), lo, hi), ty)
        if cond is not None:
            neutral = sp.Integer(0) if kind == "sum" else sp.Integer(1)
            body = V.LeanIte(cond(var), body, neutral)
        cls = V.FinSum if kind == "sum" else V.FinProd
        if ty is not None and ty.kind == "Fin":  # in Fin n and ZMod n, reduced modulo n
            return Value(V.FinWrap(cls(sp.Lambda(var, body), lo, hi), ty.args[0]), ty)
        return Value(cls(sp.Lambda(var, body), lo, hi), ty)

    def _special_Finset_sum(self, args, env, expected) -> Value:
        return self._big_operator(args, env, expected, "sum")

    def _special_Finset_prod(self, args, env, expected) -> Value:
        return self._big_operator(args, env, expected, "prod")

    def _special_Finset_card(self, args, env, expected) -> Value:
        (s_t,) = args
        lo, hi, cond = self._finset(s_t, env, NAT)
        if cond is None:
            return Value(V.NatSub(hi, lo), NAT)
        var = _fresh("j", NAT)
        return Value(V.FinSum(sp.Lambda(var, V.LeanIte(cond(var), 1, 0)), lo, hi), NAT)

    def _minmax(self, args, env, expected, cls) -> Value:
        if len(args) < 2:
            raise Untranslatable(f"{cls.__name__.lower()} with fewer than 2 arguments")
        ty = self._tree_type(list(args[:2]), env, expected)
        a = self._arith(args[0], env, ty)
        b = self._arith(args[1], env, ty)
        return self.apply(Value(cls(a.expr, b.expr), ty), [(x, env) for x in args[2:]], expected)

    def _special_max(self, args, env, expected) -> Value:
        return self._minmax(args, env, expected, sp.Max)

    def _special_min(self, args, env, expected) -> Value:
        return self._minmax(args, env, expected, sp.Min)

    _special_Max_max = _special_max
    _special_Min_min = _special_min

    def _special_Top_top(self, args, env, expected) -> Value:
        """``⊤``: only in ``ℝ≥0∞`` (``∞``), where it is ``sympy.oo``."""
        if expected is None or expected.kind != "ENNReal" or args:
            raise Untranslatable("⊤ outside ℝ≥0∞")
        return Value(sp.oo, ENNREAL)

    def _special_ZMod_val(self, args, env, expected) -> Value:
        """``ZMod.val``: the representative in ``[0, n)``; on ``ZMod 0 = ℤ`` it is ``natAbs``."""
        if len(args) != 1:
            raise Untranslatable("ZMod.val with other than one argument")
        value = self.elab(args[0], env, None)
        if value.ty is not None and value.ty.kind == "Fin":
            return Value(value.expr, NAT)
        if value.ty is not None and value.ty.kind == "Int":
            return Value(sp.Abs(value.expr), NAT)
        raise Untranslatable(f"ZMod.val of a value of type {value.ty}")

    def _special_abs(self, args, env, expected) -> Value:
        ty = self._tree_type([args[0]], env, expected)
        value = self._arith(args[0], env, ty)
        return Value(sp.Abs(value.expr), ty if ty.kind != "Complex" else REAL)

    def _special_Norm_norm(self, args, env, expected) -> Value:
        value = self.elab(args[0], env, None)
        if value.is_fn:
            ty = value.ty
            if ty is None or ty.kind != "Fun" or ty.args[1].is_array:
                raise Untranslatable("‖·‖ of a matrix or nested function",
                                     "Mathlib has no default norm instance there")
            var = _fresh("i", ty.args[0])
            entry = self.apply(value, [(_SymTerm(var, ty.args[0]), Env())], None)
            return Value(V.SupNorm(sp.Lambda(var, sp.Abs(entry.expr)),
                                   self._domain_size(ty.args[0])), REAL)
        return Value(sp.Abs(value.expr), REAL)

    def _special_Matrix_vecMulVec(self, args, env, expected) -> Value:
        u, v = (self.elab(a, env, None) for a in args[:2])
        if not (u.ty and u.ty.kind == "Fun" and v.ty and v.ty.kind == "Fun"):
            raise Untranslatable("Matrix.vecMulVec of vectors of unknown type")
        ty = Ty("Matrix", (u.ty.args[0], v.ty.args[0], u.ty.args[1]))
        result = Value(fn=ArrayFn(V.VecMulVec(self._as_matrix(u), self._as_matrix(v)), ty), ty=ty)
        return self.apply(result, [(x, env) for x in args[2:]], expected)

    def _special_Matrix_mulVec(self, args, env, expected) -> Value:
        a, v = (self.elab(x, env, None) for x in args[:2])
        mat = _matrix_ty(a.ty)
        ty = fun(mat.args[0], mat.args[2])
        result = Value(fn=ArrayFn(V.MulVec(self._as_matrix(a), self._as_matrix(v)), ty), ty=ty)
        return self.apply(result, [(x, env) for x in args[2:]], expected)

    def _special_Matrix_transpose(self, args, env, expected) -> Value:
        a = self.elab(args[0], env, None)
        mat = _matrix_ty(a.ty)
        ty = Ty("Matrix", (mat.args[1], mat.args[0], mat.args[2]))
        result = Value(fn=ArrayFn(V.LMatTranspose(self._as_matrix(a)), ty), ty=ty)
        return self.apply(result, [(x, env) for x in args[1:]], expected)

    def _special_Matrix_of(self, args, env, expected) -> Value:
        if expected is None or expected.kind != "Matrix":
            raise Untranslatable("Matrix.of without a known matrix type")
        f = self.elab(args[0], env, expected)
        result = Value(fn=ArrayFn(self._tabulated(Value(fn=f.fn, ty=expected), expected),
                                  expected), ty=expected)
        return self.apply(result, [(x, env) for x in args[1:]], expected)

    def _special_Finset_univ(self, args, env, expected) -> Value:
        raise Untranslatable("Finset.univ outside a big operator")

    def _special_Function_comp(self, args, env, expected) -> Value:
        if len(args) < 3:
            raise Untranslatable("Function.comp used as a value")
        f_t, g_t, x_t = args[:3]
        inner = T.App(g_t, (x_t,))
        return self.apply(self.elab(f_t, env, None), [(inner, env), *[(a, env) for a in args[3:]]],
                          expected)

    def _special_MeasureTheory_integral(self, args, env, expected) -> Value:
        """``∫ s in I, f s`` over an interval ``I`` of ℝ (or ``∫ s, f s`` over ℝ)."""
        if len(args) != 2 or not isinstance(args[1], T.Lam) or len(args[1].binders) != 1:
            raise Untranslatable("an integral that is not `∫ s in I, f s`")
        lo, hi = self._interval(args[0], env)
        binder = args[1].binders[0]
        var = _fresh(binder.name, REAL)
        body = self.elab(args[1].body, env.extend(**{binder.name: Value(var, REAL)}), REAL)
        if body.is_fn or body.ty is None or body.ty.kind not in ("Real", "Rat", "Nat", "Int"):
            raise Untranslatable("an integral of a non-real function")
        return Value(V.LeanIntegral(sp.Lambda(var, body.expr), lo, hi), REAL)

    def _interval(self, measure: T.Term, env: Env) -> tuple[sp.Basic, sp.Basic]:
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
            bounds = [self._scalar(a, env, REAL) for a in measure.args[1].args]
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

    def _matrix_arg(self, term: T.Term, env: Env) -> tuple[sp.Basic, Ty]:
        value = self.elab(term, env, None)
        if value.ty is None or not value.ty.is_array:
            raise Untranslatable("a matrix property of a value that is not a matrix")
        return self._as_matrix(value), _matrix_ty(value.ty)

    def _special_Matrix_PosDef(self, args, env, expected) -> Value:
        if len(args) != 1:
            raise Untranslatable("Matrix.PosDef with other than one argument")
        matrix, _ = self._matrix_arg(args[0], env)
        return Value(V.PosDef(matrix), PROP)

    def _special_Matrix_det(self, args, env, expected) -> Value:
        matrix, ty = self._matrix_arg(args[0], env)
        return self.apply(Value(V.LMatDet(matrix), ty.args[2]), [(a, env) for a in args[1:]],
                          expected)

    def _special_IsUnit(self, args, env, expected) -> Value:
        """``IsUnit A`` for a square matrix over a field is ``det A ≠ 0``; for a number, ``≠ 0``."""
        if len(args) != 1:
            raise Untranslatable("IsUnit with other than one argument")
        value = self.elab(args[0], env, None)
        if value.ty is not None and value.ty.is_array:
            return Value(sp.Ne(V.LMatDet(self._as_matrix(value)), 0), PROP)
        if value.ty is not None and value.ty.kind in ("Real", "Rat", "Complex"):
            return Value(sp.Ne(value.expr, 0), PROP)
        raise Untranslatable(f"IsUnit in {value.ty}")

    def _special_Fin_append(self, args, env, expected) -> Value:
        if len(args) < 2:
            raise Untranslatable("Fin.append with fewer than 2 arguments")
        u = self.elab(args[0], env, None)
        v = self.elab(args[1], env, None)
        if not (u.ty and u.ty.kind == "Fun" and v.ty and v.ty.kind == "Fun"):
            raise Untranslatable("Fin.append of functions with unknown domains")
        m = u.ty.args[0].args[0]
        n = v.ty.args[0].args[0]
        dom = fin(m + n)
        idx = _fresh("i", dom)
        entry = V.LeanIte(
            sp.Lt(idx, m),
            self._apply_sym(u, idx, u.ty.args[0]),
            self._apply_sym(v, idx - m, v.ty.args[0]),
        )
        ty = fun(dom, u.ty.args[1])
        node = V.Tabulate(sp.Lambda((idx,), entry), sp.Tuple(m + n))
        return self.apply(Value(fn=ArrayFn(node, ty), ty=ty), [(a, env) for a in args[2:]],
                          expected)

    def _apply_sym(self, value: Value, index: sp.Basic, dom: Ty) -> sp.Basic:
        out = self.apply(value, [(_SymTerm(index, dom), Env())], None)
        return self._tabulated(out, out.ty) if out.is_fn else out.expr

    def _special_Fin_castAdd(self, args, env, expected) -> Value:
        if len(args) < 2:
            raise Untranslatable("Fin.castAdd used as a value")
        value = self.elab(args[1], env, None)
        m = self._scalar(args[0], env, NAT)
        size = value.ty.args[0] + m if value.ty is not None and value.ty.kind == "Fin" else None
        return Value(value.expr, fin(size) if size is not None else NAT)

    def _special_Fin_natAdd(self, args, env, expected) -> Value:
        if len(args) < 2:
            raise Untranslatable("Fin.natAdd used as a value")
        n = self._scalar(args[0], env, NAT)
        value = self.elab(args[1], env, None)
        size = value.ty.args[0] + n if value.ty is not None and value.ty.kind == "Fin" else None
        return Value(n + value.expr, fin(size) if size is not None else NAT)

    def _special_Equiv_swap(self, args, env, expected) -> Value:
        if len(args) < 3:
            raise Untranslatable("Equiv.swap used as a value")
        a, b, x = (self._scalar(t, env, NAT) for t in args[:3])
        return Value(V.LeanIte(sp.Eq(x, a), b, V.LeanIte(sp.Eq(x, b), a, x)), NAT)

    def _elab__SymTerm(self, term: "_SymTerm", env: Env, expected: Ty | None) -> Value:
        ty = term.ty
        if ty is None:
            ty = NAT if term.symbol.assumptions0.get("integer") else REAL
        if expected is not None and expected.kind == "Fin" and ty.kind in ("Nat", "Fin"):
            ty = expected
        return Value(term.symbol, ty)

    def _recursive_call(self, marker, name: str, args, env: Env, expected) -> Value:
        """``f params t`` inside the step of ``f``'s recursion: the previous value."""
        _, prev_value, param_names = marker
        for arg, pname in zip(args, param_names):
            if arg != T.Var(pname):
                raise Untranslatable(
                    f"recursive call of {name}",
                    "only recursion with unchanged parameters is supported",
                )
        skip = len(param_names) + 1 + _extra_prop_args(self.declarations[name])
        return self.apply(prev_value, [(a, env) for a in args[skip:]], expected)


_RECURSIVE_MARK = "\x00recursive"


class _TyTerm(T.Hole):
    """A binder type already known as a :class:`Ty` (used when a lambda meets an expected type)."""

    def __init__(self, ty: Ty) -> None:
        object.__setattr__(self, "name", "_")
        object.__setattr__(self, "ty", ty)

    def __hash__(self) -> int:
        return hash(("_TyTerm", self.ty))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _TyTerm) and other.ty == self.ty


class _SymTerm(T.Hole):
    """A term standing for an already translated sympy symbol."""

    def __init__(self, symbol: sp.Basic, ty: Ty | None = None) -> None:
        object.__setattr__(self, "name", "_")
        object.__setattr__(self, "symbol", symbol)
        object.__setattr__(self, "ty", ty)

    def __hash__(self) -> int:
        return hash(("_SymTerm", self.symbol))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _SymTerm) and other.symbol == self.symbol


def _zmod(n: sp.Basic) -> Ty:
    """``ZMod n``: ``ℤ`` for ``n = 0``, else ``Fin n`` (Mathlib's definition)."""
    if not isinstance(n, sp.Integer):
        raise Untranslatable(f"ZMod {n}", "only a numeral modulus is supported (ZMod 0 = ℤ)")
    return INT if n == 0 else fin(n)


#: ``a - b`` on the ordered carriers where it truncates (``tsub``): the floor it stops at.
_TRUNCATED_SUB = {"NNReal": sp.Integer(0), "PNat": sp.Integer(1)}

#: ``ℝ≥0∞`` arithmetic: ``⊤`` absorbs, ``0 * ⊤ = 0``, ``a / 0 = ⊤`` for ``a ≠ 0``.
_ENNREAL_OPS: dict[str, Callable] = {
    "add": V.ENNAdd,
    "sub": V.ENNSub,
    "mul": V.ENNMul,
    "div": lambda a, b: V.ENNMul(a, V.ENNInv(b)),
}


def _is_arith(term: T.Term) -> bool:
    return isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name in _ARITH


def _matrix_ty(ty: Ty | None) -> Ty:
    """``Matrix m n α`` for a matrix or a two-argument function type."""
    if ty is not None and ty.kind == "Matrix":
        return ty
    if ty is not None and ty.kind == "Fun" and ty.args[1].kind == "Fun":
        return Ty("Matrix", (ty.args[0], ty.args[1].args[0], ty.args[1].args[1]))
    raise Untranslatable("a matrix operation on a value that is not a matrix", str(ty))


def _is_type_term(term: T.Term | None) -> bool:
    return term is not None and not (isinstance(term, T.Hole) and not isinstance(term, _TyTerm))


def _mentions_unsolved(term: T.Term, implicit: set[str], env: Env) -> bool:
    return any(
        isinstance(node, T.Var) and node.name in implicit and node.name not in env
        for node in T.walk(term)
    )


def _is_logical(expr: sp.Basic) -> bool:
    """A sympy proposition (not a symbol or array entry that merely holds a truth value)."""
    return isinstance(expr, (sp.logic.boolalg.BooleanFunction, sp.core.relational.Relational,
                             sp.logic.boolalg.BooleanAtom))


def _is_named(term: T.Term) -> bool:
    return (isinstance(term, T.App) and isinstance(term.fn, T.Const)
            and term.fn.name == T.NAMED_ARGUMENT and len(term.args) == 2)


def _post_colon_params(term: T.Term | None) -> list[T.Binder]:
    """The named parameters a definition's type introduces after the colon (``(t : ℕ) → t ≤ T
    → …``), in order. Anonymous arrows (``ℕ → ℝ``) are not parameters of the signature."""
    out: list[T.Binder] = []
    while isinstance(term, T.Pi):
        for binder in term.binders:
            if binder.name == "_" and not _is_prop_type(binder.type):
                return out
            out.append(binder)
        term = term.body
    return out


def _drop_pis(term: T.Term, count: int) -> T.Term:
    """The type after ``count`` leading Pi binders."""
    while count > 0 and isinstance(term, T.Pi):
        binders = term.binders
        if len(binders) > count:
            return T.Pi(binders[count:], term.body)
        count -= len(binders)
        term = term.body
    return term


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
            if not _is_prop_type(binder.type):
                return count
            count += 1
        rest = rest.body
    return count


__all__ = [
    "NAT_DOMAIN",
    "Statement",
    "Translator",
    "Unbound",
    "UnknownConstant",
    "Untranslatable",
    "Variable",
]

