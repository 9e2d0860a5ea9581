"""Values of ``WithBot``/``WithTop`` orders (``Polynomial.degree``, ``Finset.max``,
``Finset.min``) and the numerals they are compared with, decided exactly.

A value is a :class:`fractions.Fraction` (``↑q``), :data:`BOT` (``⊥``) or :data:`TOP` (``⊤``):
``⊥ < ↑q < ⊤`` for every ``q`` (``WithBot.bot_lt_coe``, ``WithTop.coe_lt_top``), and on the
coercions the order is that of ``q`` (``WithBot.coe_lt_coe``, ``WithBot.coe_eq_coe``).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from bridge import term as T

BOT = "⊥"
TOP = "⊤"
#: A relation's Lean constant → how it compares two ranks (``-1``/``0``/``1``).
RELATIONS = {
    "Eq": lambda c: c == 0, "Ne": lambda c: c != 0,
    "LT.lt": lambda c: c < 0, "LE.le": lambda c: c <= 0,
    "GT.gt": lambda c: c > 0, "GE.ge": lambda c: c >= 0,
}
_FIELDS = frozenset({"Rat", "Real", "Complex"})


def c(name: str, *args: T.Term) -> T.App:
    return T.App(T.Const(name), tuple(args))


def is_app(t: T.Term, name: str, arity: int) -> bool:
    return (isinstance(t, T.App) and isinstance(t.fn, T.Const) and t.fn.name == name
            and len(t.args) == arity)


def numeral(t: T.Term, ring: str | None = None) -> Fraction | None:
    """The value of a numeral term (``3``, ``-2``, ``0.5``, ``1 / 2`` in a field), or
    ``None``. ``ring`` (a Lean type name) decides what ``/`` and a decimal mean: they are
    read only in ℚ, ℝ, ℂ."""
    if isinstance(t, T.Typed):
        return numeral(t.expr, ring)
    if isinstance(t, T.Lit):
        if isinstance(t.value, Fraction) and t.value.denominator != 1 and ring not in _FIELDS:
            return None
        return Fraction(t.value)
    if is_app(t, "Neg.neg", 1):
        if ring == "Nat":
            return None
        inner = numeral(t.args[0], ring)
        return None if inner is None else -inner
    if is_app(t, "HDiv.hDiv", 2) and ring in _FIELDS:
        a, b = numeral(t.args[0], ring), numeral(t.args[1], ring)
        if a is None or b is None:
            return None
        return Fraction(0) if b == 0 else a / b  # x / 0 = 0 in a field (div_zero)
    return None


def rational_numeral(t: T.Term, ring: str | None = None) -> sp.Rational | None:
    """:func:`numeral` as an exact sympy rational, or ``None``."""
    value = numeral(t, ring)
    return None if value is None else sp.Rational(value.numerator, value.denominator)


def extended(t: T.Term, ring: str | None = None) -> Fraction | str | None:
    """A numeral, ``⊥`` or ``⊤`` as a value, or ``None``."""
    if isinstance(t, T.Typed):
        return extended(t.expr, ring)
    if t == T.Const("Bot.bot"):
        return BOT
    if t == T.Const("Top.top"):
        return TOP
    return numeral(t, ring)


def _rank(v: Fraction | str) -> tuple[int, Fraction]:
    if v == BOT:
        return (-1, Fraction(0))
    if v == TOP:
        return (1, Fraction(0))
    return (0, v)


def compare(relation: str, a: Fraction | str, b: Fraction | str) -> bool:
    """``a relation b`` in ``WithBot``/``WithTop`` of an ordered numeric type."""
    ra, rb = _rank(a), _rank(b)
    return RELATIONS[relation]((ra > rb) - (ra < rb))


def truth(value: bool) -> T.Const:
    return T.Const("True" if value else "False")


def value_term(v: Fraction, ring: str) -> T.Term:
    """``v`` as a numeral of type ``ring``."""
    magnitude = abs(v)
    lit = T.Lit(int(magnitude) if magnitude.denominator == 1 else magnitude)
    body = c("Neg.neg", lit) if v < 0 else lit
    return T.Typed(body, T.Const(ring))


__all__ = ["BOT", "TOP", "RELATIONS", "compare", "extended", "numeral", "rational_numeral", "truth", "value_term"]
