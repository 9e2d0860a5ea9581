"""Both runtimes implement Lean's junk values and the masked evaluation rules."""

from __future__ import annotations

import numpy as np
import pytest

from mirror.evaluate.runtime import MpRuntime, NumpyRuntime


@pytest.fixture(params=["numpy", "mpmath"])
def rt(request):
    return NumpyRuntime(1, 8) if request.param == "numpy" else MpRuntime(8)


def scalar(rt, x):
    return float(np.asarray(rt.to_float(np.asarray(x))).reshape(-1)[0])


def lift(rt, x):
    arr = np.asarray([x])
    return rt.lift(arr) if isinstance(rt, MpRuntime) else arr


@pytest.mark.parametrize(
    "op, args, expected",
    [
        ("div", (1.5, 0.0), 0.0),
        ("div", (3.0, 2.0), 1.5),
        ("log", (0.0,), 0.0),
        ("log", (-np.e,), 1.0),
        ("sqrt", (-4.0,), 0.0),
        ("sqrt", (4.0,), 2.0),
        ("rpow", (0.0, 0.0), 1.0),
        ("rpow", (0.0, 2.0), 0.0),
        ("rpow", (-8.0, 1.0), -8.0),
    ],
)
def test_real_junk_values(rt, op, args, expected):
    value = getattr(rt, op)(*(lift(rt, a) for a in args))
    assert scalar(rt, value) == pytest.approx(expected, abs=1e-12)


def test_integer_junk_values():
    rt = NumpyRuntime(1, 8)
    assert rt.nat_sub(2, 5) == 0
    assert rt.nat_div(7, 0) == 0
    assert rt.int_div(-7, 2) == -4  # Int.ediv: -7 = 2 * (-4) + 1
    assert rt.int_div(-7, -2) == 4
    assert rt.mod(-7, 2) == 1
    assert rt.mod(5, 0) == 5
    assert rt.fin_wrap(5, 3) == 2


def test_a_guarded_index_is_never_read_out_of_range():
    rt = NumpyRuntime(2, 4)
    arr = np.arange(8.0).reshape(2, 4)
    i = np.array([1, 9])
    out = rt.ite(rt.lt(i, 4), lambda: rt.index(arr, i), lambda: 0.0)
    assert list(out) == [1.0, 0.0]
    assert not rt.invalid.any()
    rt.index(arr, i)  # unguarded: the second draw leaves the sampled domain
    assert list(rt.invalid) == [False, True]


def test_masked_sums_use_each_draws_own_bounds():
    rt = NumpyRuntime(3, 8)
    n = np.array([0, 2, 5])
    total = rt.sum_range(lambda j: j + 1, 0, n)
    assert list(total) == [0, 3, 15]


def test_integer_comparisons_are_exact_and_sure():
    rt = NumpyRuntime(1, 8)
    truth = rt.lt(np.array([3]), np.array([3]))
    assert not truth.ok[0] and truth.sure[0]


def test_order_relations_never_hold_within_a_tolerance():
    rt = NumpyRuntime(2, 8)
    truth = rt.lt(np.array([1.0, 1.0]), np.array([1.0 - 1e-15, 2.0]))
    assert list(truth.ok) == [False, True]
    # the close call is left to the exact decision; the clear one is not
    assert list(truth.sure) == [False, True]
    equal = rt.le(np.array([1.0, 1.0]), np.array([1.0, 1.0 + 1e-15]))
    assert list(equal.ok) == [True, True] and not equal.sure.any()


def test_equations_that_hold_in_float_are_never_sure():
    rt = NumpyRuntime(2, 8)
    truth = rt.eq(np.array([1.0, 1.0]), np.array([1.0, 3.0]))
    assert list(truth.ok) == [True, False]
    assert list(truth.sure) == [False, True]


def test_sureness_of_connectives_follows_the_deciding_part():
    rt = NumpyRuntime(1, 8)
    unsure_true = rt.eq(np.array([1.0]), np.array([1.0]))
    sure_false = rt.lt(np.array([2.0]), np.array([1.0]))
    assert rt.and_(unsure_true, sure_false).sure[0]  # the false conjunct decides
    assert not rt.or_(unsure_true, sure_false).sure[0]
    assert rt.implies(sure_false, unsure_true).sure[0]  # a false premise decides
    assert not rt.not_(unsure_true).sure[0]


def test_a_loop_invariant_sum_is_computed_once_per_evaluation():
    """A normalizer inside a sum over ``j`` that does not read ``j`` is reused, not rebuilt
    for every ``j``; the totals are those of the naive double loop."""
    rt = NumpyRuntime(3, 8)
    n = np.array([1, 3, 5])
    calls = []

    def inner(k):
        calls.append(k)
        return k + 1.0

    total = rt.sum_range(lambda j: j / rt.sum_range(inner, 0, n), 0, n)
    expected = [sum(j / sum(k + 1.0 for k in range(m)) for j in range(m)) for m in n]
    assert np.allclose(total, expected, rtol=0, atol=1e-15)
    assert len(calls) == 5  # one pass over the largest range, not one per j


def test_a_reused_sum_is_recomputed_outside_the_mask_it_was_computed_under():
    rt = NumpyRuntime(2, 4)
    arr = np.array([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])
    n = np.array([2, 9])
    body = lambda k: rt.index(arr, k)  # noqa: E731 - the same body object under two masks
    first = rt.ite(rt.lt(n, 4), lambda: rt.sum_range(body, 0, n), lambda: 0.0)
    assert list(first) == [3.0, 0.0] and not rt.invalid.any()
    # unguarded, the second draw reads beyond its array: it must be marked, not reused clean
    rt.sum_range(body, 0, n)
    assert list(rt.invalid) == [False, True]


@pytest.mark.parametrize("a, b", [
    (np.array([1.0, 2.0, np.inf, np.nan, -3.0]), 1),
    (np.array([1.0, 2.0 + 1e-12, np.inf, 5.0, -3.0]), np.array([1.0, 2.0, np.inf, np.inf, 3.0])),
    (np.array([3, 4, 5, 6, 7]), np.array([3, 5, 5, 0, 7])),
    (np.array([1 + 1j, 2, 3, 4, 5]), 2.0),
])
def test_scalar_equations_decide_as_the_array_comparison(a, b):
    """The per-draw fast path of ``eq`` gives the array path's ``ok``/``exact``/``err``/
    ``sure`` (the array path is reached through a trailing axis of one)."""
    rt = NumpyRuntime(5, 8)
    fast = rt.eq(a, b)
    slow = rt.eq(np.asarray(a)[:, None], np.broadcast_to(np.asarray(b), (5,))[:, None])
    for part in ("ok", "exact", "err", "sure"):
        assert np.array_equal(getattr(fast, part), getattr(slow, part)), part


def test_constant_truths_are_read_only():
    rt = NumpyRuntime(3, 8)
    truth = rt.truth(True)
    assert truth is rt.truth(True) and not rt.truth(False).ok.any()
    with pytest.raises(ValueError):
        truth.ok[0] = False


def test_exact_runtimes_share_one_context_per_precision():
    first, second = MpRuntime(8, digits=60), MpRuntime(8, digits=60)
    assert first.context is second.context and first.context.dps == 60
    assert MpRuntime(8, digits=120).context.dps == 120
    second.context.dps = 30  # left changed by someone: restored for the next runtime
    assert MpRuntime(8, digits=60).context.dps == 60


def test_a_vector_without_a_batch_axis_is_compared_per_draw():
    """``eq`` of a batch of scalars with an unbatched vector broadcasts the vector to every
    draw (the array path), rather than pairing batch rows with vector entries."""
    rt = NumpyRuntime(2, 8)
    truth = rt.eq(np.array([1.0, 2.0]), np.array([1.0, 1.0, 1.0]))
    assert list(truth.ok) == [True, False]


def _fancy(arr, *indices):
    """The reference gather: NumPy's fancy indexing, one row per draw."""
    return arr[(np.arange(arr.shape[0]), *indices)]


@pytest.mark.parametrize("shape", [(5, 4), (5, 4, 3), (5, 4, 3, 2)])
def test_indexing_by_slice_and_by_linear_gather_equals_fancy_indexing(shape):
    rng = np.random.default_rng(1)
    arr = rng.normal(size=shape)
    rt = NumpyRuntime(5, 10)
    per_draw = [rng.integers(0, n, 5) for n in shape[1:-1] or shape[1:2]]
    assert np.array_equal(rt.index(arr, *per_draw), _fancy(arr, *per_draw))
    same = [1] * len(per_draw)  # one summation index for every draw: a slice
    got = rt.index(arr, *same)
    assert np.array_equal(got, _fancy(arr, *[np.ones(5, dtype=int)] * len(same)))
    assert got.flags.owndata  # a copy: nothing downstream writes into the draws
    assert not rt.invalid.any()


def test_out_of_range_indices_mark_only_their_active_draws():
    arr = np.arange(15.0).reshape(5, 3)
    rt = NumpyRuntime(5, 10)
    rt._push(np.array([True, True, True, True, False]))
    got = rt.index(arr, np.array([0, 3, -1, 2, 7]))
    rt._pop()
    assert rt.invalid.tolist() == [False, True, True, False, False]
    assert got[[0, 3]].tolist() == [0.0, 11.0]
    rt = NumpyRuntime(5, 10)
    rt.index(arr, 3)
    assert rt.invalid.all()


def test_masked_folds_in_place_match_the_terms_each_draw_has():
    rt = NumpyRuntime(4, 10)
    hi = np.array([0, 1, 3, 5])
    vec = np.arange(20.0).reshape(4, 5)
    total = rt.sum_range(lambda j: rt.index(vec, j), 0, hi)
    assert total.tolist() == [0.0, 5.0, 10 + 11 + 12, 15 + 16 + 17 + 18 + 19]
    product = rt.prod_range(lambda j: j + 1, 0, hi)  # integers: k!
    assert product.tolist() == [1, 1, 6, 120]
    top = rt.sup_range(lambda j: np.full(4, float(j)), 0, hi)
    assert top.tolist() == [0.0, 0.0, 2.0, 4.0]
    rows = rt.sum_range(lambda j: np.stack([vec[:, j]] * 2, axis=1), 0, hi)  # vector terms
    assert rows[:, 0].tolist() == total.tolist() and rows.shape == (4, 2)
    mixed = rt.sum_range(lambda j: j if j == 0 else 0.5, 0, hi)  # an int first, floats after
    assert mixed.tolist() == [0, 0, 1.0, 2.0]


def test_a_reciprocal_is_printed_without_junk_branch_only_for_a_known_nonzero_number():
    import sympy as sp

    from mirror.translate.codegen import PropertyPrinter
    from mirror.translate.reals import known_nonzero
    from mirror.translate.vocabulary import FinSum, Index, LeanDiv, LeanSqrt

    x, eps = sp.Symbol("x", real=True), sp.Symbol("eps", real=True)
    j, n = sp.Dummy("j", integer=True), sp.Symbol("n", integer=True, nonnegative=True)
    positive = sp.exp(x) + 1
    # sympy calls this "not zero" because it does not take it for a number at all
    v = sp.Symbol("v")
    opaque = LeanSqrt(eps + FinSum(sp.Lambda(j, Index(v, j) ** 2), 0, n))
    assert known_nonzero(positive) and not known_nonzero(opaque)
    assert not known_nonzero(LeanSqrt(eps))
    printer = PropertyPrinter({x: "v_x", eps: "v_eps", n: "v_n", v: "v_v"})
    assert printer.doprint(1 / positive).startswith("rt.reciprocal(")
    assert printer.doprint(LeanDiv(1, opaque)).startswith("rt.div(")
    # 1 / √(eps + …) keeps Lean's x / 0 = 0 at eps = 0 and an empty sum
    rt = NumpyRuntime(1, 10)
    assert rt.div(1, rt.sqrt(np.zeros(1))).tolist() == [0.0]


def test_a_constant_matrix_as_long_as_the_batch_is_still_given_a_batch_axis():
    """``zeros Dv Dk`` with ``Dv`` = the batch size was taken for ``Dv`` draws of a vector
    (``chunkState_eq_gdnState`` then failed to broadcast in a two-draw Hypothesis example)."""
    rt = NumpyRuntime(2, 10)
    assert rt.zeros(2, 4).shape == (2, 2, 4)
    assert rt.eye(2).shape == (2, 2, 2) and rt.eye(2)[1].tolist() == [[1.0, 0.0], [0.0, 1.0]]
    one = NumpyRuntime(1, 10)
    assert one.zeros(1, 3).shape == (1, 1, 3)
