"""Extraction: one entry point over the three front ends, and the declarations JSON.

``extract(path, method="auto")`` uses the exporter when a Lean toolchain is present and
falls back to the source scanner with one warning (no traceback) when it is not.
:func:`write_declarations` writes the versioned declarations JSON atomically.
"""

from __future__ import annotations

import logging
import tempfile
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable

from bridge.declaration import Declaration, Diagnostic, Extraction
from bridge.errors import InvalidArgument, ToolchainNotFound
from bridge.exporter import read_export
from bridge.fileio import read_json, versioned_document, write_json_atomic
from bridge.project import LakeProject, as_project
from bridge.scanner import scan_project
from bridge.toolchain import DEFAULT_BUILD_TIMEOUT, Toolchain

#: Version of the declarations JSON written by :func:`write_declarations`.
DECLARATIONS_FORMAT_VERSION = 1
METHODS = ("auto", "exporter", "scanner", "dojo")

_log = logging.getLogger("leanmirror.bridge")


class FallbackWarning(UserWarning):
    """Extraction fell back from the exporter to the source scanner."""


def tool_version() -> str:
    """The installed leanmirror version (``0.1.0`` when not installed)."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("leanmirror")
    except (ImportError, PackageNotFoundError):
        return "0.1.0"


def extract(
    project_path: str | Path | LakeProject,
    method: str = "auto",
    modules: Iterable[str] | None = None,
    timeout: float = DEFAULT_BUILD_TIMEOUT,
    toolchain: Toolchain | None = None,
) -> Extraction:
    """Extract the declarations of the Lake project at ``project_path`` (or the
    :class:`~bridge.project.LakeProject` already read).

    ``method``: ``"auto"`` (exporter if a toolchain is found, else scanner with one
    warning), ``"exporter"``, ``"scanner"`` or ``"dojo"`` (LeanDojo traces). The project is
    read once and passed on to the front end (a traced repository of ``"dojo"`` need not be
    a readable Lake project, so that front end reads what it finds itself).
    """
    if method not in METHODS:
        raise InvalidArgument(f"extract: method={method!r}; expected one of {METHODS}")
    module_list = None if modules is None else list(modules)
    if method == "dojo":
        from bridge.dojo import read_traces

        root = project_path.path if isinstance(project_path, LakeProject) else project_path
        return read_traces(root, module_list)
    project = as_project(project_path)
    if method == "scanner":
        return scan_project(project, module_list)
    if toolchain is None:
        try:
            toolchain = Toolchain.find()
        except ToolchainNotFound as exc:
            if method == "exporter":
                raise
            message = ("no Lean toolchain ('lake' not found): statements read by the source "
                       "scanner, Lean statuses unchecked/stated; install elan for kernel-checked "
                       "statuses, or pass --method scanner to choose the scanner and silence this")
            _log.debug(message)
            warnings.warn(message, FallbackWarning, stacklevel=2)
            return scan_project(project, module_list)
    return _extract_with_exporter(project, module_list, timeout, toolchain)


def _extract_with_exporter(project: LakeProject, modules: list[str] | None, timeout: float,
                           toolchain: Toolchain) -> Extraction:
    all_modules = [f.module for f in project.source_files()]
    wanted = modules if modules is not None else [m for m in all_modules if not m.startswith("Export")]
    build = toolchain.build(project, timeout)
    failed = build.failed_modules()
    good = [m for m in wanted if m not in failed]
    declarations: list[Declaration] = []
    diagnostics: list[Diagnostic] = [
        Diagnostic(e.file, e.line, e.column, e.message) for e in build.errors
    ]
    meta: dict[str, Any] = {"method": "exporter", "kernel": True}
    if good:
        with tempfile.TemporaryDirectory(prefix="leanmirror-export-") as tmp:
            out = toolchain.run_exporter(project, good, Path(tmp) / "export.json", timeout)
            exported = read_export(out)
        declarations.extend(exported.declarations)
        diagnostics.extend(exported.diagnostics)
        meta.update(exported.meta)
    bad = [m for m in wanted if m in failed]
    if bad:
        # modules that did not build: statements from the scanner, located errors → `error`
        scanned = scan_project(project, bad)
        for decl in scanned.declarations:
            hits = [
                e.message
                for e in build.errors
                if e.module == decl.module
                and decl.range is not None
                and decl.range.line <= e.line <= (decl.range.end_line or decl.range.line)
            ]
            if hits:
                decl = replace(decl, lean_status="error", errors=tuple(hits))
            declarations.append(decl)
        diagnostics.extend(scanned.diagnostics)
    meta.update(
        {
            "method": "exporter",
            "kernel": True,
            "toolchain": project.toolchain,
            "mathlib_rev": project.mathlib_rev,
            "project": str(project.path),
            "failed_modules": sorted(failed),
        }
    )
    return Extraction(declarations, diagnostics, meta)


def declarations_document(extraction: Extraction) -> dict[str, Any]:
    """The JSON document :func:`write_declarations` writes."""
    meta = dict(extraction.meta)
    head = {
        "tool": "leanmirror",
        "tool_version": tool_version(),
        "format_version": DECLARATIONS_FORMAT_VERSION,
        "method": meta.pop("method", None),
        "kernel": meta.pop("kernel", None),
        "toolchain": meta.pop("toolchain", None),
        "mathlib_rev": meta.pop("mathlib_rev", None),
    }
    head.update(meta)
    return {
        "meta": head,
        "declarations": [d.to_json() for d in extraction.declarations],
        "diagnostics": [
            {
                "file": g.file,
                "line": g.line,
                "column": g.column,
                "message": g.message,
                "expected": g.expected,
                "severity": g.severity,
                "construct": g.construct,
            }
            for g in extraction.diagnostics
        ],
    }


def write_declarations(extraction: Extraction, path: str | Path) -> Path:
    """Write ``extraction`` as versioned declarations JSON, atomically."""
    if not isinstance(extraction, Extraction):
        raise InvalidArgument(
            f"write_declarations: extraction must be an Extraction, got {type(extraction).__name__}"
        )
    return write_json_atomic(path, declarations_document(extraction), indent=1)


def read_declarations(path: str | Path) -> Extraction:
    """Read a file written by :func:`write_declarations` back into an Extraction."""
    from bridge.errors import ExportFormatError

    file = Path(path)
    data = versioned_document(file, read_json(file, "a declarations JSON file", ExportFormatError),
                              "declarations", DECLARATIONS_FORMAT_VERSION, ExportFormatError)
    try:
        decls = [Declaration.from_json(d) for d in data.get("declarations", [])]
        diags = [Diagnostic(**g) for g in data.get("diagnostics", [])]
    except (KeyError, TypeError, ValueError) as exc:
        raise ExportFormatError(f"{file}: malformed declaration record ({exc})") from None
    return Extraction(decls, diags, dict(data["meta"]))
