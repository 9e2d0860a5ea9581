"""Commands of a Lean file: where each begins, and the doc comment, attributes and modifiers
before its keyword.

A command starts at a command keyword that is the first token of its line (``theorem``,
``def``, ``namespace``, ``end`` … anywhere; ``open``, ``set_option``, attributes, modifiers,
notation commands and doc comments only in column 1).
"""

from __future__ import annotations

from bridge.lexer import Token

#: Declaration keywords → normalized kind.
DECLARATION_KEYWORDS = {
    "theorem": "theorem",
    "lemma": "theorem",
    "def": "def",
    "abbrev": "abbrev",
    "instance": "instance",
    "structure": "structure",
    "class": "structure",
    "inductive": "inductive",
    "axiom": "axiom",
    "opaque": "opaque",
    "example": "example",
}
#: Declaration modifiers.
MODIFIERS = frozenset({"private", "protected", "noncomputable", "partial", "unsafe", "nonrec"})
#: Keywords that start a command wherever they begin a line.
_ANY_COLUMN = frozenset(DECLARATION_KEYWORDS) | {
    "namespace", "section", "end", "variable", "universe", "mutual",
}
#: Keywords that start a command only in column 1.
_FIRST_COLUMN = MODIFIERS | {
    "open", "set_option", "import", "attribute", "notation", "notation3", "infix", "infixl", "infixr",
    "prefix", "postfix", "macro", "macro_rules", "syntax", "elab", "elab_rules", "local",
    "scoped", "deriving", "export", "include", "omit", "initialize", "builtin_initialize",
    "add_decl_doc", "alias", "register_simp_attr", "assert_not_exists", "suppress_compilation",
}
_OPENERS = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "@[": "]", "#[": "]", "%[": "]", "![": "]", "!![": "]"}
_CLOSERS = frozenset(_OPENERS.values())
_BODY_STOPS = frozenset({"termination_by", "decreasing_by", "deriving", "where"})


def _is_command_start(tok: Token, prev: Token | None, next_tok: Token | None) -> bool:
    if not (tok.newline_before or prev is None):
        return False
    if tok.kind == "doc" or tok.kind == "moddoc":
        return tok.column == 1
    if tok.kind == "ident":
        if tok.text in _ANY_COLUMN:
            return True
        return tok.text in _FIRST_COLUMN and tok.column == 1
    if tok.kind == "sym":
        if tok.text == "@[":
            return tok.column == 1
        if tok.text == "#" and next_tok is not None and next_tok.kind == "ident" and next_tok.start == tok.end:
            return tok.column == 1
    return False


def split_commands(tokens: list[Token]) -> list[tuple[int, int]]:
    """Split a token list into commands: ``(start, end)`` index pairs.

    A command made only of a doc comment, attributes and modifiers is merged into the next.
    """
    starts = [0] if tokens else []
    for i in range(1, len(tokens)):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if _is_command_start(tokens[i], tokens[i - 1], nxt):
            starts.append(i)
    spans = [(s, e) for s, e in zip(starts, starts[1:] + [len(tokens)]) if e > s]
    merged: list[tuple[int, int]] = []
    carry: int | None = None
    for start, end in spans:
        if carry is not None:
            start = carry
            carry = None
        if _prefix_only(tokens, start, end) and tokens[start].kind != "moddoc":
            carry = start
            continue
        merged.append((start, end))
    if carry is not None:
        merged.append((carry, len(tokens)))
    return merged


def _prefix_only(tokens: list[Token], start: int, end: int) -> bool:
    i = _skip_prefix(tokens, start, end)[0]
    return i >= end


def _skip_prefix(tokens: list[Token], i: int, end: int) -> tuple[int, str | None, list[str], list[str]]:
    """Skip doc comment, attributes and modifiers: ``(index, docstring, attributes, modifiers)``."""
    doc: str | None = None
    attrs: list[str] = []
    mods: list[str] = []
    while i < end:
        tok = tokens[i]
        if tok.kind == "doc":
            doc = str(tok.value)
            i += 1
        elif tok.kind == "sym" and tok.text == "@[":
            j = _matching(tokens, i, end)
            if j is None:
                break
            items: list[list[str]] = [[]]
            for t in tokens[i + 1 : j]:
                if t.text == ",":
                    items.append([])
                else:
                    items[-1].append(t.text)
            attrs.extend(" ".join(item) for item in items if item)
            i = j + 1
        elif tok.kind == "ident" and tok.text in MODIFIERS:
            mods.append(tok.text)
            i += 1
        else:
            break
    return i, doc, attrs, mods


def _matching(tokens: list[Token], i: int, end: int) -> int | None:
    """Index of the closer matching the opener at ``i`` (``None`` when unbalanced)."""
    stack: list[str] = []
    for j in range(i, end):
        text = tokens[j].text
        if tokens[j].kind == "sym" and text in _OPENERS:
            stack.append(_OPENERS[text])
        elif tokens[j].kind == "sym" and stack and text == stack[-1]:
            stack.pop()
            if not stack:
                return j
    return None
