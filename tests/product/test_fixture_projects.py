"""The fixture Lean projects end to end: every extracted theorem gets exactly one row."""

from __future__ import annotations

import pytest

from bridge.extraction import extract
from mirror.product.pipeline import CheckSettings, run
from tests.product.conftest import REPO

PROJECTS = REPO / "tests" / "fixtures" / "projects"


@pytest.mark.parametrize("name", ["newsyntax", "oldsyntax"])
def test_fixture_projects_run_through_the_pipeline_with_one_row_per_theorem(name):
    project = PROJECTS / name
    theorems = sorted(
        d.name for d in extract(project, method="scanner").declarations if d.kind == "theorem"
    )
    assert len(theorems) >= 5
    result = run(project, method="scanner", settings=CheckSettings(max_examples=10, sweep=32))
    rows = sorted(r.name for r in result.results if r.kind == "theorem")
    assert rows == theorems
    # every theorem row carries a Python-side status, and leanmirror failed on none
    assert all(r.mirror_status for r in result.results if r.kind == "theorem")
    errors = {r.name: r.reason for r in result.results if r.mirror_status == "error"}
    assert errors == {}
