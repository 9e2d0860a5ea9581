"""Shared fixtures: Lean statements written inline, run through the real pipeline."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

import pytest

from bridge.scanner import scan_project
from mirror.product.pipeline import CheckSettings, build_mirrors, check_mirror, run
from mirror.judge.result import StatementResult

ROOT = Path(__file__).resolve().parents[2]
PROJECTS = ROOT / "tests" / "fixtures" / "projects"
PLANTED = PROJECTS / "planted"
QUICK = CheckSettings(max_examples=60, sweep=128)


def results_by_name(project: Path, **options) -> dict[str, StatementResult]:
    """Every statement of ``project`` run by the pipeline (scanner, ``QUICK`` settings, and
    ``options`` such as ``select``); short name → result."""
    result = run(project, method="scanner", settings=QUICK, **options)
    return {r.name.rsplit(".", 1)[-1]: r for r in result.results}


def verdicts_of(source: str, root: Path) -> dict[str, StatementResult]:
    """Every theorem of ``source`` (a Lean file body under ``import Mathlib``), checked by
    scanner → translation → plan → codegen → checks; short name → result."""
    project = root / "project"
    (project / "lean").mkdir(parents=True)
    for name in ("lakefile.toml", "lean-toolchain"):
        shutil.copy(PLANTED / name, project / name)
    (project / "lean" / "Planted.lean").write_text(
        "import Mathlib\n\nopen Real NNReal ENNReal\n\n" + source, encoding="utf-8"
    )
    mirrors = build_mirrors(scan_project(project))
    return {m.name.rsplit(".", 1)[-1]: check_mirror(m, QUICK) for m in mirrors}


@pytest.fixture(scope="module")
def lean_verdicts(tmp_path_factory) -> Callable[[str], dict[str, StatementResult]]:
    """``lean_verdicts(source)``: the results of every theorem in ``source`` (memoized)."""
    cache: dict[str, dict[str, StatementResult]] = {}

    def run(source: str) -> dict[str, StatementResult]:
        if source not in cache:
            cache[source] = verdicts_of(source, tmp_path_factory.mktemp("lean"))
        return cache[source]

    return run
