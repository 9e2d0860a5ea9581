"""``a ∣ b`` is ``b % a = 0`` only in ℕ and ℤ; elsewhere it is untranslatable, never guessed.

The first look of 2026-12-01b refuted two proved Mathlib theorems of ``Algebra.GeomSum`` at
``α := ZMod 6``: ``sub_dvd_pow_sub_pow`` (``x - y ∣ x ^ n - y ^ n`` at ``x = 3, y = 5, n = 4``:
``4 ∣ 2`` holds in ``ZMod 6``, ``4 · 2 = 2``) and ``one_sub_dvd_one_sub_pow`` (``5`` is a unit).
"""

from __future__ import annotations

import pytest

from mirror.translate.rewrites import rewrite_theorem
from mirror.translate.translation import Translator
from mirror.translate.values import Untranslatable
from tests.mirror.test_translation import theorem


def _translate(statement: str, binders: str):
    return Translator({}).translate_statement(rewrite_theorem(theorem(statement, binders)))


@pytest.mark.parametrize("binders", ["x y : ZMod 6; n : ℕ", "x y : Fin 6; n : ℕ"])
def test_divisibility_in_zmod_is_untranslatable_not_a_remainder(binders):
    with pytest.raises(Untranslatable, match="∣ in Fin 6"):
        _translate("x - y ∣ x ^ n - y ^ n", binders)


@pytest.mark.parametrize(("binders", "kind"), [("x y : ℤ; n : ℕ", "Int"), ("x y n : ℕ", "Nat")])
def test_divisibility_in_nat_and_int_is_the_remainder(binders, kind):
    statement = _translate("x - y ∣ x ^ n - y ^ n", binders)
    assert statement.variables[0].ty.kind == kind
    assert "Mod" in str(statement.conclusion) and str(statement.conclusion).endswith(", 0)")
