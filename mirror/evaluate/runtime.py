"""Runtimes that generated properties call: batched float64 NumPy, and 50-digit mpmath.

A property is evaluated on a *batch* of draws at once: every scalar is an array of shape
``(B,)``, every ``ℕ → ℝ`` argument an array ``(B, N)``, every matrix ``(B, m, n)``. Finite
sums and quantifiers loop over the index with a per-draw mask, so draws with different bounds
share one evaluation. An index outside a sampled array, reached by an active draw, marks that
draw *out of domain* (it is rejected, never evaluated with a clipped value).

Propositions evaluate to :class:`~mirror.evaluate.truth.Truth`: ``ok`` (with tolerance), ``exact``
(without) and ``err`` (the largest relative deviation of an equation, or the violation of an
inequality); the relations and connectives are in :mod:`mirror.evaluate.truth`. The exact runtime,
:class:`~mirror.evaluate.mp_runtime.MpRuntime`, is importable from here too.

Overflow, ``0/0`` and the like are values here (junk branches pick the Lean value, and the
checks classify non-finite results), not errors: :func:`mirror.judge.checks.evaluate` runs a whole
property with NumPy's floating-point warnings off, once, instead of each operation.
"""

from __future__ import annotations

import copy
import functools
from fractions import Fraction
from typing import Any, Callable

import mpmath
import numpy as np

from bridge.errors import LeanMirrorError
from mirror.evaluate.functions import NumpyFunctions
from mirror.evaluate.truth import Propositions, Truth

#: Sums and quantifiers over more indices than this are refused (the draw is out of domain).
MAX_RANGE = 1 << 16


class OutOfDomain(LeanMirrorError, IndexError):
    """A whole evaluation left the sampled domain."""


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


def _value_key(value: Any) -> Any:
    """A hashable key equal for equal values (``None`` when there is none): arrays by dtype,
    shape and contents, numbers by type and value."""
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            try:
                return ("o", value.shape, tuple(map(_value_key, value.reshape(-1).tolist())))
            except TypeError:
                return None
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (int, float, complex, np.integer, np.floating, np.complexfloating)):
        return (type(value), value)
    return None


def _closure_key(fn: Callable) -> tuple | None:
    """``fn``'s code and captured values: numbers by value, other objects by identity (the
    memo that uses it keeps them alive, so an identity is not reused)."""
    cells = []
    for cell in fn.__closure__ or ():
        try:
            value = cell.cell_contents
        except ValueError:
            return None
        key = _value_key(value) if not isinstance(value, np.ndarray) else None
        cells.append(key if key is not None else ("id", id(value)))
    return (fn.__code__, tuple(cells))


#: Functions of one number: runtime method → (NumPy ufunc, mpmath function). Each runtime
#: makes its methods from this one table (:func:`install_unary`).
UNARY_FUNCTIONS: dict[str, tuple[str, str]] = {
    "exp": ("exp", "exp"), "sin": ("sin", "sin"), "cos": ("cos", "cos"), "tan": ("tan", "tan"),
    "tanh": ("tanh", "tanh"), "sinh": ("sinh", "sinh"), "cosh": ("cosh", "cosh"),
    "arctan": ("arctan", "atan"), "log_pos": ("log", "log"), "sqrt_pos": ("sqrt", "sqrt"),
}


def install_unary(cls: type, make: Callable[[str, str, str], Callable]) -> None:
    """Give ``cls`` one method per :data:`UNARY_FUNCTIONS` entry: ``make(method name, NumPy
    name, mpmath name)``."""
    for name, (numpy_name, mpmath_name) in UNARY_FUNCTIONS.items():
        method = make(name, numpy_name, mpmath_name)
        method.__name__ = method.__qualname__ = name
        setattr(cls, name, method)


def _numpy_unary(name: str, numpy_name: str, mpmath_name: str) -> Callable:
    function = getattr(np, numpy_name)
    return lambda self, x: function(x)


@functools.lru_cache(maxsize=64)
def _everyone(batch: int) -> np.ndarray:
    """The mask of every draw of a batch, read-only (the base of a runtime's mask stack)."""
    mask = np.ones(batch, dtype=bool)
    mask.setflags(write=False)
    return mask


class NumpyRuntime(Propositions, NumpyFunctions):
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
        self._masks: list[np.ndarray] = [_everyone(batch)]
        self._memo: dict = {}
        self.pi = np.pi
        self.I = 1j

    def resized(self, size: int) -> "NumpyRuntime":
        """A runtime like this one (bindings, tolerance, precision) with a batch of ``size``,
        no masks and nothing cached from this one's batch."""
        sub = copy.copy(self)
        sub.batch = size
        sub.invalid = np.zeros(size, dtype=bool)
        sub.impl_nonfinite = np.zeros(size, dtype=bool)
        sub._masks = [_everyone(size)]
        sub._memo = {}
        return sub

    # ---- masks --------------------------------------------------------------------------------

    @property
    def active(self) -> np.ndarray:
        """The draws the current branch or summation index concerns (read-only)."""
        return self._masks[-1]

    def _push(self, mask: np.ndarray) -> None:
        self._masks.append(self.active & mask)

    def _pop(self) -> None:
        if len(self._masks) > 1:  # the base mask (every draw) stays
            self._masks.pop()

    def every_draw(self, value: np.ndarray) -> np.ndarray:
        """``value``, the same for every draw, given the batch axis. Unlike :meth:`batched`
        it never takes a first axis as the batch's: a ``B × n`` matrix of zeros is not ``B``
        draws of a vector."""
        return np.broadcast_to(value, (self.batch,) + np.shape(value))

    def batched(self, x: Any) -> np.ndarray:
        """``x`` broadcast to the batch (leading axis ``B``), unless its first axis already
        has the batch's length (values computed per draw; a constant array whose first axis
        happens to be as long is :meth:`every_draw`'s case)."""
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


    def abs(self, x):
        return np.abs(x)

    def conj(self, x):
        return np.conj(x)

    def re(self, x):
        return np.real(x)

    def im(self, x):
        return np.imag(x)

    def log(self, x):
        """``Real.log``: ``log 0 = 0``, ``log x = log |x|``."""
        x = np.asarray(x, dtype=float)
        return np.where(x == 0, 0.0, np.log(np.abs(np.where(x == 0, 1.0, x))))

    def sqrt(self, x):
        """``Real.sqrt``: ``0`` for negative arguments."""
        x = np.asarray(x, dtype=float)
        return np.sqrt(np.maximum(x, 0.0))

    def div(self, a, b):
        """Field division with ``x / 0 = 0``."""
        a = np.asarray(a)
        b = np.asarray(b)
        if a.dtype.kind not in "fc" and b.dtype.kind not in "fc":
            a = a.astype(float)
        zero = b == 0
        out = a / b
        return np.where(zero, 0, out) if zero.any() else out

    def reciprocal(self, x):
        """``1 / x`` of an ``x`` the translation knows is not zero (no junk branch)."""
        return 1.0 / np.asarray(x)

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
        """``x mod n`` (``Fin n``, ``ZMod n``). Python integers (exact runtimes, or a power
        past int64) are reduced exactly; an integer that arrives as a float (a power computed
        in floating point) is rounded, not truncated (15.999… is 16)."""
        n = np.asarray(n, dtype=np.int64)
        x = np.asarray(x)
        if x.dtype == object:
            return np.frompyfunc(_wrap_exactly, 2, 1)(x, n)
        if not np.issubdtype(x.dtype, np.integer):
            x = np.rint(x.astype(float))
        return np.mod(x.astype(np.int64), np.where(n == 0, 1, n))

    def power(self, x, k):
        """Monoid power with a natural exponent (``0 ^ 0 = 1``)."""
        x = np.asarray(x)
        k = np.asarray(k)
        if np.issubdtype(x.dtype, np.integer):
            return x ** k.astype(np.int64)
        return x ** k

    def power_mod(self, x, k, n):
        """``x ^ k`` in ``ZMod n`` / ``Fin n`` by repeated squaring modulo ``n``: exact, and
        never past int64 (``5 ^ 35`` would wrap around there)."""
        x = self.fin_wrap(x, n)
        if x.dtype == object:
            return np.frompyfunc(lambda a, e, m: pow(int(a), int(e), int(m) or 1), 3, 1)(
                x, np.asarray(k, dtype=object), np.asarray(n, dtype=object))
        m = np.asarray(n, dtype=np.int64)
        m = np.where(m == 0, 1, m)
        k = np.asarray(k, dtype=np.int64)
        result = np.mod(np.ones(np.broadcast(x, k, m).shape, dtype=np.int64), m)
        base = x.astype(np.int64)
        while np.any(k > 0):
            result = np.where(k & 1, np.mod(result * base, m), result)
            base = np.mod(base * base, m)
            k = k >> 1
        return result

    def rpow(self, x, y):
        """``Real.rpow`` with Lean's junk values."""
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
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
        """``f i j …``: gather per draw; out-of-range indices of active draws mark them invalid.

        Indices the same for every draw (a summation index) slice the array; per-draw ones
        gather through one linear index (a fraction of the cost of NumPy's fancy indexing)."""
        arr = np.asarray(array)
        if arr.ndim == 0 or arr.shape[0] != self.batch:
            arr = self.batched(arr)
        if len(indices) >= arr.ndim:
            raise OutOfDomain(f"index {arr.ndim} of an array with {arr.ndim - 1} index axes")
        sizes = arr.shape[1:1 + len(indices)]
        if 0 in sizes:
            self.invalid |= self.active
            return np.zeros(self.batch, dtype=arr.dtype)
        if all(np.ndim(idx) == 0 for idx in indices):
            picks = [int(idx) for idx in indices]
            if any(not 0 <= p < n for p, n in zip(picks, sizes)):
                self.invalid |= self.active
                picks = [min(max(p, 0), n - 1) for p, n in zip(picks, sizes)]
            return arr[(slice(None), *picks)].copy()
        linear = np.arange(self.batch)
        for idx, n in zip(indices, sizes):
            idx = self.batched(np.asarray(idx, dtype=np.int64))
            bad = (idx < 0) | (idx >= n)
            if bad.any():
                self.invalid |= bad & self.active
                idx = np.clip(idx, 0, n - 1)
            linear = linear * n + idx
        return arr.reshape((-1,) + arr.shape[1 + len(indices):]).take(linear, axis=0)

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
        closure = _closure_key(fn)
        size_key = tuple(_value_key(s) for s in sizes)
        if closure is None or None in size_key:
            return None
        return (closure, size_key, self.active.tobytes())

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

    def _reduce(self, kind: str, body: Callable, lo, hi, compute: Callable):
        """``compute()``, memoized per evaluation: a reduction (a sum, a product, a
        quantifier) with the same body (same code, same captured values) and bounds is
        computed once, and reused under any mask within the one it was computed under (the
        values of those draws are the same, and their out-of-domain marks already made). So
        a normalizer inside a sum over ``j`` that does not depend on ``j`` is not recomputed
        for every ``j``."""
        closure, bounds = _closure_key(body), (_value_key(lo), _value_key(hi))
        if closure is None or None in bounds:
            return compute()
        key = (kind, closure, bounds)
        known = self._memo.get(key)
        if known is not None and not (self.active & ~known[1]).any():
            return known[0]
        result = compute()
        self._memo[key] = (result, self.active.copy(), body.__closure__)
        return result

    def _masked_terms(self, body: Callable, lo, hi):
        """``(mask, body(j))`` for each ``j`` some active draw has in ``[lo, hi)``: ``mask``
        says which draws have it, and ``body`` runs under it (its out-of-range reads mark only
        those draws)."""
        same_start = np.ndim(lo) == 0  # (then every j of the loop is past it)
        lo, hi, start, stop = self._range(lo, hi)
        for j in range(start, stop):
            mask = (j < hi) if same_start else (lo <= j) & (j < hi)
            if not (mask & self.active).any():
                continue
            self._push(mask)
            try:
                term = body(j)
            finally:
                self._pop()
            yield mask, term

    def _fold(self, body: Callable, lo, hi, initial, combine: np.ufunc):
        """``combine`` of the terms of each draw's range, from ``initial``."""
        acc = None
        for mask, term in self._masked_terms(body, lo, hi):
            term = self._term(term)
            if acc is None:
                acc = np.full(term.shape, initial, dtype=np.result_type(term, type(initial)))
            if term.shape == acc.shape and np.can_cast(term.dtype, acc.dtype):
                # in place, on the draws that have this index
                if acc.ndim > 1:
                    mask = np.broadcast_to(mask.reshape(mask.shape + (1,) * (acc.ndim - 1)),
                                           acc.shape)
                combine(acc, term, out=acc, where=mask)
            else:
                acc = self._where(mask, combine(acc, term), acc)
        if acc is None:
            lo, hi, start, _ = self._range(lo, hi)
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
        return self._reduce("sum", body, lo, hi, lambda: self._fold(body, lo, hi, 0, np.add))

    def prod_range(self, body, lo, hi):
        return self._reduce("prod", body, lo, hi,
                            lambda: self._fold(body, lo, hi, 1, np.multiply))

    def sup_range(self, body, lo, hi):
        return self._reduce("sup", body, lo, hi, lambda: self._fold(body, lo, hi, 0.0, np.maximum))

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
        """A recursive definition applied, evaluated with a step budget (:mod:`mirror.evaluate.recursion`)."""
        from mirror.evaluate.recursion import evaluate

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


install_unary(NumpyRuntime, _numpy_unary)


def __getattr__(name: str) -> Any:
    """``MpRuntime`` (in :mod:`mirror.evaluate.mp_runtime`, which builds on this module) from here."""
    if name == "MpRuntime":
        from mirror.evaluate.mp_runtime import MpRuntime

        return MpRuntime
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["MAX_RANGE", "MpRuntime", "NumpyRuntime", "OutOfDomain", "Truth", "UNARY_FUNCTIONS",
           "install_unary"]


def _wrap_exactly(value, n) -> int:
    """``value mod n`` on an exact integer (a Python int, an integral Fraction or mpf)."""
    n = int(n) or 1
    if isinstance(value, Fraction):
        value = value.numerator // value.denominator
    elif not isinstance(value, (int, np.integer)):
        value = int(mpmath.nint(value))
    return int(value) % n
