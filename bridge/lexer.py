"""A tokenizer for Lean 4 source text.

:func:`tokenize` turns any string into a list of :class:`Token`s and never raises: text it
cannot make sense of (an unterminated comment or string, which ends the file as it does for
Lean; a stray character) becomes an ``error`` token carrying a message, and the caller
turns it into a located diagnostic.

Token kinds:

- ``ident``: an identifier, possibly dotted (``Finset.sum``), with ``«…»`` parts, unicode
  letter-likes (``α``, ``ℝ``, ``π``) and subscripts (``x₁``). ``parts`` holds the components
  with the guillemets removed.
- ``num``: a numeral; ``value`` is an ``int`` or, for scientific literals (``0.5``, ``1e-3``),
  a ``fractions.Fraction``.
- ``str`` / ``char``: string and character literals; ``value`` is the decoded text.
- ``doc`` / ``moddoc``: ``/-- … -/`` and ``/-! … -/`` comments; ``value`` is the inner text.
- ``sym``: any other symbol, longest match first (``:=``, ``=>``, ``≤``, ``⁻¹``, ``∑`` …).
- ``name``: a quoted name literal (```foo`` / ````foo``); ``value`` is the name.
- ``error``: something that is not Lean; ``value`` is the message.
- ``proof``: the tactic block of a ``:= by`` that ends its line, read as one token (nothing
  in it is a statement): the lines up to the first one left of its first tactic; ``value``
  is the set of names in its code (comments and strings left out).

Ordinary comments (``--`` and nested ``/- -/``) are dropped. Every token records 1-based
``line``/``column``, its character offsets ``start``/``end`` in the text, and whether a
newline or any whitespace separated it from the previous token.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import NamedTuple, Union

#: Multi-character symbols, longest first when matched.
_MULTI_SYMBOLS = tuple(
    sorted(
        (
            ":=", "=>", "->", "<-", "<->", "<=", ">=", "!=", "==", "&&", "||", "::", "..",
            "...", "++", "<|", "|>", "<|>", "^^", "⁻¹", "∃!", ">>=", "<$>", "<*>", "%[",
            "@[", "#[", "![", "!![", "//", "×ˢ", "→+*", "→+", "→*", "≃+*", "|>.", ".."
        ),
        key=len,
        reverse=True,
    )
)
_WHITESPACE = frozenset(" \t\r\n\f\v")


class Token(NamedTuple):
    """One token of Lean source with its position (a named tuple: cheap to build, immutable)."""

    kind: str
    text: str
    line: int
    column: int
    start: int
    end: int
    value: Union[int, Fraction, str, None] = None
    parts: tuple[str, ...] = ()
    newline_before: bool = False
    space_before: bool = False

    def __str__(self) -> str:
        return f"{self.kind} {self.text!r} at {self.line}:{self.column}"


def name_text(parts: tuple[str, ...] | list[str]) -> str:
    """The dotted text of a name, with ``«…»`` around components that are not identifiers."""
    out = []
    for part in parts:
        if _PART_RE.fullmatch(part):
            out.append(part)
        else:
            out.append(f"«{part}»")
    return ".".join(out)


def is_letter_like(ch: str) -> bool:
    """Lean's ``isLetterLike``: Greek (not λ Π Σ), Coptic, letter-like symbols, script."""
    code = ord(ch)
    return (
        (0x3B1 <= code <= 0x3C9 and code != 0x3BB)
        or (0x391 <= code <= 0x3A9 and code != 0x3A0 and code != 0x3A3)
        or 0x3CA <= code <= 0x3FB
        or 0x1F00 <= code <= 0x1FFE
        or 0x2100 <= code <= 0x214F
        or 0x1D49C <= code <= 0x1D59F
    )


def is_subscript(ch: str) -> bool:
    """Lean's ``isSubScriptAlnum``: subscript digits and letters."""
    code = ord(ch)
    return 0x2080 <= code <= 0x2089 or 0x2090 <= code <= 0x209C or 0x1D62 <= code <= 0x1D6A


def is_ident_start(ch: str) -> bool:
    """Whether ``ch`` may begin an identifier (ASCII letter, ``_`` or letter-like)."""
    return ("a" <= ch <= "z") or ("A" <= ch <= "Z") or ch == "_" or is_letter_like(ch)


def is_ident_rest(ch: str) -> bool:
    """Whether ``ch`` may continue an identifier."""
    return (
        is_ident_start(ch)
        or ("0" <= ch <= "9")
        or ch in "'!?"
        or is_subscript(ch)
    )


_START_CLASS = (
    "A-Za-z_\u03b1-\u03ba\u03bc-\u03c9\u0391-\u039f\u03a1\u03a2\u03a4-\u03a9"
    "\u03ca-\u03fb\u1f00-\u1ffe\u2100-\u214f\U0001d49c-\U0001d59f"
)
_REST_CLASS = _START_CLASS + "0-9'!?\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a"
_PART_RE = re.compile(f"[{_START_CLASS}][{_REST_CLASS}]*")
#: Characters that open a token the slow path must read (comments, numbers, strings, names).
_SLOW_START = "/0123456789\"`'«"
#: One token of the fast path: (1) whitespace and line comments, (2) a plain dotted
#: identifier, (3) a symbol (multi-character ones first). Anything else takes the slow path.
_FAST_RE = re.compile(
    r"((?:[ \t\r\n\f\v]+|--[^\n]*)+)"
    f"|([{_START_CLASS}][{_REST_CLASS}]*(?:\\.[{_START_CLASS}][{_REST_CLASS}]*)*)"
    "|(" + "|".join(re.escape(sym) for sym in _MULTI_SYMBOLS if sym[0] not in _SLOW_START)
    + f"|[^{re.escape(_SLOW_START)}{_START_CLASS} \\t\\r\\n\\f\\v])"
)


def tokenize(text: str) -> list[Token]:
    """Tokenize ``text``; never raises (problems become ``error`` tokens)."""
    if not isinstance(text, str):
        text = str(text)
    tokens: list[Token] = []
    append = tokens.append
    new = tuple.__new__
    n = len(text)
    line = 1
    line_start = 0
    pos = 0
    newline = False
    space = True
    fast = _FAST_RE.match
    while pos < n:
        m = fast(text, pos)
        if m is not None and not (m.lastindex == 2 and text.startswith(".«", m.end())):
            group = m.lastindex
            end = m.end()
            if group == 1:
                nl = text.count("\n", pos, end)
                if nl:
                    newline = True
                    line += nl
                    line_start = text.rfind("\n", pos, end) + 1
                space = True
            elif group == 2:
                word = m.group(2)
                parts = tuple(word.split(".")) if "." in word else (word,)
                append(new(Token, ("ident", word, line, pos - line_start + 1, pos, end, None, parts,
                                   newline, space)))
                newline = space = False
                if word == "by" and len(tokens) > 1 and tokens[-2].text == ":=":
                    block = _tactic_block(text, end)
                    if block is not None:
                        first, last, code = block
                        line += text.count("\n", end, first)
                        line_start = text.rfind("\n", end, first) + 1
                        append(new(Token, ("proof", text[first:last], line, first - line_start + 1, first, last,
                                           frozenset(_PART_RE.findall(code)), (), True, True)))
                        nl = text.count("\n", first, last)
                        if nl:
                            line += nl
                            line_start = text.rfind("\n", first, last) + 1
                        end = last
            else:
                append(new(Token, ("sym", m.group(3), line, pos - line_start + 1, pos, end, None, (),
                                   newline, space)))
                newline = space = False
            pos = end
            continue
        i = pos
        kind, end, value, parts = _scan_one(text, i, tokens)
        if kind != "comment":
            append(Token(kind, text[i:end], line, i - line_start + 1, i, end, value, parts, newline,
                         space or i == 0))
            # a recovered error token may end just after a newline
            newline = kind == "error" and text[end - 1 : end] == "\n"
            space = newline
        else:
            space = True
        nl = text.count("\n", i, end)
        if nl:
            line += nl
            line_start = text.rfind("\n", i, end) + 1
        pos = end
    return tokens


#: What the tactic-block skipper stops at: a line end, a comment or a string.
_BLOCK_STEP = re.compile('\n|/-|--|"')
#: The rest of the line after ``:= by`` when the tactic block starts on the next line.
_LINE_REST = re.compile(r"[ \t]*(?:--[^\n]*)?(?=\n)")


def _tactic_block(text: str, pos: int) -> tuple[int, int, str] | None:
    """The tactic block of a ``:= by`` ending its line at ``pos``: ``(start, end, code)``.

    The block is Lean's tactic sequence: the lines from the first tactic on, up to the first
    line that starts left of the first tactic (comments and blank lines aside). ``code`` is
    its text without comments and strings. ``None`` when the block is on the ``by`` line, starts in
    column 1, or holds a comment or string that does not end (the caller then tokenizes it).
    A block is kept as one ``proof`` token: nothing in it is a statement.
    """
    rest = _LINE_REST.match(text, pos)
    if rest is None:
        return None
    n = len(text)
    i = rest.end()
    while True:  # the first line with code
        k = i + 1
        f = k
        while f < n and text[f] in " \t":
            f += 1
        if f >= n:
            return None
        if text[f] == "\n" or text.startswith("--", f):
            i = text.find("\n", f)
            if i == -1:
                return None
            continue
        break
    first, column = f, f - k + 1
    if column <= 1 or text.startswith("/-", f):
        return None
    spans: list[tuple[int, int]] = []
    seg, i, end, last_string = first, first, n, first
    search = _BLOCK_STEP.search
    while True:
        m = search(text, i)
        if m is None:
            break
        mark, at = m.group(), m.start()
        if mark == "\n":
            k = at + 1
            f = k
            while f < n and text[f] in " \t":
                f += 1
            if f < n and text[f] != "\n" and not text.startswith("--", f) and f - k + 1 < column:
                end = at
                break
            i = f if f > k else k
            if f >= n:
                break
            continue
        if mark == "--":
            stop = text.find("\n", at)
            stop = n if stop == -1 else stop
        else:
            kind, stop, _, _ = _scan_block_comment(text, at) if mark == "/-" else _scan_string(text, at)
            if kind == "error":
                return None
        spans.append((seg, at))
        if mark == '"':
            last_string = stop  # a string is code: the block may end with it
        seg = i = stop
    spans.append((seg, end))
    last = last_string
    for a, b in reversed(spans):  # the block ends with its last code, not a trailing comment
        code = text[a:b].rstrip()
        if code.strip():
            last = max(last, a + len(code))
            break
    return first, last, " ".join(text[a:b] for a, b in spans)


def _scan_one(
    text: str, i: int, tokens: list[Token]
) -> tuple[str, int, Union[int, Fraction, str, None], tuple[str, ...]]:
    """Scan the token starting at ``i``: ``(kind, end, value, parts)``."""
    ch = text[i]
    if text.startswith("/-", i):
        return _scan_block_comment(text, i)
    if is_ident_start(ch) or ch == "«":
        return _scan_ident(text, i)
    if "0" <= ch <= "9":
        after_dot = bool(tokens) and tokens[-1].text == "." and tokens[-1].end == i
        return _scan_number(text, i, plain=after_dot)
    if ch == '"':
        return _scan_string(text, i)
    if ch == "`":
        j = i + 2 if text.startswith("``", i) else i + 1
        if j < len(text) and (is_ident_start(text[j]) or text[j] == "«"):
            kind, end, _, parts = _scan_ident(text, j)
            if kind == "ident":
                return "name", end, name_text(parts), parts
    if ch == "'":
        char = _scan_char(text, i)
        if char is not None:
            return char
    for sym in _MULTI_SYMBOLS:
        if text.startswith(sym, i):
            return "sym", i + len(sym), None, ()
    return "sym", i + 1, None, ()


def _scan_block_comment(text: str, i: int):
    """A nested ``/- … -/`` comment; doc and module-doc comments are kept as tokens."""
    n = len(text)
    kind = "comment"
    body_start = i + 2
    if text.startswith("/--", i) and not text.startswith("/--/", i):
        kind, body_start = "doc", i + 3
    elif text.startswith("/-!", i):
        kind, body_start = "moddoc", i + 3
    depth = 1
    j = i + 2
    search = _COMMENT_MARK.search
    while j < n:
        m = search(text, j)
        if m is None:
            break
        j = m.end()
        if m.group() == "/-":
            depth += 1
            continue
        depth -= 1
        if depth == 0:
            if kind == "comment":
                return "comment", j, None, ()
            return kind, j, text[body_start : j - 2].strip(), ()
    # as for Lean, an unterminated comment runs to the end of the file: nothing after it
    # is a declaration
    return "error", n, "unterminated comment (expected '-/'): the rest of the file is comment", ()


#: What changes the nesting depth inside a block comment.
_COMMENT_MARK = re.compile("/-|-/")


def _scan_ident(text: str, i: int):
    """A possibly dotted identifier with ``«…»`` components."""
    n = len(text)
    parts: list[str] = []
    j = i
    while True:
        if j < n and text[j] == "«":
            close = text.find("»", j + 1)
            if close == -1:
                return "error", n, "unterminated «name» (expected '»')", ()
            parts.append(text[j + 1 : close])
            j = close + 1
        else:
            k = j + 1
            while k < n and is_ident_rest(text[k]):
                k += 1
            parts.append(text[j:k])
            j = k
        if j + 1 < n and text[j] == "." and (is_ident_start(text[j + 1]) or text[j + 1] == "«"):
            j += 1
            continue
        break
    return "ident", j, None, tuple(parts)


def _digits(text: str, j: int, allowed: str) -> int:
    n = len(text)
    while j < n and (text[j] in allowed or (text[j] == "_" and j + 1 < n and text[j + 1] in allowed)):
        j += 1
    return j


def _scan_number(text: str, i: int, plain: bool = False):
    """A numeral: decimal, ``0x``/``0b``/``0o``, or scientific (``0.5``, ``1e-3``)."""
    n = len(text)
    if text.startswith(("0x", "0X"), i):
        j = _digits(text, i + 2, "0123456789abcdefABCDEF")
        if j > i + 2:
            return "num", j, int(text[i + 2 : j].replace("_", ""), 16), ()
    if text.startswith(("0b", "0B"), i):
        j = _digits(text, i + 2, "01")
        if j > i + 2:
            return "num", j, int(text[i + 2 : j].replace("_", ""), 2), ()
    if text.startswith(("0o", "0O"), i):
        j = _digits(text, i + 2, "01234567")
        if j > i + 2:
            return "num", j, int(text[i + 2 : j].replace("_", ""), 8), ()
    decimal = "0123456789"
    j = _digits(text, i, decimal)
    mantissa = text[i:j].replace("_", "")
    if plain:
        return "num", j, int(mantissa), ()
    frac = ""
    scientific = False
    if j + 1 < n and text[j] == "." and text[j + 1] in decimal:
        k = _digits(text, j + 1, decimal)
        frac = text[j + 1 : k].replace("_", "")
        j = k
        scientific = True
    exponent = 0
    if j < n and text[j] in "eE":
        k = j + 1
        sign = 1
        if k < n and text[k] in "+-":
            sign = -1 if text[k] == "-" else 1
            k += 1
        if k < n and text[k] in decimal:
            m = _digits(text, k, decimal)
            exponent = sign * int(text[k:m].replace("_", ""))
            j = m
            scientific = True
    if not scientific:
        return "num", j, int(mantissa), ()
    value = Fraction(int(mantissa + frac), 10 ** len(frac))
    if exponent >= 0:
        value *= 10**exponent
    else:
        value /= 10 ** (-exponent)
    return "num", j, value, ()


_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "r": "\r", "0": "\0"}


def _scan_string(text: str, i: int):
    """A string literal with Lean's escapes; unterminated strings become error tokens."""
    n = len(text)
    out: list[str] = []
    j = i + 1
    while j < n:
        ch = text[j]
        if ch == '"':
            return "str", j + 1, "".join(out), ()
        if ch == "\\" and j + 1 < n:
            esc = text[j + 1]
            if esc in _ESCAPES:
                out.append(_ESCAPES[esc])
                j += 2
                continue
            if esc == "x" and j + 3 < n:
                try:
                    out.append(chr(int(text[j + 2 : j + 4], 16)))
                    j += 4
                    continue
                except ValueError:
                    pass
            if esc == "\n":
                j += 2
                while j < n and text[j] in " \t":
                    j += 1
                continue
            out.append(esc)
            j += 2
            continue
        out.append(ch)
        j += 1
    # as for Lean, an unterminated string literal runs to the end of the file
    return "error", n, "unterminated string literal (expected '\"'): the rest of the file is string", ()


def _scan_char(text: str, i: int):
    """A character literal ``'a'`` / ``'\\n'``, or ``None`` when ``'`` is just a symbol."""
    n = len(text)
    if i + 2 < n and text[i + 1] != "\\" and text[i + 2] == "'":
        return "char", i + 3, text[i + 1], ()
    if i + 3 < n and text[i + 1] == "\\" and text[i + 3] == "'" and text[i + 2] in _ESCAPES:
        return "char", i + 4, _ESCAPES[text[i + 2]], ()
    return None
