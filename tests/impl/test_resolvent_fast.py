"""The resolvent operator's default (BLAS) path against its reproducible path and the spec.

``tests/impl/test_resolvent.py`` runs the spec's 17 tests on the reproducible path
(``exact_order=True``), where they pin bits. Here the default path, which takes the score and
readout sums from BLAS over causal row blocks, is held to the same semantics: every exact
property that does not depend on how a dot product is summed holds bitwise, and the values
agree with the reproducible path to stated tolerances:

- operator entries: ``|W - W_exact| <= 1e-13 max(1, |W_exact|)``, entry by entry (``1e-9``
  for logits of ``1e4``, whose rounding moves the exponent by ``~1e-12``);
- readouts: ``|O - O_exact| <= 1e-13 (|W_exact| |V|)_i``, the scale of row ``i``'s sum.

Sizes go past one row block (``n = 300`` and ``600`` are two and six blocks).

Both paths are also held to an independent reference, the spec's formulas evaluated entry by
entry in 40-digit mpmath (``_reference_operator``), so that a bug the two paths share (they
share the gate blend, the clamp and the normaliser) does not pass as agreement.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from bridge.errors import InvalidArgument
from mirror.bundled.impl.resolvent import (
    PATH_PRODUCT,
    SOFTMAX,
    UNNORMALIZED_KERNEL,
    NonFinite,
    Switches,
    operator,
    operator_readout,
    readout,
)
from tests.impl.resolvent_checks import assert_off_switches_exact, bits, inputs

OPERATOR_TOLERANCE = 1e-13
READOUT_TOLERANCE = 1e-13

SETTINGS = [
    SOFTMAX,
    UNNORMALIZED_KERNEL,
    PATH_PRODUCT,
    Switches(0.5, 1.3, 0.7),
    Switches(1.0, 1.0, 1.0),
    Switches(-0.5, 1.0, 0.5),
    Switches(1.0, 2.0, 0.0),
]




def _assert_operators_agree(fast: np.ndarray, exact: np.ndarray,
                            tolerance: float = OPERATOR_TOLERANCE) -> None:
    """Entry-wise agreement; an entry may overflow on one path only at the float64 edge."""
    assert fast.shape == exact.shape and fast.dtype == np.complex128
    assert not np.isnan(fast).any()
    finite = np.isfinite(fast) & np.isfinite(exact)
    edge = np.isfinite(fast) != np.isfinite(exact)
    assert np.all(np.abs(np.where(np.isfinite(fast), fast, exact)[edge]) >= 1e307)
    both_infinite = ~np.isfinite(fast) & ~np.isfinite(exact)
    assert np.array_equal(fast[both_infinite], exact[both_infinite])
    gap = np.abs(fast[finite] - exact[finite])
    assert np.all(gap <= tolerance * np.maximum(1.0, np.abs(exact[finite])))


def _assert_readouts_agree(fast: np.ndarray, exact: np.ndarray, w: np.ndarray,
                           v: np.ndarray) -> None:
    scale = np.abs(np.tril(w)) @ np.abs(v)
    assert np.all(np.abs(fast - exact) <= READOUT_TOLERANCE * np.maximum(scale, 1e-300))


@pytest.mark.parametrize("n, d", [(40, 8), (300, 16), (600, 5)])
@pytest.mark.parametrize("switches", SETTINGS, ids=str)
def test_both_paths_agree_on_the_operator_and_its_readouts(n, d, switches):
    q, k, u, theta = inputs(n + d, n, d)
    v = np.random.default_rng(n).standard_normal((n, 3))
    fast = operator(q, k, u, theta, switches)
    exact = operator(q, k, u, theta, switches, exact_order=True)
    _assert_operators_agree(fast, exact)
    assert np.all(np.triu(fast, 1) == 0)
    reference = readout(exact, v, exact_order=True)
    _assert_readouts_agree(readout(fast, v), reference, exact, v)
    _assert_readouts_agree(operator_readout(q, k, u, theta, v, switches), reference, exact, v)
    # The reproducible fused form is the reproducible composition, bit for bit.
    fused_exact = operator_readout(q, k, u, theta, v, switches, exact_order=True)
    assert np.array_equal(bits(fused_exact), bits(reference))


def test_without_logits_both_paths_agree_bitwise():
    # qk = 0: the logit is exactly 0 on both paths; at beta = 0 nothing else is summed.
    q, k, u, theta = inputs(1, 300, 4)
    for switches in (PATH_PRODUCT, Switches(0.0, 0.0, 0.4)):
        fast = operator(q, k, u, theta, switches)
        assert np.array_equal(bits(fast), bits(operator(q, k, u, theta, switches,
                                                          exact_order=True)))


def test_softmax_rows_are_stochastic_and_real():
    q, k, u, theta = inputs(2, 600, 16)
    for switches in (SOFTMAX, Switches(1.0, 1.0, 1.0)):
        w = operator(q, k, np.ones(600), np.zeros(600), switches)
        assert np.all(w.imag == 0.0)
        assert np.max(np.abs(w.sum(axis=1) - 1.0)) <= 1e-13
    # The bare head (qk = 0, beta = 0, g = 0): row i sums to exactly i + 1.
    bare = operator(q, k, u, theta, Switches(0.0, 0.0, 0.0))
    assert np.array_equal(bare.real.sum(axis=1), np.arange(1, 601, dtype=float))


def test_off_switches_and_closed_gates_are_exact():
    n, d = 300, 6
    q, k, u, theta = inputs(3, n, d)
    _, _, u2, theta2 = inputs(4, n, d, scale=3.0)
    assert_off_switches_exact(operator, q, k, u, theta, u2, theta2)
    closed = u.copy()
    closed[100] = 0.0
    for switches in SETTINGS:
        w = operator(q, k, closed, theta, Switches(switches.beta, switches.qk, 1.0))
        assert np.all(w[100:, :100] == 0)  # every path through gate 100 is exactly 0
    for switches in (Switches(1.0, 1.0, 1.0), PATH_PRODUCT):
        w = operator(q, k, np.zeros(n), theta, switches)
        assert np.array_equal(w, np.eye(n, dtype=complex))


def test_perturbing_the_future_never_moves_the_past_at_the_same_length():
    n, d = 600, 5
    q, k, u, theta = inputs(5, n, d)
    rng = np.random.default_rng(6)
    for switches in (SOFTMAX, UNNORMALIZED_KERNEL, Switches(0.5, 1.3, 0.7)):
        w = operator(q, k, u, theta, switches)
        for t in (0, 250, 417):
            q2, k2, u2 = q.copy(), k.copy(), u.copy()
            q2[t + 1 :] = rng.standard_normal((n - t - 1, d)) * 3
            k2[t + 1 :] = rng.standard_normal((n - t - 1, d)) * 3
            u2[t + 1 :] = rng.uniform(0, 1, n - t - 1)
            w2 = operator(q2, k2, u2, theta, switches)
            assert np.array_equal(bits(w2[: t + 1]), bits(w[: t + 1]))


def test_logits_of_ten_thousand_stay_finite_at_beta_one():
    n, d = 300, 4
    q, k, u, theta = inputs(7, n, d, scale=80.0)  # logits past 1e4
    u[6] = 0.0
    for switches in (SOFTMAX, Switches(1.0, 1.0, 1.0)):
        fast = operator(q, k, u, np.zeros(n), switches)
        assert np.all(np.isfinite(fast))
        assert np.max(np.abs(fast.sum(axis=1) - 1.0)) <= 1e-9
        exact = operator(q, k, u, np.zeros(n), switches, exact_order=True)
        assert np.max(np.abs(fast - exact)) <= 1e-9
    # Without gates every weight is at most the row's largest, exp(0) / Z_i <= 1.
    assert np.max(np.abs(operator(q, k, u, theta, SOFTMAX))) <= 1.0


def test_overflow_away_from_beta_one_reads_infinity_never_nan():
    q = np.array([[1.0], [200.0], [1.0], [1.0]])
    k = np.array([[100.0], [1.0], [1.0], [1.0]])  # s_10 = 2e4
    u = np.array([1.0, 1.0, 0.0, 1.0])
    for switches in (UNNORMALIZED_KERNEL, Switches(0.25, 1.0, 1.0), Switches(0.5, 1.0, 1.0)):
        w = operator(q, k, u, np.zeros(4), switches)
        assert w[1, 0].real == np.inf and w[1, 0].imag == 0.0
        assert not np.isnan(w).any()
        _assert_operators_agree(w, operator(q, k, u, np.zeros(4), switches, exact_order=True))
    # Wide rows (|M - beta log Z| > 700) in a large operator: the direct exponential.
    q, k, _, theta = inputs(8, 300, 4, scale=60.0)
    switches = Switches(0.5, 1.0, 1.0)
    fast = operator(q, k, np.ones(300), theta, switches)
    assert not np.isnan(fast).any() and np.isinf(fast).any()
    # Logits of ~1e4 carry absolute errors of ~1e-12 in the exponent (as in the spec's
    # 1e-9 for logits of 1e4).
    exact = operator(q, k, np.ones(300), theta, switches, exact_order=True)
    _assert_operators_agree(fast, exact, tolerance=1e-9)


def test_refusals_are_the_same_on_both_paths():
    q, k, u, theta = inputs(9, 300, 3)
    cases = []
    for name, arrays in (("query", 0), ("key", 1), ("magnitude", 2), ("phase", 3)):
        bad = [x.copy() for x in (q, k, u, theta)]
        bad[arrays].flat[257] = np.nan
        cases.append((name, bad, SOFTMAX))
    cases.append(("switch", [q, k, u, theta], Switches(np.inf, 1.0, 0.0)))
    cases.append(("blended phase", [q, k, u, np.full(300, 1e308)], Switches(1.0, 1.0, 4.0)))
    big_q, big_k = q.copy(), k.copy()
    big_q[299], big_k[5] = 1e200, 1e200  # s_{299, 5} overflows, on the causal triangle
    cases.append(("logit", [big_q, big_k, u, theta], SOFTMAX))
    for name, args, switches in cases:
        for exact in (False, True):
            with pytest.raises(NonFinite) as info:
                operator(*args, switches, exact_order=exact)
            assert info.value.input == name
            with pytest.raises(NonFinite) as info:
                operator_readout(*args, np.ones((300, 2)), switches, exact_order=exact)
            assert info.value.input == name


def test_a_scale_folded_into_the_queries_that_overflows_is_not_a_refusal():
    # (qk / sqrt(d)) q overflows, qk * s does not: the default path defers to the other.
    q = np.array([[1e308], [1.0]])
    k = np.array([[1e-300], [1.0]])
    switches = Switches(1.0, 4.0, 0.0)
    fast = operator(q, k, [1.0, 1.0], [0.0, 0.0], switches)
    exact = operator(q, k, [1.0, 1.0], [0.0, 0.0], switches, exact_order=True)
    assert np.all(np.isfinite(fast)) and np.array_equal(fast, exact)
    v = np.array([[1.0], [2.0]])
    assert np.array_equal(operator_readout(q, k, [1.0, 1.0], [0.0, 0.0], v, switches),
                          readout(exact, v))


def test_the_readout_ignores_the_upper_triangle_and_skips_zero_imaginary_lanes():
    rng = np.random.default_rng(10)
    n = 300
    w = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
    v = rng.standard_normal((n, 4))
    fast = readout(w, v)
    exact = readout(w, v, exact_order=True)
    _assert_readouts_agree(fast, exact, w, v)
    garbage = w + np.triu(np.full((n, n), np.inf + 1j * np.nan), 1)
    assert np.array_equal(readout(garbage, v), fast)
    real = readout(w.real.astype(complex), v)
    assert np.all(real.imag == 0.0)
    assert np.array_equal(real.real, fast.real)
    # A non-contiguous operator reads the same.
    wide = np.zeros((n, 2 * n), dtype=complex)
    wide[:, ::2] = w
    assert np.array_equal(readout(wide[:, ::2], v), fast)


def test_empty_sequences_and_bad_values_for_the_fused_readout():
    empty = np.zeros((0, 3))
    for exact in (False, True):
        assert operator(empty, empty, [], [], exact_order=exact).shape == (0, 0)
        out = operator_readout(empty, empty, [], [], np.zeros((0, 2)), exact_order=exact)
        assert out.shape == (0, 2) and out.dtype == np.complex128
    q, k, u, theta = inputs(11, 5, 2)
    with pytest.raises(InvalidArgument, match="v has shape"):
        operator_readout(q, k, u, theta, np.zeros((4, 2)))
    with pytest.raises(NonFinite, match="value"):
        operator_readout(q, k, u, theta, np.full(5, np.nan))
    column = operator_readout(q, k, u, theta, np.arange(5.0))
    assert column.shape == (5, 1)


REAL_SETTINGS = [SOFTMAX, UNNORMALIZED_KERNEL, Switches(0.5, 1.3, 0.0), Switches(1.0, 1.0, 1.0),
                 PATH_PRODUCT]


@pytest.mark.parametrize("switches", REAL_SETTINGS, ids=str)
@pytest.mark.parametrize("exact", [False, True])
def test_the_real_plane_of_a_real_operator_is_its_real_part_bit_for_bit(switches, exact):
    # Gates are real when g = 0 or every phase is 0 (closed gates and magnitudes < 1 kept).
    n, d = 300, 6
    q, k, u, _ = inputs(12, n, d)
    theta = np.zeros(n)
    u[[17, 200]] = 0.0
    w = operator(q, k, u, theta, switches, exact_order=exact)
    plane = operator(q, k, u, theta, switches, exact_order=exact, real=True)
    assert plane.dtype == np.float64 and plane.shape == (n, n)
    assert np.all(w.imag == 0.0)
    assert np.array_equal(bits(plane), bits(w.real))
    # The readout takes either representation: the same sums, so the same bits on the
    # reproducible path; the BLAS path reads the real plane in place instead of from a copy.
    v = np.random.default_rng(13).standard_normal((n, 5))
    from_plane, from_w = readout(plane, v, exact_order=exact), readout(w, v, exact_order=exact)
    assert from_plane.dtype == np.complex128 and np.all(from_plane.imag == 0.0)
    if exact:
        assert np.array_equal(bits(from_plane), bits(from_w))
    else:
        _assert_readouts_agree(from_plane, from_w, w, v)


def test_real_is_refused_for_a_gate_off_the_real_axis():
    q, k, u, theta = inputs(14, 40, 3)
    theta[:] = 0.0
    theta[7] = 0.5
    for exact in (False, True):
        with pytest.raises(InvalidArgument, match=r"gate a\[7\].*not real"):
            operator(q, k, u, theta, Switches(1.0, 1.0, 0.25), exact_order=exact, real=True)
    # theta_0 is never read (a_0 does not enter any path product), so it may be anything.
    theta[7] = 0.0
    theta[0] = 1.0
    w = operator(q, k, u, theta, Switches(1.0, 1.0, 0.25), real=True)
    assert w.dtype == np.float64
    assert operator(np.zeros((0, 2)), np.zeros((0, 2)), [], [], real=True).dtype == np.float64


def test_softmax_rows_normalised_by_reciprocals_stay_at_most_one():
    # Logits up to ~250 (inside the bound of 300 where rows are normalised without a shift):
    # most rows are dominated by one entry, whose quotient rounds to 1 and whose product by
    # a rounded reciprocal could exceed it. Row 0 has one live entry and reads exactly 1.
    n, d = 600, 4
    q, k, u, theta = inputs(15, n, d, scale=3.7)
    s = q @ k.T / 2.0
    assert np.abs(np.tril(s)).max() > 100.0
    w = operator(q, k, np.ones(n), theta, SOFTMAX, real=True)
    assert w.max() <= 1.0 and w[0, 0] == 1.0
    assert np.max(np.abs(w.sum(axis=1) - 1.0)) <= 1e-13
    exact = operator(q, k, np.ones(n), theta, SOFTMAX, exact_order=True)
    _assert_operators_agree(w.astype(complex), exact)


def test_normalising_by_a_reciprocal_never_exceeds_one_nor_moves_more_than_two_ulps():
    # Totals across the exponent range; an entry equal to its row's total (the largest an
    # entry can be) is normalised to at most 1, every entry to within 2 ulps of its quotient.
    from mirror.bundled.impl._resolvent_eval import _normalise_rows

    rng = np.random.default_rng(16)
    totals = np.exp(rng.uniform(-700.0, 700.0, 4000))[:, None]
    block = totals * np.concatenate([np.ones((4000, 1)), rng.uniform(0, 1, (4000, 7))], axis=1)
    for r0 in (0, 64):
        out = np.empty_like(block)
        _normalise_rows(block, totals, r0, out)
        assert np.all(out <= 1.0) and np.all(out[:, 0] >= 1.0 - 2.3e-16)
        quotient = block / totals
        assert np.all(np.abs(out - quotient) <= 2.3e-16 * quotient)
    assert out[0, 0] <= 1.0
    _normalise_rows(block, totals, 0, out)
    assert out[0, 0] == 1.0  # row 0 (one live entry) is divided


def test_a_real_operator_with_garbage_above_the_diagonal_reads_out_the_same():
    rng = np.random.default_rng(17)
    n = 300
    w = np.tril(rng.standard_normal((n, n)))
    v = rng.standard_normal((n, 3))
    garbage = w + np.triu(np.full((n, n), np.nan), 1)
    for exact in (False, True):
        clean = readout(w, v, exact_order=exact)
        assert clean.dtype == np.complex128 and np.all(clean.imag == 0.0)
        assert np.array_equal(readout(garbage, v, exact_order=exact), clean)
        _assert_readouts_agree(clean, readout(w.astype(complex), v, exact_order=exact), w, v)


def test_switched_off_gates_are_the_general_blend_bit_for_bit():
    # At g = 0 the head takes m = 1 and a = 1 + (0 * theta) i without the general blend's
    # passes; the planes must be the blend's and the gate's, signed zeros included.
    from mirror.bundled.impl.resolvent import _Head, blend, gate

    rng = np.random.default_rng(18)
    n = 64
    u = rng.uniform(-3.0, 3.0, n)
    theta = rng.uniform(-4.0, 4.0, n)
    theta[:4] = [-0.0, 0.0, -1e308, 1e308]
    q, k, _, _ = inputs(19, n, 3)
    for g in (0.0, -0.0):
        head = _Head.prepare(q, k, u, theta, Switches(1.0, 1.0, g), None, None)
        m, blended = blend(u, theta, g)
        a = gate(m, blended)
        assert head.unit
        assert np.array_equal(bits(head.m), bits(m))
        assert np.array_equal(bits(head.a_re), bits(a.real))
        assert np.array_equal(bits(head.a_im), bits(a.imag))
        assert np.signbit(head.a_im[0]) != np.signbit(g)  # g * theta[0], theta[0] = -0.0
    # Non-finite gates are still refused at g = 0, as magnitudes and phases.
    for name, index in (("magnitude", 2), ("phase", 3)):
        bad = [u.copy(), theta.copy()]
        bad[index - 2][9] = np.inf
        with pytest.raises(NonFinite) as info:
            operator(q, k, *bad, Switches(1.0, 1.0, 0.0))
        assert info.value.input == name


def test_the_readout_skips_imaginary_products_block_by_block():
    # n = 300 is two row blocks (218 + 82 rows). Imaginary lanes that are +0.0 on the first
    # block's rows give an imaginary part of exactly +0.0 there, whatever the second block
    # holds; both blocks agree with the reproducible readout.
    rng = np.random.default_rng(20)
    n = 300
    w = np.tril(rng.standard_normal((n, n))) + 0j
    w.imag[218:] = np.tril(rng.standard_normal((n, n)))[218:]
    v = rng.standard_normal((n, 4))
    fast = readout(w, v)
    _assert_readouts_agree(fast, readout(w, v, exact_order=True), w, v)
    assert not bits(fast.imag[:218]).any()
    assert np.all(fast.imag[218:] != 0.0)


@pytest.mark.parametrize("n", [600, 1100])
def test_a_real_readout_over_several_spans_of_blocks_reads_the_lower_triangle_only(n):
    # A real w is read by spans of four row blocks (n = 600: blocks of 109 rows, spans of
    # 436; n = 1100: 59 and 236), so rows sum products of three shapes; the upper triangle
    # (NaN here) is never read.
    rng = np.random.default_rng(21)
    w = np.tril(rng.standard_normal((n, n)))
    v = rng.standard_normal((n, 3))
    garbage = w + np.triu(np.full((n, n), np.nan), 1)
    fast = readout(garbage, v)
    assert fast.dtype == np.complex128 and not bits(fast.imag).any()
    _assert_readouts_agree(fast, readout(w, v, exact_order=True), w, v)
    _assert_readouts_agree(fast, readout(garbage.astype(complex), v), w, v)


def test_the_two_step_softmax_corner_over_many_blocks_matches_the_reproducible_path():
    # n = 1100: 19 row blocks of 59 (the last of 38) in spans of 236, both representations
    # of W; exact zeros above the diagonal, row 0 exactly 1, readouts within tolerance.
    n, d = 1100, 8
    q, k, _, theta = inputs(22, n, d)
    u = np.ones(n)
    v = np.random.default_rng(23).standard_normal((n, 4))
    exact = operator(q, k, u, theta, SOFTMAX, exact_order=True)
    reference = readout(exact, v, exact_order=True)
    plane = operator(q, k, u, theta, SOFTMAX, real=True)
    w = operator(q, k, u, theta, SOFTMAX)
    assert np.array_equal(bits(plane), bits(w.real)) and not bits(w.imag).any()
    _assert_operators_agree(w, exact)
    assert not bits(np.triu(plane, 1)).any() and plane[0, 0] == 1.0
    for form in (plane, w):
        _assert_readouts_agree(readout(form, v), reference, exact, v)


# ------------------------------------------------------------ an independent reference


def _reference_operator(q, k, u, theta, switches: Switches) -> np.ndarray:
    """The spec's formulas (``/work/shared/spec/resolvent-operator.txt``, "Object"), entry by
    entry in 40-digit mpmath: no code shared with either path of the module.

    ``m_k = clamp(lerp(1, u_k, g), 0, 1)``, ``a_k = m_k e^{i g θ_k}``, ``G_ij = Π_{k=j+1}^{i} a_k``,
    ``R_ij = |G_ij|``, ``Z_i = Σ_{j≤i} R_ij e^{qk s_ij}``, ``W_ij = G_ij e^{qk s_ij} / Z_i^β``.
    """
    beta, qk, g = (mpmath.mpf(float(x)) for x in (switches.beta, switches.qk, switches.g))
    n, d = q.shape
    with mpmath.workdps(40):
        m = [min(max(1 + g * (mpmath.mpf(float(x)) - 1), 0), 1) for x in u]
        a = [m_k * mpmath.expj(g * mpmath.mpf(float(t))) for m_k, t in zip(m, theta)]
        root = mpmath.sqrt(d)
        w = np.zeros((n, n), dtype=complex)
        path = []  # G_{i,j} for j < i, built from G_{i-1,j} · a_i
        modulus = []
        for i in range(n):
            path = [p * a[i] for p in path] + [mpmath.mpc(1)]
            modulus = [r * m[i] for r in modulus] + [mpmath.mpf(1)]
            kernel = [mpmath.exp(qk * mpmath.fsum(mpmath.mpf(float(x)) * mpmath.mpf(float(y))
                                                  for x, y in zip(q[i], k[j])) / root)
                      for j in range(i + 1)]
            z = mpmath.fsum(r * e for r, e in zip(modulus, kernel))
            norm = mpmath.exp(-beta * mpmath.log(z))
            for j in range(i + 1):
                w[i, j] = complex(path[j] * kernel[j] * norm)
    return w


@pytest.mark.parametrize("n, d, switches", [(24, 4, s) for s in SETTINGS]
                         + [(300, 3, Switches(0.5, 1.3, 0.7))], ids=str)  # 300: two row blocks
def test_both_paths_agree_with_the_spec_computed_in_high_precision(n, d, switches):
    """Each path against the spec's formulas, not only against its twin: a bug shared by the
    two paths (a blend, a clamp, a normaliser exponent) shows here."""
    q, k, u, theta = inputs(7 * n + d, n, d)
    reference = _reference_operator(q, k, u, theta, switches)
    for exact in (False, True):
        w = operator(q, k, u, theta, switches, exact_order=exact)
        gap = np.abs(w - reference)
        assert np.all(gap <= 1e-12 * np.maximum(1.0, np.abs(reference))), (exact, gap.max())
