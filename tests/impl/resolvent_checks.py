"""Inputs and exact checks shared by the resolvent operator's tests on its reproducible path
(``test_resolvent.py``) and its default BLAS path (``test_resolvent_fast.py``)."""

from __future__ import annotations

from typing import Callable

import numpy as np

from mirror.bundled.impl.resolvent import Switches


def inputs(seed: int, n: int, d: int, scale: float = 1.0):
    """Random q, k (seq, d), magnitudes u in [0, 1] and phases in [-pi, pi]."""
    rng = np.random.default_rng(seed)
    q = scale * rng.standard_normal((n, d))
    k = scale * rng.standard_normal((n, d))
    u = rng.uniform(0.0, 1.0, n)
    theta = rng.uniform(-np.pi, np.pi, n)
    return q, k, u, theta


def bits(x: np.ndarray) -> np.ndarray:
    """The IEEE bit patterns of a complex128 array (real and imaginary planes)."""
    return np.ascontiguousarray(x).view(np.uint64)


def assert_off_switches_exact(operator: Callable[..., np.ndarray], q, k, u, theta, u2, theta2) -> None:
    """For ``beta`` in 0, 0.5, 1, bit for bit: with ``g = 0`` the gates are gone, whatever
    ``u`` and ``theta`` are; with ``qk = 0`` queries and keys are gone, even ones whose dot
    products overflow."""
    huge = np.full(q.shape, 1e200)
    for beta in (0.0, 0.5, 1.0):
        off = Switches(beta, 1.0, 0.0)
        w = operator(q, k, u, theta, off)
        assert np.array_equal(bits(w), bits(operator(q, k, u2, theta2, off)))
        blind = Switches(beta, 0.0, 1.0)
        w = operator(q, k, u, theta, blind)
        assert np.array_equal(bits(w), bits(operator(huge, huge, u, theta, blind)))
