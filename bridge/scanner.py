"""The source scanner: Lean 4 declarations without a Lean toolchain.

:func:`scan_file` splits a file into commands, tracks ``namespace``/``section``/``end``,
``open`` (also ``open … in``), ``variable`` binders (which belong to the declarations that
use them, with the variables those mention, as Lean does), ``universe``, ``set_option … in``,
attributes and modifiers, and parses each declaration's binders, statement and (for
definitions) value or equations into normalized terms with resolved names. Notation is read as
Lean reads it (:mod:`bridge.notation`): Mathlib's table plus the project's own ``notation``,
``infix``…, ``notation3``, ``macro`` and ``macro_rules`` commands, each from where it is
declared, with ``scoped`` ones active only where their namespace is open and ``local`` ones
to the end of the file. :func:`unknown_notation` counts what stopped parsing.

A command starts at a command keyword that is the first token of its line (``theorem``,
``def``, ``namespace``, ``end`` … anywhere; ``open``, ``set_option``, attributes, modifiers
and doc comments only in column 1). A declaration that does not parse yields a located
:class:`~bridge.declaration.Diagnostic` and is still reported (``type=None``); the scanner
goes on with the next command. Nothing from the source is evaluated, and the scanner never
claims a proof is checked: ``lean_status`` is ``stated`` when the proof mentions
``sorry``/``admit`` and ``unchecked`` otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable

from bridge import term as T
from bridge.commands import (  # noqa: F401 - split_commands is part of this module's interface
    _BODY_STOPS, _CLOSERS, _OPENERS, DECLARATION_KEYWORDS, _matching, _skip_prefix, split_commands,
)
from bridge.declaration import Declaration, Diagnostic, Equation, Extraction, SourceRange
from bridge.errors import ProjectError
from bridge.fields import structure_fields
from bridge.lexer import Token, name_text, tokenize
from bridge.names import SCOPED_NOTATIONS, WELL_KNOWN_NAMES
from bridge.notation import (
    NOTATION_COMMANDS, Notation, NotationError, NotationTable, mathlib_notations, read_macro_command,
    read_notation_command,
)
from bridge.parser import BINARY_OPS, KEYWORDS, LeanParseError, Parser, parse_pattern
from bridge.term import Binder

@dataclass
class _Scope:
    kind: str  # "file" | "namespace" | "section" | "mutual"
    name: str = ""
    namespace: str = ""
    opens: list[str] = field(default_factory=list)
    variables: list[Binder] = field(default_factory=list)
    includes: set[str] = field(default_factory=set)


@dataclass
class _Signature:
    name_tok: Token | None
    binders: list[Binder]
    type: T.Term | None
    body_index: int  # index in the command of the body start (len when none)
    sig_end: int  # index one past the last signature token
    ok: bool = True


class _FileScanner:
    """Scans one file; ``known`` is the set of names resolution may resolve to."""

    def __init__(self, text: str, file: str, module: str, known: frozenset[str],
                 tokens: list[Token] | None = None, notations: Iterable[Notation] = ()) -> None:
        self.text = text
        self.file = file
        self.module = module
        self.known = known
        self.tokens = tokenize(text) if tokens is None else tokens
        #: Command spans, computed once and shared with a later pass over the same tokens.
        self.spans: list[tuple[int, int]] | None = None
        self.diagnostics: list[Diagnostic] = []
        self.declarations: list[Declaration] = []
        self.declared: set[str] = set()
        self.scopes: list[_Scope] = [_Scope("file")]
        self.pending_opens: list[str] = []
        #: Scopes pushed by `variable … in` that end with the next command.
        self.scoped_for_next = 0
        self.parse_terms = True
        #: Notations this file declares, in order; the table in force (Mathlib's, the
        #: project's, and this file's so far).
        self.notations: list[Notation] = []
        self.table: NotationTable = mathlib_notations().extended(list(notations))
        self._table_sources = {n.source for n in notations}
        self._notation_resolvers: dict[str, Callable[[str], str]] = {}

    # -- diagnostics ---------------------------------------------------------------------
    def diag(self, line: int, column: int, message: str, expected: str | None = None,
             severity: str = "error", construct: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(self.file, line, column, message, expected, severity, construct))

    def diag_parse(self, exc: LeanParseError, what: str, severity: str = "error") -> None:
        self.diag(exc.line, exc.column, f"{what}: {exc.reason}", exc.expected, severity, exc.construct)

    # -- scope helpers -------------------------------------------------------------------
    @property
    def namespace(self) -> str:
        return self.scopes[-1].namespace

    def opens(self) -> list[str]:
        out: list[str] = []
        for scope in self.scopes:
            out.extend(scope.opens)
        out.extend(self.pending_opens)
        return out

    def variables(self) -> list[Binder]:
        out: list[Binder] = []
        for scope in self.scopes:
            out.extend(scope.variables)
        return out

    def includes(self) -> set[str]:
        out: set[str] = set()
        for scope in self.scopes:
            out |= scope.includes
        return out

    def resolver(self, decl_name: str | None = None) -> Callable[[str], str]:
        namespace = self.namespace
        if decl_name and "." in decl_name:
            namespace = decl_name.rsplit(".", 1)[0]
        return self.resolver_for(namespace, self.opens())

    def notation_resolver(self, notation: Notation) -> Callable[[str], str] | None:
        """Names in a notation's right-hand side resolve where it was declared."""
        if notation.source.startswith("Mathlib/"):
            return None
        resolver = self._notation_resolvers.get(notation.source)
        if resolver is None:
            resolver = self.resolver_for(notation.namespace, list(notation.opens))
            self._notation_resolvers[notation.source] = resolver
        return resolver

    def active_scopes(self) -> frozenset[str]:
        """Namespaces whose scoped notations are in force: the open ones (also relative to
        the current namespace) and the current namespace with its prefixes."""
        parts = self.namespace.split(".") if self.namespace else []
        active = {".".join(parts[:k]) for k in range(1, len(parts) + 1)}
        for opened in self.opens():
            active.add(opened)
            active.update(".".join(parts[:k]) + "." + opened for k in range(1, len(parts) + 1))
        return frozenset(active)

    def parser(self, tokens: list[Token], locals_: Iterable[str], resolve: Callable[[str], str] | None,
               end_position: tuple[int, int]) -> Parser:
        """A term parser with this file's notations and open scopes."""
        return Parser(tokens, locals_, resolve, end_position=end_position, notations=self.table,
                      scopes=self.active_scopes(), notation_resolver=self.notation_resolver)

    def resolver_for(self, namespace: str, opens: list[str]) -> Callable[[str], str]:
        """Name resolution inside ``namespace`` with ``opens`` open."""
        ns_parts = namespace.split(".") if namespace else []
        known = self.known

        def resolve(name: str) -> str:
            if name.startswith("_root_."):
                return name[len("_root_.") :]
            for k in range(len(ns_parts), 0, -1):
                full = ".".join(ns_parts[:k]) + "." + name
                if full in known:
                    return full
            for opened in reversed(opens):
                notation = SCOPED_NOTATIONS.get(opened, {}).get(name)
                if notation is not None:
                    return notation
                full = opened + "." + name
                if full in known:
                    return full
            return name

        return resolve

    # -- main loop -----------------------------------------------------------------------
    def run(self) -> None:
        for tok in self.tokens:
            if tok.kind == "error":
                self.diag(tok.line, tok.column, str(tok.value))
        if self.spans is None:
            self.spans = split_commands(self.tokens)
        for start, end in self.spans:
            if self._command(start, end) == "exit":
                break

    def _command(self, start: int, end: int) -> str | None:
        toks = self.tokens
        first = toks[start]
        if first.kind == "moddoc":
            return None
        i, doc, attrs, mods = _skip_prefix(toks, start, end)
        if i >= end:
            return None
        tok = toks[i]
        result: str | None = None
        try:
            result = self._dispatch(start, i, end, doc, attrs, mods)
        except LeanParseError as exc:
            self.diag_parse(exc, "cannot parse command")
        except RecursionError:
            self.diag(tok.line, tok.column, "command nested too deeply to parse")
        except Exception as exc:  # noqa: BLE001 - a scanner bug must not stop the scan of a project
            self.diag(tok.line, tok.column, f"internal scanner error: {type(exc).__name__}: {exc}")
        if result != "prefix":
            self.pending_opens = []
            while self.scoped_for_next:
                self.scoped_for_next -= 1
                if len(self.scopes) > 1:
                    self.scopes.pop()
        return result

    def _dispatch(self, start: int, i: int, end: int, doc: str | None, attrs: list[str],
                  mods: list[str]) -> str | None:
        toks = self.tokens
        tok = toks[i]
        text = tok.text
        if tok.kind == "sym" and text == "#":
            nxt = toks[i + 1] if i + 1 < end else None
            if nxt is not None and nxt.text == "exit":
                return "exit"
            return None
        if tok.kind != "ident":
            self.diag(tok.line, tok.column, f"unexpected {tok.kind} {tok.text!r}", "a command")
            return None
        if text in DECLARATION_KEYWORDS:
            if text == "class" and i + 1 < end and toks[i + 1].text == "inductive":
                i += 1
            self._declaration(start, i, end, doc, attrs, mods, DECLARATION_KEYWORDS[text])
            return None
        if text == "namespace":
            if i + 1 >= end or toks[i + 1].kind != "ident":
                self.diag(tok.line, tok.column, "namespace without a name", "a namespace name")
                return None
            name = name_text(toks[i + 1].parts)
            full = f"{self.namespace}.{name}" if self.namespace else name
            self.scopes.append(_Scope("namespace", name, full))
            return None
        if text == "section":
            name = ".".join(toks[i + 1].parts) if i + 1 < end and toks[i + 1].kind == "ident" else ""
            self.scopes.append(_Scope("section", name, self.namespace))
            return None
        if text == "mutual":
            self.scopes.append(_Scope("mutual", "", self.namespace))
            return None
        if text == "end":
            name = ".".join(toks[i + 1].parts) if i + 1 < end and toks[i + 1].kind == "ident" else ""
            if len(self.scopes) <= 1:
                self.diag(tok.line, tok.column, f"'end {name}' without an open namespace or section",
                          "a matching 'namespace' or 'section'")
                return None
            scope = self.scopes.pop()
            if scope.kind != "mutual" and name != scope.name:
                self.diag(tok.line, tok.column, f"'end {name}' closes {scope.kind} {scope.name!r}",
                          f"'end {scope.name}'".rstrip(), severity="warning")
            return None
        if text == "open":
            return self._open(i, end)
        if text in NOTATION_COMMANDS or text in ("local", "scoped", "macro_rules", "macro"):
            self._notation(i, end)
            return None
        if text == "set_option":
            j = self._find_in(i, end)
            if j is None:
                return None
            k2, doc2, attrs2, mods2 = _skip_prefix(toks, j + 1, end)
            if k2 < end:
                return self._dispatch(j + 1, k2, end, doc2 or doc, attrs + attrs2, mods + mods2)
            return "prefix"
        if text == "variable":
            j = self._find_in(i, end)
            if j is None:
                self._variable(i + 1, end)
                return None
            # `variable … in` binds for the next command only
            self.scopes.append(_Scope("section", "", self.namespace))
            self._variable(i + 1, j)
            k2, doc2, attrs2, mods2 = _skip_prefix(toks, j + 1, end)
            if k2 < end:
                try:
                    return self._dispatch(j + 1, k2, end, doc2 or doc, attrs + attrs2, mods + mods2)
                finally:
                    self.scopes.pop()
            self.scoped_for_next += 1
            return "prefix"
        if text in ("include", "omit"):
            names = {t.text for t in toks[i + 1 : end] if t.kind == "ident"}
            if text == "include":
                self.scopes[-1].includes |= names
            else:
                self.scopes[-1].includes -= names
            return None
        return None  # universe, import, attribute, notation, #eval … carry no statements

    def _notation(self, i: int, end: int) -> None:
        """Read a notation command; it is in force from here (``local``: to the end of the file)."""
        toks = self.tokens
        k = i
        while k < end and toks[k].text in ("local", "scoped"):
            k += 1
        if k >= end:
            return
        source = f"{self.file}:{toks[i].line}"
        try:
            if toks[k].text in ("macro_rules", "macro"):
                if k + 1 < end and toks[k + 1].text == "(" and toks[k + 2].text == "kind":
                    return  # tactic and command macros carry no term notation
                notations = read_macro_command(toks, i, end, self.namespace, self.opens(), source, BINARY_OPS)
            else:
                notations = [read_notation_command(toks, i, end, self.namespace, self.opens(), source)]
        except NotationError as exc:
            if toks[k].text in NOTATION_COMMANDS or toks[k].text == "macro_rules":
                self.diag(exc.token.line, exc.token.column, f"notation not read: {exc}",
                          severity="warning")
            return
        for index, notation in enumerate(notations):
            notation = replace(notation, source=f"{source}#{index}") if index else notation
            self.notations.append(notation)
            if notation.source not in self._table_sources:
                self._table_sources.add(notation.source)
                self.table.add(notation)

    def _find_in(self, i: int, end: int) -> int | None:
        depth = 0
        for j in range(i, end):
            t = self.tokens[j]
            if t.kind == "sym" and t.text in _OPENERS:
                depth += 1
            elif t.kind == "sym" and t.text in _CLOSERS:
                depth = max(0, depth - 1)
            elif depth == 0 and t.kind == "ident" and t.text == "in":
                return j
        return None

    def _open(self, i: int, end: int) -> str | None:
        toks = self.tokens
        j = self._find_in(i, end)
        stop = j if j is not None else end
        names: list[str] = []
        k = i + 1
        while k < stop:
            t = toks[k]
            if t.kind == "sym" and t.text == "(":
                close = _matching(toks, k, stop)
                k = stop if close is None else close + 1
                continue
            if t.kind == "ident" and t.text in ("hiding", "renaming"):
                break
            if t.kind == "ident" and t.text not in ("scoped",):
                names.append(".".join(t.parts))
            k += 1
        if j is None:
            self.scopes[-1].opens.extend(names)
            return None
        if j + 1 < end:
            saved = self.pending_opens
            self.pending_opens = saved + names
            try:
                start = j + 1
                k2, doc, attrs, mods = _skip_prefix(toks, start, end)
                if k2 < end:
                    return self._dispatch(start, k2, end, doc, attrs, mods)
            finally:
                self.pending_opens = saved
            return None
        self.pending_opens = self.pending_opens + names
        return "prefix"

    def _variable(self, i: int, end: int) -> None:
        toks = self.tokens
        scope = self.scopes[-1]
        k = i
        while k < end:
            t = toks[k]
            if t.kind == "sym" and t.text in ("(", "{", "[", "⦃"):
                close = _matching(toks, k, end)
                if close is None:
                    self.diag(t.line, t.column, "unclosed variable binder", f"a closing bracket for {t.text!r}")
                    return
                group_toks = toks[k : close + 1]
                try:
                    parser = self.parser(group_toks, [b.name for b in self.variables()], self.resolver(),
                                         (t.line, t.column))
                    group = parser.parse_binder_group()
                except LeanParseError as exc:
                    # `variable {x}` with no type updates the binder info of existing names
                    self.diag_parse(exc, "cannot parse variable binder")
                    k = close + 1
                    continue
                for binder in group:
                    if binder.type is None and self._update_variable(binder):
                        continue
                    scope.variables.append(binder)
                k = close + 1
            else:
                self.diag(t.line, t.column, f"unexpected {t.kind} {t.text!r} in variable", "a bracketed binder")
                k += 1

    def _update_variable(self, binder: Binder) -> bool:
        for scope in reversed(self.scopes):
            for idx, existing in enumerate(scope.variables):
                if existing.name == binder.name:
                    scope.variables[idx] = replace(existing, info=binder.info)
                    return True
        return False

    # -- declarations --------------------------------------------------------------------
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
        uses_sorry = any(t.kind == "ident" and t.text in ("sorry", "admit") for t in proof_tokens)
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
            mentioned |= {t.text for t in proof_tokens if t.kind == "ident"} & {
                v.name for v in variables}
        used_vars = _used_variables(variables, mentioned - set(own) | self.includes(), set(own),
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
                range=SourceRange(self.file, start_tok.line, start_tok.column, last.line,
                                  last.column + len(last.text)),
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
        depth = 0
        for j in range(k, end):
            t = toks[j]
            if t.kind == "sym" and t.text in _OPENERS:
                depth += 1
            elif t.kind == "sym" and t.text in _CLOSERS:
                depth = max(0, depth - 1)
            elif depth == 0:
                if t.kind == "sym" and t.text == ":=":
                    return _Signature(None, [], None, j, j)
                if t.kind == "sym" and t.text == "|" and t.newline_before:
                    return _Signature(None, [], None, j, j)
                if t.kind == "ident" and t.text in ("where", "deriving", "extends") and kind in ("structure", "inductive", "instance", "def", "abbrev"):
                    return _Signature(None, [], None, j, j)
                if kind == "theorem" and t.kind == "ident" and t.text in ("by", "where"):
                    return _Signature(None, [], None, j, j)
        return _Signature(None, [], None, end, end)

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
        stop = end
        depth = 0
        for m in range(j + 1, end):
            t = toks[m]
            if t.kind == "sym" and t.text in _OPENERS:
                depth += 1
            elif t.kind == "sym" and t.text in _CLOSERS:
                depth = max(0, depth - 1)
            elif depth == 0 and t.kind == "ident" and t.text in _BODY_STOPS and t.newline_before:
                stop = m
                break
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
            arrow = None
            depth = 0
            for m in range(a + 1, b):
                t = toks[m]
                if t.kind == "sym" and t.text in _OPENERS:
                    depth += 1
                elif t.kind == "sym" and t.text in _CLOSERS:
                    depth = max(0, depth - 1)
                elif depth == 0 and t.kind == "sym" and t.text in ("=>", "↦"):
                    arrow = m
                    break
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
        depth = 0
        for m in range(j, end):
            t = toks[m]
            if t.kind == "sym" and t.text in _OPENERS:
                depth += 1
            elif t.kind == "sym" and t.text in _CLOSERS:
                depth = max(0, depth - 1)
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


def _decode(data: bytes) -> tuple[str, list[tuple[int, int]]]:
    """Decode UTF-8, replacing invalid bytes; returns the text and (line, column) of each bad run."""
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    text = data.decode("utf-8", errors="replace")
    bad: list[tuple[int, int]] = []
    line, col = 1, 1
    prev_bad = False
    for ch in text:
        if ch == "\ufffd":
            if not prev_bad:
                bad.append((line, col))
            prev_bad = True
        else:
            prev_bad = False
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
    return text, bad


def _scan(text: str | bytes, file: str, module: str, known: Iterable[str] | None,
          parse_terms: bool = True, tokens: list[Token] | None = None,
          notations: Iterable[Notation] = (), spans: list[tuple[int, int]] | None = None) -> _FileScanner:
    bad: list[tuple[int, int]] = []
    if isinstance(text, bytes):
        text, bad = _decode(text)
    if tokens is None:
        tokens = tokenize(text)
    if spans is None:
        spans = split_commands(tokens)
    known_set = frozenset(known) if known is not None else None
    if known_set is None:
        header = _FileScanner(text, file, module, WELL_KNOWN_NAMES, tokens)
        header.parse_terms = False
        header.spans = spans
        header.run()
        known_set = WELL_KNOWN_NAMES | header.declared
        notations = [n for n in header.notations if not n.local]
    scanner = _FileScanner(text, file, module, known_set, tokens, notations)
    scanner.spans = spans
    scanner.parse_terms = parse_terms
    for line, col in bad:
        scanner.diag(line, col, "invalid UTF-8 in source", "UTF-8 text")
    scanner.run()
    return scanner


def scan_file(path: str | Path, module: str, text: str | bytes | None = None,
              known_names: Iterable[str] | None = None) -> tuple[list[Declaration], list[Diagnostic]]:
    """Scan one Lean file: its declarations and the diagnostics met on the way.

    ``text`` (str or bytes) overrides reading ``path``. ``known_names`` are the names
    resolution may resolve to besides the well-known Mathlib table (default: the names this
    file declares). Never raises on bad input; an unreadable file raises
    :class:`~bridge.errors.ProjectError`.
    """
    file = str(path)
    if text is None:
        try:
            text = Path(path).read_bytes()
        except OSError as exc:
            raise ProjectError(f"scan_file: cannot read {file!r} ({exc.strerror}); expected a readable .lean file") from None
    if known_names is not None:
        known_names = frozenset(known_names) | WELL_KNOWN_NAMES
    scanner = _scan(text, file, module, known_names)
    return scanner.declarations, scanner.diagnostics


def declared_names(path: str | Path, module: str, text: str | bytes | None = None) -> set[str]:
    """The fully qualified names a file declares (a cheap pass: no terms are parsed)."""
    if text is None:
        text = Path(path).read_bytes()
    return _scan(text, str(path), module, WELL_KNOWN_NAMES, parse_terms=False).declared


def scan_project(path: str | Path, modules: Iterable[str] | None = None) -> Extraction:
    """Scan every source file of the Lake project at ``path`` (or only ``modules``)."""
    from bridge.project import read_project

    project = read_project(path)
    files = project.source_files()
    if modules is not None:
        wanted = set(modules)
        unknown = wanted - {f.module for f in files}
        if unknown:
            raise ProjectError(
                f"scan_project: modules {sorted(unknown)} are not in the project at {str(project.path)!r}; "
                f"expected some of {[f.module for f in files][:20]}"
            )
    contents: dict[str, tuple[bytes, list[Token], list[tuple[int, int]] | None]] = {}
    notations: list[Notation] = []
    known: set[str] = set(WELL_KNOWN_NAMES)
    diagnostics: list[Diagnostic] = []
    for src in files:
        try:
            data = src.path.read_bytes()
        except OSError as exc:
            diagnostics.append(Diagnostic(str(src.path), 1, 1, f"cannot read file ({exc.strerror})"))
            continue
        header = _scan(data, _relative(src.path, project.path), src.module, WELL_KNOWN_NAMES, parse_terms=False)
        contents[src.module] = (data, header.tokens, header.spans)
        known |= header.declared
        notations.extend(n for n in header.notations if not n.local)
    frozen = frozenset(known)
    declarations: list[Declaration] = []
    for src in files:
        if src.module not in contents or (modules is not None and src.module not in wanted):
            continue
        rel = _relative(src.path, project.path)
        data, tokens, spans = contents[src.module]
        scanner = _scan(data, rel, src.module, frozen, tokens=tokens, notations=notations, spans=spans)
        declarations.extend(scanner.declarations)
        diagnostics.extend(scanner.diagnostics)
    meta = {
        "method": "scanner",
        "kernel": False,
        "toolchain": project.toolchain,
        "lean_version": _lean_version(project.toolchain),
        "mathlib_rev": project.mathlib_rev,
        "project": str(project.path),
        "project_name": project.name,
        "modules": [f.module for f in files if modules is None or f.module in wanted],
    }
    return Extraction(declarations, diagnostics, meta)


def unknown_notation(extraction: Extraction) -> list[tuple[str, int]]:
    """The constructs that stopped parsing, most frequent first: ``[(construct, count)]``.

    Counts the error diagnostics of statements and commands that carry a ``construct`` (the
    token or notation the parser met), so the next gap in notation coverage is visible.
    Ties are broken by the construct's text, so the order is stable.
    """
    if not isinstance(extraction, Extraction):
        raise TypeError(f"unknown_notation: extraction must be an Extraction, got {type(extraction).__name__}")
    counts: dict[str, int] = {}
    for diag in extraction.diagnostics:
        if diag.severity == "error" and diag.construct:
            counts[diag.construct] = counts.get(diag.construct, 0) + 1
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def _relative(file: Path, root: Path) -> str:
    try:
        return str(Path(file).relative_to(root))
    except ValueError:
        return str(file)


def _lean_version(toolchain: str | None) -> str | None:
    """``leanprover/lean4:v4.9.0`` → ``4.9.0``."""
    if not toolchain:
        return None
    tail = toolchain.rsplit(":", 1)[-1]
    return tail[1:] if tail.startswith("v") else tail
