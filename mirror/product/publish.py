"""Publishing a set of output files whole: the previous set or the new one, never a mix.

The files are written (each ``fsync``-ed) into a fresh directory beside the target, which is
then swapped in for the target directory (:func:`bridge.fileio.publish_directory`). A
failure while writing (a full disk) removes the fresh directory and names the file; the
previous set is untouched. A target that holds other files as well is never swapped: its
set is replaced file by file, each atomically, once all of them were written in full.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any, Iterable, Mapping

from bridge.errors import LeanMirrorError
from mirror.judge.fileio import (publish_directory, staging_directory, write_json_atomic,
                                 write_text_atomic)

#: A staging directory this old (seconds) was left by a killed writer and is removed.
STALE_STAGING = 600.0


class ReportWriteError(LeanMirrorError, OSError):
    """An output file cannot be written; the previous set is left as it was."""


def _stage(staging: Path, out: Path, files: Mapping[str, Any], family: set[str]) -> None:
    for name, content in files.items():
        try:
            if isinstance(content, dict):
                write_json_atomic(staging / name, content)
            else:
                write_text_atomic(staging / name, content)
        except OSError as exc:
            raise ReportWriteError(
                f"{out / name}: cannot write it ({exc.strerror or exc}); the previous "
                f"files in {out} are untouched") from None
    for name in sorted(family - set(files)):  # members not written now keep their last version
        if (out / name).is_file():
            shutil.copy2(out / name, staging / name)


def _only_family(out: Path, family: set[str]) -> bool:
    """Does ``out`` hold nothing but members of the set (so that it may be swapped whole)?"""
    return all(entry.name in family for entry in out.iterdir())


def _remove_stale(out: Path) -> None:
    """Staging directories of writers killed long ago (they never reach the target)."""
    now = time.time()
    for entry in out.parent.glob(f".{out.name}.staging-*"):
        try:
            if entry.is_dir() and now - entry.stat().st_mtime > STALE_STAGING:
                shutil.rmtree(entry, ignore_errors=True)
        except OSError:
            continue


def publish_report(out: Path, files: Mapping[str, Any],
                   family: Iterable[str] | None = None) -> dict[str, Path]:
    """Write ``files`` (name → text, or a dict written as JSON) as the set in ``out``.

    ``family``: every name of the set (those not in ``files`` keep their previous version).
    Returns ``{name: path}``; raises :class:`ReportWriteError` naming the file."""
    out = Path(out)
    members = set(family or ()) | set(files)
    if out.parent.is_dir():
        _remove_stale(out)
    staging = staging_directory(out)
    try:
        _stage(staging, out, files, members)
        if not out.exists() or _only_family(out, members):
            publish_directory(staging, out)
        else:
            for name in sorted(os.listdir(staging)):
                os.replace(staging / name, out / name)
            shutil.rmtree(staging, ignore_errors=True)
    except ReportWriteError:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise ReportWriteError(f"{out}: cannot publish the files ({exc.strerror or exc}); "
                               "the previous ones are untouched") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return {name: out / name for name in files}


__all__ = ["ReportWriteError", "STALE_STAGING", "publish_report"]
