"""NumPy kernels mirrored by the Lean definitions of ``lean/Toy/Basic.lean``.

``prefix_sum`` is deliberately wrong: it computes the exclusive prefix sum (``a 0 + … +
a (i - 1)``) where Lean's ``Toy.prefixSum`` is inclusive, so leanmirror refutes it, and the
theorem ``Toy.prefixSum_succ`` checked against it, with a shrunk counterexample.
"""

import numpy as np


def relu(x: float) -> float:
    """``max(x, 0)`` for one float."""
    return max(x, 0.0)


def prefix_sum(a: np.ndarray) -> np.ndarray:
    """Prefix sums of a 1-D array. WRONG on purpose: exclusive instead of inclusive."""
    return np.concatenate([[0.0], np.cumsum(a)[:-1]])


def logsumexp(x: np.ndarray) -> float:
    """``log Σ exp x`` in the stable form, ``max + log1p(Σ_{others} exp(x - max))`` (``log``
    of a sum near 1 would lose digits: 117 ulps at ``x = [-5, 0]``); Lean's ``Real.log 0 =
    0`` for an empty ``x``."""
    if x.size == 0:
        return 0.0
    at = int(np.argmax(x))
    top = x[at]
    rest = np.exp(np.delete(x, at) - top)
    return float(top + np.log1p(np.sum(rest)))


def attn(tau: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Softmax of ``s[B, n]`` at temperatures ``tau[B]``, a whole batch in one call."""
    z = s / tau[:, None]
    z = z - np.max(z, axis=1, keepdims=True, initial=-np.inf)
    e = np.exp(z)
    return e / np.sum(e, axis=1, keepdims=True)
