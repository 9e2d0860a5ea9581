"""Vendored Mathlib files as an oracle: every theorem there is kernel-proved upstream.

So on ``tests/fixtures/mathlib`` a ``refuted`` row is a leanmirror bug, and so is an ``error``
row (leanmirror failed). The share that is tested/symbolic is printed here and recorded in
``docs/coverage.md`` by ``tools/coverage.py``; it is not asserted, so it can only be read, and
rise, there.
"""

from __future__ import annotations

import tomllib
from collections import Counter

import pytest

from bridge.scanner import scan_project
from mirror.product.pipeline import CheckSettings, run

from tests.corpus.conftest import MATHLIB, MATHLIB_PROJECTS

#: Small budgets: 10 examples, a 32-draw sweep and 2 s per statement (the equalities balls
#: cannot decide, e.g. ``Real.two_mul_arctan_sub_pi``, otherwise spend the whole 10 s
#: exact-decision budget each; the verdicts asserted here do not depend on it, the full
#: budget is ``tools/coverage.py``'s).
SETTINGS = CheckSettings(max_examples=10, sweep=32, time_budget=2.0)


@pytest.fixture(scope="module")
def mathlib_run():
    return run(MATHLIB, method="scanner", settings=SETTINGS)


@pytest.fixture(scope="module")
def figures(mathlib_run, coverage_tool):
    return coverage_tool.tally("fixtures/mathlib", mathlib_run)


def _sources(project) -> dict[str, str]:
    with (project / "sources.toml").open("rb") as handle:
        data = tomllib.load(handle)
    return {entry["path"]: entry.get("commit", data.get("commit")) for entry in data["file"]}


@pytest.mark.parametrize("project", MATHLIB_PROJECTS, ids=lambda p: p.name)
def test_every_vendored_mathlib_file_keeps_its_license_and_names_its_commit(project):
    files = sorted((project / "Mathlib").rglob("*.lean"))
    assert files, project  # a round may be small (round-2026-12-02x: 8 files)
    for file in files:
        head = file.read_text(encoding="utf-8")[:400]
        assert "Released under Apache 2.0 license" in head, file
    sources = _sources(project)
    assert sorted(sources) == sorted(str(f.relative_to(project)) for f in files)
    assert all(len(commit) == 40 for commit in sources.values()), sources


def test_the_oracle_has_forty_files_or_more():
    assert sum(len(_sources(project)) for project in MATHLIB_PROJECTS) >= 40


def test_one_row_per_theorem(mathlib_run):
    theorems = Counter(d.name for d in scan_project(MATHLIB).declarations if d.kind == "theorem")
    rows = Counter(r.name for r in mathlib_run.results if r.kind == "theorem")
    assert rows == theorems
    assert sum(rows.values()) >= 300


def test_no_mathlib_theorem_is_refuted(mathlib_run):
    refuted = [(r.name, r.counterexample, r.reason) for r in mathlib_run.results
               if r.mirror_status == "refuted"]
    assert refuted == []


def test_leanmirror_does_not_fail_on_any_mathlib_theorem(mathlib_run, coverage_tool):
    failed = [(r.name, r.reason) for r in mathlib_run.results if coverage_tool.is_error(r)]
    assert failed == []


def test_the_tested_share_is_measured_consistently(figures, capsys):
    assert figures.theorems >= figures.parsed >= figures.translated
    verdicts = figures.checked + figures.refuted + figures.error + figures.inconclusive
    assert verdicts <= figures.translated
    assert figures.checked > 0
    with capsys.disabled():
        print(f"\nfixtures/mathlib: {figures.theorems} theorems, tested or symbolic "
              f"{figures.checked} ({figures.share(figures.checked)}), parsed "
              f"{figures.share(figures.parsed)}, translated {figures.share(figures.translated)}")
