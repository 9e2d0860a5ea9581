"""The type of a relation between ``ZMod n``/``Fin n`` and ℕ/ℤ, and classes that tie a dropped
type parameter to a value.

Round 21's scratch batch of ``Data.ZMod.Basic`` (mathlib4 ``c46b5e46``) refuted three proved
theorems:

- ``ZMod.natAbs_mod_two (a : ℤ) : (a.natAbs : ZMod 2) = a`` at ``a = -1``: the relation was typed
  ℤ (``Fin``/``ZMod`` counted as ℕ, the smaller), where Lean's ``binrel%`` keeps the first leaf's
  ``ZMod 2`` (ℤ coerces to it by ``Int.cast``) and casts ``a`` into it;
- ``ZModModule.char_ne_one [Nontrivial G] : n ≠ 1`` and ``two_le_char`` at ``n = 1``, under
  ``variable {n : ℕ} {G : Type*} [AddCommGroup G] [Module (ZMod n) G]``: ``G`` was dropped as
  unused with its classes, and with them the constraint ``[Module (ZMod n) G] [Nontrivial G]``
  puts on ``n``.
"""

from __future__ import annotations

import pytest
import sympy as sp

from mirror.translate.types import INT, NAT, REAL, fin, numeric_max
from mirror.translate.values import Untranslatable, zmod

SOURCE = """
namespace ZMod

theorem natAbs_mod_two (a : ℤ) : (a.natAbs : ZMod 2) = a := by
  sorry

theorem natAbs_mod_three_false (a : ℤ) : (a.natAbs : ZMod 3) = a := by
  sorry

theorem nat_eq_zmod_false (k : ℕ) (z : ZMod 3) (h : k = z) : k < 3 := by
  sorry

theorem fin_lt_nat (n : ℕ) (i : Fin n) : i < n := by
  sorry

end ZMod

namespace ZModModule

variable {n : ℕ} {G : Type*} [AddCommGroup G] [Module (ZMod n) G]

theorem char_ne_one [Nontrivial G] : n ≠ 1 := by
  sorry

theorem two_le_char [NeZero n] [Nontrivial G] : 2 ≤ n := by
  sorry

theorem trivial_module_false : n ≠ 1 := by
  sorry

end ZModModule
"""


@pytest.fixture(scope="module")
def verdicts(lean_verdicts):
    return lean_verdicts(SOURCE)


def test_an_int_met_after_a_zmod_leaf_is_cast_into_it(verdicts):
    row = verdicts["natAbs_mod_two"]
    assert row.mirror_status in ("tested", "symbolic"), (row.mirror_status, row.reason,
                                                         row.counterexample)
    false = verdicts["natAbs_mod_three_false"]
    assert false.mirror_status == "refuted", (false.mirror_status, false.reason)


def test_a_nat_met_before_a_zmod_leaf_is_cast_into_it(verdicts):
    # `k = z` is `(k : ZMod 3) = z`: k = 5, z = 2 satisfies it, and 5 < 3 is false
    row = verdicts["nat_eq_zmod_false"]
    assert row.mirror_status == "refuted", (row.mirror_status, row.reason)


def test_a_symbolic_fin_against_nat_is_not_guessed(verdicts):
    # `i < n` is `↑i < n` (true) without `NeZero n`, `i < (n : Fin n) = 0` (false) with it
    row = verdicts["fin_lt_nat"]
    assert row.mirror_status == "untranslatable", (row.mirror_status, row.reason)
    assert "NeZero n" in row.reason


@pytest.mark.parametrize("name", ["char_ne_one", "two_le_char"])
def test_a_class_tying_a_dropped_parameter_to_a_value_keeps_it(verdicts, name):
    row = verdicts[name]
    assert row.mirror_status == "untranslatable", (row.mirror_status, row.counterexample)
    assert "G" in row.reason


def test_a_parameter_whose_classes_punit_satisfies_is_still_dropped(verdicts):
    # `[AddCommGroup G] [Module (ZMod n) G]` alone: G := PUnit satisfies both at every n, so
    # the statement is `n ≠ 1`, false at n = 1
    row = verdicts["trivial_module_false"]
    assert row.mirror_status == "refuted", (row.mirror_status, row.reason)


def test_binop_order_with_zmod_and_fin():
    z2 = zmod(sp.Integer(2))
    assert numeric_max(z2, INT) == fin(2) and numeric_max(z2, INT).zmod
    assert numeric_max(NAT, z2).zmod                  # no ZMod n → ℕ: ℕ is cast into ZMod
    assert numeric_max(NAT, fin(2)) == NAT            # Fin n → ℕ by its value
    assert numeric_max(fin(3), NAT) == fin(3)         # NatCast (Fin 3), NeZero 3 known
    assert numeric_max(fin(3), REAL) == REAL and numeric_max(REAL, z2) == REAL
    with pytest.raises(Untranslatable, match="Mathlib version"):
        numeric_max(INT, z2)
    with pytest.raises(Untranslatable, match="NeZero n"):
        numeric_max(fin(sp.Symbol("n")), INT)


FIRST_LOOK = """
variable {F α : Type*}

section NonAssocRing
variable [NonAssocRing α]

theorem eq_intCast [FunLike F ℤ α] [RingHomClass F ℤ α] (f : F) (n : ℤ) : f n = n := by
  sorry

end NonAssocRing

def sZMod (p : ℕ) : ℕ → ZMod (2 ^ p - 1)
  | 0 => 4
  | i + 1 => sZMod p i ^ 2 - 2

def sMod (p : ℕ) : ℕ → ℤ
  | 0 => 4 % (2 ^ p - 1)
  | i + 1 => (sMod p i ^ 2 - 2) % (2 ^ p - 1)

def lucasLehmerResidue (p : ℕ) : ZMod (2 ^ p - 1) :=
  sZMod p (p - 2)

theorem residue_eq_zero_iff_sMod_eq_zero (p : ℕ) (w : 1 < p) :
    lucasLehmerResidue p = 0 ↔ sMod p (p - 2) = 0 := by
  sorry

theorem sZMod_one_false (p : ℕ) (w : 1 < p) : sZMod p 1 = 14 := by
  sorry
"""


@pytest.fixture(scope="module")
def first_look(lean_verdicts):
    return lean_verdicts(FIRST_LOOK)


def test_a_function_class_on_a_dropped_codomain_is_not_lost(first_look):
    # Mathlib's `eq_intCast` (Data.Int.Cast.Lemmas), round 22's first look: α appears only in
    # `[FunLike F ℤ α] [RingHomClass F ℤ α]`; dropped with them, `f : F` was any carrier and
    # `f n` a row of a 2×2 matrix (refuted at F := Matrix (Fin 2) (Fin 2) ℝ)
    row = first_look["eq_intCast"]
    assert row.mirror_status == "untranslatable", (row.mirror_status, row.counterexample)


@pytest.mark.parametrize("name", ["residue_eq_zero_iff_sMod_eq_zero", "sZMod_one_false"])
def test_a_definition_at_an_unreadable_type_is_not_read_at_a_default(first_look, name):
    # Mathlib's `LucasLehmer.residue_eq_zero_iff_sMod_eq_zero`: `sZMod p : ℕ → ZMod (2 ^ p - 1)`
    # was unfolded in ℕ (refuted at p = 3: 14 ≠ 0, where 14 = 0 in ZMod 7), and the false
    # `sZMod p 1 = 14` (2 in ZMod 3) came out tested
    row = first_look[name]
    assert row.mirror_status == "untranslatable", (row.mirror_status, row.counterexample)
    assert "ZMod 2**p - 1" in row.reason or "not None" in row.reason, row.reason


SMUL = """
theorem zsmul_eq_mul_zmod (a : ZMod 6) (n : ℤ) : n • a = n * a := by
  sorry

theorem zsmul_one_zmod (n : ℤ) : n • (1 : ZMod 6) = n := by
  sorry

theorem zsmul_natAbs_false (a : ZMod 6) (n : ℤ) : n • a = a * (n.natAbs : ZMod 6) := by
  sorry
"""


def test_a_scalar_multiple_in_zmod_is_reduced(lean_verdicts):
    # Mathlib's `zsmul_eq_mul`, `zsmul_one` (Data.Int.Cast.Lemmas) at α := ZMod 6: `n • a` was
    # left unreduced (-1 • 1 = -1 against n * a = 5), refuted once the relation was typed ZMod 6
    verdicts = lean_verdicts(SMUL)
    for name in ("zsmul_eq_mul_zmod", "zsmul_one_zmod"):
        row = verdicts[name]
        assert row.mirror_status in ("tested", "symbolic"), (name, row.mirror_status, row.reason,
                                                             row.counterexample)
    false = verdicts["zsmul_natAbs_false"]
    assert false.mirror_status == "refuted", (false.mirror_status, false.reason)
