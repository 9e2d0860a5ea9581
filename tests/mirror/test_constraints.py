"""The planner draws what the translator decided: constraints come from the translated
(sympy) hypotheses — definitions unfolded, casts and ``Nat.succ`` read, ``∈ Finset.Icc`` split,
``π`` evaluated, a ``∀`` premise turned into a quantifier range or a ``∀`` over a numeral
domain expanded — never from a second reading of the Lean syntax."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import sympy as sp
from hypothesis import given, settings

from mirror.translate import vocabulary as V
from mirror.sample.ranges import evaluate_tree
from mirror.sample.strategies import examples, plan_statement, sample_batch
from mirror.translate.translation import Translator
from tests.mirror.test_translation import definition, theorem


def plan_of(statement: str, binders: str, defs: tuple = ()) -> dict:
    translator = Translator({d.name: d for d in defs})
    return plan_statement(translator.translate_statement(theorem(statement, binders)))


def entry(plan: dict, name: str) -> dict:
    return {e["name"]: e for e in plan["variables"]}[name]


def batch_of(plan: dict, seed: int = 0, size: int = 256) -> dict:
    batch = sample_batch(plan, np.random.default_rng(seed), size)
    assert batch["__valid__"].all()  # constructive: no draw has an empty range
    return batch


def test_a_bound_through_a_definition_the_translator_unfolds():
    lim = definition("lim", "n : ℕ", "ℕ", "n + 1")
    plan = plan_of("(h : k ≤ lim n) → True", "n k : ℕ", defs=(lim,))
    assert plan["constructive"] == ["h"]
    assert entry(plan, "k")["hi"] == [{"var": "n", "offset": 1, "strict": False}]
    batch = batch_of(plan)
    assert (batch["k"] <= batch["n"] + 1).all()
    assert (batch["k"] == batch["n"] + 1).any()  # the bound is reached, not tightened


def test_nat_succ_and_finset_membership_are_bounds_as_translated():
    succ = plan_of("(h : Nat.succ n ≤ m) → True", "n m : ℕ")
    assert entry(succ, "m")["lo"] == [{"var": "n", "offset": 1, "strict": False}]
    icc = plan_of("(h : k ∈ Finset.Icc 2 n) → True", "n k : ℕ")
    assert icc["constructive"] == ["h"]
    batch = batch_of(icc)
    assert ((2 <= batch["k"]) & (batch["k"] <= batch["n"])).all()


def test_a_bound_by_a_real_constant_such_as_pi():
    plan = plan_of("(h1 : -(Real.pi / 2) < x) → (h2 : x < Real.pi / 2) → True", "x : ℝ")
    assert set(plan["constructive"]) == {"h1", "h2"}

    @settings(max_examples=60, database=None)
    @given(examples(plan))
    def draws(example):
        assert -math.pi / 2 < example["x"] < math.pi / 2

    draws()


def test_a_hypothesis_on_a_defined_variable_bounds_what_defines_it():
    """``y`` is computed from ``x`` (the translator's definition ``h1``): ``y ≤ 5`` is read as
    ``x + 1 ≤ 5``, so no draw is rejected for it."""
    plan = plan_of("(h1 : y = x + 1) → (h2 : y ≤ 5) → True", "x y : ℕ")
    assert set(plan["constructive"]) == {"h1", "h2"}
    assert entry(plan, "x")["hi"] == [{"const": 4, "strict": False}]
    batch = batch_of(plan)
    assert (batch["y"] == batch["x"] + 1).all() and (batch["y"] <= 5).all()


def test_a_scaled_real_variable_is_solved_for():
    plan = plan_of("(h : x < 2 * y) → True", "x y : ℝ")
    assert plan["constructive"] == ["h"]
    batch = batch_of(plan)
    assert (batch["x"] < 2 * batch["y"]).all()


def test_an_expanded_forall_over_a_numeral_domain():
    """Over ``Fin 3`` the translator expands the ``∀`` into its instances; the planner reads
    them back as an element bound and a masked fill."""
    plan = plan_of("(h : ∀ i : Fin 3, 0 < a i) → (hA : ∀ i j : Fin 3, i ≤ j → A i j = 0) → True",
                   "a : Fin 3 → ℝ; A : Fin 3 → Fin 3 → ℝ")
    assert set(plan["constructive"]) == {"h", "hA"}
    assert entry(plan, "A")["set_where"] == [{"when": {"rel": "le", "a": 0, "b": 1}, "value": 0}]

    @settings(max_examples=40, database=None)
    @given(examples(plan))
    def draws(example):
        assert (example["a"] > 0).all()
        assert (example["A"][np.triu_indices(3)] == 0).all()

    draws()


def test_a_premise_the_translator_made_a_quantifier_range():
    """``∀ s, s ≤ t → …`` is ``FinAll`` over ``[0, t + 1)``: a copy masked by ``s ≤ t``."""
    plan = plan_of("(h : ∀ s, s ≤ t → x s = x' s) → True", "t : ℕ; x x' : ℕ → ℝ")
    assert plan["constructive"] == ["h"]
    rules = entry(plan, "x'")["set_where"]
    assert rules == [{"when": {"rel": "le", "a": 0, "var": "t"}, "value": {"copy": "x"}}]
    batch = batch_of(plan, size=64)
    for t, x, x2 in zip(batch["t"], batch["x"], batch["x'"]):
        np.testing.assert_array_equal(x[: t + 1], x2[: t + 1])
        assert (x[t + 1:] != x2[t + 1:]).any() or t + 1 >= len(x)


def test_a_bound_on_the_entries_a_finset_selects_holds_on_all_entries():
    plan = plan_of("(h : ∀ i ∈ Finset.range t, 0 ≤ f i) → True", "t : ℕ; f : ℕ → ℝ")
    assert plan["constructive"] == ["h"]
    assert (batch_of(plan)["f"] >= 0).all()


def test_integer_division_bounds_are_euclidean_as_in_lean():
    plan = plan_of("(h : k < n / (-2)) → True", "n k : ℤ")
    assert plan["constructive"] == ["h"]
    batch = batch_of(plan)
    expected = [int(V.IntDiv(sp.Integer(int(n)), sp.Integer(-2))) for n in batch["n"]]
    assert (batch["k"] < np.array(expected)).all()
    tree = {"op": "int_ediv", "args": [{"var": "a"}, {"var": "b"}]}
    grid = np.array([(a, b) for a in range(-7, 8) for b in range(-3, 4)])
    got = evaluate_tree(tree, {"a": grid[:, 0], "b": grid[:, 1]})
    want = [int(V.IntDiv(sp.Integer(int(a)), sp.Integer(int(b)))) for a, b in grid]
    np.testing.assert_array_equal(got, want)


def test_an_absolute_value_bound_is_two_bounds():
    plan = plan_of("(h : |x - 1| ≤ Real.pi / 2) → True", "x : ℝ")
    assert plan["constructive"] == ["h"]
    batch = batch_of(plan)
    assert (np.abs(batch["x"] - 1) <= math.pi / 2).all()
    assert (batch["x"] < 0).any()  # the whole interval is drawn from, not only x ≥ 1


def test_an_equation_between_dimensions_is_drawn_as_both_bounds():
    """``n = a + b`` over implicit ℕ binders is no definition (they are dimensions): the
    latest-drawn one, ``b``, is bounded above and below by ``n - a``."""
    decl = theorem("(h : n = a + b) → True", "n a b : ℕ")
    decl = dataclasses.replace(decl, binders=tuple(dataclasses.replace(b, info="implicit")
                                                   for b in decl.binders))
    plan = plan_statement(Translator({}).translate_statement(decl))
    assert plan["constructive"] == ["h"]
    batch = sample_batch(plan, np.random.default_rng(0), 256)
    valid = batch["__valid__"]
    assert valid.any()
    assert (batch["n"][valid] == batch["a"][valid] + batch["b"][valid]).all()


def test_a_factor_of_either_sign_bounds_from_the_side_its_sign_gives():
    """``1 < x * y``: ``y > 1 / x`` where ``x > 0``, ``y < 1 / x`` where ``x < 0``."""
    plan = plan_of("(h : 1 < x * y) → True", "x y : ℝ")
    ops = sorted(b["expr"]["op"] for side in ("lo", "hi") for b in entry(plan, "y")[side])
    assert ops == ["neg_upper_div", "pos_lower_div"]
    batch = sample_batch(plan, np.random.default_rng(2), 512)
    usable = batch["__valid__"] & (batch["x"] != 0)
    assert (batch["x"][usable] < 0).any() and (batch["x"][usable] > 0).any()
    assert (batch["x"][usable] * batch["y"][usable] > 1).all()
    ints = plan_of("(h : k * m ≤ 7) → True", "k m : ℤ")
    batch = sample_batch(ints, np.random.default_rng(2), 512)
    usable = batch["__valid__"]
    assert (batch["k"][usable] < 0).any() and (batch["k"][usable] > 0).any()
    assert (batch["k"][usable] * batch["m"][usable] <= 7).all()


def test_a_scaled_entry_bound_and_an_entry_bound_by_a_drawn_scalar():
    plan = plan_of("(h : ∀ t, 0 ≤ 2 * f t ∧ f t + 1 ≤ c) → True", "c : ℝ; f : ℕ → ℝ")
    assert plan["constructive"] == ["h"]
    batch = sample_batch(plan, np.random.default_rng(0), 256)
    ok = batch["__valid__"]
    assert ok.any() and list(ok) == list(batch["c"] >= 1)  # f's range is empty below 1
    assert ((batch["f"][ok] >= 0) & (batch["f"][ok] + 1 <= batch["c"][ok][:, None])).all()


def test_rows_equal_under_a_premise_are_copied():
    """``∀ s : Fin T, s.val ≤ t.val → x s = x' s`` compares rows (``ArrayEq``): ``x'`` copies
    the rows of ``x`` up to ``t``."""
    plan = plan_of("(h : ∀ s : Fin T, s.val ≤ t.val → x s = x' s) → True",
                   "T C : ℕ; x x' : Fin T → Fin C → ℝ; t : Fin T")
    assert plan["constructive"] == ["h"]
    batch = sample_batch(plan, np.random.default_rng(0), 64)
    for ok, t, x, x2 in zip(batch["__valid__"], batch["t"], batch["x"], batch["x'"]):
        if ok:
            np.testing.assert_array_equal(x[: t + 1], x2[: t + 1])


def test_a_negative_numeral_factor_flips_the_bound():
    """``(1 - √2) · x ≤ 1`` bounds ``x`` from below (the factor is negative as a whole)."""
    plan = plan_of("(h : (1 - Real.sqrt 2) * x ≤ 1) → True", "x : ℝ")
    assert plan["constructive"] == ["h"] and not entry(plan, "x")["hi"]
    batch = batch_of(plan)
    assert ((1 - math.sqrt(2)) * batch["x"] <= 1 + 1e-12).all()
    assert (batch["x"] > 0).any() and (batch["x"] < -2).any()
