"""Issue 19's first look (``tests/corpus/first_look_cases.jsonl``), areas "types" and
"evaluate (NumPy runtime)": proved Mathlib statements, as Mathlib writes them with their section
variables, must be neither refuted nor an error.

- ``div_pos`` was refuted at ``G₀ := ℤ`` and the floor lemmas crashed at a matrix carrier: an
  anonymous instance binder of the statement (``[PosMulStrictMono G₀]``, ``[n.AtLeastTwo]``)
  hid every anonymous section instance, so the type parameter had (almost) no classes.
- ``zpow_pos`` / ``Nat.zpow_pos_of_pos`` raised NumPy's "Integers to negative integer powers
  are not allowed": the NumPy runtime had only the monoid power.
"""

from __future__ import annotations

import pytest

SOURCE = """
section GroupWithZero
variable {G₀ : Type*} [GroupWithZero G₀] [PartialOrder G₀] [ZeroLEOneClass G₀]
  [PosMulReflectLT G₀] {a b c : G₀}

lemma div_pos [PosMulStrictMono G₀] (ha : 0 < a) (hb : 0 < b) : 0 < a / b := by
  rw [div_eq_mul_inv]; exact mul_pos ha (inv_pos.2 hb)

lemma zpow_pos [PosMulStrictMono G₀] (ha : 0 < a) : ∀ n : ℤ, 0 < a ^ n
  | (n : ℕ) => by rw [zpow_natCast]; exact pow_pos ha _
  |-(n + 1 : ℕ) => by rw [zpow_neg, inv_pos, zpow_natCast]; exact pow_pos ha _

end GroupWithZero

section Floor
variable {α : Type*} [LinearOrderedRing α] [FloorRing α]

theorem floor_add_ofNat (a : α) (n : ℕ) [n.AtLeastTwo] :
    ⌊a + (no_index (OfNat.ofNat n))⌋ = ⌊a⌋ + OfNat.ofNat n :=
  floor_add_natCast a n

theorem round_add_ofNat (x : α) (n : ℕ) [n.AtLeastTwo] :
    round (x + (no_index (OfNat.ofNat n))) = round x + OfNat.ofNat n :=
  round_add_natCast x n

end Floor

section Power
variable {α : Type*} [LinearOrderedSemifield α]

theorem zpow_pos_of_pos {a : ℕ} (h : 0 < a) (n : ℤ) : 0 < (a : α) ^ n :=
  zpow_pos (mod_cast h) _

end Power
"""


@pytest.fixture(scope="module")
def verdicts(lean_verdicts):
    return lean_verdicts(SOURCE)


@pytest.mark.parametrize("name", ["div_pos", "zpow_pos", "floor_add_ofNat", "round_add_ofNat",
                                  "zpow_pos_of_pos"])
def test_a_proved_statement_is_neither_refuted_nor_an_error(verdicts, name):
    result = verdicts[name]
    assert result.mirror_status in ("symbolic", "tested"), (
        result.mirror_status, result.reason, result.counterexample)


def test_a_negative_integer_exponent_is_zpow_in_the_numpy_runtime():
    import numpy as np

    from mirror.evaluate.numpy_runtime import NumpyRuntime

    rt = NumpyRuntime(1, 8)
    out = rt.power(np.array([2, 0, 3, 2, 1e-300]), np.array([-2, -1, 3, 0, -2]))
    assert out.tolist() == [0.25, 0.0, 27.0, 1.0, float("inf")]
    assert rt.power(np.array([2, 3]), np.array([2, 3])).dtype.kind == "i"  # ℕ stays ℕ


MATRIX_SOURCE = """
theorem cast_sum (s : Finset ℕ) (f : ℕ → ℕ) :
    ↑(∑ x ∈ s, f x : ℕ) = ∑ x ∈ s, (f x : Matrix (Fin 2) (Fin 2) ℝ) := by
  sorry

theorem cast_is_scalar (n : ℕ) (i : Fin 2) : (n : Matrix (Fin 2) (Fin 2) ℝ) i i = n := by
  sorry

theorem cast_wrong (n : ℕ) : (n : Matrix (Fin 2) (Fin 2) ℝ) 0 1 = n := by
  sorry

theorem sum_mul_boole (s : Finset ℕ) (f : ℕ → Matrix (Fin 2) (Fin 2) ℝ) (i : ℕ) :
    ∑ j ∈ s, f j * ite (i = j) 1 0 = ite (i ∈ s) (f i) 0 := by
  sorry

def Q (n : ℕ) : Prop := 0 < n

theorem prop_in_arithmetic (n : ℕ) : 0 < Q n + 1 := by
  sorry
"""


@pytest.fixture(scope="module")
def matrix_verdicts(lean_verdicts):
    return lean_verdicts(MATRIX_SOURCE)


def test_a_cast_into_a_matrix_ring_is_untranslatable_naming_it(matrix_verdicts):
    # Mathlib's `Nat.cast_sum` at β := Matrix (Fin 2) (Fin 2) ℝ: a broadcast ValueError before
    for name in ("cast_sum", "cast_is_scalar", "cast_wrong"):
        result = matrix_verdicts[name]
        assert result.mirror_status == "untranslatable", (name, result.reason)
        assert "coercion from ℕ to Matrix" in result.reason or "coercion from Nat" in result.reason


@pytest.mark.parametrize("name", ["sum_mul_boole", "prop_in_arithmetic"])
def test_an_operand_of_the_wrong_kind_is_untranslatable_not_a_type_error(matrix_verdicts, name):
    # `sum_mul_boole` (Mathlib's, at α := Matrix): TypeError 'NoneType' * 'LeanIte' before;
    # a Prop in arithmetic (`primorial_pos`'s unparsed `n#`): TypeError 'StrictLessThan' + 'One'
    result = matrix_verdicts[name]
    assert result.mirror_status in ("untranslatable", "symbolic", "tested"), (
        result.mirror_status, result.reason)
    assert "TypeError" not in (result.reason or "")
