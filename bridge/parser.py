"""A Pratt parser for the statement fragment of Lean 4 term syntax.

:func:`parse_term` turns Lean text such as ``∀ x ∈ s, 0 ≤ f x`` into the normalized AST of
:mod:`bridge.term`, resolving notation to the constants Lean elaborates it to (``+`` is
``HAdd.hAdd``, ``∑ x ∈ s, f`` is ``Finset.sum s (fun x => f)`` …). Precedences follow
Lean's: application binds tightest, then ``^`` (75, right), unary ``-`` (75), ``*`` ``/``
``%`` (70), ``+`` ``-`` (65), relations (50), ``¬`` (40), ``∧`` (35, right), ``∨`` (30,
right), ``→`` (25, right), ``↔`` (20). Big operators take their body at 67, as in Mathlib.

Identifiers bound by an enclosing binder of the term (``fun``/``∀``/``∃``/``∑``/``let``) or
listed in ``locals`` become :class:`~bridge.term.Var`; every other identifier becomes a
:class:`~bridge.term.Const` *as written* (the scanner resolves namespaces and ``open``s by
passing ``resolve``). Nothing is evaluated.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from bridge import term as T
from bridge.binders import BinderSyntax
from bridge.brackets import BracketSyntax
from bridge.errors import LeanParseError
from bridge.lexer import Token, name_text, tokenize
from bridge.expansion import expand, glued_atom_at
from bridge.keywords import KeywordSyntax
from bridge.notation import NotationTable, mathlib_notations
from bridge.syntax import (  # noqa: F401 - the tables are part of this module's interface
    _CLOSERS, ARG_PREC, BINARY_OPS, BINDER_PREDICATES, KEYWORDS, LEAD_PREC, MAX_DEPTH, MAX_PREC,
    NUMBER_TYPES, PATTERN_CONSTRUCTORS, POSTFIX_OPS, _describe,
)
from bridge.term import Binder

#: Symbols that never belong to a notation's name (brackets and separators).
_PUNCTUATION = frozenset("()[]{}⟨⟩,;")


def _glues(tok: Token) -> bool:
    """Whether ``tok`` may be part of a glued notation name such as ``∀ᵐ`` or ``⊗ₖ``."""
    return tok.kind == "sym" and tok.text not in _PUNCTUATION


class Parser(BinderSyntax, BracketSyntax, KeywordSyntax):
    """Parses terms from a token slice; one instance per term (or per declaration)."""

    def __init__(
        self,
        tokens: Sequence[Token],
        locals: Iterable[str] = (),
        resolve: Callable[[str], str] | None = None,
        end_position: tuple[int, int] = (1, 1),
        notations: NotationTable | None = None,
        scopes: frozenset[str] | None = None,
        notation_resolver: Callable | None = None,
    ) -> None:
        self.tokens = [t for t in tokens if t.kind not in ("doc", "moddoc")]
        self.pos = 0
        self.locals = set(locals)
        self.bound: list[str] = []
        self.resolve = resolve
        self.depth = 0
        self.abs_depth = 0
        self.norm_depth = 0
        self.cdots: list[list[str]] | None = None
        self.pattern_vars: list[str] | None = None
        self.end_position = end_position
        #: Notations in force (default: Mathlib's) and the open namespaces that activate
        #: scoped ones (``None``: every scope is open, as for a standalone term).
        self.notations = notations if notations is not None else mathlib_notations()
        self.scopes = scopes
        #: Builds the name resolver of a notation's right-hand side (its definition site).
        self.notation_resolver = notation_resolver
        #: Tokens that end the current notation hole (the next atom of the notation).
        self.stops: frozenset[str] = frozenset()
        #: Application arguments on a new line must start right of this column (``let``).
        self.column_limit = 0

    # -- token helpers -------------------------------------------------------------------
    def peek(self, offset: int = 0) -> Token | None:
        i = self.pos + offset
        return self.tokens[i] if i < len(self.tokens) else None

    def at(self, *texts: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind in ("sym", "ident") and tok.text in texts

    def next(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise self.error("unexpected end of input", "more input")
        self.pos += 1
        return tok

    def expect(self, *texts: str) -> Token:
        tok = self.peek()
        if tok is None or tok.kind not in ("sym", "ident") or tok.text not in texts:
            raise self.error(f"unexpected {_describe(tok)}", " or ".join(repr(t) for t in texts))
        self.pos += 1
        return tok

    def parse_after(self, symbol: str) -> T.Term | None:
        """The term after an optional ``symbol`` (a type ascription ``: T``), else ``None``."""
        if not self.at(symbol):
            return None
        self.pos += 1
        return self.parse_expr(0)

    def describe(self) -> str:
        """The current token as error messages name it."""
        return _describe(self.peek())

    def error(self, message: str, expected: str | None = None, tok: Token | None = None,
              construct: str | None = None) -> LeanParseError:
        tok = tok if tok is not None else self.peek()
        if construct is None:
            construct = self._construct(tok)
        if tok is None:
            if self.tokens:
                last = self.tokens[-1]
                line, column = last.line, last.column + len(last.text)
            else:
                line, column = self.end_position
        else:
            line, column = tok.line, tok.column
        return LeanParseError(message, line, column, expected, construct)

    def _construct(self, tok: Token | None) -> str:
        """The symbol run glued around ``tok`` (``∀ᵐ``, ``⊗ₖ``), or its text; ``<end>`` at the end."""
        if tok is None:
            return "<end>"
        if tok.kind == "error":
            return "<lexical error>"
        if tok.kind != "sym":
            return tok.text if tok.kind == "ident" and tok.text in KEYWORDS else f"<{tok.kind}>"
        try:
            i = self.tokens.index(tok)
        except ValueError:
            return tok.text
        a = b = i
        toks = self.tokens
        while a > 0 and toks[a - 1].end == toks[a].start and _glues(toks[a - 1]):
            a -= 1
        while b + 1 < len(toks) and toks[b + 1].start == toks[b].end and _glues(toks[b + 1]):
            b += 1
        return "".join(t.text for t in self.tokens[a : b + 1])

    def at_end(self) -> bool:
        return self.pos >= len(self.tokens)

    # -- scopes --------------------------------------------------------------------------
    def is_bound(self, name: str) -> bool:
        return name in self.bound or name in self.locals

    def _name_term(self, tok: Token) -> T.Term:
        parts = tok.parts or (tok.text,)
        text = tok.text if tok.kind == "ident" and "«" not in tok.text else name_text(parts)
        if text in NUMBER_TYPES:
            return T.Const(NUMBER_TYPES[text])
        head = parts[0]
        if self.is_bound(head):
            term: T.Term = T.Var(head)
            for part in parts[1:]:
                term = T.Proj(term, part)
            return term
        if (
            self.pattern_vars is not None
            and len(parts) == 1
            and (head[0].islower() or head[0] == "_" or not head[0].isascii())
            and head not in PATTERN_CONSTRUCTORS
        ):
            self.pattern_vars.append(head)
            return T.Var(head)
        if self.resolve is not None:
            text = self.resolve(text)
        return T.Const(text)

    # -- entry points ----------------------------------------------------------------------
    def parse_all(self) -> T.Term:
        """Parse one term spanning all tokens."""
        term = self.parse_expr(0)
        if not self.at_end():
            raise self.error(f"unexpected {_describe(self.peek())}", "end of term or an operator")
        return term

    def parse_expr(self, min_prec: int = 0) -> T.Term:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.depth = 0
            raise self.error("term nested too deeply", f"at most {MAX_DEPTH} levels")
        try:
            left, left_prec = self.parse_leading()
            return self.parse_trailing(left, left_prec, min_prec)
        finally:
            self.depth = max(0, self.depth - 1)

    # -- trailing ------------------------------------------------------------------------
    def parse_trailing(self, left: T.Term, left_prec: int, min_prec: int) -> T.Term:
        while True:
            tok = self.peek()
            if tok is None or (tok.text in self.stops and tok.kind in ("sym", "ident")):
                return left
            candidates = self.notations.trailing.get(tok.text)
            if candidates:
                found = expand(self, candidates, left, left_prec, min_prec)
                if found is not None:
                    left, left_prec = found
                    continue
                if glued_atom_at(self, candidates):
                    return left  # `f i ⁻¹' s`: a notation binding looser than here, not `⁻¹`
            text = tok.text if tok.kind == "sym" else None
            if text == "|>." and min_prec <= 10:
                nxt = self.peek(1)
                if nxt is not None and nxt.kind == "ident" and nxt.start == tok.end:
                    self.pos += 2
                    for part in nxt.parts:
                        left = T.Proj(left, part)
                    left_prec = MAX_PREC
                    continue
            if text == "." and not tok.space_before:
                nxt = self.peek(1)
                if nxt is not None and nxt.start == tok.end and nxt.kind in ("ident", "num"):
                    self.pos += 2
                    if nxt.kind == "num":
                        left = T.Proj(left, int(nxt.value))  # type: ignore[arg-type]
                    else:
                        for part in nxt.parts:
                            left = T.Proj(left, part)
                    left_prec = MAX_PREC
                    continue
                return left
            if text in POSTFIX_OPS and min_prec <= MAX_PREC:
                self.pos += 1
                left = T.app(POSTFIX_OPS[text], left)
                left_prec = MAX_PREC
                continue
            if text in BINARY_OPS:
                name, prec, assoc = BINARY_OPS[text]
                lhs_prec = prec if assoc == "l" else prec + 1
                if prec < min_prec or left_prec < lhs_prec:
                    return left
                self.pos += 1
                rhs_prec = prec if assoc == "r" else prec + 1
                right = self.parse_expr(rhs_prec)
                left = self._binary(text, name, left, right)
                left_prec = prec
                continue
            if (
                left_prec >= MAX_PREC
                and min_prec <= LEAD_PREC
                and self._starts_argument(tok)
                and not (tok.newline_before and tok.column <= self.column_limit)
            ):
                args = []
                while not self.at_end() and self._starts_argument(self.peek()):
                    nxt = self.tokens[self.pos]
                    if nxt.newline_before and nxt.column <= self.column_limit:
                        break
                    if self._at_named_argument():
                        # `(S := 1)` fills a parameter by name: kept as a named-argument node
                        self.expect("(")
                        name = self.next().text
                        self.expect(":=")
                        value = self.parse_expr(0)
                        self.expect(")")
                        args.append(T.app(T.NAMED_ARGUMENT, T.Str(name), value))
                        continue
                    args.append(self.parse_argument())
                if not args:
                    continue
                left = self._apply(left, args)
                left_prec = LEAD_PREC
                continue
            return left

    def _binary(self, sym: str, name: str, left: T.Term, right: T.Term) -> T.Term:
        if name == "→":
            if isinstance(left, T.Typed) and isinstance(left.expr, (T.Var, T.Const)) \
                    and "." not in getattr(left.expr, "name", "."):
                # `(h : P) → Q` is a dependent arrow binding `h`
                return T.Pi((Binder(left.expr.name, left.type),), right)
            return T.Pi((Binder("_", left),), right)
        if sym == "∈":
            return T.app("Membership.mem", right, left)
        if sym == "∉":
            return T.app("Not", T.app("Membership.mem", right, left))
        if name == "<|":
            return self._apply(left, [right])
        if name == "|>":
            return self._apply(right, [left])
        return T.app(name, left, right)

    def apply_args(self, fn: T.Term, args: list[T.Term]) -> T.Term:
        """``fn`` applied to ``args`` (one flattened spine)."""
        return self._apply(fn, args)

    @staticmethod
    def _apply(fn: T.Term, args: list[T.Term]) -> T.Term:
        if not args:
            return fn
        if isinstance(fn, T.App) and fn.ty is None:
            return T.App(fn.fn, fn.args + tuple(args))
        return T.App(fn, tuple(args))

    def _starts_argument(self, tok: Token | None) -> bool:
        if tok is None or tok.text in self.stops:
            return False
        if tok.kind in ("num", "str", "char", "name"):
            return True
        if tok.kind == "ident":
            return tok.text not in KEYWORDS or tok.text == "fun"
        if tok.kind != "sym":
            return False
        text = tok.text
        if text in ("(", "⟨", "[", "#[", "![", "!![", "{", "↑", "⇑", "↥", "¬", "!", "@", "∅", "⌊", "⌈", "?", "λ"):
            return True
        if text == "·":
            return self.cdots is not None
        if text in self.notations.leading:
            return any(n.prec >= MAX_PREC for n in self.notations.leading[text])
        if text == "|":
            nxt = self.peek(1)
            return self.abs_depth == 0 and nxt is not None and nxt.start == tok.end
        if text == "‖":
            return self.norm_depth == 0
        if text == ".":
            nxt = self.peek(1)
            return tok.space_before and nxt is not None and nxt.kind == "ident" and nxt.start == tok.end
        return False

    def _at_named_argument(self) -> bool:
        a, b, c = self.peek(), self.peek(1), self.peek(2)
        return (
            a is not None and a.text == "(" and b is not None and b.kind == "ident"
            and c is not None and c.text == ":="
        )

    def parse_argument(self) -> T.Term:
        tok = self.peek()
        if tok is not None and tok.text in ("fun", "λ"):
            return self.parse_expr(0)
        return self.parse_expr(MAX_PREC)

    # -- leading -------------------------------------------------------------------------
    def parse_leading(self) -> tuple[T.Term, int]:
        tok = self.peek()
        if tok is None:
            raise self.error("unexpected end of input", "a term")
        if tok.kind == "error":
            raise self.error(str(tok.value), None, tok)
        candidates = self.notations.leading.get(tok.text)
        if candidates and tok.kind == "ident" and self.is_bound(tok.text):
            # a bound name shadows a one-token notation; `H[` glued stays a notation token
            candidates = [n for n in candidates if len(n.items[0].tokens) > 1]
        if candidates:
            found = expand(self, candidates)
            if found is not None:
                return found
        if tok.kind == "num":
            self.pos += 1
            return T.Lit(tok.value), MAX_PREC  # type: ignore[arg-type]
        if tok.kind == "str":
            self.pos += 1
            return T.Str(str(tok.value)), MAX_PREC
        if tok.kind == "name":
            self.pos += 1
            return T.app("Lean.Name.mkStr", T.Str(str(tok.value))), MAX_PREC
        if tok.kind == "char":
            self.pos += 1
            return T.app("Char.ofNat", T.Lit(ord(str(tok.value)))), MAX_PREC
        if tok.kind == "ident":
            return self._leading_ident(tok)
        text = tok.text
        if text == "(":
            return self._paren(), MAX_PREC
        if text == "⟨":
            self.pos += 1
            args = self._comma_list("⟩")
            return T.Anon(tuple(args)), MAX_PREC
        if text in ("![", "!!["):
            return self._vector(text), MAX_PREC
        if text in ("[", "#["):
            self.pos += 1
            items = self._comma_list("]")
            result: T.Term = T.Const("List.nil")
            for item in reversed(items):
                result = T.app("List.cons", item, result)
            if text == "#[":
                result = T.app("List.toArray", result)
            return result, MAX_PREC
        if text == "∫":
            return self._integral(), 67
        if text == "Σ":
            return self._sigma(), LEAD_PREC
        if text == "{":
            return self._brace(), MAX_PREC
        if text in ("↑", "⇑", "↥"):
            self.pos += 1
            return T.Coe(self.parse_expr(MAX_PREC)), MAX_PREC
        if text == "¬":
            self.pos += 1
            return T.app("Not", self.parse_expr(40)), MAX_PREC
        if text == "-":
            self.pos += 1
            return T.app("Neg.neg", self.parse_expr(75)), 75
        if text == "!":
            self.pos += 1
            return T.app("not", self.parse_expr(MAX_PREC)), MAX_PREC
        if text == "√":
            self.pos += 1
            return T.app("Real.sqrt", self.parse_expr(100)), 100
        if text == "|":
            return self._delimited("|", "abs", "abs_depth"), MAX_PREC
        if text == "‖":
            return self._delimited("‖", "Norm.norm", "norm_depth"), MAX_PREC
        if text in ("⌊", "⌈"):
            self.pos += 1
            inner = self.parse_expr(0)
            close = self.expect(_CLOSERS[text])
            nat = self.peek()
            is_nat = nat is not None and nat.text == "₊" and nat.start == close.end
            if is_nat:
                self.pos += 1
            base = "floor" if text == "⌊" else "ceil"
            return T.app(("Nat." if is_nat else "Int.") + base, inner), MAX_PREC
        if text in ("∑", "∏"):
            return self._big_operator("Finset.sum" if text == "∑" else "Finset.prod"), 67
        if text in ("∀", "Π"):
            return self._forall(), LEAD_PREC
        if text in ("∃", "∃!"):
            return self._exists(unique=text == "∃!"), LEAD_PREC
        if text == "λ":
            return self._fun(), LEAD_PREC
        if text == "·" and self.cdots is not None:
            self.pos += 1
            name = f"x{len(self.cdots[-1]) + 1}✝"
            self.cdots[-1].append(name)
            return T.Var(name), MAX_PREC
        if text == "@":
            self.pos += 1
            return self.parse_expr(MAX_PREC), MAX_PREC
        if text == "∅":
            self.pos += 1
            return T.Const("EmptyCollection.emptyCollection"), MAX_PREC
        if text == "?":
            self.pos += 1
            name = self.next()
            return T.Hole("?" + name.text), MAX_PREC
        if text == ".":
            nxt = self.peek(1)
            if nxt is not None and nxt.kind == "ident" and nxt.start == tok.end:
                self.pos += 2
                return T.Const("." + nxt.text), MAX_PREC
        raise self.error(f"unexpected {_describe(tok)}", "a term")


def parse_term(
    text: str,
    locals: Iterable[str] = (),
    resolve: Callable[[str], str] | None = None,
) -> T.Term:
    """Parse Lean term ``text`` into a normalized term.

    ``locals`` are names bound outside the term (they become ``Var``); other identifiers
    become ``Const`` as written, or ``Const(resolve(name))`` when ``resolve`` is given.
    Raises :class:`LeanParseError` (line, column, what was expected) for text outside the
    supported fragment.
    """
    if not isinstance(text, str):
        raise LeanParseError(f"text must be a str, got {type(text).__name__}", 1, 1, "a str")
    tokens = tokenize(text)
    for tok in tokens:
        if tok.kind == "error":
            raise LeanParseError(str(tok.value), tok.line, tok.column)
    parser = Parser(tokens, locals, resolve)
    if parser.at_end():
        raise LeanParseError("empty term", 1, 1, "a term")
    return parser.parse_all()


def parse_pattern(parser: Parser) -> tuple[T.Term, list[str]]:
    """Parse one pattern of an equation; unknown lower-case names become pattern variables."""
    parser.pattern_vars = []
    try:
        term = parser.parse_expr(0)
        return term, list(parser.pattern_vars)
    finally:
        parser.pattern_vars = None


__all__ = ["LeanParseError", "Parser", "parse_term", "parse_pattern"]
