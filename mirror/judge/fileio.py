"""Crash-safe output for the mirror side: the writers of :mod:`bridge.fileio`, re-exported,
and a Hypothesis example database whose saves are on disk before they return.

Hypothesis' :class:`~hypothesis.database.DirectoryBasedExampleDatabase` writes each example
to a temporary file and renames it into place, but never ``fsync``\\ s: a counterexample
"saved" just before a power loss may be gone, although the fuzz log (which ``fsync``\\ s)
already reported it. :class:`DurableExampleDatabase` keeps the same directory layout (a
database written by either is read by both) and flushes every saved example, and the
directory entries that name it, before ``save`` returns. A save that fails (a full disk,
a read-only directory) does not fail the property run, as in Hypothesis, but is never
silent either: it is recorded, and :func:`take_database_failures` hands the records to
the session, which reports them as warnings (the next session cannot replay that example).
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis.database import DirectoryBasedExampleDatabase

from bridge.fileio import (
    FileFormatError,
    JsonLines,
    append_jsonl,
    fsync_directory,
    publish_directory,
    read_jsonl,
    repair_jsonl,
    staging_directory,
    write_bytes_atomic,
    write_json_atomic,
    write_text_atomic,
)


#: Failed saves in this process since the last :func:`take_database_failures`.
_FAILURES: list[str] = []


def take_database_failures() -> list[str]:
    """The failed example-database writes recorded in this process (then forgotten)."""
    failures = list(dict.fromkeys(_FAILURES))
    _FAILURES.clear()
    return failures


class DurableExampleDatabase(DirectoryBasedExampleDatabase):
    """A directory example database whose ``save`` and ``move`` are durable on return."""

    def save(self, key: bytes, value: bytes) -> None:
        """Save ``value`` under ``key``: written, ``fsync``-ed and renamed into place."""
        key_path = self._key_path(key)
        if key_path.name != self._metakeys_hash:
            # the index of all keys, as the parent class keeps it
            self.save(self._metakeys_name, key)
        path = self._value_path(key, value)
        if path.exists():
            return
        try:
            write_bytes_atomic(path, value)
            fsync_directory(self.path)
        except OSError as exc:
            # as Hypothesis does, an unwritable database never fails the test itself; it is
            # reported instead (the next session cannot replay what was not saved)
            _FAILURES.append(f"example database {self.path}: cannot save an example "
                             f"({exc.strerror or exc}); the next session will not replay it")

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        """Move ``value`` from ``src`` to ``dest``; the destination is durable on return."""
        if src == dest:
            self.save(src, value)
            return
        self.save(dest, value)
        self.delete(src, value)


def open_example_database(path: str | os.PathLike[str] | None) -> DurableExampleDatabase | None:
    """The durable example database at ``path`` (``None`` for no database)."""
    return None if path is None else DurableExampleDatabase(Path(path))


__all__ = [
    "DurableExampleDatabase",
    "FileFormatError",
    "JsonLines",
    "append_jsonl",
    "open_example_database",
    "publish_directory",
    "read_jsonl",
    "repair_jsonl",
    "staging_directory",
    "take_database_failures",
    "write_bytes_atomic",
    "write_json_atomic",
    "write_text_atomic",
]
