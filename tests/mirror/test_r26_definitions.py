"""Mathlib's number-theory vocabulary inside the project's own definitions
(:func:`mirror.translate.number_theory.rewrite_number_theory_definition`).

FormalMATH's ``aime_all_2015_II_3``, ``omni_theorem_2538`` and ``omni_theorem_2843`` define
``sumOfDigits n := (Nat.digits 10 n).sum`` and state facts about it; the statement itself was
read through Mathlib's definitions, the definition's body was not, so each row was ``unbound``
with the advice to bind ``Nat.digits``. The values are Mathlib's: ``Nat.digits_add_two_add_one``
(``Nat.digits (b + 2) (n + 1) = ((n + 1) % (b + 2)) :: Nat.digits (b + 2) ((n + 1) / (b +
2))``), and ``Nat.prime_def_lt''`` for ``Nat.Prime`` under a definition."""

from __future__ import annotations

from tests.mirror.twins import assert_twins

SOURCE = """
def sumOfDigits (n : ℕ) : ℕ := (Nat.digits 10 n).sum

def digitSum (b : ℕ) (n : ℕ) := (Nat.digits b n).sum

def s : ℕ → ℕ
  | n => (Nat.digits 10 n).sum

def primeIndicator (n : ℕ) : ℕ := if Nat.Prime n then 1 else 0

theorem digits_def : sumOfDigits 476 = 17 := by sorry
theorem digits_def_false : sumOfDigits 476 = 18 := by sorry
theorem least_digits : IsLeast {m | 0 < m ∧ 17 ∣ m ∧ sumOfDigits m = 17} 476 := by sorry
theorem least_digits_false : IsLeast {m | 0 < m ∧ 17 ∣ m ∧ sumOfDigits m = 17} 493 := by sorry
theorem two_bases : digitSum 17 153 = digitSum 10 153 := by sorry
theorem two_bases_false : digitSum 17 160 = digitSum 10 160 := by sorry
theorem by_equation : s 999 = 27 := by sorry
theorem by_equation_false : s 999 = 26 := by sorry
theorem primes_below : ∑ n ∈ Finset.range 20, primeIndicator n = 8 := by sorry
theorem primes_below_false : ∑ n ∈ Finset.range 20, primeIndicator n = 9 := by sorry
"""

PAIRS = ("digits_def", "least_digits", "two_bases", "by_equation", "primes_below")


def test_vocabulary_in_definitions_is_read_by_mathlib_definitions(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    assert_twins(rows, PAIRS)
    for name in PAIRS:
        assert "Nat.digits" not in (rows[name].reason or ""), rows[name].reason
