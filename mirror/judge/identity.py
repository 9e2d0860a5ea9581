"""Equalities at one draw, proved by sympy: ``a = b`` only exactly.

Ball arithmetic never decides an equality between irrational values (the ball of ``a − b``
contains 0 at every precision). :class:`SympyRuntime` evaluates a statement at a draw on exact
sympy numbers (the draw's rationals, ``π``, ``exp 1``…), with Lean's junk functions as the
translation's own sympy nodes (``LeanDiv``, ``LeanLog``…, which fold only when sympy *knows*
the guard), and decides an equation when ``simplify(a − b)`` is ``0`` within a time bound.
Orders are decided only between rationals; everything else is left undecided for the ball
runtime (:func:`mirror.judge.exact.decide` combines the two).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

import numpy as np
import sympy as sp

from mirror.evaluate.ball_runtime import EXACT_POWER_BITS, BallRuntime
from mirror.evaluate.runtime import install_unary
from mirror.evaluate.truth import Truth
from mirror.judge.arctans import arctan_sum_is_zero
from mirror.judge.guard import Guard
from mirror.translate.reals import (LeanArcsin, LeanCot, LeanDiv, LeanLog, LeanRpow, LeanSqrt,
                                    LeanTan, known_nonzero)

#: Seconds one rewriting of a difference may take.
SIMPLIFY_SECONDS = 0.5
#: Seconds one whole evaluation of a statement at a draw may take.
EVALUATION_SECONDS = 2.0

def _exponential(expr: sp.Basic) -> sp.Basic:
    """``expr`` with hyperbolic and trigonometric functions as exponentials, cancelled."""
    return sp.cancel(expr.rewrite(sp.exp))


#: Rewritings tried, cheapest first, to prove a difference is 0 (each an identity).
_REWRITES = (sp.powsimp, sp.expand, _exponential, sp.trigsimp, sp.simplify)

#: sympy functions of one argument, by runtime method.
_SYMPY_UNARY = {
    "exp": sp.exp, "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "tanh": sp.tanh,
    "sinh": sp.sinh, "cosh": sp.cosh, "arctan": sp.atan, "log_pos": sp.log,
    "sqrt_pos": sp.sqrt,
}


def _number(value) -> sp.Basic:
    if isinstance(value, sp.Basic):
        return value
    if isinstance(value, (bool, np.bool_)):
        return sp.Integer(int(value))
    if isinstance(value, (int, np.integer)):
        return sp.Integer(int(value))
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    raise TypeError(f"SympyRuntime: not an exact number: {type(value).__name__}")


def _huge(base: sp.Rational, exponent: sp.Integer) -> bool:
    """Would ``base ^ exponent`` have more than :data:`EXACT_POWER_BITS` bits? (Forming it
    is one big-integer operation no time bound interrupts.)"""
    size = max(int(base.p).bit_length(), int(base.q).bit_length())
    return abs(int(exponent)) * size > EXACT_POWER_BITS


class SympyRuntime(BallRuntime):
    """The statement's operations on exact sympy numbers (batch 1, object arrays)."""

    def __init__(self, nat_domain: int, bindings: dict[str, Callable] | None = None,
                 seconds: float = SIMPLIFY_SECONDS,
                 known_zero: frozenset = frozenset()) -> None:
        super().__init__(nat_domain, bindings)
        self.seconds = seconds
        self.I = sp.I
        #: Differences known to be 0: instances, at this draw, of identities proved once
        #: for the statement (:class:`SymbolicRuntime`).
        self.known_zero = known_zero

    @property
    def pi(self):  # noqa: D102
        return sp.pi

    @pi.setter
    def pi(self, value) -> None:
        pass

    @property
    def inf(self):  # noqa: D102 - ⊤ and unbounded integrals are not this runtime's
        raise TypeError("SympyRuntime: ∞")

    def lift(self, value) -> np.ndarray:
        arr = np.asarray(value)
        if arr.dtype.kind in "iub":
            return arr.astype(object)
        if np.iscomplexobj(arr):
            raise TypeError("SympyRuntime: a complex draw")
        out = np.empty(arr.shape, dtype=object)
        flat = out.reshape(-1)
        for i, v in enumerate(arr.reshape(-1)):
            if not np.isfinite(v):
                raise TypeError(f"SympyRuntime: a non-finite draw {v}")
            # a float64 is a dyadic rational, exactly (what Fraction(float(v)) holds)
            flat[i] = sp.Rational(*float(v).as_integer_ratio())
        return out

    def rational(self, p: int, q: int):
        return sp.Rational(p, q)

    def number(self, text: str):
        return sp.Rational(text)

    def integer(self, text: str):
        return sp.Integer(int(text))

    def _map(self, fn, x):
        return super()._map(lambda v: fn(_number(v)), x)

    def _each2(self, fn, a, b):
        return super()._each2(lambda x, y: fn(_number(x), _number(y)), a, b)

    def abs(self, x):
        return self._map(sp.Abs, x)

    def re(self, x):
        return self._map(sp.re, x)

    def im(self, x):
        return self._map(sp.im, x)

    def conj(self, x):
        return self._map(sp.conjugate, x)

    def log(self, x):
        return self._map(LeanLog, x)

    def sqrt(self, x):
        return self._map(LeanSqrt, x)

    def div(self, a, b):
        return self._each2(LeanDiv, a, b)

    def power(self, x, k):
        def one(a, n):
            if a.is_Rational and _huge(a, n):
                raise TypeError("SympyRuntime: an exact power too large to form")
            return LeanDiv(1, a ** -n) if n < 0 else a ** n

        return self._each2(one, x, k)

    def rpow(self, x, y):
        """``Real.rpow`` on exact numbers; a rational base's power stays unevaluated (sympy
        would factor its numerator and denominator to simplify it)."""

        def one(a, b):
            if a.is_Rational and b.is_Integer and _huge(a, b):
                raise TypeError("SympyRuntime: an exact power too large to form")
            if a.is_Rational and b.is_Rational and b.q != 1:
                if a > 0:
                    return sp.Pow(a, b, evaluate=False)
                if a < 0:
                    return sp.Pow(-a, b, evaluate=False) * sp.cos(b * sp.pi)
            return LeanRpow(a, b)

        return self._each2(one, x, y)

    def real_tan(self, x):
        return self._map(LeanTan, x)

    def real_cot(self, x):
        return self._map(LeanCot, x)

    def arcsin(self, x):
        return self._map(LeanArcsin, x)

    def floor(self, x):
        return self._map(self._integral(sp.floor), x)

    def ceil(self, x):
        return self._map(self._integral(sp.ceiling), x)

    def sign(self, x):
        return self._map(self._integral(sp.sign), x)

    def _integral(self, fn: Callable) -> Callable:
        def one(v):
            value = fn(v)
            if not value.is_Integer:
                raise TypeError(f"SympyRuntime: {fn.__name__} of {v} is not decided")
            return int(value)

        return one

    def _extremum(self, xs, direction: int):
        out = np.asarray(xs[0], dtype=object)
        for x in xs[1:]:
            out = self._each2(sp.Max if direction > 0 else sp.Min, out, x)
        return out

    def integral(self, body, lo, hi):
        raise TypeError("SympyRuntime: an integral")

    def det(self, a):
        raise TypeError("SympyRuntime: a determinant")

    def mat_inv(self, a):
        raise TypeError("SympyRuntime: a matrix inverse")

    def pos_def(self, a) -> Truth:
        raise TypeError("SympyRuntime: Matrix.PosDef")

    def enn_add(self, a, b):
        raise TypeError("SympyRuntime: ℝ≥0∞")

    enn_sub = enn_mul = enn_add

    def enn_inv(self, a):
        raise TypeError("SympyRuntime: ℝ≥0∞")

    enn_to_real = enn_inv

    # ---- relations --------------------------------------------------------------------------

    def _zero(self, difference: sp.Basic) -> bool:
        """Is ``difference`` proved to be 0? Cheap rewritings first (powers of one base
        combined: ``x ^ (y - 1) - x ^ y / x``), then sympy's ``simplify``, each within the
        bound (none assumes anything sympy does not know of the numbers). A sum of
        arctangents of rationals and ``π`` is decided exactly first
        (:func:`mirror.judge.arctans.arctan_sum_is_zero`)."""
        if difference == 0 or difference in self.known_zero:
            return True
        if difference.has(sp.atan) and arctan_sum_is_zero(difference):
            return True
        for rewrite in _REWRITES:
            guard = Guard(self.seconds)
            simplified = guard.call(rewrite.__name__, rewrite, difference)
            if simplified is not None and simplified == 0:
                return True
        return False

    def eq(self, a, b) -> Truth:
        results = []
        for x, y in self._pairs(a, b):
            x, y = _number(x), _number(y)
            if x == y:  # the same expression (a variable defined by the equation)
                results.append(True)
                continue
            difference = x - y
            if difference.is_Rational:
                results.append(difference == 0)
            else:
                results.append(True if self._zero(difference) else None)
        if False in results:
            return self._decision(False, True, float("inf"))
        decided = None not in results
        return self._decision(decided, decided)

    def _order(self, a, b, strict: bool) -> Truth:
        x, y = (_number(v) for v in self._pairs(a, b)[0])
        difference = y - x
        if difference.is_Rational:
            value = difference > 0 if strict else difference >= 0
            return self._decision(bool(value), True)
        if self._zero(difference):
            return self._decision(not strict, True)
        return self._decision(False, False)


#: sympy functions whose meaning is Lean's on every argument (no junk value differs).
_FAITHFUL_FUNCTIONS = (sp.exp, sp.sin, sp.cos, sp.tanh, sp.sinh, sp.cosh, sp.Abs, sp.atan,
                       sp.Max, sp.Min, sp.floor, sp.ceiling, sp.sign, sp.re, sp.im)


def faithful(expr) -> bool:
    """Does sympy's meaning of ``expr`` agree with Lean's everywhere? No infinities or NaN
    from a division by zero, no sympy function whose value differs from Lean's junk value
    (``log`` of a number not known positive, ``tan``, a power with a negative or fractional
    exponent of a base not known non-zero / non-negative), only known function classes."""
    if not isinstance(expr, sp.Basic):
        return False
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return False
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Pow):
            base, exponent = node.args
            if exponent.is_negative is not False and not known_nonzero(base):
                return False
            if exponent.is_integer is not True and base.is_nonnegative is not True:
                return False
        elif isinstance(node, sp.log):
            if node.args[0].is_positive is not True:
                return False
        elif type(node).__module__.startswith("mirror."):
            continue  # leanmirror's own vocabulary: Lean's semantics, opaque to sympy
        elif isinstance(node, sp.Function) and not isinstance(node, _FAITHFUL_FUNCTIONS):
            return False
    return True



class SymbolicRuntime(SympyRuntime):
    """The statement on *symbols* (one per scalar draw): each difference proved to be 0 here
    is an identity, kept in :attr:`proven`. At a draw, a difference the draw's own
    evaluation builds that *is* one of them with the draw substituted is 0 without being
    proved again (:attr:`SympyRuntime.known_zero`) — the identity is proved once per statement,
    not once per draw. Only a difference whose every node means in sympy what it means in
    Lean on all reals (:func:`faithful`) is kept, so its instance at any draw is 0; the
    draw's own evaluation still decides which branches its values take."""

    def __init__(self, nat_domain: int, bindings: dict[str, Callable] | None = None,
                 seconds: float = SIMPLIFY_SECONDS) -> None:
        super().__init__(nat_domain, bindings, seconds)
        self.proven: list[sp.Basic] = []

    def _zero(self, difference: sp.Basic) -> bool:
        if difference.free_symbols and faithful(difference) and super()._zero(difference):
            self.proven.append(difference)
            return True
        return False


def symbolic_draw(values: dict[str, np.ndarray]) -> dict[str, np.ndarray] | None:
    """One real (or integer) symbol per scalar draw, as the runtime's object arrays;
    ``None`` when a draw is not a real or integer scalar."""
    out = {}
    for name, value in values.items():
        arr = np.asarray(value)
        if arr.size != 1 or arr.dtype.kind not in "iuf":
            return None
        cell = np.empty(arr.shape, dtype=object)
        cell.reshape(-1)[0] = sp.Symbol(f"_{name}", integer=True) if arr.dtype.kind in "iu" \
            else sp.Symbol(f"_{name}", real=True)
        out[name] = cell
    return out


def _sympy_unary(name: str, numpy_name: str, mpmath_name: str) -> Callable:
    function = _SYMPY_UNARY[name]
    return lambda self, x: self._map(function, x)


install_unary(SympyRuntime, _sympy_unary)


__all__ = ["EVALUATION_SECONDS", "SIMPLIFY_SECONDS", "SymbolicRuntime", "SympyRuntime",
           "faithful", "symbolic_draw"]
