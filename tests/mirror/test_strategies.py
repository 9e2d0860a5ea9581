"""Hypotheses become constructive constraints; every draw satisfies them."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mirror.sample.strategies import examples, plan_statement, sample_batch
from mirror.translate.translation import Translator
from tests.mirror.test_translation import theorem


def plan_of(statement: str, binders: str) -> dict:
    decl = theorem(statement, binders)
    return plan_statement(Translator({}).translate_statement(decl))


def test_orderings_between_naturals_become_bounds():
    plan = plan_of("(hp : j < p ∧ p ≤ i) → p = p", "i j p : ℕ")
    entry = {e["name"]: e for e in plan["variables"]}["p"]
    assert {b.get("var") for b in entry["lo"]} == {"j"}
    assert {b.get("var") for b in entry["hi"]} == {"i"}
    # propagation: j < p ≤ i forces j < i, so j is bounded by i and p never has an empty range
    assert any(b.get("var") == "i" for b in {e["name"]: e for e in plan["variables"]}["j"]["hi"])

    @settings(max_examples=100, database=None)
    @given(examples(plan))
    def draws(example):
        assert example["j"] < example["p"] <= example["i"]

    draws()


def test_element_bounds_fills_and_masks():
    plan = plan_of(
        "(hm : ∀ t, 0 ≤ m t ∧ m t ≤ 1) → (hθ : ∀ t, θ t = 0) → "
        "(hA : ∀ i j, i ≤ j → A i j = 0) → True",
        "n : ℕ; m θ : ℕ → ℝ; A : Fin n → Fin n → ℝ",
    )
    assert set(plan["constructive"]) == {"hm", "hθ", "hA"}

    @settings(max_examples=60, database=None)
    @given(examples(plan))
    def draws(example):
        assert ((0 <= example["m"]) & (example["m"] <= 1)).all()
        assert (example["θ"] == 0).all()
        upper = np.triu_indices(example["n"])
        assert (example["A"][upper] == 0).all()

    draws()
    batch = sample_batch(plan, np.random.default_rng(1), 32)
    assert ((batch["m"] >= 0) & (batch["m"] <= 1)).all()
    assert (np.triu(batch["A"][0]) == 0).all()


def test_a_disjunction_of_values_becomes_a_choice():
    plan = plan_of("(ha : a = -1 ∨ a = 0 ∨ a = 1) → a * a * a = a", "a : ℤ")
    entry = plan["variables"][0]
    assert sorted(entry["choices"]) == [-1, 0, 1]


def test_dimensions_are_drawn_first_and_shape_the_arrays():
    decl = theorem("x = x", "T D : ℕ; x : Fin T → Fin D → ℝ")
    plan = plan_statement(Translator({}).translate_statement(decl))
    assert [e["name"] for e in plan["variables"]][:2] == ["T", "D"]

    @settings(max_examples=40, database=None)
    @given(examples(plan))
    def draws(example):
        assert example["x"].shape == (example["T"], example["D"])

    draws()


def test_bounds_through_expressions_of_earlier_variables():
    plan = plan_of("(hi : i < rot / 2) → (hD : i + rot / 2 < D) → True", "D rot i : ℕ")
    batch = sample_batch(plan, np.random.default_rng(0), 200)
    ok = batch["__valid__"]
    assert ok.any()
    assert (batch["i"][ok] < batch["rot"][ok] // 2).all()
    assert (batch["i"][ok] + batch["rot"][ok] // 2 < batch["D"][ok]).all()


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=20, database=None)
def test_sweep_draws_respect_a_lower_triangular_mask(seed):
    plan = plan_of("(hA : ∀ i j, i ≤ j → A i j = 0) → True", "n : ℕ; A : Fin n → Fin n → ℝ")
    batch = sample_batch(plan, np.random.default_rng(seed), 8)
    for matrix in batch["A"]:
        assert (np.triu(matrix) == 0).all()


def test_scalar_and_batched_draws_share_their_ranges():
    """Hypothesis examples and sweep batches draw from the same sets: strict real bounds,
    bounds through earlier draws, integer elements bounded by a drawn value."""
    plan = plan_of(
        "(hx : 0 < x ∧ x < 1) → (hk : k ≤ 3) → (hf : ∀ t, -3 ≤ f t ∧ f t ≤ k) → "
        "(hy : x ≤ y) → True",
        "x y : ℝ; k : ℤ; f : ℕ → ℤ",
    )
    assert set(plan["constructive"]) >= {"hx", "hk", "hf", "hy"}

    def check(x, y, k, f):
        assert np.all((0 < x) & (x < 1)) and np.all(x <= y) and np.all(k <= 3)
        assert np.all((-3 <= f) & (f <= np.asarray(k)[..., None]))

    @settings(max_examples=60, database=None)
    @given(examples(plan))
    def draws(example):
        check(example["x"], example["y"], example["k"], example["f"])

    draws()
    batch = sample_batch(plan, np.random.default_rng(3), 256)
    valid = batch["__valid__"]
    assert list(valid) == list(batch["k"] >= -3)  # f's range is empty below: masked
    check(*(batch[n][valid] for n in ("x", "y", "k", "f")))


def test_plan_entries_that_read_no_draw_build_their_strategy_once(monkeypatch):
    import mirror.sample.strategies as strategies

    plan = plan_of("(hx : 0 < x) → (hy : x < y) → True", "x y : ℝ")
    built = []
    original = strategies._entry_strategy
    monkeypatch.setattr(strategies, "_entry_strategy",
                        lambda entry, values, s: built.append(entry["name"])
                        or original(entry, values, s))

    @settings(max_examples=20, database=None)
    @given(strategies.examples(plan))
    def draws(example):
        assert 0 < example["x"] < example["y"]

    draws()
    assert built.count("x") == 1  # once, when the strategy was made
    assert built.count("y") >= 20  # its range reads x: built at every example


def test_a_definition_is_drawn_as_the_translator_computes_it():
    """The value tree of a defined variable comes from the translator's expression: ``x / 2``
    is ℕ division on ℕ (``7 / 2 = 3``) and field division on ℝ."""
    nat = {e["name"]: e for e in plan_of("(h : y = x / 2) → y ≤ x", "x y : ℕ")["variables"]}
    real = {e["name"]: e for e in plan_of("(h : y = x / 2) → y ≤ x", "x y : ℝ")["variables"]}
    batch = sample_batch({"settings": plan_of("True", "x : ℕ")["settings"],
                          "variables": [nat["x"], nat["y"]]}, np.random.default_rng(0), 64)
    np.testing.assert_array_equal(batch["y"], batch["x"] // 2)
    batch = sample_batch({"settings": plan_of("True", "x : ℝ")["settings"],
                          "variables": [real["x"], real["y"]]}, np.random.default_rng(0), 64)
    np.testing.assert_allclose(batch["y"], batch["x"] / 2, rtol=0, atol=0)
