"""Integrals and matrices of the NumPy runtime (float64, batched: a matrix is ``(B, m, n)``).

A mixin of :class:`~mirror.evaluate.numpy_runtime.NumpyRuntime`: it uses ``batch``,
``batched``, ``every_draw``, ``active``, ``invalid``, ``tolerance``, ``truth`` and
``_uniform``.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from mirror.evaluate.batch import _de_substitution
from mirror.evaluate.truth import Truth


class LinearAlgebra:
    """``∫`` by a double-exponential rule, and the matrix operations."""

    inf = np.inf
    #: The trapezoid rule in ``u`` after a double-exponential substitution (step, half-width).
    _QUAD_STEP = 0.02
    _QUAD_HALF_WIDTH = 8.0

    def integral(self, body: Callable, lo, hi):
        """``∫ s in (lo, hi), body s`` by the trapezoid rule after a double-exponential
        substitution (``s = lo + exp(π/2 sinh u)`` on a half-line, ``tanh(π/2 sinh u)`` on a
        bounded interval, ``sinh(π/2 sinh u)`` on ℝ), which makes integrable endpoint
        singularities and algebraic tails decay double-exponentially. A statement whose
        float evaluation is off is re-evaluated with mpmath's quadrature before any verdict."""
        u = np.arange(-self._QUAD_HALF_WIDTH, self._QUAD_HALF_WIDTH + self._QUAD_STEP / 2,
                      self._QUAD_STEP)
        lo = self.batched(np.asarray(lo, dtype=float))
        hi = self.batched(np.asarray(hi, dtype=float))
        total = np.zeros(self.batch)
        first = np.full(self.batch, np.nan)
        last = np.full(self.batch, np.nan)
        for uk in u:
            s, ds = _de_substitution(uk, lo, hi)
            if not (np.isfinite(s) & (ds > 0)).any():
                continue
            value = np.asarray(self.batched(body(s)), dtype=float)
            term = value * ds * self._QUAD_STEP
            usable = np.isfinite(term) & (ds > 0)
            total = total + np.where(usable, term, 0.0)
            first = np.where(np.isnan(first) & usable, np.abs(term), first)
            last = np.where(usable, np.abs(term), last)
        # the rule is only trusted when the integrand has died out at both ends of the range
        tail = np.fmax(np.nan_to_num(first, nan=0.0), np.nan_to_num(last, nan=0.0))
        unreliable = ~np.isfinite(total) | (tail > 1e-12 * np.maximum(np.abs(total), 1e-300))
        self.invalid |= unreliable & self.active
        return total

    # ---- matrices -----------------------------------------------------------------------------

    def matmul(self, a, b):
        return np.matmul(a, b)

    def mat_add(self, a, b):
        return np.asarray(a) + np.asarray(b)

    def mat_sub(self, a, b):
        return np.asarray(a) - np.asarray(b)

    def mat_neg(self, a):
        return -np.asarray(a)

    def mat_smul(self, c, a):
        a = np.asarray(a)
        c = self.batched(c)
        return c.reshape((self.batch,) + (1,) * (a.ndim - 1)) * a

    def mat_pow(self, a, k):
        a = np.asarray(a)
        k = self.batched(np.asarray(k, dtype=np.int64))
        n = a.shape[-1]
        result = np.broadcast_to(np.eye(n), a.shape).copy()
        power = a.copy()
        remaining = k.copy()
        while (remaining > 0).any():
            odd = (remaining % 2 == 1).reshape((self.batch, 1, 1))
            result = np.where(odd, result @ power, result)
            power = power @ power
            remaining //= 2
        return result

    def mat_inv(self, a):
        """``Matrix.inv``: the inverse, or the zero matrix where ``A`` is singular."""
        a = np.asarray(a, dtype=float)
        out = np.zeros_like(a)
        for b in range(a.shape[0]):
            if a.shape[-1] == 0:
                continue
            try:
                out[b] = np.linalg.inv(a[b])
            except np.linalg.LinAlgError:
                out[b] = 0.0
        return out

    def det(self, a):
        a = np.asarray(a, dtype=float)
        if a.shape[-1] == 0:
            return np.ones(a.shape[0])
        return np.linalg.det(a)

    def pos_def(self, a) -> Truth:
        """Symmetric with positive eigenvalues (``Matrix.PosDef`` over ℝ)."""
        a = np.asarray(a, dtype=float)
        if a.shape[-1] == 0:
            return self.truth(True)
        transposed = np.swapaxes(a, -1, -2)
        scale = np.maximum(1.0, np.abs(a).reshape(a.shape[0], -1).max(axis=1))
        asymmetry = np.abs(a - transposed).reshape(a.shape[0], -1).max(axis=1) / scale
        smallest = np.linalg.eigvalsh((a + transposed) / 2)[:, 0] / scale
        exact = (asymmetry == 0) & (smallest > 0)
        # within tolerance: symmetric and no eigenvalue below −tolerance (relative to ‖A‖)
        err = np.maximum(asymmetry, np.maximum(-smallest, 0.0))
        margin = np.where(asymmetry > 0, asymmetry, np.abs(smallest))
        return Truth(err <= self.tolerance, exact, err, margin > self.tolerance)

    def eye(self, n):
        return self.every_draw(np.eye(self._uniform(n)))

    def zeros(self, m, n):
        return self.every_draw(np.zeros((self._uniform(m), self._uniform(n))))

    def transpose(self, a):
        return np.swapaxes(np.asarray(a), -1, -2)

    def outer(self, u, v):
        return np.asarray(u)[..., :, None] * np.asarray(v)[..., None, :]

    def mul_vec(self, a, v):
        return np.einsum("...ij,...j->...i", np.asarray(a), np.asarray(v))

