"""The independent checker's algebraic numbers (certificate version 3): a real root of an
integer polynomial, named by an isolating interval with rational endpoints.

A draw value ``{"algebraic": {"polynomial": ["1", "0", "-2"], "interval": ["-2", "-1"]}}``
(coefficients highest degree first) is the unique root of ``x² − 2`` in ``[-2, -1]``, i.e.
``−√2``. The checker verifies, exactly and by itself, that the polynomial is squarefree (its
gcd with its derivative is constant), that neither endpoint is a root, and — by Sturm's
theorem on the rational sequence ``p, p', −rem(…)`` — that exactly one root lies between the
endpoints. At a working precision the value is the union ball of an interval halved
(bisection on the exact sign of ``p`` at rational midpoints) until it is narrower than that
precision. An equation at such a point is never decided by a ball containing 0:
:func:`exact_zero` decides it exactly, as the remainder of the difference's numerator
modulo the polynomials (a Gröbner basis: one polynomial per variable).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

import sympy as sp
from flint import arb, ctx, fmpq, fmpq_poly

from mirror.judge.checker_values import CheckerError

#: The highest degree of a certificate's polynomial the checker takes.
MAX_DEGREE = 64


def _fraction(text: Any, what: str) -> Fraction:
    if not isinstance(text, str):
        raise CheckerError(f"{what}: expected an exact number as a string, got "
                           f"{type(text).__name__}")
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise CheckerError(f"{what}: {text!r} is not an integer or p/q") from None


def _sign_changes(values: list[fmpq]) -> int:
    signs = [v > 0 for v in values if v != 0]
    return sum(1 for a, b in zip(signs, signs[1:]) if a != b)


@dataclass
class AlgebraicPoint:
    """The unique root of :attr:`polynomial` in ``[low, high]`` (verified by :meth:`verify`)."""

    coefficients: tuple[int, ...]
    low: Fraction
    high: Fraction
    verified: bool = field(default=False, compare=False)

    @classmethod
    def parse(cls, name: str, data: Any) -> "AlgebraicPoint":
        """A draw value's ``{"polynomial": [...], "interval": [lo, hi]}``."""
        if not isinstance(data, dict) or set(data) != {"polynomial", "interval"}:
            raise CheckerError(f"draw {name}: an algebraic number needs exactly "
                               "'polynomial' and 'interval'")
        coefficients, interval = data["polynomial"], data["interval"]
        if not isinstance(coefficients, list) or not 2 <= len(coefficients) <= MAX_DEGREE + 1:
            raise CheckerError(f"draw {name}: 'polynomial' must list 2 to {MAX_DEGREE + 1} "
                               "integer coefficients")
        exact = [_fraction(c, f"draw {name} polynomial") for c in coefficients]
        if any(c.denominator != 1 for c in exact) or exact[0] == 0:
            raise CheckerError(f"draw {name}: the polynomial's coefficients must be integers, "
                               "the first non-zero")
        if not isinstance(interval, list) or len(interval) != 2:
            raise CheckerError(f"draw {name}: 'interval' must be [low, high]")
        low, high = (_fraction(e, f"draw {name} interval") for e in interval)
        if not low < high:
            raise CheckerError(f"draw {name}: the interval [{low}, {high}] is empty or a point")
        return cls(tuple(int(c) for c in exact), low, high)

    @property
    def polynomial(self) -> fmpq_poly:
        return fmpq_poly(list(reversed(self.coefficients)))

    def _at(self, x: Fraction) -> fmpq:
        return self.polynomial(fmpq(x.numerator, x.denominator))

    def verify(self, name: str = "") -> None:
        """That the polynomial is squarefree and has exactly one root in the interval, none
        at its ends (:class:`CheckerError` otherwise)."""
        if self.verified:
            return
        p = self.polynomial
        where = f"draw {name}: " if name else ""
        if not p.gcd(p.derivative()).is_constant():
            raise CheckerError(f"{where}the polynomial {p} is not squarefree")
        if self._at(self.low) == 0 or self._at(self.high) == 0:
            raise CheckerError(f"{where}an end of the interval is a root of {p}")
        sequence = [p, p.derivative()]
        while not sequence[-1].is_zero():
            sequence.append(-(sequence[-2] % sequence[-1]))
        sequence.pop()
        at = [fmpq(self.low.numerator, self.low.denominator),
              fmpq(self.high.numerator, self.high.denominator)]
        roots = _sign_changes([s(at[0]) for s in sequence]) - \
            _sign_changes([s(at[1]) for s in sequence])
        if roots != 1:
            raise CheckerError(f"{where}{p} has {roots} roots in [{self.low}, {self.high}] "
                               "(Sturm's theorem), not exactly one")
        self.verified = True

    def interval(self, bits: int) -> tuple[Fraction, Fraction]:
        """The isolating interval halved until narrower than ``2^-bits`` times its larger
        end's magnitude (at least 1): the sign of ``p`` at each midpoint, exactly."""
        self.verify()
        low, high = self.low, self.high
        low_sign = self._at(low) > 0
        width = Fraction(1, 1 << bits) * max(1, abs(low), abs(high))
        while high - low > width:
            mid = (low + high) / 2
            value = self._at(mid)
            if value == 0:
                return mid, mid
            if (value > 0) == low_sign:
                low = mid
            else:
                high = mid
        return low, high

    def ball(self):
        """A ball containing the root at the working precision (an exact ``fmpq`` when the
        bisection meets it)."""
        low, high = self.interval(ctx.prec + 8)
        if low == high:
            return fmpq(low.numerator, low.denominator)
        return arb(fmpq(low.numerator, low.denominator)).union(
            arb(fmpq(high.numerator, high.denominator)))

    def text(self) -> dict[str, Any]:
        return {"algebraic": {"polynomial": [str(c) for c in self.coefficients],
                              "interval": [str(self.low), str(self.high)]}}


def algebraic_symbols(env: dict) -> dict[sp.Symbol, AlgebraicPoint]:
    """The environment's algebraic points by symbol (set by the checker's environment)."""
    return env.get(ALGEBRAIC_KEY, {})


#: The environment's key for its algebraic points.
ALGEBRAIC_KEY = "algebraic points"


def exact_zero(difference: sp.Basic, env: dict, nonzero: Callable[[sp.Basic], bool]) -> bool:
    """Whether ``difference`` (a sympy expression) is exactly 0 at the environment's point,
    decided exactly: the draw's rationals substituted, the numerator a polynomial in the
    algebraic variables with rational coefficients, and its remainder modulo their
    polynomials 0 (each polynomial in its own variable: they form a Gröbner basis, so a zero
    remainder puts the numerator in their ideal, 0 at every common root). The denominator must be
    decided non-zero by ``nonzero`` (the checker's balls). ``False`` means only "not proved
    0": the balls decide the rest."""
    points = algebraic_symbols(env)
    if not points or not difference.free_symbols & set(points):
        return False
    substitution = {}
    for symbol in difference.free_symbols - set(points):
        value = env.get(symbol)
        if isinstance(value, int):
            substitution[symbol] = sp.Integer(value)
        elif isinstance(value, fmpq):
            substitution[symbol] = sp.Rational(int(value.p), int(value.q))
        else:
            return False
    try:
        numerator, denominator = sp.fraction(sp.together(difference.xreplace(substitution)))
        generators = sorted(numerator.free_symbols & set(points), key=str)
        if not generators:
            return bool(numerator == 0) and nonzero(denominator)
        polynomial = sp.Poly(numerator, *generators, domain="QQ")
        ideal = [sp.Poly(list(points[g].coefficients), g, domain="QQ").as_expr()
                 for g in generators]
        _, remainder = sp.reduced(polynomial.as_expr(), ideal, *generators, domain="QQ")
    except (sp.PolynomialError, sp.CoercionFailed, ValueError, TypeError):
        return False
    return bool(remainder == 0) and nonzero(denominator)


__all__ = ["ALGEBRAIC_KEY", "AlgebraicPoint", "algebraic_symbols", "exact_zero"]
