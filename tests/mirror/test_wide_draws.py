"""Wide draws (issue 20): magnitudes over the dtype's range, special values, structured
vectors and realistic sizes, within every bound, and still shrinking to small inputs."""

from __future__ import annotations

import numpy as np
from hypothesis import find, given, settings

from mirror.sample.strategies import examples, sample_batch
from mirror.sample.wide import seeds, widened
from tests.mirror.test_strategies import plan_of


def _wide(statement: str, binders: str, dtype: str = "float64", sizes=(0, 1024)) -> dict:
    return widened(plan_of(statement, binders), dtype, sizes)


def test_reals_reach_the_dtype_range_and_the_exp_edge():
    plan = _wide("x = x", "x : ℝ")
    assert abs(find(examples(plan), lambda e: abs(e["x"]) > 1e300)["x"]) > 1e300
    assert 0 < abs(find(examples(plan), lambda e: 0 < abs(e["x"]) < 1e-300)["x"]) < 1e-300
    assert 709.78 < find(examples(plan), lambda e: 709.78 < e["x"] < 710.5)["x"] < 710.5
    narrow = plan_of("x = x", "x : ℝ")
    batch = sample_batch(narrow, np.random.default_rng(0), 4096)["x"]
    assert np.abs(batch).max() <= 5  # the plain draws never leave [-5, 5]


def test_float32_draws_stay_in_float32_range():
    plan = _wide("x = x", "x : ℝ", "float32")

    @settings(max_examples=200, database=None)
    @given(examples(plan))
    def draws(example):
        assert abs(example["x"]) <= np.finfo(np.float32).max

    draws()


def test_bounds_hold_and_a_failure_shrinks_to_one_entry():
    plan = _wide("(h : ∀ i, 0 < x i ∧ x i ≤ 1) → True", "n : ℕ; x : Fin n → ℝ")

    @settings(max_examples=300, database=None)
    @given(examples(plan))
    def draws(example):
        assert np.all((example["x"] > 0) & (example["x"] <= 1))

    draws()
    shrunk = find(examples(plan), lambda e: np.any(e["x"] < 1e-200))
    assert shrunk["n"] == 1 and shrunk["x"].shape == (1,)


def test_sizes_reach_the_cap_and_start_at_zero():
    plan = _wide("True", "n : ℕ; x : Fin n → ℝ", sizes=(0, 4096))
    assert find(examples(plan), lambda e: e["n"] >= 4095)["n"] in (4095, 4096)
    assert find(examples(plan), lambda e: e["x"].size == 0)["n"] == 0
    batch = sample_batch(plan, np.random.default_rng(1), 16)
    assert batch["x"].shape[0] == 16


def test_structured_vectors_are_drawn():
    plan = _wide("True", "n : ℕ; x : Fin n → ℝ")
    constant = find(examples(plan), lambda e: e["x"].size >= 3 and len(set(e["x"])) == 1
                    and abs(e["x"][0]) > 1e10)
    assert len(set(constant["x"])) == 1
    offset = find(examples(plan), lambda e: e["x"].size >= 3 and np.ptp(e["x"]) > 0
                  and np.min(np.abs(e["x"])) > 1e6 * np.ptp(e["x"]))
    assert np.ptp(offset["x"]) > 0


def test_seeds_sit_where_kernels_break():
    plan = _wide("True", "n : ℕ; x : Fin n → ℝ")
    values = [s["x"] for s in seeds(plan, "float64")]
    assert any(v.size == 1 and 709.78 < v[0] < 710 for v in values)
    assert any(v.size == 3 and v[0] == 1e8 for v in values)
