"""Untyped binders that are endpoints of the interval a sum ranges over
(:func:`mirror.translate.binder_types._interval_evidence` for the statement's binders,
``Inference._index_type`` for binders inside it).

``Finset.Icc a b : Finset α`` takes one type for both endpoints, and ``∑ i ∈ s, f i`` gives
``i`` the element type of ``s``: so ``n`` in ``∑ i ∈ Icc 1 n, a i`` with ``a : ℕ → ℝ`` is
natural (FormalMATH's ``theorem_proving_zh_blue_784`` had ``n`` untypeable). Only what
unification fixes counts (a written binder type, an application's domain, the other endpoint's
type): a binder typed by nothing but numerals is not defaulted to ℕ there, since the sum's own
uses may still type the interval (``∑ … = (k : ℤ)``)."""

from __future__ import annotations

from tests.mirror.twins import assert_twins

SOURCE = """
theorem icc_seq (a : ℕ → ℝ) (ha : ∀ i, a i = 2 * i) :
    ∀ n, ∑ i in Finset.Icc 1 n, a i = n * (n + 1) := by sorry
theorem icc_seq_false (a : ℕ → ℝ) (ha : ∀ i, a i = 2 * i) :
    ∀ n, ∑ i in Finset.Icc 1 n, a i = n * (n + 2) := by sorry
theorem icc_inner (a : ℕ → ℕ) (ha : ∀ i, a i = 2 * i - 1) :
    ¬ ∃ n, ∑ i in Finset.Icc 1 n, a i = 50 := by sorry
theorem icc_inner_false (a : ℕ → ℕ) (ha : ∀ i, a i = 2 * i - 1) :
    ¬ ∃ n, ∑ i in Finset.Icc 1 n, a i = 49 := by sorry
theorem icc_other_end (m : ℤ) : ∀ n, ∑ i in Finset.Icc m n, (1 : ℤ) = max (n + 1 - m) 0 := by sorry
theorem icc_other_end_false (m : ℤ) : ∀ n, ∑ i in Finset.Icc m n, (1 : ℤ) = n + 1 - m := by sorry
theorem outside_scope (a : ℝ) (h : ∃ ε, a = ε + 1) : ε = a - 1 := by sorry
theorem icc_numerals_only : ∃ n, ∑ i in Finset.Icc 1 n, (2 * i - 1) = 49 := by sorry
"""


def test_an_interval_endpoint_takes_the_sum_binders_type(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    assert_twins(rows, ("icc_seq", "icc_inner", "icc_other_end"))
    # n = 7: 1 + 3 + … + 13 = 49, a checked witness of the ∃ under the negation
    assert rows["icc_inner_false"].counterexample is not None


def test_numerals_alone_do_not_type_an_endpoint(lean_verdicts):
    row = lean_verdicts(SOURCE)["icc_numerals_only"]
    assert row.mirror_status == "untranslatable", row.reason
    assert "cannot infer the type of n" in row.reason, row.reason


def test_a_free_name_bound_elsewhere_is_not_advised_to_be_bound(lean_verdicts):
    # FormalMATH's hardmath_188: the conclusion's ε is outside the ∃'s scope (Lean auto-binds
    # it); the row said "bind ε in the project", which is no fix
    row = lean_verdicts(SOURCE)["outside_scope"]
    assert row.mirror_status == "untranslatable", row.reason
    assert "binds a variable of that name elsewhere" in row.reason, row.reason
    assert "bind it in the project" not in row.reason
