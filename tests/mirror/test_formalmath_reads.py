"""Sets as values in FormalMATH-Lite statements (round 21): equalities of sets read by
extensionality, ``Set.ncard`` of a set its condition bounds counted completely, and counts that
would rest on a truncated quantifier refused. Each true statement is named after the Mathlib
fact it rests on and covered, its false twin refuted; a construct left out says why."""

from __future__ import annotations

from tests.mirror.test_vocabulary_reads import assert_twins


def test_an_equality_of_real_sets_is_read_by_extensionality(lean_verdicts):
    # Set.ext_iff + Set.mem_setOf_eq: FormalMATH u_math_269 and u_math_864 (`{x : ℝ | …} =
    # {x | …}`) were unbound ("setOf") at the base. Each name: (statement, its false twin).
    twins = {
        "ext_linear": ("{x : ℝ | -4 < 3 * x + 2 ∧ 3 * x + 2 ≤ 18} = {x | -2 < x ∧ x ≤ 16 / 3}",
                       # wrong on (1, 16/3]: x = 2 is in the left set only
                       "{x : ℝ | -4 < 3 * x + 2 ∧ 3 * x + 2 ≤ 18} = {x | -2 < x ∧ x ≤ 1}"),
        # Set.mem_insert_iff, Set.mem_singleton_iff: x ^ 2 = 1 ↔ x = 1 ∨ x = -1
        "ext_pair": ("{x : ℝ | x ^ 2 = 1} = {1, -1}", "{x : ℝ | x ^ 2 = 1} = {1}"),
        "ext_Ioo": ("{x : ℝ | 0 < x ∧ x < 1} = Set.Ioo 0 1",  # Set.mem_Ioo
                    "{x : ℝ | 0 < x ∧ x < 2} = Set.Ioo 0 1"),
        # Set.mem_union, a set of naturals typed by its builder
        "ext_union": ("{n : ℕ | n < 3} = {0} ∪ {n | 1 ≤ n ∧ n ≤ 2}",
                      "{n : ℕ | n < 3} = {0} ∪ {n | 2 ≤ n ∧ n ≤ 2}"),
    }
    verdicts = lean_verdicts("".join(
        f"theorem {name} : {true} := by sorry\ntheorem {name}_false : {false} := by sorry\n"
        for name, (true, false) in twins.items()))
    assert_twins(verdicts, tuple(twins), tuple(f"{name}_false" for name in twins))


def test_ncard_of_a_set_its_condition_bounds_is_counted_completely(lean_verdicts):
    # Set.ncard_coe_finset + Finset.card_filter: FormalMATH omni_theorem_603 (`Set.ncard {k : ℕ |
    # 1 ≤ k ∧ k ≤ 2013 ∧ k ^ k ≡ 1 [MOD 10]} = 202`) was unbound ("Set.ncard") at the base
    verdicts = lean_verdicts(
        "theorem ncard_mult_three : {k : ℕ | k < 100 ∧ 3 ∣ k}.ncard = 34 := by sorry\n"
        "theorem ncard_mult_three_false : {k : ℕ | k < 100 ∧ 3 ∣ k}.ncard = 33 := by sorry\n"
        "theorem ncard_pow_self :\n"
        "    Set.ncard {k : ℕ | 1 ≤ k ∧ k ≤ 60 ∧ k ^ k ≡ 1 [MOD 10]} = 6 := by sorry\n"
        "theorem ncard_pow_self_false :\n"
        "    Set.ncard {k : ℕ | 1 ≤ k ∧ k ≤ 60 ∧ k ^ k ≡ 1 [MOD 10]} = 7 := by sorry\n"
        # over ℤ both ends are needed: -2, -1, 0, 1, 2
        "theorem ncard_int : {k : ℤ | -5 ≤ k ∧ k ≤ 5 ∧ k ^ 2 < 5}.ncard = 5 := by sorry\n"
        "theorem ncard_int_false : {k : ℤ | -5 ≤ k ∧ k ≤ 5 ∧ k ^ 2 < 5}.ncard = 3 := by sorry\n"
        # a bound by a variable: the count is a sum over [0, n]
        "theorem ncard_var (n : ℕ) : {k : ℕ | k ≤ n}.ncard = n + 1 := by sorry\n"
        "theorem ncard_var_false (n : ℕ) : {k : ℕ | k ≤ n}.ncard = n := by sorry\n"
        # unbounded, reals: no count is guessed
        "theorem ncard_unbounded : {k : ℕ | 3 ∣ k}.ncard = 0 := by sorry\n"
        "theorem ncard_reals : {x : ℝ | x ^ 2 = 1}.ncard = 2 := by sorry\n")
    assert_twins(verdicts, ("ncard_mult_three", "ncard_pow_self", "ncard_int", "ncard_var"),
                 ("ncard_mult_three_false", "ncard_pow_self_false", "ncard_int_false",
                  "ncard_var_false"))
    unbounded, reals = verdicts["ncard_unbounded"], verdicts["ncard_reals"]
    assert unbounded.mirror_status == "untranslatable", unbounded.reason
    assert "does not bound k from above" in unbounded.reason
    assert reals.mirror_status == "untranslatable", reals.reason
    assert "a set of reals" in reals.reason


def test_a_count_resting_on_a_truncated_quantifier_is_not_decided(lean_verdicts):
    # `∀ n, n ≠ m + 1000` is false for every m (n = m + 1000), so these counts are 0: true
    # statements. The ∀ was decided on the sampled prefix of ℕ, where it holds, so each sum or
    # filter counted 31 and the true statement was refuted at the base (a false refutation).
    verdicts = lean_verdicts(
        "theorem count_sum :\n"
        "    ∑ m ∈ Finset.range 31, (if ∀ n : ℕ, n ≠ m + 1000 then 1 else 0) = 0 := by sorry\n"
        "theorem count_filter :\n"
        "    (Finset.filter (fun m => ∀ n : ℕ, n ≠ m + 1000) (Finset.range 31)).card = 0 := by sorry\n"
        "theorem count_ncard : Set.ncard {m : ℕ | m ≤ 30 ∧ ∀ n, n ≠ m + 1000} = 0 := by sorry\n"
        # a bounded quantifier in the condition stays exact (Nat.Prime's ∀ m < p)
        "theorem count_primes : ∑ m ∈ Finset.range 31, (if Nat.Prime m then 1 else 0) = 10 := by sorry\n"
        "theorem count_primes_false :\n"
        "    ∑ m ∈ Finset.range 31, (if Nat.Prime m then 1 else 0) = 11 := by sorry\n")
    for name in ("count_sum", "count_filter", "count_ncard"):
        row = verdicts[name]
        assert row.mirror_status == "untranslatable", (name, row.mirror_status, row.reason)
        assert "quantifies" in row.reason, (name, row.reason)
    assert_twins(verdicts, ("count_primes",), ("count_primes_false",))


def test_deriv_of_an_everywhere_differentiable_function_is_its_derivative(lean_verdicts):
    # deriv_add, deriv_mul, deriv_pow, Real.deriv_sin, Real.deriv_exp: FormalMATH u_math_526
    # (`hf : f = λ x => 20 * x - 2 * x ^ 2 ⊢ … ∧ deriv f 3 = 8`) and u_math_915 (`iteratedDeriv
    # 27 f = λ x => …`) were untranslatable ("functions on Real") / unbound at the base
    verdicts = lean_verdicts(
        "theorem deriv_poly {f : ℝ → ℝ} (hf : f = λ x => 20 * x - 2 * x ^ 2) :\n"
        "    deriv f 3 = 8 := by sorry\n"
        "theorem deriv_poly_false {f : ℝ → ℝ} (hf : f = λ x => 20 * x - 2 * x ^ 2) :\n"
        "    deriv f 3 = 7 := by sorry\n"
        "theorem deriv_mul_sin (a : ℝ) :\n"
        "    deriv (fun x : ℝ => Real.sin x * x) a = Real.cos a * a + Real.sin a := by sorry\n"
        "theorem deriv_mul_sin_false (a : ℝ) :\n"
        "    deriv (fun x : ℝ => Real.sin x * x) a = Real.cos a * a := by sorry\n"
        "theorem deriv_exp_div (f : ℝ → ℝ) (hf : ∀ x, f x = x / 3 + Real.exp (2 * x)) :\n"
        "    deriv f 0 = 7 / 3 := by sorry\n"
        # Leibniz at 0: 2 · 27 · 26 · sin⁽²⁵⁾ 0 = 1404; the function equality by funext
        "theorem iterated_leibniz {f : ℝ → ℝ} (hf : f = λ x => 2 * x ^ 2 * sin x) :\n"
        "    iteratedDeriv 27 f = λ x => 1404 * cos x - 2 * x ^ 2 * cos x - 108 * x * sin x := by sorry\n"
        "theorem iterated_leibniz_false {f : ℝ → ℝ} (hf : f = λ x => 2 * x ^ 2 * sin x) :\n"
        "    iteratedDeriv 27 f = λ x => 1404 * cos x - 2 * x ^ 2 * cos x - 100 * x * sin x := by sorry\n"
        # |x| is not differentiable at 0, where Lean's deriv is 0 (the classical rule would
        # give sign 0 = 0 by luck, or fail elsewhere): not read; nor √x, whose domain matters
        "theorem deriv_abs : deriv (fun x : ℝ => |x|) 0 = 0 := by sorry\n"
        "theorem deriv_sqrt : deriv (fun x : ℝ => Real.sqrt x) 1 = 1 / 2 := by sorry\n")
    assert_twins(verdicts, ("deriv_poly", "deriv_mul_sin", "deriv_exp_div", "iterated_leibniz"),
                 ("deriv_poly_false", "deriv_mul_sin_false", "iterated_leibniz_false"))
    for name in ("deriv_abs", "deriv_sqrt"):
        row = verdicts[name]
        assert row.mirror_status == "untranslatable", (name, row.mirror_status, row.reason)
        assert "differentiable" in row.reason, (name, row.reason)


def test_card_of_a_filter_in_dot_notation_is_counted(lean_verdicts):
    # Finset.card_filter on `(s.filter p).card`, s an interval (FormalMATH omni_theorem_2843's
    # shape): it was unbound ("Finset.filter") at the base, while `(Finset.filter p s).card` was
    # read. 100…999 ending in 7 or 8: 90 · 2 = 180.
    verdicts = lean_verdicts(
        "theorem card_filter_dot :\n"
        "    ((Finset.Icc 100 999).filter (fun n => 7 ≤ n % 10 ∧ n % 10 ≤ 8)).card = 180 := by sorry\n"
        "theorem card_filter_dot_false :\n"
        "    ((Finset.Icc 100 999).filter (fun n => 7 ≤ n % 10 ∧ n % 10 ≤ 8)).card = 181 := by sorry\n")
    assert_twins(verdicts, ("card_filter_dot",), ("card_filter_dot_false",))
