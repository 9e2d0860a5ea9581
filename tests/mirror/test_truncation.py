"""Truncation is never silent: a quantifier over ℕ seen on the sampled prefix decides only in
its polarity (issue 19, item 3), end to end through the scanner and the pipeline.

Each statement here is true unless its docstring says otherwise; the prefix of ℕ the runtime
sees is ``[0, 16)``. The statements whose truth lies beyond the prefix were "refuted" before
``Truth.known`` existed; now no refutation rests on a value the prefix does not decide.
"""

from __future__ import annotations

import pytest

SOURCE = """
/-- True: `S = {20, 21, 22}`. On `[0, 16)` the hypothesis holds for `S = ∅` too (issue 19). -/
theorem hyp_forall_card (S : Finset ℕ) (h : ∀ n : ℕ, n ∈ S ↔ 20 ≤ n ∧ n < 23) :
    S.card = 3 := by
  sorry

/-- False: `n = 10` fails, inside the prefix: a failing instance of a ∀ in the conclusion. -/
theorem concl_forall_fails (m : ℕ) : m = m ∧ ∀ n : ℕ, n < 10 := by
  sorry

/-- True: `n = 3` is a witness inside the prefix. -/
theorem concl_exists_witness (m : ℕ) : m = m ∧ ∃ n : ℕ, n * n = 9 := by
  sorry

/-- True: the witnesses lie beyond the prefix; none seen is no refutation. -/
theorem concl_exists_beyond (m : ℕ) : m = m ∧ ∃ n : ℕ, 20 < n := by
  sorry

/-- True: `¬` flips the polarity, so the inner ∀ holding on the prefix decides nothing. -/
theorem not_forall_beyond (m : ℕ) : m = m ∧ ¬ ∀ n : ℕ, n < 20 := by
  sorry

/-- True (the premise is false at `n = 20`): the premise of `→` is negative. -/
theorem imp_premise_beyond (x : ℕ) : (∀ n : ℕ, n < 20) → x = 7 := by
  sorry

/-- True (`False ↔ False`): both sides of `↔` have both polarities. -/
theorem iff_beyond (x : ℕ) : (∀ n : ℕ, n < 20) ↔ x = x + 1 := by
  sorry

/-- True (vacuously: the hypothesis fails at `n = 20`): a ∀ inside a hypothesis's `∧`. -/
theorem and_hyp_beyond (x : ℕ) (h : x = 1 ∧ ∀ n : ℕ, n < 20) : x = 2 := by
  sorry

/-- True (`n = 21`): an ∃ inside the conclusion's `∨`. -/
theorem or_concl_beyond (x : ℕ) : x = 1000 ∨ ∃ n : ℕ, 20 < n := by
  sorry

/-- False at `x = 4` (`n = 2`): a witness of an ∃ in a hypothesis is known, and a refutation
rests on it. -/
theorem exists_hyp_refutes (x : ℕ) (h : ∃ n : ℕ, n + n = x) : x < 3 := by
  sorry

/-- False (`x = 0`, `n = 21`): a hypothesis `∃ n, …` is opened into a variable `n` (round 25),
so no witness has to lie in the prefix. -/
theorem exists_hyp_beyond (x : ℕ) (h : ∃ n : ℕ, 20 < n ∧ x = 0) : x = 1 := by
  sorry

/-- False (`x = 0`, `n = 21`), but no witness lies in the prefix, and the ∃ stays truncated
(inside `∨` it is not opened): an ∃ in a hypothesis with no witness seen is not known false,
so those draws are not counted, and the hypotheses are never called contradictory. -/
theorem exists_hyp_or_beyond (x : ℕ) (h : (∃ n : ℕ, 20 < n ∧ x = 0) ∨ x = 1) : x = 1 := by
  sorry
"""

NOT_REFUTED = ("symbolic", "tested", "inconclusive")


@pytest.fixture(scope="module")
def verdicts(lean_verdicts):
    return lean_verdicts(SOURCE)


def _status(verdicts, name):
    result = verdicts[name]
    return result.mirror_status, result.reason, result.counterexample


@pytest.mark.parametrize("name", [
    "hyp_forall_card", "concl_exists_beyond", "not_forall_beyond", "imp_premise_beyond",
    "iff_beyond", "and_hyp_beyond", "or_concl_beyond",
])
def test_a_value_the_prefix_does_not_decide_refutes_nothing(verdicts, name):
    status, reason, counterexample = _status(verdicts, name)
    assert status in NOT_REFUTED, (status, reason, counterexample)


def test_a_membership_condition_that_bounds_its_index_gives_the_whole_set(verdicts):
    # `n < 23` bounds every member: the set {20, 21, 22} is computed completely (nothing is
    # truncated), so the true card is decided (round 20: before, it stayed inconclusive)
    status, reason, _ = _status(verdicts, "hyp_forall_card")
    assert status == "symbolic", (status, reason)


@pytest.mark.parametrize("name", ["concl_forall_fails", "exists_hyp_refutes"])
def test_what_the_prefix_decides_still_refutes(verdicts, name):
    status, reason, counterexample = _status(verdicts, name)
    assert status == "refuted", (status, reason)
    assert counterexample is not None


def test_a_witness_in_the_prefix_passes(verdicts):
    assert _status(verdicts, "concl_exists_witness")[0] in ("symbolic", "tested")


def test_no_witness_seen_is_neither_a_refutation_nor_a_contradiction(verdicts):
    status, reason, _ = _status(verdicts, "exists_hyp_or_beyond")
    assert status in NOT_REFUTED and status != "vacuous", (status, reason)
    assert "vacuous" not in (reason or "")


def test_an_opened_existential_hypothesis_refutes_beyond_the_prefix(verdicts):
    status, reason, counterexample = _status(verdicts, "exists_hyp_beyond")
    assert status == "refuted", (status, reason)
    assert counterexample["x"] == 0 and counterexample["n"] > 20, counterexample
