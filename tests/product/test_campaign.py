"""Fuzz campaigns: the time budget is honoured inside statements, spent in rounds, and every
round's result is logged and merged per statement."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from mirror.product.fuzz import GRACE, merge_rounds, read_session_log, run_session
from mirror.judge.result import StatementResult

ROOT = Path(__file__).resolve().parents[2]
PLANTED = ROOT / "tests" / "fixtures" / "projects" / "planted"
FALSE_ONES = {"Planted.sq_eq_self", "Planted.nat_sub_add_junk", "Planted.natPred_succ",
              "Planted.weight_sum_two"}


def _row(status: str, examples: int, rejected: int = 0, **fields) -> StatementResult:
    return StatementResult(name="T.t", module="T", kind="theorem", lean_status="unchecked",
                           mirror_status=status, examples=examples, rejected=rejected, **fields)


def test_rounds_add_up_and_settled_verdicts_stay():
    merged = merge_rounds(_row("tested", 10, max_error=1e-12), _row("tested", 5, max_error=3e-12))
    assert (merged.mirror_status, merged.examples, merged.max_error) == ("tested", 15, 3e-12)
    refuted = merge_rounds(merged, _row("refuted", 1, counterexample={"x": 1.0}))
    assert refuted.mirror_status == "refuted" and refuted.counterexample == {"x": 1.0}
    assert merge_rounds(refuted, _row("tested", 100)).mirror_status == "refuted"
    # a round with few decided examples does not make the whole statement inconclusive
    thin = merge_rounds(_row("tested", 40, 2), _row("inconclusive", 1, 3, reason="rejected"))
    assert thin.mirror_status == "tested" and thin.rejected == 5


@pytest.fixture()
def planted_copy(tmp_path):
    target = tmp_path / "planted"
    shutil.copytree(PLANTED, target)
    return target


@pytest.mark.slow  # (moved to the slow job: the default run stays under 10 min)
def test_a_time_budget_is_spent_in_rounds_over_every_statement(planted_copy, tmp_path):
    log = tmp_path / "fuzz.jsonl"
    budget = 25.0
    started = time.monotonic()
    summary = run_session(planted_copy, time_budget=budget, jobs=2, log=log,
                          database=tmp_path / "db", progress=False, method="scanner")
    elapsed = time.monotonic() - started
    # the session ends with its budget (plus the grace for rounds already running)
    assert summary.elapsed <= budget + GRACE + 5, summary.elapsed
    assert elapsed <= budget + GRACE + 30  # extraction and worker start-up included
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    results = [r for r in records if r["event"] == "result"]
    names = {r["result"]["name"] for r in results}
    assert len(names) == 12, sorted(names)  # every statement got a first round
    assert all(r["round"] >= 1 for r in results)
    # rounds go on for the statements that are not settled
    assert max(r["round"] for r in results) >= 2
    assert FALSE_ONES <= set(summary.failures)
    merged = read_session_log(log)
    for name, result in merged.items():
        rounds = [r["result"] for r in results if r["result"]["name"] == name]
        if result.mirror_status == "tested":
            assert result.examples == sum(r["examples"] for r in rounds)
    assert records[-1]["event"] == "session-end" and records[-1]["not_run"] == []


def test_examples_and_time_combine_whichever_ends_first(planted_copy, tmp_path):
    log = tmp_path / "fuzz.jsonl"
    summary = run_session(planted_copy, time_budget=60.0, examples=30, jobs=2, log=log,
                          database=tmp_path / "db", progress=False, method="scanner",
                          select=["tri_formula"])
    (result,) = summary.results
    assert result.mirror_status == "tested" and result.examples >= 30
    rounds = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert sum(r["event"] == "result" for r in rounds) == 1  # the example cap ended it
    assert summary.elapsed < 60.0


def test_a_planted_wrong_kernel_is_refuted_within_a_short_budget(tmp_path):
    # examples/toy binds a deliberately wrong prefix_sum; the campaign must catch it in time
    project = tmp_path / "toy"
    shutil.copytree(ROOT / "examples" / "toy", project)
    summary = run_session(project, time_budget=20.0, jobs=2, log=tmp_path / "fuzz.jsonl",
                          database=tmp_path / "db", progress=False, method="scanner")
    assert "Toy.prefixSum.conformance" in summary.failures, summary.statuses
    assert summary.elapsed <= 20.0 + GRACE + 5
    refuted = {r.name: r for r in summary.results if r.mirror_status == "refuted"}
    assert refuted["Toy.prefixSum.conformance"].replay.startswith("leanmirror check ")
