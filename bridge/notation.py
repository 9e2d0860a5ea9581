"""Notation as Lean reads it: mixfix notations, their scopes, and how a term uses them.

A :class:`Notation` is what a ``notation``/``notation3``/``infix``/``infixl``/``infixr``/
``prefix``/``postfix`` command (or a simple ``syntax`` + ``macro_rules`` pair) declares: a
sequence of items — atoms (``"I["``), holes (``X``, ``X:51``), notation3 binders (``(...)``)
and scoped holes (``r:(scoped P => ae μ |>.Eventually P)``) — and a right-hand side, kept as
tokens and parsed where the notation is used (the holes become the parsed arguments).

:func:`read_notation_command` reads one such command from tokens; the scanner calls it on the
project's own commands and ``tools/mathlib_notation.py`` calls it on Mathlib's sources to
write ``bridge/data/mathlib_notation.json`` (from the excerpts of Mathlib's notation commands in
``bridge/data/mathlib_excerpts/``, each naming its file and commit), which
:func:`mathlib_notations` loads. Expanding a notation where a term uses it is
:mod:`bridge.expansion`'s. A notation declared ``scoped`` (or ``scoped[NS]``) is active only where its namespace is open
(``open NS``, ``open scoped NS``, ``open NS in``, inside ``namespace NS``), as in Lean.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from typing import Sequence

from bridge.lexer import Token, tokenize

#: Commands that declare notation, and the modifiers that may precede them.
NOTATION_COMMANDS = frozenset({"notation", "notation3", "infix", "infixl", "infixr", "prefix", "postfix"})
#: Lean's named precedences.
NAMED_PRECEDENCES = {"max": 1024, "arg": 1023, "lead": 1022, "min": 10, "min1": 11}
#: The packaged table of Mathlib's notations.
MATHLIB_TABLE = "mathlib_notation.json"


@dataclass(frozen=True)
class Item:
    """One item of a notation: ``atom`` (``tokens`` to match), ``hole`` (``name``, ``prec``),
    ``binders`` (notation3 ``(...)``) or ``scoped`` (``name`` := template over ``var``)."""

    kind: str
    tokens: tuple[str, ...] = ()
    name: str = ""
    prec: int = 0
    var: str = ""
    template: tuple[Token, ...] = ()


@dataclass(frozen=True)
class Notation:
    """A declared notation. ``apply``: the right-hand side is a function applied to the holes
    (``infix``/``prefix``/``postfix``); otherwise it is a term over the hole names."""

    items: tuple[Item, ...]
    rhs: tuple[Token, ...]
    prec: int
    scope: str | None = None
    apply: bool = False
    namespace: str = ""
    opens: tuple[str, ...] = ()
    source: str = ""
    local: bool = False
    #: The name of the notation as written (its first atom), for diagnostics and counts.
    name: str = field(default="", compare=False)

    @property
    def trailing(self) -> bool:
        """Whether the notation starts with a hole (it continues a term already parsed)."""
        return self.items[0].kind == "hole"

    @cached_property
    def first_atom(self) -> Item:
        """The notation's first atom (where the parser recognizes it)."""
        return next(item for item in self.items if item.kind == "atom")

    @property
    def key(self) -> str:
        """The first token of the first atom: where the parser looks the notation up."""
        for item in self.items:
            if item.kind == "atom":
                return item.tokens[0]
        return ""

    def to_json(self) -> dict:
        """A JSON-ready dict (the table's row format)."""
        items = []
        for item in self.items:
            if item.kind == "atom":
                items.append({"atom": "".join(item.tokens)})
            elif item.kind == "hole":
                items.append({"hole": item.name, "prec": item.prec})
            elif item.kind == "binders":
                items.append({"binders": True})
            else:
                items.append({"scoped": item.name, "var": item.var, "template": _text(item.template),
                              "prec": item.prec})
        return {
            "name": self.name, "items": items, "rhs": _text(self.rhs), "prec": self.prec,
            "scope": self.scope, "apply": self.apply, "namespace": self.namespace,
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: dict) -> "Notation":
        """Inverse of :meth:`to_json`."""
        items = []
        for row in data["items"]:
            if "atom" in row:
                items.append(atom_item(row["atom"]))
            elif "hole" in row:
                items.append(Item("hole", name=row["hole"], prec=int(row.get("prec", 0))))
            elif "binders" in row:
                items.append(Item("binders"))
            else:
                items.append(Item("scoped", name=row["scoped"], var=row["var"],
                                  template=tuple(tokenize(row["template"])), prec=int(row.get("prec", 0))))
        return cls(tuple(items), tuple(tokenize(data["rhs"])), int(data["prec"]), data.get("scope"),
                   bool(data.get("apply")), data.get("namespace", ""), (), data.get("source", ""),
                   False, data.get("name", ""))


def _text(tokens: Sequence[Token]) -> str:
    """Tokens back to text, keeping glued tokens glued."""
    out: list[str] = []
    prev: Token | None = None
    for tok in tokens:
        if prev is not None and tok.start != prev.end:
            out.append(" ")
        out.append(tok.text)
        prev = tok
    return "".join(out)


def atom_item(text: str) -> Item:
    """An atom item; ``" →+ "`` matches the tokens of ``→+`` written without spaces between them."""
    return Item("atom", tokens=tuple(t.text for t in tokenize(text.strip())))


class NotationError(ValueError):
    """A notation command outside the fragment the scanner reads; ``token`` is where."""

    def __init__(self, message: str, token: Token) -> None:
        super().__init__(message)
        self.token = token


def _prec(tokens: Sequence[Token], k: int, end: int) -> tuple[int | None, int]:
    """Read ``:prec`` at ``k`` (``:65``, ``:max``, ``:(max+1)``): ``(value, next index)``."""
    if k + 1 < end and tokens[k].text == ":":
        tok = tokens[k + 1]
        if tok.kind == "num":
            return int(tok.value), k + 2  # type: ignore[arg-type]
        if tok.text in NAMED_PRECEDENCES:
            return NAMED_PRECEDENCES[tok.text], k + 2
        if tok.text == "(":
            j = k + 2
            depth, value = 1, 0
            while j < end and depth:
                t = tokens[j]
                depth += t.text == "("
                depth -= t.text == ")"
                if t.kind == "num":
                    value += int(t.value)  # type: ignore[arg-type]
                elif t.text in NAMED_PRECEDENCES:
                    value += NAMED_PRECEDENCES[t.text]
                j += 1
            return value, j
    return None, k


def read_notation_command(tokens: Sequence[Token], start: int, end: int, namespace: str = "",
                          opens: Sequence[str] = (), source: str = "") -> Notation:
    """Read the notation command ``tokens[start:end]`` (modifiers included, attributes and doc
    comment already skipped). Raises :class:`NotationError` outside the supported fragment."""
    k = start
    scope: str | None = None
    local = False
    while k < end and tokens[k].text in ("local", "scoped"):
        if tokens[k].text == "local":
            local = True
            k += 1
            continue
        k += 1
        scope = namespace or None
        if k < end and tokens[k].text == "[" and tokens[k].start == tokens[k - 1].end:
            scope = tokens[k + 1].text
            k += 3
    if k >= end or tokens[k].text not in NOTATION_COMMANDS:
        raise NotationError("not a notation command", tokens[min(k, end - 1)])
    command = tokens[k].text
    prec, k = _prec(tokens, k + 1, end)
    while k < end and tokens[k].text == "(" and k + 2 < end and tokens[k + 2].text == ":=":
        while k < end and tokens[k].text != ")":  # (name := …) (priority := …)
            k += 1
        k += 1
    arrow = _top_level_arrow(tokens, k, end)
    if arrow is None or arrow + 1 >= end:
        raise NotationError(f"{command} without '=>' and a right-hand side", tokens[min(k, end - 1)])
    rhs = tuple(tokens[arrow + 1 : end])
    if command in ("notation", "notation3"):
        items = _mixfix_items(tokens, k, arrow)
        apply = False
        if prec is None:
            prec = 1024 if items[0].kind == "atom" else 0
    else:
        if k >= arrow or tokens[k].kind != "str":
            raise NotationError(f"{command} without its atom", tokens[k])
        atom = atom_item(str(tokens[k].value))
        p = 1024 if prec is None else prec
        items = {
            "infixl": (Item("hole", name="lhs", prec=p), atom, Item("hole", name="rhs", prec=p + 1)),
            "infixr": (Item("hole", name="lhs", prec=p + 1), atom, Item("hole", name="rhs", prec=p)),
            "infix": (Item("hole", name="lhs", prec=p + 1), atom, Item("hole", name="rhs", prec=p + 1)),
            "prefix": (atom, Item("hole", name="arg", prec=p)),
            "postfix": (Item("hole", name="arg", prec=p), atom),
        }[command]
        prec, apply = p, True
    if not any(item.kind == "atom" for item in items):
        raise NotationError(f"{command} without an atom", tokens[k])
    name = "".join(next(item.tokens for item in items if item.kind == "atom"))
    return Notation(tuple(items), rhs, prec, scope, apply, namespace, tuple(opens), source, local, name)


def read_macro_command(tokens: Sequence[Token], start: int, end: int, namespace: str = "",
                       opens: Sequence[str] = (), source: str = "",
                       operators: dict[str, tuple[str, int, str]] | None = None) -> list[Notation]:
    """Read a simple ``macro_rules`` (each ``| `(pattern) => `(template)``) or ``macro "atom"
    x:term : term => `(template)`` command as notations. A pattern's ``$x`` are holes; a pattern
    that starts with a hole and an infix operator of ``operators`` (``$x ^ $y``) takes that
    operator's precedence. Raises :class:`NotationError` outside this fragment."""
    k = start
    scope: str | None = None
    local = False
    while k < end and tokens[k].text in ("local", "scoped"):
        local = local or tokens[k].text == "local"
        scope = namespace or None if tokens[k].text == "scoped" else scope
        k += 1
    if k >= end or tokens[k].text not in ("macro_rules", "macro"):
        raise NotationError("not a macro command", tokens[min(k, end - 1)])
    command = tokens[k].text
    k += 1
    while k < end and tokens[k].text == "(":  # (kind := term) (name := …) (priority := …)
        k = _close(tokens, k, end) + 1
    out: list[Notation] = []
    if command == "macro":
        prec, k = _prec(tokens, k - 1, end) if tokens[k - 1].text == ":" else (None, k)
        arrow = _top_level_arrow(tokens, k, end)
        colon = max((j for j in range(k, arrow or k) if tokens[j].text == ":" and tokens[j + 1].text == "term"),
                    default=None)
        if arrow is None or colon is None:
            raise NotationError("only 'macro … : term => `(…)' is read", tokens[k - 1])
        items = []
        j = k
        while j < colon:
            tok = tokens[j]
            if tok.kind == "str":
                items.append(atom_item(str(tok.value)))
                j += 1
            elif tok.kind == "ident" and j + 2 < colon and tokens[j + 1].text == ":" and tokens[j + 2].text == "term":
                hole_prec, j = _prec(tokens, j + 3, colon)  # x:term or x:term:prec
                items.append(Item("hole", name=tok.text, prec=0 if hole_prec is None else hole_prec))
            else:
                raise NotationError(f"unsupported macro item {tok.text!r}", tok)
        template = _quotation(tokens, arrow + 1, end)
        if not items or not any(item.kind == "atom" for item in items):
            raise NotationError("macro without an atom", tokens[k])
        name = "".join(next(item.tokens for item in items if item.kind == "atom"))
        return [Notation(tuple(items), template, 1024 if prec is None else prec, scope, False, namespace,
                         tuple(opens), source, local, name)]
    bars = [j for j in range(k, end) if tokens[j].text == "|" and j + 1 < end and tokens[j + 1].text == "`"]
    for a, b in zip(bars, bars[1:] + [end]):
        open_paren = a + 2
        if open_paren >= b or tokens[open_paren].text != "(":
            raise NotationError("only '| `(pattern) => `(template)' alternatives are read", tokens[a])
        close = _close(tokens, open_paren, b)
        if close + 1 >= b or tokens[close + 1].text != "=>":
            raise NotationError("macro_rules alternative without '=>'", tokens[close])
        items = _pattern_items(tokens, open_paren + 1, close, operators or {})
        template = _quotation(tokens, close + 2, b)
        name = "".join(next(item.tokens for item in items if item.kind == "atom"))
        prec = 1024
        if items[0].kind == "hole" and operators and name in operators:
            prec = operators[name][1]
        out.append(Notation(tuple(items), template, prec, scope, False, namespace, tuple(opens), source,
                            local, name))
    if not out:
        raise NotationError("macro_rules without alternatives", tokens[start])
    return out


def _pattern_items(tokens: Sequence[Token], k: int, end: int,
                   operators: dict[str, tuple[str, int, str]]) -> tuple[Item, ...]:
    """Items of a quotation pattern: ``$x`` are holes, other tokens atoms."""
    items: list[Item] = []
    j = k
    while j < end:
        tok = tokens[j]
        if tok.text == "$" and j + 1 < end and tokens[j + 1].kind == "ident" and tokens[j + 1].start == tok.end:
            items.append(Item("hole", name=tokens[j + 1].text))
            j += 2
            if j + 1 < end and tokens[j].text == ":" and tokens[j + 1].start == tokens[j].end:
                j += 2  # $x:term
        else:
            items.append(Item("atom", tokens=(tok.text,)))
            j += 1
    if not any(item.kind == "atom" for item in items):
        raise NotationError("macro pattern without an atom", tokens[k])
    atoms = [i for i, item in enumerate(items) if item.kind == "atom"]
    if len(items) == 3 and atoms == [1] and items[1].tokens[0] in operators:
        _, prec, assoc = operators[items[1].tokens[0]]
        left = prec if assoc == "l" else prec + 1
        right = prec if assoc == "r" else prec + 1
        items = [Item("hole", name=items[0].name, prec=left), items[1], Item("hole", name=items[2].name, prec=right)]
    return tuple(items)


def _quotation(tokens: Sequence[Token], k: int, end: int) -> tuple[Token, ...]:
    """The tokens inside `` `(…) `` at ``k``, with the ``$`` of antiquotations dropped."""
    if k + 1 >= end or tokens[k].text != "`" or tokens[k + 1].text != "(":
        raise NotationError("expected a quotation `(…)", tokens[min(k, end - 1)])
    close = _close(tokens, k + 1, end)
    inner = tokens[k + 2 : close]
    return tuple(t for i, t in enumerate(inner)
                 if not (t.text == "$" and i + 1 < len(inner) and inner[i + 1].start == t.end))


def _mixfix_items(tokens: Sequence[Token], k: int, arrow: int) -> tuple[Item, ...]:
    items: list[Item] = []
    while k < arrow:
        tok = tokens[k]
        if tok.kind == "str":
            items.append(atom_item(str(tok.value)))
            k += 1
        elif tok.kind == "ident" and _scoped_hole_at(tokens, k, arrow) is not None:
            # r:(scoped P => template) or r:67:(scoped P => template)
            paren = _scoped_hole_at(tokens, k, arrow)
            close = _close(tokens, paren, arrow)
            inner = tokens[paren + 1 : close]
            if len(inner) < 4 or inner[0].text != "scoped" or inner[2].text != "=>":
                raise NotationError("only 'r:(scoped P => …)' holes are read in notation3", tok)
            hole_prec, _ = _prec(tokens, k + 1, paren - 1)
            items.append(Item("scoped", name=tok.text, var=inner[1].text, template=tuple(inner[3:]),
                              prec=hole_prec or 0))
            k = close + 1
        elif tok.kind == "ident":
            prec, nk = _prec(tokens, k + 1, arrow)
            items.append(Item("hole", name=tok.text, prec=0 if prec is None else prec))
            k = nk
        elif tok.text == "(" and k + 2 < arrow and tokens[k + 1].text == "..." and tokens[k + 2].text == ")":
            items.append(Item("binders"))
            k += 3
        else:
            raise NotationError(f"unsupported notation item {tok.text!r}", tok)
    if not items:
        raise NotationError("notation without items", tokens[arrow])
    return tuple(items)


def _top_level_arrow(tokens: Sequence[Token], k: int, end: int) -> int | None:
    depth = 0
    for j in range(k, end):
        text = tokens[j].text
        if tokens[j].kind == "sym" and text in ("(", "[", "{", "⟨"):
            depth += 1
        elif tokens[j].kind == "sym" and text in (")", "]", "}", "⟩"):
            depth -= 1
        elif depth == 0 and text == "=>":
            return j
    return None


def _scoped_hole_at(tokens: Sequence[Token], k: int, end: int) -> int | None:
    """Index of the ``(`` of ``r:(scoped …)`` / ``r:67:(scoped …)`` starting at ``k``."""
    j = k + 1
    if j < end and tokens[j].text == ":" and j + 2 < end and tokens[j + 1].kind == "num" and tokens[j + 2].text == ":":
        j += 2
    if j + 2 < end and tokens[j].text == ":" and tokens[j + 1].text == "(" and tokens[j + 2].text == "scoped":
        return j + 1
    return None


def _close(tokens: Sequence[Token], k: int, end: int) -> int:
    depth = 0
    for j in range(k, end):
        if tokens[j].text == "(":
            depth += 1
        elif tokens[j].text == ")":
            depth -= 1
            if depth == 0:
                return j
    raise NotationError("unclosed '(' in notation", tokens[k])


class NotationTable:
    """Notations by the first token of their first atom, leading and trailing apart."""

    def __init__(self, notations: Sequence[Notation] = ()) -> None:
        self.leading: dict[str, list[Notation]] = {}
        self.trailing: dict[str, list[Notation]] = {}
        #: Parsed right-hand sides, by (tokens, the names bound at the use, resolver).
        self.templates: dict[tuple, tuple] = {}
        for notation in notations:
            self.add(notation)

    def add(self, notation: Notation) -> None:
        """Add ``notation``; longer notations are tried first (Lean's longest match)."""
        table = self.trailing if notation.trailing else self.leading
        bucket = table.setdefault(notation.key, [])
        bucket.append(notation)
        bucket.sort(key=lambda n: -len(n.items))

    def extended(self, notations: Sequence[Notation]) -> "NotationTable":
        """A new table with ``notations`` added to this one's."""
        out = NotationTable()
        out.leading = {k: list(v) for k, v in self.leading.items()}
        out.trailing = {k: list(v) for k, v in self.trailing.items()}
        for notation in notations:
            out.add(notation)
        return out

    def scopes(self) -> dict[str, str]:
        """Notation name → the namespace it is scoped in (scoped notations only)."""
        return {n.name: n.scope for bucket in (*self.leading.values(), *self.trailing.values())
                for n in bucket if n.scope}


@lru_cache(maxsize=1)
def mathlib_table_data() -> dict:
    """The packaged table: ``{"mathlib_commit", "notations": [...], "syntax": [...]}``."""
    text = resources.files("bridge").joinpath("data", MATHLIB_TABLE).read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def mathlib_notations() -> NotationTable:
    """Mathlib's notations (from the packaged table), each with its scope."""
    return NotationTable([Notation.from_json(row) for row in mathlib_table_data()["notations"]])


__all__ = [
    "Item", "Notation", "NotationError", "NotationTable", "atom_item", "mathlib_notations",
    "mathlib_table_data", "read_macro_command", "read_notation_command",
]
