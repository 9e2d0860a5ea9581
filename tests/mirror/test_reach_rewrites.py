"""Rewrites before translation (functional definitions, number theory by Mathlib's definitions),
the solver's completeness guards, and the advice given for an unknown constant."""

from __future__ import annotations

from mirror.translate.values import UnknownConstant


def test_a_function_defined_by_a_hypothesis_is_inlined_at_its_domain_type(lean_verdicts):
    verdicts = lean_verdicts(
        # `f 2` is `(2 : ℝ) - 5 = -3`, not a truncated ℕ subtraction
        "theorem real_sub (f : ℝ → ℝ) (h : ∀ x, f x = x - 5) : f 2 = -3 := by sorry\n"
        "theorem real_sub_false (f : ℝ → ℝ) (h : ∀ x, f x = x - 5) : f 2 = 0 := by sorry\n"
        # over ℕ the same text is truncated: 2 - 5 = 0
        "theorem nat_sub (f : ℕ → ℕ) (h : ∀ x, f x = x - 5) : f 2 = 0 := by sorry\n"
        # composition and two functions (miniF2F mathd_algebra_346)
        "theorem compose (f g : ℝ → ℝ) (h₀ : ∀ x, f x = 2 * x - 3) (h₁ : ∀ x, g x = x + 1) :"
        " g (f 5 - 1) = 7 := by sorry\n"
        "theorem compose_false (f g : ℝ → ℝ) (h₀ : ∀ x, f x = 2 * x - 3) (h₁ : ∀ x, g x = x + 1) :"
        " g (f 5 - 1) = 8 := by sorry\n"
        # defined only off a point: not a definition of f, left as it was
        "theorem partial_def (f : ℝ → ℝ) (h : ∀ x, x ≠ -2 → f x = 1 / (x + 2)) : f 0 = 1 / 2 := by sorry\n")
    assert verdicts["real_sub"].mirror_status == "symbolic"
    assert verdicts["real_sub_false"].mirror_status == "refuted"
    assert verdicts["nat_sub"].mirror_status == "symbolic"
    assert verdicts["compose"].mirror_status == "symbolic"
    assert verdicts["compose_false"].mirror_status == "refuted"
    assert verdicts["partial_def"].mirror_status == "untranslatable"


def test_divisibility_unifies_both_sides_like_lean(lean_verdicts):
    verdicts = lean_verdicts(
        # ℤ: 2 ∣ 2n - 6; the numeral is read at ℤ with the other side
        "theorem int_dvd (n : ℤ) : 2 ∣ 2 * n - 6 := by sorry\n"
        "theorem int_dvd_false (n : ℤ) : 4 ∣ 2 * n - 6 := by sorry\n"
        # ℕ: n - 5 truncates to 0 for n ≤ 5, and 7 ∣ 0 (over ℤ, n = 0 would refute it)
        "theorem nat_dvd_truncated (n : ℕ) (h : n ≤ 5) : 7 ∣ n - 5 := by sorry\n"
        "theorem int_dvd_untruncated_false (n : ℤ) (h₀ : 0 ≤ n) (h : n ≤ 5) : 7 ∣ n - 5 := by sorry\n"
        # Nat.dvd_sub', zero_dvd_iff: 0 ∣ b ↔ b = 0
        "theorem zero_dvd_false (b : ℕ) : 0 ∣ b := by sorry\n")
    assert verdicts["int_dvd"].mirror_status in ("tested", "symbolic")
    assert verdicts["int_dvd_false"].mirror_status == "refuted"
    assert verdicts["nat_dvd_truncated"].mirror_status in ("tested", "symbolic")
    assert verdicts["int_dvd_untruncated_false"].mirror_status == "refuted"
    assert verdicts["zero_dvd_false"].mirror_status == "refuted"


def test_an_equation_the_solver_cannot_read_leaves_the_statement_to_the_draws(lean_verdicts):
    verdicts = lean_verdicts(
        # 2 ^ x is no polynomial: no solution set is claimed, the draws decide
        "theorem exp_eq (x : ℕ) (h : 2 ^ x = 8) : x = 3 := by sorry\n"
        # exp x = 2 is no polynomial either: draws never satisfy it, the row says so
        "theorem rare_exp (x : ℝ) (h : Real.exp x = 2) : x < 1 := by sorry\n"
        # a positive-dimensional system (a line): no finite set, nothing claimed
        "theorem line (x y : ℝ) (h : x + y = 1) : x = 1 - y := by sorry\n")
    # 2 ^ x = 8 over ℕ is solved by unique factorization (mirror.sample.exponentials)
    assert verdicts["exp_eq"].mirror_status == "symbolic", verdicts["exp_eq"].reason
    assert "solved the hypotheses" not in (verdicts["line"].method or "")
    assert verdicts["rare_exp"].mirror_status == "inconclusive"
    assert "rejected by the hypotheses" in verdicts["rare_exp"].reason


def test_an_unknown_constant_is_to_be_bound_in_the_project():
    message = str(UnknownConstant("Foo.bar"))
    assert "[tool.leanmirror.bindings]" in message
    assert "mirror.translate.vocabulary" not in message


def test_a_hypothesis_about_a_variable_is_kept_with_its_type_parameter(lean_verdicts):
    # PutnamBench putnam_2007_a5: `hn` mentions the type parameter G; dropping it with G (as an
    # unused parameter) left `n` free and refuted a true theorem
    verdicts = lean_verdicts(
        "theorem card_hyp (G : Type*) [Group G] [Fintype G] (p n : ℕ) (hp : 2 ≤ p)\n"
        "    (hn : n = {g : G | orderOf g = p}.encard) : n = 0 ∨ (n + 1) % p = 0 := by sorry\n")
    assert verdicts["card_hyp"].mirror_status != "refuted"


def test_an_inlined_function_keeps_typing_its_untyped_arguments(lean_verdicts):
    # miniF2F amc12a_2021_p12: `∀ z, f z = 0 → …` with `f : ℂ → ℂ` quantifies over ℂ; once f
    # was inlined, `z` lost that type and was read as ℕ (a false refutation)
    verdicts = lean_verdicts(
        "theorem complex_roots (a : ℝ) (f : ℂ → ℂ) (h₀ : ∀ z, f z = z ^ 2 + a)\n"
        "    (h₁ : ∀ z, f z = 0 → z.im = 0) : a ≤ 0 := by sorry\n"
        "theorem huge_definition (k : ℕ) (h₀ : k = 2008 ^ 2 + 2 ^ 2008) :\n"
        "    (k ^ 2 + 2 ^ k) % 10 = 6 := by sorry\n")
    assert verdicts["complex_roots"].mirror_status == "untranslatable"
    assert verdicts["huge_definition"].mirror_status == "inconclusive"
