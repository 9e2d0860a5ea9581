"""Binder syntax of the statement parser: binder groups, ``∀``/``∃``/``fun``, big operators,
integrals and ``Σ`` types (a mixin of :class:`bridge.parser.Parser`)."""

from __future__ import annotations

from typing import Callable

from bridge import term as T
from bridge.lexer import Token
from bridge.syntax import _CLOSERS, BINARY_OPS, BINDER_PREDICATES, KEYWORDS, _describe
from bridge.term import Binder


class BinderSyntax:
    """Binder-introducing syntax; relies on the token helpers and ``parse_expr`` of the parser."""

    def binder_predicate(self, name: str, op: str, rhs: T.Term) -> T.Term:
        """The proposition a binder predicate states: ``x ∈ s`` for ``∀ x ∈ s``."""
        return self._binary(op, BINARY_OPS[op][0], T.Var(name), rhs)

    def parse_binder_group(self) -> list[Binder]:
        """One bracketed binder group ``(x y : T)`` / ``{x}`` / ``[C]`` / ``⦃x⦄``."""
        opener = self.next()
        info = {"(": "default", "{": "implicit", "⦃": "strictImplicit", "[": "instImplicit"}.get(
            opener.text
        )
        closer = _CLOSERS.get(opener.text)
        if opener.text == "{{":
            info, closer = "strictImplicit", "}}"
        if info is None or closer is None:
            raise self.error(f"unexpected {_describe(opener)}", "a binder", opener)
        if info == "instImplicit":
            tok, nxt = self.peek(), self.peek(1)
            name = "_"
            if tok is not None and tok.kind == "ident" and nxt is not None and nxt.text == ":":
                name = tok.text
                self.pos += 2
            ty = self.parse_expr(0)
            self.expect(closer)
            return [Binder(name, ty, info)]
        names: list[str] = []
        while True:
            tok = self.peek()
            if tok is not None and tok.kind == "ident" and tok.text not in KEYWORDS:
                names.append(tok.text)
                self.pos += 1
                continue
            break
        if not names:
            raise self.error(f"unexpected {_describe(self.peek())}", "a binder name")
        ty = self.parse_after(":")
        if self.at(":="):
            self.pos += 1
            self.parse_expr(0)  # default value: parsed for validity, not kept
        self.expect(closer)
        return [Binder(n, ty, info) for n in names]

    def _binders(self, separators: tuple[str, ...]) -> tuple[list[Binder], list[tuple[str, str, T.Term]]]:
        """Binders of ``∀``/``∃``/``fun``/``∑`` up to (not including) a separator.

        Returns the binders and the binder predicates ``(name, op, rhs)``.
        """
        binders: list[Binder] = []
        preds: list[tuple[str, str, T.Term]] = []
        simple: list[str] = []
        while True:
            tok = self.peek()
            if tok is None:
                raise self.error("unexpected end of input", " or ".join(repr(s) for s in separators))
            if tok.kind == "ident" and tok.text not in KEYWORDS:
                simple.append(tok.text)
                self.pos += 1
                continue
            if tok.kind == "sym" and tok.text in ("(", "{", "[", "⦃"):
                if simple:  # `fun a (i : S j) ↦ …`: the names so far are untyped binders
                    binders.extend(Binder(n, None) for n in simple)
                    self.bound.extend(simple)
                    simple = []
                group = self.parse_binder_group()
                binders.extend(group)
                self.bound.extend(b.name for b in group)
                continue
            if tok.kind == "sym" and tok.text == "⟨" and not simple:
                self.pos += 1
                pattern_names = []
                while not self.at("⟩"):
                    name_tok = self.next()
                    if name_tok.kind == "ident":
                        pattern_names.append(name_tok.text)
                    elif name_tok.text != ",":
                        raise self.error(f"unexpected {_describe(name_tok)}", "a name", name_tok)
                self.pos += 1
                binders.append(Binder("x✝", None))
                self.bound.extend(pattern_names)
                continue
            break
        if simple:
            ty = self.parse_after(":")
            if ty is None and self.at(*BINDER_PREDICATES) and not self.at(*separators):
                op = self.next().text
                rhs = self.parse_expr(0)
                preds.extend((n, op, rhs) for n in simple)
            binders.extend(Binder(n, ty) for n in simple)
        if not binders:
            raise self.error(f"unexpected {_describe(self.peek())}", "a binder")
        return binders, preds

    def _with_bound(self, names: list[str], fn: Callable[[], T.Term]) -> T.Term:
        mark = len(self.bound)
        self.bound.extend(names)
        try:
            return fn()
        finally:
            del self.bound[mark:]

    def _quantified(self) -> tuple[list[Binder], list[tuple[str, str, T.Term]], T.Term]:
        """``∀``/``∃`` after the keyword: its binders, binder predicates and body ``, p``."""
        self.pos += 1
        mark = len(self.bound)
        try:
            binders, preds = self._scoped_binders((",",))
            self.expect(",")
            return binders, preds, self.parse_expr(0)
        finally:
            del self.bound[mark:]

    def _forall(self) -> T.Term:
        binders, preds, body = self._quantified()
        if preds:
            # ∀ x ∈ s, p  ≡  ∀ x, x ∈ s → p (one hypothesis per bound name)
            return self._nested(binders, preds, body,
                                lambda pred, rest: T.Pi((Binder("_", pred),), rest),
                                lambda b, rest: T.Pi((b,), rest))
        return T.Pi(tuple(binders), body)

    def _nested(self, binders: list[Binder], preds: list[tuple[str, str, T.Term]], body: T.Term,
                guard: Callable[[T.Term, T.Term], T.Term],
                close: Callable[[Binder, T.Term], T.Term]) -> T.Term:
        """``body`` under ``binders``, innermost last: each binder closes over ``guard``
        (its binder predicate, the rest) when it has a predicate."""
        pred_by_name = {name: (op, rhs) for name, op, rhs in preds}
        result = body
        for b in reversed(binders):
            if b.name in pred_by_name:
                op, rhs = pred_by_name[b.name]
                result = guard(self.binder_predicate(b.name, op, rhs), result)
            result = close(b, result)
        return result

    def scoped_binders(self, separators: tuple[str, ...]) -> tuple[list[Binder], list[tuple[str, str, T.Term]]]:
        """Binders up to a separator, left bound (for notation3's ``(...)``)."""
        return self._scoped_binders(separators)

    def _scoped_binders(self, separators: tuple[str, ...]) -> tuple[list[Binder], list[tuple[str, str, T.Term]]]:
        """Parse binders, binding each name for the types of later binders (left in ``bound``)."""
        binders, preds = self._binders(separators)
        for b in binders:
            self.bound.append(b.name)
        return binders, preds

    def _exists(self, unique: bool) -> T.Term:
        binders, preds, body = self._quantified()
        const = "ExistsUnique" if unique else "Exists"
        return self._nested(binders, preds, body, lambda pred, rest: T.app("And", pred, rest),
                            lambda b, rest: T.app(const, T.Lam((b,), rest)))

    def _fun(self) -> T.Term:
        self.pos += 1
        if self.at("|"):
            self._skip_block()
            return T.Hole("fun-match")
        mark = len(self.bound)
        try:
            binders, _ = self._scoped_binders(("=>", "↦"))
            self.expect("=>", "↦")
            body = self.parse_expr(0)
        finally:
            del self.bound[mark:]
        if any(b.name == "x✝" for b in binders):
            return T.Lam(tuple(binders), T.Hole("anonymous-constructor pattern"))
        return T.Lam(tuple(binders), body)

    def _big_operator(self, const: str) -> T.Term:
        self.pos += 1
        mark = len(self.bound)
        try:
            binders: list[Binder] = []
            domain: T.Term | None = None
            filt: T.Term | None = None
            tok = self.peek()
            if tok is not None and tok.kind == "ident" and tok.text not in KEYWORDS:
                names = []
                while True:
                    tok = self.peek()
                    if tok is not None and tok.kind == "ident" and tok.text not in KEYWORDS:
                        names.append(tok.text)
                        self.pos += 1
                    else:
                        break
                ty = self.parse_after(":")
                if ty is None and self.at("∈", "in"):
                    self.pos += 1
                    domain = self.parse_expr(0)
                    if len(names) != 1:
                        raise self.error("a big operator over a finset binds one name", "one name")
                binders = [Binder(n, ty) for n in names]
            else:
                binders, _ = self._binders((",",))
            self.bound.extend(b.name for b in binders)
            if self.at("with"):
                self.pos += 1
                filt = self.parse_expr(0)
            self.expect(",")
            body = self.parse_expr(67)
        finally:
            del self.bound[mark:]
        if domain is not None:
            if filt is not None:
                domain = T.app("Finset.filter", T.Lam((Binder(binders[0].name, None),), filt), domain)
            return T.app(const, domain, T.Lam((binders[0],), body))
        result = body
        for b in reversed(binders):
            result = T.app(const, T.Const("Finset.univ"), T.Lam((b,), result))
        return result

    def _integral(self) -> T.Term:
        """``∫ x, f ∂μ`` / ``∫ x in s, f`` / ``∫ x in a..b, f`` (Mathlib's Bochner integral);
        ``∫⁻ x, f ∂μ`` is the lower Lebesgue integral ``MeasureTheory.lintegral``."""
        lower = self._glued_next("⁻") is not None
        self.pos += 2 if lower else 1
        mark = len(self.bound)
        try:
            paren = self.at("(")  # `∫ (x : α), f x`
            if paren:
                self.pos += 1
            name_tok = self.next()
            if name_tok.kind != "ident" or name_tok.text in KEYWORDS:
                raise self.error(f"unexpected {_describe(name_tok)}", "a bound name", name_tok)
            ty = self.parse_after(":")
            if paren:
                self.expect(")")
            domain: T.Term | None = None
            upper: T.Term | None = None
            if self.at("in"):
                self.pos += 1
                domain = self.parse_expr(0)
                if self.at(".."):
                    self.pos += 1
                    upper = self.parse_expr(0)
            self.expect(",")
            self.bound.append(name_tok.text)
            body = self.parse_expr(60)
            measure: T.Term = T.Const("MeasureTheory.MeasureSpace.volume")
            if self.at("∂"):
                self.pos += 1
                measure = self.parse_expr(70)
        finally:
            del self.bound[mark:]
        lam = T.Lam((Binder(name_tok.text, ty),), body)
        if upper is not None:
            return T.app("intervalIntegral", lam, domain, upper, measure)  # type: ignore[arg-type]
        if domain is not None:
            measure = T.app("MeasureTheory.Measure.restrict", measure, domain)
        return T.app("MeasureTheory.lintegral" if lower else "MeasureTheory.integral", measure, lam)

    def _glued_next(self, text: str) -> Token | None:
        """The next token when it is ``text`` written right after the current one."""
        tok, nxt = self.peek(), self.peek(1)
        if tok is not None and nxt is not None and nxt.text == text and nxt.start == tok.end:
            return nxt
        return None

    def set_image(self) -> T.Term | None:
        """``{f x | x : T}`` / ``{(x, y) | (x : ℕ) (y : ℕ)}`` / ``{f i | i ∈ s}`` at the token
        after ``{`` (Mathlib's set-builder over binders): ``{y | ∃ x : T, f x = y}``. ``None``
        (position kept) when the braces hold no ``|`` followed by binders at depth 0."""
        start = self.pos
        bar = None
        depth = 0
        for k in range(start, len(self.tokens)):
            tok = self.tokens[k]
            if tok.kind != "sym":
                continue
            if tok.text in _CLOSERS:
                depth += 1
            elif tok.text in _CLOSERS.values():
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and tok.text == "|" and k > start:
                bar = k
        if bar is None:
            return None
        mark = len(self.bound)
        try:
            self.pos = bar + 1
            binders, preds = self._scoped_binders(("}",))
            self.expect("}")
            end = self.pos
            self.pos = start
            saved = (self.abs_depth, self.stops)
            self.abs_depth, self.stops = 1, frozenset({"|"})
            try:
                image = self.parse_expr(0)
            finally:
                self.abs_depth, self.stops = saved
            if self.pos != bar:
                raise self.error(f"unexpected {_describe(self.peek())}", "'|' and the binders of the set")
        finally:
            del self.bound[mark:]
        self.pos = end
        element = "y✝"
        body = T.app("Eq", image, T.Var(element))
        guards = {name: self.binder_predicate(name, op, rhs) for name, op, rhs in preds}
        for b in reversed(binders):
            if b.name in guards:
                body = T.app("And", guards[b.name], body)
            body = T.app("Exists", T.Lam((b,), body))
        return T.app("setOf", T.Lam((Binder(element, None),), body))

    def _sigma(self) -> T.Term:
        """``Σ x, β x`` / ``Σ' x, β x``: the dependent pair types (Lean core)."""
        const = "PSigma" if self._glued_next("'") is not None else "Sigma"
        self.pos += 2 if const == "PSigma" else 1
        mark = len(self.bound)
        try:
            binders, _ = self._scoped_binders((",",))
            self.expect(",")
            body = self.parse_expr(0)
        finally:
            del self.bound[mark:]
        for b in reversed(binders):
            body = T.app(const, T.Lam((b,), body))
        return body
