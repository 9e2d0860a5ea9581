"""Crash-safe file output: atomic replacement and append-only JSON lines.

Every file leanmirror writes for a user goes through here (``mirror.judge.fileio`` re-exports
it), so that an interrupted run (Ctrl-C, SIGKILL, a full disk) never leaves a half-written
report, lock or mirror behind:

- :func:`write_text_atomic` / :func:`write_json_atomic` write a temporary file in the same
  directory, ``fsync`` it and ``os.replace`` it over the target (atomic on POSIX);
- :func:`append_jsonl` appends one complete line with a single ``write`` and ``fsync``\\ s,
  so whatever was appended before a crash is on disk;
- :func:`read_jsonl` reads such a log back and tolerates (and reports) a torn last line;
  :func:`append_jsonl` cuts a torn last line off before it appends (so a writer killed
  mid-line never joins its fragment to the next record) and so does
  :func:`repair_jsonl`;
- :func:`publish_directory` swaps a fully written directory in for the previous one
  (``renameat2(RENAME_EXCHANGE)`` where the kernel has it): readers see the old set or
  the new one, never a mix;
- :func:`source_files` walks a source tree and ends: each directory (and file) is visited
  once by its real path, so symlink loops are followed at most once; :func:`read_source`
  reads one source file and refuses what is not a regular file (a FIFO, a device) or is
  over :data:`MAX_SOURCE_BYTES`, with a message that says why;
- :func:`read_json` and :func:`versioned_document` read a JSON file written earlier (a lock,
  declarations, a trace), raising the caller's error that names the file and what was expected.
"""

from __future__ import annotations

import ctypes
import errno
import json
import math
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge.errors import LeanMirrorError


class FileFormatError(LeanMirrorError, ValueError):
    """A file leanmirror wrote earlier (a JSON-lines log, a report) is malformed."""


class SourceSkipped(LeanMirrorError, OSError):
    """A source file is not read: not a regular file, or too large (the message says)."""


#: The largest source file read, in bytes (Mathlib's largest file is well under 1 MiB).
MAX_SOURCE_BYTES = 16 * 1024 * 1024

_FILE_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
               (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
               (stat.S_ISDIR, "a directory"))


def _kind(mode: int) -> str:
    return next((name for test, name in _FILE_KINDS if test(mode)), "not a regular file")


def read_source(path: str | os.PathLike[str], limit: int = MAX_SOURCE_BYTES) -> bytes:
    """The bytes of the source file ``path``; :class:`SourceSkipped` when it is not a regular
    file (checked without blocking: a FIFO is never opened for a blocking read) or holds more
    than ``limit`` bytes."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SourceSkipped(f"{path}: skipped, {_kind(info.st_mode)} is not a source file")
        if info.st_size > limit:
            raise SourceSkipped(f"{path}: skipped, {info.st_size} bytes is over the limit of "
                                f"{limit} bytes for a source file")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise SourceSkipped(f"{path}: skipped, it grew over the limit of {limit} "
                                    "bytes for a source file while being read")
        return b"".join(chunks)
    finally:
        os.close(fd)


def source_files(folder: str | os.PathLike[str], suffix: str,
                 skipped_dirs: frozenset[str] | set[str] = frozenset()) -> list[Path]:
    """The files named ``*suffix`` under ``folder`` (not in hidden or ``skipped_dirs``
    directories), each directory and file visited once by its real path: a symlink loop is
    followed at most once and two links to one file give it once (by its first path)."""
    root = Path(folder)
    out: list[Path] = []
    seen: set[str] = set()
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            real = os.path.realpath(directory, strict=True)
            entries = sorted(directory.iterdir())
        except (OSError, RuntimeError):  # gone, unreadable, or a symlink loop of its own
            continue
        if real in seen:
            continue
        seen.add(real)
        subdirectories = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                continue
            if is_dir:
                if entry.name not in skipped_dirs and not entry.name.startswith("."):
                    subdirectories.append(entry)
            elif entry.name.endswith(suffix):
                try:
                    target = os.path.realpath(entry, strict=True)
                except (OSError, RuntimeError):
                    continue
                if target not in seen:
                    seen.add(target)
                    out.append(entry)
        stack.extend(reversed(subdirectories))
    return sorted(out)


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


def json_ready(obj: Any) -> Any:
    """``obj`` with every non-finite float as the string ``"nan"``, ``"inf"`` or ``"-inf"``
    (JSON has no such numbers; a kernel's ``nan`` output is data a log must keep)."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return "nan" if obj != obj else ("inf" if obj > 0 else "-inf")
    if isinstance(obj, dict):
        return {k: json_ready(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_ready(v) for v in obj]
    return obj


def append_jsonl(path: str | os.PathLike[str], obj: Any) -> None:
    """Append ``obj`` as one JSON line to ``path`` and flush it to disk.

    The line is written with a single ``write`` on an ``O_APPEND`` descriptor and then
    ``fsync``-ed, so a process killed afterwards (even with SIGKILL) loses nothing already
    appended, and concurrent appenders do not interleave within a line.
    """
    line = json.dumps(json_ready(obj), ensure_ascii=False, allow_nan=False,
                      separators=(",", ":"))
    if "\n" in line:
        raise ValueError("append_jsonl: encoded record unexpectedly contains a newline")
    data = (line + "\n").encode("utf-8")
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    created = not target.exists()
    fd = os.open(target, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        _cut_torn_tail(fd)
        written = 0
        while written < len(data):
            written += os.write(fd, data[written:])
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        fsync_directory(target.parent)


def _cut_torn_tail(fd: int) -> bool:
    """Truncate an unterminated last line (a writer died mid-line) off the file open at
    ``fd``, under an exclusive lock held until ``fd`` is closed; ``True`` when one was cut."""
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_EX)
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return False
    keep, chunk = 0, 65536
    end = size
    while end > 0:
        start = max(0, end - chunk)
        block = os.pread(fd, end - start, start)
        at = block.rfind(b"\n")
        if at != -1:
            keep = start + at + 1
            break
        end = start
    tail = os.pread(fd, size - keep, keep)
    try:
        json.loads(tail.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        os.ftruncate(fd, keep)  # a fragment: cut it
    else:
        os.write(fd, b"\n")  # a whole record without its newline: end it
    os.fsync(fd)
    return True


def repair_jsonl(path: str | os.PathLike[str]) -> bool:
    """Cut a torn last line off the JSON-lines file at ``path``; ``True`` when one was."""
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        return _cut_torn_tail(fd)
    finally:
        os.close(fd)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def exchange_paths(first: Path, second: Path) -> bool:
    """Atomically swap two existing paths (Linux ``renameat2(RENAME_EXCHANGE)``); ``False``
    when this system or file system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second),
                       _RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(second))


def staging_directory(target: Path) -> Path:
    """A fresh, empty directory beside ``target`` to write a set of files into."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.staging-", dir=target.parent))
    if target.is_dir():  # the permissions of the directory it replaces, else the umask's
        os.chmod(staging, target.stat().st_mode & 0o7777)
    else:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(staging, 0o777 & ~umask)
    return staging


def publish_directory(staging: Path, target: Path) -> None:
    """Put the complete directory ``staging`` in the place of ``target``.

    With no ``target`` yet it is one rename; otherwise the two are exchanged atomically
    where the kernel can (the previous set is then removed), else the previous set is
    renamed aside first (a reader may then find no directory for an instant, never a mix).
    """
    fsync_directory(staging)
    if not target.exists():
        os.rename(staging, target)
    elif exchange_paths(staging, target):
        shutil.rmtree(staging, ignore_errors=True)
    else:
        aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.previous-", dir=target.parent))
        os.rmdir(aside)
        os.rename(target, aside)
        os.rename(staging, target)
        shutil.rmtree(aside, ignore_errors=True)
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


def read_jsonl(path: str | os.PathLike[str], *, repair: bool = False) -> JsonLines:
    """Read a JSON-lines file written by :func:`append_jsonl`.

    A last line that does not parse (a writer was killed mid-write) is reported in
    :attr:`JsonLines.torn_line` instead of raising (and cut off the file when ``repair``); a malformed line anywhere else raises
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
                if repair:
                    repair_jsonl(source)
                break
            raise FileFormatError(
                f"{source}: line {index} is not JSON ({exc}); expected one JSON record per line"
            ) from None
    return result


__all__ = [
    "FileFormatError",
    "JsonLines",
    "MAX_SOURCE_BYTES",
    "SourceSkipped",
    "append_jsonl",
    "exchange_paths",
    "fsync_directory",
    "publish_directory",
    "read_source",
    "repair_jsonl",
    "source_files",
    "staging_directory",
    "read_jsonl",
    "write_bytes_atomic",
    "write_json_atomic",
    "write_text_atomic",
]
