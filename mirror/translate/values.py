"""The translator's data: values, environments, statements, errors and term helpers.

:mod:`mirror.translate.elaborator`, :mod:`mirror.translate.unfolding`, :mod:`mirror.translate.forms` and
:mod:`mirror.translate.translation` share these; nothing here translates.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

import sympy as sp

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.errors import Untranslatable
from mirror.translate.number_theory import DVD
from mirror.translate.types import (
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
    Ty,
    fin,
)

class UnknownType(Untranslatable):
    """A binder or numeral whose Lean type no use of it fixes: nothing is guessed."""

    def __init__(self, name: str, detail: str = "") -> None:
        super().__init__(f"the type of {name}", detail, verb="infer")
        self.name = name


def _binding_line(name: str) -> str:
    """The configuration line binding ``name`` (a TOML key, quoted and escaped) to a function
    the user writes: ``"Foo.bar" = "yourmodule:foo_bar"``."""
    key = json.dumps(name, ensure_ascii=False)
    function = "".join(c if c.isascii() and c.isalnum() else "_" for c in name.rsplit(".", 1)[-1])
    return f'{key} = "yourmodule:{function.lower() or "fn"}"'


class UnknownConstant(Untranslatable):
    """A Lean constant that is neither in the table nor a definition of the project."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"constant {name}",
            "leanmirror has no translation of it and the project does not define it; bind it "
            "in the project: under [tool.leanmirror.bindings] in its pyproject.toml (or in "
            f"leanmirror.toml) add the line {_binding_line(name)}",
        )
        self.name = name


class Unbound(Untranslatable):
    """A definition with no body available (opaque, axiom, or outside the project)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"definition {name}", "no body is available and no implementation is bound")
        self.name = name


#: The symbol standing for the length of the sampled prefix of an ``ℕ → α`` array: a
#: ``Dummy``, equal only to itself, so no binder (``NATDOM : ℕ+``) can become it.
NAT_DOMAIN = sp.Dummy("NATDOM", integer=True, positive=True)


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

    @classmethod
    def of(cls, expr: sp.Basic, ty: Ty | None) -> "Value":
        """``expr`` at ``ty``: an array value (indexable) when ``ty`` is an array type."""
        if ty is not None and ty.is_array:
            return cls(fn=ArrayFn(expr, ty), ty=ty)
        return cls(expr, ty)


class Env(dict):
    """Variable name → :class:`Value` (or a :class:`Ty` for type variables).

    ``recursion`` is the recursive definition whose step is being elaborated (its own
    calls inside the step read the previous value); a child environment inherits it."""

    def __init__(self, parent: Any = (), /, **values: Any) -> None:
        super().__init__(parent, **values)
        self.recursion: "RecursiveStep | RecursiveSystem | None" = getattr(parent, "recursion",
                                                                           None)

    def extend(self, **values: Any) -> "Env":
        child = Env(self)
        child.update(values)
        return child

    def __hash__(self) -> int:  # closures are frozen dataclasses holding an Env
        return id(self)


@dataclass(frozen=True)
class Known:
    """A term already translated: a sympy expression (a bound dummy, an index) with its type.

    The elaborator returns it as it is, so code that holds a sympy value can pass it where a
    Lean term is expected (applying a function value to a fresh index, say)."""

    expr: sp.Basic
    ty: Ty | None = None


@dataclass(frozen=True)
class KnownType:
    """A binder type already known as a :class:`Ty` (a lambda met with an expected type)."""

    ty: Ty


@dataclass(frozen=True)
class RecursiveStep:
    """The step ``| t + 1 => …`` of a recursive definition being elaborated: its own call
    reads ``previous`` when the explicit parameters are passed unchanged and the recursion
    argument is ``t`` (named ``argument``)."""

    name: str
    previous: "Value"
    params: tuple[str, ...]
    extra_proofs: int
    argument: str = ""

    def calls(self, name: str) -> bool:
        return name == self.name


@dataclass(frozen=True)
class MemberSignature:
    """A member of a recursive system: its explicit parameters' types in order (``None`` for
    a proof, which is not passed), its result type, and whether that is a proposition."""

    params: tuple[Ty | None, ...]
    result: Ty
    truth: bool


@dataclass(frozen=True)
class RecursiveSystem:
    """The definitions of one recursive system (a definition, or a ``mutual`` block) whose
    bodies are being elaborated: a call of a member is a
    :class:`~mirror.translate.recursive_nodes.RecursiveCall`."""

    members: dict[str, MemberSignature]

    def calls(self, name: str) -> bool:
        return name in self.members

    def __hash__(self) -> int:
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
    notes: list[str] = field(default_factory=list)
    #: Variables defined by equation hypotheses, in an order that computes each from drawn or
    #: already computed values (the planner copies bare-variable definitions, the printer
    #: recomputes every one).
    definitions: list[Definition] = field(default_factory=list)


class Elab(Protocol):
    """What the special forms (:mod:`mirror.translate.forms`) and finite sets
    (:mod:`mirror.translate.finsets`) call on the elaborator: the methods of
    :class:`mirror.translate.elaborator.Elaborator` they use, named here so that those modules
    do not import the elaborator (which imports them)."""

    def elab(self, term: T.Term, env: Env, expected: Ty | None) -> Value: ...
    def scalar(self, term: T.Term, env: Env, expected: Ty | None) -> sp.Basic: ...
    def apply(self, head: Value, args: list, expected: Ty | None) -> Value: ...
    def prop(self, term: T.Term, env: Env) -> sp.Basic: ...
    def arith(self, term: T.Term, env: Env, ty: Ty) -> Value: ...
    def coerce(self, value: Value, target: Ty) -> Value: ...
    def tree_type(self, terms: list, env: Env, expected: Ty | None) -> Ty: ...
    def tabulated(self, value: Value, ty: Ty | None) -> sp.Basic: ...
    def as_matrix(self, value: Value) -> sp.Basic: ...
    def domain_size(self, ty: Ty) -> sp.Basic: ...
    def type_of(self, term: T.Term, env: Env) -> Ty: ...
    def type_range(self, ty: Ty) -> tuple: ...
    def infer_binder_type(self, name: str, body: T.Term, env: Env) -> Ty: ...
    def fin_quant(self, cls: type, name: str, ty: Ty, lo: sp.Basic, hi: sp.Basic, cond: Any,
                  body_t: T.Term, env: Env) -> sp.Basic: ...


# --------------------------------------------------------------------------------------------
# Tables

ARITH = {
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
RELATIONS = {"Eq": "eq", "Ne": "ne", "LT.lt": "lt", "LE.le": "le", "GT.gt": "gt", "GE.ge": "ge"}

TYPE_NAMES = {
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


def fresh(name: str, ty: Ty) -> sp.Dummy:
    return sp.Dummy(_symbol_name(name), **assumptions(ty))


def _symbol_name(name: str) -> str:
    return name if name and name != "_" else "x"


def assumptions(ty: Ty | None) -> dict[str, bool]:
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


def is_prop_type(term: T.Term | None) -> bool:
    """A binder type that is a proposition (its value is a proof, irrelevant at run time)."""
    if term is None:
        return False
    if isinstance(term, T.App) and isinstance(term.fn, T.Const):
        return term.fn.name in RELATIONS or term.fn.name in (
            "And",
            "Or",
            "Not",
            "Iff",
            "Membership.mem",
            "Exists",
            "Matrix.PosDef",
            "Matrix.PosSemidef",
            "Nat.Prime",
            "Dvd.dvd",
            DVD,
        )
    if isinstance(term, T.Const):
        return term.name in ("True", "False")
    if isinstance(term, T.Pi):
        return is_prop_type(term.body)
    return False


def zmod(n: sp.Basic) -> Ty:
    """``ZMod n``: ``ℤ`` for ``n = 0``, else ``Fin n`` (Mathlib's definition)."""
    if not isinstance(n, sp.Integer):
        raise Untranslatable(f"ZMod {n}", "only a numeral modulus is supported (ZMod 0 = ℤ)")
    return INT if n == 0 else Ty("Fin", (n,), zmod=True)


#: Arguments an arithmetic operation takes (the others are binary); more are an application
#: of its value (``(1 - A) i j`` reads an entry of the matrix ``1 - A``).
ARITY = {"neg": 1, "inv": 1}


def arity(name: str) -> int:
    """How many arguments the arithmetic operation ``name`` (a key of :data:`ARITH`) takes."""
    return ARITY.get(ARITH[name], 2)


def is_arith(term: T.Term) -> bool:
    """An arithmetic operation on its own arguments (not its value applied further)."""
    return (isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name in ARITH
            and len(term.args) <= arity(term.fn.name))


def binop_leaves(term: T.Term) -> list[T.Term]:
    """The operands ``binop%`` elaborates at one type in the arithmetic tree ``term`` (a power's
    base, never its exponent; a scalar product's vector); ``[term]`` when it is no arithmetic."""
    if is_arith(term):
        kind = ARITH[term.fn.name]
        if kind == "pow":
            return binop_leaves(term.args[0])
        if kind == "smul":
            return binop_leaves(term.args[1])
        return [leaf for arg in term.args for leaf in binop_leaves(arg)]
    return [term]


def over_applied(term: T.Term) -> tuple[T.Term, tuple] | None:
    """``(op a b, (i, j, …))`` for an arithmetic value applied to arguments, else ``None``."""
    if (isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name in ARITH
            and len(term.args) > arity(term.fn.name)):
        k = arity(term.fn.name)
        return T.App(term.fn, term.args[:k]), term.args[k:]
    return None


def matrix_ty(ty: Ty | None) -> Ty:
    """``Matrix m n α`` for a matrix or a two-argument function type."""
    if ty is not None and ty.kind == "Matrix":
        return ty
    if ty is not None and ty.kind == "Fun" and ty.args[1].kind == "Fun":
        return Ty("Matrix", (ty.args[0], ty.args[1].args[0], ty.args[1].args[1]))
    raise Untranslatable("a matrix operation on a value that is not a matrix", str(ty))


def is_named(term: T.Term) -> bool:
    """A named argument ``(x := e)`` of an application."""
    return (isinstance(term, T.App) and isinstance(term.fn, T.Const)
            and term.fn.name == T.NAMED_ARGUMENT and len(term.args) == 2)


def is_type_term(term: T.Term | None) -> bool:
    """A written binder type (or one already known), not a placeholder ``_``."""
    return term is not None and not isinstance(term, T.Hole)


def is_logical(expr: sp.Basic) -> bool:
    """A sympy proposition (not a symbol or array entry that merely holds a truth value)."""
    return isinstance(expr, (sp.logic.boolalg.BooleanFunction, sp.core.relational.Relational,
                             sp.logic.boolalg.BooleanAtom))


def post_colon_params(term: T.Term | None) -> list[T.Binder]:
    """The named parameters a definition's type introduces after the colon (``(t : ℕ) → t ≤ T
    → …``), in order. Anonymous arrows (``ℕ → ℝ``) are not parameters of the signature."""
    out: list[T.Binder] = []
    while isinstance(term, T.Pi):
        for binder in term.binders:
            if binder.name == "_" and not is_prop_type(binder.type):
                return out
            out.append(binder)
        term = term.body
    return out


def drop_pis(term: T.Term, count: int) -> T.Term:
    """The type after ``count`` leading Pi binders."""
    while count > 0 and isinstance(term, T.Pi):
        binders = term.binders
        if len(binders) > count:
            return T.Pi(binders[count:], term.body)
        count -= len(binders)
        term = term.body
    return term
