"""The source scanner: Lean 4 declarations without a Lean toolchain.

:func:`scan_file` splits a file into commands, tracks ``namespace``/``section``/``end``,
``open`` (also ``open … in``), ``variable`` binders (which belong to the declarations that
use them, with the variables those mention, as Lean does), ``universe``, ``set_option … in``,
attributes and modifiers, and parses each declaration's binders, statement and (for
definitions) value or equations into normalized terms with resolved names. Notation is read as
Lean reads it (:mod:`bridge.notation`): Mathlib's table plus the project's own ``notation``,
``infix``…, ``notation3``, ``macro`` and ``macro_rules`` commands, each from where it is
declared, with ``scoped`` ones active only where their namespace is open and ``local`` ones
to the end of the file. :func:`unknown_notation` counts what stopped parsing. Reading one
declaration (signature, statement, body, equations, the section variables it takes) is
:mod:`bridge.statements`; tactic proofs arrive from the lexer as single ``proof`` tokens.

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

from bridge.commands import (  # noqa: F401 - split_commands is part of this module's interface
    DECLARATION_KEYWORDS, _matching, _skip_prefix, split_commands,
)
from bridge.declaration import Declaration, Diagnostic, Extraction
from bridge.errors import ProjectError
from bridge.fileio import SourceSkipped, read_source
from bridge.lexer import Token, name_text, tokenize
from bridge.names import SCOPED_NOTATIONS, WELL_KNOWN_NAMES
from bridge.notation import (
    NOTATION_COMMANDS, Notation, NotationError, NotationTable, mathlib_notations, read_macro_command,
    read_notation_command,
)
from bridge.parser import BINARY_OPS, LeanParseError, Parser
from bridge.project import LakeProject, as_project
from bridge.statements import DeclarationReader
from bridge.term import Binder, Const


@dataclass
class _Scope:
    kind: str  # "file" | "namespace" | "section" | "mutual"
    name: str = ""
    namespace: str = ""
    opens: list[str] = field(default_factory=list)
    variables: list[Binder] = field(default_factory=list)
    includes: set[str] = field(default_factory=set)


class _FileScanner(DeclarationReader):
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
        self._scopes_cache: dict[tuple[str, tuple[str, ...]], frozenset[str]] = {}

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
        opens = tuple(self.opens())
        key = (self.namespace, opens)
        cached = self._scopes_cache.get(key)
        if cached is not None:
            return cached
        parts = self.namespace.split(".") if self.namespace else []
        active = {".".join(parts[:k]) for k in range(1, len(parts) + 1)}
        for opened in opens:
            active.add(opened)
            active.update(".".join(parts[:k]) + "." + opened for k in range(1, len(parts) + 1))
        self._scopes_cache[key] = frozenset(active)
        return self._scopes_cache[key]

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
        return self.find_top_level(i, end, lambda t: t.kind == "ident" and t.text == "in")

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
                    # its names stay bound, to a type nothing translates (not free: a free
                    # name would read as a constant, or as an auto-bound implicit)
                    scope.variables.extend(_unparsed_binders(group_toks))
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

#: The type of a variable whose binder did not parse (no translation reads it).
UNPARSED_TYPE = Const("«unparsed variable type»")


def _unparsed_binders(group: list[Token]) -> list[Binder]:
    """``(a b : T)`` whose ``T`` did not parse: ``a`` and ``b`` bound to :data:`UNPARSED_TYPE`."""
    info = {"{": "implicit", "[": "instImplicit", "⦃": "strictImplicit"}.get(group[0].text, "default")
    names = []
    for t in group[1:]:
        if t.kind != "ident":
            break
        names.append(t.text)
    if not group[1:] or len(names) == len(group) - 1 or group[1 + len(names)].text != ":":
        return []
    return [Binder(name, UNPARSED_TYPE, info) for name in names]


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
            text = read_source(path)
        except OSError as exc:
            raise ProjectError(f"scan_file: cannot read {file!r} ({exc.strerror or exc}); expected a readable .lean file") from None
    if known_names is not None:
        known_names = frozenset(known_names) | WELL_KNOWN_NAMES
    scanner = _scan(text, file, module, known_names)
    return scanner.declarations, scanner.diagnostics


def declared_names(path: str | Path, module: str, text: str | bytes | None = None) -> set[str]:
    """The fully qualified names a file declares (a cheap pass: no terms are parsed)."""
    if text is None:
        text = read_source(path)
    return _scan(text, str(path), module, WELL_KNOWN_NAMES, parse_terms=False).declared


def scan_project(path: str | Path | LakeProject, modules: Iterable[str] | None = None) -> Extraction:
    """Scan every source file of the Lake project at ``path`` (or only ``modules``); ``path``
    may be the :class:`~bridge.project.LakeProject` already read."""
    project = as_project(path)
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
            data = read_source(src.path)
        except SourceSkipped as exc:  # a FIFO, a device, a huge file: never read
            diagnostics.append(Diagnostic(str(src.path), 1, 1, str(exc).partition(": ")[2]))
            continue
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
