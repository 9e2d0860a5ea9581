"""The batched float64 runtime: :class:`NumpyRuntime`, the fast filter every generated property
runs in first.

A property is evaluated on a *batch* of draws at once: every scalar is an array of shape
``(B,)``, every ``ℕ → ℝ`` argument an array ``(B, N)``, every matrix ``(B, m, n)``. Finite
sums and quantifiers loop over the index with a per-draw mask (:mod:`mirror.evaluate.reductions`),
so draws with different bounds share one evaluation. An index outside a sampled array, reached
by an active draw, marks that draw *out of domain* (it is rejected, never evaluated with a
clipped value). Integrals and matrices are in :mod:`mirror.evaluate.linear`, relations and
connectives in :mod:`mirror.evaluate.truth`, Lean's functions in :mod:`mirror.evaluate.functions`.
"""

from __future__ import annotations

import copy
import math
from typing import Any, Callable

import numpy as np

from mirror.evaluate.batch import OutOfDomain, _everyone, _numpy_unary, _wrap_exactly, install_unary
from mirror.evaluate.functions import NumpyFunctions
from mirror.evaluate.linear import LinearAlgebra
from mirror.evaluate.polarity import SamplingBound
from mirror.evaluate.reductions import Reductions
from mirror.evaluate.truth import Propositions, Truth

#: The largest modulus whose residues multiply within int64: ``(m − 1)² < 2⁶³``.
_INT64_SQUARE_ROOT = math.isqrt(2 ** 63 - 1)


class NumpyRuntime(Reductions, LinearAlgebra, Propositions, NumpyFunctions):
    """Batched float64/complex128 evaluation."""

    #: Values are exact objects in object arrays (the exact runtimes), not float64 columns.
    object_values = False

    #: Relative tolerance of equations (``|a − b| ≤ tol · max(1, |a|, |b|)``).
    def __init__(
        self,
        batch: int,
        nat_domain: int,
        tolerance: float = 1e-9,
        bindings: dict[str, Callable] | None = None,
    ) -> None:
        self.batch = batch
        #: The sampled prefix of ℕ; a quantifier that ends at it is truncated (its type says so).
        self.nat_domain = SamplingBound(nat_domain)
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
        the exact runtimes keep it); beyond float64's range it is ±∞, which no relation
        passes as decided: the draw is re-decided exactly (942! in a divisibility)."""
        value = int(text)
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf


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

    def _on_int64(self, fn: Callable, a, b):
        """``fn`` of two int64 operands; a float operand that is no int64 (∞, or past 2⁶³:
        a literal such as 942!) gives NaN there, so the float filter decides nothing at
        that draw and the exact runtimes re-decide it."""
        outside = False
        operands = []
        for x in (a, b):
            x = np.asarray(x)
            if x.dtype.kind == "f":
                bad = ~np.isfinite(x) | (np.abs(x) >= 2.0 ** 63)
                outside = outside | bad
                x = np.where(bad, 0, x)
            operands.append(x.astype(np.int64))
        result = fn(*operands)
        return np.where(outside, np.nan, result) if np.any(outside) else result

    def nat_div(self, a, b):
        def divide(a, b):
            zero = b == 0
            return np.where(zero, 0, a // np.where(zero, 1, b))
        return self._on_int64(divide, a, b)

    def int_div(self, a, b):
        """``Int.ediv``: ``a = b * q + r`` with ``0 ≤ r < |b|``; ``x / 0 = 0``."""
        def divide(a, b):
            zero = b == 0
            bb = np.where(zero, 1, b)
            return np.where(zero, 0, np.floor_divide(a, np.abs(bb)) * np.sign(bb))
        return self._on_int64(divide, a, b)

    def mod(self, a, b):
        """``%`` on ℕ/ℤ: Euclidean remainder, ``x % 0 = x``."""
        def remainder(a, b):
            zero = b == 0
            return np.where(zero, a, np.mod(a, np.abs(np.where(zero, 1, b))))
        return self._on_int64(remainder, a, b)

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
        """``x ^ k`` with an integer exponent: the monoid power for ``k ≥ 0`` (``0 ^ 0 = 1``;
        an integer base stays an integer), and Lean's ``zpow`` in a group with zero for
        ``k < 0``: ``x ^ k = (x ^ -k)⁻¹``, so ``0 ^ k = 0⁻¹ = 0`` (a field value, float)."""
        x = np.asarray(x)
        k = np.asarray(k)
        negative = k < 0
        if not np.any(negative):
            if np.issubdtype(x.dtype, np.integer):
                return x ** k.astype(np.int64)
            return x ** k
        base = x.astype(np.result_type(x.dtype, np.float64))
        magnitude = np.abs(k)
        if np.issubdtype(magnitude.dtype, np.integer):
            magnitude = magnitude.astype(np.int64)
        zero = base == 0
        with np.errstate(divide="ignore", over="ignore"):
            inverse = np.where(zero, 0, (1 / np.where(zero, 1, base)) ** magnitude)
        return np.where(negative, inverse, base ** magnitude)

    def power_mod(self, x, k, n):
        """``x ^ k`` in ``ZMod n`` / ``Fin n`` by repeated squaring modulo ``n``: exact, and
        never past int64 (``5 ^ 35`` would wrap around there)."""
        x = self.fin_wrap(x, n)
        # a modulus past √(2⁶³) makes the squares below wrap int64: exact Python integers then
        wide = x.dtype != object and np.size(n) and int(np.max(np.abs(n))) > _INT64_SQUARE_ROOT
        if x.dtype == object or wide:
            out = np.frompyfunc(lambda a, e, m: pow(int(a), int(e), int(m) or 1), 3, 1)(
                x, np.asarray(k, dtype=object), np.asarray(n, dtype=object))
            return out.astype(np.int64) if wide else out
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


install_unary(NumpyRuntime, _numpy_unary)
