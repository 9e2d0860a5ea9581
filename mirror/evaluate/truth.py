"""Batched truth values and the connectives, quantifiers and relations that build them.

:class:`Truth` is what a proposition evaluates to in every runtime; :class:`Propositions` is
the part of :class:`~mirror.evaluate.runtime.NumpyRuntime` that decides relations on float64 values
(marking the draws within the tolerance of a boundary as not *sure*, to be decided exactly)
and combines truth values. :class:`~mirror.evaluate.mp_runtime.MpRuntime` overrides the relations.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from mirror.evaluate import polarity
from mirror.evaluate.polarity import Quantified, truncated


@dataclass
class Truth:
    """A batched proposition value.

    ``sure`` says, per draw, whether the float64 truth value is beyond doubt: no relation
    that decides it lies within the tolerance of its boundary. A draw that is not sure is
    decided exactly before it counts (:mod:`mirror.judge.exact`). ``None`` means sure everywhere
    (boolean data, constants, the exact runtimes).

    ``known`` says, per draw, whether ``ok`` is the value on the whole domain: a quantifier
    over ℕ sees only the sampled prefix, and is known only where the prefix decides it (a
    failing instance of ``∀``, a witness of ``∃``; :mod:`mirror.evaluate.polarity`). No
    precision makes an unknown value known: a draw whose hypotheses or conclusion is unknown
    supports no refutation. ``None`` means known everywhere."""

    ok: np.ndarray
    exact: np.ndarray
    err: np.ndarray
    sure: np.ndarray | None = None
    known: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.sure is None:
            self.sure = np.ones(np.shape(self.ok), dtype=bool)
        if self.known is None:
            self.known = np.ones(np.shape(self.ok), dtype=bool)


@functools.lru_cache(maxsize=64)
def _constant(batch: int, value: bool) -> Truth:
    """``value`` for every draw of a batch: read-only arrays, so one object serves every
    runtime of that batch size."""
    ok = np.full(batch, value)
    parts = (ok, ok, np.zeros(batch), np.ones(batch, dtype=bool), np.ones(batch, dtype=bool))
    for part in parts:
        part.setflags(write=False)
    return Truth(*parts)


#: dtype kinds of plain numbers (not mpmath objects).
_NUMERIC = frozenset("iufc")


class Propositions:
    """Relations and connectives of a batched runtime (a mixin of ``NumpyRuntime``: it uses
    ``batch``, ``batched``, ``tolerance``, ``active``, ``_push``/``_pop``,
    ``_masked_terms``, ``_reduce`` and ``_branches``)."""

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
        """A constant proposition (read-only arrays, shared by every evaluation of a batch
        size)."""
        return _constant(self.batch, bool(value))

    def _scale(self, a, b):
        return np.maximum(1.0, np.maximum(np.abs(a), np.abs(b)))

    def eq(self, a, b) -> Truth:
        """Equality within tolerance. Arrays (vectors, matrices) are compared norm-wise: each
        entry's deviation relative to the largest entry of the pair, so that rounding of a
        large matrix is not read as an error in its small entries."""
        a, b = np.asarray(a), np.asarray(b)
        per_draw = ((), (self.batch,))
        if (a.shape in per_draw and b.shape in per_draw and a.dtype.kind in _NUMERIC
                and b.dtype.kind in _NUMERIC):
            return self._scalar_eq(a, b)
        a, b = self._align(a, b)
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

    def _scalar_eq(self, a: np.ndarray, b: np.ndarray) -> Truth:
        """:meth:`eq` of one number per draw (the common case, without the array axes):
        ``err = |a − b| / max(1, |a|, |b|)``, ``0`` where ``a == b`` (``∞ = ∞`` too) and ``∞``
        where it is NaN; sure beyond the tolerance unless both sides are integers."""
        if a.ndim == 0 and b.ndim == 1:
            a, b = b, a
        if (a.ndim == 1 and a.dtype == np.float64 and b.ndim == 0 and b.dtype.kind in "iuf"
                and math.isfinite(b)):
            return self._float_eq(a, float(b))
        err = np.subtract(a, b)
        in_place = err.dtype.kind == "f" and err.ndim > 0  # float arrays: no temporaries
        err = np.abs(err, out=err) if in_place else np.abs(err)
        # max(1, |a|, |b|), folding a constant side first (a NaN there makes err NaN too)
        if b.ndim == 0 or a.ndim == 0:
            array, constant = (a, b) if b.ndim == 0 else (b, a)
            scale = np.abs(array)
            scale = np.maximum(scale, max(1.0, float(np.abs(constant))),
                               out=scale if scale.dtype.kind == "f" and scale.ndim else None)
        else:
            scale = np.maximum(np.maximum(np.abs(a), np.abs(b)), 1.0)
        err = np.divide(err, scale, out=err) if in_place else err / scale
        exact = a == b
        if np.isnan(np.sum(err)):  # (err ≥ 0: the sum is NaN only when an entry is)
            undefined = np.isnan(err)
            err = np.where(undefined, np.where(exact, 0.0, np.inf), err)
        ok = err <= self.tolerance
        sure = ~ok if (a.dtype.kind in "fc" or b.dtype.kind in "fc") else np.ones_like(ok)
        return Truth(*(v if v.shape == (self.batch,) else np.full(self.batch, v)
                       for v in (ok, exact, err, sure)))

    def _float_eq(self, a: np.ndarray, b: float) -> Truth:
        """:meth:`_scalar_eq` of a float64 draw against a finite constant, without
        temporaries (the equation every identity ``lhs = c`` ends in)."""
        err = np.subtract(a, b)
        np.abs(err, out=err)
        scale = np.abs(a)
        np.maximum(scale, max(1.0, abs(b)), out=scale)
        np.divide(err, scale, out=err)
        exact = a == b
        if math.isnan(err.sum()):  # (err ≥ 0: the sum is NaN only when an entry is)
            err[np.isnan(err)] = np.inf  # ±∞ or NaN against a finite constant
        ok = err <= self.tolerance
        return Truth(ok, exact, err, ~ok)

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

    def and_(self, *ts: Truth) -> Truth:
        if not ts:
            return self.truth(True)
        ok = np.logical_and.reduce([t.ok for t in ts])
        exact = np.logical_and.reduce([t.exact for t in ts])
        err = np.maximum.reduce([t.err for t in ts])
        oks = [t.ok for t in ts]
        return Truth(ok, exact, err, polarity.conjunction(oks, [t.sure for t in ts]),
                     polarity.conjunction(oks, [t.known for t in ts]))

    def or_(self, *ts: Truth) -> Truth:
        ok = np.logical_or.reduce([t.ok for t in ts])
        exact = np.logical_or.reduce([t.exact for t in ts])
        err = np.minimum.reduce([np.where(t.ok, t.err, np.inf) for t in ts])
        err = np.where(ok, err, np.minimum.reduce([t.err for t in ts]))
        oks = [t.ok for t in ts]
        return Truth(ok, exact, err, polarity.disjunction(oks, [t.sure for t in ts]),
                     polarity.disjunction(oks, [t.known for t in ts]))

    def not_(self, t: Truth) -> Truth:
        return Truth(~t.ok, ~t.exact, np.where(t.ok, np.inf, 0.0),
                     polarity.negation(t.ok, t.sure), polarity.negation(t.ok, t.known))

    def implies(self, a: Truth, b: Truth) -> Truth:
        return Truth(~a.ok | b.ok, ~a.exact | b.exact, np.where(a.ok, b.err, 0.0),
                     polarity.implication(a.ok, a.sure, b.ok, b.sure),
                     polarity.implication(a.ok, a.known, b.ok, b.known))

    def iff(self, a: Truth, b: Truth) -> Truth:
        ok = a.ok == b.ok
        # only the sides that hold carry a numerical deviation
        err = np.maximum(np.where(a.ok, a.err, 0.0), np.where(b.ok, b.err, 0.0))
        return Truth(ok, a.exact == b.exact, np.where(ok, err, np.inf),
                     polarity.equivalence(a.ok, a.sure, b.ok, b.sure),
                     polarity.equivalence(a.ok, a.known, b.ok, b.known))

    def prop_ite(self, c: Truth, then: Callable, other: Callable) -> Truth:
        sel, p, q = self._branches(c, then, other)
        return Truth(
            np.where(sel, p.ok, q.ok), np.where(sel, p.exact, q.exact), np.where(sel, p.err, q.err),
            polarity.choice(c.sure, sel, p.sure, q.sure),
            polarity.choice(c.known, sel, p.known, q.known),
        )

    def _quantify(self, body, lo, hi, universal: bool) -> Truth:
        """``∀``/``∃`` over ``[lo, hi)``; over a prefix of ℕ (``hi`` the sampling bound) it is
        known only where an instance settles it (:mod:`mirror.evaluate.polarity`)."""
        ok = np.full(self.batch, universal)
        exact = ok.copy()
        sure = Quantified(self.batch, universal, complete=True)
        known = Quantified(self.batch, universal, complete=not truncated(hi))
        err = np.zeros(self.batch) if universal else np.full(self.batch, np.inf)
        for mask, t in self._masked_terms(body, lo, hi):
            sure.add(mask, t.ok, t.sure)
            known.add(mask, t.ok, t.known)
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
        return Truth(ok, exact, err, sure.result(), known.result())

    def forall_range(self, body, lo, hi) -> Truth:
        return self._reduce("all", body, lo, hi, lambda: self._quantify(body, lo, hi, True))

    def exists_range(self, body, lo, hi) -> Truth:
        return self._reduce("any", body, lo, hi, lambda: self._quantify(body, lo, hi, False))


__all__ = ["Propositions", "Truth"]
