"""Proved theorems leanmirror got wrong on first contact: never refuted, never an error.

Every theorem of the first-look sets (``tests/fixtures/mathlib/round-*``, the competition
statements) is proved upstream, and so is every case of :mod:`tests.corpus.first_look_cases`
(the refuted and error rows of the first look and of the extreme-magnitude pass, each with its
draw and diagnosis). They are regression data: every case must come out neither refuted nor
an error. They re-run whole fixture projects, so they carry the ``oracle_regressions``
marker, deselected by default; run them with
``pytest -m oracle_regressions tests/corpus/test_first_looks.py`` (``--junitxml`` records each
case's status, :attr:`Case.now`).
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from mirror.product.pipeline import CheckSettings, check_mirror, run

from tests.corpus.conftest import COMPETITION, MATHLIB_PROJECTS, REPO
from tests.corpus.first_look_cases import CASES, Case

pytestmark = pytest.mark.oracle_regressions

#: The budgets of ``tools/coverage.py`` (the figures in ``docs/coverage.md``).
SETTINGS = CheckSettings(max_examples=10, sweep=32)
FIXTURES = REPO / "tests" / "fixtures"
FIRST_LOOKS = [p for p in MATHLIB_PROJECTS[1:]] + [COMPETITION]


def _bad(results, coverage_tool) -> list[tuple[str, str, object, str]]:
    return [(r.name, r.mirror_status, r.counterexample, r.reason) for r in results
            if r.kind == "theorem" and (r.mirror_status == "refuted" or coverage_tool.is_error(r))]


@pytest.mark.parametrize("project", FIRST_LOOKS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_no_proved_theorem_of_a_first_look_is_refuted_or_an_error(project, coverage_tool):
    assert _bad(run(project, method="scanner", settings=SETTINGS).results, coverage_tool) == []


@pytest.fixture(scope="module")
def case_runs(request):
    """Each case's project run once, on the names of the cases this session selected."""
    names: dict[str, list[str]] = defaultdict(list)
    for item in request.session.items:
        case = getattr(item, "callspec", None) and item.callspec.params.get("case")
        if isinstance(case, Case):
            names[case.project].append(case.name)
    return {project: run(FIXTURES / project, method="scanner", settings=SETTINGS, select=selected)
            for project, selected in names.items()}


def _result(case: Case, runs, coverage_tool):
    run_result = runs[case.project]
    if case.extreme:
        mirror = next(m for m in run_result.mirrors if m.name == case.name)
        return check_mirror(coverage_tool._extreme_mirror(mirror),
                            CheckSettings(max_examples=10, sweep=32, symbolic=False))
    return next(r for r in run_result.results if r.name == case.name)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.name}{'-extreme' if c.extreme else ''}")
def test_a_proved_theorem_is_never_refuted_and_never_an_error(case, case_runs, coverage_tool,
                                                             record_property):
    result = _result(case, case_runs, coverage_tool)
    record_property("status", result.mirror_status)  # --junitxml: what it says now (Case.now)
    assert result.mirror_status != "refuted" and not coverage_tool.is_error(result), (
        result.mirror_status, result.counterexample, result.reason, case.diagnosis)
