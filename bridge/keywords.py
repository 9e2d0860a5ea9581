"""Keyword syntax of the statement parser: ``fun``/``if``/``let``/``have``/``show``, sorts
and universe levels, and the blocks a statement skips (``by``, ``match``, ``calc``, ``do``)
(a mixin of :class:`bridge.parser.Parser`)."""

from __future__ import annotations

from bridge import term as T
from bridge.lexer import Token
from bridge.syntax import _CLOSERS, KEYWORDS, LEAD_PREC, MAX_PREC, _describe
from bridge.term import Binder


class KeywordSyntax:
    """Keyword-introduced syntax; relies on the token helpers and ``parse_expr`` of the parser."""

    def _leading_ident(self, tok: Token) -> tuple[T.Term, int]:
        text = tok.text
        if text == "fun":
            return self._fun(), LEAD_PREC
        if text == "if":
            return self._if(), LEAD_PREC
        if text in ("let", "have"):
            return self._let(), LEAD_PREC
        if text in ("by", "match", "calc", "do"):
            self._skip_block()
            return T.Hole(text), LEAD_PREC
        if text == "show":
            self.pos += 1
            ty = self.parse_expr(0)
            if self.at("from"):
                self.pos += 1
                return T.Typed(self.parse_expr(0), ty), LEAD_PREC
            if self.at("by"):
                self._skip_block()
            return T.Typed(T.Hole("show"), ty), LEAD_PREC
        if text in KEYWORDS:
            raise self.error(f"unexpected keyword {text!r}", "a term", tok)
        self.pos += 1
        if text == "_":
            return T.Hole("_"), MAX_PREC
        if text == "Prop":
            return T.Sort(0), MAX_PREC
        if text in ("Type", "Sort"):
            offset = 1 if text == "Type" else 0
            nxt = self.peek()
            if nxt is not None and nxt.text == "*" and nxt.start == tok.end:
                self.pos += 1
                return T.Sort("u_1+1" if offset else "u_1"), MAX_PREC
            level = self._level()
            if level is None:
                return T.Sort(offset if text == "Type" else 0), MAX_PREC
            if isinstance(level, int):
                return T.Sort(level + offset), MAX_PREC
            return T.Sort(f"{level}+1" if offset else level), MAX_PREC
        return self._name_term(tok), MAX_PREC

    def _level(self) -> int | str | None:
        tok = self.peek()
        if tok is None:
            return None
        if tok.kind == "num":
            self.pos += 1
            return int(tok.value)  # type: ignore[arg-type]
        if tok.kind == "ident" and tok.text not in KEYWORDS and tok.text != "_":
            self.pos += 1
            return tok.text
        if tok.text == "_":
            self.pos += 1
            return "_"
        if tok.text == "(":
            start = self.pos
            self._skip_balanced()
            return " ".join(t.text for t in self.tokens[start + 1 : self.pos - 1])
        return None

    def _skip_balanced(self) -> None:
        """Skip one bracketed group starting at the current token."""
        opener = self.next()
        stack = [_CLOSERS.get(opener.text, ")")]
        while stack:
            tok = self.next()
            if tok.text in _CLOSERS and tok.kind == "sym":
                stack.append(_CLOSERS[tok.text])
            elif tok.kind == "sym" and tok.text == stack[-1]:
                stack.pop()

    def _skip_block(self) -> None:
        """Skip a tactic block / match / calc: up to a closing bracket at depth 0 or the end."""
        self.pos += 1
        depth = 0
        while not self.at_end():
            tok = self.tokens[self.pos]
            if tok.newline_before and tok.column <= self.column_limit:
                return  # the block of `let x := by tac` ends where the `let` body starts
            if tok.kind == "sym" and tok.text in _CLOSERS:
                depth += 1
            elif tok.kind == "sym" and tok.text in _CLOSERS.values():
                if depth == 0:
                    return
                depth -= 1
            self.pos += 1

    def _if(self) -> T.Term:
        self.pos += 1
        tok, nxt = self.peek(), self.peek(1)
        hyp: str | None = None
        if tok is not None and tok.kind == "ident" and nxt is not None and nxt.text == ":":
            hyp = tok.text
            self.pos += 2
        cond = self.parse_expr(0)
        self.expect("then")
        if hyp is not None:
            then_branch = self._with_bound([hyp], lambda: self.parse_expr(0))
        else:
            then_branch = self.parse_expr(0)
        self.expect("else")
        if hyp is not None:
            else_branch = self._with_bound([hyp], lambda: self.parse_expr(0))
            return T.app(
                "dite",
                cond,
                T.Lam((Binder(hyp, cond),), then_branch),
                T.Lam((Binder(hyp, T.app("Not", cond)),), else_branch),
            )
        else_branch = self.parse_expr(0)
        return T.app("ite", cond, then_branch, else_branch)

    def _let(self) -> T.Term:
        keyword = self.next()
        if keyword.text == "have" and self.at(":"):
            name_tok = keyword._replace(kind="ident", text="this", parts=("this",))  # `have : p := …`
        else:
            name_tok = self.next()
        if name_tok.kind != "ident" or name_tok.text in KEYWORDS - {"this"}:
            raise self.error(f"unexpected {_describe(name_tok)}", "a name", name_tok)
        mark = len(self.bound)
        try:
            params: list[Binder] = []
            while self.at("(", "{", "[", "⦃"):
                group = self.parse_binder_group()
                params.extend(group)
                self.bound.extend(b.name for b in group)
            ty = self.parse_after(":")
            self.expect(":=")
            saved_limit = self.column_limit
            self.column_limit = keyword.column
            try:
                value = self.parse_expr(0)
            finally:
                self.column_limit = saved_limit
        finally:
            del self.bound[mark:]
        if params:
            value = T.Lam(tuple(params), value)
            if ty is not None:
                ty = T.Pi(tuple(params), ty)
        if self.at(";"):
            self.pos += 1
        else:
            tok = self.peek()
            if tok is None or not tok.newline_before:
                raise self.error(f"unexpected {_describe(tok)}", f"';' or a newline after {keyword.text}")
        body = self._with_bound([name_tok.text], lambda: self.parse_expr(0))
        return T.Let(name_tok.text, ty, value, body)
