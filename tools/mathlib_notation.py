"""Generate ``bridge/data/mathlib_notation.json``: Mathlib's notations with their scopes.

Usage::

    python tools/mathlib_notation.py MATHLIB_DIR [--out FILE] [--commit SHA]

The packaged table is generated with ``MATHLIB_DIR = bridge/data/mathlib_excerpts``.

``MATHLIB_DIR`` is a directory of Mathlib ``.lean`` files (a checkout, or any subset of its
files kept at their ``Mathlib/...`` paths). Every ``notation``/``notation3``/``infix*``/
``prefix``/``postfix`` command that is not ``local`` is read with the scanner's own reader
(:func:`bridge.notation.read_notation_command`), with the namespace it was declared in (its
scope when ``scoped``). The table records the Mathlib commit: ``--commit``, else ``git
rev-parse HEAD`` when the directory is a checkout, else the commit each file names in a
leading ``-- … commit <sha>`` comment (per file, under ``sources``). Commands outside the
fragment the scanner reads are listed under ``unread`` with the reason, so the gap is visible.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bridge.lexer import tokenize  # noqa: E402
from bridge.notation import NOTATION_COMMANDS, NotationError, read_notation_command  # noqa: E402
from bridge.lexer import Token  # noqa: E402
from bridge.scanner import declared_names, split_commands  # noqa: E402

DEFAULT_OUT = ROOT / "bridge" / "data" / "mathlib_notation.json"


def _file_commit(text: str) -> str | None:
    """The commit a file names in its leading comments (``… commit <40 hex digits>``)."""
    for line in text.splitlines()[:20]:
        if not line.startswith("--"):
            continue
        words = line.replace(".", " ").split()
        for before, word in zip(words, words[1:]):
            if before == "commit" and len(word) == 40 and all(c in "0123456789abcdef" for c in word):
                return word
    return None


def _checkout_commit(directory: Path) -> str | None:
    if not (directory / ".git").exists():
        return None
    done = subprocess.run(["git", "-C", str(directory), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=False)
    return done.stdout.strip() or None if done.returncode == 0 else None


def _qualified(text: str, namespace: str, declared: set[str]) -> str:
    """``text`` with its names qualified by ``namespace`` where the files declare them there
    (``preimage`` in ``namespace Set`` is ``Set.preimage``)."""
    parts = namespace.split(".") if namespace else []
    out: list[str] = []
    prev: Token | None = None
    for tok in tokenize(text):
        word = tok.text
        if tok.kind == "ident":
            for k in range(len(parts), 0, -1):
                full = ".".join(parts[:k]) + "." + word
                if full in declared:
                    word = full
                    break
        if prev is not None and tok.start != prev.end:
            out.append(" ")
        out.append(word)
        prev = tok
    return "".join(out)


def _qualified_rhs(row: dict, declared: set[str]) -> dict:
    """``row`` with the names of its right-hand side and of its scoped holes' templates
    (``r:(scoped f => iUnion f)``) qualified by its namespace."""
    items = [{**item, "template": _qualified(item["template"], row["namespace"], declared)}
             if "template" in item else item for item in row["items"]]
    return {**row, "items": items, "rhs": _qualified(row["rhs"], row["namespace"], declared)}


def read_file(path: Path, rel: str) -> tuple[list[dict], list[dict]]:
    """The notation rows and the unread commands of one Mathlib file."""
    tokens = tokenize(path.read_text(encoding="utf-8"))
    rows: list[dict] = []
    unread: list[dict] = []
    namespaces: list[tuple[str, str]] = []  # (kind, name)
    for start, end in split_commands(tokens):
        i = start
        while i < end and (tokens[i].kind in ("doc", "moddoc") or tokens[i].text == "@["):
            if tokens[i].text == "@[":
                while i < end and tokens[i].text != "]":
                    i += 1
            i += 1
        if i >= end:
            continue
        word = tokens[i].text
        name = tokens[i + 1].text if i + 1 < end and tokens[i + 1].kind == "ident" else ""
        if word == "namespace":
            namespaces.append(("namespace", name))
        elif word == "section":
            namespaces.append(("section", name))
        elif word == "end" and namespaces:
            namespaces.pop()
        elif word in NOTATION_COMMANDS or (word == "scoped" and i + 1 < end):
            namespace = ".".join(n for kind, n in namespaces if kind == "namespace")
            source = f"{rel}:{tokens[i].line}"
            try:
                notation = read_notation_command(tokens, i, end, namespace, (), source)
            except NotationError as exc:
                unread.append({"source": source, "reason": str(exc)})
                continue
            rows.append(notation.to_json())
    return rows, unread


def build(directory: Path, commit: str | None = None) -> dict:
    """The table for the Mathlib files under ``directory``."""
    if not directory.is_dir():
        raise SystemExit(f"mathlib_notation: MATHLIB_DIR {str(directory)!r} is not a directory; "
                         "expected a directory of Mathlib .lean files")
    commit = commit or _checkout_commit(directory)
    rows: list[dict] = []
    unread: list[dict] = []
    sources: dict[str, str | None] = {}
    paths = sorted(directory.rglob("*.lean"))
    declared: set[str] = set()
    for path in paths:
        declared |= declared_names(path, path.stem)
    for path in paths:
        rel = path.relative_to(directory).as_posix()
        file_rows, file_unread = read_file(path, rel)
        if file_rows or file_unread:
            sources[rel] = commit or _file_commit(path.read_text(encoding="utf-8"))
        rows.extend(_qualified_rhs(row, declared) for row in file_rows)
        unread.extend(file_unread)
    if not rows:
        raise SystemExit(f"mathlib_notation: no notation commands under {str(directory)!r}; "
                         "expected Mathlib .lean files")
    return {
        "generator": "tools/mathlib_notation.py",
        "mathlib_commit": commit,
        "sources": sources,
        "notations": rows,
        "unread": unread,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mathlib_dir", metavar="MATHLIB_DIR", type=Path)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"table to write (default: {DEFAULT_OUT})")
    parser.add_argument("--commit", help="the Mathlib commit the files come from")
    args = parser.parse_args(argv)
    table = build(args.mathlib_dir, args.commit)
    args.out.write_text(json.dumps(table, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(table['notations'])} notations, {len(table['unread'])} unread -> {args.out}")


if __name__ == "__main__":
    main()
