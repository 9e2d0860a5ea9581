"""Sums of arctangents of rationals proved equal to a rational multiple of ``π``, exactly.

Ball arithmetic never decides ``arctan 2⁻¹ + arctan 3⁻¹ = π / 4`` (the ball of the difference
contains 0 at every precision), and sympy's rewritings do not prove it. It is decided exactly:
a difference ``d = Σ cᵢ · arctan rᵢ + q · π`` with rational ``cᵢ, rᵢ, q`` is scaled by the
common denominator ``D`` of the coefficients to integers ``Cᵢ, Q``. Since
``arctan r = arg (1 + i r)``, ``exp (i Σ Cᵢ arctan rᵢ) = z / |z|`` for the Gaussian rational
``z = ∏ (1 + i rᵢ) ^ Cᵢ`` (``(1 − i rᵢ) ^ |Cᵢ|`` for a negative ``Cᵢ``: same argument, no
division). ``D · d = 0`` forces ``exp (i · D · d) = 1``, that is ``z`` real with the sign of
``(−1) ^ Q``; conversely, when ``z`` is so, ``D · d`` is a multiple of ``2π``, and an Arb ball
of ``D · d`` inside ``(−2π, 2π)`` makes it ``0``. Both steps are exact or rigorous; anything
else (a rational term, a symbol, another function, an exponent or a count beyond the bounds
below) is not proved here.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import sympy as sp
from flint import arb, ctx

#: The largest integer multiple of one arctangent expanded (``(1 + i r) ^ C``).
MAX_MULTIPLE = 64
#: The most arctangent terms one difference may have.
MAX_TERMS = 16
#: Bits of the ball that pins the multiple of ``2π``.
PRECISION = 64


def _terms(expr: sp.Basic) -> tuple[list[tuple[Fraction, Fraction]], Fraction] | None:
    """``([(cᵢ, rᵢ)], q)`` when ``expr`` is ``Σ cᵢ · arctan rᵢ + q · π`` with every number
    rational, else ``None``."""
    arctans: list[tuple[Fraction, Fraction]] = []
    pi = Fraction(0)
    for term in sp.Add.make_args(sp.expand(expr)):
        coeff, rest = term.as_coeff_Mul()
        if not coeff.is_Rational:
            return None
        c = Fraction(int(coeff.p), int(coeff.q))
        if rest == sp.pi:
            pi += c
        elif isinstance(rest, sp.atan) and rest.args[0].is_Rational:
            r = rest.args[0]
            arctans.append((c, Fraction(int(r.p), int(r.q))))
        else:
            return None  # a rational term, a symbol, another function
    if not arctans or len(arctans) > MAX_TERMS:
        return None
    return arctans, pi


def _gaussian_power(r: Fraction, n: int) -> tuple[Fraction, Fraction]:
    """``(1 + i r) ^ n`` for ``n ≥ 0``, exactly, as ``(real, imaginary)``."""
    re, im = Fraction(1), Fraction(0)
    for _ in range(n):
        re, im = re - im * r, re * r + im
    return re, im


def arctan_sum_is_zero(expr: sp.Basic) -> bool:
    """Is ``expr`` — a sum of rational multiples of arctangents of rationals and of ``π`` —
    proved to be exactly ``0``? ``False`` means not proved (never "proved non-zero")."""
    parsed = _terms(expr)
    if parsed is None:
        return False
    arctans, pi = parsed
    scale = lcm(pi.denominator, *(c.denominator for c, _ in arctans))
    multiples = [(int(c * scale), r) for c, r in arctans]
    q = int(pi * scale)
    if any(abs(m) > MAX_MULTIPLE for m, _ in multiples):
        return False
    z_re, z_im = Fraction(1), Fraction(0)
    for m, r in multiples:
        p_re, p_im = _gaussian_power(r if m >= 0 else -r, abs(m))
        z_re, z_im = z_re * p_re - z_im * p_im, z_re * p_im + z_im * p_re
    if z_im != 0 or z_re == 0 or (z_re > 0) != (q % 2 == 0):
        return False
    # scale · expr is a multiple of 2π: it is 0 when a ball puts it inside (-2π, 2π)
    previous = ctx.prec
    ctx.prec = PRECISION
    try:
        value = arb(q) * arb.pi()
        for m, r in multiples:
            value += m * (arb(r.numerator) / r.denominator).atan()
        return bool(abs(value) < 2 * arb.pi())
    finally:
        ctx.prec = previous


__all__ = ["arctan_sum_is_zero"]
