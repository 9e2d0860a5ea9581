"""Arrays read only at numeral indices (:func:`mirror.sample.recurrences._entries`): each entry
read becomes a scalar, so the equation hypotheses over them are solved exactly instead of
rejecting every draw. ``arr_linear`` is FormalMATH's ``aime_all_1989_8`` (3 linear equations
in 7 entries: its false twin needs the linear split of :mod:`mirror.sample.parametric`, 4
entries drawn and 3 solved), ``seq_cubes`` miniF2F's ``amc12a_2020_p7``. Before, each row was
inconclusive (every draw rejected)."""

from __future__ import annotations

from tests.mirror.twins import assert_twins

_LINEAR = """(x : Fin 7 → ℝ)
    (h₁ : x 0 + 4 * x 1 + 9 * x 2 + 16 * x 3 + 25 * x 4 + 36 * x 5 + 49 * x 6 = 1)
    (h₂ : 4 * x 0 + 9 * x 1 + 16 * x 2 + 25 * x 3 + 36 * x 4 + 49 * x 5 + 64 * x 6 = 12)
    (h₃ : 9 * x 0 + 16 * x 1 + 25 * x 2 + 36 * x 3 + 49 * x 4 + 64 * x 5 + 81 * x 6 = 123) :
    16 * x 0 + 25 * x 1 + 36 * x 2 + 49 * x 3 + 64 * x 4 + 81 * x 5 + 100 * x 6"""

SOURCE = f"""
theorem arr_linear {_LINEAR} = 334 := by sorry
theorem arr_linear_false {_LINEAR} = 333 := by sorry
theorem seq_cubes (a : ℕ → ℕ) (h₀ : (a 0) ^ 3 = 1) (h₁ : (a 1) ^ 3 = 8) (h₂ : (a 2) ^ 3 = 27) :
    ∑ k ∈ Finset.range 3, a k = 6 := by sorry
theorem seq_cubes_false (a : ℕ → ℕ) (h₀ : (a 0) ^ 3 = 1) (h₁ : (a 1) ^ 3 = 8)
    (h₂ : (a 2) ^ 3 = 27) : ∑ k ∈ Finset.range 3, a k = 7 := by sorry
theorem seq_gap (a : ℕ → ℤ) (h₀ : a 2 = 1) (h₁ : a 5 + a 2 = 8) : a 5 = 7 := by sorry
theorem seq_gap_false (a : ℕ → ℤ) (h₀ : a 2 = 1) (h₁ : a 5 + a 2 = 8) : a 5 = 8 := by sorry
theorem seq_variable_index (a : ℕ → ℤ) (n : ℕ) (h₀ : a n = 1) : a n + a n = 2 := by sorry
"""

PAIRS = ("arr_linear", "seq_cubes", "seq_gap")


def test_entries_read_at_numerals_are_solved_as_scalars(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    assert_twins(rows, PAIRS)
    for name in PAIRS:
        assert rows[name].method.startswith("read the arrays at their entries"), rows[name].method


def test_their_false_twins_are_refuted_at_a_checked_point(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    for name in PAIRS:
        row = rows[f"{name}_false"]
        assert row.certificate["checked"].startswith("accepted"), row.certificate["checked"]
    # an entry the statement does not read is shown as 0 (a 0, a 1, a 3, a 4 here)
    assert rows["seq_gap_false"].counterexample["a"] == [0, 0, 1, 0, 0, 7]
    assert len(rows["arr_linear_false"].counterexample["x"]) == 7


def test_a_read_at_a_variable_index_keeps_the_array(lean_verdicts):
    row = lean_verdicts(SOURCE)["seq_variable_index"]
    assert "read the arrays at their entries" not in (row.method or ""), row.method
    assert row.mirror_status != "refuted", row.reason
