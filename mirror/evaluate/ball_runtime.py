"""The ball runtime: the operations of :class:`~mirror.evaluate.runtime.NumpyRuntime` on
rigorous enclosures (python-flint's ``arb``/``acb``, Arb's ball arithmetic) and exact numbers.

Values are Python ``int`` (ℕ, ℤ), ``flint.fmpq`` (exact rationals: literals, ``x / y`` of
exact operands) or balls (``arb`` reals, ``acb`` complexes) that are known to contain the
mathematical value. A draw is lifted exactly (a float64 is a dyadic rational: ``arb(x)`` has
radius 0).

Relations are *decided* only when the enclosures decide them (:class:`~mirror.evaluate.truth.Truth`
with ``sure`` meaning "decided"): ``a < b`` when the ball of ``b − a`` lies above 0; ``a ≠ b``
when it excludes 0; ``a = b`` only when the difference is exactly 0 (exact operands, or two
balls of radius 0 with the same midpoint). Anything else is undecided, never guessed: no
tolerance and no zero band. Lean's junk branches (``x / 0 = 0``, ``Real.log 0 = 0``,
``Real.sqrt`` of a negative, ``rpow`` at 0, the clamp of ``arcsin``, ``0 * ⊤`` in ``ℝ≥0∞``)
are taken only when their guard is decided; otherwise the evaluation is marked
:attr:`BallRuntime.undecided` (with the reason) and the caller raises the precision.

The precision is flint's (``flint.ctx.prec`` bits), set by the caller around an evaluation
(:func:`working_precision`).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any, Callable

import numpy as np
from flint import acb, arb, arb_mat, fmpq

from mirror.evaluate.balls import (ONE_DRAW, ball, decided_equal, difference_sign, each,
                                   enclosure, exact_value, is_exact, sign_of)
from mirror.evaluate.functions import BallFunctions
from mirror.evaluate.runtime import NumpyRuntime, install_unary
from mirror.evaluate.truth import Truth

#: An exact power ``p/q ^ n`` is computed exactly up to this many bits, else as a ball.
EXACT_POWER_BITS = 1 << 16


@functools.lru_cache(maxsize=16)
def _decision_truth(ok: bool, decided: bool, err: float) -> Truth:
    """The truth of one decided (or undecided) relation: read-only arrays, one object per
    outcome, shared as :meth:`~mirror.evaluate.truth.Propositions.truth` shares constants
    (nothing writes into a Truth's arrays; a new truth is built from them)."""
    parts = (np.array([ok]), np.array([ok]), np.array([err]), np.array([decided]),
             np.ones(1, dtype=bool))
    for part in parts:
        part.setflags(write=False)
    return Truth(*parts)


def _exact_float(v: float):
    """A float64 draw exactly: ``fmpq`` (a finite float is a dyadic rational), ``+∞`` as
    ``arb``'s, anything else non-finite as NaN."""
    if math.isfinite(v):
        p, q = v.as_integer_ratio()
        return fmpq(p, q)
    return arb.pos_inf() if v > 0 else arb.nan()


class BallRuntime(BallFunctions, NumpyRuntime):
    """Rigorous evaluation of a statement at one draw (batch 1, object arrays).

    :attr:`undecided` is set when a junk-branch guard, an ``if`` condition or a rounding
    could not be decided at the working precision; :attr:`reasons` says which. Every
    relation evaluated is recorded in :attr:`trace` (its kind, the enclosure of the
    difference, the decision)."""

    #: Values are Python objects (balls, exact numbers), not float arrays.
    object_values = True

    def __init__(self, nat_domain: int, bindings: dict[str, Callable] | None = None) -> None:
        super().__init__(1, nat_domain, 0.0, bindings)
        self.undecided = False
        self.reasons: list[str] = []
        self.trace: list[dict[str, Any]] = []
        self.I = acb(0, 1)

    # ---- bookkeeping ----------------------------------------------------------------------

    @property
    def inf(self):  # noqa: D102 - ⊤ of ℝ≥0∞, an integral's bound
        return arb.pos_inf()

    @property
    def pi(self):  # noqa: D102 - computed at the working precision
        return arb.pi()

    @pi.setter
    def pi(self, value) -> None:  # NumpyRuntime.__init__ assigns it
        pass

    def unsure(self, reason: str) -> None:
        """An active draw met a guard the enclosures do not decide."""
        if self.active.all():
            self.undecided = True
            if reason not in self.reasons:
                self.reasons.append(reason)

    # ---- numbers ----------------------------------------------------------------------------

    def lift(self, value) -> np.ndarray:
        """A float/int array as an object array of exact numbers (``fmpq``, ``int``)."""
        arr = np.asarray(value)
        if arr.dtype.kind in "iub":
            return arr.astype(object) if arr.dtype.kind != "b" else arr
        out = np.empty(arr.shape, dtype=object)
        if arr.shape == (1,) and arr.dtype.kind == "f":  # one real draw
            out[0] = _exact_float(float(arr[0]))
            return out
        flat = out.reshape(-1)
        complex_values = np.iscomplexobj(arr)
        for i, v in enumerate(arr.reshape(-1)):
            if complex_values:
                flat[i] = acb(complex(v))
            else:
                flat[i] = _exact_float(float(v))
        return out

    def _map(self, fn, x):
        return each(fn, x)

    def _each2(self, fn, a, b):
        return each(fn, a, b)

    def rational(self, p: int, q: int):
        return fmpq(p, q)

    def number(self, text: str):
        exact = Fraction(text)
        return fmpq(exact.numerator, exact.denominator)

    def integer(self, text: str):
        return int(text)

    def abs(self, x):
        return self._map(lambda v: abs(exact_value(v)) if is_exact(v) else abs(v), x)

    def re(self, x):
        return self._map(lambda v: v.real if isinstance(v, acb) else v, x)

    def im(self, x):
        return self._map(lambda v: v.imag if isinstance(v, acb) else 0, x)

    def conj(self, x):
        return self._map(lambda v: v.conjugate() if isinstance(v, acb) else v, x)

    # ---- Lean's real functions with their junk branches --------------------------------------

    def _guarded(self, v, name: str) -> int | None:
        """The decided sign of ``v`` for the junk branch of ``name`` (marks undecided)."""
        s = sign_of(v)
        if s is None:
            self.unsure(f"the sign of the argument of {name}")
        return s

    def log(self, x):
        """``Real.log``: ``log 0 = 0``, ``log x = log |x|``."""

        def one(v):
            s = self._guarded(v, "Real.log")
            if s == 0:
                return 0
            if s is None:
                return arb.nan()
            return ball(abs(exact_value(v)) if is_exact(v) else abs(v)).log()

        return self._map(one, x)

    def sqrt(self, x):
        """``Real.sqrt``: ``0`` for a negative argument."""

        def one(v):
            s = self._guarded(v, "Real.sqrt")
            if s is None:
                return arb.nan()
            if s <= 0:
                return 0
            return ball(v).sqrt()

        return self._map(one, x)

    def div(self, a, b):
        """``x / y`` with ``x / 0 = 0``: the junk branch only when ``y`` is decided zero."""

        def one(x, y):
            s = self._guarded(y, "a division")
            if s == 0:
                return 0
            if s is None:
                return arb.nan()
            if is_exact(x) and is_exact(y):
                return fmpq(exact_value(x)) / exact_value(y)
            return ball(x) / ball(y) if not isinstance(y, acb) else x / y

        return self._each2(one, a, b)

    def reciprocal(self, x):
        return self.div(1, x)

    def power(self, x, k):
        def one(a, n):
            n = int(n)
            if n < 0:
                s = self._guarded(a, "a negative power")
                if s == 0:
                    return 0  # 0⁻¹ = 0 in a group with zero
                if s is None:
                    return arb.nan()
            if is_exact(a):
                base = fmpq(exact_value(a))
                size = max(int(base.p).bit_length(), int(base.q).bit_length())
                if abs(n) * size <= EXACT_POWER_BITS:
                    return base ** n if n < 0 else exact_value(a) ** n
                return ball(a) ** n
            return a ** n

        return self._each2(one, x, k)

    def rpow(self, x, y):
        """``Real.rpow``: ``exp (log x * y)`` for ``x > 0``; ``0 ^ 0 = 1``, ``0 ^ y = 0``;
        ``exp (log |x| * y) * cos (y * π)`` for ``x < 0``."""

        def one(a, b):
            s = self._guarded(a, "Real.rpow")
            if s is None:
                return arb.nan()
            if s == 0:
                t = sign_of(b)
                if t is None:
                    self.unsure("the exponent of 0 ^ y")
                    return arb.nan()
                return 1 if t == 0 else 0
            if sign_of(b) == 0:
                return 1
            if is_exact(b) and fmpq(exact_value(b)).q == 1 and is_exact(a):
                n, base = int(fmpq(exact_value(b)).p), fmpq(exact_value(a))
                size = max(int(base.p).bit_length(), int(base.q).bit_length())
                if abs(n) * size <= EXACT_POWER_BITS:
                    return base ** n  # an integral exponent of an exact base, exactly
            magnitude = (ball(abs(exact_value(a)) if is_exact(a) else abs(a)).log()
                         * ball(b)).exp()
            return magnitude if s > 0 else magnitude * (ball(b) * arb.pi()).cos()

        return self._each2(one, x, y)

    def maximum(self, *xs):
        return self._extremum(xs, 1)

    def minimum(self, *xs):
        return self._extremum(xs, -1)

    def _extremum(self, xs, direction: int):
        def pick(a, b):
            s = difference_sign(a, b)
            if s is None:
                # the enclosure of max/min is still rigorous: arb's max/min
                return ball(a).max(ball(b)) if direction > 0 else ball(a).min(ball(b))
            return a if s * direction >= 0 else b

        out = np.asarray(xs[0], dtype=object)
        for x in xs[1:]:
            out = self._each2(pick, out, x)
        return out

    def _extremum_fold(self, direction: int):
        def combine(a, b):
            return b if a is None else np.asarray(self._extremum((a, b), direction),
                                                  dtype=object).item()
        return None, np.frompyfunc(combine, 2, 1)

    def _unreachable(self, reason: str):
        self.unsure(reason)
        return arb.nan()

    def sup_range(self, body, lo, hi):
        return self._reduce("sup", body, lo, hi,
                            lambda: self._fold(body, lo, hi, 0, np.frompyfunc(
                                lambda a, b: np.asarray(self._extremum((a, b), 1), dtype=object).item(), 2, 1)))

    def _term(self, value):
        return self.batched(np.asarray(value, dtype=object))

    def ite(self, cond: Truth, then: Callable, other: Callable):
        if not bool(np.asarray(cond.sure).reshape(-1)[0]):
            self.unsure("an if-then-else condition")
        return super().ite(cond, then, other)

    # ---- integrals ---------------------------------------------------------------------------

    def integral(self, body: Callable, lo, hi):
        """``∫ s in lo..hi, body s`` by Arb's rigorous integration (``acb.integral``) on a
        finite interval, with the integrand evaluated by this runtime on complex balls: a
        junk guard it cannot decide on a ball (a branch of ``log``, ``√``, a division whose
        denominator may vanish) makes the integrand non-analytic there, so the result is not
        finite and the draw undecided. An infinite bound is undecided."""
        a = self.batched(np.asarray(lo, dtype=object)).reshape(-1)[0]
        b = self.batched(np.asarray(hi, dtype=object)).reshape(-1)[0]
        if not (ball(a).is_finite() and ball(b).is_finite()):
            self.unsure("an integral over an unbounded interval")
            return np.array([arb.nan()], dtype=object)

        def integrand(s, analytic):
            sub = self.resized(1)
            sub.undecided = False
            sub.reasons = []
            sub.trace = []
            value = np.asarray(body(np.array([s.real if s.imag.is_zero() else s],
                                             dtype=object)), dtype=object).reshape(-1)[0]
            if sub.undecided or self.undecided:
                return acb(arb.nan(), arb.nan())
            return acb(ball(value)) if not isinstance(value, acb) else value

        try:
            result = acb.integral(integrand, acb(ball(a)), acb(ball(b)))
        except (ValueError, ArithmeticError):
            result = acb(arb.nan())
        if not result.is_finite():
            self.unsure("an integral Arb cannot enclose (integrand not analytic on the path)")
            return np.array([arb.nan()], dtype=object)
        return np.array([result.real if result.imag.contains(0) else result], dtype=object)

    # ---- matrices ---------------------------------------------------------------------------

    def _arb_mat(self, a, b: int = 0) -> arb_mat:
        size = a.shape[-1]
        return arb_mat([[ball(a[b, i, j]) for j in range(size)] for i in range(size)])

    def mat_pow(self, a, k):
        a = np.asarray(a, dtype=object)
        k = int(np.asarray(k).reshape(-1)[0])
        result = self.eye(a.shape[-1])
        for _ in range(k):
            result = np.matmul(result, a)
        return result

    def det(self, a):
        a = np.asarray(a, dtype=object)
        if a.shape[-1] == 0:
            return np.array([1], dtype=object)
        return np.array([self._arb_mat(a).det()], dtype=object)

    def mat_inv(self, a):
        """``Matrix.inv``: the zero matrix when the determinant is decided zero."""
        a = np.asarray(a, dtype=object)
        out = np.zeros(a.shape, dtype=object)
        size = a.shape[-1]
        if size == 0:
            return out
        matrix = self._arb_mat(a)
        s = sign_of(matrix.det())
        if s is None:
            self.unsure("whether a matrix is singular")
        elif s != 0:
            inverse = matrix.inv()
            for i in range(size):
                for j in range(size):
                    out[0, i, j] = inverse[i, j]
        return out

    def pos_def(self, a) -> Truth:
        """Symmetric with a positive definite symmetric part, decided by a Cholesky
        factorization in ball arithmetic (Sylvester's criterion on leading minors)."""
        a = np.asarray(a, dtype=object)
        size = a.shape[-1]
        if size == 0:
            return self.truth(True)
        symmetric = [decided_equal(a[0, i, j], a[0, j, i]) for i in range(size)
                     for j in range(i + 1, size)]
        minors = [sign_of(self._arb_mat(a[:, :k, :k]).det()) for k in range(1, size + 1)]
        if False in symmetric or any(m is not None and m <= 0 for m in minors):
            return self._decision(False, True)
        decided = None not in symmetric and None not in minors
        return self._decision(decided, decided)

    def eye(self, n):
        size = self._uniform(n)
        out = np.zeros((1, size, size), dtype=object)
        for i in range(size):
            out[0, i, i] = 1
        return out

    def mul_vec(self, a, v):
        a = np.asarray(a, dtype=object)
        v = np.asarray(v, dtype=object)
        return np.matmul(a, v[..., :, None])[..., 0]

    # ---- relations --------------------------------------------------------------------------

    def _decision(self, value: bool, decided: bool, err: float = 0.0) -> Truth:
        return _decision_truth(bool(value) and bool(decided), bool(decided), float(err))

    def _record(self, kind: str, a, b, value: bool | None) -> None:
        try:
            diff = (enclosure(exact_value(a) - exact_value(b)) if is_exact(a) and is_exact(b)
                    else enclosure(ball(a) - ball(b)))
        except (TypeError, ValueError, ArithmeticError):
            diff = {"mid": "nan", "rad": "inf"}
        self.trace.append({"relation": kind, "difference": diff,
                           "decision": {True: "true", False: "false", None: "undecided"}[value]})

    def _pairs(self, a, b):
        a, b = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
        if a.shape in ONE_DRAW and b.shape in ONE_DRAW:
            return [(a.reshape(-1)[0], b.reshape(-1)[0])]
        a = self.batched(a).reshape(-1)
        b = self.batched(b).reshape(-1)
        if a.size != b.size:
            a, b = np.broadcast_arrays(a, b)
        return list(zip(a, b))

    def eq(self, a, b) -> Truth:
        results = []
        for x, y in self._pairs(a, b):
            value = decided_equal(x, y)
            self._record("=", x, y, value)
            results.append(value)
        if False in results:
            return self._decision(False, True, float("inf"))
        decided = None not in results
        return self._decision(decided, decided)

    def array_eq(self, a, b) -> Truth:
        return self.eq(a, b)

    def ne(self, a, b) -> Truth:
        t = self.eq(a, b)
        return Truth(~t.ok & t.sure, ~t.ok & t.sure, np.zeros(1), t.sure)

    def _order(self, a, b, strict: bool) -> Truth:
        x, y = self._pairs(a, b)[0]
        s = difference_sign(y, x)  # the sign of b − a
        value = None if s is None else (s > 0 if strict else s >= 0)
        self._record("<" if strict else "≤", x, y, value)
        return self._decision(bool(value), value is not None, 0.0 if value else float("inf"))

    # ---- bound implementations -----------------------------------------------------------------

    def to_float(self, x) -> np.ndarray:
        arr = np.asarray(x)
        if arr.dtype != object:
            return arr
        flat = [v.mid() if isinstance(v, (arb, acb)) else v for v in arr.reshape(-1)]
        kind = complex if any(isinstance(v, acb) for v in flat) else float
        return np.array([kind(v) if not is_exact(v) else kind(float(exact_value(v)))
                         for v in flat], dtype=kind).reshape(arr.shape)

    def from_float(self, x) -> np.ndarray:
        return self.lift(x)


def _ball_unary(name: str, numpy_name: str, mpmath_name: str) -> Callable:
    method = {"log_pos": "log", "sqrt_pos": "sqrt", "arctan": "atan"}.get(name, name)
    # the value at an exact 0, computed exactly (None: the ball's)
    at_zero = (0 if name in ("sin", "tan", "sinh", "tanh", "arctan")
               else 1 if name in ("exp", "cos", "cosh") else None)

    def one(self, v):
        if at_zero is not None and is_exact(v) and exact_value(v) == 0:
            return at_zero
        return getattr(ball(v), method)()

    return lambda self, x: self._map(lambda v: one(self, v), x)


install_unary(BallRuntime, _ball_unary)


__all__ = ["BallRuntime"]
