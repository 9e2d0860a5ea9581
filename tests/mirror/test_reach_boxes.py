"""Proofs over a box (``certified``): the search, the independent check of its certificate,
Lean's junk values inside boxes, and the flipped mutants of the suite."""

from __future__ import annotations

import copy
import re

import pytest
import sympy as sp

from bridge.scanner import scan_project
from mirror.judge.box_check import check_box_certificate
from mirror.judge.boxes import BoxBudget, boxed, certify, search
from mirror.product.pipeline import build_mirrors
from tests.mirror.conftest import PROJECTS

SUITE = PROJECTS / "reach" / "lean" / "Reach" / "Certified.lean"


@pytest.fixture(scope="module")
def statements(tmp_path_factory):
    """The suite's translated statements, by short name."""
    mirrors = build_mirrors(scan_project(PROJECTS / "reach"))
    return {m.name.rsplit(".", 1)[-1]: m.statement for m in mirrors
            if m.statement is not None and m.declaration.module == "Reach.Certified"}


def _check(statement, certificate):
    problem = boxed(statement)
    return check_box_certificate(certificate, problem.symbols, problem.hypotheses,
                                 problem.conclusion)


def test_a_certificate_is_accepted_by_the_independent_check(statements):
    statement = statements["sin_gt_sub_cube_box"]
    certificate = certify(statement)
    assert certificate is not None and certificate["box"] == [["1/10", "1"]]
    assert _check(statement, certificate) == []


def _first_leaf(tree):
    while "leaf" not in tree:
        tree = tree["parts"][0]
    return tree


def test_a_tampered_certificate_is_rejected(statements):
    statement = statements["sin_gt_sub_cube_box"]
    certificate = certify(statement)
    # a cover whose root claims the whole box at once: the conclusion is not certain there
    whole = dict(certificate, tree={"leaf": "conclusion", "enclosure": "forged"})
    assert _check(statement, whole) == ["root: conclusion not certain"]
    # a split point outside its piece
    moved = copy.deepcopy(certificate)
    moved["tree"]["at"] = "2"
    assert "not inside" in _check(statement, moved)[0]
    # a wider box than the pieces were decided on
    wider = dict(certificate, box=[["0", "1"]])
    assert _check(statement, wider)
    # the same cover does not prove a perturbed conclusion
    problem = boxed(statement)
    x = problem.symbols[0]
    forged = check_box_certificate(certificate, problem.symbols, problem.hypotheses,
                                   sp.Lt(x - x ** 3 / 7, sp.sin(x)))
    assert forged


def test_a_leaf_claiming_a_hypothesis_fails_must_show_it(statements):
    statement = statements["add_one_le_exp_box"]
    certificate = certify(statement)
    leaf = _first_leaf(certificate["tree"])
    leaf["leaf"] = "hypothesis 0"
    assert any("hypothesis 0 not certainly false" in p for p in _check(statement, certificate))


def test_junk_values_are_not_smoothed_over(lean_verdicts):
    # Real.log 0 = 0 in Lean: `log x ≤ x - 1` fails at x = 0 (0 ≤ -1), so [0, 1] is no box for it
    verdicts = lean_verdicts(
        "theorem log_le_on_closed (x : ℝ) (h₀ : 0 ≤ x) (h₁ : x ≤ 1) : Real.log x ≤ x - 1 := by sorry\n"
        "theorem log_le_on_open (x : ℝ) (h₀ : 1 / 100 ≤ x) (h₁ : x ≤ 1 / 2) : "
        "Real.log x ≤ x - 1 := by sorry\n"
        "theorem sqrt_junk (x : ℝ) (h₀ : -1 ≤ x) (h₁ : x ≤ 1) : Real.sqrt x ≤ 1.01 := by sorry\n"
        "theorem sqrt_junk_false (x : ℝ) (h₀ : -1 ≤ x) (h₁ : x ≤ 1) : "
        "1 / 2 ≤ Real.sqrt (x + 1 / 4) := by sorry\n"
        "theorem div_junk (x : ℝ) (h₀ : -1 ≤ x) (h₁ : x ≤ 1) : x / x ≤ 1 := by sorry\n")
    assert verdicts["log_le_on_closed"].mirror_status == "refuted"
    assert verdicts["log_le_on_open"].mirror_status == "certified"
    assert verdicts["sqrt_junk"].mirror_status == "certified"  # √ of a negative is 0
    assert verdicts["sqrt_junk_false"].mirror_status == "refuted"  # √ 0 = 0 < 1/2 at x = -1/4
    # x / 0 = 0 at x = 0 and 1 elsewhere: true, but no ball around 0 decides x / x
    assert verdicts["div_junk"].mirror_status != "refuted"


def _flipped(source: str) -> str:
    """Every theorem of the suite with its conclusion's relation negated (`<` ↔ `≥`, `≤` ↔ `>`)."""
    flip = {"<": "≥", "≤": ">"}
    out = []
    for block in re.split(r"(?=^/--)", source, flags=re.M):
        head, sep, tail = block.rpartition(" := by sorry")
        if not sep or "theorem" not in head:
            continue
        cut = max(head.rfind(") :"), head.rfind(" : ", 0, head.find("(") if "(" in head else None))
        conclusion = head[cut:]
        match = re.search(r" (<|≤) ", conclusion)
        if match is None:
            continue
        conclusion = conclusion[:match.start()] + f" {flip[match.group(1)]} " + conclusion[match.end():]
        out.append(head[:cut].replace("theorem ", "theorem flipped_") + conclusion + sep + tail)
    return "".join(out)


def test_no_flipped_mutant_of_the_suite_is_certified(lean_verdicts):
    source = SUITE.read_text(encoding="utf-8").split("namespace Reach.Certified", 1)[1]
    source = source.split("end Reach.Certified", 1)[0]
    mutants = _flipped(source)
    verdicts = lean_verdicts(mutants)
    assert len(verdicts) >= 40
    statuses = {name: row.mirror_status for name, row in verdicts.items()}
    assert "certified" not in statuses.values()
    assert {s for s in statuses.values()} == {"refuted"}, statuses


def test_the_budget_bounds_the_search(statements):
    statement = statements["cos_bound_box"]
    assert search(statement, BoxBudget(max_pieces=10)) == (None, None)
    assert certify(statement) is not None
