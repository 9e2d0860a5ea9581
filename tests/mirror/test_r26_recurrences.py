"""Recurrences whose step reads ``s (n - j)`` below their guard, or above a top term
``s (n + k)`` with ``k > 0`` (:mod:`mirror.sample.recurrences`).

``∀ n ≥ 2, a (n + 1) = a n + a (n - 1)`` raised a TypeError inside the unfolder (the read
``a (n - 1)`` re-derived after shifting the index had no offset): the row was ``error``.
``∀ n, x (n + 1) = 2 * x n - x (n - 1) + 2 ^ n`` was not unfolded at all (at ``n = 0`` Lean's
truncated ``0 - 1 = 0`` reads ``x 0``), so every draw was rejected; it is FormalMATH's
``omni_theorem_2374``, whose hypotheses have no solution: at ``n = 0`` it says ``x 1 = x 0 +
1``, so ``x 0 = 0``, and at ``n = 1`` that ``x 2 = 4``, not 2. A recurrence that would define
``s 0`` from itself (``∀ n, s n = s (n - 1) + 1``) is not unfolded.

A closed form ``∀ n > 0, f n = 2 ^ n - 1`` (FormalMATH's ``quantitative_reasoning_zh_blue_614``)
reads the sequence at a variable: it is decided at ``n = 0, 1, …`` (each instance unfolds), so
``tested`` (never more: later ``n`` are not checked), and refuted at the first ``n`` that fails.
Before, every draw was out of the drawn sequence's domain (inconclusive).

Sequences whose recurrences read each other (FormalMATH's ``omni_theorem_2844``: ``b n = b (n -
1) + 2 * g (n - 1)``, ``g n = g (n - 1) + g (n - 1)``) are computed together, index by index;
the independent checker extends them together too (every read below the index it defines).
Before, a recurrence reading a second sequence was not one, and every draw was rejected."""

from __future__ import annotations

from tests.mirror.twins import assert_twins

_SHIFTED = """(a : ℕ → ℝ) (h0 : a 1 = 1) (h1 : a 2 = 2)
    (h₂ : ∀ n ≥ 2, a (n + 1) = a n + a (n - 1))"""
_TRUNCATED = """(x : ℕ → ℤ) (h₀ : x 0 = 0) (h₂ : ∀ n, x (n + 1) = 2 * x n - x (n - 1) + 1)"""

SOURCE = f"""
theorem shifted {_SHIFTED} : a 5 = 8 := by sorry
theorem shifted_false {_SHIFTED} : a 5 = 9 := by sorry
theorem truncated {_TRUNCATED} : x 3 = 6 := by sorry
theorem truncated_false {_TRUNCATED} : x 3 = 5 := by sorry
theorem truncated_vacuous (x : ℕ → ℤ) (h₀ : x 1 = 1) (h₁ : x 2 = 2)
    (h₂ : ∀ n, x (n + 1) = 2 * x n - x (n - 1) + 2 ^ n) : x 2012 = 2 ^ 2013 - 6036 := by sorry
theorem closed_form (f : ℕ → ℤ) (hf1 : f 1 = 1) (hfn : ∀ n > 0, f (n + 1) = 2 * f n + 1) :
    ∀ n > 0, f n = 2 ^ n - 1 := by sorry
theorem closed_form_false (f : ℕ → ℤ) (hf1 : f 1 = 1)
    (hfn : ∀ n > 0, f (n + 1) = 2 * f n + 1) : ∀ n > 0, f n = 2 ^ n - 1 + n / 7 := by sorry
theorem coupled (b g : ℕ → ℕ) (hb0 : b 0 = 1) (hg0 : g 0 = 1)
    (hbn : ∀ n ≥ 1, b n = b (n - 1) + 2 * g (n - 1))
    (hgn : ∀ n ≥ 1, g n = g (n - 1) + g (n - 1)) : b 7 + g 7 = 383 := by sorry
theorem coupled_false (b g : ℕ → ℕ) (hb0 : b 0 = 1) (hg0 : g 0 = 1)
    (hbn : ∀ n ≥ 1, b n = b (n - 1) + 2 * g (n - 1))
    (hgn : ∀ n ≥ 1, g n = g (n - 1) + g (n - 1)) : b 7 + g 7 = 384 := by sorry
theorem rotation (a b : ℕ → ℝ) (h₀ : ∀ n, a (n + 1) = a n - b n)
    (h₁ : ∀ n, b (n + 1) = b n + a n) (h₂ : a 4 = -4) (h₃ : b 4 = 0) : a 0 + b 0 = 1 := by sorry
theorem rotation_false (a b : ℕ → ℝ) (h₀ : ∀ n, a (n + 1) = a n - b n)
    (h₁ : ∀ n, b (n + 1) = b n + a n) (h₂ : a 4 = -4) (h₃ : b 4 = 0) : a 0 + b 0 = 2 := by sorry
theorem half_defined (a b : ℕ → ℝ) (h₀ : ∀ n, a (n + 1) = a n + b n) (h₂ : a 0 = 0) :
    a 2 = 2 * b 0 := by sorry
theorem self_defining (s : ℕ → ℤ) (h₀ : ∀ n, s n = s (n - 1) + 1) : s 3 = 3 := by sorry
"""


def test_shifted_and_truncated_reads_unfold(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    assert_twins(rows, ("shifted", "truncated"))
    for name in ("shifted", "truncated"):
        assert rows[name].method.startswith("unfolded the recurrence exactly"), rows[name].method
    # Lean's 0 - 1 = 0: x 1 = 2 * 0 - x 0 + 1 = 1, x 2 = 2 - 0 + 1 = 3, x 3 = 6 - 1 + 1 = 6
    assert rows["truncated_false"].counterexample["x"] == [0, 1, 3, 6]
    assert rows["shifted_false"].counterexample["a"][1:] == [1, 2, 3, 5, 8]
    for name in ("shifted_false", "truncated_false"):
        checked = rows[name].certificate["checked"]
        assert checked.startswith("accepted"), checked


def test_a_truncated_read_can_prove_the_hypotheses_empty(lean_verdicts):
    row = lean_verdicts(SOURCE)["truncated_vacuous"]
    assert row.mirror_status == "vacuous", row.reason
    assert "no solution" in row.reason, row.reason


def test_a_term_defined_from_itself_is_not_unfolded(lean_verdicts):
    row = lean_verdicts(SOURCE)["self_defining"]
    assert "unfolded the recurrence" not in (row.method or ""), row.method
    assert row.mirror_status != "refuted", row.reason


def test_a_closed_form_is_decided_at_each_index(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    assert_twins(rows, ("closed_form",))
    row = rows["closed_form"]
    assert row.mirror_status == "tested", row.reason  # n past the last tried is not checked
    assert row.method.startswith("decided at n = 1 … "), row.method
    assert "not checked" in row.method, row.method
    twin = rows["closed_form_false"]  # n / 7 is 0 below 7: the first failing n is 7
    assert twin.counterexample == {"n": 7, "f": [0, 1, 3, 7, 15, 31, 63, 127]}
    assert twin.certificate["checked"].startswith("accepted"), twin.certificate["checked"]


def test_sequences_that_read_each_other_are_computed_together(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    assert_twins(rows, ("coupled", "rotation"))
    assert rows["coupled_false"].counterexample == {"b": [1, 3, 7, 15, 31, 63, 127, 255],
                                                   "g": [1, 2, 4, 8, 16, 32, 64, 128]}
    # a 0 = 1, b 0 = 0 is the only start that reaches a 4 = -4, b 4 = 0
    assert rows["rotation_false"].counterexample == {"a": [1, 1, 0, -2, -4],
                                                     "b": [0, 1, 2, 2, 0]}
    for name in ("coupled_false", "rotation_false"):
        checked = rows[name].certificate["checked"]
        assert checked.startswith("accepted"), checked


def test_a_recurrence_reading_a_free_sequence_is_not_unfolded(lean_verdicts):
    # b has no recurrence: every b n matters, so a cannot be computed from first values
    row = lean_verdicts(SOURCE)["half_defined"]
    assert "unfolded the recurrence" not in (row.method or ""), row.method
    assert row.mirror_status != "refuted", row.reason
