"""Equation hypotheses solved at values of some variables (:mod:`mirror.sample.parametric`,
decided in :func:`mirror.judge.presettle.solve_parametric`): bounded integer parameters are
enumerated completely (``symbolic`` / ``refuted`` / ``vacuous``), drawn real parameters only
test (``tested``) or refute at an exact point; each true statement and its false twin."""

from __future__ import annotations

import sympy as sp

from mirror.sample.parametric import product_bounds
from mirror.translate.types import NAT
from mirror.translate.values import Statement, Variable

SOURCE = """
theorem prod_pair (m n : ℕ) (h₀ : 1 < m) (h₁ : 1 < n) (h₂ : m * n = 2005) : m + n = 406 := by sorry
theorem prod_pair_false (m n : ℕ) (h₀ : 1 < m) (h₁ : 1 < n) (h₂ : m * n = 2005) :
    m + n = 402 := by sorry
theorem lin_int (d b j s : ℤ) (h₀ : d > 0) (h₁ : b > 0) (h₂ : j > 0) (h₃ : s > 0)
    (h₄ : 2 * b + 3 * j + 4 * s = 74) (h₅ : 2 * j + 3 * s + 4 * b = 91) :
    b ^ 2 + j ^ 2 + s ^ 2 = 314 := by sorry
theorem lin_int_false (d b j s : ℤ) (h₀ : d > 0) (h₁ : b > 0) (h₂ : j > 0) (h₃ : s > 0)
    (h₄ : 2 * b + 3 * j + 4 * s = 74) (h₅ : 2 * j + 3 * s + 4 * b = 91) :
    b ^ 2 + j ^ 2 + s ^ 2 = 313 := by sorry
theorem trunc_sub (x : ℕ) (h : x + 12 = 8 * (x - 2)) : x = 4 := by sorry
theorem trunc_sub_false (x : ℕ) (h : x + 12 = 8 * (x - 2)) : x = 5 := by sorry
theorem trunc_sub_none (x : ℕ) (h : x + 13 = 8 * (x - 2)) : x = 4 := by sorry
theorem curve (x y : ℝ) (h : x ^ 2 + y ^ 2 = 25) (hx : 0 < x) : x ^ 2 ≤ 25 := by sorry
theorem curve_false {a b : ℝ} (h₀ : 20 = 4 * a ^ 2 + 9 * b ^ 2)
    (h₁ : 20 + 12 * a * b = (2 * a + 3 * b) ^ 2) : a * b = 20 / 3 := by sorry
theorem ratio {A B C D : ℝ} (hA : A < B) (hB : B < C) (hC : C < D)
    (hAB : (B - A) / (C - A) = 1 / 5) (hBC : (C - B) / (D - C) = 2 / 1) :
    (B - A) / (D - C) = 1 / 2 := by sorry
theorem ratio_false {A B C D : ℝ} (hA : A < B) (hB : B < C) (hC : C < D)
    (hAB : (B - A) / (C - A) = 1 / 5) (hBC : (C - B) / (D - C) = 2 / 1) :
    (B - A) / (D - C) = 1 / 3 := by sorry
theorem sum_one (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) (h : a + b + c = 1) :
    a * b * c ≤ 1 / 27 := by sorry
theorem sum_one_false (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) (h : a + b + c = 1) :
    a * b * c ≤ 1 / 100 := by sorry
theorem cases_of_or (a b c t : ℝ) (ha : 0 ≤ t) (hb : 0 ≤ t - 2) (hc : 0 ≤ t - 4)
    (h₁ : 6 * t = a) (h₂ : 10 * (t - 2) = b) (h₃ : 8 * (t - 4) = c)
    (h : a = (b + c) / 2 ∨ b = (a + c) / 2 ∨ c = (a + b) / 2) : a = 52 := by sorry
theorem cases_of_or_false (a b c t : ℝ) (ha : 0 ≤ t) (hb : 0 ≤ t - 2) (hc : 0 ≤ t - 4)
    (h₁ : 6 * t = a) (h₂ : 10 * (t - 2) = b) (h₃ : 8 * (t - 4) = c)
    (h : a = (b + c) / 2 ∨ b = (a + c) / 2 ∨ c = (a + b) / 2) : a = 50 := by sorry
"""


def test_bounded_integer_parameters_decide_completely(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    for name in ("prod_pair", "lin_int", "trunc_sub"):
        assert rows[name].mirror_status == "symbolic", (name, rows[name].reason)
        assert "solved" in rows[name].method
    assert "every point of the parameters' ranges (m ∈ [2, 2005]" in rows["prod_pair"].method
    for name in ("prod_pair_false", "lin_int_false", "trunc_sub_false"):
        assert rows[name].mirror_status == "refuted", (name, rows[name].reason)


def test_a_variable_only_its_own_hypotheses_read_is_fixed(lean_verdicts):
    # `d > 0` reads d alone and the conclusion does not: d = 1 stands for every d
    assert "d = 1" in lean_verdicts(SOURCE)["lin_int"].method


def test_no_solution_in_any_case_of_the_subtraction_is_vacuous(lean_verdicts):
    # x + 13 = 8 (x - 2): x ≥ 2 gives 7 x = 29, x < 2 gives x + 13 = 0: no natural solution
    row = lean_verdicts(SOURCE)["trunc_sub_none"]
    assert row.mirror_status == "vacuous", row.reason


def test_drawn_real_parameters_test_and_refute_exactly(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    for name in ("curve", "ratio", "sum_one"):
        assert rows[name].mirror_status == "tested", (name, rows[name].reason)
        assert "drawn value(s)" in rows[name].method
    for name in ("curve_false", "ratio_false", "sum_one_false"):
        assert rows[name].mirror_status == "refuted", (name, rows[name].reason)
        assert "exactly at a solution" in rows[name].reason


def test_a_product_equal_to_a_constant_bounds_its_factors():
    m, n = sp.symbols("m n", integer=True, nonnegative=True)
    st = Statement("p", [Variable("m", NAT, m), Variable("n", NAT, n)],
                   [("h", sp.Eq(m * n ** 2, 50))], sp.true)
    assert product_bounds(st, [sp.Eq(m * n ** 2, 50)]) == {m: 50, n: 7}
    # a sum bounds a term only where its co-factors are at least 1 (here n may be 0)
    assert product_bounds(st, [sp.Eq(m * n + m, 12)]) == {m: 12}


def test_a_disjunction_of_equations_splits_into_cases(lean_verdicts):
    # a = (b + c) / 2 gives t = 26/3, b = (a + c) / 2 gives t = 4/3 (< 4: rejected), and
    # c = (a + b) / 2 has no solution: one point, where a = 52
    rows = lean_verdicts(SOURCE)
    assert rows["cases_of_or"].mirror_status == "symbolic", rows["cases_of_or"].reason
    assert rows["cases_of_or_false"].mirror_status == "refuted", rows["cases_of_or_false"].reason
