"""The mutant generator of tools/mutants.py: four kinds, and false mutants are refuted."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge import term as T
from bridge.scanner import scan_project

LEAN = """\
theorem exp_nonneg' (x : ℝ) : 0 ≤ Real.exp x := by positivity

theorem shifted (x : ℝ) (hx : 0 ≤ x) : x ≤ x * 2 := by linarith
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("mutants")
    (root / "lean").mkdir()
    (root / "lakefile.toml").write_text(
        'name = "mutants"\nsrcDir = "lean"\n\n[[lean_lib]]\nname = "M"\n', encoding="utf-8")
    (root / "lean" / "M.lean").write_text(LEAN, encoding="utf-8")
    return root


def _decl(project: Path, name: str):
    return next(d for d in scan_project(project).declarations if d.name == name)


def test_the_four_kinds_are_generated(project, mutants_tool):
    made = mutants_tool.mutants(_decl(project, "shifted"))
    by_kind = {m.kind: m for m in made}
    assert set(by_kind) == {"flip", "negate", "perturb", "drop"}
    flip = by_kind["flip"].declaration.type
    assert flip == T.app("LT.lt", T.app("HMul.hMul", T.Var("x"), T.Lit(2)), T.Var("x"))
    assert by_kind["negate"].declaration.type == T.app("Not", _decl(project, "shifted").type)
    assert T.Lit(3) in set(T.walk(by_kind["perturb"].declaration.type))
    assert [b.name for b in by_kind["drop"].declaration.binders] == ["x"]
    assert len({m.declaration.name for m in made}) == len(made)


def test_a_clearly_false_mutant_is_refuted(project, mutants_tool):
    originals, outcomes = mutants_tool.run_mutants(project, examples=20, sweep=32,
                                                   select=lambda name: name == "exp_nonneg'")
    assert originals == 1
    flip = next(o for o in outcomes if o.mutant.kind == "flip")
    assert flip.mutant.declaration.type == T.app(
        "LT.lt", T.App(T.Const("Real.exp"), (T.Var("x"),)), T.Lit(0))
    assert flip.status == "refuted", flip.reason
    negate = next(o for o in outcomes if o.mutant.kind == "negate")
    assert negate.status == "refuted", negate.reason
    assert mutants_tool.score(outcomes) >= 2 / len(outcomes)


def test_dropping_a_needed_hypothesis_is_refuted_and_the_table_counts_it(project, mutants_tool):
    _, outcomes = mutants_tool.run_mutants(project, examples=20, sweep=32,
                                           select=lambda name: name == "shifted")
    drop = next(o for o in outcomes if o.mutant.kind == "drop")
    assert drop.status == "refuted", drop.reason
    table = mutants_tool.table(outcomes)
    refuted = sum(o.status == "refuted" for o in outcomes)
    assert f"| all | {len(outcomes)} | {refuted} |" in table
