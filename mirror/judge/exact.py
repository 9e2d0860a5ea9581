"""Exact decisions: what a statement says at one example, beyond float64's word.

Floating point is only the fast filter (:mod:`mirror.judge.checks`). A draw whose float64 value
fails, or holds only within the tolerance of a relation's boundary, is decided here:

1. with **rational arithmetic** when the statement is rational in the draws (every float
   draw is an exact rational, so ``(x + 10^300) - 10^300 ≤ x`` is decided exactly);
2. otherwise with **mpmath at rising precision**, 50 → 100 → 200 → … digits (starting higher
   when the draws span many orders of magnitude), until two successive precisions give the
   same decision. Relations there use the zero band of :class:`~mirror.evaluate.runtime.MpRuntime`.

A decision covers the hypotheses too: a counterexample is one where the hypotheses hold and
the conclusion fails, both decided the same way. A statement with a bound float64
implementation is instead compared with its Lean definition within the float tolerance
(``tolerance=``): that comparison is the only place a tolerance belongs.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from bridge.errors import LeanMirrorError
from mirror.evaluate.runtime import MpRuntime, OutOfDomain, Truth, install_unary
from mirror.sample.strategies import stack

#: Precisions tried, in decimal digits, after the starting one.
MAX_DIGITS = 1600
START_DIGITS = 50
#: A precision whose evaluation took longer than this (seconds) is not doubled again: the
#: draw stays undecided rather than stall the statement (a quadrature at 200 digits …).
DECIDE_SECONDS = 2.0

HOLDS = "holds"
FAILS = "fails"
VACUOUS = "vacuous"  # the hypotheses are false: the example says nothing
UNDECIDED = "undecided"


class NotRational(LeanMirrorError, ArithmeticError):
    """The statement leaves the rationals at this example (``π``, ``exp``, an irrational root)."""


@dataclass(frozen=True)
class Decision:
    """The exact truth of a statement at one example."""

    verdict: str
    #: How it was decided: ``"exact rational arithmetic"`` or ``"mpmath at N digits"``.
    method: str
    #: The conclusion's deviation at that precision (0 when it holds).
    error: float = 0.0


_EXACT_TYPES = (int, np.integer, bool, np.bool_, Fraction)


def _rational(value: Any) -> bool:
    return isinstance(value, _EXACT_TYPES)


def _leaves_rationals(name: str, *_backend_names: str) -> Callable:
    """An operation whose value is an mpmath number: on the evaluated path of the draw it ends
    the rational attempt at once (a relation meeting its value would raise anyway; an unread
    value, e.g. under a branch not taken, keeps the attempt going)."""

    def method(self, *args):
        if self.active.all():
            raise NotRational(f"{name} on the evaluated path")
        return getattr(MpRuntime, name)(self, *args)

    method.__name__ = name
    return method


class RationalRuntime(MpRuntime):
    """:class:`MpRuntime`'s operations on Python ``Fraction``/``int`` values, exactly.

    Whatever is not rational (a transcendental function, ``π``) produces an mpmath number,
    and a relation that meets one raises :class:`NotRational`: the decision then falls back
    to :class:`MpRuntime` at rising precision."""

    def __init__(self, nat_domain: int, bindings: dict[str, Callable] | None = None) -> None:
        super().__init__(nat_domain, digits=START_DIGITS, bindings=bindings)
        self.band = 0
        self.tolerance = 0

    @property
    def pi(self):  # noqa: D102 - π is not rational
        raise NotRational("π")

    @pi.setter
    def pi(self, value) -> None:  # MpRuntime.__init__ assigns it
        pass

    @property
    def I(self):  # noqa: N802, D102 - the name the generated code uses
        raise NotRational("the imaginary unit")

    @I.setter
    def I(self, value) -> None:  # noqa: N802
        pass

    def _is_zero(self, value) -> bool:
        return value == 0

    rpow = _leaves_rationals("rpow")
    real_tan = _leaves_rationals("real_tan")
    real_cot = _leaves_rationals("real_cot")
    arcsin = _leaves_rationals("arcsin")

    def lift(self, value) -> np.ndarray:
        arr = np.asarray(value)
        if arr.dtype.kind in "iub":
            return arr
        if np.iscomplexobj(arr):
            raise NotRational("a complex draw")
        out = np.empty(arr.shape, dtype=object)
        flat = out.reshape(-1)
        for i, v in enumerate(arr.reshape(-1)):
            if not math.isfinite(float(v)):
                raise NotRational(f"a non-finite draw {v}")
            flat[i] = Fraction(float(v))
        return out

    def rational(self, p: int, q: int):
        return Fraction(p, q)

    def number(self, text: str):
        return Fraction(text)

    def integer(self, text: str):
        return int(text)

    def div(self, a, b):
        def one(x, y):
            if y == 0:
                return Fraction(0)
            if _rational(x) and _rational(y):
                return Fraction(x) / Fraction(y)
            return x / y

        return np.frompyfunc(one, 2, 1)(np.asarray(a, dtype=object), np.asarray(b, dtype=object))

    def power(self, x, k):
        def one(a, n):
            n = int(n)
            if n < 0 and a == 0:
                return Fraction(0)  # 0⁻¹ = 0 in a group with zero
            if _rational(a):
                return Fraction(a) ** n if n < 0 else a ** n
            return a ** n

        return np.frompyfunc(one, 2, 1)(np.asarray(x, dtype=object), np.asarray(k, dtype=object))

    def _operands(self, a, b) -> tuple[np.ndarray, np.ndarray]:
        a = self.batched(self._num(a))
        b = self.batched(self._num(b))
        for value in (*a.reshape(-1), *b.reshape(-1)):
            if not _rational(value):
                raise NotRational(f"a relation between non-rational values ({type(value).__name__})")
        return a, b

    def eq(self, a, b) -> Truth:
        a, b = self._operands(a, b)
        equal = bool(np.all(a.reshape(-1) == b.reshape(-1)))
        worst = 0.0
        if not equal:
            scale = max([1, *(abs(v) for v in a.reshape(-1)), *(abs(v) for v in b.reshape(-1))])
            worst = float(max(abs(x - y) for x, y in zip(a.reshape(-1), b.reshape(-1))) / scale)
        return Truth(np.array([equal]), np.array([equal]), np.array([worst]))

    def ne(self, a, b) -> Truth:
        equal = self.eq(a, b)
        return Truth(~equal.ok, ~equal.ok, np.zeros(1))

    def _order(self, a, b, strict: bool) -> Truth:
        a, b = self._operands(a, b)
        x, y = a.reshape(-1)[0], b.reshape(-1)[0]
        holds = bool(x < y) if strict else bool(x <= y)
        gap = 0.0 if holds else float((x - y) / max(1, abs(x), abs(y)))
        return Truth(np.array([holds]), np.array([holds]), np.array([gap]))

    def pos_def(self, a) -> Truth:
        raise NotRational("Matrix.PosDef (decided by eigenvalues)")

    def integral(self, body: Callable, lo, hi):
        raise NotRational("an integral")


install_unary(RationalRuntime, _leaves_rationals)


def as_batch(example: dict[str, Any], plan: dict) -> dict[str, Any]:
    """One example as a batch of one, keyed by parameter name."""
    return stack([example], plan)


def _state(function: Callable, plan: dict, example: dict[str, Any], rt: MpRuntime) -> tuple:
    """``(verdict, error)`` of one evaluation; ``NotRational`` propagates."""
    values = {k: rt.lift(v) for k, v in as_batch(example, plan).items()}
    try:
        hyp, concl = function(rt, **values)
    except OutOfDomain:
        return UNDECIDED, math.nan
    except NotRational:
        raise
    except (ArithmeticError, ValueError, TypeError) as exc:  # mpmath domain errors, overflow
        if isinstance(rt, RationalRuntime):
            # mpmath does not take Fractions: the statement left the rationals here
            raise NotRational(f"{type(exc).__name__}: {exc}") from exc
        return UNDECIDED, math.nan
    if rt.invalid[0] or rt.impl_nonfinite[0]:
        return UNDECIDED, math.nan
    # a value seen on a prefix of ℕ only is no decision (mirror.evaluate.polarity)
    hyp_known, concl_known = bool(np.asarray(hyp.known)[0]), bool(np.asarray(concl.known)[0])
    if not bool(np.asarray(hyp.ok)[0]):
        return (VACUOUS, 0.0) if hyp_known else (UNDECIDED, math.nan)
    if bool(np.asarray(concl.ok)[0]):
        return HOLDS, float(np.asarray(concl.err)[0])
    if not (hyp_known and concl_known):
        return UNDECIDED, math.nan
    return FAILS, float(np.asarray(concl.err)[0])


def start_digits(example: dict[str, Any]) -> int:
    """The starting precision: 50 digits plus the orders of magnitude the draws span, so that
    ``x + 1e300 - 1e300`` does not lose ``x`` to cancellation at the first precision."""
    magnitudes = []
    for value in example.values():
        arr = np.asarray(value)
        if arr.dtype.kind not in "fc" or arr.size == 0:
            continue
        finite = np.abs(arr[np.isfinite(arr)])
        finite = finite[finite > 0]
        if finite.size:
            magnitudes.extend([math.log10(finite.max()), math.log10(finite.min())])
    if not magnitudes:
        return START_DIGITS
    span = max(0.0, max(magnitudes)) - min(0.0, min(magnitudes))
    return int(min(MAX_DIGITS, START_DIGITS + math.ceil(span)))


def decide(
    function: Callable,
    plan: dict,
    example: dict[str, Any],
    bindings: dict[str, Callable] | None = None,
    tolerance: float | None = None,
) -> Decision:
    """Decide the statement ``function`` at ``example`` (Lean-named draw values).

    With ``tolerance`` (a bound implementation is involved) one 50-digit evaluation compares
    within it. Without, rational arithmetic when possible, else rising precision."""
    nat_domain = plan["settings"]["nat_domain"]
    if tolerance is not None:
        rt = MpRuntime(nat_domain, tolerance=tolerance, bindings=bindings)
        verdict, error = _state(function, plan, example, rt)
        return Decision(verdict, f"mpmath at {START_DIGITS} digits within {tolerance:g}", error)
    try:
        verdict, error = _state(function, plan, example, RationalRuntime(nat_domain, bindings))
        return Decision(verdict, "exact rational arithmetic", error)
    except NotRational:
        pass
    digits = start_digits(example)
    previous, last = None, digits
    while digits <= MAX_DIGITS:
        rt = MpRuntime(nat_domain, digits=digits, bindings=bindings)
        started = time.monotonic()
        try:
            verdict, error = _state(function, plan, example, rt)
        except NotRational:  # only the rational runtime raises it; kept for clarity
            verdict, error = UNDECIDED, math.nan
        if previous is not None and verdict == previous:
            if verdict == UNDECIDED:
                break
            return Decision(verdict, f"mpmath at {last} and {digits} digits", error)
        if time.monotonic() - started > DECIDE_SECONDS:
            break
        previous, last = verdict, digits
        # a quadrature is trusted to 15 digits whatever the precision (MpRuntime.integral):
        # a modest step checks stability without a quadrature at hundreds of digits
        digits = digits + 20 if rt.uncertainty else digits * 2
    return Decision(UNDECIDED, f"no stable decision up to {min(digits, MAX_DIGITS)} digits",
                    math.nan)


__all__ = ["Decision", "NotRational", "RationalRuntime", "as_batch", "decide", "start_digits"]
