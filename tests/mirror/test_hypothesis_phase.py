"""The Hypothesis phase of a property run: several draws per Hypothesis example, shrinking to
the failing draw, the example count honoured, a refutation never lost to the budget."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from bridge.scanner import scan_project
from mirror.judge.checks import DRAWS_PER_EXAMPLE, run_property
from mirror.product.pipeline import build_mirrors
from mirror.sample.strategies import group_by_shape, stack

PLANTED = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "projects" / "planted"


@pytest.fixture(scope="module")
def nat_plan() -> dict:
    """The plan of ``natPred_succ (n : ℕ)``: one natural number ``n``."""
    mirrors = {m.name: m for m in build_mirrors(scan_project(PLANTED))}
    plan = mirrors["Planted.natPred_succ"].plan
    assert [e["name"] for e in plan["variables"]] == ["n"]
    return plan


def _param(plan: dict) -> str:
    return plan["variables"][0]["param"]


def test_a_hypothesis_example_evaluates_several_draws_in_one_call(nat_plan):
    batches = []

    def always(rt, **values):
        (n,) = values.values()
        batches.append(len(n))
        return rt.truth(True), rt.le(n, n)

    outcome = run_property(always, nat_plan, name="always", max_examples=120, sweep=0)
    assert outcome.status == "tested"
    assert max(batches) > 1
    assert max(batches) <= DRAWS_PER_EXAMPLE
    # the phase stops once its examples have passed: at most one example's draws beyond
    assert 120 <= outcome.examples < 120 + DRAWS_PER_EXAMPLE
    # every draw counted once; a batch may carry padding rows (unambiguous_size: ℕ draws ≤ 6)
    assert sum(batches) >= outcome.examples + outcome.rejected


def test_a_failing_list_of_draws_shrinks_to_the_smallest_failing_draw(nat_plan):
    def below_four(rt, **values):
        (n,) = values.values()
        return rt.truth(True), rt.lt(n, 4)

    outcome = run_property(below_four, nat_plan, name="below_four", max_examples=200,
                           sweep=0)
    assert outcome.status == "refuted"
    assert outcome.counterexample == {"n": 4}  # draws of ℕ go up to 6


def test_a_counterexample_found_before_the_budget_ends_is_kept(nat_plan):
    """The budget ends while Hypothesis shrinks: the refutation found stands."""
    seen_failure = []

    def slow_after_failing(rt, **values):
        (n,) = values.values()
        if seen_failure:
            time.sleep(0.2)  # every shrinking step outlasts the budget
        failing = np.asarray(n) >= 3
        if failing.any():
            seen_failure.append(True)
        return rt.truth(True), rt.lt(n, 3)

    outcome = run_property(slow_after_failing, nat_plan, name="slow", max_examples=500,
                           sweep=0, time_budget=0.3)
    assert seen_failure
    assert outcome.status == "refuted"
    assert outcome.counterexample["n"] >= 3
    assert "stopped by the time budget" in outcome.method


def test_draws_of_different_shapes_are_batched_apart():
    plan = {"variables": [{"name": "v", "param": "v_v"}, {"name": "k", "param": "v_k"}]}
    draws = [{"v": np.zeros(2), "k": 1}, {"v": np.zeros(3), "k": 2}, {"v": np.ones(2), "k": 3},
             {"v": np.zeros(2), "k": 2**70}]
    groups = group_by_shape(draws, plan)
    assert [[d["k"] for d in g] for g in groups] == [[1, 3], [2], [2**70]]
    batch = stack(groups[0], plan)
    assert batch["v_v"].shape == (2, 2)
    assert batch["v_k"].tolist() == [1, 3]
    assert batch["v_v"][1].tolist() == [1.0, 1.0]


def test_a_batch_is_padded_past_every_dimension_it_could_be_mistaken_for():
    from mirror.sample.strategies import unambiguous_size

    draws = [{"n": 2, "m": np.zeros((2, 3))}, {"n": 4, "m": np.zeros((2, 3))}]
    assert unambiguous_size(draws) == 5  # 2, 3 and 4 are taken
    assert unambiguous_size([{"x": 0.5}]) == 1
    assert unambiguous_size([{"k": 1}]) == 2
