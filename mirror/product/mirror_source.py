"""The decorator line of a generated mirror: a sampling plan written as helper calls.

:func:`decorator_lines` writes ``@mirror(name, settings=…, binders=[dim("T"), …])`` with the
helpers of :mod:`mirror.evaluate.generated`. Every piece is built as a pair (its source
text, the value calling it gives), so the plan the written text builds is checked equal to
the plan it stands for before anything is written; a plan entry the short helpers cannot
say is written with the general :func:`~mirror.evaluate.generated.variable` and literal
fields. Only literals (``repr`` of JSON-able data) and the helpers' names are written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bridge.errors import InvalidArgument
from mirror.evaluate import generated as helpers
from mirror.translate.identifiers import binder_identifiers, injective_names, readable
from mirror.translate.layout import WIDTH

#: The helpers a generated mirror module imports.
HELPER_NAMES = ("NAT", "above", "array", "at_least", "at_most", "below", "dim", "fin",
                "integer", "mirror", "nat", "op", "real", "variable")


@dataclass(frozen=True)
class Piece:
    """Source text and the value it evaluates to."""

    text: str
    value: Any


def literal(value: Any) -> Piece:
    return Piece(repr(value), value)


def _arg(value: Any) -> Piece:
    if isinstance(value, Piece):
        return value
    if isinstance(value, list):
        items = [_arg(v) for v in value]
        return Piece("[" + ", ".join(i.text for i in items) + "]", [i.value for i in items])
    return literal(value)


def call(fn: str, *args: Any, **kwargs: Any) -> Piece:
    """``fn(*args, **kwargs)`` of a helper, as text and as its value."""
    pieces = [_arg(a) for a in args]
    named = {k: _arg(v) for k, v in kwargs.items()}
    text = ", ".join([p.text for p in pieces] + [f"{k}={p.text}" for k, p in named.items()])
    value = getattr(helpers, fn)(*[p.value for p in pieces],
                                 **{k: p.value for k, p in named.items()})
    return Piece(f"{fn}({text})", value)


def _tree(node: Any) -> Any:
    """A bound tree node as ``"T"``, a number, :func:`op` or (otherwise) a literal dict."""
    if isinstance(node, dict):
        if node.keys() == {"var"} and isinstance(node["var"], str):
            return node["var"]
        if node.keys() == {"const"} and type(node["const"]) in (int, float):
            return node["const"]
        if node.keys() == {"op", "args"} and isinstance(node["args"], list):
            return call("op", node["op"], *[_tree(a) for a in node["args"]])
    return node


def _size(size: Any) -> Any:
    if size == helpers.NAT:
        return Piece("NAT", helpers.NAT)
    if isinstance(size, dict) and size.keys() == {"expr"}:
        inner = _tree(size["expr"])
        return inner if isinstance(inner, Piece) else size
    return _tree(size)


def _bound(bound: Any, upper: bool) -> Any:
    if not isinstance(bound, dict) or not isinstance(bound.get("strict"), bool):
        return bound
    name = ("below" if upper else "above") if bound["strict"] else (
        "at_most" if upper else "at_least")
    rest = {k: v for k, v in bound.items() if k != "strict"}
    if rest.keys() == {"const"} and type(rest["const"]) in (int, float):
        return call(name, rest["const"])
    if rest.keys() == {"var", "offset"} and isinstance(rest["var"], str):
        offset = rest["offset"]
        return call(name, rest["var"]) if offset == 0 and type(offset) is int else call(
            name, rest["var"], offset)
    if rest.keys() == {"expr"}:
        inner = _tree(rest["expr"])
        if isinstance(inner, Piece):
            return call(name, inner)
    return bound


_SCALARS = {"nat": "nat", "int": "integer", "real": "real"}


def binder(entry: dict[str, Any], param: str) -> Piece:
    """One plan entry as the shortest helper call that builds it exactly."""
    piece = _short(entry, param)
    if piece is not None and piece.value == entry:
        return piece
    rest = {k: v for k, v in entry.items() if k not in ("name", "kind")}
    if rest.get("param") == param:
        del rest["param"]
    general = call("variable", entry["name"], entry["kind"], **rest)
    checked = {"param": param, **general.value}
    if checked != entry:
        raise InvalidArgument(f"plan entry {entry!r}: cannot be written back exactly")
    return general


def _short(entry: dict[str, Any], param: str) -> Piece | None:
    fields = dict(entry)
    name, kind = fields.pop("name", None), fields.pop("kind", None)
    if not isinstance(name, str) or not isinstance(kind, str):
        return None
    if fields.get("param") == param:
        del fields["param"]
    args: list[Any] = [name]
    kwargs: dict[str, Any] = {}
    if kind == "nat" and fields.get("dimension") is True:
        fn = "dim"
        del fields["dimension"]
    elif kind in _SCALARS:
        fn = _SCALARS[kind]
    elif kind == "fin" and "size" in fields:
        fn = "fin"
        args.append(_size(fields.pop("size")))
    elif kind == "array" and isinstance(fields.get("shape"), list) and "elem" in fields:
        fn = "array"
        args.append(fields.pop("elem"))
        args += [_size(s) for s in fields.pop("shape")]
        for key in ("elem_lo", "elem_hi"):
            value = fields.pop(key, None)
            if value is not None:
                kwargs[key] = _bound(value, key == "elem_hi")
        if "elem_size" in fields:
            kwargs["elem_size"] = _size(fields.pop("elem_size"))
    else:
        fn = "variable"
        args.append(kind)
    if fields.get("dimension") is False:
        del fields["dimension"]
    for key, upper in (("lo", False), ("hi", True)):
        bounds = fields.pop(key, [])
        if not isinstance(bounds, list):
            return None
        if bounds:
            kwargs[key] = [_bound(b, upper) for b in bounds]
    kwargs.update(sorted(fields.items()))
    try:
        piece = call(fn, *args, **kwargs)
    except (TypeError, ValueError):
        return None
    return Piece(piece.text, {"param": param, **piece.value})


def settings_piece(settings: Any, defaults: dict[str, Any]) -> Piece:
    """``SETTINGS`` (the module's defaults), ``dict(SETTINGS, k=v)`` or a literal."""
    if settings == defaults:
        return Piece("SETTINGS", settings)
    if isinstance(settings, dict) and settings.keys() == defaults.keys():
        changed = {k: v for k, v in sorted(settings.items()) if defaults[k] != v}
        text = ", ".join(f"{k}={v!r}" for k, v in changed.items())
        return Piece(f"dict(SETTINGS, {text})", {**defaults, **changed})
    return literal(settings)


def binder_list(plan: dict[str, Any]) -> list[Piece]:
    """The plan's binders as helper calls, in drawing order."""
    variables = plan.get("variables", [])
    params = binder_identifiers(v["name"] for v in variables)
    return [binder(v, params[v["name"]]) for v in variables]


def list_text(pieces: list[Piece]) -> str:
    return "[" + ", ".join(p.text for p in pieces) + "]"


#: Binder lists shorter than this are written where they are used, even when shared.
SHARED_MIN = 40


def shared_binders(plans: list[dict[str, Any]]) -> dict[str, str]:
    """Binder list text → the module-level name of a list that several statements share
    (the Lean ``variable`` block they repeat), named after its binders."""
    counts: dict[str, int] = {}
    names: dict[str, list[str]] = {}
    for plan in plans:
        text = list_text(binder_list(plan))
        counts[text] = counts.get(text, 0) + 1
        names[text] = [v["name"] for v in plan.get("variables", [])]
    shared = [t for t, n in counts.items() if n > 1 and len(t) >= SHARED_MIN]
    return injective_names(
        shared, lambda text: "BINDERS_" + "_".join(readable(n) for n in names[text]),
        keeps=lambda text: False)


def shared_lines(const: str, text: str, pieces: list[Piece]) -> list[str]:
    """``BINDERS_… = [dim('d'), …]`` on lines of at most :data:`WIDTH` characters."""
    one_line = f"{const} = {text}"
    if len(one_line) <= WIDTH:
        return [one_line]
    return [f"{const} = [",
            *pack([p.text + "," for p in pieces[:-1]] + [pieces[-1].text + "]"], " " * 4)]


def decorator_lines(name: str, plan: dict[str, Any], bound: list[str],
                    defaults: dict[str, Any], shared: dict[str, str] | None = None) -> list[str]:
    """``@mirror(...)`` for ``plan``, checked to build ``plan`` exactly; a binder list in
    ``shared`` (text → module-level name) is written by its name."""
    fields = dict(plan)
    variables = fields.pop("variables", [])
    binders = binder_list(plan)
    const = (shared or {}).get(list_text(binders))
    kwargs: dict[str, Any] = {"settings": settings_piece(fields.pop("settings", None), defaults)}
    if bound:
        kwargs["bound"] = list(bound)
    for key in ("hypotheses", "constructive", "domains"):
        value = fields.pop(key, [])
        if value:
            kwargs[key] = value
    if fields.get("version") == 1:
        del fields["version"]
    kwargs.update(sorted(fields.items()))
    head = call("mirror", name, **kwargs, binders=binders)
    built = head.value(_probe(variables))
    if built.plan != plan or built.bound_to != sorted(bound):
        raise InvalidArgument(f"plan of {name!r}: the generated helpers do not rebuild it")
    parts = [repr(name)] + [f"{k}={_arg(v).text}" for k, v in kwargs.items()]
    listed = "binders=" + (const or list_text(binders))
    one_line = "@mirror(" + ", ".join(parts + [listed]) + ")"
    if len(one_line) <= WIDTH:
        return [one_line]
    if len(listed) + 6 <= WIDTH:
        return ["@mirror(", *pack([p + "," for p in parts] + [listed + ")"], " " * 4)]
    return ["@mirror(", *pack([p + "," for p in parts] + ["binders=["], " " * 4),
            *pack([b.text + "," for b in binders[:-1]] + [binders[-1].text + "])"], " " * 8)]


def pack(items: list[str], pad: str) -> list[str]:
    """``items`` on as few lines of at most :data:`WIDTH` characters as they fit."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 1 + len(item) <= WIDTH:
            lines[-1] += " " + item
        else:
            lines.append(pad + item)
    return lines


def _probe(variables: list[dict[str, Any]]):
    """A function whose parameters are the plan's, for checking the decorator."""
    params = [v["param"] for v in variables]

    def probe(rt, **kwargs):  # noqa: ARG001 - a stand-in, never called
        return None

    import inspect

    probe.__signature__ = inspect.Signature(
        [inspect.Parameter("rt", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(p, inspect.Parameter.KEYWORD_ONLY) for p in params])
    probe.__name__ = "probe"
    return probe


__all__ = ["HELPER_NAMES", "Piece", "binder", "call", "decorator_lines", "literal", "pack",
           "settings_piece"]
