"""Structure fields: ``structure S where x : ℝ …`` read as the constructor's telescope.

The scanner stores a structure's fields as its ``value``: ``Pi(fields, Const(S))``, the type
of ``S.mk`` (``(x : ℝ) → (y : ℝ) → (hx : 0 ≤ x) → S``). A field's type may name the
fields before it, which are bound variables there. Fields with defaults keep their type only.
"""

from __future__ import annotations

from typing import Callable

from bridge import term as T
from bridge.commands import _CLOSERS, _OPENERS
from bridge.lexer import Token
from bridge.parser import KEYWORDS, Parser

#: Words that end the field list (a ``deriving`` clause) or are not fields.
_STOPS = frozenset({"deriving"})


def _field_lines(tokens: list[Token]) -> list[list[Token]]:
    """The tokens of each field: a field starts on a new line at bracket depth 0."""
    lines: list[list[Token]] = []
    depth = 0
    for tok in tokens:
        starts = depth == 0 and tok.newline_before and not (lines and _continues(lines[-1], tok))
        if starts or not lines:
            lines.append([])
        lines[-1].append(tok)
        if tok.kind == "sym" and tok.text in _OPENERS:
            depth += 1
        elif tok.kind == "sym" and tok.text in _CLOSERS:
            depth = max(0, depth - 1)
    return [line for line in lines if line]


def _continues(line: list[Token], tok: Token) -> bool:
    """A token on a new line that continues the field before it (indented past its start)."""
    return tok.column > line[0].column


def structure_fields(tokens: list[Token],
                     parser: Callable[[list[Token], list[str]], Parser]) -> T.Term | None:
    """``Pi(fields, Hole)`` for the tokens after ``where``; ``None`` when a field is not
    ``names : type`` or a binder group (the structure then has no fields the mirror can use).

    ``parser(tokens, locals)`` makes a term parser for a slice of the file's tokens."""
    fields: list[T.Binder] = []
    names: list[str] = []
    for line in _field_lines(tokens):
        head = line[0]
        if head.kind == "ident" and head.text in _STOPS:
            break
        if len(line) > 1 and line[1].text == "::":  # `mk ::` names the constructor
            line = line[2:]
            if not line:
                continue
        if line[0].kind == "sym" and line[0].text in ("(", "{", "["):
            group_parser = parser(line, names)
            group = group_parser.parse_binder_group()
            fields.extend(group)
            names.extend(b.name for b in group)
            continue
        colon = next((i for i, t in enumerate(line) if t.kind == "sym" and t.text == ":"), None)
        if colon is None or colon == 0 or any(
                t.kind != "ident" or t.text in KEYWORDS for t in line[:colon]):
            return None
        end = next((i for i, t in enumerate(line) if t.kind == "sym" and t.text == ":="),
                   len(line))
        ty = parser(line[colon + 1:end], names).parse_all()
        for tok in line[:colon]:
            fields.append(T.Binder(tok.text, ty))
            names.append(tok.text)
    return T.Pi(tuple(fields), T.Hole("structure")) if fields else None
