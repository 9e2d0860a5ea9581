"""Crash-safe file output: atomic replacement and append-only JSON lines.

Every file leanmirror writes for a user goes through here (``mirror.judge.fileio`` re-exports
it), so that an interrupted run (Ctrl-C, SIGKILL, a full disk) never leaves a half-written
report, lock or mirror behind:

- :func:`write_text_atomic` / :func:`write_json_atomic` write a temporary file in the same
  directory, ``fsync`` it and ``os.replace`` it over the target (atomic on POSIX);
- :func:`append_jsonl` appends one complete line with a single ``write`` and ``fsync``\\ s,
  so whatever was appended before a crash is on disk;
- :func:`read_jsonl` reads such a log back and tolerates (and reports) a torn last line;
- :func:`read_json` and :func:`versioned_document` read a JSON file written earlier (a lock,
  declarations, a trace), raising the caller's error that names the file and what was expected.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge.errors import LeanMirrorError


class FileFormatError(LeanMirrorError, ValueError):
    """A file leanmirror wrote earlier (a JSON-lines log, a report) is malformed."""


@dataclass
class JsonLines:
    """The records of a JSON-lines file, and whether its last line was torn."""

    records: list[Any] = field(default_factory=list)
    #: 1-based line number of a torn (incomplete, unparsable) last line, else ``None``.
    torn_line: int | None = None
    #: The raw text of the torn line (for the message), else ``None``.
    torn_text: str | None = None

    @property
    def torn(self) -> bool:
        """``True`` when the last line was incomplete (a writer died mid-line)."""
        return self.torn_line is not None


def fsync_directory(directory: Path) -> None:
    """Flush a directory entry to disk (best effort: not every platform allows it)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (temp file in the same dir, fsync, rename).

    The parent directory is created when missing. On any failure the temporary file is
    removed and the previous content of ``path`` (if any) is left untouched.
    """
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"write_bytes_atomic: data must be bytes, got {type(data).__name__}")
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            # Keep the permissions of the file being replaced.
            os.chmod(tmp_name, target.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp_name, 0o666 & ~umask)
        os.replace(tmp_name, target)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    fsync_directory(target.parent)
    return target


def write_text_atomic(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically; see :func:`write_bytes_atomic`."""
    if not isinstance(text, str):
        raise TypeError(f"write_text_atomic: text must be str, got {type(text).__name__}")
    return write_bytes_atomic(path, text.encode(encoding))


def write_json_atomic(path: str | os.PathLike[str], obj: Any, *, indent: int | None = 2) -> Path:
    """Write ``obj`` as JSON (UTF-8, trailing newline) to ``path`` atomically.

    ``NaN``/``inf`` are refused (JSON has none): callers convert them first.
    """
    text = json.dumps(obj, indent=indent, ensure_ascii=False, allow_nan=False)
    return write_text_atomic(path, text + "\n")


def append_jsonl(path: str | os.PathLike[str], obj: Any) -> None:
    """Append ``obj`` as one JSON line to ``path`` and flush it to disk.

    The line is written with a single ``write`` on an ``O_APPEND`` descriptor and then
    ``fsync``-ed, so a process killed afterwards (even with SIGKILL) loses nothing already
    appended, and concurrent appenders do not interleave within a line.
    """
    line = json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    if "\n" in line:
        raise ValueError("append_jsonl: encoded record unexpectedly contains a newline")
    data = (line + "\n").encode("utf-8")
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    created = not target.exists()
    fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        written = 0
        while written < len(data):
            written += os.write(fd, data[written:])
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        fsync_directory(target.parent)


def read_json(file: Path, expected: str, error: type[Exception], missing: str | None = None) -> Any:
    """The JSON value in ``file``; ``error`` naming the file and ``expected`` when it cannot be
    read or parsed (or naming ``missing`` when given and the file does not exist)."""
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        if missing is None:
            raise error(f"{file}: expected {expected} ({exc})") from None
        raise error(f"{file}: {missing}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise error(f"{file}: expected {expected} ({exc})") from None


def versioned_document(file: Path, data: Any, what: str, version: int, error: type[Exception]) -> dict:
    """``data`` once it is an object with ``meta`` and ``declarations`` whose
    ``meta.format_version`` is ``version``; ``error`` naming ``file`` otherwise."""
    if not isinstance(data, dict) or not isinstance(data.get("meta"), dict):
        raise error(f"{file}: expected an object with 'meta' and 'declarations'")
    found = data["meta"].get("format_version")
    if found != version:
        raise error(f"{file}: {what} format_version {found!r} is not supported; expected {version}")
    return data


def read_jsonl(path: str | os.PathLike[str]) -> JsonLines:
    """Read a JSON-lines file written by :func:`append_jsonl`.

    A last line that does not parse (a writer was killed mid-write) is reported in
    :attr:`JsonLines.torn_line` instead of raising; a malformed line anywhere else raises
    :class:`FileFormatError` naming the file and line. A missing file raises
    ``FileNotFoundError``.
    """
    source = Path(path)
    raw = source.read_bytes()
    lines = raw.split(b"\n")
    # A complete file ends with "\n", leaving one empty trailing element.
    ends_complete = lines[-1] == b""
    if ends_complete:
        lines = lines[:-1]
    result = JsonLines()
    for index, chunk in enumerate(lines, start=1):
        is_last = index == len(lines)
        if not chunk.strip():
            continue
        try:
            result.records.append(json.loads(chunk.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            if is_last:
                result.torn_line = index
                result.torn_text = chunk.decode("utf-8", errors="replace")
                break
            raise FileFormatError(
                f"{source}: line {index} is not JSON ({exc}); expected one JSON record per line"
            ) from None
    return result


__all__ = [
    "FileFormatError",
    "JsonLines",
    "append_jsonl",
    "fsync_directory",
    "read_jsonl",
    "write_bytes_atomic",
    "write_json_atomic",
    "write_text_atomic",
]
