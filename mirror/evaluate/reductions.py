"""Arrays and reductions of the NumPy runtime: indexing per draw, tabulation, finite sums,
products and suprema with a per-draw mask, structural recursion on ℕ, and recursive systems
(:mod:`mirror.evaluate.recursion`).

A mixin of :class:`~mirror.evaluate.numpy_runtime.NumpyRuntime`: it uses ``batch``,
``batched``, ``active``, ``invalid``, ``_push``/``_pop``, ``_where`` and ``_memo``.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from mirror.evaluate import recursion
from mirror.evaluate.batch import MAX_RANGE, OutOfDomain, _closure_key, _value_key


def _whole(index) -> int:
    """A scalar index as an ``int``; ``-1`` (out of every range) for one that overflowed to
    ``inf`` or is ``nan`` in float64 (``f (10 ^ 1987)``)."""
    try:
        return int(index)
    except (OverflowError, ValueError):
        return -1


class Reductions:
    """Indexing, tabulation and the reductions over ranges of indices."""

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
            picks = [_whole(idx) for idx in indices]
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

    def extremum_range(self, body, lo, hi, direction: int, empty):
        """``max`` (``direction = 1``) or ``min`` (``-1``) of the terms of each draw's range;
        ``empty`` where the range is empty (``None``: a value Lean's statement cannot reach,
        :meth:`_unreachable`)."""
        start, combine = self._extremum_fold(direction)
        kind = "max" if direction > 0 else "min"
        acc = self._reduce(kind, body, lo, hi, lambda: self._fold(body, lo, hi, start, combine))
        vacant = np.asarray(self.batched(hi) <= self.batched(lo))
        if not (vacant & self.active).any():
            return acc
        junk = self._unreachable("an empty sup'/inf'") if empty is None else empty
        return self._where(vacant, junk, acc)

    def _extremum_fold(self, direction: int):
        """The fold's start and combination (float64: from ∓∞ with ``np.maximum``/``minimum``)."""
        return (-np.inf, np.maximum) if direction > 0 else (np.inf, np.minimum)

    def _unreachable(self, reason: str):
        """The value of a term Lean's statement cannot reach: NaN (every relation on it fails
        the float filter and is re-decided by a runtime that marks it undecided)."""
        return np.nan

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
        return recursion.evaluate(self, system, name, args)

