"""Round 22, analysis: solved systems in shape position, definite integrals, limits, digits."""

from __future__ import annotations

from tests.mirror.test_vocabulary_reads import assert_twins, assert_untranslatable


def test_a_quadratic_system_with_a_quartic_eliminant_is_solved_exactly(lean_verdicts):
    # FormalMATH omni_theorem_2589: sympy's `solve` of the lex basis (radicals of a quartic)
    # ran past the statement's limit at the base; the real roots are exact CRootOf values
    verdicts = lean_verdicts(
        "theorem sys_true (x y z : ℝ)\n"
        "    (h₀ : 2 * x + y + 4 * x * y + 6 * x * z = -6)\n"
        "    (h₁ : y + 2 * z + 2 * x * y + 6 * y * z = 4)\n"
        "    (h₂ : x - z + 2 * x * z - 4 * y * z = -3) :\n"
        "    x ^ 2 + y ^ 2 + z ^ 2 = 29 := by sorry\n"
        "theorem sys_false (x y z : ℝ)\n"
        "    (h₀ : 2 * x + y + 4 * x * y + 6 * x * z = -6)\n"
        "    (h₁ : y + 2 * z + 2 * x * y + 6 * y * z = 4)\n"
        "    (h₂ : x - z + 2 * x * z - 4 * y * z = -3) :\n"
        "    x ^ 2 + y ^ 2 + z ^ 2 = 30 := by sorry\n")
    assert_twins(verdicts, ("sys_true",), ("sys_false",))


def test_an_interval_integral_of_a_continuous_function_is_enclosed_by_arb(lean_verdicts):
    # ∫ x in 0..π, sin x ^ 4 = 3π/8 (u_math_1080): 1.178…; inequalities decided by the ball,
    # an equality of transcendental values never by a ball (inconclusive), its wrong value
    # refuted; the reversed interval is oriented (intervalIntegral.integral_symm)
    verdicts = lean_verdicts(
        "theorem int_lt : ∫ x in (0)..Real.pi, Real.sin x ^ 4 < 6 / 5 := by sorry\n"
        "theorem int_lt_false : ∫ x in (0)..Real.pi, Real.sin x ^ 4 < 1 := by sorry\n"
        "theorem int_symm : ∫ x in (1)..0, x ^ 2 < 0 := by sorry\n"
        "theorem int_symm_false : ∫ x in (1)..0, x ^ 2 > 0 := by sorry\n"
        "theorem int_div : ∫ x in (0)..1, 1 / (x + 1) < 7 / 10 := by sorry\n"
        "theorem int_div_false : ∫ x in (0)..1, 1 / (x + 1) < 69 / 100 := by sorry\n"
        "theorem int_eq : ∫ x in (0)..Real.pi, Real.sin x ^ 4 = 3 * Real.pi / 8 := by sorry\n"
        "theorem int_eq_false : ∫ x in (0)..Real.pi, Real.sin x ^ 4 = Real.pi / 2 := by sorry\n"
        # 1/x is not integrable on [-1, 1]: Lean's value is 0, the classical one undefined
        "theorem int_junk : ∫ x in (-1)..1, 1 / x = 0 := by sorry\n")
    assert_twins(verdicts, ("int_lt", "int_symm", "int_div"),
                 ("int_lt_false", "int_symm_false", "int_div_false", "int_eq_false"))
    assert verdicts["int_eq"].mirror_status == "inconclusive", verdicts["int_eq"].reason
    assert_untranslatable(verdicts, "int_junk", "integrable")


def test_an_integral_over_the_whole_line_is_not_assumed_integrable(lean_verdicts):
    # ∫ x, f x over ℝ is Lean's 0 for a non-integrable f (u_math_1092 was sampled at the base)
    verdicts = lean_verdicts(
        "theorem whole_line (c : ℝ) : ∫ x, (x ^ 2 + c) = c := by sorry\n")
    assert_untranslatable(verdicts, "whole_line", "integrable")


def test_a_limit_is_untranslatable_with_its_reason_not_unbound(lean_verdicts):
    verdicts = lean_verdicts(
        "open Filter Topology in\n"
        "theorem lim : Tendsto (fun n : ℕ => (1 : ℝ) / n) atTop (𝓝 0) := by sorry\n")
    assert_untranslatable(verdicts, "lim", "limit")


def test_nat_digits_inside_a_definition_is_read(lean_verdicts):
    # FormalMATH omni_theorem_2843 (`def s : ℕ → ℕ | n => (Nat.digits 10 n).sum`) and
    # aime_all_2015_II_3 were unbound at the base: the digit reads applied to the theorem only
    verdicts = lean_verdicts(
        "def s : ℕ → ℕ\n"
        "| n => (Nat.digits 10 n).sum\n"
        "def digitSum (n : ℕ) : ℕ := (Nat.digits 10 n).sum\n"
        "theorem def_digits : ((Finset.Icc 100 999).filter (fun n => 7 ≤ s n ∧ s n ≤ 11)).card"
        " % 100 = 24 := by sorry\n"
        "theorem def_digits_false : ((Finset.Icc 100 999).filter (fun n => 7 ≤ s n ∧ s n ≤ 11))"
        ".card % 100 = 25 := by sorry\n"
        "theorem def_digit_sum : digitSum 476 = 17 := by sorry\n"
        "theorem def_digit_sum_false : digitSum 476 = 16 := by sorry\n")
    assert_twins(verdicts, ("def_digits", "def_digit_sum"),
                 ("def_digits_false", "def_digit_sum_false"))


def test_a_limit_hypothesis_is_read_as_one_and_named(lean_verdicts):
    # FormalMATH DEMIMathAnalysis_2: `(h₁ : Tendsto a atTop (𝓝 α))` was read as a type
    verdicts = lean_verdicts(
        "open Filter Topology in\n"
        "theorem lim_hyp (a : ℕ → ℝ) (α : ℝ) (h : Tendsto a atTop (𝓝 α)) : α = α := by sorry\n")
    assert_untranslatable(verdicts, "lim_hyp", "limit")


def test_a_set_integral_over_a_bounded_interval_is_enclosed(lean_verdicts):
    # ∫ x in Icc 0 1, x² = 1/3; over Icc 1 0 (the empty set) it is 0, not -1/3
    verdicts = lean_verdicts(
        "theorem set_int : ∫ x in Set.Icc (0 : ℝ) 1, x ^ 2 < 7 / 20 := by sorry\n"
        "theorem set_int_false : ∫ x in Set.Icc (0 : ℝ) 1, x ^ 2 < 3 / 10 := by sorry\n"
        "theorem set_int_empty : ∫ x in Set.Icc (1 : ℝ) 0, x ^ 2 > -1 / 10 := by sorry\n"
        "theorem set_int_empty_false : ∫ x in Set.Icc (1 : ℝ) 0, x ^ 2 < -1 / 10 := by sorry\n")
    assert_twins(verdicts, ("set_int", "set_int_empty"), ("set_int_false", "set_int_empty_false"))


def test_shape_position_solutions_are_exact_and_complete():
    import sympy as sp

    from mirror.sample.solve import _shape_solutions
    x, y, z = sp.symbols("x y z")
    found = _shape_solutions([x - z, y + z, z ** 3 - z], [x, y, z])
    assert sorted(s[z] for s in found) == [-1, 0, 1]
    assert all(s[x] == s[z] and s[y] == -s[z] for s in found)
    assert _shape_solutions([x * z + x - 1, z ** 2 - 2], [x, z]) is None  # not gᵢ - hᵢ(gₙ)
