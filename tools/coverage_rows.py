"""The rows of ``tools/coverage.py`` (``--rows``, ``--findings``), written as they are measured."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path


def is_error(result) -> bool:
    """Whether a row says leanmirror itself failed (the ``error`` status, or its older spelling
    ``inconclusive`` with reason "leanmirror internal error")."""
    if result.mirror_status == "error":
        return True
    return (result.mirror_status == "inconclusive"
            and (result.reason or "").startswith("leanmirror internal error"))


class Sink:
    """Where ``--rows`` and ``--findings`` go, written as each statement is checked (one JSON
    line per row, flushed at once), so that a run killed half-way keeps every row it finished.
    Both files are emptied when the run starts."""

    def __init__(self, rows: Path | None, findings: Path | None):
        self.rows = rows.open("w", encoding="utf-8") if rows is not None else None
        self.findings = findings.open("w", encoding="utf-8") if findings is not None else None
        self.counts = Counter()

    def for_pass(self, project: str, kind: str):
        """The ``progress`` callback of one pass (``ordinary`` or ``extreme``) of ``project``."""
        def record(result) -> None:
            if result.kind != "theorem":
                return
            if self.rows is not None:
                self._write(self.rows, "rows", {**theorem_row(project, result), "pass": kind})
            if self.findings is not None and (result.mirror_status == "refuted" or is_error(result)):
                self._write(self.findings, "findings", finding_row(project, kind, result))
        return record

    def _write(self, handle, label: str, row: dict) -> None:
        handle.write(json.dumps(row, default=str, ensure_ascii=False) + "\n")
        handle.flush()
        self.counts[label] += 1

    def close(self) -> list[tuple[str, Path, int]]:
        """Close the files; ``(label, path, rows written)`` for each."""
        done = []
        for label in ("rows", "findings"):
            handle = getattr(self, label)
            if handle is not None:
                handle.close()
                done.append((label, Path(handle.name), self.counts[label]))
        return done


def theorem_row(project: str, result) -> dict:
    """One theorem row for ``--rows``: its status and how it was reached."""
    return {"project": project, "name": result.name, "status": result.mirror_status,
            "reason": result.reason, "method": result.method, "rejected": result.rejected,
            "examples": result.examples, "duration": round(result.duration, 3)}


def finding_row(project: str, kind: str, result) -> dict:
    """A refuted/error row for ``--findings``: where, what, the draw and the reason."""
    return {"project": project, "pass": kind, "name": result.name, "module": result.module,
            "status": result.mirror_status, "statement": result.statement,
            "counterexample": result.counterexample, "reason": result.reason,
            "location": result.location}
