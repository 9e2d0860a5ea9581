"""Constructs FormalMATH and miniF2F statements use that leanmirror misread or failed on (round
20): each a true statement named after the Mathlib fact it rests on, covered, and a false twin,
refuted; a construct left out says why instead of failing."""

from __future__ import annotations

from tests.mirror.test_vocabulary_reads import assert_twins, assert_untranslatable


def test_a_binder_applied_to_a_function_takes_its_domain(lean_verdicts):
    # Lean elaborates `a n` against `a : ℕ → ℝ` before the `binrel%` tree `a n = n` coerces its
    # leaves (`↑n`), so `n : ℕ` (FormalMATH theorem_proving_zh_blue_784's conclusion).
    verdicts = lean_verdicts(
        # Nat.cast_id-style: a sequence equal to its index, read at ℕ indices
        "theorem cast_index (a : ℕ → ℝ) (ha : ∀ n, a n = n) : ∀ n, a n = n := by sorry\n"
        "theorem cast_index_false (a : ℕ → ℝ) (ha : ∀ n, a n = n + 1) : ∀ n, a n = n := by sorry\n"
        # Int.emod_emod_of_dvd-free: a function on ℤ fixes its argument at ℤ
        "theorem int_arg (f : ℤ → ℤ) (hf : ∀ x, f x = 2 * x) : ∀ x, f x - x = x := by sorry\n"
        "theorem int_arg_false (f : ℤ → ℤ) (hf : ∀ x, f x = 2 * x) : ∀ x, f x - x = 0 := by sorry\n")
    assert_twins(verdicts, ("cast_index", "int_arg"), ("cast_index_false", "int_arg_false"))


def test_is_least_of_an_untyped_set_is_over_nat_by_the_numeral_default(lean_verdicts):
    # `IsLeast {n | …} 24` with nothing but numerals and generic operations fixing the element
    # type: Lean's default instance for numerals (instOfNatNat) makes it ℕ (FormalMATH
    # omni_theorem_446: the least n with 100 ∣ 1² + … + n² is 24).
    verdicts = lean_verdicts(
        "theorem isLeast_sum_sq : IsLeast {n | 0 < n ∧ 100 ∣ ∑ i ∈ Finset.Icc 1 n, i ^ 2} 24 := by sorry\n"
        "theorem isLeast_sum_sq_false :\n"
        "    IsLeast {n | 0 < n ∧ 100 ∣ ∑ i ∈ Finset.Icc 1 n, i ^ 2} 25 := by sorry\n"
        # a constant of a fixed type (Real.sqrt) would fix ℝ: no default is taken
        "theorem isLeast_sqrt : IsLeast {x | Real.sqrt x = 2} 4 := by sorry\n")
    assert_twins(verdicts, ("isLeast_sum_sq",), ("isLeast_sum_sq_false",))
    assert_untranslatable(verdicts, "isLeast_sqrt", "cannot infer the type")


def test_a_relation_on_a_quotient_of_sums_is_read(lean_verdicts):
    # A `FinSum` took the unknown commutativity of its `Lambda` argument; `FinSum(…) + 1` came
    # out non-commutative, so neither real nor complex, and a relation on a quotient of sums
    # raised "Invalid comparison of non-real" (an error row; FormalMATH
    # quantitative_reasoning_zh_blue_871). inner_mul_le_norm_mul_norm (Cauchy–Schwarz):
    verdicts = lean_verdicts(
        "theorem inner_mul_le_norm_mul_norm (n : ℕ) (a b : Fin n → ℝ) (hn : 0 < n)\n"
        "    (ha : ∀ i, 0 < a i) (hb : ∀ i, 0 < b i) :\n"
        "    1 ≤ (∑ i, a i ^ 2) * (∑ i, b i ^ 2) / (∑ i, a i * b i) ^ 2 := by sorry\n"
        "theorem inner_mul_le_norm_mul_norm_false (n : ℕ) (a b : Fin n → ℝ) (hn : 0 < n)\n"
        "    (ha : ∀ i, 0 < a i) (hb : ∀ i, 0 < b i) :\n"
        "    2 ≤ (∑ i, a i ^ 2) * (∑ i, b i ^ 2) / (∑ i, a i * b i) ^ 2 := by sorry\n")
    assert_twins(verdicts, ("inner_mul_le_norm_mul_norm",), ("inner_mul_le_norm_mul_norm_false",))


def test_an_integer_literal_too_long_to_print_is_untranslatable_not_an_error(lean_verdicts):
    # FormalMATH omni_theorem_405 has `2001 ^ 1002`: its decimal form has 3310 digits, and the
    # exact rational of the hypothesis beyond Python's 4300-digit conversion limit made the
    # print stage raise (an error row)
    verdicts = lean_verdicts(
        "theorem big_literal (x : ℝ) (hx : x = 2001 ^ 1002 - 2001 ^ (-1002 : ℤ)) :\n"
        "    x ≠ 0 := by sorry\n")
    assert_untranslatable(verdicts, "big_literal", "integer literal")


def test_a_definition_repeated_in_two_files_is_read_from_the_theorems_own_file(tmp_path):
    # FormalMATH has `def a (n : ℕ) := 6 ^ n + 8 ^ n` in aime_all_1983_6.lean and other `def a`
    # in other files; by name alone the last one won, and the true `a 83 % 49 = 35` was refuted.
    from tests.mirror.conftest import results_by_name

    project = tmp_path / "project"
    (project / "P").mkdir(parents=True)
    (project / "lakefile.toml").write_text('name = "p"\n\n[[lean_lib]]\nname = "P"\n',
                                           encoding="utf-8")
    (project / "P" / "A.lean").write_text(
        "import Mathlib\n\ndef a (n : ℕ) := 6 ^ n + 8 ^ n\n\n"
        "theorem a_mod : a 83 % 49 = 35 := by sorry\n"
        "theorem a_mod_false : a 83 % 49 = 36 := by sorry\n", encoding="utf-8")
    (project / "P" / "B.lean").write_text(
        "import Mathlib\n\ndef a (n : ℕ) := n + 1\n\n"
        "theorem b_val : a 3 = 4 := by sorry\n", encoding="utf-8")
    (project / "P" / "C.lean").write_text(
        "import Mathlib\n\ntheorem c_ambiguous : a 3 = 4 := by sorry\n", encoding="utf-8")
    verdicts = results_by_name(project)
    assert_twins(verdicts, ("a_mod", "b_val"), ("a_mod_false",))
    # C.lean imports neither: there `a` is not either definition (Lean reads it as an
    # auto-bound variable), so neither is substituted and no verdict is given
    assert verdicts["c_ambiguous"].mirror_status in ("unbound", "untranslatable")


def test_an_expansion_into_a_huge_body_is_refused_before_it_runs(lean_verdicts):
    # FormalMATH algebra_539177: `StrictMono a` on `Fin 2011` expands the inner `∀ j` into 2011
    # conjuncts, then substitutes each outer index into them: 2011² substitutions, counted as
    # 4022 terms, ran past the statement's time limit (an error row)
    verdicts = lean_verdicts(
        "theorem strictMono_big (a : Fin 2011 → ℝ) (ha : StrictMono a) :\n"
        "    a 0 ≤ a 1 := by sorry\n")
    assert_untranslatable(verdicts, "strictMono_big", "too large to expand")
