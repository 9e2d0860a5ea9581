"""The positional head: dense causal softmax vs FFT causal convolution (spec/positional-head.txt).

The reference below is the theorem's left-hand side written as a plain double loop over
``Finset.range (i + 1)``, with Lean's truncated ``ℕ`` subtraction spelled out; it shares no
code with :mod:`mirror.bundled.impl.positional`.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from bridge.errors import InvalidArgument
from mirror.bundled.impl.positional import (
    causal_convolution_head,
    causal_softmax_head,
    truncated_subtraction,
)


def _nat_sub(i: int, j: int) -> int:
    """Lean's ℕ subtraction."""
    return i - j if i >= j else 0


def _ref_head(a, v) -> np.ndarray:
    """sum_{j in range(i+1)} exp(a(i - j)) / (sum_{j'} exp(a(i - j'))) * v_j, one channel."""
    n = len(a)
    out = np.zeros(n)
    for i in range(n):
        den = sum(math.exp(a[_nat_sub(i, jp)]) for jp in range(i + 1))
        out[i] = sum(math.exp(a[_nat_sub(i, j)]) / den * v[j] for j in range(i + 1))
    return out


def _ref_convolution(a, v) -> np.ndarray:
    """The theorem's right-hand side: (sum_d e^{a d} v_{i-d}) / sum_d e^{a d}, one channel."""
    n = len(a)
    out = np.zeros(n)
    for i in range(n):
        num = sum(math.exp(a[d]) * v[_nat_sub(i, d)] for d in range(i + 1))
        out[i] = num / sum(math.exp(a[d]) for d in range(i + 1))
    return out


@pytest.mark.parametrize("n", [1, 2, 7, 33])
def test_the_dense_head_is_the_theorem_left_side(n):
    rng = np.random.default_rng(100 + n)
    a = rng.uniform(-3, 3, n)
    v = rng.standard_normal(n)
    dense = causal_softmax_head(a, v)
    assert dense.shape == (n,)
    assert np.max(np.abs(dense - _ref_head(a, v))) <= 1e-13
    # The theorem itself, numerically: both of its sides agree.
    assert np.max(np.abs(_ref_convolution(a, v) - _ref_head(a, v))) <= 1e-13


@pytest.mark.parametrize(("n", "channels"), [(1, 1), (5, 1), (64, 3), (257, 2), (1000, 4)])
def test_the_fft_head_matches_the_dense_head(n, channels):
    rng = np.random.default_rng(n * 10 + channels)
    a = rng.uniform(-5, 5, n)  # inside the documented regime
    v = rng.standard_normal((n, channels))
    dense = causal_softmax_head(a, v)
    fast = causal_convolution_head(a, v)
    assert fast.shape == dense.shape == (n, channels)
    scale = np.max(np.abs(v))
    assert np.max(np.abs(fast - dense)) <= 1e-9 * scale
    # Channels are independent: each column equals the one-channel head.
    for c in range(channels):
        assert np.max(np.abs(causal_convolution_head(a, v[:, c]) - fast[:, c])) <= 1e-12 * scale


def test_a_decaying_kernel_of_large_range_is_still_accurate():
    n = 2048
    a = -0.2 * np.arange(n)  # ALiBi-like, range 400: far outside |a| <= 5 but decaying
    v = np.random.default_rng(1).standard_normal((n, 2))
    assert np.max(np.abs(causal_convolution_head(a, v) - causal_softmax_head(a, v))) <= 1e-9


def test_large_scores_do_not_overflow_either_head():
    n = 50
    rng = np.random.default_rng(2)
    a = 800.0 + rng.uniform(-2, 2, n)  # e^800 overflows float64
    v = rng.standard_normal(n)
    dense = causal_softmax_head(a, v)
    fast = causal_convolution_head(a, v)
    assert np.all(np.isfinite(dense)) and np.all(np.isfinite(fast))
    assert np.max(np.abs(dense - fast)) <= 1e-9 * np.max(np.abs(v))
    # The shift cancels: adding a constant to every score changes nothing (to rounding).
    assert np.max(np.abs(dense - causal_softmax_head(a - 800.0, v))) <= 1e-12


def test_the_natural_subtraction_convention():
    assert truncated_subtraction(2, 5) == 0
    assert truncated_subtraction(5, 2) == 3
    assert truncated_subtraction(4, 4) == 0
    i = np.arange(4)[:, None]
    j = np.arange(4)[None, :]
    table = truncated_subtraction(i, j)
    assert table.tolist() == [[0, 0, 0, 0], [1, 0, 0, 0], [2, 1, 0, 0], [3, 2, 1, 0]]
    with pytest.raises(InvalidArgument, match="natural"):
        truncated_subtraction(-1, 2)
    with pytest.raises(InvalidArgument, match="natural"):
        truncated_subtraction(1.5, 2)
    # Above the diagonal i ∸ j = 0 reads a(0), a well-defined score; the head must still
    # sum over range(i + 1) only, so the future never leaks in.
    rng = np.random.default_rng(3)
    n = 12
    a = rng.uniform(-2, 2, n)
    a[0] = 10.0  # make a(0) dominant, so a leak through i ∸ j = 0 would show
    v = rng.standard_normal(n)
    for head in (causal_softmax_head, causal_convolution_head):
        base = head(a, v)
        changed = v.copy()
        changed[7:] += 100.0
        moved = head(a, changed)
        assert np.max(np.abs(moved[:7] - base[:7])) <= 1e-9
        assert np.min(np.abs(moved[7:] - base[7:])) > 1.0
    # Row 0 is v_0 exactly (a single key).
    assert causal_softmax_head(a, v)[0] == v[0]


def test_bad_input_is_refused_with_a_specific_message():
    a = np.zeros(4)
    v = np.ones(4)
    for head in (causal_softmax_head, causal_convolution_head):
        with pytest.raises(InvalidArgument, match=r"a\[2\] = nan"):
            head(np.array([0.0, 1.0, np.nan, 2.0]), v)
        with pytest.raises(InvalidArgument, match=r"v\[1, 0\] = inf"):
            head(a, np.array([[1.0], [np.inf], [0.0], [0.0]]))
        with pytest.raises(InvalidArgument, match="len\\(a\\) == len\\(v\\)"):
            head(np.zeros(3), v)
        with pytest.raises(InvalidArgument, match="1-D"):
            head(np.zeros((2, 2)), np.ones(2))
        with pytest.raises(InvalidArgument, match=r"\(n,\) or \(n, channels\)"):
            head(a, np.ones((4, 1, 1)))
        with pytest.raises(InvalidArgument, match="real numbers"):
            head(["x"] * 4, v)
        with pytest.raises(InvalidArgument, match="real numbers"):
            head(a, v + 1j)
        with pytest.raises(ValueError):  # InvalidArgument is a ValueError
            head(a, np.ones(5))
        assert head([], []).shape == (0,)
        assert head(np.zeros(0), np.zeros((0, 3))).shape == (0, 3)
