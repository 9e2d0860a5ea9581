"""The normalized Lean term: one AST for both front ends.

The exporter (elaborated ``Lean.Expr``) and the source scanner (parsed surface syntax) both
produce these nodes, so translation has exactly one table keyed by Lean constant names.

Normalization rules (both front ends follow them):

- Constants are fully qualified Lean names: ``HAdd.hAdd``, ``Real.exp``, ``Finset.sum``.
- Notation is resolved to the constants Lean elaborates it to: ``a + b`` is
  ``App(Const("HAdd.hAdd"), (a, b))``; ``∑ x ∈ s, f`` is
  ``App(Const("Finset.sum"), (s, Lam((x,), f)))``; ``∑ x, f`` sums over ``Finset.univ``;
  ``if c then a else b`` is ``App(Const("ite"), (c, a, b))``; ``x ∈ s`` is
  ``App(Const("Membership.mem"), (s, x))`` (collection first, as in current Lean);
  ``|x|`` is ``abs``; ``‖x‖`` is ``Norm.norm``; ``a ≠ b`` is ``Ne``; ``¬ p`` is ``Not``;
  ``∃ x, p`` is ``App(Const("Exists"), (Lam((x,), p),))``; ``∃ x ∈ s, p`` is
  ``∃ x, x ∈ s ∧ p``; ``∀ x ∈ s, p`` is ``Pi((x,), Pi((_ : x ∈ s,), p))``.
- Application spines are flattened and hold explicit arguments only (implicit and instance
  arguments are dropped); ``App.ty`` may carry the result type when the front end knows it
  (the exporter always does for arithmetic; the scanner leaves it ``None``).
- ``P → Q`` is a ``Pi`` whose binder is anonymous (name ``"_"``).
- Numerals are ``Lit``: an ``int`` for ``37``, a ``fractions.Fraction`` for ``0.5``.
- A type ascription ``(e : T)`` is ``Typed(e, T)``; a coercion arrow ``↑e`` is ``Coe(e)``.
- ``x.val`` / ``x.1`` on a term the front end cannot type is ``Proj(x, "val")`` /
  ``Proj(x, 1)``; ``⟨a, b⟩`` is ``Anon((a, b))``.
- A named argument ``f (S := 1) x`` (the scanner cannot place it among the implicit
  parameters) stays in the spine as ``App(Const(NAMED_ARGUMENT), (Str("S"), Lit(1)))``; the
  exporter never produces it (elaboration has placed it).

Nodes are immutable and hashable; they compare structurally.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterator, Union

BinderInfo = str  # "default" | "implicit" | "strictImplicit" | "instImplicit"
#: The head of a named argument ``(x := e)`` kept by the scanner.
NAMED_ARGUMENT = "«named argument»"
BINDER_INFOS = ("default", "implicit", "strictImplicit", "instImplicit")


@dataclass(frozen=True)
class Var:
    """A variable, bound by a binder or a declaration's parameter list, by name."""

    name: str


@dataclass(frozen=True)
class Const:
    """A global constant, fully qualified."""

    name: str


@dataclass(frozen=True)
class Lit:
    """A numeric literal: ``int`` for naturals, ``Fraction`` for scientific literals."""

    value: Union[int, Fraction]


@dataclass(frozen=True)
class Str:
    """A string literal (rare in statements; kept so nothing is lost)."""

    value: str


@dataclass(frozen=True)
class Binder:
    """A binder ``(name : type)``; ``info`` is Lean's binder info."""

    name: str
    type: "Term | None"
    info: BinderInfo = "default"


@dataclass(frozen=True)
class App:
    """A flattened application spine with explicit arguments only."""

    fn: "Term"
    args: tuple["Term", ...]
    ty: "Term | None" = field(default=None, compare=False)


@dataclass(frozen=True)
class Lam:
    """``fun (x : T) (y : U) => body``."""

    binders: tuple[Binder, ...]
    body: "Term"


@dataclass(frozen=True)
class Pi:
    """``∀ (x : T), body``; ``P → Q`` is a Pi with an anonymous binder."""

    binders: tuple[Binder, ...]
    body: "Term"


@dataclass(frozen=True)
class Let:
    """``let name : type := value; body``."""

    name: str
    type: "Term | None"
    value: "Term"
    body: "Term"


@dataclass(frozen=True)
class Typed:
    """A type ascription ``(expr : type)``."""

    expr: "Term"
    type: "Term"


@dataclass(frozen=True)
class Coe:
    """A coercion arrow ``↑expr`` whose target type the front end does not know."""

    expr: "Term"


@dataclass(frozen=True)
class Proj:
    """A projection ``expr.field`` (``field`` is a name or a 1-based index)."""

    expr: "Term"
    field: Union[str, int]


@dataclass(frozen=True)
class Anon:
    """An anonymous constructor ``⟨a, b, …⟩``."""

    args: tuple["Term", ...]


@dataclass(frozen=True)
class Sort:
    """``Prop``, ``Type``, ``Type u``, ``Sort u``: ``level`` 0 is ``Prop``."""

    level: Union[int, str] = 0


@dataclass(frozen=True)
class Hole:
    """``_`` or ``?x``: a placeholder the front end could not fill."""

    name: str = "_"


Term = Union[Var, Const, Lit, Str, App, Lam, Pi, Let, Typed, Coe, Proj, Anon, Sort, Hole]
TERM_TYPES = (Var, Const, Lit, Str, App, Lam, Pi, Let, Typed, Coe, Proj, Anon, Sort, Hole)


def app(name: str, *args: Term) -> App:
    """Build ``App(Const(name), args)``."""
    return App(Const(name), tuple(args))


def children(term: Term) -> Iterator[Term]:
    """Yield the direct sub-terms of ``term`` (binder types included)."""
    if isinstance(term, App):
        yield term.fn
        yield from term.args
    elif isinstance(term, (Lam, Pi)):
        for binder in term.binders:
            if binder.type is not None:
                yield binder.type
        yield term.body
    elif isinstance(term, Let):
        if term.type is not None:
            yield term.type
        yield term.value
        yield term.body
    elif isinstance(term, Typed):
        yield term.expr
        yield term.type
    elif isinstance(term, (Coe, Proj)):
        yield term.expr
    elif isinstance(term, Anon):
        yield from term.args


def map_plain(term: Term, f: Callable[[Term], Term],
              type_of: Callable[[Term], Term] | None = None) -> Term | None:
    """``term`` rebuilt with ``f`` applied to its direct sub-terms, for the node kinds that bind
    nothing (application, ascription, coercion, projection, anonymous constructor); ``None``
    for the others (binders, ``let``, atoms), which a rewriter handles itself. The type of an
    ascription is kept unless ``type_of`` maps it."""
    if isinstance(term, App):
        return App(f(term.fn), tuple(f(a) for a in term.args), term.ty)
    if isinstance(term, Typed):
        return Typed(f(term.expr), term.type if type_of is None else type_of(term.type))
    if isinstance(term, Coe):
        return Coe(f(term.expr))
    if isinstance(term, Proj):
        return Proj(f(term.expr), term.field)
    if isinstance(term, Anon):
        return Anon(tuple(f(a) for a in term.args))
    return None


def walk(term: Term) -> Iterator[Term]:
    """Yield ``term`` and every sub-term, depth first."""
    stack = [term]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(list(children(node))))


def constants(term: Term) -> frozenset[str]:
    """The names of all constants occurring in ``term``."""
    return frozenset(node.name for node in walk(term) if isinstance(node, Const))


def free_vars(term: Term) -> frozenset[str]:
    """The names of variables occurring free in ``term``."""
    out: set[str] = set()
    _collect_free(term, frozenset(), out)
    return frozenset(out)


def _collect_free(term: Term, bound: frozenset[str], out: set[str]) -> None:
    while True:
        kind = type(term)
        if kind is Var:
            if term.name not in bound:
                out.add(term.name)
            return
        if kind is App:
            _collect_free(term.fn, bound, out)
            for arg in term.args:
                _collect_free(arg, bound, out)
            return
        if kind is Lam or kind is Pi:
            for binder in term.binders:
                if binder.type is not None:
                    _collect_free(binder.type, bound, out)
                bound = bound | {binder.name}
            term = term.body
            continue
        if kind is Let:
            if term.type is not None:
                _collect_free(term.type, bound, out)
            _collect_free(term.value, bound, out)
            bound = bound | {term.name}
            term = term.body
            continue
        for child in children(term):
            _collect_free(child, bound, out)
        return


def to_json(term: Term | None) -> object:
    """A JSON-ready structure for ``term`` (the inverse of :func:`from_json`)."""
    if term is None:
        return None
    if isinstance(term, Var):
        return {"var": term.name}
    if isinstance(term, Const):
        return {"const": term.name}
    if isinstance(term, Lit):
        if isinstance(term.value, Fraction):
            return {"lit": [term.value.numerator, term.value.denominator]}
        return {"lit": term.value}
    if isinstance(term, Str):
        return {"str": term.value}
    if isinstance(term, App):
        out = {"app": to_json(term.fn), "args": [to_json(a) for a in term.args]}
        if term.ty is not None:
            out["ty"] = to_json(term.ty)
        return out
    if isinstance(term, (Lam, Pi)):
        key = "lam" if isinstance(term, Lam) else "pi"
        return {
            key: [
                {"name": b.name, "type": to_json(b.type), "info": b.info} for b in term.binders
            ],
            "body": to_json(term.body),
        }
    if isinstance(term, Let):
        return {
            "let": term.name,
            "type": to_json(term.type),
            "value": to_json(term.value),
            "body": to_json(term.body),
        }
    if isinstance(term, Typed):
        return {"typed": to_json(term.expr), "type": to_json(term.type)}
    if isinstance(term, Coe):
        return {"coe": to_json(term.expr)}
    if isinstance(term, Proj):
        return {"proj": to_json(term.expr), "field": term.field}
    if isinstance(term, Anon):
        return {"anon": [to_json(a) for a in term.args]}
    if isinstance(term, Sort):
        return {"sort": term.level}
    if isinstance(term, Hole):
        return {"hole": term.name}
    raise TypeError(f"to_json: expected a Term, got {type(term).__name__}")


def from_json(data: object) -> Term | None:
    """Rebuild a term from :func:`to_json` output; raises ``ValueError`` on malformed data."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError(f"term JSON: expected an object, got {type(data).__name__}")
    if "var" in data:
        return Var(str(data["var"]))
    if "const" in data:
        return Const(str(data["const"]))
    if "lit" in data:
        value = data["lit"]
        if isinstance(value, list) and len(value) == 2:
            return Lit(Fraction(int(value[0]), int(value[1])))
        if isinstance(value, int) and not isinstance(value, bool):
            return Lit(value)
        raise ValueError(f"term JSON: bad literal {value!r}")
    if "str" in data:
        return Str(str(data["str"]))
    if "app" in data:
        args = data.get("args", [])
        if not isinstance(args, list):
            raise ValueError("term JSON: 'args' must be a list")
        return App(
            from_json(data["app"]),
            tuple(from_json(a) for a in args),
            from_json(data.get("ty")),
        )
    for key, cls in (("lam", Lam), ("pi", Pi)):
        if key in data:
            binders = data[key]
            if not isinstance(binders, list):
                raise ValueError(f"term JSON: '{key}' must be a list of binders")
            return cls(
                tuple(
                    Binder(str(b["name"]), from_json(b.get("type")), str(b.get("info", "default")))
                    for b in binders
                ),
                from_json(data["body"]),
            )
    if "let" in data:
        return Let(
            str(data["let"]),
            from_json(data.get("type")),
            from_json(data["value"]),
            from_json(data["body"]),
        )
    if "typed" in data:
        return Typed(from_json(data["typed"]), from_json(data["type"]))
    if "coe" in data:
        return Coe(from_json(data["coe"]))
    if "proj" in data:
        return Proj(from_json(data["proj"]), data["field"])
    if "anon" in data:
        return Anon(tuple(from_json(a) for a in data["anon"]))
    if "sort" in data:
        return Sort(data["sort"])
    if "hole" in data:
        return Hole(str(data["hole"]))
    raise ValueError(f"term JSON: unknown node with keys {sorted(data)}")


def substitute(term: Term, mapping: dict[str, Term]) -> Term:
    """Replace the free variables named in ``mapping`` (binders shadow; no renaming is done)."""
    if not mapping:
        return term
    if isinstance(term, Var):
        return mapping.get(term.name, term)
    if isinstance(term, App):
        return App(substitute(term.fn, mapping), tuple(substitute(a, mapping) for a in term.args), term.ty)
    if isinstance(term, (Lam, Pi)):
        inner = dict(mapping)
        binders = []
        for b in term.binders:
            binders.append(Binder(b.name, None if b.type is None else substitute(b.type, inner), b.info))
            inner.pop(b.name, None)
        return type(term)(tuple(binders), substitute(term.body, inner))
    if isinstance(term, Let):
        inner = {k: v for k, v in mapping.items() if k != term.name}
        return Let(term.name, None if term.type is None else substitute(term.type, mapping),
                   substitute(term.value, mapping), substitute(term.body, inner))
    if isinstance(term, Typed):
        return Typed(substitute(term.expr, mapping), substitute(term.type, mapping))
    if isinstance(term, Coe):
        return Coe(substitute(term.expr, mapping))
    if isinstance(term, Proj):
        return Proj(substitute(term.expr, mapping), term.field)
    if isinstance(term, Anon):
        return Anon(tuple(substitute(a, mapping) for a in term.args))
    return term
