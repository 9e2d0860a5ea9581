"""Bracketed syntax of the statement parser: parentheses and tuples, ``{…}`` sets and
set-builder notation, ``![…]``/``!![…]`` vector and matrix literals, comma lists and the
``|x|``/``‖x‖`` delimiters (a mixin of :class:`bridge.parser.Parser`)."""

from __future__ import annotations

from typing import Callable

from bridge import term as T
from bridge.syntax import BINDER_PREDICATES, KEYWORDS
from bridge.term import Binder


class BracketSyntax:
    """Bracket-delimited syntax; relies on the token helpers and ``parse_expr`` of the parser."""

    def _delimited(self, delim: str, const: str, counter: str) -> T.Term:
        self.pos += 1
        setattr(self, counter, getattr(self, counter) + 1)
        saved_cdots = self.cdots
        try:
            inner = self.parse_expr(0)
        finally:
            setattr(self, counter, getattr(self, counter) - 1)
            self.cdots = saved_cdots
        self.expect(delim)
        return T.app(const, inner)

    def _comma_list(self, closer: str) -> list[T.Term]:
        items: list[T.Term] = []
        if self.at(closer):
            self.pos += 1
            return items
        saved = (self.abs_depth, self.norm_depth, self.stops)
        self.abs_depth = self.norm_depth = 0
        self.stops = frozenset()
        try:
            while True:
                items.append(self.parse_expr(0))
                if self.at(","):
                    self.pos += 1
                    continue
                self.expect(closer)
                return items
        finally:
            self.abs_depth, self.norm_depth, self.stops = saved

    def _vector(self, opener: str) -> T.Term:
        """``![a, b]`` (``Matrix.vecCons a (Matrix.vecCons b Matrix.vecEmpty)``) and
        ``!![a, b; c, d]`` (``Matrix.of`` of its rows), Mathlib's vector and matrix literals."""
        self.pos += 1
        rows: list[list[T.Term]] = []
        while True:
            row: list[T.Term] = []
            while not self.at(";", "]"):
                row.append(self.parse_expr(0))
                if not self.at(","):
                    break
                self.pos += 1
            rows.append(row)
            if opener == "![" or not self.at(";"):
                break
            self.pos += 1
        self.expect("]")
        vectors = []
        for row in rows:
            vector: T.Term = T.Const("Matrix.vecEmpty")
            for item in reversed(row):
                vector = T.app("Matrix.vecCons", item, vector)
            vectors.append(vector)
        if opener == "![":
            return vectors[0]
        matrix: T.Term = T.Const("Matrix.vecEmpty")
        for vector in reversed(vectors):
            matrix = T.app("Matrix.vecCons", vector, matrix)
        return T.app("Matrix.of", matrix)

    def _paren(self) -> T.Term:
        self.expect("(")
        if self.at(")"):
            self.pos += 1
            return T.Const("Unit.unit")
        saved = (self.abs_depth, self.norm_depth, self.cdots, self.stops)
        self.abs_depth = self.norm_depth = 0
        self.stops = frozenset()
        self.cdots = (self.cdots or []) + [[]]
        try:
            inner = self.parse_expr(0)
            if self.at(":"):
                self.pos += 1
                ty = self.parse_expr(0)
                inner = T.Typed(inner, ty)
            elif self.at(","):
                items = [inner]
                while self.at(","):
                    self.pos += 1
                    items.append(self.parse_expr(0))
                inner = items[-1]
                for item in reversed(items[:-1]):
                    inner = T.app("Prod.mk", item, inner)
            self.expect(")")
            names = self.cdots[-1]
        finally:
            self.abs_depth, self.norm_depth, self.cdots, self.stops = saved
        if names:
            return T.Lam(tuple(Binder(n, None) for n in names), inner)
        return inner

    def _brace(self) -> T.Term:
        start_tok = self.expect("{")
        if self.at("}"):
            self.pos += 1
            return T.Const("EmptyCollection.emptyCollection")
        tok, nxt = self.peek(), self.peek(1)
        if tok is not None and nxt is not None and nxt.text == ":=":
            raise self.error("structure instance notation is not supported in statements", "a term", start_tok)
        # set-builder: `{x | p}`, `{x : T | p}`, `{x ∈ s | p}`, `{x : T // p}`
        if tok is not None and tok.kind == "ident" and tok.text not in KEYWORDS and nxt is not None:
            save = self.pos
            name = tok.text
            self.pos += 1
            binder_type: T.Term | None = None
            pred: T.Term | None = None
            if self.at(":"):
                self.pos += 1
                binder_type = self._without_bars(lambda: self.parse_expr(0))
            elif self.at(*BINDER_PREDICATES):
                op = self.next().text
                self.bound.append(name)
                try:
                    bound_rhs = self._without_bars(lambda: self.parse_expr(51))
                finally:
                    self.bound.pop()
                pred = self.binder_predicate(name, op, bound_rhs)
            if self.at("|", "//"):
                sep = self.next().text
                self.bound.append(name)
                try:
                    body = self.parse_expr(0)
                finally:
                    self.bound.pop()
                self.expect("}")
                if pred is not None:
                    body = T.app("And", pred, body)
                lam = T.Lam((Binder(name, binder_type),), body)
                return T.app("Subtype" if sep == "//" else "setOf", lam)
            self.pos = save
        image = self.set_image()
        if image is not None:
            return image
        items = self._comma_list("}")
        result: T.Term = T.app("Singleton.singleton", items[-1])
        for item in reversed(items[:-1]):
            result = T.app("Insert.insert", item, result)
        return result

    def _without_bars(self, fn: Callable[[], T.Term]) -> T.Term:
        saved = self.abs_depth
        self.abs_depth = 1
        try:
            return fn()
        finally:
            self.abs_depth = saved
