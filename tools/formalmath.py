#!/usr/bin/env python3
"""Turn FormalMATH's JSON (``FormalMATH_lite.json``) into a Lake project of ``.lean`` files.

Usage::

    python tools/formalmath.py FormalMATH_lite.json OUT_DIR

Each entry of the JSON array becomes ``OUT_DIR/FormalMATHLite/<theorem_names>.lean`` (the
dataset's own unique id of the entry), holding the entry's ``autoformalization`` verbatim — a
whole Lean file ending in ``:= by`` — followed by `` sorry``. ``OUT_DIR`` also gets a
``lakefile.toml`` naming the library, so that ``tools/coverage.py --benchmark OUT_DIR`` reads
it like any other project. Nothing else is changed, so the conversion is deterministic: the same
JSON gives byte-identical files. An entry that lacks either field, repeats an id or has an id
that is not a plain file name is an error naming the entry.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

#: The library directory (and Lake library name) the statements are written under.
LIBRARY = "FormalMATHLite"
#: An id usable as a file name: letters, digits, ``_``, ``-``, ``.`` (not leading).
_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


class ConversionError(ValueError):
    """The JSON is not a FormalMATH statement list; the message names the entry."""


def lean_files(entries: object) -> dict[str, str]:
    """``{file name: Lean source}`` for the entries of a FormalMATH JSON array."""
    if not isinstance(entries, list):
        raise ConversionError("entries: expected a JSON array of statements")
    files: dict[str, str] = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ConversionError(f"entry {index}: expected an object")
        ident, source = entry.get("theorem_names"), entry.get("autoformalization")
        if not isinstance(ident, str) or not _ID.fullmatch(ident):
            raise ConversionError(f"entry {index}: theorem_names {ident!r} is not a plain id")
        if not isinstance(source, str) or not source.strip():
            raise ConversionError(f"entry {index} ({ident}): no autoformalization")
        name = f"{ident}.lean"
        if name in files:
            raise ConversionError(f"entry {index}: theorem_names {ident!r} repeats an earlier entry")
        files[name] = source.rstrip() + " sorry\n"
    return files


def write_project(entries: object, out: Path) -> int:
    """Write the project under ``out``; returns the number of statement files."""
    files = lean_files(entries)
    folder = out / LIBRARY
    folder.mkdir(parents=True, exist_ok=True)
    (out / "lakefile.toml").write_text(
        f'name = "formalmathlite"\ndefaultTargets = ["{LIBRARY}"]\n\n'
        f'[[lean_lib]]\nname = "{LIBRARY}"\n', encoding="utf-8")
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return len(files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", help="FormalMATH_lite.json (a JSON array of statements)")
    parser.add_argument("out", help="directory to write the Lake project into")
    args = parser.parse_args(argv)
    try:
        entries = json.loads(Path(args.json).read_text(encoding="utf-8"))
        count = write_project(entries, Path(args.out))
    except (OSError, json.JSONDecodeError, ConversionError) as exc:
        print(f"formalmath: {args.json}: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {count} statements under {Path(args.out) / LIBRARY}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
