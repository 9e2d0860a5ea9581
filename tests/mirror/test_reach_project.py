"""The reach fixture project end to end (issue "Reach"): every construct with a true statement
tested, symbolic or certified and a false twin refuted; the certified suite and its mutants."""

from __future__ import annotations

import pytest

from tests.mirror.conftest import PROJECTS, results_by_name

REACH = PROJECTS / "reach"
#: Statements whose verdict is settled before any draw, or by the draws.
EXPECTED = {
    # solve before you sample (Reach/Solve.lean)
    "linear_system": "symbolic", "linear_system_false": "refuted",
    "linear_rational": "symbolic", "linear_rational_false": "refuted",
    "quadratic_roots": "symbolic", "quadratic_roots_false": "refuted",
    "irrational_roots": "symbolic", "irrational_roots_false": "refuted",
    "nat_square": "symbolic", "int_square_false": "refuted",
    "division_equation": "symbolic", "division_equation_false": "refuted",
    "functional_definition": "symbolic", "functional_definition_false": "refuted",
    "functional_value": "symbolic", "functional_value_false": "refuted",
    "mod_vacuous": "vacuous", "no_real_root": "vacuous", "inconsistent_system": "vacuous",
    "entry_bounds": "tested", "entry_bounds_false": "refuted",
    "partly_solved": "tested", "partly_solved_false": "refuted",
    "bounded_modular": "symbolic", "bounded_modular_false": "refuted",
    "bounded_vacuous": "vacuous",
    "linear_parametrized": "tested", "linear_parametrized_false": "refuted",
    "power_tower": "inconclusive", "box_vacuous": "vacuous",
    # number-theory vocabulary (Reach/NumberTheory.lean)
    "dvd_mul_right'": "tested", "dvd_add_false": "refuted",
    "zero_dvd_eq": "symbolic", "seven_dvd_false": "refuted", "seven_not_dvd": "tested",
    "prime_two'": "symbolic", "prime_nine": "refuted",
    "prime_two_le": "symbolic", "prime_ge_five": "refuted",
    "nat_modeq_add": "tested", "nat_modeq_succ_false": "refuted",
    "int_modeq_add_mul": "tested",
    "coprime_one": "tested", "coprime_two_false": "refuted",
    "even_mul_succ": "symbolic", "odd_mul_succ_false": "refuted",
    "sum_divisors_six": "symbolic", "sum_divisors_six_false": "refuted",
    "card_divisors_twelve": "symbolic",
    "sum_prime_factors_sixty": "symbolic", "sum_prime_factors_twelve_false": "refuted",
    "self_le_factorial'": "tested", "factorial_lt_pow_false": "refuted",
    # quantifiers over ℝ inside a conclusion (Reach/Quantifiers.lean)
    "and_forall": "tested", "and_forall_false": "refuted",
    "forall_icc": "tested", "forall_icc_false": "refuted",
    "forall_premises": "tested", "forall_premises_false": "refuted",
    # ∃ over ℝ/ℚ/ℤ among candidate witnesses (Reach/Witnesses.lean)
    "exists_linear": "tested", "exists_inverse": "tested", "exists_between": "tested",
    "exists_int": "tested", "and_exists_rat": "tested", "exists_hyp_false": "refuted",
    "not_exists_int_false": "refuted", "not_exists_between_false": "refuted",
    "exists_odd_double_false": "inconclusive",
    # order vocabulary (Reach/Orders.lean)
    "monotone_strict_false": "refuted", "strictMono_square": "tested",
    "monotone_false": "refuted", "strictAnti_neg'": "tested", "antitone_sq_false": "refuted",
    "monotoneOn_sq": "tested", "monotoneOn_sq_false": "refuted",
    # tight bounds decided by monotonicity, a bounded ∀ x ∈ Set.Icc (Reach/Certified.lean)
    "one_le_exp_tight": "certified", "sq_le_self_icc": "certified",
}


@pytest.fixture(scope="module")
def reach():
    return results_by_name(REACH)


def _module(results, module: str) -> dict:
    return {name: r for name, r in results.items() if r.module == f"Reach.{module}"}


@pytest.mark.parametrize("name, status", sorted(EXPECTED.items()))
def test_each_construct_has_its_verdict(reach, name, status):
    row = reach[name]
    assert row.mirror_status == status, (row.mirror_status, row.reason, row.method)


def test_the_certified_suite_is_certified_with_a_checked_cover(reach):
    suite = _module(reach, "Certified")
    certified = {n: r for n, r in suite.items() if r.mirror_status == "certified"}
    assert len(certified) >= 30
    # the closed constants (π, e, log 2, √2) are decided by sympy at translation
    assert {r.mirror_status for r in suite.values()} == {"certified", "symbolic"}
    for row in certified.values():
        assert row.certificate["kind"] == "box-cover" and row.certificate["version"] == 1
        assert "certificate re-checked" in row.method
        assert "weaker than a kernel proof" in row.method


def test_no_mutant_of_the_suite_is_certified_and_each_is_refuted(reach):
    mutants = _module(reach, "Mutants")
    assert len(mutants) >= 10
    statuses = {n: r.mirror_status for n, r in mutants.items()}
    assert "certified" not in statuses.values(), statuses  # no false statement is certified
    # refuted by sampling: a false mutant may escape a short run (then it is tested, a miss)
    assert sum(s == "refuted" for s in statuses.values()) >= len(statuses) - 1, statuses


def test_vacuous_rows_carry_their_proof(reach):
    row = reach["mod_vacuous"]
    assert "remainder modulo 2" in row.reason and "Nat.mod_lt" in row.reason
    assert row.certificate["kind"] == "no-solution"
    assert "no solution" in reach["inconsistent_system"].reason


def test_solved_rows_say_how_their_verdict_was_reached(reach):
    assert "solved the hypotheses exactly" in reach["linear_system"].method
    assert reach["linear_system_false"].counterexample == {"x": 6, "y": 4}
    assert reach["linear_rational_false"].counterexample == {"x": "1/3"}


def test_a_set_given_by_membership_with_a_bounded_index_is_computed_completely(reach):
    # `n < 100` bounds every member: {1, 4, …, 81} is the whole set and its card is decided
    # (round 20: before, the set was computed on a range and marked truncated)
    row = reach["membership_set"]
    assert row.mirror_status == "symbolic", (row.reason, row.method)


def test_a_partly_solved_statement_draws_its_solved_variables_among_the_solutions(reach):
    # x is solved exactly at each drawn y (mirror/sample/parametric.py): every point is an
    # exact solution of the equations, so no draw is rejected.
    row = reach["partly_solved"]
    assert "solved x exactly from the equations" in row.method
    assert "drawn value(s) of y" in row.method
    assert row.rejected == 0 and row.examples >= 5
    assert reach["partly_solved_false"].counterexample["x"] == 3


def test_an_under_determined_linear_system_computes_its_pivots(reach):
    row = reach["linear_parametrized"]
    assert "solved y, z exactly from the equations" in row.method
    assert "drawn value(s) of x" in row.method
    assert row.rejected == 0 and row.examples >= 5


def test_entry_bounds_are_drawn_inside(reach):
    row = reach["entry_bounds"]
    assert row.rejected == 0 and row.examples > 0


def test_no_row_of_the_project_is_an_error(reach):
    assert {n: r.reason for n, r in reach.items() if r.mirror_status == "error"} == {}
