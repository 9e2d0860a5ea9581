"""Types, not defaults (issue 19, item 4): every binder and numeral takes the type Lean's
elaboration gives it, or the statement is untranslatable with the reason — end to end,
through the scanner and the pipeline, with the statements as the issue writes them.
"""

from __future__ import annotations

import pytest

SOURCE = """
noncomputable def softmax {n : ℕ} (x : Fin n → ℝ) (i : Fin n) : ℝ :=
  Real.exp (x i) / ∑ j, Real.exp (x j)

/-- True: the binder `i` is untyped, as Lean code writes it; `softmax x i` makes it `Fin n`
(it was summed over ℕ 0…15 wrapped mod n, and "refuted" at `n = 1, x = [0]`). -/
theorem softmax_sum (n : ℕ) (hn : 0 < n) (x : Fin n → ℝ) : ∑ i, softmax x i = 1 := by
  sorry

noncomputable def mean {n : ℕ} (x : Fin n → ℝ) : ℝ := (∑ j, x j) / n

noncomputable def layerNorm {n : ℕ} (eps : ℝ) (x : Fin n → ℝ) (i : Fin n) : ℝ :=
  (x i - mean x) / Real.sqrt ((∑ j, (x j - mean x) ^ 2) / n + eps)

/-- True: the normalized entries are centred. -/
theorem layerNorm_sum (n : ℕ) (eps : ℝ) (x : Fin n → ℝ) : ∑ i, layerNorm eps x i = 0 := by
  sorry

/-- True: `1 : Matrix (Fin n) (Fin n) ℝ` is the identity, zero off the diagonal (the scalar
1 made it `1 - A i j`). -/
theorem one_sub_offdiag (n : ℕ) (A : Matrix (Fin n) (Fin n) ℝ) (i j : Fin n) (hij : i ≠ j) :
    (1 - A) i j = -A i j := by
  sorry

/-- True: on the diagonal the identity's entry is 1. -/
theorem one_sub_diag (n : ℕ) (A : Matrix (Fin n) (Fin n) ℝ) (i : Fin n) :
    (1 - A) i i = 1 - A i i := by
  sorry

/-- False: the second `x` is a new variable, free of `h`. -/
theorem shadowed_real (x : ℝ) (h : x = 1) (x : ℝ) : x = 1 := by
  sorry

/-- False: the conclusion's `n` is not the hypothesis's (and `0` makes it ℕ). -/
theorem shadowed_nat (n : ℕ) (h : n = 0) : ∀ n, n = 0 := by
  sorry

/-- True: the shadowing binder has its own hypothesis. -/
theorem shadowed_true (x : ℝ) (h : x = 1) (x : ℝ) (h' : x = 2) : x = 2 := by
  sorry

/-- Nothing fixes the type of `i` (Lean would not elaborate it either). -/
theorem unknown_index (c : ℝ) : ∑ i, c = c := by
  sorry
"""


@pytest.fixture(scope="module")
def verdicts(lean_verdicts):
    return lean_verdicts(SOURCE)


def _row(verdicts, name):
    result = verdicts[name]
    return result.mirror_status, result.reason, result.counterexample


@pytest.mark.parametrize("name", ["softmax_sum", "layerNorm_sum", "one_sub_offdiag",
                                  "one_sub_diag", "shadowed_true"])
def test_true_statements_are_not_refuted(verdicts, name):
    status, reason, counterexample = _row(verdicts, name)
    assert status in ("symbolic", "certified", "tested"), (status, reason, counterexample)


@pytest.mark.parametrize("name, shadowed", [("shadowed_real", "x✝"), ("shadowed_nat", "n✝")])
def test_a_shadowed_binder_is_its_own_variable(verdicts, name, shadowed):
    status, reason, counterexample = _row(verdicts, name)
    assert status == "refuted", (status, reason)
    # the counterexample names both, the shadowed one as Lean shows it; they differ
    assert set(counterexample) == {shadowed, shadowed[0]}
    assert counterexample[shadowed] != counterexample[shadowed[0]]


def test_a_type_nothing_fixes_is_untranslatable_with_the_reason(verdicts):
    status, reason, _ = _row(verdicts, "unknown_index")
    assert status == "untranslatable"
    assert "cannot infer the type of i" in reason
