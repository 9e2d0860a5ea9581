"""The exact runtime: the operations of :class:`~mirror.evaluate.runtime.NumpyRuntime` in mpmath.

Used by :mod:`mirror.judge.exact` to decide the draws float64 cannot settle, and by the comparison
of a bound implementation with its Lean definition at 50 digits.
"""

from __future__ import annotations

import functools
from typing import Callable

import mpmath
import numpy as np

from mirror.evaluate.functions import MpFunctions
from mirror.evaluate.batch import install_unary
from mirror.evaluate.numpy_runtime import NumpyRuntime
from mirror.evaluate.truth import Truth


#: ``max`` of mp numbers as a ufunc (what :meth:`NumpyRuntime._fold` combines with).
_MAX = np.frompyfunc(max, 2, 1)


@functools.lru_cache(maxsize=None)
def _clone(digits: int) -> mpmath.ctx_mp.MPContext:
    ctx = mpmath.mp.clone()
    ctx.dps = digits
    return ctx


def context(digits: int) -> mpmath.ctx_mp.MPContext:
    """The mpmath context at ``digits`` decimal digits, one per precision (cloning one takes
    about 2 ms, longer than most exact decisions). Its precision is restored should anything
    have left it changed (mpmath's own ``workprec`` blocks restore it themselves)."""
    ctx = _clone(digits)
    if ctx.dps != digits:
        ctx.dps = digits
    return ctx


@functools.lru_cache(maxsize=None)
def _constants(digits: int) -> tuple:
    """``(i, 10^-(digits - 15))`` at ``digits`` digits (immutable; ~20 µs each to build)."""
    ctx = context(digits)
    return ctx.mpc(0, 1), ctx.mpf(10) ** -(digits - 15)


class MpRuntime(MpFunctions, NumpyRuntime):
    """The same operations in mpmath at ``digits`` decimal digits (object arrays, batch 1).

    Two modes. With a ``tolerance`` (comparing a bound float64 implementation with its Lean
    definition) relations hold within that relative tolerance. Without one (the default: the
    exact decision of a statement, :mod:`mirror.judge.exact`) a relation is decided on the
    high-precision values with a *zero band* of ``10^-(digits - 15)`` relative to
    ``max(1, |a|, |b|)``: differences inside it count as equality, a strict relation that
    holds only inside it is false, and Lean's junk branches (``x / 0``, ``log 0``) take the
    zero branch inside it. The caller re-evaluates at doubled precision until the decision is
    stable, so a true difference of 1e-40 is seen as such at 100 digits.
    """

    object_values = True

    def __init__(
        self,
        nat_domain: int,
        digits: int = 50,
        tolerance: float | None = None,
        bindings: dict[str, Callable] | None = None,
    ) -> None:
        super().__init__(1, nat_domain, 0.0 if tolerance is None else tolerance, bindings)
        self.context = context(digits)
        unit, band = _constants(digits)
        self.pi = self.context.pi
        self.I = unit
        self.exact_mode = tolerance is None
        #: Below this magnitude a value is zero for Lean's junk branches (exact mode only).
        self.band = band if tolerance is None else 0
        if self.exact_mode:
            self.tolerance = self.band  # an mpf: 10^-785 does not underflow
        #: The largest error estimate of a quadrature in this evaluation: in exact mode a
        #: relation cannot be decided more finely than the numbers it compares.
        self.uncertainty = 0

    @property
    def threshold(self):
        """The zero band of a relation in exact mode, widened by quadrature error estimates."""
        return max(self.tolerance, 10 * self.uncertainty)

    def _is_zero(self, value) -> bool:
        """``value = 0`` for a junk branch: exactly, or within the zero band in exact mode."""
        if isinstance(value, (int, np.integer)) or not self.exact_mode:
            return value == 0
        return abs(value) <= self.band

    def lift(self, value) -> np.ndarray:
        """A float array as an object array of mp numbers."""
        arr = np.asarray(value)
        if arr.dtype.kind in "iub":
            return arr
        out = np.empty(arr.shape, dtype=object)
        flat = out.reshape(-1)
        for i, v in enumerate(arr.reshape(-1)):
            flat[i] = self.context.mpc(v) if np.iscomplexobj(arr) else self.context.mpf(v)
        return out

    def _map(self, fn, x):
        arr = np.asarray(x, dtype=object) if not isinstance(x, np.ndarray) else x
        if arr.dtype.kind in "iub":
            arr = arr.astype(object)
        return np.frompyfunc(fn, 1, 1)(arr)

    def rational(self, p: int, q: int):
        return self.context.mpf(p) / q

    def number(self, text: str):
        return self.context.mpf(text)

    def integer(self, text: str):
        return self.context.mpf(int(text))


    def abs(self, x):
        return self._map(lambda v: abs(v) if not isinstance(v, (int, np.integer)) else abs(int(v)),
                         x)

    def re(self, x):
        return self._map(lambda v: self.context.re(v), x)

    def im(self, x):
        return self._map(lambda v: self.context.im(v), x)

    def conj(self, x):
        return self._map(lambda v: self.context.conj(v), x)

    def log(self, x):
        ctx = self.context
        return self._map(lambda v: ctx.mpf(0) if self._is_zero(v) else ctx.log(abs(ctx.mpf(v))),
                         x)

    def sqrt(self, x):
        ctx = self.context
        return self._map(lambda v: ctx.mpf(0) if v < 0 else ctx.sqrt(ctx.mpf(v)), x)

    def div(self, a, b):
        ctx = self.context

        def one(x, y):
            if self._is_zero(y):
                return ctx.mpf(0)
            if isinstance(x, (int, np.integer)) and isinstance(y, (int, np.integer)):
                return ctx.mpf(int(x)) / int(y)
            return x / y

        return np.frompyfunc(one, 2, 1)(np.asarray(a, dtype=object), np.asarray(b, dtype=object))

    def reciprocal(self, x):
        """``1 / x`` in :meth:`div`'s arithmetic (exact, and within the zero band)."""
        return self.div(1, x)

    def power(self, x, k):
        return np.frompyfunc(lambda a, n: a ** int(n), 2, 1)(
            np.asarray(x, dtype=object), np.asarray(k, dtype=object)
        )

    def rpow(self, x, y):
        ctx = self.context

        def one(a, b):
            a = ctx.mpf(a)
            b = ctx.mpf(b)
            if self._is_zero(a):
                return ctx.mpf(1) if b == 0 else ctx.mpf(0)
            if a > 0:
                return ctx.exp(ctx.log(a) * b)
            return ctx.exp(ctx.log(-a) * b) * ctx.cos(b * ctx.pi)

        return np.frompyfunc(one, 2, 1)(np.asarray(x, dtype=object), np.asarray(y, dtype=object))

    def maximum(self, *xs):
        out = np.asarray(xs[0], dtype=object)
        for x in xs[1:]:
            out = np.frompyfunc(max, 2, 1)(out, np.asarray(x, dtype=object))
        return out

    def minimum(self, *xs):
        out = np.asarray(xs[0], dtype=object)
        for x in xs[1:]:
            out = np.frompyfunc(min, 2, 1)(out, np.asarray(x, dtype=object))
        return out

    def sup_range(self, body, lo, hi):
        return self._reduce("sup", body, lo, hi, lambda: self._fold(body, lo, hi, 0, _MAX))

    def _extremum_fold(self, direction: int):
        pick = max if direction > 0 else min
        return None, np.frompyfunc(lambda a, b: b if a is None else pick(a, b), 2, 1)

    def _unreachable(self, reason: str):
        return self.context.nan

    def _term(self, value):
        return self.batched(np.asarray(value, dtype=object))

    def integral(self, body: Callable, lo, hi):
        """The integral by mpmath's tanh-sinh quadrature at the runtime's precision (a
        half-line is first mapped to ℝ by ``s = a + eˣ``). In exact mode two subdivisions are
        computed, and their disagreement counts as the quadrature's error."""
        ctx = self.context
        a = self.batched(np.asarray(lo, dtype=object)).reshape(-1)[0]
        b = self.batched(np.asarray(hi, dtype=object)).reshape(-1)[0]
        finite_a, finite_b = a not in (np.inf, -np.inf), b not in (np.inf, -np.inf)

        def value(s):
            return self.batched(np.asarray(body(np.array([s], dtype=object)),
                                           dtype=object)).reshape(-1)[0]

        if finite_a != finite_b:
            # a half-line mapped to ℝ by s = a + eˣ (or b − eˣ): features at s − a ~ 1e-30 sit
            # near x = −69, so the subdivisions reach that far in log space
            end = ctx.mpf(a if finite_a else b)
            sign = 1 if finite_a else -1

            def integrand(x):
                return value(end + sign * ctx.exp(x)) * ctx.exp(x)

            inf = ctx.inf
            subdivisions = ([-inf, -64, -32, -16, -8, 0, 8, inf],
                            [-inf, -72, -48, -24, -12, -4, 4, 16, inf])
        elif finite_a:
            a, b = ctx.mpf(a), ctx.mpf(b)
            integrand = value
            subdivisions = ([a, b], [a, a + (b - a) / 3, a + (b - a) / 2, b])
        else:
            integrand = value
            subdivisions = ([-ctx.inf, 0, ctx.inf], [-ctx.inf, -1, 0, 1, ctx.inf])
        # two subdivisions in exact mode: mpmath's error estimate can be optimistic by orders
        # of magnitude (a peak far from the nodes), the disagreement of two rules is not
        runs = [ctx.quad(integrand, points, error=True)
                for points in subdivisions[:2 if self.exact_mode else 1]]
        result = runs[0][0]
        error = max([e for _, e in runs] + [abs(v - result) for v, _ in runs])
        # a quadrature that does not converge decides nothing; in exact mode its error estimate
        # widens the zero band of the relations that use it (rising precision shrinks both)
        limit = 1e-12 if self.exact_mode else self.tolerance
        if not ctx.isfinite(result) or error > limit * max(1, abs(result)):
            self.invalid[:] = True
        elif self.exact_mode:
            # a quadrature is trusted to 15 significant digits, never more
            floor = self.context.mpf(10) ** -15 * max(1, abs(result))
            self.uncertainty = max(self.uncertainty, error, floor)
        return np.array([result], dtype=object)

    def mat_pow(self, a, k):
        a = np.asarray(a, dtype=object)
        k = int(np.asarray(k).reshape(-1)[0])
        n = a.shape[-1]
        result = self.eye(n)
        for _ in range(k):
            result = np.matmul(result, a)
        return result

    def mat_inv(self, a):
        """``Matrix.inv`` at the runtime's precision (zero where singular)."""
        ctx = self.context
        a = np.asarray(a, dtype=object)
        out = np.empty_like(a)
        for b in range(a.shape[0]):
            size = a.shape[-1]
            matrix = ctx.matrix([[a[b, i, j] for j in range(size)] for i in range(size)])
            if size and not self._is_zero(ctx.det(matrix)):
                inverse = ctx.inverse(matrix)
                for i in range(size):
                    for j in range(size):
                        out[b, i, j] = inverse[i, j]
            else:
                out[b] = ctx.mpf(0)
        return out

    def _mp_matrix(self, a, b: int):
        size = a.shape[-1]
        return self.context.matrix([[a[b, i, j] for j in range(size)] for i in range(size)])

    def det(self, a):
        a = np.asarray(a, dtype=object)
        if a.shape[-1] == 0:
            return np.array([self.context.mpf(1)], dtype=object)
        return np.array([self.context.det(self._mp_matrix(a, 0))], dtype=object)

    def pos_def(self, a) -> Truth:
        a = np.asarray(a, dtype=object)
        size = a.shape[-1]
        if size == 0:
            return self.truth(True)
        ctx = self.context
        matrix = self._mp_matrix(a, 0)
        scale = max([ctx.mpf(1)] + [abs(matrix[i, j]) for i in range(size) for j in range(size)])
        asymmetry = max(abs(matrix[i, j] - matrix[j, i]) for i in range(size)
                        for j in range(size)) / scale
        symmetric_part = (matrix + matrix.T) / 2
        smallest = min(ctx.eigsy(symmetric_part, eigvals_only=True)) / scale
        if self.exact_mode:
            exact = bool(asymmetry <= self.band and smallest > self.band)
            err = float(max(asymmetry, max(-smallest, 0)))
            return Truth(np.array([exact]), np.array([exact]), np.array([err]))
        exact = bool(asymmetry == 0 and smallest > 0)
        err = float(max(asymmetry, max(-smallest, 0)))
        return Truth(np.array([err <= self.tolerance]), np.array([exact]), np.array([err]))

    def eye(self, n):
        size = self._uniform(n)
        out = np.empty((1, size, size), dtype=object)
        for i in range(size):
            for j in range(size):
                out[0, i, j] = self.context.mpf(1 if i == j else 0)
        return out

    def mul_vec(self, a, v):
        a = np.asarray(a, dtype=object)
        v = np.asarray(v, dtype=object)
        return np.matmul(a, v[..., :, None])[..., 0]

    def _num(self, x):
        return np.asarray(x, dtype=object)

    def eq(self, a, b) -> Truth:
        a = self.batched(self._num(a))
        b = self.batched(self._num(b))
        flat_a = a.reshape(-1)
        flat_b = b.reshape(-1)
        worst = self.context.mpf(0)
        exact = True
        scale = max([self.context.mpf(1), *(abs(v) for v in flat_a), *(abs(v) for v in flat_b)])
        for x, y in zip(flat_a, flat_b):
            if x == y:
                continue
            exact = False
            gap = abs(x - y) / scale  # norm-wise, as in NumpyRuntime.eq
            if not self.context.isfinite(gap):  # ⊤ against a number: infinitely apart
                gap = self.context.inf
            worst = max(worst, gap)
        err = np.array([float(worst)])
        ok = bool(worst <= (self.threshold if self.exact_mode else self.tolerance))
        return Truth(np.array([ok]), np.array([ok if self.exact_mode else exact]), err)

    def _order(self, a, b, strict: bool) -> Truth:
        x = self.batched(self._num(a)).reshape(-1)[0]
        y = self.batched(self._num(b)).reshape(-1)[0]
        if isinstance(x, (int, np.integer)) and isinstance(y, (int, np.integer)):
            exact = bool(x < y) if strict else bool(x <= y)
            return Truth(np.array([exact]), np.array([exact]),
                         np.array([0.0 if exact else np.inf]))
        scale = max(self.context.mpf(1), abs(x), abs(y))
        gap = (x - y) / scale
        if self.exact_mode:
            # a difference inside the zero band is an equality
            exact = bool(gap < -self.threshold) if strict else bool(gap <= self.threshold)
            err = 0.0 if exact else float(max(gap, 0))
            return Truth(np.array([exact]), np.array([exact]), np.array([err]))
        exact = bool(x < y) if strict else bool(x <= y)
        err = 0.0 if exact else float(max(gap, 0))
        return Truth(np.array([exact or err <= self.tolerance]), np.array([exact]), np.array([err]))

    def ne(self, a, b) -> Truth:
        equal = self.eq(a, b)
        if self.exact_mode:
            return Truth(~equal.ok, ~equal.ok, np.zeros(1))
        a = self.batched(self._num(a)).reshape(-1)
        b = self.batched(self._num(b)).reshape(-1)
        exact = any(x != y for x, y in zip(a, b))
        return Truth(np.array([exact]), np.array([exact]), np.zeros(1))

    def to_float(self, x) -> np.ndarray:
        arr = np.asarray(x)
        if arr.dtype != object:
            return arr
        flat = list(arr.reshape(-1))
        is_complex = any(type(v).__name__ == "mpc" or isinstance(v, complex) for v in flat)
        kind = complex if is_complex else float
        return np.array([kind(v) for v in flat], dtype=kind).reshape(arr.shape)

    def from_float(self, x) -> np.ndarray:
        return self.lift(x)


__all__ = ["MpRuntime", "context"]


def _mpmath_unary(name: str, numpy_name: str, mpmath_name: str) -> Callable:
    return lambda self, x: self._map(getattr(self.context, mpmath_name), x)


install_unary(MpRuntime, _mpmath_unary)
