"""Every refuted row of every fixture carries a certificate the independent checker accepts.

The fixture projects (``tests/fixtures/projects/*``), the planted kernel suite
(``tests/fixtures/kernels``) and the bundled project are run as a user runs them; each
``refuted`` row must carry a certificate (:mod:`mirror.judge.certificate`) whose ``checked``
line is the independent checker's acceptance (the pipeline runs the checker on every
certificate it writes).

:data:`GAPS` lists, row by row, the refutations the certificate format cannot yet express,
each with the reason the checker gives. It is asserted both ways: a listed row must still be
refuted and still be refused for exactly that reason (so a fixed gap fails here until it is
struck from the table), and no row outside it may go uncertified.
"""

from __future__ import annotations

import sys

import pytest

from mirror.product.pipeline import CheckSettings, run
from tests.mirror.conftest import PROJECTS, ROOT

SETTINGS = CheckSettings(max_examples=60, sweep=128)
KERNELS = ROOT / "tests" / "fixtures" / "kernels"
#: Version-4 forms: recurrences, a complex kernel, a theorem over a wrong kernel.
CERTS = ROOT / "tests" / "judge" / "fixtures" / "certs"

#: Refutations not yet certified, by what the certificate format lacks (none since version 3:
#: algebraic points and conformance certificates).
GAPS: dict[str, str] = {}

TARGETS = sorted(p.name for p in PROJECTS.iterdir() if p.is_dir())


def _rows(project, python=KERNELS / "python") -> list:
    sys.path.insert(0, str(python))
    try:
        return run(project, method="scanner", settings=SETTINGS).results
    finally:
        sys.path.remove(str(python))


def _check(rows) -> None:
    refuted = {r.name: r for r in rows if r.mirror_status == "refuted"}
    uncertified = {}
    for name, row in refuted.items():
        checked = (row.certificate or {}).get("checked", "no certificate")
        gap = GAPS.get(name)
        if gap is not None:
            assert not checked.startswith("accepted"), f"{name} is certified now: strike it " \
                                                        "from GAPS"
            assert gap in checked, (name, checked)
        elif not checked.startswith("accepted"):
            uncertified[name] = checked
    assert uncertified == {}
    prefix = {r.name.split(".")[0] for r in rows}
    listed = {g for g in GAPS if g.split(".")[0] in prefix}
    assert listed <= set(refuted), f"listed gaps no longer refuted: {listed - set(refuted)}"


@pytest.mark.slow
@pytest.mark.parametrize("name", TARGETS)
def test_every_refuted_row_of_a_fixture_project_is_certified(name):
    _check(_rows(PROJECTS / name))


@pytest.mark.slow
def test_every_refuted_row_of_the_planted_kernels_is_certified():
    _check(_rows(KERNELS))


@pytest.mark.slow
def test_every_refuted_row_of_the_certificate_fixtures_is_certified():
    rows = _rows(CERTS, CERTS / "python")
    assert sum(r.mirror_status == "refuted" for r in rows) >= 6
    _check(rows)


@pytest.mark.slow
def test_every_refuted_row_of_the_bundled_project_is_certified():
    _check(_rows(ROOT))
