"""Solving before sampling, round 20 (issue 21, item 1): modular hypotheses over an unbounded
integer (:mod:`mirror.sample.residues`), exponential equations
(:mod:`mirror.sample.exponentials`) and recurrences (:mod:`mirror.sample.recurrences`). Each
construct has a miniF2F-shaped true statement, decided ``symbolic`` before any draw, and a
false twin ``refuted`` (or ``vacuous`` where nothing satisfies the hypotheses); on the base
commit all of them were ``inconclusive`` (every draw rejected)."""

from __future__ import annotations

import pytest
import sympy as sp

from mirror.sample.residues import cover
from mirror.sample.exponentials import log_ball, log_zero, solve_exponentials
from mirror.sample.recurrences import unfold
from mirror.translate.types import Ty
from mirror.translate.values import Statement, Variable
from mirror.translate import vocabulary as V

SOURCE = """
theorem set_card (S : Finset ℕ) (h₀ : ∀ n : ℕ, n ∈ S ↔ 0 < n ∧ n < 50 ∧ n % 7 = 3) : S.card = 7 := by sorry
theorem set_card_false (S : Finset ℕ) (h₀ : ∀ n : ℕ, n ∈ S ↔ 0 < n ∧ n < 50 ∧ n % 7 = 3) : S.card = 8 := by sorry
theorem set_sum (S : Finset ℕ) (h₀ : ∀ n : ℕ, n ∈ S ↔ 0 < n ∧ n ≤ 20 ∧ 20 % n = 0) : ∑ k ∈ S, k = 42 := by sorry
theorem congruence_draws (n : ℕ) (h₀ : n % 50 = 37) : n ^ 2 + 3219 ≠ 125 * n := by sorry
theorem congruence_draws_false (n : ℕ) (h₀ : n % 50 = 37) : n ^ 2 + 3219 ≠ 124 * n := by sorry
theorem mod_linear (n : ℕ) (h₀ : n % 5 = 3) : 2 * n % 5 = 1 := by sorry
theorem mod_linear_false (n : ℕ) (h₀ : n % 5 = 3) : 2 * n % 5 = 2 := by sorry
theorem modeq_crt (n : ℕ) (h₀ : n ≡ 5 [MOD 7]) (h₁ : n % 3 = 2) : n % 21 = 5 := by sorry
theorem modeq_crt_false (n : ℕ) (h₀ : n ≡ 5 [MOD 7]) (h₁ : n % 3 = 2) : n % 21 = 12 := by sorry
theorem crt_vacuous (n : ℕ) (h₀ : n % 6 = 1) (h₁ : n % 4 = 2) : n = 0 := by sorry
theorem dvd_sub (n : ℤ) (h₀ : 5 ∣ n - 3) : n ^ 2 % 5 = 4 := by sorry
theorem dvd_sub_false (n : ℤ) (h₀ : 5 ∣ n - 3) : n ^ 2 % 5 = 1 := by sorry
theorem least_solution (n : ℕ) (h₀ : 0 < n) (h₁ : n % 7 = 5) (h₂ : n % 3 = 2) : 5 ≤ n := by sorry
theorem least_solution_false (n : ℕ) (h₀ : 0 < n) (h₁ : n % 7 = 5) (h₂ : n % 3 = 2) : 6 ≤ n := by sorry
theorem fib_mod (a : ℕ → ℕ) (h₀ : a 1 = 1) (h₁ : a 2 = 1) (h₂ : ∀ n, a (n + 2) = a (n + 1) + a n) : a 100 % 4 = 3 := by sorry
theorem fib_mod_false (a : ℕ → ℕ) (h₀ : a 1 = 1) (h₁ : a 2 = 1) (h₂ : ∀ n, a (n + 2) = a (n + 1) + a n) : a 100 % 4 = 1 := by sorry
theorem seq_linear (s : ℕ → ℝ) (h₀ : ∀ n, s (n + 2) = s (n + 1) + s n) (h₁ : s 9 = 110) (h₂ : s 7 = 42) : s 4 = 10 := by sorry
theorem seq_linear_false (s : ℕ → ℝ) (h₀ : ∀ n, s (n + 2) = s (n + 1) + s n) (h₁ : s 9 = 110) (h₂ : s 7 = 42) : s 4 = 11 := by sorry
theorem seq_initial (s : ℕ → ℚ) (h₀ : s 0 = 1) (h₁ : s 1 = 3) (h₂ : ∀ n, s (n + 2) = 2 * s (n + 1) - s n / 2) : s 5 = 111 / 4 := by sorry
theorem seq_initial_false (s : ℕ → ℚ) (h₀ : s 0 = 1) (h₁ : s 1 = 3) (h₂ : ∀ n, s (n + 2) = 2 * s (n + 1) - s n / 2) : s 5 = 13 := by sorry
theorem exp_log (a : ℝ) (h₀ : (4 : ℝ) ^ a = 5) : 1 < a := by sorry
theorem exp_log_false (a : ℝ) (h₀ : (4 : ℝ) ^ a = 5) : a < 1 := by sorry
theorem exp_chain (a b : ℝ) (h₀ : (4 : ℝ) ^ a = 5) (h₁ : (5 : ℝ) ^ b = 16) : a * b = 2 := by sorry
theorem exp_chain_false (a b : ℝ) (h₀ : (4 : ℝ) ^ a = 5) (h₁ : (5 : ℝ) ^ b = 16) : a * b = 3 := by sorry
theorem exp_nat (x y : ℕ) (h₀ : 2 ^ x * 3 ^ y = 1296) : x + y = 8 := by sorry
theorem exp_nat_false (x y : ℕ) (h₀ : 2 ^ x * 3 ^ y = 1296) : x = 3 := by sorry
theorem exp_two_sides (x : ℝ) (h₀ : (7 : ℝ) ^ (x + 7) = 8 ^ x) : x = 7 * Real.log 7 / (Real.log 8 - Real.log 7) := by sorry
theorem exp_two_sides_false (x : ℝ) (h₀ : (7 : ℝ) ^ (x + 7) = 8 ^ x) : x = 7 * Real.log 8 / (Real.log 8 - Real.log 7) := by sorry
theorem exp_vacuous (x : ℝ) (h₀ : (2 : ℝ) ^ x + 3 = 1) : x = 0 := by sorry
theorem exp_nat_vacuous (x : ℕ) (h₀ : 2 ^ x = 12) : x = 0 := by sorry
"""

EXPECTED = {
    # a. congruences over an unbounded integer: every residue class decided
    "mod_linear": "symbolic", "mod_linear_false": "refuted",
    "modeq_crt": "symbolic", "modeq_crt_false": "refuted", "crt_vacuous": "vacuous",
    "dvd_sub": "symbolic", "dvd_sub_false": "refuted",
    # not decided before the draws: n drawn among 37, 87, 137 … (n % 50 = 37)
    "congruence_draws": "tested", "congruence_draws_false": "refuted",
    # the negated conclusion bounds where a counterexample can be
    "least_solution": "symbolic", "least_solution_false": "refuted",
    # b. exponential equations
    "exp_log": "symbolic", "exp_log_false": "refuted",
    "exp_chain": "symbolic", "exp_chain_false": "refuted",
    "exp_nat": "symbolic", "exp_nat_false": "refuted",
    "exp_two_sides": "symbolic", "exp_two_sides_false": "refuted",
    "exp_vacuous": "vacuous", "exp_nat_vacuous": "vacuous",
    # a finite set whose membership condition bounds its index: computed completely
    "set_card": "symbolic", "set_card_false": "refuted", "set_sum": "symbolic",
    # c. recurrences
    "fib_mod": "symbolic", "fib_mod_false": "refuted",
    "seq_linear": "symbolic", "seq_linear_false": "refuted",
    "seq_initial": "symbolic", "seq_initial_false": "refuted",
}


@pytest.mark.parametrize("name, status", sorted(EXPECTED.items()))
def test_each_solved_form_has_its_verdict(lean_verdicts, name, status):
    row = lean_verdicts(SOURCE)[name]
    assert row.mirror_status == status, (row.mirror_status, row.method, row.reason)


def test_the_rows_say_how_they_were_solved(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    assert "every residue modulo 21" in rows["modeq_crt"].method
    assert "negated conclusion" in rows["least_solution"].method
    assert "logarithms of primes" in rows["exp_nat"].method
    assert "x = 4, y = 4" in rows["exp_nat"].method
    assert "unfolded the recurrence" in rows["fib_mod"].method
    # the counterexample of a recurrence is the computed prefix of the sequence
    assert rows["seq_linear_false"].counterexample == {"s": [2, 2, 4, 6, 10, 16, 26, 42, 68, 110]}
    assert rows["mod_linear_false"].counterexample == {"n": 3}
    assert rows["crt_vacuous"].certificate["kind"] == "no-solution"
    assert "n drawn among" in rows["congruence_draws"].method


def _statement(variables, hypotheses, conclusion):
    return Statement("t", variables, hypotheses, conclusion)


def test_a_variable_read_outside_a_remainder_has_no_residue_cover():
    n = sp.Symbol("n", integer=True, nonnegative=True)
    var = [Variable("n", Ty("Nat"), n)]
    periodic = [sp.Eq(V.NatMod(n, 5), 3)]
    assert cover(_statement(var, [], sp.true), periodic).ranges == [range(0, 5)]
    # `n - 3` truncates on ℕ: not a ring operation, so no cover (the draws decide)
    assert cover(_statement(var, [], sp.true), [sp.Eq(V.NatMod(V.NatSub(n, 3), 5), 0)]) is None
    # an exponent is not read modulo 5: 2 ^ n % 5 has period 4, not 5
    assert cover(_statement(var, [], sp.true), [sp.Eq(V.NatMod(2 ** n, 5), 3)]) is None
    # the conclusion must be read through remainders too (`n ≥ 8` is not)
    assert cover(_statement(var, [], sp.true), periodic, read=[n >= 8]) is None


def test_logarithm_identities_are_exact_and_nothing_else_is_zero():
    log = sp.log
    assert log_zero(log(8) / log(4) - sp.Rational(3, 2))
    assert not log_zero(log(8) / log(4) - 1)
    assert log_zero(4 ** (log(5) / (2 * log(2))) - 5)
    assert not log_zero(4 ** (log(5) / (2 * log(2))) - 6)


def test_a_real_exponential_with_two_unknowns_is_not_claimed_solved():
    # over ℝ, 2 ^ x * 3 ^ y = 1296 is one equation in two unknowns: nothing is pinned
    x, y = sp.Symbol("x", real=True), sp.Symbol("y", real=True)
    st = _statement([Variable("x", Ty("Real"), x), Variable("y", Ty("Real"), y)],
                    [("h", sp.Eq(2 ** x * 3 ** y, 1296))], sp.Eq(x + y, 8))
    assert solve_exponentials(st) is None


def test_a_sequence_read_at_a_variable_index_is_not_unfolded():
    s, k = sp.Symbol("s"), sp.Symbol("k", integer=True, nonnegative=True)
    n = sp.Dummy("n", integer=True, nonnegative=True)
    from mirror.translate.values import NAT_DOMAIN
    rec = V.FinAll(sp.Lambda(n, sp.Eq(V.Index(s, n + 1), V.Index(s, n) + 1)), 0, NAT_DOMAIN)
    seq = Variable("s", Ty("Fun", (Ty("Nat"), Ty("Int"))), s)
    kvar = Variable("k", Ty("Nat"), k)
    assert unfold(_statement([seq, kvar], [("h", rec)], sp.Eq(V.Index(s, k), k))) is None
    done = unfold(_statement([seq], [("h", rec), ("h1", sp.Eq(V.Index(s, 0), 2))],
                             sp.Eq(V.Index(s, 3), 5)))
    assert done.statement.conclusion == sp.Eq(sp.Symbol("s_0") + 3, 5) or \
        str(done.statement.conclusion) == "Eq(s_0 + 3, 5)"


def test_a_log_ball_is_computed_at_its_precision_and_leaves_flints_alone():
    import flint

    previous = flint.ctx.prec
    try:
        flint.ctx.prec = 53
        value = log_ball(sp.log(2) * 3 - sp.log(8) + sp.Rational(1, 3), prec=200)
        assert flint.ctx.prec == 53
        # 3 log 2 - log 8 = 0 exactly: the ball is 1/3 within 200-bit rounding
        flint.ctx.prec = 240
        error = value - flint.arb(1) / 3
        assert error.contains(0)
        assert abs(error).upper() < flint.arb(2) ** -180
    finally:
        flint.ctx.prec = previous
