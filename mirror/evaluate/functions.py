"""Mathlib functions with their junk values, for the two runtimes.

:class:`NumpyFunctions` (batched float64/int64) and :class:`MpFunctions` (mpmath objects)
are mixins of :class:`~mirror.evaluate.runtime.NumpyRuntime` and :class:`~mirror.evaluate.runtime.MpRuntime`.
Each method is Mathlib's definition including its junk value (the lemma that pins it is
named in the docstring). On integer and :class:`fractions.Fraction` inputs the mpmath
methods are exact: floors, integer division, factorials, gcds and the ``ℝ≥0∞`` operations
use integer/rational arithmetic; only transcendental functions return ``mpf``.

``ℝ≥0∞`` values are floats (or mp numbers) with ``inf`` standing for ``⊤``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from flint import arb, fmpq

from mirror.evaluate.balls import (ball, difference_sign, each, exact_value, is_exact, is_top,
                                   sign_of)
from mirror.translate.digits import digit_at, digit_length, digit_sum
from mirror.translate.integers import int_fdiv, int_tdiv, nat_log

_FACTORIAL_INT64 = 20  # 20! < 2^63 ≤ 21!


def _int_map(fn: Callable, *xs) -> np.ndarray:
    """``fn`` on Python ints, elementwise over int64 arrays, int64 out."""
    arrays = np.broadcast_arrays(*(np.asarray(x, dtype=np.int64) for x in xs))
    flat = [a.reshape(-1) for a in arrays]
    out = [fn(*(int(v) for v in vals)) for vals in zip(*flat)]
    shape = arrays[0].shape
    return np.asarray(out, dtype=np.int64).reshape(shape) if out else np.zeros(shape, np.int64)


def _as_float(n: int) -> float:
    """An exact integer as float64, or NaN where it is beyond float64's range (the denominator
    of a subnormal is ``2¹⁰⁷⁴``): the filter then decides nothing there, and the draw is
    decided exactly."""
    try:
        return float(n)
    except OverflowError:
        return math.nan


class NumpyFunctions:
    """Batched float64/int64 versions (a mixin of ``NumpyRuntime``)."""

    def _ratio(self, x, num: Callable, den: Callable):
        """``num x / den x`` with ``x / 0 = 0``."""
        x = np.asarray(x, dtype=float)
        d = den(x)
        return np.where(d == 0, 0.0, num(x) / np.where(d == 0, 1.0, d))

    def real_tan(self, x):
        """``Real.tan x = sin x / cos x`` with ``x / 0 = 0`` (``Real.tan_pi_div_two`` holds
        where float ``cos`` is exactly ``0``)."""
        return self._ratio(x, np.sin, np.cos)

    def real_cot(self, x):
        """``Real.cot x = cos x / sin x``; ``Real.cot_zero``: ``cot 0 = 0``."""
        return self._ratio(x, np.cos, np.sin)

    def arcsin(self, x):
        """``Real.arcsin``, clamped to ``[-1, 1]`` (``Real.arcsin_of_one_le``,
        ``Real.arcsin_of_le_neg_one``)."""
        return np.arcsin(np.clip(np.asarray(x, dtype=float), -1.0, 1.0))

    def floor(self, x):
        """``Int.floor`` (``⌊x⌋``)."""
        x = np.asarray(x)
        if np.issubdtype(x.dtype, np.integer):
            return x.astype(np.int64)
        return np.floor(x).astype(np.int64)

    def ceil(self, x):
        """``Int.ceil`` (``⌈x⌉``)."""
        x = np.asarray(x)
        if np.issubdtype(x.dtype, np.integer):
            return x.astype(np.int64)
        return np.ceil(x).astype(np.int64)

    def sign(self, x):
        """``Real.sign`` / ``Int.sign``: ``-1``, ``0`` (``Real.sign_zero``) or ``1``."""
        x = np.asarray(x)
        return np.sign(x)

    def factorial(self, n):
        """``Nat.factorial`` (``0! = 1``); float64 beyond ``20!`` (the mpmath runtime is exact)."""
        n = np.asarray(n, dtype=np.int64)
        if n.size and int(n.max()) > _FACTORIAL_INT64:
            return np.vectorize(lambda k: float(math.factorial(k)) if k <= 170 else np.inf,
                                otypes=[float])(n)
        return _int_map(math.factorial, n)

    def choose(self, n, k):
        """``Nat.choose``: ``0`` when ``n < k`` (``Nat.choose_eq_zero_of_lt``)."""
        return _int_map(math.comb, n, k)

    def gcd(self, a, b):
        """``Nat.gcd``/``Int.gcd`` (``gcd 0 0 = 0``)."""
        return np.gcd(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))

    def lcm(self, a, b):
        """``Nat.lcm`` (``Nat.lcm_zero_left``: ``lcm 0 n = 0``)."""
        return np.lcm(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))

    def nat_sqrt(self, n):
        """``Nat.sqrt``: ``⌊√n⌋``."""
        return _int_map(math.isqrt, np.maximum(np.asarray(n, dtype=np.int64), 0))

    def nat_log(self, b, n):
        """``Nat.log b n`` (``0`` for ``n < b`` or ``b ≤ 1``: ``Nat.log_of_lt``,
        ``Nat.log_of_left_le_one``)."""
        return _int_map(nat_log, b, n)

    def int_tdiv(self, a, b):
        """``Int.tdiv`` (toward zero), ``Int.tdiv_zero``."""
        return _int_map(int_tdiv, a, b)

    def rat_num(self, q):
        """``Rat.num`` of each float's exact value (floats are dyadic rationals; a value
        rounded by float arithmetic is re-decided exactly whenever its relation fails)."""
        return np.vectorize(lambda v: _as_float(Fraction(v).numerator) if math.isfinite(v)
                            else math.nan, otypes=[float])(np.asarray(q, dtype=float))

    def rat_den(self, q):
        """``Rat.den`` of each float's exact value (see :meth:`rat_num`)."""
        return np.vectorize(lambda v: _as_float(Fraction(v).denominator) if math.isfinite(v)
                            else math.nan, otypes=[float])(np.asarray(q, dtype=float))

    def digit_sum(self, b, n):
        """``(Nat.digits b n).sum`` (``Nat.digits_zero``, ``Nat.digits_one``…)."""
        return _int_map(digit_sum, b, n)

    def digit_length(self, b, n):
        """``(Nat.digits b n).length``."""
        return _int_map(digit_length, b, n)

    def digit_at(self, b, n, i):
        """``(Nat.digits b n)[i]``, ``0`` past the end."""
        return _int_map(digit_at, b, n, i)

    def int_fdiv(self, a, b):
        """``Int.fdiv`` (toward −∞), ``Int.fdiv_zero``."""
        return _int_map(int_fdiv, a, b)

    def int_tmod(self, a, b):
        """``Int.tmod a b = a - b * a.tdiv b`` (``Int.tmod_zero``: ``a.tmod 0 = a``)."""
        return _int_map(lambda x, y: x - y * int_tdiv(x, y), a, b)

    def int_fmod(self, a, b):
        """``Int.fmod a b = a - b * a.fdiv b`` (``Int.fmod_zero``: ``a.fmod 0 = a``)."""
        return _int_map(lambda x, y: x - y * int_fdiv(x, y), a, b)

    # ---- ℝ≥0∞ (inf is ⊤) ----------------------------------------------------------------------

    def enn_add(self, a, b):
        """``⊤ + a = ⊤`` (``top_add``)."""
        return np.asarray(a, dtype=float) + np.asarray(b, dtype=float)

    def enn_sub(self, a, b):
        """Truncated: ``a - b = 0`` for ``a ≤ b``; ``⊤ - ⊤ = 0``; ``⊤ - b = ⊤`` for ``b ≠ ⊤``."""
        a = np.asarray(a, dtype=float)
        b = np.asarray(b, dtype=float)
        return np.where(np.isinf(b), 0.0,
                        np.where(np.isinf(a), np.inf, np.maximum(a - b, 0.0)))

    def enn_mul(self, a, b):
        """``0 * ⊤ = 0`` (``zero_mul``), ``a * ⊤ = ⊤`` for ``a ≠ 0`` (``ENNReal.mul_top``)."""
        a = np.asarray(a, dtype=float)
        b = np.asarray(b, dtype=float)
        zero = (a == 0) | (b == 0)
        return np.where(zero, 0.0, a * b)

    def enn_inv(self, a):
        """``0⁻¹ = ⊤`` (``ENNReal.inv_zero``), ``⊤⁻¹ = 0`` (``ENNReal.inv_top``)."""
        a = np.asarray(a, dtype=float)
        return np.where(a == 0, np.inf, 1.0 / np.where(a == 0, 1.0, a))

    def enn_to_real(self, a):
        """``ENNReal.toReal``: ``⊤.toReal = 0`` (``ENNReal.top_toReal``)."""
        a = np.asarray(a, dtype=float)
        return np.where(np.isinf(a), 0.0, a)

    # ---- variables defined by an equation hypothesis --------------------------------------

    def define(self, name: str, value):
        """The value of a variable the statement defines by a hypothesis ``name = value``
        (recorded in :attr:`defined` so that a counterexample can show it)."""
        defined = self.__dict__.setdefault("defined", {})
        defined[name] = value
        return value


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _is_exact(v: Any) -> bool:
    return _is_int(v) or isinstance(v, Fraction)


# The mpmath forms decide nothing any more (only the tolerance comparison of a bound
# kernel uses them): left out of mutation testing.
# pragma: no mutate start
class MpFunctions:
    """mpmath versions (a mixin of ``MpRuntime``): exact on ``int``/``Fraction`` inputs."""

    context: Any

    def _each(self, fn: Callable, *xs) -> np.ndarray:
        arrays = [np.asarray(x, dtype=object) for x in xs]
        return np.frompyfunc(fn, len(arrays), 1)(*arrays)

    def _mp(self, v):
        """An mp number for ``v`` (exact conversion of ints and fractions)."""
        if isinstance(v, Fraction):
            return self.context.mpf(v.numerator) / v.denominator
        if _is_int(v):
            return self.context.mpf(int(v))
        return v

    def _ratio(self, x, num: str, den: str):
        ctx = self.context

        def one(v):
            v = self._mp(v)
            d = getattr(ctx, den)(v)
            # a denominator inside the zero band is Lean's 0: tan (π / 2) = 1 / 0 = 0
            return ctx.mpf(0) if self._is_zero(d) else getattr(ctx, num)(v) / d

        return self._each(one, x)

    def real_tan(self, x):
        return self._ratio(x, "sin", "cos")

    def real_cot(self, x):
        return self._ratio(x, "cos", "sin")

    def arcsin(self, x):
        ctx = self.context

        def one(v):
            if v >= 1:
                return ctx.pi / 2
            if v <= -1:
                return -ctx.pi / 2
            return ctx.asin(self._mp(v))

        return self._each(one, x)

    def _rounding(self, x, exact: Callable, mp_name: str):
        ctx = self.context

        def one(v):
            if _is_exact(v):
                return exact(v)
            return int(getattr(ctx, mp_name)(v))

        return self._each(one, x)

    def floor(self, x):
        return self._rounding(x, math.floor, "floor")

    def ceil(self, x):
        return self._rounding(x, math.ceil, "ceil")

    def sign(self, x):
        ctx = self.context
        return self._each(lambda v: (v > 0) - (v < 0) if _is_exact(v) else ctx.sign(v), x)

    def _ints(self, fn: Callable, *xs) -> np.ndarray:
        return self._each(lambda *vs: fn(*(int(v) for v in vs)), *xs)

    def factorial(self, n):
        return self._ints(math.factorial, n)

    def choose(self, n, k):
        return self._ints(math.comb, n, k)

    def gcd(self, a, b):
        return self._ints(math.gcd, a, b)

    def lcm(self, a, b):
        return self._ints(math.lcm, a, b)

    def nat_sqrt(self, n):
        return self._ints(lambda v: math.isqrt(max(v, 0)), n)

    def nat_log(self, b, n):
        return self._ints(nat_log, b, n)

    def int_tdiv(self, a, b):
        return self._ints(int_tdiv, a, b)

    def _rational(self, q, part: str):
        def one(v):
            if _is_exact(v):
                return getattr(Fraction(v), part)
            return self.context.nan  # an mp approximation has no exact numerator
        return self._each(one, q)

    def rat_num(self, q):
        return self._rational(q, "numerator")

    def rat_den(self, q):
        return self._rational(q, "denominator")

    def digit_sum(self, b, n):
        return self._ints(digit_sum, b, n)

    def digit_length(self, b, n):
        return self._ints(digit_length, b, n)

    def digit_at(self, b, n, i):
        return self._ints(digit_at, b, n, i)

    def int_fdiv(self, a, b):
        return self._ints(int_fdiv, a, b)

    def int_tmod(self, a, b):
        return self._ints(lambda x, y: x - y * int_tdiv(x, y), a, b)

    def int_fmod(self, a, b):
        return self._ints(lambda x, y: x - y * int_fdiv(x, y), a, b)

    # ---- ℝ≥0∞ --------------------------------------------------------------------------------

    def _top(self, v) -> bool:
        return not _is_exact(v) and self.context.isinf(v)

    def enn_add(self, a, b):
        return self._each(lambda x, y: self.context.inf if self._top(x) or self._top(y)
                          else x + y, a, b)

    def enn_sub(self, a, b):
        def one(x, y):
            if self._top(y):
                return 0
            if self._top(x):
                return self.context.inf
            return max(x - y, 0)

        return self._each(one, a, b)

    def enn_mul(self, a, b):
        return self._each(lambda x, y: 0 if x == 0 or y == 0 else x * y, a, b)

    def enn_inv(self, a):
        def one(x):
            if x == 0:
                return self.context.inf
            if self._top(x):
                return 0
            return Fraction(1) / x if _is_exact(x) else 1 / x

        return self._each(one, a)

    def enn_to_real(self, a):
        return self._each(lambda x: 0 if self._top(x) else x, a)


# pragma: no mutate end
class BallFunctions:
    """Ball-arithmetic versions (a mixin of :class:`~mirror.evaluate.ball_runtime.BallRuntime`):
    exact on integers and ``fmpq``; a junk branch only where its guard is decided, otherwise
    the runtime's evaluation is marked undecided (``self.unsure``)."""

    def _each(self, fn: Callable, *xs) -> np.ndarray:
        return each(fn, *xs)

    def _ratio(self, x, num: str, den: str, name: str):
        def one(v):
            b = ball(v)
            d = getattr(b, den)()
            s = sign_of(d)
            if s is None:
                self.unsure(f"the denominator of {name}")
                return arb.nan()
            # Real.tan_pi_div_two: sin / cos with cos = 0 is 0
            return 0 if s == 0 else getattr(b, num)() / d

        return self._each(one, x)

    def real_tan(self, x):
        return self._ratio(x, "sin", "cos", "Real.tan")

    def real_cot(self, x):
        return self._ratio(x, "cos", "sin", "Real.cot")

    def arcsin(self, x):


        def one(v):
            above, below = difference_sign(v, 1), difference_sign(v, -1)
            if above is not None and above >= 0:
                return arb.pi() / 2
            if below is not None and below <= 0:
                return -arb.pi() / 2
            if above is None or below is None:
                self.unsure("whether the argument of Real.arcsin lies in [-1, 1]")
                return arb.nan()
            return ball(v).asin()

        return self._each(one, x)

    def _rounding(self, x, exact: Callable, method: str, name: str):

        def one(v):
            if is_exact(v):
                v = exact_value(v)
                return int(v) if isinstance(v, int) else int(getattr(v, method)())
            value = getattr(v, method)().unique_fmpz()
            if value is None:
                self.unsure(f"the integer {name} of a ball")
                return 0
            return int(value)

        return self._each(one, x)

    def floor(self, x):
        return self._rounding(x, math.floor, "floor", "floor")

    def ceil(self, x):
        return self._rounding(x, math.ceil, "ceil", "ceiling")

    def sign(self, x):

        def one(v):
            s = sign_of(v)
            if s is None:
                self.unsure("the sign of a number (Real.sign)")
                return 0
            return s

        return self._each(one, x)

    def _ints(self, fn: Callable, *xs) -> np.ndarray:
        return self._each(lambda *vs: fn(*(int(v) for v in vs)), *xs)

    factorial = MpFunctions.factorial
    choose = MpFunctions.choose
    gcd = MpFunctions.gcd
    lcm = MpFunctions.lcm
    nat_sqrt = MpFunctions.nat_sqrt
    nat_log = MpFunctions.nat_log
    int_tdiv = MpFunctions.int_tdiv
    digit_sum = MpFunctions.digit_sum

    def _rational(self, q, part: str):
        def one(v):
            if is_exact(v):
                value = exact_value(v)
                return int(value.p if part == "numerator" else value.q) \
                    if isinstance(value, fmpq) else (int(value) if part == "numerator" else 1)
            self.unsure(f"the {part} of a rational known only as a ball")
            return arb.nan()
        return self._each(one, q)

    def rat_num(self, q):
        return self._rational(q, "numerator")

    def rat_den(self, q):
        return self._rational(q, "denominator")
    digit_length = MpFunctions.digit_length
    digit_at = MpFunctions.digit_at
    int_fdiv = MpFunctions.int_fdiv
    int_tmod = MpFunctions.int_tmod
    int_fmod = MpFunctions.int_fmod

    # ---- ℝ≥0∞ (a ball at +∞ is ⊤) ------------------------------------------------------------

    def _zero(self, v, name: str) -> bool | None:

        if is_top(v):
            return False
        s = sign_of(v)
        if s is None:
            self.unsure(f"whether an operand of {name} is 0")
        return None if s is None else s == 0

    def enn_add(self, a, b):


        return self._each(lambda x, y: arb.pos_inf() if is_top(x) or is_top(y) else x + y, a, b)

    def enn_sub(self, a, b):


        def one(x, y):
            if is_top(y):
                return 0
            if is_top(x):
                return arb.pos_inf()
            s = difference_sign(x, y)
            if s is None:
                self.unsure("the truncation of a subtraction in ℝ≥0∞")
                return arb.nan()
            return x - y if s > 0 else 0

        return self._each(one, a, b)

    def enn_mul(self, a, b):
        """``0 * ⊤ = ⊤ * 0 = 0`` (``zero_mul``, ``mul_zero``); ``a * ⊤ = ⊤`` for ``a ≠ 0``."""


        def one(x, y):
            zero_x, zero_y = self._zero(x, "a product"), self._zero(y, "a product")
            if zero_x or zero_y:
                return 0
            if is_top(x) or is_top(y):
                return arb.nan() if None in (zero_x, zero_y) else arb.pos_inf()
            return x * y

        return self._each(one, a, b)

    def enn_inv(self, a):
        """``0⁻¹ = ⊤``, ``⊤⁻¹ = 0``."""


        def one(x):
            if is_top(x):
                return 0
            zero = self._zero(x, "an inverse")
            if zero is None:
                return arb.nan()
            if zero:
                return arb.pos_inf()
            return fmpq(1) / exact_value(x) if is_exact(x) else 1 / ball(x)

        return self._each(one, a)

    def enn_to_real(self, a):

        return self._each(lambda x: 0 if is_top(x) else x, a)


__all__ = ["BallFunctions", "MpFunctions", "NumpyFunctions"]
