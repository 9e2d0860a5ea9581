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
