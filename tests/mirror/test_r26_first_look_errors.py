"""Three ``error`` rows of the PutnamBench first look (round 26), each a leanmirror bug:

- ``putnam_2002_b3`` (``(1 - 1/n) ^ n`` with ``n : ℤ``): the ``if n ≥ 0`` node of a power with an
  integer exponent had unknown commutativity in sympy (a relational argument), so any sum with
  it in it was called non-real and comparing it raised ``TypeError`` in translation;
- ``putnam_1998_b5`` (the 1000th digit of ``√N``, ``N`` of 1998 ones): sympy called the
  digit algebraic, then its minimal polynomial raised ``NotAlgebraic`` inside the exact sign;
- ``putnam_1987_a2`` (``seqsize (10 ^ 1987)``): the float64 index overflowed to ``inf`` and
  ``int(inf)`` raised ``OverflowError`` inside the array read;
- ``putnam_2019_b5`` (``Polynomial.degree P = 1008``): the polynomial was drawn by its 1009
  coefficients as a sum nested a thousand deep, and the next stage's recursion failed
  (``RecursionError``); a drawn polynomial now has degree at most
  :data:`~mirror.translate.polynomials.MAX_DRAWN_DEGREE`;
- Ineq-Comp's ``cauchy_p67`` (``(log (a / b)) ^ 2`` under ``open … Real Nat …``): the source
  reader takes ``log`` for ``Nat.log`` (the last namespace opened that has it; Lean picks
  ``Real.log`` by the argument's type), whose one argument leaves a function, and its power
  raised ``SympifyError``; it is untranslatable now, with that reason."""

from __future__ import annotations

import numpy as np
import sympy as sp

from mirror.evaluate.runtime import NumpyRuntime
from mirror.judge.at_point import sign
from mirror.translate import vocabulary as V
from mirror.translate.reals import LeanDiv
from tests.mirror.twins import assert_twins

SOURCE = """
open Real Nat

theorem zpow_gap (n : ℤ) (hn : 1 < n) : 0 < 1 - (1 - 1 / (n : ℝ)) ^ n := by sorry
theorem zpow_gap_false (n : ℤ) (hn : 1 < n) : 1 - (1 - 1 / (n : ℝ)) ^ n < 1 / 2 := by sorry
theorem overloaded_log (a b : ℝ) (ha : 0 < a) (hb : 0 < b) :
    (log (a / b)) ^ 2 ≥ 0 := by sorry
theorem high_degree (P : Polynomial ℝ) (hP : P.degree = 1008) (h : P.eval 0 = 1) :
    P.eval 0 + 1 = 2 := by sorry
theorem low_degree (P : Polynomial ℝ) (hP : P.natDegree ≤ 32) (h : P.eval 0 = 1) :
    P.eval 0 + 1 = 2 := by sorry
theorem low_degree_false (P : Polynomial ℝ) (hP : P.natDegree ≤ 32) (h : P.eval 0 = 1) :
    P.eval 1 = 1 := by sorry
"""


def test_a_comparison_with_an_integer_power_translates(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    assert_twins(rows, ("zpow_gap",))
    assert rows["zpow_gap_false"].counterexample["n"] == 2  # 1 - (1/2)² = 3/4


def test_an_if_is_a_commutative_number_whatever_its_condition():
    n = sp.Symbol("n", integer=True)
    base = 1 - LeanDiv(1, n)
    power = V.LeanIte(n >= 0, base ** n, LeanDiv(1, base ** (-n)))  # (1 - 1 / n) ^ n, n : ℤ
    assert power.is_commutative
    assert (sp.Symbol("e", real=True) - power).is_extended_real is not False


def test_a_sign_sympy_cannot_take_a_minimal_polynomial_of_is_undecided():
    ones = sum(10 ** i for i in range(1998))
    digit = V.NatMod(sp.floor(10 ** 1000 * sp.sqrt(ones)), 10)
    assert sign(1 - digit) in (None, 1, -1)  # never an exception; 1 - 1 = 0 is not claimed


def test_an_index_overflowed_to_infinity_is_out_of_the_domain():
    rt = NumpyRuntime(4, 8)  # every draw active, none invalid
    array = np.arange(4 * 8).reshape(4, 8)
    rt.index(array, float("inf"))
    assert rt.invalid.all()
    rt.invalid[:] = False
    assert list(rt.index(array, 3)) == [3, 11, 19, 27] and not rt.invalid.any()


def test_a_polynomial_of_high_degree_is_not_drawn_by_its_coefficients(lean_verdicts):
    rows = lean_verdicts(SOURCE)
    row = rows["high_degree"]
    assert row.mirror_status == "untranslatable", row.reason
    assert "degree 1008" in row.reason and "up to degree 32" in row.reason, row.reason
    assert_twins(rows, ("low_degree",))


def test_a_power_of_a_partial_application_is_untranslatable(lean_verdicts):
    row = lean_verdicts(SOURCE)["overloaded_log"]
    assert row.mirror_status == "untranslatable", row.reason
    assert "power of a function value" in row.reason and "Nat.log" in row.reason, row.reason
