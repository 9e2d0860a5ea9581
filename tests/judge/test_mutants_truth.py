"""The float64 fast filter's truth values (``mirror.evaluate.truth``) and NumPy junk-value
functions (``mirror.evaluate.functions.NumpyFunctions``) against independent references.

``known`` (is the value settled despite truncation, :mod:`mirror.evaluate.polarity`) must
follow three-valued logic through every connective exactly as ``sure`` does; the NumPy
functions are checked against Python's exact integers and Mathlib's stated junk values, with
their result dtypes (an ℤ result is int64, an ℝ result float64).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from mirror.evaluate.polarity import SamplingBound
from mirror.evaluate.runtime import NumpyRuntime
from mirror.evaluate.truth import Truth
from tests.judge.test_mutants import _expected, _k_and, _k_not, _k_or, _kleene


def _pairs_known():
    """16 draws: every combination of (value, known) of ``a`` and ``b``, all sure."""
    a_ok = np.repeat([True, False, True, False], 4)
    a_known = np.repeat([True, True, False, False], 4)
    b_ok = np.tile([True, False, True, False], 4)
    b_known = np.tile([True, True, False, False], 4)
    sure = np.ones(16, dtype=bool)
    a = Truth(a_ok, a_ok.copy(), np.where(a_ok, 0.0, 1.0), sure, a_known)
    b = Truth(b_ok, b_ok.copy(), np.where(b_ok, 0.25, 2.0), sure.copy(), b_known)
    return a, b, NumpyRuntime(16, 8)


@pytest.mark.parametrize("method, op", [
    ("and_", _k_and), ("or_", _k_or),
    ("implies", lambda a, b: _k_or(_k_not(a), b)),
    ("iff", lambda a, b: None if None in (a, b) else a == b),
])
def test_known_follows_kleene_logic_through_connectives(method, op):
    a, b, rt = _pairs_known()
    t = getattr(rt, method)(a, b)
    assert _kleene(t.ok, t.known) == _expected(op), method
    assert t.sure.all()


def test_known_through_negation_and_if_then_else():
    a, b, rt = _pairs_known()
    negated = rt.not_(a)
    assert list(negated.known) == list(a.known)
    cond = Truth(a.ok, a.ok.copy(), np.zeros(16), np.ones(16, dtype=bool), a.known)
    t = rt.prop_ite(cond, lambda: b, lambda: rt.not_(b))
    assert list(t.known) == list(a.known & b.known)


def test_iff_error_is_the_larger_deviation_of_the_sides_that_hold():
    a, b, rt = _pairs_known()
    t = rt.iff(a, b)
    expected = []
    for x, y, e, f in zip(a.ok, b.ok, a.err, b.err):
        if x != y:
            expected.append(np.inf)
        else:
            expected.append(max(e if x else 0.0, f if y else 0.0))
    assert list(t.err) == expected
    assert list(t.exact) == list(a.exact == b.exact)


def test_a_quantifier_over_the_sampled_prefix_of_nat_is_known_only_where_an_instance_settles_it():
    rt = NumpyRuntime(2, 4)
    # draw 0: every instance true; draw 1: instance 2 false
    ok = {j: np.array([True, j != 2]) for j in range(4)}

    def body(j):
        return Truth(ok[j], ok[j].copy(), np.where(ok[j], 0.0, 1.5))

    every = rt.forall_range(body, 0, SamplingBound(4))
    assert list(every.ok) == [True, False] and list(every.known) == [False, True]
    assert list(every.sure) == [True, True]
    some_false = rt.exists_range(lambda j: rt.not_(body(j)), 0, SamplingBound(4))
    assert list(some_false.ok) == [False, True] and list(some_false.known) == [False, True]
    complete = rt.forall_range(body, 0, 4)
    assert list(complete.known) == [True, True]
    nowhere = rt.exists_range(lambda j: rt.truth(False), 0, 3)
    assert list(nowhere.ok) == [False, False] and list(nowhere.known) == [True, True]


def test_an_existential_that_fails_carries_its_smallest_deviation():
    rt = NumpyRuntime(2, 8)
    errs = {0: np.array([3.0, 0.0]), 1: np.array([0.5, 0.0]), 2: np.array([2.0, 0.0])}
    oks = {0: np.array([False, False]), 1: np.array([False, True]), 2: np.array([False, False])}

    def body(j):
        return Truth(oks[j], oks[j].copy(), errs[j])

    some = rt.exists_range(body, 0, 3)
    assert list(some.ok) == [False, True] and list(some.err) == [0.5, 0.0]
    every = rt.forall_range(body, 0, 3)
    assert list(every.err) == [3.0, 0.0]


def test_holds_reads_booleans():
    rt = NumpyRuntime(3, 8)
    t = rt.holds(np.array([0, 2, 1]))
    assert t.ok.dtype == bool and list(t.ok) == [False, True, True]
    assert list(rt.not_(t).ok) == [True, False, False]
    assert list(t.err) == [0.0, 0.0, 0.0] and t.sure.all() and t.known.all()
    assert list(t.exact) == list(t.ok)


def test_constant_truths_are_shared_and_read_only():
    rt = NumpyRuntime(3, 8)
    t, f = rt.truth(True), rt.truth(False)
    assert list(t.ok) == [True] * 3 and list(f.ok) == [False] * 3
    assert t is NumpyRuntime(3, 4).truth(1) and not t.ok.flags.writeable
    assert f.sure.all() and f.known.all() and (f.err == 0).all()


def test_order_relations_on_floats_and_integers():
    rt = NumpyRuntime(4, 8, 1e-9)
    a = np.array([1.0, 2.0, np.nan, 1.0])
    b = np.array([2.0, 1.0, 1.0, 1.0 + 1e-12])
    lt = rt.lt(a, b)
    assert list(lt.ok) == [True, False, False, True]
    assert lt.err[0] == 0.0 and lt.err[1] == pytest.approx(0.5) and lt.err[2] == np.inf
    assert list(lt.sure) == [True, True, True, False]  # the last is within the tolerance
    le = rt.le(np.array([1, 3, 2, 0]), np.array([1, 2, 5, 0]))
    assert list(le.ok) == [True, False, True, True] and le.sure.all()
    assert list(le.err) == [0.0, np.inf, 0.0, 0.0]
    assert list(rt.lt(np.array([1, 3, 2, 0]), 2).ok) == [True, False, False, True]


def test_scalar_equality_against_constants_and_integers():
    rt = NumpyRuntime(3, 8, 1e-9)
    t = rt.eq(np.array([2.0, 2.0 + 1e-12, 3.0]), 2)
    assert list(t.ok) == [True, True, False] and list(t.exact) == [True, False, False]
    assert list(t.sure) == [False, False, True]
    assert t.err[2] == pytest.approx(1 / 3)
    ints = rt.eq(np.array([4, 5, 6]), 5)
    assert list(ints.ok) == [False, True, False] and ints.sure.all()
    assert ints.err[0] == pytest.approx(1 / 5)
    flipped = rt.eq(7.0, np.array([7.0, 7.5, -7.0]))
    assert list(flipped.ok) == [True, False, False]
    assert flipped.err[2] == pytest.approx(2.0)
    small = rt.eq(np.array([1e-3, 0.0, np.inf]), np.array([2e-3, 0.0, np.inf]))
    assert small.err[0] == pytest.approx(1e-3) and list(small.ok) == [False, True, True]
    inf = rt.eq(np.array([np.inf, -np.inf, 1.0]), 1.0)
    assert list(inf.err) == [np.inf, np.inf, 0.0] and list(inf.sure) == [True, True, False]
    big = rt.eq(np.array([1e6, 1e6, 0.0]), np.array([1e6 + 1.0, 1e6 + 1e-4, 0.0]))
    assert big.err[0] == pytest.approx(1 / (1e6 + 1), rel=1e-9)
    assert not big.ok[0] and big.ok[1] and big.err[1] == pytest.approx(1e-10, rel=1e-3)
    mixed = rt.eq(np.array([1.0, 2.0, 3.0]), np.array([1, 2, 4]))
    assert list(mixed.sure) == [False, False, True]


def test_inequality_of_numbers_and_vectors():
    rt = NumpyRuntime(3, 8, 1e-9)
    ne = rt.ne(np.array([1, 2, 3]), np.array([1, 0, 3]))
    assert list(ne.ok) == [False, True, False] and list(ne.exact) == list(ne.ok)
    assert ne.sure.all() and (ne.err == 0).all()
    vec = rt.ne(np.array([[1.0, 2.0], [1.0, 2.0], [0.0, 0.0]]),
                np.array([[1.0, 2.0], [1.0, 2.5], [0.0, 1e-12]]))
    assert list(vec.ok) == [False, True, True]
    assert list(vec.sure) == [False, True, False]  # the last is within the tolerance
    eq = rt.array_eq(np.array([[1.0, 2.0], [1.0, 2.0], [0.0, 0.0]]),
                     np.array([[1.0, 2.0], [1.0, 2.5], [0.0, 1e-12]]))
    assert list(eq.ok) == [True, False, True]


# ---- NumPy junk-value functions ------------------------------------------------------------------

def _np_rt(n=4):
    return NumpyRuntime(n, 8)


def test_numpy_ennreal_operations_return_floats_with_top():
    rt = _np_rt()
    a, b = np.array([0, 3, np.inf, np.inf]), np.array([np.inf, 5, 2, np.inf])
    assert list(rt.enn_sub(a, b)) == [0.0, 0.0, np.inf, 0.0]
    assert list(rt.enn_sub(np.array([5, 2, 0, 1]), np.array([2, 2, 0, 0]))) == [3.0, 0, 0, 1]
    assert list(rt.enn_mul(a, b)) == [0.0, 15.0, np.inf, np.inf]
    assert list(rt.enn_add(a, b)) == [np.inf, 8.0, np.inf, np.inf]
    assert list(rt.enn_inv(np.array([0, 4, np.inf, 1]))) == [np.inf, 0.25, 0.0, 1.0]
    assert list(rt.enn_to_real(np.array([np.inf, 2.5, 0.0, 7]))) == [0.0, 2.5, 0.0, 7.0]
    for out in (rt.enn_to_real(np.array([1, 2])), rt.enn_inv(np.array([1, 2])),
                rt.enn_add(np.array([1]), np.array([2])), rt.enn_mul(np.array([1]), 2),
                rt.enn_sub(np.array([3]), np.array([1]))):
        assert out.dtype == np.float64


def test_numpy_tan_cot_arcsin():
    rt = _np_rt()
    assert list(rt.real_tan(np.array([0, 1]))) == pytest.approx([0.0, math.tan(1)], rel=1e-15)
    assert list(rt.real_cot(np.array([0, 1]))) == pytest.approx([0.0, 1 / math.tan(1)],
                                                                rel=1e-15)
    assert rt.real_cot(np.array([0]))[0] == 0.0
    assert rt.real_tan(np.array([0, 1])).dtype == np.float64
    assert list(rt.arcsin(np.array([3, -3, 1]))) == [math.pi / 2, -math.pi / 2, math.pi / 2]
    assert rt.arcsin(np.array([0.5]))[0] == pytest.approx(math.pi / 6, rel=1e-15)


def test_numpy_rounding_and_sign():
    rt = _np_rt()
    for method, reference in (("floor", math.floor), ("ceil", math.ceil)):
        xs = np.array([-3.5, -0.25, 2.0, 7.75])
        out = getattr(rt, method)(xs)
        assert out.dtype == np.int64 and list(out) == [reference(x) for x in xs]
        ints = getattr(rt, method)(np.array([-3, 4], dtype=np.int32))
        assert ints.dtype == np.int64 and list(ints) == [-3, 4]
    assert list(rt.sign(np.array([-2.5, 0.0, 3.0]))) == [-1.0, 0.0, 1.0]
    assert list(rt.sign(np.array([-4, 0, 9]))) == [-1, 0, 1]


def test_numpy_nat_functions_match_python_integers():
    rt = _np_rt()
    n = np.array([0, 1, 5, 20])
    f = rt.factorial(n)
    assert f.dtype == np.int64 and list(f) == [1, 1, 120, math.factorial(20)]
    big = rt.factorial(np.array([21, 170, 171, 3]))
    assert big.dtype == np.float64
    assert list(big) == [float(math.factorial(21)), float(math.factorial(170)), np.inf, 6.0]
    assert list(rt.choose(np.array([5, 3, 0, 10]), np.array([2, 5, 0, 10]))) == [10, 0, 1, 1]
    assert list(rt.gcd(np.array([0, 12, -8, 7]), np.array([0, 18, 12, 0]))) == [0, 6, 4, 7]
    assert list(rt.lcm(np.array([0, 4, 3, 6]), np.array([5, 6, 0, 4]))) == [0, 12, 0, 12]
    assert rt.gcd(np.array([4.0]), np.array([6])).dtype == np.int64
    assert rt.lcm(np.array([4]), np.array([6.0])).dtype == np.int64
    assert list(rt.nat_sqrt(np.array([-4, 0, 15, 16]))) == [0, 0, 3, 4]
    assert rt.nat_sqrt(np.array([9.0])).dtype == np.int64
    assert list(rt.nat_log(np.array([2, 10, 1, 3]), np.array([8, 999, 50, 2]))) == [3, 2, 0, 0]
    empty = rt.choose(np.zeros((0,), dtype=np.int64), np.zeros((0,), dtype=np.int64))
    assert empty.shape == (0,) and empty.dtype == np.int64
    grid = rt.choose(np.array([[4, 5], [6, 7]]), 2)
    assert grid.shape == (2, 2) and grid.tolist() == [[6, 10], [15, 21]]


def _tdiv(a, b):
    return 0 if b == 0 else int(Fraction(a, b))  # toward zero


def _fdiv(a, b):
    return 0 if b == 0 else math.floor(Fraction(a, b))


@pytest.mark.parametrize("a", [-7, -6, 0, 5, 7])
@pytest.mark.parametrize("b", [-3, 0, 2])
def test_numpy_integer_division_matches_mathlib(a, b):
    rt = _np_rt(1)
    assert rt.int_tdiv(np.array([a]), np.array([b]))[0] == _tdiv(a, b)
    assert rt.int_fdiv(np.array([a]), np.array([b]))[0] == _fdiv(a, b)
    assert rt.int_tmod(np.array([a]), np.array([b]))[0] == a - b * _tdiv(a, b)
    assert rt.int_fmod(np.array([a]), np.array([b]))[0] == a - b * _fdiv(a, b)


def test_equality_of_constants_and_of_a_matrix_with_a_number_per_draw():
    rt = NumpyRuntime(3, 8, 1e-9)
    same = rt.eq(1.0, 1.0)
    assert same.ok.shape == (3,) and same.ok.all() and same.exact.all()
    differ = rt.eq(2, 3)
    assert differ.ok.shape == (3,) and not differ.ok.any() and differ.sure.all()
    rows = rt.eq(np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 4.0]]), np.array([1.0, 2.0, 3.0]))
    assert list(rows.ok) == [True, True, False]
    flipped = rt.eq(np.array([1.0, 2.0, 3.0]), np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 4.0]]))
    assert list(flipped.ok) == [True, True, False]


def test_numpy_gcd_and_lcm_take_integers_on_either_side():
    rt = _np_rt(1)
    assert rt.gcd(np.array([4]), np.array([6.0]))[0] == 2
    assert rt.lcm(np.array([4.0]), np.array([6]))[0] == 12
