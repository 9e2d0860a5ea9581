"""The sympy vocabulary of Lean semantics.

Each class is a sympy function that keeps one piece of Lean's meaning exactly, including the
junk values (``x / 0 = 0``, truncated ℕ subtraction, ``Real.log 0 = 0``, ``Real.sqrt`` of a
negative is ``0``, Lean's ``Real.rpow`` on negative bases). ``eval`` folds a node to ordinary
sympy when the arguments settle the junk case (a divisor known to be non-zero, a ℕ difference
known to be non-negative…), so that sympy's algebra can work on what remains, and computes
exactly when the arguments are numbers.
"""

from __future__ import annotations

import math
from typing import Callable

import sympy as sp
from sympy.logic.boolalg import BooleanFunction

from mirror.types import BOOL, COMPLEX, ENNREAL, INT, NAT, NNREAL, PNAT, PROP, REAL

#: Finite sums and products with concrete bounds are expanded up to this many terms.
EXPAND_LIMIT = 4096


def _is_num(x: sp.Basic) -> bool:
    return isinstance(x, sp.Number) or (x.is_number and x.is_comparable)


def known_nonzero(expr: sp.Basic) -> bool:
    """Does sympy know ``expr`` is a non-zero number? ``is_zero is False`` alone is not enough:
    sympy also says it of what it does not take for a number at all (an opaque function of a
    ``Lambda``, say), where every numeric assumption comes out ``False``."""
    return expr.is_zero is False and expr.is_complex is True


class LeanDiv(sp.Function):
    """Division in a field (ℝ, ℂ): ``x / 0 = 0``."""

    nargs = 2

    @classmethod
    def eval(cls, a, b):
        if b.is_zero:
            return sp.Integer(0)
        if known_nonzero(b):
            return a / b
        return None


class NatDiv(sp.Function):
    """``ℕ`` division: floor, ``n / 0 = 0``."""

    nargs = 2
    is_integer = is_nonnegative = True  # so a power with it as exponent is a monoid power

    @classmethod
    def eval(cls, a, b):
        if b.is_zero:
            return sp.Integer(0)
        if isinstance(a, sp.Integer) and isinstance(b, sp.Integer):
            return sp.Integer(int(a) // int(b))
        return None


class IntDiv(sp.Function):
    """``ℤ`` division as in Lean 4 core (``Int.div`` is Euclidean: ``Int.ediv``), ``x / 0 = 0``."""

    nargs = 2
    is_integer = True

    @classmethod
    def eval(cls, a, b):
        if b.is_zero:
            return sp.Integer(0)
        if isinstance(a, sp.Integer) and isinstance(b, sp.Integer):
            ai, bi = int(a), int(b)
            q = ai // abs(bi)
            return sp.Integer(q if bi > 0 else -q)
        return None


class NatMod(sp.Function):
    """``ℕ``/``ℤ`` remainder as Lean defines it: ``n % 0 = n``; Euclidean for ℤ."""

    nargs = 2
    is_integer = is_nonnegative = True

    @classmethod
    def eval(cls, a, b):
        if b.is_zero:
            return a
        if isinstance(a, sp.Integer) and isinstance(b, sp.Integer):
            return sp.Integer(int(a) % abs(int(b)))
        return None


class NatSub(sp.Function):
    """``ℕ`` subtraction, truncated at zero: ``2 - 5 = 0``."""

    nargs = 2
    is_integer = is_nonnegative = True

    @classmethod
    def eval(cls, a, b):
        if b.is_zero:
            return a
        diff = a - b
        if diff.is_nonnegative:
            return diff
        if diff.is_negative:
            return sp.Integer(0)
        return None


class LeanLog(sp.Function):
    """``Real.log``: ``log 0 = 0`` and ``log x = log |x|``."""

    nargs = 1

    @classmethod
    def eval(cls, x):
        if x.is_zero:
            return sp.Integer(0)
        if x.is_positive:
            return sp.log(x)
        if x.is_negative:
            return sp.log(-x)
        return None


class LeanSqrt(sp.Function):
    """``Real.sqrt``: ``sqrt x = 0`` for ``x < 0``."""

    nargs = 1

    @classmethod
    def eval(cls, x):
        if x.is_nonnegative:
            return sp.sqrt(x)
        if x.is_negative:
            return sp.Integer(0)
        return None


class LeanRpow(sp.Function):
    """``Real.rpow x y``: ``exp (log x * y)`` for ``x > 0``; ``0 ^ 0 = 1``, ``0 ^ y = 0``;
    ``x < 0``: ``exp (log |x| * y) * cos (y * π)``."""

    nargs = 2

    @classmethod
    def eval(cls, x, y):
        if y.is_zero:
            return sp.Integer(1)
        if x.is_positive:
            return sp.Pow(x, y)
        if x.is_zero and y.is_zero is False:
            return sp.Integer(0)
        if x.is_negative:
            return sp.exp(sp.log(-x) * y) * sp.cos(y * sp.pi)
        return None


def _int_args(*xs) -> bool:
    return all(isinstance(x, sp.Integer) for x in xs)


class _TrigRatio(sp.Function):
    """``num x / den x`` through ``Complex`` division: ``0`` where ``den x = 0``; sympy's own
    function (``_folded``) once ``den x ≠ 0`` is known for a number."""

    nargs = 1
    _den: Callable[[sp.Basic], sp.Basic]
    _folded: Callable[[sp.Basic], sp.Basic]

    @classmethod
    def eval(cls, x):
        d = cls._den(x)
        if d.is_zero:
            return sp.Integer(0)
        if d.is_zero is False and x.is_number:
            return cls._folded(x)
        return None


class LeanTan(_TrigRatio):
    """``Real.tan x = sin x / cos x`` (through ``Complex.tan``), so ``tan x = 0`` where
    ``cos x = 0`` (``Real.tan_pi_div_two``)."""

    _den = staticmethod(sp.cos)
    _folded = staticmethod(sp.tan)


class LeanCot(_TrigRatio):
    """``Real.cot x = cos x / sin x``: ``cot x = 0`` where ``sin x = 0`` (``Real.cot_zero``)."""

    _den = staticmethod(sp.sin)
    _folded = staticmethod(sp.cot)


class LeanArcsin(sp.Function):
    """``Real.arcsin``, clamped: ``π / 2`` for ``1 ≤ x`` (``Real.arcsin_of_one_le``) and
    ``-(π / 2)`` for ``x ≤ -1`` (``Real.arcsin_of_le_neg_one``)."""

    nargs = 1

    @classmethod
    def eval(cls, x):
        if (x - 1).is_nonnegative:
            return sp.pi / 2
        if (x + 1).is_nonpositive:
            return -sp.pi / 2
        if (x - 1).is_negative and (x + 1).is_positive and x.is_number:
            return sp.asin(x)
        return None


class NatSqrt(sp.Function):
    """``Nat.sqrt n``: the largest ``r`` with ``r * r ≤ n``."""

    nargs = 1
    is_integer = is_nonnegative = True

    @classmethod
    def eval(cls, n):
        if _int_args(n) and int(n) >= 0:
            return sp.Integer(math.isqrt(int(n)))
        return None


class _IntBinary(sp.Function):
    """A function of two integers, computed exactly on numerals (``_exact``); ``_on_zero`` is
    its value when the second argument is known to be ``0`` (a function of the first)."""

    nargs = 2
    is_integer = True
    _exact: Callable[[int, int], int]
    _on_zero: Callable[[sp.Basic], sp.Basic] | None = None

    @classmethod
    def eval(cls, a, b):
        if cls._on_zero is not None and b.is_zero:
            return cls._on_zero(a)
        if _int_args(a, b):
            return sp.Integer(cls._exact(int(a), int(b)))
        return None


def nat_log(b: int, n: int) -> int:
    """``Nat.log b n`` on Python integers."""
    if b <= 1:
        return 0
    k = 0
    while n >= b:
        n //= b
        k += 1
    return k


def int_tdiv(a: int, b: int) -> int:
    """``Int.tdiv``: rounds toward zero; ``Int.tdiv_zero``: ``a.tdiv 0 = 0``."""
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def int_fdiv(a: int, b: int) -> int:
    """``Int.fdiv``: rounds toward −∞; ``Int.fdiv_zero``: ``a.fdiv 0 = 0``."""
    return 0 if b == 0 else a // b


def _zero(_: sp.Basic) -> sp.Basic:
    return sp.Integer(0)


def _same(a: sp.Basic) -> sp.Basic:
    return a


class NatLog(_IntBinary):
    """``Nat.log b n``: the largest ``k`` with ``b ^ k ≤ n``; ``0`` when ``n < b``
    (``Nat.log_of_lt``), when ``b ≤ 1`` (``Nat.log_of_left_le_one``) and when ``n = 0``
    (``Nat.log_zero_right``)."""

    _exact = staticmethod(nat_log)
    _on_zero = staticmethod(_zero)


class NatChoose(_IntBinary):
    """``Nat.choose n k``: ``0`` when ``n < k`` (``Nat.choose_eq_zero_of_lt``);
    ``Nat.choose_zero_right``: ``n.choose 0 = 1``."""

    _exact = staticmethod(math.comb)
    _on_zero = staticmethod(lambda n: sp.Integer(1))


class NatGcd(_IntBinary):
    """``Nat.gcd`` (``Nat.gcd_zero_right``: ``gcd n 0 = n``)."""

    _exact = staticmethod(math.gcd)
    _on_zero = staticmethod(_same)


class NatLcm(_IntBinary):
    """``Nat.lcm`` (``Nat.lcm_zero_right``: ``lcm n 0 = 0``)."""

    _exact = staticmethod(math.lcm)
    _on_zero = staticmethod(_zero)


class IntTDiv(_IntBinary):
    """``Int.tdiv`` (T-rounding), ``x.tdiv 0 = 0``."""

    _exact = staticmethod(int_tdiv)
    _on_zero = staticmethod(_zero)


class IntFDiv(_IntBinary):
    """``Int.fdiv`` (floor rounding), ``x.fdiv 0 = 0``."""

    _exact = staticmethod(int_fdiv)
    _on_zero = staticmethod(_zero)


class IntTMod(_IntBinary):
    """``Int.tmod a b = a - b * a.tdiv b`` (sign of ``a``); ``Int.tmod_zero``: ``a.tmod 0 = a``."""

    _exact = staticmethod(lambda a, b: a - b * int_tdiv(a, b))
    _on_zero = staticmethod(_same)


class IntFMod(_IntBinary):
    """``Int.fmod a b = a - b * a.fdiv b`` (sign of ``b``); ``Int.fmod_zero``: ``a.fmod 0 = a``."""

    _exact = staticmethod(lambda a, b: a - b * int_fdiv(a, b))
    _on_zero = staticmethod(_same)


def _is_top(x) -> bool:
    return x is sp.oo


class ENNSub(sp.Function):
    """``ℝ≥0∞`` subtraction, truncated: ``a - b = 0`` for ``a ≤ b``, ``⊤ - b = ⊤`` for
    ``b ≠ ⊤`` and ``⊤ - ⊤ = 0`` (``ENNReal.top_sub_top``… via ``tsub_self``)."""

    nargs = 2

    @classmethod
    def eval(cls, a, b):
        if _is_top(b):
            return sp.Integer(0)
        if _is_top(a) and b.is_finite:
            return sp.oo
        if b.is_zero:
            return a
        if a.is_finite and b.is_finite:
            return sp.Max(a - b, 0)
        return None


class ENNMul(sp.Function):
    """``ℝ≥0∞`` product: ``0 * ⊤ = 0`` (``zero_mul``), ``a * ⊤ = ⊤`` for ``a ≠ 0``
    (``ENNReal.mul_top``)."""

    nargs = 2

    @classmethod
    def eval(cls, a, b):
        if a.is_zero or b.is_zero:
            return sp.Integer(0)
        if _is_top(a) or _is_top(b):
            other = b if _is_top(a) else a
            if other.is_zero is False:
                return sp.oo
            return None
        if a.is_finite and b.is_finite:
            return a * b
        return None


class ENNInv(sp.Function):
    """``ℝ≥0∞`` inverse: ``0⁻¹ = ⊤`` (``ENNReal.inv_zero``), ``⊤⁻¹ = 0``
    (``ENNReal.inv_top``); ``a / b = a * b⁻¹`` (``ENNReal.div_zero``: ``a / 0 = ⊤`` for
    ``a ≠ 0``)."""

    nargs = 1

    @classmethod
    def eval(cls, a):
        if a.is_zero:
            return sp.oo
        if _is_top(a):
            return sp.Integer(0)
        if a.is_finite and a.is_zero is False:
            return 1 / a
        return None


class ENNAdd(sp.Function):
    """``ℝ≥0∞`` sum: ``⊤ + a = ⊤`` (``top_add``)."""

    nargs = 2

    @classmethod
    def eval(cls, a, b):
        if _is_top(a) or _is_top(b):
            return sp.oo
        if a.is_finite and b.is_finite:
            return a + b
        return None


class ENNToReal(sp.Function):
    """``ENNReal.toReal``: ``⊤.toReal = 0`` (``ENNReal.top_toReal``)."""

    nargs = 1

    @classmethod
    def eval(cls, a):
        if _is_top(a):
            return sp.Integer(0)
        if a.is_finite:
            return a
        return None


class LeanIte(sp.Function):
    """``if c then a else b`` (``c`` a sympy boolean)."""

    nargs = 3

    @classmethod
    def eval(cls, c, a, b):
        if c is sp.true:
            return a
        if c is sp.false:
            return b
        if a == b:
            return a
        return None


def _expanded_terms(body, lo, hi) -> list | None:
    """``[body lo, …, body (hi − 1)]`` when the bounds are numbers (and not too far apart)."""
    if not (isinstance(body, sp.Lambda) and isinstance(lo, sp.Integer)
            and isinstance(hi, sp.Integer)):
        return None
    lo_i, hi_i = int(lo), int(hi)
    if hi_i - lo_i > EXPAND_LIMIT:
        return None
    return [body(sp.Integer(j)) for j in range(lo_i, max(lo_i, hi_i))]


def _explicit(body):
    """``body`` as a ``Lambda`` node: sympy turns ``Lambda(j, j)`` into its argument-less
    ``IdentityFunction``, on which ``evalf`` (asked by any sign query) fails; keep it a
    ``Lambda`` with its variable."""
    if isinstance(body, type(sp.S.IdentityFunction)):
        index = sp.Dummy("j", integer=True)
        return sp.Basic.__new__(sp.Lambda, sp.Tuple(index), index)
    return body


class _FinOp(sp.Function):
    """Base of sums/products over ``[lo, hi)`` of a one-argument ``Lambda``."""

    nargs = 3

    def __new__(cls, body, lo, hi, **options):
        return super().__new__(cls, _explicit(body), lo, hi, **options)

    @classmethod
    def eval(cls, body, lo, hi):
        terms = _expanded_terms(body, lo, hi)
        return None if terms is None else cls._fold(terms)


class FinSum(_FinOp):
    """``∑ j ∈ [lo, hi), body j`` (Lean's ``Finset.sum`` over a half-open range)."""

    @staticmethod
    def _fold(terms):
        return sp.Add(*terms) if terms else sp.Integer(0)


class FinProd(_FinOp):
    """``∏ j ∈ [lo, hi), body j``."""

    @staticmethod
    def _fold(terms):
        return sp.Mul(*terms) if terms else sp.Integer(1)


class LMatSum(_FinOp):
    """A sum of matrices ``∑ j ∈ [lo, hi), body j``; ``shape`` comes from the terms."""

    @staticmethod
    def _fold(terms):
        return None


class _FinQuantifier(BooleanFunction):
    """Base of ``∀``/``∃`` over ``[lo, hi)`` of a boolean one-argument ``Lambda``."""

    nargs = 3
    _combine = None

    @classmethod
    def eval(cls, body, lo, hi):
        terms = _expanded_terms(body, lo, hi)
        return None if terms is None else cls._combine(*terms)


class FinAll(_FinQuantifier):
    """``∀ j ∈ [lo, hi), body j``."""

    _combine = sp.And


class FinExists(_FinQuantifier):
    """``∃ j ∈ [lo, hi), body j``."""

    _combine = sp.Or


class PropIte(BooleanFunction):
    """``if c then p else q`` between propositions."""

    nargs = 3

    @classmethod
    def eval(cls, c, p, q):
        if c is sp.true:
            return p
        if c is sp.false:
            return q
        return None


class Index(sp.Function):
    """``f i j …``: an argument array ``f`` (a ``Symbol``) read at indices."""

    @classmethod
    def eval(cls, *args):
        return None


class Tabulate(sp.Function):
    """A function value ``fun i => body`` materialized over ``[0, size)`` (for bound calls)."""

    nargs = 2


class BoundCall(sp.Function):
    """A call of a Lean definition bound to a NumPy implementation; ``args[0]`` is its name."""


class Recursion(sp.Function):
    """Structural recursion on ℕ: ``rec 0 = base``, ``rec (t + 1) = step t (rec t)``.

    Arguments: ``base``, ``Lambda((t, prev), step)``, ``n``.
    """

    nargs = 3


class FinWrap(sp.Function):
    """``Fin n`` arithmetic wraps: ``FinWrap(x, n) = x mod n``."""

    nargs = 2
    is_integer = is_nonnegative = True

    @classmethod
    def eval(cls, x, n):
        if isinstance(x, sp.Integer) and isinstance(n, sp.Integer) and int(n) > 0:
            return sp.Integer(int(x) % int(n))
        return None


class SupNorm(sp.Function):
    """``‖v‖`` of a ``Fin n → ℝ`` vector: Mathlib's sup norm on ``Pi`` types."""

    nargs = 2  # (Lambda(i, |v i|), n)


# Matrices: values are arrays; these nodes are opaque to sympy's algebra.
class LMatMul(sp.Function):
    """Matrix product (``*`` on ``Matrix``)."""

    nargs = 2


class LMatAdd(sp.Function):
    """Matrix sum."""

    nargs = 2


class LMatSub(sp.Function):
    """Matrix difference."""

    nargs = 2


class LMatNeg(sp.Function):
    """Matrix negation."""

    nargs = 1


class LMatSMul(sp.Function):
    """Scalar multiple ``c • A``."""

    nargs = 2


class LMatInv(sp.Function):
    """``A⁻¹`` as Lean's ``Matrix.inv``: the zero matrix when ``A`` is singular."""

    nargs = 1


class LMatPow(sp.Function):
    """``A ^ k`` for ``k : ℕ`` (``A ^ 0 = 1``)."""

    nargs = 2


class LMatOne(sp.Function):
    """The identity matrix of size ``n`` (``1 : Matrix (Fin n) (Fin n) R``)."""

    nargs = 1


class LMatZero(sp.Function):
    """The zero matrix of shape ``(m, n)``."""

    nargs = 2


class LMatTranspose(sp.Function):
    """``Aᵀ``."""

    nargs = 1


class VecMulVec(sp.Function):
    """``Matrix.vecMulVec u v`` (outer product)."""

    nargs = 2


class MulVec(sp.Function):
    """``Matrix.mulVec A v`` (``A *ᵥ v``)."""

    nargs = 2


class ArrayEq(BooleanFunction):
    """Equality of two array-valued terms (matrices, vectors, functions on ``Fin n``)."""

    nargs = 2


class LeanIntegral(sp.Function):
    """``∫ s in lo..hi, body s`` over an interval of ℝ (``lo``/``hi`` may be ``∓oo``).

    Evaluated numerically. Lean's junk value for a non-integrable function (the Bochner
    integral is ``0``) is not detected: the translation assumes integrability.
    """

    nargs = 3


class PosDef(BooleanFunction):
    """``Matrix.PosDef A``: ``A`` is symmetric and ``0 < xᵀ A x`` for every ``x ≠ 0``
    (evaluated as: symmetric, and every eigenvalue positive — the same statement for real
    matrices)."""

    nargs = 1


class LMatDet(sp.Function):
    """``Matrix.det A``."""

    nargs = 1


class Holds(BooleanFunction):
    """A proposition read from data: a ``Prop``/``Bool``-valued array entry or variable."""

    nargs = 1

    @classmethod
    def eval(cls, x):
        if x is sp.true or x is sp.false:
            return x
        return None


# --------------------------------------------------------------------------------------------
# Lean constants → sympy: one entry per Lean name (the translator's table)


def _real_fn(fn: Callable) -> tuple:
    return ((REAL,), fn, REAL)


def _complex_fn(fn: Callable) -> tuple:
    return ((COMPLEX,), fn, COMPLEX)


#: Plain functions: Lean name → (parameter types, sympy builder, result type).
FUNCTIONS: dict[str, tuple] = {
    "Real.exp": _real_fn(sp.exp),
    "Real.log": _real_fn(LeanLog),
    "Real.sqrt": _real_fn(LeanSqrt),
    "Real.sin": _real_fn(sp.sin),
    "Real.cos": _real_fn(sp.cos),
    "Real.tan": _real_fn(LeanTan),
    "Real.cot": _real_fn(LeanCot),
    "Real.arcsin": _real_fn(LeanArcsin),
    # Real.arccos_eq_pi_div_two_sub_arcsin (by definition)
    "Real.arccos": _real_fn(lambda x: sp.pi / 2 - LeanArcsin(x)),
    # Real.log_div_log: logb b x = log x / log b (so Real.logb_zero_left, Real.logb_one_left)
    "Real.logb": ((REAL, REAL), lambda b, x: LeanDiv(LeanLog(x), LeanLog(b)), REAL),
    "Real.sign": _real_fn(sp.sign),
    "Real.nnabs": ((REAL,), sp.Abs, NNREAL),
    "Real.toNNReal": ((REAL,), lambda x: sp.Max(x, 0), NNREAL),
    "NNReal.toReal": ((NNREAL,), lambda x: x, REAL),
    "ENNReal.ofReal": ((REAL,), lambda x: sp.Max(x, 0), ENNREAL),
    "ENNReal.ofNNReal": ((NNREAL,), lambda x: x, ENNREAL),
    "ENNReal.toReal": ((ENNREAL,), ENNToReal, REAL),
    "ENNReal.toNNReal": ((ENNREAL,), ENNToReal, NNREAL),
    "Int.floor": ((REAL,), sp.floor, INT),
    "Int.ceil": ((REAL,), sp.ceiling, INT),
    "Int.fract": ((REAL,), lambda x: x - sp.floor(x), REAL),
    # Nat.floor_of_nonpos / Nat.ceil: (⌈x⌉).toNat
    "Nat.floor": ((REAL,), lambda x: sp.Max(sp.floor(x), 0), NAT),
    "Nat.ceil": ((REAL,), lambda x: sp.Max(sp.ceiling(x), 0), NAT),
    # round_eq: round x = ⌊x + 1 / 2⌋
    "round": ((REAL,), lambda x: sp.floor(x + sp.Rational(1, 2)), INT),
    "Int.sign": ((INT,), sp.sign, INT),
    "Int.ediv": ((INT, INT), IntDiv, INT),
    "Int.emod": ((INT, INT), NatMod, INT),
    "Int.tdiv": ((INT, INT), IntTDiv, INT),
    "Int.fdiv": ((INT, INT), IntFDiv, INT),
    "Int.tmod": ((INT, INT), IntTMod, INT),
    "Int.fmod": ((INT, INT), IntFMod, INT),
    "Nat.factorial": ((NAT,), sp.factorial, NAT),
    "Nat.choose": ((NAT, NAT), NatChoose, NAT),
    "Nat.gcd": ((NAT, NAT), NatGcd, NAT),
    "Nat.lcm": ((NAT, NAT), NatLcm, NAT),
    "Nat.sqrt": ((NAT,), NatSqrt, NAT),
    "Nat.log": ((NAT, NAT), NatLog, NAT),
    "Nat.pred": ((NAT,), lambda n: NatSub(n, 1), NAT),  # Nat.pred_zero
    "Int.gcd": ((INT, INT), NatGcd, NAT),  # Int.gcd a b = Nat.gcd a.natAbs b.natAbs
    "Int.lcm": ((INT, INT), NatLcm, NAT),
    "NNReal.sqrt": ((NNREAL,), LeanSqrt, NNREAL),
    "PNat.val": ((PNAT,), lambda n: n, NAT),
    "PNat.natPred": ((PNAT,), lambda n: n - 1, NAT),
    "Nat.succPNat": ((NAT,), lambda n: n + 1, PNAT),
    # Nat.toPNat' 0 = 1 (succPNat (pred n))
    "Nat.toPNat'": ((NAT,), lambda n: sp.Max(n, 1), PNAT),
    "Real.tanh": _real_fn(sp.tanh),
    "Real.sinh": _real_fn(sp.sinh),
    "Real.cosh": _real_fn(sp.cosh),
    "Real.arctan": _real_fn(sp.atan),
    "Real.rpow": ((REAL, REAL), LeanRpow, REAL),
    "Complex.exp": _complex_fn(sp.exp),
    "Complex.cos": _complex_fn(sp.cos),
    "Complex.sin": _complex_fn(sp.sin),
    "Complex.abs": ((COMPLEX,), sp.Abs, REAL),
    "Complex.re": ((COMPLEX,), sp.re, REAL),
    "Complex.im": ((COMPLEX,), sp.im, REAL),
    "Complex.normSq": ((COMPLEX,), lambda z: sp.Abs(z) ** 2, REAL),
    "Complex.ofReal": ((REAL,), lambda x: x, COMPLEX),
    "Complex.conj": _complex_fn(sp.conjugate),
    "starRingEnd": _complex_fn(sp.conjugate),
    "Nat.succ": ((NAT,), lambda n: n + 1, NAT),
    "Nat.cast": ((NAT,), lambda n: n, None),
    "Int.cast": ((INT,), lambda n: n, None),
    "Int.ofNat": ((NAT,), lambda n: n, INT),
    "Int.toNat": ((INT,), lambda n: sp.Max(n, 0), NAT),
    "Int.natAbs": ((INT,), sp.Abs, NAT),
    "Fin.val": ((None,), lambda i: i, NAT),
    "Fin.last": ((NAT,), lambda n: n, None),
}
#: Constants (no arguments).
CONSTANTS: dict[str, tuple] = {
    "Real.pi": (sp.pi, REAL),
    "Complex.I": (sp.I, COMPLEX),
    "True": (sp.true, PROP),
    "False": (sp.false, PROP),
    "Bool.true": (sp.true, BOOL),
    "Bool.false": (sp.false, BOOL),
    "true": (sp.true, BOOL),
    "false": (sp.false, BOOL),
}


__all__ = (
    "LeanDiv NatDiv IntDiv NatMod NatSub LeanLog LeanSqrt LeanRpow LeanIte FinSum FinProd "
    "LMatSum FinAll FinExists PropIte Index Tabulate BoundCall Recursion FinWrap SupNorm "
    "LMatInv LMatMul LMatAdd LMatSub LMatNeg LMatSMul LMatPow LMatOne LMatZero LMatTranspose VecMulVec MulVec "
    "ArrayEq Holds LeanIntegral PosDef LMatDet LeanTan LeanCot LeanArcsin NatSqrt "
    "NatLog NatChoose NatGcd NatLcm IntTDiv IntFDiv IntTMod IntFMod ENNSub ENNMul ENNInv "
    "ENNAdd ENNToReal FUNCTIONS CONSTANTS"
).split()
