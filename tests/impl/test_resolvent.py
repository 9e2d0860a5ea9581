"""The resolvent operator's 17 spec tests (``spec/resolvent-operator.txt``), plus a few extras.

The references below are written here, as plain Python triple loops over small ``n`` and a
plain NumPy causal softmax; they share no code with :mod:`mirror.bundled.impl.resolvent`. Complex
products in the references are taken on ``(re, im)`` pairs by the textbook formula, one
rounding per operation, which is what makes the bitwise comparisons meaningful.

The spec's tests pin bits of the reproducible evaluation, so :func:`operator` and
:func:`readout` here are the module's with ``exact_order=True``; the default (BLAS) path is
held to the same properties, with stated tolerances where BLAS owns the last bits, in
``test_resolvent_fast.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from bridge.errors import InvalidArgument, LeanMirrorError
from mirror.bundled.impl import resolvent
from mirror.bundled.impl.resolvent import (
    PATH_PRODUCT,
    SOFTMAX,
    UNNORMALIZED_KERNEL,
    NonFinite,
    Switches,
    blend,
    chain_label,
    gate,
    path_product,
)
from tests.impl.resolvent_checks import assert_off_switches_exact, bits, inputs


def operator(*args, **kwargs) -> np.ndarray:
    """:func:`mirror.bundled.impl.resolvent.operator` on its reproducible path."""
    return resolvent.operator(*args, exact_order=True, **kwargs)


def readout(*args, **kwargs) -> np.ndarray:
    """:func:`mirror.bundled.impl.resolvent.readout` on its reproducible path."""
    return resolvent.readout(*args, exact_order=True, **kwargs)


# --------------------------------------------------------------------------- references


def _ref_blend(u: float, theta: float, g: float) -> tuple[float, float]:
    """clamp(lerp(1, u, g), 0, 1) with torch.lerp's two-branch form, and g * theta."""
    diff = u - 1.0
    value = 1.0 + g * diff if g < 0.5 else u - diff * (1.0 - g)
    return min(max(value, 0.0), 1.0), g * theta


def _ref_gate(m: float, theta: float) -> tuple[float, float]:
    """m e^{i theta} as an (re, im) pair."""
    return m * float(np.cos(theta)), m * float(np.sin(theta))


def _ref_gates(u, theta, g) -> list[tuple[float, float]]:
    """The gates a_k of the spec for every k, as (re, im) pairs."""
    return [_ref_gate(*_ref_blend(float(x), float(t), float(g))) for x, t in zip(u, theta)]


def _cmul(x: tuple[float, float], y: tuple[float, float]) -> tuple[float, float]:
    """(x_re + i x_im)(y_re + i y_im), one rounding per operation."""
    return x[0] * y[0] - x[1] * y[1], x[0] * y[1] + x[1] * y[0]


def _ref_path(gates: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """Triple loop: G_ij = prod_{k=i}^{j+1} a_k accumulated from k = i downwards."""
    n = len(gates)
    re = np.zeros((n, n))
    im = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1):
            acc = (1.0, 0.0)
            for k in range(i, j, -1):
                acc = _cmul(acc, gates[k])
            re[i, j], im[i, j] = acc
    return re, im


def _ref_modulus(m: list[float]) -> np.ndarray:
    """R_ij = prod_{k=j+1}^{i} m_k by a plain loop."""
    n = len(m)
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1):
            acc = 1.0
            for k in range(i, j, -1):
                acc *= m[k]
            out[i, j] = acc
    return out


def _ref_logits(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Triple loop: s_ij = (sum_t q_it k_jt) / sqrt(d), summed in t order."""
    n, d = q.shape
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            acc = 0.0
            for t in range(d):
                acc = acc + float(q[i, t]) * float(k[j, t])
            out[i, j] = acc / math.sqrt(d)
    return out


def _ref_causal_softmax(s: np.ndarray) -> np.ndarray:
    """Plain NumPy causal softmax with a max shift (the stand-in for sparse_attention)."""
    n = s.shape[0]
    mask = np.tril(np.ones((n, n), dtype=bool))
    shifted = np.where(mask, s, -np.inf)
    shifted = shifted - shifted.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(shifted), 0.0)
    return e / e.sum(axis=1, keepdims=True)


def _ref_operator(q, k, u, theta, beta, qk, g) -> np.ndarray:
    """Dense reference W_ij = G_ij e^{qk s_ij} / Z_i^beta, straight from the definition."""
    n = len(u)
    gates = _ref_gates(u, theta, g)
    g_re, g_im = _ref_path(gates)
    m = [_ref_blend(float(x), float(t), float(g))[0] for x, t in zip(u, theta)]
    r = _ref_modulus(m)
    s = _ref_logits(q, k) if qk != 0 else np.zeros((n, n))
    w = np.zeros((n, n), dtype=complex)
    for i in range(n):
        z = sum(r[i, j] * math.exp(qk * s[i, j]) for j in range(i + 1))
        for j in range(i + 1):
            e = math.exp(qk * s[i, j]) / z**beta
            w[i, j] = complex(g_re[i, j] * e, g_im[i, j] * e)
    return w


def _ref_chain(gates: list[tuple[float, float]], b) -> np.ndarray:
    """y_0 = 0, y_i = a_i y_{i-1} + b_i (the spec's chain, with b_0 = 0)."""
    y = (0.0, 0.0)
    out = [0j]
    for i in range(1, len(b)):
        ay = _cmul(gates[i], y)
        y = (ay[0] + float(b[i]), ay[1])
        out.append(complex(*y))
    return np.array(out)




# --------------------------------------------------------------------------- the 17 tests


def test_the_softmax_corner_is_causal_softmax_and_matches_the_crate_reference():
    q, k, u, theta = inputs(1, 24, 8)
    w = operator(q, k, u, theta, SOFTMAX)
    reference = _ref_causal_softmax(_ref_logits(q, k))
    assert w.dtype == np.complex128 and w.shape == (24, 24)
    assert np.max(np.abs(w.real - reference)) <= 1e-14
    assert np.all(w.imag == 0.0)
    # The definition, Z taken directly, agrees too.
    dense = _ref_operator(q, k, u, theta, 1.0, 1.0, 0.0)
    assert np.max(np.abs(w - dense)) <= 1e-14


def test_the_unnormalized_kernel_corner_is_the_bare_exponential_bitwise():
    q, k, u, theta = inputs(2, 16, 5)
    w = operator(q, k, u, theta, UNNORMALIZED_KERNEL)
    expected = np.tril(np.exp(_ref_logits(q, k)))
    assert np.array_equal(w.real, expected)
    assert np.all(w.imag == 0.0)
    assert np.all(np.triu(w, 1) == 0)


def test_the_path_product_corner_is_the_gate_product_bitwise():
    rng = np.random.default_rng(3)
    n, d = 20, 4
    q, k, _, theta = inputs(3, n, d)
    u = rng.uniform(-0.2, 1.2, n)  # some clamp to 0 and to 1
    u[[3, 11]] = 0.0  # closed gates
    u[[5, 6, 7, 15]] = 1.0  # unit gates
    ref_re, ref_im = _ref_path(_ref_gates(u, theta, 1.0))
    w = operator(q, k, u, theta, PATH_PRODUCT)
    assert np.array_equal(w.real, ref_re) and np.array_equal(w.imag, ref_im)
    gates = np.array([complex(*a) for a in _ref_gates(u, theta, 1.0)])
    g = path_product(gates)
    assert np.array_equal(bits(g.real), bits(ref_re))
    assert np.array_equal(bits(g.imag), bits(ref_im))
    # prefix_logit_mask_restated: |G_ij| <= 1.
    assert np.max(np.abs(g)) <= 1.0 + 1e-15
    # a_0 is never read.
    changed = gates.copy()
    changed[0] = 123.0 - 7.0j
    assert np.array_equal(bits(path_product(changed)), bits(g))


def test_the_three_corners_are_distinct_operators():
    q, k, u, theta = inputs(4, 8, 3)
    # corners_are_distinct: g = 0, qk = 0, entry (1, 0) is 1/2 at beta = 1 and 1 at beta = 0.
    assert operator(q, k, u, theta, Switches(1.0, 0.0, 0.0))[1, 0] == 0.5
    assert operator(q, k, u, theta, Switches(0.0, 0.0, 0.0))[1, 0] == 1.0
    # Random inputs separate every pair of corners by more than 0.5.
    q, k, u, theta = inputs(5, 16, 4, scale=1.5)
    corners = {
        "softmax": operator(q, k, u, theta, SOFTMAX),
        "kernel": operator(q, k, u, theta, UNNORMALIZED_KERNEL),
        "path": operator(q, k, u, theta, PATH_PRODUCT),
    }
    names = sorted(corners)
    for x in range(3):
        for y in range(x + 1, 3):
            gap = np.max(np.abs(corners[names[x]] - corners[names[y]]))
            assert gap > 0.5, (names[x], names[y], gap)


def test_beta_alone_decides_row_stochasticity():
    n = 20
    q, k, u, theta = inputs(6, n, 6)
    u[[4, 9]] = 0.0
    # Gates off.
    rows = operator(q, k, u, theta, SOFTMAX).sum(axis=1)
    assert np.max(np.abs(rows - 1.0)) <= 1e-14
    # Gates on, real (phase 0): G = R, rows of W sum to 1.
    w = operator(q, k, u, np.zeros(n), Switches(1.0, 1.0, 1.0))
    assert np.all(w.imag == 0.0)
    assert np.max(np.abs(w.sum(axis=1) - 1.0)) <= 1e-14
    # Gates on with phases: the moduli are the stochastic rows.
    w = operator(q, k, u, theta, Switches(1.0, 1.0, 1.0))
    assert np.max(np.abs(np.abs(w).sum(axis=1) - 1.0)) <= 1e-14
    # The bare head (g = 0, beta = 0, qk = 0): row i sums to exactly i + 1.
    bare = operator(q, k, u, theta, Switches(0.0, 0.0, 0.0))
    assert np.array_equal(bare.sum(axis=1), np.arange(1, n + 1, dtype=float) + 0j)
    # beta = 0 with gates on is still not stochastic: g does not decide membership.
    gated = operator(q, k, u, np.zeros(n), Switches(0.0, 1.0, 1.0))
    assert np.max(np.abs(gated.sum(axis=1) - 1.0)) > 0.5


def test_the_path_product_modulus_is_the_product_of_magnitudes():
    rng = np.random.default_rng(7)
    n = 24
    m = rng.uniform(0.0, 1.0, n)
    m[[2, 8, 9, 10, 17]] = 1.0
    theta = rng.uniform(-np.pi, np.pi, n)
    gates = np.array([complex(*_ref_gate(float(x), float(t))) for x, t in zip(m, theta)])
    g = path_product(gates)
    r = _ref_modulus(m.tolist())
    assert np.max(np.abs(np.abs(g) - r)) <= 1e-14
    # |G_ij| = 1 exactly on paths of unit magnitudes only (here: k in 8..10, i.e. G[10, 7]).
    assert abs(abs(g[10, 7]) - 1.0) <= 1e-14
    assert abs(g[11, 7]) < 1.0 - 1e-3


def test_a_closed_gate_annihilates_every_path_through_it_exactly():
    n, closed = 12, 5
    q, k, u, theta = inputs(8, n, 3, scale=3.0)
    u[closed] = -1e6  # clamps to m = 0 for every g >= 1e-6
    for beta in (0.0, 0.5, 1.0):
        for qk in (0.0, 1.0, 7.5):
            for g in (1.0, 0.5, 0.01):
                w = operator(q, k, u, theta, Switches(beta, qk, g))
                assert not np.isnan(w).any()
                through = w[closed:, :closed]  # paths j < closed <= i
                assert np.all(through.real == 0.0) and np.all(through.imag == 0.0)
                rest = w[closed:, closed:]
                assert np.all(np.abs(np.diag(rest)) > 0.0)
    gates = np.array([complex(*a) for a in _ref_gates(u, theta, 1.0)])
    g = path_product(gates)
    assert np.all(g[closed:, :closed] == 0)
    assert np.all(np.abs(g[:closed, :closed][np.tril_indices(closed)]) > 0)  # no other zero


def test_the_bedm_values_are_ordinary_points_of_the_gate():
    minus_one = gate(1.0, math.pi)
    zero = gate(0.0, 0.0)
    plus_one = gate(1.0, 0.0)
    assert minus_one.real == -1.0 and abs(minus_one.imag) <= 1.3e-16
    assert zero.real == 0.0 and zero.imag == 0.0
    assert plus_one.real == 1.0 and plus_one.imag == 0.0
    # negative_draw_is_on_the_band: the blended gates reach them from raw draws.
    assert blend(1.0, math.pi, 1.0) == (1.0, math.pi)
    assert blend(0.0, 0.0, 1.0) == (0.0, 0.0)
    assert blend(-3.0, 0.0, 1.0)[0] == 0.0  # clamped into the band
    arr = gate(np.array([1.0, 0.0, 1.0]), np.array([math.pi, 0.0, 0.0]))
    assert np.array_equal(arr.real, [-1.0, 0.0, 1.0])
    assert np.all(np.abs(arr) <= 1.0)


def test_a_constant_phase_is_the_rope_kernel_and_every_phase_schedule_separates():
    n = 32
    q, k, _, _ = inputs(9, n, 4)
    ones = np.ones(n)
    omega = 0.37
    w = operator(q, k, ones, np.full(n, omega), PATH_PRODUCT)
    idx = np.arange(n)
    lag = idx[:, None] - idx[None, :]
    rope = np.where(lag >= 0, np.exp(1j * omega * lag), 0)
    assert np.max(np.abs(w - rope)) <= 1e-13
    # Toeplitz: G[i+1, j+1] = G[i, j].
    assert np.max(np.abs(w[1:, 1:] - w[:-1, :-1])) <= 1e-13
    # Any schedule: G_ij = e^{i(Theta_i - Theta_j)}, Theta the prefix sum.
    theta = np.random.default_rng(10).uniform(-np.pi, np.pi, n)
    cumulative = np.cumsum(theta)
    w = operator(q, k, ones, theta, PATH_PRODUCT)
    f = np.exp(1j * cumulative)
    separable = np.tril(f[:, None] * np.conj(f)[None, :])
    assert np.max(np.abs(w - separable)) <= 1e-13


def test_scalar_gates_commute_within_a_window():
    rng = np.random.default_rng(11)
    n, lo, hi = 16, 5, 9  # the window holds k = 5..9
    m = rng.uniform(0.3, 1.0, n)
    theta = rng.uniform(-np.pi, np.pi, n)
    gates = np.array([complex(*_ref_gate(float(x), float(t))) for x, t in zip(m, theta)])
    permuted = gates.copy()
    permuted[lo : hi + 1] = gates[lo : hi + 1][rng.permutation(hi - lo + 1)]
    assert not np.array_equal(permuted, gates)
    g = path_product(gates)
    gp = path_product(permuted)
    for i in range(n):
        for j in range(i + 1):
            path = set(range(j + 1, i + 1))
            if set(range(lo, hi + 1)) <= path:
                assert abs(gp[i, j] - g[i, j]) <= 1e-15
            elif not path & set(range(lo, hi + 1)):
                assert bits(gp[i : i + 1, j]).tolist() == bits(g[i : i + 1, j]).tolist()


def test_the_path_product_corner_reads_out_the_chain_and_inverts_the_gate_shift():
    n = 24
    q, k, u, theta = inputs(12, n, 3)
    b = np.random.default_rng(13).standard_normal(n)
    b[0] = 0.0
    w = operator(q, k, u, theta, PATH_PRODUCT)
    out = readout(w, b)
    assert out.shape == (n, 1)
    gates_ref = _ref_gates(u, theta, 1.0)
    chain = _ref_chain(gates_ref, b)
    assert np.max(np.abs(out[:, 0] - chain)) <= 1e-12
    gates = np.array([complex(*a) for a in gates_ref])
    assert np.max(np.abs(chain_label(gates, b) - chain)) <= 1e-12
    # G (I - A) = I and (I - A) G = I: the resolvent of the gate shift.
    shift = np.zeros((n, n), dtype=complex)
    shift[np.arange(1, n), np.arange(n - 1)] = gates[1:]
    eye = np.eye(n)
    assert np.max(np.abs(w @ (eye - shift) - eye)) <= 1e-14
    assert np.max(np.abs((eye - shift) @ w - eye)) <= 1e-14
    # The Neumann series terminates: sum_{k<n} A^k = G.
    neumann = np.zeros((n, n), dtype=complex)
    power = eye.astype(complex)
    for _ in range(n):
        neumann += power
        power = power @ shift
    assert np.max(np.abs(neumann - w)) <= 1e-14
    # Planted negative: beta = 1 breaks the chain.
    broken = readout(operator(q, k, u, theta, Switches(1.0, 0.0, 1.0)), b)
    assert np.max(np.abs(broken[:, 0] - chain)) > 0.1


def test_perturbing_the_future_never_moves_the_past():
    n, d = 20, 4
    q, k, u, theta = inputs(14, n, d)
    rng = np.random.default_rng(15)
    settings = [SOFTMAX, UNNORMALIZED_KERNEL, PATH_PRODUCT, Switches(0.5, 1.3, 0.7)]
    for switches in settings:
        w = operator(q, k, u, theta, switches)
        assert np.all(np.triu(w, 1) == 0)
        for t in (0, 6, 13):
            q2, k2, u2, th2 = q.copy(), k.copy(), u.copy(), theta.copy()
            q2[t + 1 :] = rng.standard_normal((n - t - 1, d)) * 3
            k2[t + 1 :] = rng.standard_normal((n - t - 1, d)) * 3
            u2[t + 1 :] = rng.uniform(0, 1, n - t - 1)
            th2[t + 1 :] = rng.uniform(-3, 3, n - t - 1)
            w2 = operator(q2, k2, u2, th2, switches)
            assert np.array_equal(bits(w2[: t + 1]), bits(w[: t + 1]))
            assert np.all(np.triu(w2, 1) == 0)
            # Stronger: the prefix alone gives the same rows, whatever n is.
            prefix = operator(q[: t + 1], k[: t + 1], u[: t + 1], theta[: t + 1], switches)
            assert np.array_equal(bits(prefix), bits(w[: t + 1, : t + 1]))


def test_an_off_switch_deletes_its_term_exactly():
    n, d = 14, 3
    q, k, u, theta = inputs(16, n, d)
    q2, k2, u2, theta2 = inputs(17, n, d, scale=4.0)
    assert_off_switches_exact(operator, q, k, u, theta, u2, theta2)
    for beta in (0.0, 0.5, 1.0):
        # g = 0 is the unit gate (u = 1, theta = 0), and real.
        w = operator(q, k, u, theta, Switches(beta, 1.0, 0.0))
        unit = operator(q, k, np.ones(n), np.zeros(n), Switches(beta, 1.0, 1.0))
        assert np.array_equal(bits(w), bits(unit))
        assert np.all(w.imag == 0.0)
        # qk = 0: other queries and keys give the same bits.
        blind = Switches(beta, 0.0, 1.0)
        w = operator(q, k, u, theta, blind)
        assert np.array_equal(bits(w), bits(operator(q2, k2, u, theta, blind)))


def test_logits_of_ten_thousand_stay_finite_at_beta_one():
    n, d = 16, 4
    q, k, u, theta = inputs(18, n, d, scale=80.0)
    s = _ref_logits(q, k)
    causal = np.tril(np.ones((n, n), dtype=bool))
    assert np.max(np.abs(s[causal])) > 1e4  # planted: logits past 1e4
    with np.errstate(over="ignore"):
        assert np.isinf(np.exp(s[causal])).any()  # the dense form overflows here
    w = operator(q, k, u, theta, SOFTMAX)
    assert np.all(np.isfinite(w))
    assert np.max(np.abs(w)) <= 1.0
    assert np.max(np.abs(w.sum(axis=1) - 1.0)) <= 1e-9
    assert np.max(np.abs(w.real - _ref_causal_softmax(s))) <= 1e-9
    # Gates on (real, with a closed one) stay finite and stochastic too.
    u[6] = 0.0
    w = operator(q, k, u, np.zeros(n), Switches(1.0, 1.0, 1.0))
    assert np.all(np.isfinite(w))
    assert np.max(np.abs(w.sum(axis=1) - 1.0)) <= 1e-9


def test_an_overflowing_logit_never_becomes_nan():
    n = 4
    q = np.array([[1.0], [200.0], [1.0], [1.0]])
    k = np.array([[100.0], [1.0], [1.0], [1.0]])  # s_10 = 2e4, head_dim 1
    u = np.array([1.0, 1.0, 0.0, 1.0])
    theta = np.zeros(n)
    w = operator(q, k, u, theta, UNNORMALIZED_KERNEL)
    assert w[1, 0].real == np.inf and w[1, 0].imag == 0.0
    assert not np.isnan(w).any()
    # Gates on: the closed gate at k = 2 keeps its dead entries exactly 0.
    for beta in (0.0, 0.25, 0.5):
        w = operator(q, k, u, theta, Switches(beta, 1.0, 1.0))
        assert not np.isnan(w).any()
        assert w[1, 0].real == np.inf and w[1, 0].imag == 0.0
        assert np.all(w[2:, :2] == 0)
    # A complex gate: both lanes non-zero, both read infinity, none NaN.
    w = operator(q, k, np.ones(n), np.full(n, 0.5), Switches(0.0, 1.0, 1.0))
    assert np.isinf(w[1, 0].real) and np.isinf(w[1, 0].imag)
    assert not np.isnan(w).any()


def test_non_finite_input_is_refused():
    n, d = 5, 2
    q, k, u, theta = inputs(19, n, d)
    cases = []
    for bad in (np.nan, np.inf, -np.inf):
        cases.append(("query", (q.copy(), k, u, theta, SOFTMAX), ("q", (2, 1), bad)))
        cases.append(("key", (q, k.copy(), u, theta, SOFTMAX), ("k", (0, 0), bad)))
        cases.append(("magnitude", (q, k, u.copy(), theta, SOFTMAX), ("u", (3,), bad)))
        cases.append(("phase", (q, k, u, theta.copy(), SOFTMAX), ("theta", (4,), bad)))
        for field in range(3):
            values = [1.0, 1.0, 1.0]
            values[field] = bad
            cases.append(("switch", (q, k, u, theta, Switches(*values)), None))
    for input_class, args, poke in cases:
        args = list(args)
        if poke is not None:
            position = {"q": 0, "k": 1, "u": 2, "theta": 3}[poke[0]]
            args[position][poke[1]] = poke[2]
        with pytest.raises(NonFinite) as info:
            operator(*args)
        assert info.value.input == input_class
        assert input_class in str(info.value)
        assert isinstance(info.value, ArithmeticError)
        assert isinstance(info.value, LeanMirrorError)
    # A blended phase g * theta that overflows.
    with pytest.raises(NonFinite) as info:
        operator(q, k, u, np.full(n, 1e200), Switches(0.0, 1.0, 1e200))
    assert info.value.input == "blended phase"
    # A logit qk * s_ij that overflows: through the dot product, and through qk.
    big = np.full((n, d), 1e200)
    with pytest.raises(NonFinite) as info:
        operator(big, big, u, theta, SOFTMAX)
    assert info.value.input == "logit"
    with pytest.raises(NonFinite) as info:
        operator(q * 1e10, k * 1e10, u, theta, Switches(1.0, 1e300, 0.0))
    assert info.value.input == "logit"
    # A NaN dot product (inf - inf) is a non-finite logit too.
    opposed = np.array([[1e200, 1e200]] * n)
    flipped = np.array([[1e200, -1e200]] * n)
    with pytest.raises(NonFinite) as info:
        operator(opposed, flipped, u, theta, SOFTMAX)
    assert info.value.input == "logit"
    # With qk = 0 an overflowing (even NaN) dot product is accepted.
    for switches in (Switches(1.0, 0.0, 0.0), Switches(0.0, 0.0, 1.0)):
        assert np.all(np.isfinite(operator(big, big, u, theta, switches)))
        assert np.all(np.isfinite(operator(opposed, flipped, u, theta, switches)))


def test_an_empty_sequence_is_empty_and_no_row_is_ever_all_masked():
    empty = np.zeros((0, 3))
    for switches in (SOFTMAX, UNNORMALIZED_KERNEL, PATH_PRODUCT):
        w = operator(empty, empty, [], [], switches)
        assert w.shape == (0, 0) and w.dtype == np.complex128
    out = readout(np.zeros((0, 0), dtype=complex), np.zeros((0, 2)))
    assert out.shape == (0, 2) and out.dtype == np.complex128
    assert chain_label([], []).shape == (0,)
    assert path_product([]).shape == (0, 0)
    assert operator([], [], [], [], seq=0, head_dim=0).shape == (0, 0)
    # Closing every gate leaves the identity (at beta = 1, or with qk = 0).
    n = 10
    q, k, _, theta = inputs(20, n, 3)
    closed = np.zeros(n)
    eye = np.eye(n)
    settings = [
        (Switches(1.0, 1.0, 1.0), closed),
        (Switches(1.0, 2.0, 0.5), np.full(n, -1.0)),  # lerp(1, -1, 1/2) = 0
        (PATH_PRODUCT, closed),
        (Switches(0.3, 0.0, 1.0), closed),
    ]
    for switches, magnitudes in settings:
        w = operator(q, k, magnitudes, theta, switches)
        assert np.array_equal(w, eye.astype(complex))
    # Any setting: every row keeps a live, non-zero diagonal.
    for switches in (SOFTMAX, UNNORMALIZED_KERNEL, PATH_PRODUCT, Switches(0.0, 1.0, 1.0)):
        w = operator(q, k, closed, theta, switches)
        assert np.all(np.abs(np.diag(w)) > 0)
        assert np.all(np.abs(w).sum(axis=1) > 0)


# --------------------------------------------------------------------------- extras


def test_the_softmax_corner_matches_torch_sdpa():
    import torch
    q, k, u, theta = inputs(21, 24, 8)
    w = operator(q, k, u, theta, SOFTMAX)
    tq = torch.from_numpy(q)[None, None]
    tk = torch.from_numpy(k)[None, None]
    tv = torch.eye(24, dtype=torch.float64)[None, None]  # V = I reads the weights out
    weights = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=True)
    assert weights.dtype == torch.float64
    assert np.max(np.abs(w.real - weights[0, 0].numpy())) <= 1e-14
    values = np.random.default_rng(22).standard_normal((24, 5))
    out = torch.nn.functional.scaled_dot_product_attention(
        tq, tk, torch.from_numpy(values)[None, None], is_causal=True
    )
    assert np.max(np.abs(readout(w, values) - out[0, 0].numpy())) <= 1e-13


def test_flat_row_major_inputs_match_two_dimensional_ones():
    q, k, u, theta = inputs(23, 7, 3)
    w = operator(q, k, u, theta, Switches(0.5, 1.0, 0.5))
    flat = operator(q.ravel(), k.ravel(), u, theta, Switches(0.5, 1.0, 0.5), seq=7, head_dim=3)
    assert np.array_equal(bits(w), bits(flat))
    v = np.random.default_rng(24).standard_normal((7, 2))
    assert np.array_equal(readout(w.ravel(), v.ravel(), seq=7, value_dim=2), readout(w, v))
    assert operator(q, k, u, theta, (1.0, 1.0, 0.0)).shape == (7, 7)


def test_shape_mismatches_raise_value_errors_naming_the_shapes():
    q, k, u, theta = inputs(25, 5, 2)
    bad_calls = [
        lambda: operator(q, k[:4], u, theta),
        lambda: operator(q, k, u[:4], theta),
        lambda: operator(q, k, u, theta[:3]),
        lambda: operator(q.ravel(), k.ravel(), u, theta, seq=5, head_dim=3),
        lambda: operator(np.zeros((5, 0)), np.zeros((5, 0)), u, theta),
        lambda: operator(q[None], k, u, theta),
        lambda: readout(np.zeros((5, 4)), np.zeros(5)),
        lambda: readout(np.zeros((5, 5)), np.zeros((4, 2))),
        lambda: chain_label(np.ones(3), np.ones(4)),
        lambda: path_product(np.ones((2, 2))),
    ]
    for call in bad_calls:
        with pytest.raises(ValueError) as info:
            call()
        assert isinstance(info.value, InvalidArgument)
        assert "shape" in str(info.value) or "length" in str(info.value)
    with pytest.raises(ValueError, match="head_dim is 0"):
        operator(np.zeros((5, 0)), np.zeros((5, 0)), u, theta)
    with pytest.raises(InvalidArgument, match="expected real numbers"):
        operator(q, k, ["a"] * 5, theta)
    with pytest.raises(InvalidArgument, match="switches"):
        operator(q, k, u, theta, "softmax")
    with pytest.raises(NonFinite, match="value"):
        readout(np.eye(5), np.full(5, np.nan))


def test_causal_triangle_only_is_checked_for_overflow():
    q = np.array([[1e200], [1.0]])
    k = np.array([[1.0], [1e200]])  # s_01 overflows but lies above the diagonal
    w = operator(q, k, [1.0, 1.0], [0.0, 0.0], Switches(1.0, 1.0, 0.0))
    assert np.all(np.isfinite(w)) and w[0, 1] == 0
