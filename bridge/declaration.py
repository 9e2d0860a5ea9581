"""Declarations: what either front end extracts from a Lean project.

A :class:`Declaration` is front-end neutral. The statement of a theorem is
``Pi(binders, type)``: ``binders`` are its parameters (including the ``variable`` binders it
uses), ``type`` is what follows the colon. A definition's body is ``value`` (already wrapped
as a term over ``binders``' names), or ``equations`` for a pattern-matching definition.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bridge import term as T
from bridge.term import Binder

#: Lean-side evidence levels, in DESIGN.md's vocabulary.
LEAN_STATUSES = ("proved", "proved-extra-axioms", "sorry", "error", "unchecked", "stated")
#: Axioms that keep a declaration ``proved`` (anything else is ``proved-extra-axioms``).
STANDARD_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})
#: Declaration kinds, normalized (``lemma`` is a ``theorem``).
KINDS = ("theorem", "def", "abbrev", "instance", "structure", "inductive", "axiom", "opaque")


@dataclass(frozen=True)
class SourceRange:
    """A location in a source file; lines and columns are 1-based."""

    file: str
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    """A located problem the front end met; extraction goes on around it."""

    file: str
    line: int
    column: int
    message: str
    expected: str | None = None
    severity: str = "error"
    #: For a parse failure, the token or notation that stopped parsing (``∀ᵐ``, ``⊗ₖ``,
    #: ``<end>``), stable so that unknown notation can be counted across a project.
    construct: str | None = None

    def __str__(self) -> str:
        tail = f" (expected {self.expected})" if self.expected else ""
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}{tail}"


@dataclass(frozen=True)
class Equation:
    """One equation of a pattern-matching definition: ``| patterns => rhs``."""

    patterns: tuple[T.Term, ...]
    rhs: T.Term


@dataclass(frozen=True)
class Declaration:
    """One Lean declaration, as extracted."""

    name: str
    kind: str
    module: str
    binders: tuple[Binder, ...] = ()
    type: T.Term | None = None
    value: T.Term | None = None
    equations: tuple[Equation, ...] = ()
    docstring: str | None = None
    range: SourceRange | None = None
    #: The statement as Lean text (source text, or the exporter's pretty-printed type).
    statement_text: str = ""
    #: The proof / body source text hash input (scanner) or ``None``.
    proof_text: str | None = None
    #: ``lean_status`` in DESIGN.md's vocabulary.
    lean_status: str = "unchecked"
    #: Axioms used, when a kernel ran (exporter); ``None`` otherwise.
    axioms: tuple[str, ...] | None = None
    #: The value uses ``sorry`` directly.
    uses_sorry: bool = False
    attributes: tuple[str, ...] = ()
    modifiers: tuple[str, ...] = ()
    #: Error messages when ``lean_status == "error"``.
    errors: tuple[str, ...] = ()
    #: Extraction method: ``"exporter"``, ``"scanner"`` or ``"dojo"``.
    method: str = "scanner"

    @property
    def statement(self) -> T.Term | None:
        """The full statement ``∀ binders, type`` (or ``type`` when there are no binders)."""
        if self.type is None:
            return None
        if not self.binders:
            return self.type
        return T.Pi(self.binders, self.type)

    @property
    def short_name(self) -> str:
        """The last component of the name."""
        return self.name.rsplit(".", 1)[-1]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (stable key order)."""
        return {
            "name": self.name,
            "kind": self.kind,
            "module": self.module,
            "binders": [
                {"name": b.name, "type": T.to_json(b.type), "info": b.info} for b in self.binders
            ],
            "type": T.to_json(self.type),
            "value": T.to_json(self.value),
            "equations": [
                {"patterns": [T.to_json(p) for p in eq.patterns], "rhs": T.to_json(eq.rhs)}
                for eq in self.equations
            ],
            "docstring": self.docstring,
            "range": None
            if self.range is None
            else {
                "file": self.range.file,
                "line": self.range.line,
                "column": self.range.column,
                "end_line": self.range.end_line,
                "end_column": self.range.end_column,
            },
            "statement_text": self.statement_text,
            "lean_status": self.lean_status,
            "axioms": None if self.axioms is None else list(self.axioms),
            "uses_sorry": self.uses_sorry,
            "attributes": list(self.attributes),
            "modifiers": list(self.modifiers),
            "errors": list(self.errors),
            "method": self.method,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Declaration":
        """Inverse of :meth:`to_json`."""
        rng = data.get("range")
        return cls(
            name=data["name"],
            kind=data["kind"],
            module=data.get("module", ""),
            binders=tuple(
                Binder(b["name"], T.from_json(b.get("type")), b.get("info", "default"))
                for b in data.get("binders", [])
            ),
            type=T.from_json(data.get("type")),
            value=T.from_json(data.get("value")),
            equations=tuple(
                Equation(tuple(T.from_json(p) for p in eq["patterns"]), T.from_json(eq["rhs"]))
                for eq in data.get("equations", [])
            ),
            docstring=data.get("docstring"),
            range=None if rng is None else SourceRange(**rng),
            statement_text=data.get("statement_text", ""),
            lean_status=data.get("lean_status", "unchecked"),
            axioms=None if data.get("axioms") is None else tuple(data["axioms"]),
            uses_sorry=bool(data.get("uses_sorry", False)),
            attributes=tuple(data.get("attributes", [])),
            modifiers=tuple(data.get("modifiers", [])),
            errors=tuple(data.get("errors", [])),
            method=data.get("method", "scanner"),
        )


def lean_status_from_axioms(axioms: tuple[str, ...], elaborated: bool = True) -> str:
    """The Lean status a kernel run implies: ``sorry``, ``proved`` or ``proved-extra-axioms``."""
    if not elaborated:
        return "error"
    if "sorryAx" in axioms:
        return "sorry"
    if set(axioms) <= STANDARD_AXIOMS:
        return "proved"
    return "proved-extra-axioms"


@dataclass
class Extraction:
    """The result of extracting a project: declarations, diagnostics and a meta record."""

    declarations: list[Declaration] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: ``method`` ("exporter" | "scanner" | "dojo"), ``kernel`` (bool), ``lean_version``,
    #: ``mathlib_rev``, ``project`` (path), ``toolchain`` (lean-toolchain contents) …
    meta: dict[str, Any] = field(default_factory=dict)

    def by_name(self) -> dict[str, Declaration]:
        """Declarations keyed by fully qualified name."""
        return {d.name: d for d in self.declarations}
