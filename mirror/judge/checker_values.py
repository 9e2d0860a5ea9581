"""The independent checker's values (:mod:`mirror.judge.checker`): exact numbers, Arb balls,
ℝ≥0∞'s ``⊤`` and Lean's junk-valued functions, written here and nowhere shared with the search.

``⊤ : ℝ≥0∞`` is :data:`TOP`, evaluated by Mathlib's rules: ``⊤ + a = ⊤``, ``a - ⊤ = 0``,
``⊤ - a = ⊤`` (``a ≠ ⊤``), ``0 * ⊤ = 0``, ``a * ⊤ = ⊤`` (``a ≠ 0``), ``0⁻¹ = ⊤``, ``⊤⁻¹ = 0``,
``⊤ ^ 0 = 1``, ``⊤ ^ n = ⊤``, ``⊤.toReal = 0``, ``⊤`` the greatest element; anywhere else
(ordinary ``+``, a real function) it is a :class:`CheckerError`.
"""

from __future__ import annotations

import math
from typing import Callable

import sympy as sp
from flint import acb, arb, fmpq

from bridge.errors import LeanMirrorError
from mirror.translate import digits, ennreals, integers, matrices, reals

class CheckerError(LeanMirrorError, ValueError):
    """The checker cannot evaluate a construct of the statement (the certificate is then
    rejected with this reason, never accepted)."""


class _Top:
    """``⊤ : ℝ≥0∞``."""

    def __repr__(self) -> str:
        return "⊤"


#: The checker's ``⊤``.
TOP = _Top()


def _top(value) -> bool:
    return value is TOP


def _no_top(value, what: str):
    if _top(value):
        raise CheckerError(f"⊤ as an argument of {what} (only ℝ≥0∞ operations take it)")
    return value


class Undecided(ArithmeticError):
    """A guard or a relation the enclosures do not decide at this precision."""


# ---- numbers ------------------------------------------------------------------------------------


def _exact(value) -> bool:
    return isinstance(value, (int, fmpq))


def _ball(value):
    _no_top(value, "a real operation")
    if isinstance(value, (arb, acb)):
        return value
    return arb(value)


def _sign(value) -> int:
    """The decided sign of a real number; :class:`Undecided` otherwise. (The search's
    :func:`mirror.evaluate.balls.sign_of` is deliberately not reused: the checker shares no
    deciding code with the search.)"""
    if _top(value):
        return 1
    if _exact(value):
        return (value > 0) - (value < 0)
    if isinstance(value, acb):
        if not value.imag.is_zero():
            raise Undecided("the sign of a complex number")
        value = value.real
    if value.is_zero():
        return 0
    if value > 0:
        return 1
    if value < 0:
        return -1
    raise Undecided("a sign the enclosure does not decide")


def _positive_real(value, what: str):
    if _sign(value) <= 0:
        raise Undecided(f"{what} of a number not decided positive")
    return _ball(value)


def _log(x):
    return _positive_real(x, "log").log()


def _sqrt(x):
    return 0 if _sign(x) == 0 else _positive_real(x, "sqrt").sqrt()


def _pow(base, exponent):
    if _top(base) and isinstance(exponent, int) and exponent >= 0:
        return 1 if exponent == 0 else TOP  # (pow_zero; ENNReal.top_pow)
    _no_top(exponent, "a power")
    if isinstance(exponent, int):
        if _exact(base):
            if base == 0 and exponent < 0:
                raise CheckerError("0 to a negative power in the sympy form")
            return fmpq(base) ** exponent if exponent < 0 else base ** exponent
        return base ** exponent
    if _exact(exponent) and exponent == fmpq(1, 2):
        return _sqrt(base)
    return (_positive_real(base, "a real power") .log() * _ball(exponent)).exp()


def _lean_div(a, b):
    s = _sign(b)
    if s == 0:
        return 0
    if _exact(a) and _exact(b):
        return fmpq(a) / b
    return _ball(a) / _ball(b)


def _lean_log(x):
    s = _sign(x)
    return 0 if s == 0 else _ball(abs(x)).log()


def _lean_sqrt(x):
    return 0 if _sign(x) <= 0 else _ball(x).sqrt()


def _lean_rpow(x, y):
    s = _sign(x)
    if s == 0:
        return 1 if _sign(y) == 0 else 0
    magnitude = (_ball(abs(x)).log() * _ball(y)).exp()
    return magnitude if s > 0 else magnitude * (_ball(y) * arb.pi()).cos()


def _lean_ratio(num: str, den: str) -> Callable:
    def evaluate(x):
        d = getattr(_ball(x), den)()
        return 0 if _sign(d) == 0 else getattr(_ball(x), num)() / d

    return evaluate


def _lean_arcsin(x):
    if _sign(_difference(x, 1)) >= 0:
        return arb.pi() / 2
    if _sign(_difference(x, -1)) <= 0:
        return -arb.pi() / 2
    return _ball(x).asin()


def _difference(a, b):
    _no_top(a, "a subtraction of reals"), _no_top(b, "a subtraction of reals")
    if _exact(a) and _exact(b):
        return fmpq(a) - b
    return _ball(a) - _ball(b)


def _compare(a, b) -> int:
    """The decided sign of ``a − b``, ``⊤`` the greatest element (``le_top``)."""
    if _top(a) or _top(b):
        return int(_top(a)) - int(_top(b))
    return _sign(_difference(a, b))


def _extremum(pick_first: Callable) -> Callable:
    def evaluate(*values):
        out = values[0]
        for v in values[1:]:
            out = out if pick_first(_compare(out, v)) else v
        return out

    return evaluate


# ---- ℝ≥0∞ (Mathlib's rules for ⊤) ----------------------------------------------------------


def _enn_add(a, b):
    return TOP if _top(a) or _top(b) else a + b  # (top_add, add_top)


def _enn_sub(a, b):
    if _top(b):
        return 0  # (tsub_eq_zero_of_le le_top)
    if _top(a):
        return TOP  # (ENNReal.top_sub_coe)
    return 0 if _sign(_difference(a, b)) <= 0 else _difference(a, b)


def _enn_mul(a, b):
    if _sign(a) == 0 or _sign(b) == 0:
        return 0  # (zero_mul, mul_zero: also at ⊤)
    if _top(a) or _top(b):
        return TOP  # (ENNReal.mul_top, top_mul with the other factor non-zero)
    return a * b


def _enn_inv(a):
    if _top(a):
        return 0  # (ENNReal.inv_top)
    if _sign(a) == 0:
        return TOP  # (ENNReal.inv_zero)
    return fmpq(1) / a if _exact(a) else 1 / _ball(a)


def _enn_to_real(a):
    return 0 if _top(a) else a  # (ENNReal.top_toReal)


def _integer(method: str) -> Callable:
    def evaluate(x):
        if isinstance(x, int):
            return x
        if isinstance(x, fmpq):
            return int(getattr(x, method)())
        value = getattr(_ball(x), method)().unique_fmpz()
        if value is None:
            raise Undecided(f"the {method} of a ball")
        return int(value)

    return evaluate


# ---- integers (Lean's ℕ/ℤ operations, written here from their definitions) -----------------


def _whole(value, what: str) -> int:
    if isinstance(value, int):
        return value
    if isinstance(value, fmpq) and value.q == 1:
        return int(value.p)
    raise CheckerError(f"{what} of a value that is not an exact integer ({value})")


def _integers(rule: Callable, what: str) -> Callable:
    return lambda *args: rule(*(_whole(a, what) for a in args))


def _ediv(a: int, b: int) -> int:
    """``Int.ediv`` (``a / 0 = 0``; the remainder ``a - b * q`` lies in ``[0, |b|)``)."""
    if b == 0:
        return 0
    q = a // abs(b)  # floor: a - |b| q ∈ [0, |b|)
    return q if b > 0 else -q


#: Lean's integer operations by translation node.
_INTEGER_RULES: dict[type, tuple[Callable, str]] = {
    integers.NatSub: (lambda a, b: max(a - b, 0), "ℕ subtraction"),
    integers.NatDiv: (lambda a, b: 0 if b == 0 else a // b, "ℕ division"),
    integers.IntDiv: (_ediv, "ℤ division"),
    integers.NatMod: (lambda a, b: a if b == 0 else a - b * _ediv(a, b), "%"),
    integers.NatGcd: (lambda a, b: math.gcd(a, b), "Nat.gcd"),
    integers.FinWrap: (lambda x, n: x % n if n > 0 else _no_fin(), "Fin arithmetic"),
    integers.NatLcm: (lambda a, b: math.lcm(a, b), "Nat.lcm"),
    digits.DigitSum: (digits.digit_sum, "(Nat.digits b n).sum"),
    digits.DigitLength: (digits.digit_length, "(Nat.digits b n).length"),
    digits.Digit: (digits.digit_at, "a digit of Nat.digits b n"),
}


def _rational_part(part: str) -> Callable:
    """``Rat.num`` / ``Rat.den`` of an exact rational (``fmpq`` is kept in lowest terms)."""
    def evaluate(x):
        if isinstance(x, int):
            return x if part == "p" else 1
        if isinstance(x, fmpq):
            return int(getattr(x, part))
        raise CheckerError(f"Rat.num/den of a value that is not an exact rational ({x})")

    return evaluate


def _no_fin():
    raise CheckerError("Fin 0 has no elements")


def _factorial(n):
    n = _whole(n, "factorial")
    if n < 0 or n > 10_000:
        raise CheckerError(f"factorial of {n}")
    return math.factorial(n)


# ---- matrices and vectors (nested tuples of numbers, rows first) ---------------------------


def _array(value, what: str) -> tuple:
    if not isinstance(value, tuple):
        raise CheckerError(f"{what} of a value that is not an array ({value})")
    return value


def _entrywise(combine: Callable) -> Callable:
    def evaluate(a, b):
        a, b = _array(a, "an entrywise operation"), _array(b, "an entrywise operation")
        if len(a) != len(b):
            raise CheckerError(f"arrays of {len(a)} and {len(b)} entries combined")
        return tuple(evaluate(x, y) if isinstance(x, tuple) else combine(x, y)
                     for x, y in zip(a, b))

    return evaluate


def _scaled(c, a):
    return tuple(_scaled(c, x) if isinstance(x, tuple) else c * x for x in _array(a, "c •"))


def _mat_mul(a, b):
    a, b = _array(a, "a matrix product"), _array(b, "a matrix product")
    if not a or not all(isinstance(row, tuple) and len(row) == len(b) for row in a):
        raise CheckerError("a matrix product of shapes that do not match")
    columns = len(b[0]) if b else 0
    return tuple(tuple(sum((row[k] * b[k][j] for k in range(len(b))), 0)
                       for j in range(columns)) for row in a)


def _identity(n):
    n = _whole(n, "the identity matrix")
    return tuple(tuple(int(i == j) for j in range(n)) for i in range(n))


def _mat_pow(a, k):
    k = _whole(k, "a matrix power")
    if k < 0:
        raise CheckerError(f"a matrix to the power {k}")
    out = _identity(len(_array(a, "a matrix power")))
    for _ in range(k):
        out = _mat_mul(out, a)
    return out


def _transpose(a):
    a = _array(a, "a transpose")
    return tuple(zip(*a))


_MATRIX_RULES: dict[type, Callable] = {
    matrices.LMatMul: _mat_mul,
    matrices.LMatAdd: _entrywise(lambda x, y: x + y),
    matrices.LMatSub: _entrywise(lambda x, y: x - y),
    matrices.LMatNeg: lambda a: _scaled(-1, a),
    matrices.LMatSMul: _scaled,
    matrices.LMatTranspose: _transpose,
    matrices.LMatOne: _identity,
    matrices.LMatZero: lambda m, n: tuple(tuple(0 for _ in range(_whole(n, "a zero matrix")))
                                          for _ in range(_whole(m, "a zero matrix"))),
    matrices.LMatPow: _mat_pow,
}


#: sympy function classes → their rigorous evaluation on the evaluated arguments.
FUNCTIONS: dict[type, Callable] = {
    sp.exp: lambda x: _ball(x).exp(),
    sp.log: _log,
    sp.sin: lambda x: _ball(x).sin(),
    sp.cos: lambda x: _ball(x).cos(),
    sp.tan: lambda x: _ball(x).tan(),
    sp.atan: lambda x: _ball(x).atan(),
    sp.sinh: lambda x: _ball(x).sinh(),
    sp.cosh: lambda x: _ball(x).cosh(),
    sp.tanh: lambda x: _ball(x).tanh(),
    sp.Abs: lambda x: abs(_no_top(x, "|·|")),
    sp.sign: _sign,
    sp.floor: _integer("floor"),
    sp.ceiling: _integer("ceil"),
    sp.Max: _extremum(lambda s: s >= 0),
    sp.Min: _extremum(lambda s: s <= 0),
    reals.LeanDiv: _lean_div,
    reals.LeanLog: _lean_log,
    reals.LeanSqrt: _lean_sqrt,
    reals.LeanRpow: _lean_rpow,
    reals.LeanTan: _lean_ratio("sin", "cos"),
    reals.LeanCot: _lean_ratio("cos", "sin"),
    reals.LeanArcsin: _lean_arcsin,
    ennreals.ENNAdd: _enn_add,
    ennreals.ENNSub: _enn_sub,
    ennreals.ENNMul: _enn_mul,
    ennreals.ENNInv: _enn_inv,
    ennreals.ENNToReal: _enn_to_real,
    sp.factorial: _factorial,
    **_MATRIX_RULES,
    **{cls: _integers(*rule) for cls, rule in _INTEGER_RULES.items()},
    integers.RatNum: _rational_part("p"),
    integers.RatDen: _rational_part("q"),
}



__all__ = ["CheckerError", "FUNCTIONS", "TOP", "Undecided"]
