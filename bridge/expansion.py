"""Notation in use: expanding a notation where the term parser meets it.

The parser (:class:`bridge.parser.Parser`, passed in as ``parser``) calls :func:`expand` at a
token that starts a notation of its table (:mod:`bridge.notation` reads the declarations) and
:func:`glued_atom_at` to tell a looser notation's glued atom from its own syntax. Holes are
parsed by the parser at the notation's precedences; the right-hand side is parsed once per
set of names bound at the use and cached on the table.
"""

from __future__ import annotations

from typing import Sequence

from bridge import term as T
from bridge.errors import LeanParseError
from bridge.lexer import Token
from bridge.notation import Item, Notation
from bridge.term import Binder


def _atom_at(parser, item: Item, pos: int) -> int | None:
    """Index after ``item``'s tokens matched at ``pos`` (glued to each other), else ``None``."""
    tokens = parser.tokens
    prev: Token | None = None
    for text in item.tokens:
        if pos >= len(tokens):
            return None
        tok = tokens[pos]
        if tok.text != text or tok.kind in ("str", "char", "doc", "moddoc", "error"):
            return None
        if prev is not None and tok.start != prev.end:
            return None
        prev = tok
        pos += 1
    if prev is not None and prev.kind == "ident" and pos < len(tokens) and tokens[pos].start == prev.end \
            and tokens[pos].kind == "ident":
        return None
    return pos


def glued_atom_at(parser, candidates: Sequence[Notation]) -> bool:
    """Whether the first atom of one of ``candidates``, written in several glued tokens
    (``⁻¹'``, ``*ᵥ``), is at the parser's position."""
    return any(len(n.first_atom.tokens) > 1 and _atom_at(parser, n.first_atom, parser.pos) is not None
               for n in candidates)


def expand(parser, candidates: Sequence[Notation], left=None, left_prec: int = 0, min_prec: int = 0):
    """Parse one of ``candidates`` at the parser's position: ``(term, precedence)`` or ``None``
    when none applies (the caller's built-in syntax goes on).

    Longer notations are tried first. When a candidate whose first atom is distinctive (several
    tokens, like ``I[``, or a name, like ``k``) is present but the rest does not parse, the
    error that got furthest is raised. A scoped notation whose namespace is not open is
    skipped; if it alone would have parsed, that is a located error naming the namespace."""
    inactive: list[Notation] = []
    failure: LeanParseError | None = None
    start = parser.pos
    for notation in candidates:
        if notation.trailing and (notation.prec < min_prec or left_prec < notation.items[0].prec):
            continue
        first = notation.first_atom
        if _atom_at(parser, first, start) is None:
            continue
        if notation.scope is not None and parser.scopes is not None and notation.scope not in parser.scopes:
            if len(first.tokens) > 1 or parser.tokens[start].kind != "ident":
                inactive.append(notation)  # a closed scope's one-name atom is just a name
            continue
        try:
            return _attempt(parser, notation, left), notation.prec
        except LeanParseError as exc:
            distinctive = len(first.tokens) > 1 or parser.tokens[start].kind == "ident"
            if distinctive and (failure is None or (exc.line, exc.column) > (failure.line, failure.column)):
                failure = exc
    if failure is not None:
        raise failure
    for notation in inactive:
        try:
            _attempt(parser, notation, left)
        except LeanParseError:
            continue
        parser.pos = start
        raise parser.error(
            f"notation {notation.name!r} is scoped in namespace {notation.scope}, which is not open here",
            f"'open {notation.scope}' or 'open scoped {notation.scope}' before this use",
            construct=notation.name,
        )
    return None


def _attempt(parser, notation: Notation, left):
    """Expand ``notation`` at the parser's position; on failure the position is restored."""
    start, mark, stops = parser.pos, len(parser.bound), parser.stops
    try:
        return _expand_one(parser, notation, left)
    except Exception:
        parser.pos = start
        raise
    finally:
        del parser.bound[mark:]
        parser.stops = stops


def _expand_one(parser, notation: Notation, left):
    items = notation.items
    values: dict[str, object] = {}
    args: list = []
    index = 0
    if notation.trailing:
        values[items[0].name] = left
        args.append(left)
        index = 1
    binders: list = []
    preds: list = []
    for i in range(index, len(items)):
        item = items[i]
        follow = items[i + 1] if i + 1 < len(items) else None
        stop = frozenset((follow.tokens[0],)) if follow is not None and follow.kind == "atom" else frozenset()
        if item.kind == "atom":
            end = _atom_at(parser, item, parser.pos)
            if end is None:
                raise parser.error(f"unexpected {parser.describe()}", repr("".join(item.tokens)),
                                   construct=notation.name)
            parser.pos = end
        elif item.kind == "hole":
            parser.stops = stop
            value = parser.parse_expr(item.prec)
            values[item.name] = value
            args.append(value)
        elif item.kind == "binders":
            parser.stops = stop
            binders, preds = parser.scoped_binders(tuple(stop) or (",",))
        else:
            parser.stops = stop
            body = parser.parse_expr(item.prec)
            # `⋃ i ∈ s, f i` is `⋃ i, ⋃ (_ : i ∈ s), f i`, as notation3's extended binders read it
            guards = {name: parser.binder_predicate(name, op, rhs) for name, op, rhs in preds}
            for binder in reversed(binders):
                layers = [Binder("_", guards[binder.name]), binder] if binder.name in guards else [binder]
                for layer in layers:
                    scope = dict(values)
                    scope[item.var] = T.Lam((layer,), body)
                    body = _template(parser, item.template, scope, notation)
            values[item.name] = body
            args.append(body)
    if notation.apply:
        return parser.apply_args(_template(parser, notation.rhs, {}, notation), args)
    return _template(parser, notation.rhs, values, notation)


def _template(parser, tokens: Sequence[Token], values: dict, notation: Notation):
    """Parse a right-hand side where the notation is used, then put the hole values in.

    The parse depends only on which of the template's names are bound where it is used, so it
    is cached on the notation table under that set."""
    if parser.depth > 60:
        raise parser.error(f"notation {notation.name!r} expands too deeply", None, construct=notation.name)
    resolve = parser.notation_resolver(notation) if parser.notation_resolver else parser.resolve
    context = set(parser.locals) | set(parser.bound) | set(values)
    names = frozenset(t.parts[0] for t in tokens if t.kind == "ident" and t.parts)
    key = (id(tokens), names & context, resolve)
    cache = parser.notations.templates
    if len(cache) > 4096:
        cache.clear()
    if key not in cache:
        sub = type(parser)(tokens, context, resolve, notations=parser.notations, scopes=None,
                           notation_resolver=parser.notation_resolver)
        sub.depth = parser.depth + 1
        try:
            cache[key] = (tokens, sub.parse_all())
        except Exception:  # noqa: BLE001 - a right-hand side outside the fragment stays opaque
            cache[key] = (tokens, None)
    term = cache[key][1]
    if term is None:
        # the use is read (its arguments are parsed); its meaning is an opaque constant named
        # after the notation, which translation reports as unknown
        args = [values[item.name] for item in notation.items if item.kind in ("hole", "scoped")
                and item.name in values]
        return T.App(T.Const(f"«notation {notation.name}»"), tuple(args)) if args \
            else T.Const(f"«notation {notation.name}»")
    return T.substitute(term, values)


__all__ = ["expand", "glued_atom_at"]
