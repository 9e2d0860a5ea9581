"""Translation is bounded (issue "Reach"): the two Compfiles statements that ran into the
statement time limit during translation now come out with a reason, well within it.

- ``Usa1989P1``: ``u 1988`` unfolds to three nested finite sums, over 10⁹ terms; the nested
  expansion budget (:func:`mirror.translate.big_operators.expansion_budget`) makes it
  untranslatable with that reason.
- ``Usa1992P2``: a closed identity of 89 cosines, which sympy's own evaluation of ``Eq`` tried
  to decide in radicals for minutes; it is now built unevaluated and left to the checks.

On 7478b2e both were ``error`` rows ("timed out in translate") under this limit.
"""

from __future__ import annotations

import shutil

import pytest
import sympy as sp

from bridge.scanner import scan_project
from mirror.product.pipeline import build_mirrors
from mirror.translate.values import Untranslatable
from tests.mirror.conftest import ROOT

COMPFILES = ROOT / "tests" / "fixtures" / "competition"
#: Seconds each statement may take to build here (the old code ran past it in translation).
LIMIT = 100.0


def _built(tmp_path, stem: str):
    project = tmp_path / stem
    (project / "Compfiles").mkdir(parents=True)
    shutil.copy(COMPFILES / "lakefile.toml", project / "lakefile.toml")
    shutil.copy(COMPFILES / "Compfiles" / f"{stem}.lean", project / "Compfiles" / f"{stem}.lean")
    mirrors = build_mirrors(scan_project(project), statement_timeout=LIMIT)
    return {m.name.rsplit(".", 1)[-1]: m for m in mirrors if m.role == "theorem"}


def test_nested_sums_past_the_budget_are_untranslatable_with_the_reason(tmp_path):
    mirror = _built(tmp_path, "Usa1989P1")["usa1989_p1"]
    assert mirror.status == "untranslatable", (mirror.status, mirror.reason)
    assert "nested expansion needs more than 50,000 terms" in mirror.reason


def test_a_large_closed_identity_is_translated_unevaluated(tmp_path):
    mirror = _built(tmp_path, "Usa1992P2")["usa1992_p2"]
    assert mirror.status == "ready", (mirror.status, mirror.reason)
    assert isinstance(mirror.statement.conclusion, sp.Equality)


def test_the_budget_counts_every_nested_term():
    from mirror.translate.big_operators import FinSum, expansion_budget

    j, k = sp.Dummy("j", integer=True), sp.Dummy("k", integer=True)
    inner = sp.Lambda(j, FinSum(sp.Lambda(k, k), 0, j))
    with expansion_budget(terms=100):
        assert FinSum(sp.Lambda(j, j), 0, 90) == sum(range(90))
    with expansion_budget(terms=100), pytest.raises(Untranslatable, match="nested expansion"):
        FinSum(inner, 0, 20)  # 20 + (0 + 1 + … + 19) = 210 terms
    assert FinSum(inner, 0, 20) == sum(sum(range(i)) for i in range(20))  # no budget outside
