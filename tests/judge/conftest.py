"""Shared helpers: a throwaway Lean project holding inline statements."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.mirror.conftest import PLANTED


def planted_project(root: Path, source: str) -> Path:
    """A Lake project under ``root`` whose one file is ``source`` (under ``import Mathlib``)."""
    project = root / "project"
    (project / "lean").mkdir(parents=True)
    for name in ("lakefile.toml", "lean-toolchain"):
        shutil.copy(PLANTED / name, project / name)
    (project / "lean" / "Planted.lean").write_text(
        "import Mathlib\n\nopen Real NNReal ENNReal\n\n" + source, encoding="utf-8")
    return project


def checked_rows(root: Path, source: str) -> dict:
    """``{short name: (mirror, row)}`` of every statement of ``source``, checked as a user
    checks them (planted under ``root``)."""
    from bridge.scanner import scan_project
    from mirror.product.pipeline import CheckSettings, build_mirrors, check_mirror

    project = planted_project(root, source)
    settings = CheckSettings(max_examples=60, sweep=128)
    return {m.name.rsplit(".", 1)[-1]: (m, check_mirror(m, settings))
            for m in build_mirrors(scan_project(project))}
