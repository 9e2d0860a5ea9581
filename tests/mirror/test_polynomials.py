"""The vocabulary of polynomials written out in ``X`` (``mirror.translate.polynomials``) and
of extrema of literal finsets (``mirror.translate.finset_extrema``), with Lean's exact
semantics: each true statement is named after its Mathlib lemma and covered, each false twin
refuted (or, for a closed statement, decided false)."""

from __future__ import annotations

COVERED = ("tested", "symbolic", "certified")


def assert_twins(verdicts, *, untranslatable: tuple[str, ...] = ()) -> None:
    """Every theorem whose name ends in ``_false`` is refuted, every other one covered
    (tested/symbolic/certified) — except ``untranslatable``."""
    for name, row in verdicts.items():
        if name in untranslatable:
            expected = ("untranslatable",)
        elif name.endswith("_false"):
            expected = ("refuted",)
        else:
            expected = COVERED
        assert row.mirror_status in expected, (name, row.mirror_status, row.reason)


DEGREES = (
    # Polynomial.natDegree_X_pow_add_C-style: natDegree (X ^ 2 + 1) = 2
    "theorem natDegree_sq_add_one : (Polynomial.X ^ 2 + 1 : Polynomial ℝ).natDegree = 2 := by sorry\n"
    "theorem natDegree_sq_add_one_false :\n"
    "    (Polynomial.X ^ 2 + 1 : Polynomial ℝ).natDegree = 3 := by sorry\n"
    # the top coefficients cancel: (X + 1) ^ 2 - X ^ 2 = 2 X + 1
    "theorem natDegree_cancel :\n"
    "    ((Polynomial.X + 1) ^ 2 - Polynomial.X ^ 2 : Polynomial ℤ).natDegree = 1 := by sorry\n"
    "theorem natDegree_cancel_false :\n"
    "    ((Polynomial.X + 1) ^ 2 - Polynomial.X ^ 2 : Polynomial ℤ).natDegree = 2 := by sorry\n"
    # Polynomial.natDegree_zero, Polynomial.degree_zero (⊥)
    "theorem natDegree_zero : (0 : Polynomial ℚ).natDegree = 0 := by sorry\n"
    "theorem degree_zero : (Polynomial.X - Polynomial.X : Polynomial ℚ).degree = ⊥ := by sorry\n"
    "theorem degree_zero_false : (Polynomial.X - Polynomial.X : Polynomial ℚ).degree = 0 := by sorry\n"
    # Polynomial.degree_C: degree (C a) = 0 for a ≠ 0
    "theorem degree_C : (Polynomial.C 5 : Polynomial ℝ).degree = 0 := by sorry\n"
    "theorem degree_C_false : (Polynomial.C 5 : Polynomial ℝ).degree = ⊥ := by sorry\n"
    "theorem degree_lt : (Polynomial.X ^ 3 : Polynomial ℂ).degree < 4 := by sorry\n"
    "theorem degree_lt_false : (Polynomial.X ^ 3 : Polynomial ℂ).degree < 3 := by sorry\n"
    # Polynomial.leadingCoeff, coeff
    "theorem leadingCoeff : (3 * Polynomial.X ^ 2 - Polynomial.X : Polynomial ℤ).leadingCoeff = 3 := by sorry\n"
    "theorem leadingCoeff_false :\n"
    "    (3 * Polynomial.X ^ 2 - Polynomial.X : Polynomial ℤ).leadingCoeff = -1 := by sorry\n"
    "theorem leadingCoeff_zero : (0 : Polynomial ℤ).leadingCoeff = 0 := by sorry\n"
    "theorem coeff_one : (3 * Polynomial.X ^ 2 - Polynomial.X : Polynomial ℤ).coeff 1 = -1 := by sorry\n"
    "theorem coeff_one_false : (3 * Polynomial.X ^ 2 - Polynomial.X : Polynomial ℤ).coeff 1 = 1 := by sorry\n"
    # Polynomial.coeff_C_mul_X_pow at a drawn index: coeff (C a * X ^ 2) n = if n = 2 then a else 0
    "theorem coeff_drawn (a : ℝ) (n : ℕ) (h : n ≠ 2) :\n"
    "    (Polynomial.C a * Polynomial.X ^ 2 : Polynomial ℝ).coeff n = 0 := by sorry\n"
    "theorem coeff_drawn_false (a : ℝ) (n : ℕ) (h : n ≠ 3) :\n"
    "    (Polynomial.C a * Polynomial.X ^ 2 : Polynomial ℝ).coeff n = 0 := by sorry\n"
    # Polynomial.natDegree_C_mul_X_pow: a ≠ 0 → natDegree (C a * X ^ 2) = 2; a = 0 gives 0
    "theorem natDegree_C_mul (a : ℤ) (h : a ≠ 0) :\n"
    "    (Polynomial.C a * Polynomial.X ^ 2 : Polynomial ℤ).natDegree = 2 := by sorry\n"
    "theorem natDegree_C_mul_false (a : ℤ) (h : 0 ≤ a) :\n"
    "    (Polynomial.C a * Polynomial.X ^ 2 : Polynomial ℤ).natDegree = 2 := by sorry\n")


def test_degrees_coefficients_and_leading_coefficients(lean_verdicts):
    assert_twins(lean_verdicts(DEGREES))


ROOTS = (
    # roots counted with multiplicity (Polynomial.count_roots, roots_X_sub_C)
    "theorem roots_sq : (Polynomial.X ^ 2 - 1 : Polynomial ℚ).roots = {1, -1} := by sorry\n"
    "theorem roots_sq_false : (Polynomial.X ^ 2 - 1 : Polynomial ℚ).roots = {1} := by sorry\n"
    "theorem roots_double : ((Polynomial.X - 2) ^ 2 : Polynomial ℤ).roots = {2, 2} := by sorry\n"
    "theorem roots_double_false : ((Polynomial.X - 2) ^ 2 : Polynomial ℤ).roots = {2} := by sorry\n"
    # Polynomial.roots_zero
    "theorem roots_zero : (0 : Polynomial ℝ).roots = ∅ := by sorry\n"
    "theorem roots_zero_false : (0 : Polynomial ℝ).roots = {0} := by sorry\n"
    # over ℝ: x² - 2 has two irrational roots, x² + 1 none; over ℂ the count is the degree
    "theorem card_roots_real :\n"
    "    Multiset.card ((Polynomial.X ^ 2 - 2) * (Polynomial.X ^ 2 + 1) : Polynomial ℝ).roots = 2 := by sorry\n"
    "theorem card_roots_real_false :\n"
    "    Multiset.card ((Polynomial.X ^ 2 - 2) * (Polynomial.X ^ 2 + 1) : Polynomial ℝ).roots = 4 := by sorry\n"
    "theorem card_roots_complex :\n"
    "    Multiset.card ((Polynomial.X ^ 2 - 2) * (Polynomial.X ^ 2 + 1) : Polynomial ℂ).roots = 4 := by sorry\n"
    "theorem card_roots_rat_false :\n"
    "    Multiset.card ((Polynomial.X ^ 2 - 2) * (Polynomial.X ^ 2 + 1) : Polynomial ℚ).roots = 2 := by sorry\n"
    # over ℤ the root 1/2 of 2X - 1 is not a root
    "theorem roots_int : (2 * Polynomial.X - 1 : Polynomial ℤ).roots = ∅ := by sorry\n"
    "theorem roots_rat_false : (2 * Polynomial.X - 1 : Polynomial ℚ).roots = ∅ := by sorry\n"
    # Polynomial.mem_roots': a ∈ p.roots ↔ p ≠ 0 ∧ IsRoot p a
    "theorem mem_roots (x : ℝ) (h : x ∈ (Polynomial.X ^ 2 - 4 : Polynomial ℝ).roots) :\n"
    "    x ^ 2 = 4 := by sorry\n"
    "theorem mem_roots_false (x : ℝ) (h : x ∈ (Polynomial.X ^ 2 - 4 : Polynomial ℝ).roots) :\n"
    "    x = 2 := by sorry\n"
    "theorem not_mem_roots_zero (x : ℝ) : x ∉ (0 : Polynomial ℝ).roots := by sorry\n"
    "theorem not_mem_roots_zero_false (x : ℝ) : x ∈ (0 : Polynomial ℝ).roots := by sorry\n")


def test_roots_as_a_multiset_with_multiplicity(lean_verdicts):
    assert_twins(lean_verdicts(ROOTS))


DRAWN = (
    # a polynomial variable with a degree bound is drawn by its coefficients
    # (Polynomial.eval_add of p = C a + C b * X: p.eval 0 = p.coeff 0, Polynomial.coeff_zero_eq_eval_zero)
    "theorem coeff_zero_eq_eval_zero (p : Polynomial ℝ) (h : p.natDegree ≤ 2) :\n"
    "    p.coeff 0 = p.eval 0 := by sorry\n"
    "theorem coeff_zero_eq_eval_zero_false (p : Polynomial ℝ) (h : p.natDegree ≤ 2) :\n"
    "    p.coeff 1 = p.eval 0 := by sorry\n"
    # Polynomial.eval_one-style sum of coefficients: p.eval 1 = Σ coeff
    "theorem eval_one_sum (p : Polynomial ℤ) (h : p.degree ≤ 1) :\n"
    "    p.eval 1 = p.coeff 0 + p.coeff 1 := by sorry\n"
    "theorem eval_one_sum_false (p : Polynomial ℤ) (h : p.degree ≤ 2) :\n"
    "    p.eval 1 = p.coeff 0 + p.coeff 1 := by sorry\n"
    # the bound is a hypothesis, so the leading coefficient is the top one only when nonzero
    "theorem leadingCoeff_drawn (p : Polynomial ℤ) (h : p.natDegree ≤ 1) (h1 : p.coeff 1 ≠ 0) :\n"
    "    p.leadingCoeff = p.coeff 1 := by sorry\n"
    "theorem natDegree_drawn_false (p : Polynomial ℤ) (h : p.natDegree ≤ 1) :\n"
    "    p.natDegree = 1 := by sorry\n"
    # no bound: nothing is drawn, the row says why
    "theorem unbounded (p : Polynomial ℝ) : p.eval 0 = p.coeff 0 := by sorry\n")


def test_polynomial_variables_are_drawn_by_their_coefficients_under_a_degree_bound(
        lean_verdicts):
    verdicts = lean_verdicts(DRAWN)
    assert_twins(verdicts, untranslatable=("unbounded",))
    row = verdicts["unbounded"]
    assert "polynomial variable p" in row.reason and "bounding its degree" in row.reason


FINSETS = (
    # Finset.max_insert / Finset.max_empty (⊥), Finset.min_empty (⊤)
    "theorem max_lit : ({1, 5, 3} : Finset ℕ).max = 5 := by sorry\n"
    "theorem max_lit_false : ({1, 5, 3} : Finset ℕ).max = 3 := by sorry\n"
    "theorem max_empty : (∅ : Finset ℕ).max = ⊥ := by sorry\n"
    "theorem max_empty_false : (∅ : Finset ℕ).max = 0 := by sorry\n"
    "theorem min_empty : (∅ : Finset ℤ).min = ⊤ := by sorry\n"
    "theorem min_lit : ({4, -2, 7} : Finset ℤ).min = -2 := by sorry\n"
    "theorem min_lit_false : ({4, -2, 7} : Finset ℤ).min < -2 := by sorry\n"
    # in ℕ, 7 / 2 = 3 (Nat.div): the greatest element of {7 / 2, 1} is 3, not 3.5; `max` of
    # elements that are not numerals is not computed here (untranslatable)
    "theorem max'_nat_div : ({7 / 2, 1} : Finset ℕ).max' (by decide) = 3 := by sorry\n"
    "theorem max'_nat_div_false : ({7 / 2, 1} : Finset ℕ).max' (by decide) = 4 := by sorry\n"
    "theorem max_nat_div : ({7 / 2, 1} : Finset ℕ).max = 3 := by sorry\n"
    # Finset.max'_insert, min'
    "theorem max'_lit : ({2, 9, 4} : Finset ℕ).max' (by decide) = 9 := by sorry\n"
    "theorem max'_lit_false : ({2, 9, 4} : Finset ℕ).max' (by decide) = 4 := by sorry\n"
    "theorem min'_lit : ({2, 9, 4} : Finset ℕ).min' (by decide) = 2 := by sorry\n"
    # Finset.sup'_insert / sup_insert over a literal with a function
    "theorem sup'_lit (x : ℝ) :\n"
    "    ({1, 2} : Finset ℕ).sup' (by decide) (fun i => x ^ 2 + i) = x ^ 2 + 2 := by sorry\n"
    "theorem sup'_lit_false (x : ℝ) :\n"
    "    ({1, 2} : Finset ℕ).sup' (by decide) (fun i => x * i) = 2 * x := by sorry\n"
    "theorem inf'_lit (x : ℝ) :\n"
    "    ({1, 2} : Finset ℕ).inf' (by decide) (fun i => x ^ 2 + i) = x ^ 2 + 1 := by sorry\n"
    "theorem sup_lit (n : ℕ) : ({0, 3} : Finset ℕ).sup (fun i => n + i) = n + 3 := by sorry\n"
    "theorem sup_lit_false (n : ℕ) : ({0, 3} : Finset ℕ).sup (fun i => n * i) = n := by sorry\n")


def test_extrema_of_literal_finsets_with_withbot_and_withtop_values(lean_verdicts):
    assert_twins(lean_verdicts(FINSETS), untranslatable=("max_nat_div",))
