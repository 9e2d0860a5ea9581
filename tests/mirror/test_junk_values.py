"""Mathlib's junk values, each pinned by the Mathlib lemma that states it.

Every statement below is a Mathlib theorem (or an instance of one), written as a user would
and run through the real pipeline (scanner → translation → plan → codegen → checks): it must
hold (``tested`` or ``symbolic``). The false variants must be ``refuted``. The runtime-level
checks of the same definitions are in ``test_functions_runtime.py``.
"""

from __future__ import annotations

import pytest

SOURCE = """
theorem tan_pi_div_two : Real.tan (π / 2) = 0 := by sorry
theorem tan_eq_sin_div_cos (x : ℝ) : Real.tan x = Real.sin x / Real.cos x := by sorry
theorem cot_zero : Real.cot 0 = 0 := by sorry
theorem arcsin_of_one_le (x : ℝ) (h : 1 ≤ x) : Real.arcsin x = π / 2 := by sorry
theorem arcsin_of_le_neg_one (x : ℝ) (h : x ≤ -1) : Real.arcsin x = -(π / 2) := by sorry
theorem arcsin_two : Real.arcsin 2 = π / 2 := by sorry
theorem arccos_of_one_le (x : ℝ) (h : 1 ≤ x) : Real.arccos x = 0 := by sorry
theorem arccos_of_le_neg_one (x : ℝ) (h : x ≤ -1) : Real.arccos x = π := by sorry
theorem arctan_neg (x : ℝ) : Real.arctan (-x) = -Real.arctan x := by sorry
theorem sinh_neg (x : ℝ) : Real.sinh (-x) = -Real.sinh x := by sorry
theorem cosh_sq (x : ℝ) : Real.cosh x ^ 2 = Real.sinh x ^ 2 + 1 := by sorry
theorem tanh_eq_sinh_div_cosh (x : ℝ) : Real.tanh x = Real.sinh x / Real.cosh x := by sorry
theorem logb_zero (b : ℝ) : Real.logb b 0 = 0 := by sorry
theorem logb_one (b : ℝ) : Real.logb b 1 = 0 := by sorry
theorem logb_zero_left (x : ℝ) : Real.logb 0 x = 0 := by sorry
theorem logb_one_left (x : ℝ) : Real.logb 1 x = 0 := by sorry
theorem sign_zero : Real.sign 0 = 0 := by sorry
theorem sign_mul_abs (x : ℝ) : Real.sign x * |x| = x := by sorry
theorem floor_le (x : ℝ) : (⌊x⌋ : ℝ) ≤ x := by sorry
theorem lt_floor_add_one (x : ℝ) : x < ⌊x⌋ + 1 := by sorry
theorem le_ceil (x : ℝ) : x ≤ ⌈x⌉ := by sorry
theorem fract_nonneg (x : ℝ) : 0 ≤ Int.fract x := by sorry
theorem fract_lt_one (x : ℝ) : Int.fract x < 1 := by sorry
theorem floor_of_nonpos (x : ℝ) (h : x ≤ 0) : ⌊x⌋₊ = 0 := by sorry
theorem ceil_eq_zero (x : ℝ) (h : x ≤ 0) : ⌈x⌉₊ = 0 := by sorry
theorem round_eq (x : ℝ) : round x = ⌊x + 1 / 2⌋ := by sorry
theorem round_half : round (1 / 2 : ℝ) = 1 := by sorry
theorem round_neg_half : round (-1 / 2 : ℝ) = 0 := by sorry
theorem toNat_of_nonpos (n : ℤ) (h : n ≤ 0) : n.toNat = 0 := by sorry
theorem natAbs_neg (n : ℤ) : (-n).natAbs = n.natAbs := by sorry
theorem fdiv_zero (a : ℤ) : Int.fdiv a 0 = 0 := by sorry
theorem tdiv_zero (a : ℤ) : Int.tdiv a 0 = 0 := by sorry
theorem fmod_zero (a : ℤ) : Int.fmod a 0 = a := by sorry
theorem tmod_zero (a : ℤ) : Int.tmod a 0 = a := by sorry
theorem ediv_zero (a : ℤ) : Int.ediv a 0 = 0 := by sorry
theorem emod_zero (a : ℤ) : Int.emod a 0 = a := by sorry
theorem tdiv_neg_seven : Int.tdiv (-7) 2 = -3 := by sorry
theorem fdiv_neg_seven : Int.fdiv (-7) 2 = -4 := by sorry
theorem ediv_neg_seven : Int.ediv (-7) 2 = -4 := by sorry
theorem tmod_neg_seven : Int.tmod (-7) 2 = -1 := by sorry
theorem fmod_seven_neg : Int.fmod 7 (-2) = -1 := by sorry
theorem emod_seven_neg : Int.emod 7 (-2) = 1 := by sorry
theorem tmod_add_tdiv (a b : ℤ) : Int.tmod a b + b * Int.tdiv a b = a := by sorry
theorem fmod_add_fdiv (a b : ℤ) : Int.fmod a b + b * Int.fdiv a b = a := by sorry
theorem factorial_pos (n : ℕ) : 0 < Nat.factorial n := by sorry
theorem factorial_succ (n : ℕ) : Nat.factorial (n + 1) = (n + 1) * Nat.factorial n := by sorry
theorem choose_eq_zero_of_lt (n k : ℕ) (h : n < k) : Nat.choose n k = 0 := by sorry
theorem choose_symm (n k : ℕ) (h : k ≤ n) : Nat.choose n (n - k) = Nat.choose n k := by sorry
theorem gcd_zero_left (n : ℕ) : Nat.gcd 0 n = n := by sorry
theorem lcm_zero_left (n : ℕ) : Nat.lcm 0 n = 0 := by sorry
theorem gcd_mul_lcm (m n : ℕ) : Nat.gcd m n * Nat.lcm m n = m * n := by sorry
theorem sqrt_le' (n : ℕ) : Nat.sqrt n * Nat.sqrt n ≤ n := by sorry
theorem lt_succ_sqrt' (n : ℕ) : n < (Nat.sqrt n + 1) * (Nat.sqrt n + 1) := by sorry
theorem log_of_lt (b n : ℕ) (h : n < b) : Nat.log b n = 0 := by sorry
theorem log_of_left_le_one (b n : ℕ) (h : b ≤ 1) : Nat.log b n = 0 := by sorry
theorem log_zero_right (b : ℕ) : Nat.log b 0 = 0 := by sorry
theorem pow_log_le_self (b n : ℕ) (h : n ≠ 0) : b ^ Nat.log b n ≤ n := by sorry
theorem coe_nnabs (x : ℝ) : (Real.nnabs x : ℝ) = |x| := by sorry
theorem toNNReal_of_nonpos (x : ℝ) (h : x ≤ 0) : Real.toNNReal x = 0 := by sorry
theorem coe_toNNReal' (x : ℝ) : (Real.toNNReal x : ℝ) = max x 0 := by sorry
theorem max_int (a b : ℤ) : max a b = -min (-a) (-b) := by sorry
theorem min_le_left_nnreal (a b : NNReal) : min a b ≤ a := by sorry
theorem max_sub_nnreal (a b : NNReal) : max a b - a = b - a := by sorry
theorem min_le_left_pnat (a b : PNat) : min a b ≤ a := by sorry
theorem max_fin (a b : Fin 5) : a ≤ max a b := by sorry
theorem pred_zero : Nat.pred 0 = 0 := by sorry
theorem pred_succ (n : ℕ) : Nat.pred (n + 1) = n := by sorry
theorem int_gcd_neg (a b : ℤ) : Int.gcd (-a) b = Int.gcd a b := by sorry
theorem int_lcm_natAbs (a b : ℤ) : Int.lcm a b = Nat.lcm a.natAbs b.natAbs := by sorry
theorem nnsqrt_sq (x : ℝ≥0) : NNReal.sqrt (x * x) = x := by sorry

theorem false_pow_log_le_self (b n : ℕ) : b ^ Nat.log b n ≤ n := by sorry
theorem false_tan_pi_div_two : Real.tan (π / 2) = 1 := by sorry
theorem false_arcsin (x : ℝ) : Real.sin (Real.arcsin x) = x := by sorry
theorem false_logb (b x : ℝ) : Real.logb b x * Real.log b = Real.log x + 1 := by sorry
theorem false_factorial (n : ℕ) : Nat.factorial n = n := by sorry
theorem false_floor (x : ℝ) : (⌊x⌋ : ℝ) = x := by sorry
theorem false_round_half_even : round (5 / 2 : ℝ) = 2 := by sorry
theorem false_round_ceil (x : ℝ) : round x = ⌈x⌉ := by sorry
theorem false_nat_floor (x : ℝ) : (⌊x⌋₊ : ℤ) = ⌊x⌋ := by sorry
theorem false_tdiv_is_fdiv (a b : ℤ) : Int.tdiv a b = Int.fdiv a b := by sorry
theorem false_choose (n k : ℕ) : Nat.choose n k * Nat.factorial k * Nat.factorial (n - k) = Nat.factorial n := by sorry
theorem false_sign (x : ℝ) : Real.sign x * x = |x| + 1 := by sorry
theorem false_to_nnreal (x : ℝ) : (Real.toNNReal x : ℝ) = x := by sorry
theorem false_pred (n : ℕ) : Nat.pred n + 1 = n := by sorry
theorem unknown_gamma (x : ℝ) : Real.Gamma x = x := by sorry
"""

#: theorem → the Mathlib (or core) lemma that pins the junk value or definition it checks.
HOLDS = {
    "tan_pi_div_two": "Real.tan_pi_div_two",
    "tan_eq_sin_div_cos": "Real.tan_eq_sin_div_cos",
    "cot_zero": "Real.cot_zero",
    "arcsin_of_one_le": "Real.arcsin_of_one_le",
    "arcsin_of_le_neg_one": "Real.arcsin_of_le_neg_one",
    "arcsin_two": "Real.arcsin_of_one_le",
    "arccos_of_one_le": "Real.arccos_of_one_le",
    "arccos_of_le_neg_one": "Real.arccos_of_le_neg_one",
    "arctan_neg": "Real.arctan_neg",
    "sinh_neg": "Real.sinh_neg",
    "cosh_sq": "Real.cosh_sq",
    "tanh_eq_sinh_div_cosh": "Real.tanh_eq_sinh_div_cosh",
    "logb_zero": "Real.logb_zero",
    "logb_one": "Real.logb_one",
    "logb_zero_left": "Real.logb_zero_left",
    "logb_one_left": "Real.logb_one_left",
    "sign_zero": "Real.sign_zero",
    "sign_mul_abs": "Real.sign_mul_abs",
    "floor_le": "Int.floor_le",
    "lt_floor_add_one": "Int.lt_floor_add_one",
    "le_ceil": "Int.le_ceil",
    "fract_nonneg": "Int.fract_nonneg",
    "fract_lt_one": "Int.fract_lt_one",
    "floor_of_nonpos": "Nat.floor_of_nonpos",
    "ceil_eq_zero": "Nat.ceil_eq_zero",
    "round_eq": "round_eq",
    "round_half": "round_eq",
    "round_neg_half": "round_eq",
    "toNat_of_nonpos": "Int.toNat_of_nonpos",
    "natAbs_neg": "Int.natAbs_neg",
    "fdiv_zero": "Int.fdiv_zero",
    "tdiv_zero": "Int.tdiv_zero",
    "fmod_zero": "Int.fmod_zero",
    "tmod_zero": "Int.tmod_zero",
    "ediv_zero": "Int.ediv_zero",
    "emod_zero": "Int.emod_zero",
    "tdiv_neg_seven": "Int.tdiv (rounds toward zero)",
    "fdiv_neg_seven": "Int.fdiv (rounds toward -∞)",
    "ediv_neg_seven": "Int.ediv (Euclidean)",
    "tmod_neg_seven": "Int.tmod_add_tdiv",
    "fmod_seven_neg": "Int.fmod_add_fdiv",
    "emod_seven_neg": "Int.emod_nonneg",
    "tmod_add_tdiv": "Int.tmod_add_tdiv",
    "fmod_add_fdiv": "Int.fmod_add_fdiv",
    "factorial_pos": "Nat.factorial_pos",
    "factorial_succ": "Nat.factorial_succ",
    "choose_eq_zero_of_lt": "Nat.choose_eq_zero_of_lt",
    "choose_symm": "Nat.choose_symm",
    "gcd_zero_left": "Nat.gcd_zero_left",
    "lcm_zero_left": "Nat.lcm_zero_left",
    "gcd_mul_lcm": "Nat.gcd_mul_lcm",
    "sqrt_le'": "Nat.sqrt_le'",
    "lt_succ_sqrt'": "Nat.lt_succ_sqrt'",
    "log_of_lt": "Nat.log_of_lt",
    "log_of_left_le_one": "Nat.log_of_left_le_one",
    "log_zero_right": "Nat.log_zero_right",
    "pow_log_le_self": "Nat.pow_log_le_self",
    "coe_nnabs": "Real.coe_nnabs",
    "toNNReal_of_nonpos": "Real.toNNReal_of_nonpos",
    "coe_toNNReal'": "Real.coe_toNNReal'",
    "max_int": "max_neg_neg",
    "min_le_left_nnreal": "min_le_left",
    "max_sub_nnreal": "max_tsub_self (ℝ≥0)",
    "min_le_left_pnat": "min_le_left",
    "max_fin": "le_max_left",
    "pred_zero": "Nat.pred_zero",
    "pred_succ": "Nat.pred_succ",
    "int_gcd_neg": "Int.gcd_neg",
    "int_lcm_natAbs": "Int.lcm (definition)",
    "nnsqrt_sq": "NNReal.sqrt_mul_self",
}

#: False statements (each contradicts a junk value or a definition): must be refuted.
REFUTED = {
    "false_pow_log_le_self": "Nat.pow_log_le_self needs n ≠ 0 (Nat.log_zero_right)",
    "false_tan_pi_div_two": "Real.tan_pi_div_two",
    "false_arcsin": "Real.sin_arcsin needs -1 ≤ x ≤ 1 (Real.arcsin_of_one_le)",
    "false_logb": "Real.log_div_log",
    "false_factorial": "Nat.factorial_zero",
    "false_floor": "Int.floor_intCast only on integers",
    "false_round_half_even": "round_eq (half up, not half even)",
    "false_round_ceil": "round_eq",
    "false_nat_floor": "Nat.floor_of_nonpos",
    "false_tdiv_is_fdiv": "Int.tdiv vs Int.fdiv on negative quotients",
    "false_choose": "Nat.choose_eq_zero_of_lt (n < k)",
    "false_sign": "Real.sign_zero",
    "false_to_nnreal": "Real.toNNReal_of_nonpos",
    "false_pred": "Nat.pred_zero",
}


@pytest.fixture(scope="module")
def verdicts(lean_verdicts):
    return lean_verdicts(SOURCE)


@pytest.mark.parametrize("name", sorted(HOLDS))
def test_mathlib_junk_lemma_holds(verdicts, name):
    """The statement of the Mathlib lemma ``HOLDS[name]`` is tested or symbolic."""
    result = verdicts[name]
    assert result.mirror_status in ("tested", "symbolic"), (HOLDS[name], result.mirror_status,
                                                            result.reason, result.counterexample)


@pytest.mark.parametrize("name", sorted(REFUTED))
def test_false_variant_is_refuted(verdicts, name):
    """A statement contradicting ``REFUTED[name]`` is refuted with a counterexample."""
    result = verdicts[name]
    assert result.mirror_status == "refuted", (REFUTED[name], result.mirror_status, result.reason)


def test_tan_pi_div_two_is_exact_not_a_float_pole(verdicts):
    """``Real.tan_pi_div_two``: ``cos (π / 2) = 0`` exactly, so ``tan (π / 2) = 0 / ... = 0``;
    float64 ``cos`` is 6e-17 there, which must not decide the verdict."""
    assert verdicts["tan_pi_div_two"].mirror_status == "symbolic"
    assert verdicts["false_tan_pi_div_two"].mirror_status == "refuted"


def test_false_nat_floor_counterexample_is_negative(verdicts):
    """``Nat.floor_of_nonpos``: ``⌊x⌋₊ = 0`` for ``x ≤ 0``, so ``⌊x⌋₊ = ⌊x⌋`` fails below 0."""
    assert verdicts["false_nat_floor"].counterexample["x"] < 0


def test_unknown_functions_stay_unbound(verdicts):
    result = verdicts["unknown_gamma"]
    assert result.mirror_status == "unbound"
    assert "Real.Gamma" in result.reason
