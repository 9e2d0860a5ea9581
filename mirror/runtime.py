"""Runtimes that generated properties call: batched float64 NumPy, and 50-digit mpmath.

A property is evaluated on a *batch* of draws at once: every scalar is an array of shape
``(B,)``, every ``ℕ → ℝ`` argument an array ``(B, N)``, every matrix ``(B, m, n)``. Finite
sums and quantifiers loop over the index with a per-draw mask, so draws with different bounds
share one evaluation. An index outside a sampled array, reached by an active draw, marks that
draw *out of domain* (it is rejected, never evaluated with a clipped value).

Propositions evaluate to :class:`Truth`: ``ok`` (with tolerance), ``exact`` (without) and
``err`` (the largest relative deviation of an equation, or the violation of an inequality).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import mpmath
import numpy as np

from bridge.errors import LeanMirrorError
from mirror.functions import MpFunctions, NumpyFunctions

#: Sums and quantifiers over more indices than this are refused (the draw is out of domain).
MAX_RANGE = 1 << 16


class OutOfDomain(LeanMirrorError, IndexError):
    """A whole evaluation left the sampled domain."""


@dataclass
class Truth:
    """A batched proposition value.

    ``sure`` says, per draw, whether the float64 truth value is beyond doubt: no relation
    that decides it lies within the tolerance of its boundary. A draw that is not sure is
    decided exactly before it counts (:mod:`mirror.exact`). ``None`` means sure everywhere
    (boolean data, constants, the exact runtimes)."""

    ok: np.ndarray
    exact: np.ndarray
    err: np.ndarray
    sure: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.sure is None:
            self.sure = np.ones(np.shape(self.ok), dtype=bool)


def _de_substitution(u: float, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(s, ds/du)`` of the double-exponential map from ``u ∈ ℝ`` onto ``(lo, hi)``."""
    lower, upper = np.isfinite(lo), np.isfinite(hi)
    inner = np.pi / 2 * np.sinh(u)
    douter = np.pi / 2 * np.cosh(u)
    lo0, hi0 = np.where(lower, lo, 0.0), np.where(upper, hi, 0.0)
    grow = np.exp(inner)
    s = np.where(lower & upper, (hi0 + lo0) / 2 + (hi0 - lo0) / 2 * np.tanh(inner),
                 np.where(lower, lo0 + grow,
                          np.where(upper, hi0 - 1 / grow, np.sinh(inner))))
    ds = np.where(lower & upper, (hi0 - lo0) / 2 / np.cosh(inner) ** 2 * douter,
                  np.where(lower, grow * douter,
                           np.where(upper, douter / grow, np.cosh(inner) * douter)))
    return s, ds


class NumpyRuntime(NumpyFunctions):
    """Batched float64/complex128 evaluation."""

    #: Relative tolerance of equations (``|a − b| ≤ tol · max(1, |a|, |b|)``).
    def __init__(
        self,
        batch: int,
        nat_domain: int,
        tolerance: float = 1e-9,
        bindings: dict[str, Callable] | None = None,
    ) -> None:
        self.batch = batch
        self.nat_domain = nat_domain
        self.tolerance = tolerance
        self.bindings = bindings or {}
        self.invalid = np.zeros(batch, dtype=bool)
        self.impl_nonfinite = np.zeros(batch, dtype=bool)
        self._masks: list[np.ndarray] = []
        self._memo: dict = {}
        self.pi = np.pi
        self.I = 1j

    # ---- masks --------------------------------------------------------------------------------

    @property
    def active(self) -> np.ndarray:
        if self._masks:
            return self._masks[-1]
        return np.ones(self.batch, dtype=bool)

    def _push(self, mask: np.ndarray) -> None:
        self._masks.append(self.active & mask)

    def _pop(self) -> None:
        self._masks.pop()

    def batched(self, x: Any) -> np.ndarray:
        """``x`` broadcast to the batch (leading axis ``B``)."""
        arr = np.asarray(x)
        if arr.ndim == 0 or arr.shape[0] != self.batch:
            arr = np.broadcast_to(arr, (self.batch,) + arr.shape)
        return arr

    def _where(self, mask: np.ndarray, a: Any, b: Any) -> np.ndarray:
        a = np.asarray(a)
        b = np.asarray(b)
        nd = max(a.ndim, b.ndim, 1)
        shaped = mask.reshape((self.batch,) + (1,) * (nd - 1)) if nd >= 1 else mask
        return np.where(shaped, a, b)

    # ---- numbers ------------------------------------------------------------------------------

    def rational(self, p: int, q: int) -> float:
        return p / q

    def number(self, text: str) -> float:
        return float(text)

    def integer(self, text: str) -> float:
        """An integer literal beyond float64's exact integers (the float filter rounds it;
        the exact runtimes keep it)."""
        return float(int(text))

    def exp(self, x):
        with np.errstate(over="ignore", invalid="ignore"):
            return np.exp(x)

    def _unary(name):  # noqa: N805 - table helper
        def method(self, x):
            with np.errstate(all="ignore"):
                return getattr(np, name)(x)

        method.__name__ = name
        return method

    sin = _unary("sin")
    cos = _unary("cos")
    tan = _unary("tan")
    tanh = _unary("tanh")
    sinh = _unary("sinh")
    cosh = _unary("cosh")
    arctan = _unary("arctan")
    abs = _unary("abs")
    conj = _unary("conj")
    del _unary

    def re(self, x):
        return np.real(x)

    def im(self, x):
        return np.imag(x)

    def log_pos(self, x):
        with np.errstate(all="ignore"):
            return np.log(x)

    def sqrt_pos(self, x):
        with np.errstate(all="ignore"):
            return np.sqrt(x)

    def log(self, x):
        """``Real.log``: ``log 0 = 0``, ``log x = log |x|``."""
        x = np.asarray(x, dtype=float)
        with np.errstate(all="ignore"):
            return np.where(x == 0, 0.0, np.log(np.abs(np.where(x == 0, 1.0, x))))

    def sqrt(self, x):
        """``Real.sqrt``: ``0`` for negative arguments."""
        x = np.asarray(x, dtype=float)
        return np.sqrt(np.maximum(x, 0.0))

    def div(self, a, b):
        """Field division with ``x / 0 = 0``."""
        a = np.asarray(a)
        b = np.asarray(b)
        if not (np.issubdtype(a.dtype, np.inexact) or np.issubdtype(b.dtype, np.inexact)):
            a = a.astype(float)
        zero = b == 0
        with np.errstate(all="ignore"):
            out = a / np.where(zero, 1, b)
        return np.where(zero, 0, out)

    def nat_div(self, a, b):
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        zero = b == 0
        return np.where(zero, 0, a // np.where(zero, 1, b))

    def int_div(self, a, b):
        """``Int.ediv``: ``a = b * q + r`` with ``0 ≤ r < |b|``; ``x / 0 = 0``."""
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        zero = b == 0
        bb = np.where(zero, 1, b)
        q = np.floor_divide(a, np.abs(bb)) * np.sign(bb)
        return np.where(zero, 0, q)

    def mod(self, a, b):
        """``%`` on ℕ/ℤ: Euclidean remainder, ``x % 0 = x``."""
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        zero = b == 0
        return np.where(zero, a, np.mod(a, np.abs(np.where(zero, 1, b))))

    def nat_sub(self, a, b):
        """Truncated ℕ subtraction."""
        return np.maximum(np.asarray(a, dtype=np.int64) - np.asarray(b, dtype=np.int64), 0)

    def fin_wrap(self, x, n):
        n = np.asarray(n, dtype=np.int64)
        return np.mod(np.asarray(x, dtype=np.int64), np.where(n == 0, 1, n))

    def power(self, x, k):
        """Monoid power with a natural exponent (``0 ^ 0 = 1``)."""
        x = np.asarray(x)
        k = np.asarray(k)
        if np.issubdtype(x.dtype, np.integer):
            return x ** k.astype(np.int64)
        with np.errstate(all="ignore"):
            return x ** k

    def rpow(self, x, y):
        """``Real.rpow`` with Lean's junk values."""
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        with np.errstate(all="ignore"):
            pos = np.exp(np.log(np.abs(np.where(x == 0, 1.0, x))) * y)
            neg = pos * np.cos(y * np.pi)
        out = np.where(x > 0, pos, np.where(x < 0, neg, np.where(y == 0, 1.0, 0.0)))
        return out

    def maximum(self, *xs):
        out = xs[0]
        for x in xs[1:]:
            out = np.maximum(out, x)
        return out

    def minimum(self, *xs):
        out = xs[0]
        for x in xs[1:]:
            out = np.minimum(out, x)
        return out

    def _branches(self, cond: Truth, then: Callable, other: Callable):
        """Evaluate each branch only for the draws that take it (an index guarded by the
        condition is never read out of range)."""
        take = self.batched(cond.exact).astype(bool)
        self._push(take)
        try:
            a = then()
        finally:
            self._pop()
        self._push(~take)
        try:
            b = other()
        finally:
            self._pop()
        return take, a, b

    def ite(self, cond: Truth, then: Callable, other: Callable):
        take, a, b = self._branches(cond, then, other)
        return self._where(take, a, b)

    # ---- arrays -------------------------------------------------------------------------------

    def index(self, array, *indices):
        """``f i j …``: gather per draw; out-of-range indices of active draws mark them invalid."""
        arr = np.asarray(array)
        if arr.ndim == 0 or arr.shape[0] != self.batch:
            arr = self.batched(arr)
        rows = np.arange(self.batch)
        picks = [rows]
        for axis, idx in enumerate(indices, start=1):
            if axis >= arr.ndim:
                raise OutOfDomain(f"index {axis} of an array with {arr.ndim - 1} index axes")
            size = arr.shape[axis]
            idx = self.batched(np.asarray(idx, dtype=np.int64))
            bad = (idx < 0) | (idx >= size)
            if bad.any():
                self.invalid |= bad & self.active
                idx = np.clip(idx, 0, max(size - 1, 0))
            if size == 0:
                self.invalid |= self.active
                return np.zeros(self.batch, dtype=arr.dtype)
            picks.append(idx)
        return arr[tuple(picks)]

    def tabulate(self, fn: Callable, sizes: tuple):
        """Materialize ``fun i j … => body`` over ``[0, n1) × [0, n2) × …`` per draw.

        Memoized per evaluation: the same lambda (same code, same captured values) under the
        same mask is tabulated once, so a matrix read entry by entry inside a sum is not
        rebuilt for every entry."""
        key = self._memo_key(fn, sizes)
        if key is not None and key in self._memo:
            return self._memo[key][0]
        result = self._tabulate(fn, sizes)
        if key is not None:
            self._memo[key] = (result, fn.__closure__)  # keep captured objects alive
        return result

    def _memo_key(self, fn: Callable, sizes: tuple):
        cells = []
        for cell in fn.__closure__ or ():
            try:
                value = cell.cell_contents
            except ValueError:
                return None
            if isinstance(value, (int, float, complex, np.integer, np.floating)):
                cells.append(("v", value))
            else:
                cells.append(("id", id(value)))
        size_key = tuple(
            np.asarray(s).tobytes() if isinstance(s, np.ndarray) else s for s in sizes
        )
        return (fn.__code__, tuple(cells), size_key, self.active.tobytes())

    def _tabulate(self, fn: Callable, sizes: tuple):
        dims = [self._uniform(s) for s in sizes]
        grid = np.indices(dims).reshape(len(dims), -1).T if dims else np.zeros((1, 0), dtype=int)
        values = [self.batched(fn(*[int(v) for v in point])) for point in grid]
        if not values:
            return np.zeros((self.batch, *dims))
        stacked = np.stack(values, axis=1)
        return stacked.reshape((self.batch, *dims) + stacked.shape[2:])

    def _uniform(self, n) -> int:
        arr = np.asarray(n)
        if arr.ndim == 0:
            return int(arr)
        if (arr != arr.flat[0]).any():
            raise OutOfDomain("array dimensions differ within a batch")
        return int(arr.flat[0])

    def _range(self, lo, hi) -> tuple[np.ndarray, np.ndarray, int, int]:
        lo = self.batched(np.asarray(lo, dtype=np.int64))
        hi = self.batched(np.asarray(hi, dtype=np.int64))
        act = self.active
        if not act.any():
            return lo, hi, 0, 0
        start = int(lo[act].min())
        stop = int(hi[act].max())
        if stop - start > MAX_RANGE:
            self.invalid |= act & ((hi - lo) > MAX_RANGE)
            stop = start + MAX_RANGE
        return lo, hi, start, max(start, stop)

    def _fold(self, body: Callable, lo, hi, initial, combine):
        lo, hi, start, stop = self._range(lo, hi)
        acc = None
        for j in range(start, stop):
            mask = (lo <= j) & (j < hi)
            if not (mask & self.active).any():
                continue
            self._push(mask)
            try:
                term = self._term(body(j))
            finally:
                self._pop()
            if acc is None:
                acc = np.full(term.shape, initial, dtype=np.result_type(term, type(initial)))
            acc = self._where(mask, combine(acc, term), acc)
        if acc is None:
            return self._neutral(body, start, initial)
        return acc

    def _term(self, value):
        """One term of a finite sum or product, batched (the mpmath runtime keeps objects)."""
        return self.batched(value)

    def _neutral(self, body: Callable, at: int, initial):
        """The empty sum/product, shaped like a term (a zero matrix for a sum of matrices)."""
        self._push(np.zeros(self.batch, dtype=bool))
        try:
            probe = np.asarray(body(at))
        except (OutOfDomain, IndexError, ValueError):
            probe = np.asarray(0.0)
        finally:
            self._pop()
        shape = probe.shape if probe.ndim and probe.shape[0] == self.batch else (self.batch,)
        return np.full(shape, initial, dtype=object if probe.dtype == object else np.result_type(
            probe, type(initial)))

    def sum_range(self, body, lo, hi):
        return self._fold(body, lo, hi, 0, lambda a, t: a + t)

    def prod_range(self, body, lo, hi):
        return self._fold(body, lo, hi, 1, lambda a, t: a * t)

    def sup_range(self, body, lo, hi):
        return self._fold(body, lo, hi, 0.0, np.maximum)

    def nat_rec(self, base, step: Callable, n):
        """Structural recursion on ℕ, evaluated for every draw up to its own ``n``."""
        n = self.batched(np.asarray(n, dtype=np.int64))
        current = self.batched(base)
        result = current
        act = self.active
        top = int(n[act].max()) if act.any() else 0
        for t in range(top):
            live = n > t
            self._push(live)
            try:
                current = self.batched(step(t, current))
            finally:
                self._pop()
            result = self._where(n == t + 1, current, result)
        return result

    def recursive(self, system, name: str, *args):
        """A recursive definition applied, evaluated with a step budget (:mod:`mirror.recursion`)."""
        from mirror.recursion import evaluate

        return evaluate(self, system, name, args)

    # ---- integrals ----------------------------------------------------------------------------

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
        with np.errstate(all="ignore"):
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
        return self.batched(np.eye(self._uniform(n)))

    def zeros(self, m, n):
        return self.batched(np.zeros((self._uniform(m), self._uniform(n))))

    def transpose(self, a):
        return np.swapaxes(np.asarray(a), -1, -2)

    def outer(self, u, v):
        return np.asarray(u)[..., :, None] * np.asarray(v)[..., None, :]

    def mul_vec(self, a, v):
        return np.einsum("...ij,...j->...i", np.asarray(a), np.asarray(v))

    # ---- propositions -------------------------------------------------------------------------

    def holds(self, value) -> Truth:
        """A proposition read from boolean data."""
        ok = np.asarray(self.batched(value), dtype=bool)
        return Truth(ok, ok.copy(), np.zeros(self.batch))

    def _align(self, a, b):
        """Batched ``a`` and ``b`` with the lower-rank one padded for broadcasting."""
        a = self.batched(a)
        b = self.batched(b)
        if a.ndim < b.ndim:
            a = a.reshape(a.shape + (1,) * (b.ndim - a.ndim))
        elif b.ndim < a.ndim:
            b = b.reshape(b.shape + (1,) * (a.ndim - b.ndim))
        return a, b

    def truth(self, value: bool) -> Truth:
        ok = np.full(self.batch, bool(value))
        return Truth(ok, ok.copy(), np.zeros(self.batch))

    def _scale(self, a, b):
        return np.maximum(1.0, np.maximum(np.abs(a), np.abs(b)))

    def eq(self, a, b) -> Truth:
        """Equality within tolerance. Arrays (vectors, matrices) are compared norm-wise: each
        entry's deviation relative to the largest entry of the pair, so that rounding of a
        large matrix is not read as an error in its small entries."""
        a, b = self._align(a, b)
        with np.errstate(all="ignore"):
            diff = np.abs(a - b)
            scale = self._scale(a, b)
            if scale.ndim > 1:
                flat = scale.reshape(self.batch, -1)
                top = flat.max(axis=1) if flat.shape[1] else np.ones(self.batch)
                scale = top.reshape((self.batch,) + (1,) * (scale.ndim - 1))
            err = np.where(a == b, 0.0, diff / scale)
        err = np.where(np.isnan(err), np.inf, err)
        if err.ndim > 1:
            flat = err.reshape(self.batch, -1)
            err = flat.max(axis=1) if flat.shape[1] else np.zeros(self.batch)
        exact = np.asarray(a == b).reshape(self.batch, -1).all(axis=1)
        return Truth(err <= self.tolerance, exact, err, self._sure(a, b, err))

    def _sure(self, a: np.ndarray, b: np.ndarray, margin: np.ndarray) -> np.ndarray:
        """Per draw: is a relation between ``a`` and ``b`` decided beyond the tolerance of its
        boundary (``margin``: the relative distance to it)? Integer comparisons always are."""
        if not (np.issubdtype(a.dtype, np.inexact) or np.issubdtype(b.dtype, np.inexact)
                or a.dtype == object or b.dtype == object):
            return np.ones(self.batch, dtype=bool)
        return np.asarray(margin, dtype=float) > self.tolerance

    def ne(self, a, b) -> Truth:
        a, b = self._align(a, b)
        exact = np.asarray(a != b)
        exact = exact.reshape(self.batch, -1).any(axis=1) if exact.ndim > 1 else exact
        return Truth(exact, exact, np.zeros(self.batch), self.eq(a, b).sure)

    def _order(self, a, b, strict: bool) -> Truth:
        """``a < b`` / ``a ≤ b``, decided on the float64 values: never within a tolerance (a
        strict relation that holds with equality is false). Draws within the tolerance of the
        boundary, on either side, are marked fragile and re-decided exactly."""
        a = self.batched(a)
        b = self.batched(b)
        with np.errstate(all="ignore"):
            gap = (a - b) / self._scale(a, b)
        exact = (a < b) if strict else (a <= b)
        if not (np.issubdtype(a.dtype, np.inexact) or np.issubdtype(b.dtype, np.inexact)):
            return Truth(exact, exact, np.where(exact, 0.0, np.inf))  # integers: exact
        sure = self._sure(a, b, np.where(np.isnan(gap), np.inf, np.abs(gap)))
        err = np.where(exact, 0.0, np.where(np.isnan(gap), np.inf, np.maximum(gap, 0.0)))
        return Truth(exact, exact, err, sure)

    def lt(self, a, b) -> Truth:
        return self._order(a, b, True)

    def le(self, a, b) -> Truth:
        return self._order(a, b, False)

    def array_eq(self, a, b) -> Truth:
        return self.eq(a, b)

    @staticmethod
    def _junction(ts: tuple[Truth, ...], conjunction: bool) -> np.ndarray:
        """Sureness of ``∧``/``∨``: one sure deciding part (a false conjunct, a true disjunct)
        decides; otherwise every part must be sure."""
        deciding = np.logical_or.reduce([t.sure & (t.ok != conjunction) for t in ts])
        return deciding | np.logical_and.reduce([t.sure for t in ts])

    def and_(self, *ts: Truth) -> Truth:
        if not ts:
            return self.truth(True)
        ok = np.logical_and.reduce([t.ok for t in ts])
        exact = np.logical_and.reduce([t.exact for t in ts])
        err = np.maximum.reduce([t.err for t in ts])
        return Truth(ok, exact, err, self._junction(ts, True))

    def or_(self, *ts: Truth) -> Truth:
        ok = np.logical_or.reduce([t.ok for t in ts])
        exact = np.logical_or.reduce([t.exact for t in ts])
        err = np.minimum.reduce([np.where(t.ok, t.err, np.inf) for t in ts])
        err = np.where(ok, err, np.minimum.reduce([t.err for t in ts]))
        return Truth(ok, exact, err, self._junction(ts, False))

    def not_(self, t: Truth) -> Truth:
        return Truth(~t.ok, ~t.exact, np.where(t.ok, np.inf, 0.0), t.sure)

    def implies(self, a: Truth, b: Truth) -> Truth:
        sure = (a.sure & ~a.ok) | (b.sure & b.ok) | (a.sure & b.sure)
        return Truth(~a.ok | b.ok, ~a.exact | b.exact, np.where(a.ok, b.err, 0.0), sure)

    def iff(self, a: Truth, b: Truth) -> Truth:
        ok = a.ok == b.ok
        # only the sides that hold carry a numerical deviation
        err = np.maximum(np.where(a.ok, a.err, 0.0), np.where(b.ok, b.err, 0.0))
        return Truth(ok, a.exact == b.exact, np.where(ok, err, np.inf), a.sure & b.sure)

    def prop_ite(self, c: Truth, then: Callable, other: Callable) -> Truth:
        sel, p, q = self._branches(c, then, other)
        return Truth(
            np.where(sel, p.ok, q.ok), np.where(sel, p.exact, q.exact), np.where(sel, p.err, q.err),
            c.sure & np.where(sel, p.sure, q.sure),
        )

    def _quantify(self, body, lo, hi, universal: bool) -> Truth:
        lo, hi, start, stop = self._range(lo, hi)
        ok = np.full(self.batch, universal)
        exact = ok.copy()
        all_sure = np.ones(self.batch, dtype=bool)
        deciding = np.zeros(self.batch, dtype=bool)
        err = np.zeros(self.batch) if universal else np.full(self.batch, np.inf)
        for j in range(start, stop):
            mask = (lo <= j) & (j < hi)
            if not (mask & self.active).any():
                continue
            self._push(mask)
            try:
                t = body(j)
            finally:
                self._pop()
            all_sure = np.where(mask, all_sure & t.sure, all_sure)
            deciding = np.where(mask, deciding | (t.sure & (t.ok != universal)), deciding)
            if universal:
                ok = np.where(mask, ok & t.ok, ok)
                exact = np.where(mask, exact & t.exact, exact)
                err = np.where(mask, np.maximum(err, t.err), err)
            else:
                ok = np.where(mask, ok | t.ok, ok)
                exact = np.where(mask, exact | t.exact, exact)
                err = np.where(mask, np.minimum(err, t.err), err)
        if not universal:
            err = np.where(ok, 0.0, err)
        return Truth(ok, exact, err, deciding | all_sure)

    def forall_range(self, body, lo, hi) -> Truth:
        return self._quantify(body, lo, hi, True)

    def exists_range(self, body, lo, hi) -> Truth:
        return self._quantify(body, lo, hi, False)

    # ---- bound implementations ----------------------------------------------------------------

    def call(self, name: str, dims: tuple, *args):
        """Call the NumPy implementation bound to the Lean definition ``name``."""
        adapter = self.bindings.get(name)
        if adapter is None:
            raise OutOfDomain(f"no implementation is bound to {name}")
        return adapter(self, dims, *args)

    # helpers the binding adapters use
    def to_float(self, x) -> np.ndarray:
        return np.asarray(x)

    def from_float(self, x) -> np.ndarray:
        return np.asarray(x)


class MpRuntime(MpFunctions, NumpyRuntime):
    """The same operations in mpmath at ``digits`` decimal digits (object arrays, batch 1).

    Two modes. With a ``tolerance`` (comparing a bound float64 implementation with its Lean
    definition) relations hold within that relative tolerance. Without one (the default: the
    exact decision of a statement, :mod:`mirror.exact`) a relation is decided on the
    high-precision values with a *zero band* of ``10^-(digits - 15)`` relative to
    ``max(1, |a|, |b|)``: differences inside it count as equality, a strict relation that
    holds only inside it is false, and Lean's junk branches (``x / 0``, ``log 0``) take the
    zero branch inside it. The caller re-evaluates at doubled precision until the decision is
    stable, so a true difference of 1e-40 is seen as such at 100 digits.
    """

    def __init__(
        self,
        nat_domain: int,
        digits: int = 50,
        tolerance: float | None = None,
        bindings: dict[str, Callable] | None = None,
    ) -> None:
        super().__init__(1, nat_domain, 0.0 if tolerance is None else tolerance, bindings)
        self.context = mpmath.mp.clone()
        self.context.dps = digits
        self.pi = self.context.pi
        self.I = self.context.mpc(0, 1)
        self.exact_mode = tolerance is None
        #: Below this magnitude a value is zero for Lean's junk branches (exact mode only).
        self.band = self.context.mpf(10) ** -(digits - 15) if tolerance is None else 0
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

    def _mp_unary(name):  # noqa: N805 - table helper
        def method(self, x):
            return self._map(getattr(self.context, name), x)

        method.__name__ = name
        return method

    exp = _mp_unary("exp")
    sin = _mp_unary("sin")
    cos = _mp_unary("cos")
    tan = _mp_unary("tan")
    tanh = _mp_unary("tanh")
    sinh = _mp_unary("sinh")
    cosh = _mp_unary("cosh")
    arctan = _mp_unary("atan")
    log_pos = _mp_unary("log")
    sqrt_pos = _mp_unary("sqrt")
    del _mp_unary

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
        return self._fold(body, lo, hi, 0, lambda a, t: np.frompyfunc(max, 2, 1)(a, t))

    def _term(self, value):
        return self.batched(np.asarray(value, dtype=object))

    def integral(self, body: Callable, lo, hi):
        """The integral by mpmath's tanh-sinh quadrature at the runtime's precision (a
        half-line is first mapped to ℝ by ``s = a + eˣ``)."""
        ctx = self.context
        a = self.batched(np.asarray(lo, dtype=object)).reshape(-1)[0]
        b = self.batched(np.asarray(hi, dtype=object)).reshape(-1)[0]
        finite_a, finite_b = a not in (np.inf, -np.inf), b not in (np.inf, -np.inf)

        def value(s):
            return self.batched(np.asarray(body(np.array([s], dtype=object)),
                                           dtype=object)).reshape(-1)[0]

        if finite_a and not finite_b:
            a = ctx.mpf(a)
            result, error = ctx.quad(lambda x: value(a + ctx.exp(x)) * ctx.exp(x),
                                     [-ctx.inf, 0, ctx.inf], error=True)
        elif finite_b and not finite_a:
            b = ctx.mpf(b)
            result, error = ctx.quad(lambda x: value(b - ctx.exp(x)) * ctx.exp(x),
                                     [-ctx.inf, 0, ctx.inf], error=True)
        else:
            lo_mp = ctx.mpf(a) if finite_a else -ctx.inf
            hi_mp = ctx.mpf(b) if finite_b else ctx.inf
            result, error = ctx.quad(value, [lo_mp, hi_mp], error=True)
        # a quadrature that does not converge decides nothing; in exact mode its error estimate
        # widens the zero band of the relations that use it (rising precision shrinks both)
        limit = 1e-12 if self.exact_mode else self.tolerance
        if not ctx.isfinite(result) or error > limit * max(1, abs(result)):
            self.invalid[:] = True
        elif self.exact_mode:
            # mpmath's error estimate can be optimistic (a peak at s ~ 1e-30 far from the
            # nodes): a quadrature is trusted to 15 significant digits, never more
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


__all__ = ["MpRuntime", "NumpyRuntime", "OutOfDomain", "Truth"]
_ = Any
