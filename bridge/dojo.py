"""Optional LeanDojo backend: statements from a LeanDojo-traced repository.

LeanDojo's tracer (``ExtractData.lean``) writes, for every module, a ``*.ast.json`` file
under ``.lake/build/ir/`` with ``commandASTs`` (Lean ``Syntax`` serialized by ``ToJson``:
``node``/``atom``/``ident`` objects whose ``info.original`` carries ``leading`` and
``trailing`` whitespace), ``tactics`` and ``premises``. This reader rebuilds each module's
source text from the command syntax trees (Lean's own command boundaries) and hands it to
the source scanner, so the statements come out in the same normalized form, with
``method="dojo"``. It reads the files directly; the ``lean_dojo`` package is not needed
(install the ``dojo`` extra to trace a repository in the first place).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable

from bridge.declaration import Diagnostic, Extraction
from bridge.errors import ExportFormatError, LeanMirrorError
from bridge.fileio import read_json
from bridge.scanner import _scan, declared_names
from bridge.names import WELL_KNOWN_NAMES

#: Where LeanDojo writes its per-module trace files, relative to the traced repository.
TRACE_DIR = Path(".lake") / "build" / "ir"
AST_SUFFIX = ".ast.json"


def trace_files(root: str | Path) -> dict[str, Path]:
    """``*.ast.json`` files under the traced repository ``root``, keyed by module name."""
    base = Path(root) / TRACE_DIR
    if not base.is_dir():
        raise ExportFormatError(
            f"{base}: no LeanDojo trace directory; expected {TRACE_DIR}/**/*{AST_SUFFIX} "
            "written by LeanDojo's tracer"
        )
    out: dict[str, Path] = {}
    for file in sorted(base.rglob("*" + AST_SUFFIX)):
        rel = file.relative_to(base)
        module = ".".join(rel.parts)[: -len(AST_SUFFIX)]
        out[module] = file
    return out


def _text_of(node: Any, pieces: list[str], where: str) -> None:
    """Append the source text of a serialized ``Syntax`` tree (iteratively)."""
    stack = [node]
    while stack:
        item = stack.pop()
        if item == "missing" or item is None:
            continue
        if not isinstance(item, dict) or len(item) != 1:
            raise ExportFormatError(f"{where}: expected a Syntax object (node/atom/ident), got {str(item)[:80]!r}")
        key, body = next(iter(item.items()))
        if not isinstance(body, dict):
            raise ExportFormatError(f"{where}: Syntax {key!r} must be an object")
        if key == "node":
            args = body.get("args", [])
            if not isinstance(args, list):
                raise ExportFormatError(f"{where}: node 'args' must be a list")
            stack.extend(reversed(args))
        elif key in ("atom", "ident"):
            value = body.get("val") if key == "atom" else body.get("rawVal", body.get("val"))
            if not isinstance(value, str):
                raise ExportFormatError(f"{where}: {key} without a string value")
            original = body.get("info", {}).get("original") if isinstance(body.get("info"), dict) else None
            leading = trailing = ""
            if isinstance(original, dict):
                leading = str(original.get("leading", ""))
                trailing = str(original.get("trailing", ""))
            pieces.append(leading + value + trailing)
        else:
            raise ExportFormatError(f"{where}: unknown Syntax kind {key!r}")


def module_source(ast_file: str | Path) -> str:
    """Rebuild a module's source text from its LeanDojo ``*.ast.json``."""
    file = Path(ast_file)
    data = read_json(file, "LeanDojo trace JSON", ExportFormatError)
    if not isinstance(data, dict) or not isinstance(data.get("commandASTs"), list):
        raise ExportFormatError(f"{file}: expected an object with a 'commandASTs' list")
    pieces: list[str] = []
    for i, command in enumerate(data["commandASTs"]):
        _text_of(command, pieces, f"{file}: commandASTs[{i}]")
    return "".join(pieces)


def read_traces(root: str | Path, modules: Iterable[str] | None = None) -> Extraction:
    """Statements of a LeanDojo-traced repository at ``root``."""
    files = trace_files(root)
    wanted = list(files) if modules is None else list(modules)
    missing = [m for m in wanted if m not in files]
    if missing:
        raise ExportFormatError(
            f"{Path(root) / TRACE_DIR}: no LeanDojo trace for modules {missing}; expected "
            f"some of {sorted(files)[:20]}"
        )
    sources = {m: module_source(files[m]) for m in files}
    known: set[str] = set(WELL_KNOWN_NAMES)
    for module, text in sources.items():
        known |= declared_names(module, module, text)
    frozen = frozenset(known)
    declarations = []
    diagnostics: list[Diagnostic] = []
    for module in wanted:
        rel = str(Path(*module.split("."))) + ".lean"
        scanner = _scan(sources[module], rel, module, frozen)
        declarations.extend(replace(d, method="dojo") for d in scanner.declarations)
        diagnostics.extend(scanner.diagnostics)
    meta = {
        "method": "dojo",
        "kernel": False,
        "project": str(root),
        "toolchain": _toolchain(root),
        "mathlib_rev": None,
        "modules": wanted,
    }
    try:
        from bridge.project import read_project

        project = read_project(root)
        meta["toolchain"] = project.toolchain
        meta["mathlib_rev"] = project.mathlib_rev
    except LeanMirrorError:  # a traced repository need not be a readable Lake project
        pass
    return Extraction(declarations, diagnostics, meta)


def _toolchain(root: str | Path) -> str | None:
    file = Path(root) / "lean-toolchain"
    try:
        return file.read_text(encoding="utf-8").strip() or None
    except (OSError, UnicodeDecodeError):
        return None
