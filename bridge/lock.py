"""The statement lock: which statement every mirror was generated from.

``leanmirror.lock.json`` (at the project root by default) records, per declaration, its
kind, a *statement hash* (sha256 of a canonical serialization of the normalized statement,
so whitespace and comment edits do not change it), a *source hash* (sha256 of the source
text), the extraction method, the Lean toolchain and the Mathlib revision.
:func:`compare` tells which statements are new, changed or removed since the lock.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge import term as T
from bridge.declaration import Declaration, Extraction
from bridge.errors import LockError
from bridge.fileio import read_json, versioned_document, write_json_atomic
from bridge.lexer import tokenize

#: Default lock file name, at the project root.
LOCK_FILE = "leanmirror.lock.json"
LOCK_FORMAT_VERSION = 1
_ENTRY_KEYS = ("kind", "statement_hash", "source_hash", "method", "toolchain", "mathlib_rev")


@dataclass(frozen=True)
class LockEntry:
    """The lock record of one declaration."""

    name: str
    kind: str
    statement_hash: str
    source_hash: str
    method: str
    toolchain: str | None = None
    mathlib_rev: str | None = None


@dataclass
class Lock:
    """A statement lock: entries by declaration name, plus meta."""

    entries: dict[str, LockEntry] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class LockDiff:
    """Statements new, changed (statement hash differs) and removed since the lock."""

    new: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    #: Source text changed but the statement did not (proof or formatting edits).
    source_changed: list[str] = field(default_factory=list)

    @property
    def is_stale(self) -> bool:
        """Whether any mirror is out of date (new, changed or removed statements)."""
        return bool(self.new or self.changed or self.removed)


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def statement_hash(decl: Declaration) -> str:
    """sha256 of the canonical normalized statement (plus value/equations for definitions).

    A declaration whose statement did not parse is hashed over its statement tokens joined
    by single spaces, which is still independent of whitespace and comments.
    """
    payload: dict[str, Any] = {"kind": decl.kind}
    if decl.type is not None:
        payload["statement"] = T.to_json(decl.statement)
    else:
        payload["tokens"] = " ".join(t.text for t in tokenize(decl.statement_text) if t.kind not in ("doc", "moddoc"))
        payload["binders"] = [
            {"name": b.name, "type": T.to_json(b.type), "info": b.info} for b in decl.binders
        ]
    if decl.kind in ("def", "abbrev", "instance", "opaque"):
        payload["value"] = T.to_json(decl.value)
        payload["equations"] = [
            {"patterns": [T.to_json(p) for p in eq.patterns], "rhs": T.to_json(eq.rhs)}
            for eq in decl.equations
        ]
    return _sha256(_canonical(payload))


def source_hash(decl: Declaration) -> str:
    """sha256 of the declaration's source text (statement and proof/body)."""
    return _sha256(decl.statement_text + "\0" + (decl.proof_text or ""))


def lock_from_extraction(extraction: Extraction) -> Lock:
    """Build the lock of an extraction."""
    meta = extraction.meta
    entries = {}
    for decl in extraction.declarations:
        entries[decl.name] = LockEntry(
            name=decl.name,
            kind=decl.kind,
            statement_hash=statement_hash(decl),
            source_hash=source_hash(decl),
            method=decl.method,
            toolchain=meta.get("toolchain"),
            mathlib_rev=meta.get("mathlib_rev"),
        )
    return Lock(entries, {"method": meta.get("method"), "toolchain": meta.get("toolchain"),
                          "mathlib_rev": meta.get("mathlib_rev")})


def write_lock(extraction: Extraction | Lock, path: str | Path) -> Path:
    """Write the lock of ``extraction`` (or a :class:`Lock`) to ``path``, atomically.

    ``path`` may be a directory (the project root): the lock goes to ``LOCK_FILE`` inside it.
    """
    from bridge.extraction import tool_version

    lock = extraction if isinstance(extraction, Lock) else lock_from_extraction(extraction)
    target = Path(path)
    if target.is_dir():
        target = target / LOCK_FILE
    document = {
        "meta": {"format_version": LOCK_FORMAT_VERSION, "tool_version": tool_version(), **lock.meta},
        "declarations": {
            name: {key: getattr(entry, key) for key in _ENTRY_KEYS}
            for name, entry in sorted(lock.entries.items())
        },
    }
    return write_json_atomic(target, document, indent=1)


def read_lock(path: str | Path) -> Lock:
    """Read a lock file; raises :class:`LockError` naming the file and what is wrong."""
    file = Path(path)
    if file.is_dir():
        file = file / LOCK_FILE
    text = read_json(file, "a JSON lock file", LockError,
                     missing="no lock file; expected one written by 'leanmirror extract'")
    data = versioned_document(file, text, "lock", LOCK_FORMAT_VERSION, LockError)
    decls = data.get("declarations")
    if not isinstance(decls, dict):
        raise LockError(f"{file}: 'declarations' must be an object keyed by declaration name")
    entries = {}
    for name, record in decls.items():
        if not isinstance(record, dict):
            raise LockError(f"{file}: declaration {name!r} must be an object, got {type(record).__name__}")
        missing = [k for k in ("kind", "statement_hash", "source_hash", "method") if not isinstance(record.get(k), str)]
        if missing:
            raise LockError(f"{file}: declaration {name!r} lacks string field(s) {missing}")
        entries[name] = LockEntry(name, **{k: record.get(k) for k in _ENTRY_KEYS})
    meta = {k: v for k, v in data["meta"].items()}
    return Lock(entries, meta)


def compare(lock: Lock, extraction: Extraction) -> LockDiff:
    """What changed between ``lock`` and the current ``extraction``."""
    current = lock_from_extraction(extraction).entries
    diff = LockDiff()
    for name, entry in sorted(current.items()):
        old = lock.entries.get(name)
        if old is None:
            diff.new.append(name)
        elif old.statement_hash != entry.statement_hash or old.kind != entry.kind:
            diff.changed.append(name)
        elif old.source_hash != entry.source_hash:
            diff.source_changed.append(name)
    diff.removed = sorted(name for name in lock.entries if name not in current)
    return diff
