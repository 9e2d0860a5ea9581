"""Certificate version 2: refutations at ``⊤ : ℝ≥0∞``, refutations found before any draw
(box search, solved hypotheses, enumerated integers), Lean's integer operations, finite sums,
products and bounded quantifiers, propositions read from data (``Option``), arrays (lists, finsets, functions) and recursive
definitions (evaluated by the checker from their bodies) and matrices are certified,
and the checker accepts them; tampering with the new fields is rejected."""

from __future__ import annotations

import copy

import pytest

from bridge.scanner import scan_project
from mirror.judge.certificate import TOP_TEXT, VERSION
from mirror.product.pipeline import CheckSettings, build_mirrors, check_mirror
from mirror.product.replay import check_certificate
from tests.judge.conftest import planted_project

SOURCE = """
theorem enn_add_sub_false (a b : ℝ≥0∞) : a + b - b = a := by sorry
theorem enn_mul_inv_false (a : ℝ≥0∞) (h : a ≠ 0) : a * a⁻¹ = 1 := by sorry
theorem enn_min_le_false (a b : ℝ≥0∞) : min a b < a + 1 := by sorry
theorem exp_lt_box_mutant (x : ℝ) (h₀ : 0 ≤ x) (h₁ : x ≤ 1) : Real.exp x < 2.7182818284 := by sorry
theorem linear_system_false (x y : ℝ) (h₀ : x + y = 10) (h₁ : x - y = 2) : x = 5 := by sorry
theorem nat_sub_add_junk (a b : ℕ) : a - b + b = a := by sorry
theorem dvd_add_false (a b : ℕ) : a ∣ a + b := by sorry
theorem nat_div_false (a : ℕ) : a / 2 * 2 = a := by sorry
theorem sum_range_false (n : ℕ) : ∑ i ∈ Finset.range n, i < n + 1 := by sorry
theorem forall_lt_false (n : ℕ) (h : ∀ i < n, i < 5) : n < 3 := by sorry
theorem option_getD_false (o : Option ℕ) : o.getD 0 = 0 := by sorry
theorem prod_range_false (n : ℕ) : ∏ i ∈ Finset.range n, (i + 1) ≤ n + 1 := by sorry
theorem list_sum_le_length (l : List ℕ) : l.sum ≤ l.length := by sorry
theorem finset_card_pos (s : Finset ℕ) : 0 < s.card := by sorry
theorem fun_sum_nonneg : ∀ f : ℕ → ℝ, ∀ n, 0 ≤ ∑ i ∈ Finset.range n, f i := by sorry
theorem vec_false (x : Fin 3 → ℝ) : x 0 ≤ x 1 := by sorry

def bits : ℕ → ℕ
  | n => if n < 2 then 1 else bits (n / 2) + 1
termination_by n => n
decreasing_by omega

theorem bits_le_false (n : ℕ) : bits n < n := by sorry

mutual
def isEven : ℕ → Bool
  | 0 => true
  | n + 1 => isOdd n
def isOdd : ℕ → Bool
  | 0 => false
  | n + 1 => isEven n
end

theorem isEven_false (n : ℕ) : isEven (n + 1) = isEven n := by sorry
theorem mat_mul_comm_false (a b : Matrix (Fin 2) (Fin 2) ℝ) : a * b = b * a := by sorry
theorem mat_one_sub_false (a : Matrix (Fin 2) (Fin 2) ℝ) : (1 - a) 0 1 = 0 := by sorry
"""


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    project = planted_project(tmp_path_factory.mktemp("cert2"), SOURCE)
    mirrors = {m.name.rsplit(".", 1)[-1]: m for m in build_mirrors(scan_project(project))}
    settings = CheckSettings(max_examples=60, sweep=128)
    return {name: (m, check_mirror(m, settings)) for name, m in mirrors.items()}


@pytest.mark.parametrize("name", [
    "enn_add_sub_false", "enn_mul_inv_false", "enn_min_le_false", "exp_lt_box_mutant",
    "linear_system_false", "nat_sub_add_junk", "dvd_add_false", "nat_div_false",
    "sum_range_false", "forall_lt_false", "option_getD_false", "prod_range_false",
    "list_sum_le_length", "finset_card_pos", "fun_sum_nonneg", "vec_false", "bits_le_false",
    "isEven_false", "mat_mul_comm_false", "mat_one_sub_false"])
def test_the_refutation_is_certified_and_accepted(rows, name):
    mirror, row = rows[name]
    assert row.mirror_status == "refuted", row.reason
    assert row.certificate is not None and row.certificate["version"] == VERSION
    assert row.certificate["checked"].startswith("accepted"), row.certificate["checked"]
    assert check_certificate(mirror, row.certificate).accepted


def test_a_top_draw_is_written_exactly(rows):
    _, row = rows["enn_mul_inv_false"]
    assert row.certificate["draw"] == {"a": TOP_TEXT}
    relation = row.certificate["conclusion"]["relations"][0]
    assert relation["difference"] == {"top": "left"} or "mid" in relation["difference"]


def test_a_box_refutation_records_its_exact_point(rows):
    _, row = rows["exp_lt_box_mutant"]
    assert "exact point" in row.reason
    assert [h["decision"] for h in row.certificate["hypotheses"]] == ["true", "true"]
    assert row.certificate["conclusion"]["decision"] == "false"


def _tampered(certificate, change):
    copied = copy.deepcopy(certificate)
    change(copied)
    return copied


def _top_to_zero(c):
    c["draw"]["a"] = "0"  # the hypothesis a ≠ 0 fails


def _top_to_one(c):
    c["draw"]["a"] = "1"  # 1 * 1⁻¹ = 1 holds: no refutation


def _version_one(c):
    c["version"] = 1  # version 1 has no ⊤


def _top_side(c):
    for relation in c["conclusion"]["relations"]:
        if "top" in (relation.get("difference") or {}):
            relation["difference"] = {"top": "right" if relation["difference"]["top"] != "right"
                                      else "left"}


@pytest.mark.parametrize("change", [_top_to_zero, _top_to_one, _version_one])
def test_tampering_with_a_top_draw_is_rejected(rows, change):
    mirror, row = rows["enn_mul_inv_false"]
    assert not check_certificate(mirror, _tampered(row.certificate, change)).accepted


def test_tampering_with_the_side_that_is_top_is_rejected(rows):
    mirror, row = rows["enn_min_le_false"]
    tampered = _tampered(row.certificate, _top_side)
    assert tampered != row.certificate, row.certificate
    verdict = check_certificate(mirror, tampered)
    assert not verdict.accepted and "top" in verdict.reason


def test_tampering_with_a_box_point_is_rejected(rows):
    mirror, row = rows["exp_lt_box_mutant"]
    tampered = _tampered(row.certificate, lambda c: c["draw"].update(x="2"))  # outside h₁
    assert not check_certificate(mirror, tampered).accepted


# ---- the checker on its own: arrays and truncation ------------------------------------------

def _statement(hypotheses, conclusion, *symbols):
    from types import SimpleNamespace

    variables = [SimpleNamespace(name=s.name, symbol=s) for s in symbols]
    return SimpleNamespace(variables=variables, definitions=[], conclusion=conclusion,
                           hypotheses=[(f"h{i}", h) for i, h in enumerate(hypotheses)])


def test_a_quantifier_truncated_at_the_sampling_bound_is_never_decided():
    """``∀ i, 0 ≤ f i`` over ℕ is a ∀ up to the runtime's bound: true on the drawn prefix
    says nothing beyond it, so the checker cannot accept a refutation resting on it."""
    import sympy as sp

    from mirror.judge.checker import CheckerError, evaluate_parts
    from mirror.translate.big_operators import FinAll
    from mirror.translate.vocabulary import Index

    f, i, bound = sp.Symbol("f"), sp.Symbol("_i", integer=True), sp.Symbol("_NATDOM")
    hypothesis = FinAll(sp.Lambda(i, sp.Le(0, Index(f, i))), 0, bound)
    statement = _statement([hypothesis], sp.Lt(Index(f, 0), 1), f)
    with pytest.raises(CheckerError, match="_NATDOM"):
        evaluate_parts(statement, {"f": (sp.Integer(1),) * 16})


def test_an_index_beyond_the_drawn_prefix_is_undecided():
    import sympy as sp

    from mirror.judge.checker import evaluate_parts
    from mirror.translate.vocabulary import Index

    f = sp.Symbol("f")
    statement = _statement([], sp.Lt(Index(f, 20), 0), f)
    parts = evaluate_parts(statement, {"f": (sp.Integer(1),) * 16})
    assert parts["conclusion"][0] is None


def test_tampering_with_an_array_entry_is_rejected(rows):
    mirror, row = rows["vec_false"]
    assert row.certificate["checked"].startswith("accepted")
    tampered = _tampered(row.certificate, lambda c: c["draw"].update(x=["0", "1", "0"]))
    assert not check_certificate(mirror, tampered).accepted


def test_tampering_with_a_matrix_entry_is_rejected(rows):
    mirror, row = rows["mat_mul_comm_false"]
    commuting = {"a": [["1", "0"], ["0", "1"]], "b": row.certificate["draw"]["b"]}
    tampered = _tampered(row.certificate, lambda c: c["draw"].update(commuting))
    verdict = check_certificate(mirror, tampered)
    assert not verdict.accepted, verdict.reason


def test_a_truncated_quantifier_decides_only_in_the_polarity_its_prefix_decides():
    """The translator's own cut (``NAT_DOMAIN``): a witness makes an ∃ true and a failing
    instance makes a ∀ false (the witness-search refutations of ``Reach/Witnesses.lean``); a ∀
    holding on the prefix or an ∃ without a witness there is undecided."""
    import sympy as sp

    from mirror.judge.checker import proposition
    from mirror.translate.big_operators import FinAll, FinExists
    from mirror.translate.values import NAT_DOMAIN

    i = sp.Symbol("_i", integer=True)
    holds_on_prefix = FinAll(sp.Lambda(i, sp.Le(0, i)), 0, NAT_DOMAIN)
    fails_at_5 = FinAll(sp.Lambda(i, sp.Lt(i, 5)), 0, NAT_DOMAIN)
    witness_7 = FinExists(sp.Lambda(i, sp.Eq(i, 7)), 0, NAT_DOMAIN)
    witness_far = FinExists(sp.Lambda(i, sp.Eq(i, 10**6)), 0, NAT_DOMAIN)
    assert proposition(holds_on_prefix, {}, []) is None
    assert proposition(fails_at_5, {}, []) is False
    assert proposition(witness_7, {}, []) is True
    assert proposition(witness_far, {}, []) is None
    assert proposition(sp.Not(witness_7), {}, []) is False
