"""Declarations as the scanner reads them: name, signature, statement, body and equations,
and which section ``variable`` binders each one takes (a mixin of the file scanner).

:class:`DeclarationReader` needs from its host (:class:`bridge.scanner._FileScanner`): the
file's ``tokens`` and ``text``, ``diag``/``diag_parse``, ``parser``, ``resolver``,
``namespace``, ``variables()``, ``includes()``, ``declared``, ``declarations`` and
``parse_terms``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from bridge import term as T
from bridge.commands import _BODY_STOPS, _CLOSERS, _OPENERS, _matching
from bridge.declaration import Declaration, Equation, SourceRange
from bridge.fields import structure_fields
from bridge.lexer import Token, name_text
from bridge.parser import KEYWORDS, LeanParseError, Parser, parse_pattern
from bridge.term import Binder

@dataclass
class _Signature:
    name_tok: Token | None
    binders: list[Binder]
    type: T.Term | None
    body_index: int  # index in the command of the body start (len when none)
    sig_end: int  # index one past the last signature token
    ok: bool = True


class DeclarationReader:
    """Reads declaration commands into :class:`~bridge.declaration.Declaration` records."""

    def _declaration(self, start: int, i: int, end: int, doc: str | None, attrs: list[str],
                     mods: list[str], kind: str) -> None:
        toks = self.tokens
        kw = toks[i]
        k = i + 1
        name: str | None = None
        name_tok: Token | None = None
        if kind == "instance":
            while k < end and toks[k].text == "(":  # (priority := …)
                close = _matching(toks, k, end)
                if close is None:
                    break
                k = close + 1
        if k < end and toks[k].kind == "ident" and toks[k].text not in KEYWORDS and kind != "example":
            name_tok = toks[k]
            name = name_text(name_tok.parts)
            k += 1
        elif kind not in ("instance", "example"):
            at = toks[k] if k < end else kw
            self.diag(at.line, at.column, f"{kw.text} without a name", "a declaration name")
            return
        sig = self._signature(k, end, kind)
        if name is None and kind == "instance":
            name = _instance_name(toks[k : sig.sig_end])
        if name is None:  # example
            return
        full = self._qualify(name)
        self.declared.add(full)
        body_tok = toks[sig.body_index] if sig.body_index < end else None
        if kind in ("structure", "inductive"):
            self._register_members(full, kind, sig.body_index, end)
        if not self.parse_terms:
            return
        resolve = self.resolver(full)
        variables = self.variables()
        var_names = [v.name for v in variables]
        binders: list[Binder] = []
        ty: T.Term | None = None
        ok = True
        locals_ = list(var_names)
        try:
            parser = self.parser(toks[k : sig.sig_end], locals_, resolve,
                                 (body_tok.line, body_tok.column) if body_tok else (kw.line, kw.column))
            binders, ty = self._parse_signature(parser, kind)
        except LeanParseError as exc:
            ok = False
            self.diag_parse(exc, f"cannot parse the statement of {full}")
        except RecursionError:
            ok = False
            self.diag(kw.line, kw.column, f"the statement of {full} is nested too deeply to parse")
        if ok and ty is None and kind == "theorem":
            ok = False
            at = body_tok or kw
            self.diag(at.line, at.column, f"theorem {full} has no statement", "':' followed by a proposition")
        body_start = sig.body_index
        value: T.Term | None = None
        equations: list[Equation] = []
        own = [b.name for b in binders]
        if body_tok is not None and kind in ("def", "abbrev", "instance", "opaque"):
            value, equations = self._parse_body(full, sig.body_index, end, locals_ + own, resolve)
        elif body_tok is not None and kind == "structure" and body_tok.text == "where":
            value = self._structure_fields(full, sig.body_index + 1, end, locals_ + own, resolve)
        proof_tokens = toks[body_start:end]
        proof_words = {t.text for t in proof_tokens if t.kind == "ident"}
        for t in proof_tokens:
            if t.kind == "proof":
                proof_words |= t.value  # type: ignore[operator]
        uses_sorry = "sorry" in proof_words or "admit" in proof_words
        if kind == "axiom":
            status = "stated"
        elif uses_sorry:
            status = "stated"
        else:
            status = "unchecked"
        # variables belong to the statements that use them
        if ok:
            parts: list[T.Term] = [T.Pi(tuple(binders), ty if ty is not None else T.Sort(0))]
            if kind != "theorem":
                if value is not None:
                    parts.append(T.Lam(tuple(binders), value) if binders else value)
                for eq in equations:
                    pattern_vars = [Binder(v, None) for p in eq.patterns for v in sorted(T.free_vars(p))]
                    parts.append(T.Lam(tuple(pattern_vars), eq.rhs) if pattern_vars else eq.rhs)
            mentioned: set[str] = set()
            for part in parts:
                mentioned |= T.free_vars(part)
        else:
            mentioned = {t.text for t in toks[k : sig.sig_end] if t.kind == "ident"}
            mentioned |= {t.parts[0] for t in toks[k : sig.sig_end] if t.kind == "ident" and t.parts}
        if kind == "theorem":
            # before `include` (Lean < 4.10) a theorem also took the section variables its
            # proof names, such as `variable (b_pos : 0 < b)`; in later Lean a proof naming
            # one without `include` does not elaborate, so this reads both eras right
            mentioned |= proof_words & {v.name for v in variables}
        # an anonymous binder (`[Fintype ι]` is `_`) shadows nothing: `_` is never a name
        named = set(own) - {"_"}
        used_vars = _used_variables(variables, mentioned - named | self.includes(), named,
                                    hypotheses=kind == "theorem")
        start_tok = toks[start]
        last = toks[end - 1]
        sig_last = toks[sig.sig_end - 1] if sig.sig_end - 1 >= i else kw
        statement_text = self.text[kw.start : sig_last.end]
        proof_text = self.text[toks[body_start].start : last.end] if body_start < end else None
        self.declarations.append(
            Declaration(
                name=full,
                kind=kind,
                module=self.module,
                binders=tuple(used_vars) + tuple(binders),
                type=ty if ok else None,
                value=value,
                equations=tuple(equations),
                docstring=doc,
                range=SourceRange(self.file, start_tok.line, start_tok.column, *_end_position(last)),
                statement_text=statement_text,
                proof_text=proof_text,
                lean_status=status,
                uses_sorry=uses_sorry,
                attributes=tuple(attrs),
                modifiers=tuple(mods),
                method="scanner",
            )
        )

    def _qualify(self, name: str) -> str:
        if name.startswith("_root_."):
            return name[len("_root_.") :]
        return f"{self.namespace}.{name}" if self.namespace else name

    def _signature(self, k: int, end: int, kind: str) -> _Signature:
        """Locate the body start (``:=``, ``|`` on a new line, ``where``) at depth 0."""
        toks = self.tokens
        lets = 0  # `let x := v` / `have h : p := q` in the statement own the next `:=`
        for j, t, depth in self.with_depth(k, end):
            if depth == 0:
                if t.kind == "ident" and t.text in ("let", "have"):
                    lets += 1
                elif t.kind == "sym" and t.text == ":=" and lets:
                    lets -= 1
                elif t.kind == "ident" and t.text == "by" and toks[j - 1].text == ":=" and j - 1 > k:
                    continue  # `have h : p := by tac` inside the statement
                elif t.kind == "sym" and t.text == ":=":
                    return _Signature(None, [], None, j, j)
                if t.kind == "sym" and t.text == "|" and t.newline_before and (
                        kind in ("inductive", "structure") or self._starts_equations(j, end)):
                    return _Signature(None, [], None, j, j)
                if t.kind == "ident" and t.text in ("where", "deriving", "extends") and kind in ("structure", "inductive", "instance", "def", "abbrev"):
                    return _Signature(None, [], None, j, j)
                if kind == "theorem" and t.kind == "ident" and t.text in ("by", "where"):
                    return _Signature(None, [], None, j, j)
        return _Signature(None, [], None, end, end)

    def _starts_equations(self, j: int, end: int) -> bool:
        """Whether the ``|`` at line start ``j`` begins equations (``| 0 => 1``), not an
        absolute value continuing the statement (``:`` then ``|x| ≤ 1`` on the next line)."""
        toks = self.tokens
        if toks[j - 1].text == ":":
            return False  # the statement starts on the next line
        found = self.find_top_level(j + 1, end, lambda t: t.kind == "sym" and (
            t.text in ("=>", "↦", ":=") or (t.text == "|" and t.newline_before)))
        return found is not None and toks[found].text in ("=>", "↦")

    def with_depth(self, start: int, end: int) -> Iterator[tuple[int, Token, int]]:
        """``(index, token, depth)`` for the tokens in ``[start, end)`` that are not brackets;
        ``depth`` counts the brackets open around the token."""
        toks = self.tokens
        depth = 0
        for m in range(start, end):
            t = toks[m]
            if t.kind == "sym" and t.text in _OPENERS:
                depth += 1
            elif t.kind == "sym" and t.text in _CLOSERS:
                depth = max(0, depth - 1)
            else:
                yield m, t, depth

    def find_top_level(self, start: int, end: int, hit: Callable[[Token], bool]) -> int | None:
        """The first index in ``[start, end)`` of a token outside brackets for which ``hit``."""
        return next((m for m, t, depth in self.with_depth(start, end) if depth == 0 and hit(t)), None)

    def _parse_signature(self, parser: Parser, kind: str) -> tuple[list[Binder], T.Term | None]:
        binders: list[Binder] = []
        while not parser.at_end():
            tok = parser.peek()
            btok = tok
            if btok is None:
                break
            if btok.kind == "sym" and btok.text in ("(", "{", "[", "⦃"):
                group = parser.parse_binder_group()
                binders.extend(group)
                parser.locals.update(b.name for b in group)
                continue
            if btok.kind == "ident" and btok.text not in KEYWORDS and btok.text != "_":
                binders.append(Binder(btok.text, None))
                parser.locals.add(btok.text)
                parser.pos += 1
                continue
            break
        if parser.at_end():
            return binders, None
        parser.expect(":")
        ty = parser.parse_expr(0)
        if not parser.at_end():
            raise parser.error(f"unexpected {parser.peek().kind} {parser.peek().text!r}",  # type: ignore[union-attr]
                               "':=' or the end of the statement")
        return binders, ty

    def _parse_body(self, full: str, j: int, end: int, locals_: list[str],
                    resolve: Callable[[str], str]) -> tuple[T.Term | None, list[Equation]]:
        toks = self.tokens
        tok = toks[j]
        found = self.find_top_level(j + 1, end, lambda t: t.kind == "ident" and t.text in _BODY_STOPS
                                    and t.newline_before)
        stop = end if found is None else found
        if tok.text == ":=":
            if j + 1 >= stop:
                self.diag(tok.line, tok.column, f"definition {full} has no body", "a term after ':='")
                return None, []
            if toks[j + 1].text == "by":
                return None, []
            try:
                parser = self.parser(toks[j + 1 : stop], locals_, resolve, (tok.line, tok.column))
                return parser.parse_all(), []
            except LeanParseError as exc:
                self.diag_parse(exc, f"cannot parse the body of {full}", severity="warning")
            except RecursionError:
                self.diag(tok.line, tok.column, f"the body of {full} is nested too deeply", severity="warning")
            return None, []
        if tok.text == "|":
            return None, self._equations(full, j, stop, locals_, resolve)
        return None, []

    def _equations(self, full: str, j: int, stop: int, locals_: list[str],
                   resolve: Callable[[str], str]) -> list[Equation]:
        toks = self.tokens
        starts = [m for m in range(j, stop) if toks[m].kind == "sym" and toks[m].text == "|"
                  and (toks[m].newline_before or m == j)]
        out: list[Equation] = []
        for a, b in zip(starts, starts[1:] + [stop]):
            arrow = self.find_top_level(a + 1, b, lambda t: t.kind == "sym" and t.text in ("=>", "↦"))
            bar = toks[a]
            if arrow is None:
                self.diag(bar.line, bar.column, f"equation of {full} without '=>'", "'=>'")
                continue
            try:
                parser = self.parser(toks[a + 1 : arrow], locals_, resolve, (toks[arrow].line, toks[arrow].column))
                patterns: list[T.Term] = []
                pattern_vars: list[str] = []
                while True:
                    pattern, names = parse_pattern(parser)
                    patterns.append(pattern)
                    pattern_vars.extend(names)
                    if parser.at(","):
                        parser.pos += 1
                        continue
                    break
                if not parser.at_end():
                    raise parser.error(f"unexpected {parser.peek().text!r}", "',' or '=>'")  # type: ignore[union-attr]
                rhs_parser = self.parser(toks[arrow + 1 : b], locals_ + pattern_vars, resolve,
                                         (toks[arrow].line, toks[arrow].column))
                if rhs_parser.at_end() or rhs_parser.at("by"):
                    rhs: T.Term = T.Hole("by")
                else:
                    rhs = rhs_parser.parse_all()
                out.append(Equation(tuple(patterns), rhs))
            except LeanParseError as exc:
                self.diag_parse(exc, f"cannot parse an equation of {full}", severity="warning")
            except RecursionError:
                self.diag(bar.line, bar.column, f"an equation of {full} is nested too deeply", severity="warning")
        return out

    def _structure_fields(self, full: str, j: int, end: int, locals_: list[str],
                          resolve: Callable[[str], str]) -> T.Term | None:
        """A structure's fields as ``Pi(fields, Hole)`` (:mod:`bridge.fields`), or ``None``."""
        def parser(tokens: list[Token], names: list[str]) -> Parser:
            return self.parser(tokens, locals_ + names, resolve, (tokens[-1].line, tokens[-1].column))
        try:
            return structure_fields(self.tokens[j:end], parser)
        except LeanParseError as exc:
            self.diag_parse(exc, f"cannot parse the fields of {full}", severity="warning")
            return None

    def _register_members(self, full: str, kind: str, j: int, end: int) -> None:
        """Register constructor and field names (``S.mk``, ``S.x``, ``I.ctor``) for resolution."""
        toks = self.tokens
        if kind == "structure":
            self.declared.add(full + ".mk")
        for m, t, depth in self.with_depth(j, end):
            if t.kind != "ident" or t.text in KEYWORDS:
                continue
            prev = toks[m - 1] if m > 0 else None
            nxt = toks[m + 1] if m + 1 < end else None
            if kind == "inductive" and prev is not None and prev.text == "|":
                self.declared.add(f"{full}.{t.text}")
            elif kind == "structure" and t.newline_before and depth == 0 and nxt is not None and nxt.text in (":", "::"):
                if nxt.text == "::":
                    self.declared.add(f"{full}.{t.text}")
                else:
                    self.declared.add(f"{full}.{t.text}")


#: Heads of a variable's type that make it a hypothesis (a proposition).
_PROPOSITION_HEADS = frozenset({"LT.lt", "LE.le", "GT.gt", "GE.ge", "Eq", "Ne", "Not", "And",
                                "Or", "Iff", "Membership.mem"})


def _is_hypothesis(binder: Binder) -> bool:
    head = binder.type
    while isinstance(head, T.App):
        head = head.fn
    return isinstance(head, T.Const) and head.name in _PROPOSITION_HEADS


def _used_variables(variables: list[Binder], mentioned: set[str], own: set[str],
                    hypotheses: bool = False) -> list[Binder]:
    """The ``variable`` binders a declaration uses, closed under the names their types mention.

    Instance-implicit variables are included when every variable their type mentions is
    included (as Lean does for ``[Fintype n]`` once ``n`` is used). With ``hypotheses`` (a
    theorem), so are section hypotheses about included variables, such as
    ``variable (b_pos : 0 < b)``: before ``include`` (Lean < 4.10) a theorem took those its
    proof used, tactics included, which the scanner cannot see; with the hypothesis the
    statement is the weaker one, whose refutation still refutes Lean's.
    """
    names = {v.name for v in variables if v.name != "_"}
    used = {n for n in mentioned if n in names}
    changed = True
    while changed:
        changed = False
        for v in variables:
            if v.name in used and v.type is not None:
                extra = (T.free_vars(v.type) & names) - used
                if extra:
                    used |= extra
                    changed = True
    if hypotheses:
        for v in variables:
            if v.name not in used and v.type is not None and _is_hypothesis(v):
                free = T.free_vars(v.type) & names
                if free and free <= used:
                    used.add(v.name)
    out = []
    for v in variables:
        if v.name in own:
            continue
        if v.info == "instImplicit" and v.name not in used:
            fv = T.free_vars(v.type) & names if v.type is not None else frozenset()
            if fv and fv <= used:
                out.append(v)
            continue
        if v.name in used:
            out.append(v)
    return out


def _end_position(tok: Token) -> tuple[int, int]:
    """Line and column just past ``tok`` (a ``proof`` token spans lines)."""
    breaks = tok.text.count("\n")
    if not breaks:
        return tok.line, tok.column + len(tok.text)
    return tok.line + breaks, len(tok.text) - tok.text.rfind("\n")


def _instance_name(tokens: list[Token]) -> str:
    """Lean-style name of an anonymous instance: ``inst`` + the names in its class type.

    ``instance : Inhabited Point`` is ``instInhabitedPoint``. Lean builds the name from the
    elaborated type; this uses the written one, which agrees for the common cases.
    """
    depth = 0
    colon = None
    for j, tok in enumerate(tokens):
        if tok.kind == "sym" and tok.text in _OPENERS:
            depth += 1
        elif tok.kind == "sym" and tok.text in _CLOSERS:
            depth = max(0, depth - 1)
        elif depth == 0 and tok.text == ":":
            colon = j
    if colon is None:
        return "inst"
    names = [t.parts[-1] for t in tokens[colon + 1 :] if t.kind == "ident" and t.parts]
    return "inst" + "".join(n[:1].upper() + n[1:] for n in names if n not in KEYWORDS)
