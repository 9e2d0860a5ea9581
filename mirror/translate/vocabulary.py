"""The sympy vocabulary of Lean semantics.

Each class is a sympy function that keeps one piece of Lean's meaning exactly, including the
junk values (``x / 0 = 0``, truncated ℕ subtraction, ``Real.log 0 = 0``, ``Real.sqrt`` of a
negative is ``0``, Lean's ``Real.rpow`` on negative bases). ``eval`` folds a node to ordinary
sympy when the arguments settle the junk case (a divisor known to be non-zero, a ℕ difference
known to be non-negative…), so that sympy's algebra can work on what remains, and computes
exactly when the arguments are numbers.

The classes live by family (:mod:`mirror.translate.integers`, :mod:`mirror.translate.reals`,
:mod:`mirror.translate.ennreals`, :mod:`mirror.translate.big_operators`, :mod:`mirror.translate.matrices`); this module
holds the structural nodes (conditionals, calls, recursion), the translator's tables
:data:`FUNCTIONS` and :data:`CONSTANTS`, and re-exports every node, so that ``V.NatDiv``
names them all in one place.
"""

from __future__ import annotations

from typing import Callable

import sympy as sp
from sympy.logic.boolalg import BooleanFunction

from mirror.translate import digits as _digits
from mirror.translate.big_operators import (FinAll, FinExists, FinMax, FinMin, FinProd, FinSum,
                                            LMatSum)
from mirror.translate.ennreals import ENNAdd, ENNInv, ENNMul, ENNSub, ENNToReal
from mirror.translate.integers import (FinWrap, IntDiv, IntFDiv, IntFMod, IntTDiv, IntTMod, NatChoose,
                             NatDiv, NatGcd, NatLcm, NatLog, NatMod, NatSqrt, NatSub,
                             RatDen, RatNum)
from mirror.translate.matrices import (ArrayEq, LMatAdd, LMatDet, LMatInv, LMatMul, LMatNeg, LMatOne,
                             LMatPow, LMatSMul, LMatSub, LMatTranspose, LMatZero, MulVec, PosDef,
                             SupNorm, VecMulVec)
from mirror.translate.reals import (LeanArcsin, LeanCot, LeanDiv, LeanIntegral, LeanLog, LeanRpow,
                          LeanSqrt, LeanTan)
from mirror.translate.types import (BOOL, COMPLEX, ENNREAL, INT, NAT, NNREAL, PNAT, PROP, RAT,
                                    REAL)


def _decided(c: sp.Basic, a: sp.Basic, b: sp.Basic) -> sp.Basic | None:
    """The branch ``if c then a else b`` takes once ``c`` is a decided boolean, else ``None``."""
    if c is sp.true:
        return a
    if c is sp.false:
        return b
    return None


class LeanIte(sp.Function):
    """``if c then a else b`` (``c`` a sympy boolean)."""

    nargs = 3
    # a number, whatever its condition is: sympy reads a relational argument (``n ≥ 0``) as of
    # unknown commutativity, and then calls any sum with the ``if`` in it non-real
    is_commutative = True

    @classmethod
    def eval(cls, c, a, b):
        return a if a == b else _decided(c, a, b)

    # a value of both branches' kind: sympy otherwise calls `n * (1 + ite)` non-real; a
    # kind only one branch lacks is unknown (`if j = 0 then 0 else 1/2` is not a non-integer)
    def _eval_is_extended_real(self):
        return _both(branch.is_extended_real for branch in self.args[1:])

    def _eval_is_integer(self):
        return _both(branch.is_integer for branch in self.args[1:])

    def _eval_is_rational(self):
        return _both(branch.is_rational for branch in self.args[1:])


def _both(facts) -> bool | None:
    """A fact of an ``if``: known only when both branches agree on it."""
    facts = set(facts)
    return facts.pop() if len(facts) == 1 else None


class PropIte(BooleanFunction):
    """``if c then p else q`` between propositions."""

    nargs = 3

    @classmethod
    def eval(cls, c, p, q):
        return _decided(c, p, q)


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
    # Rat.num / Rat.den of the normalized rational (Rat.num_div_den: q = q.num / q.den)
    "Rat.num": ((RAT,), RatNum, INT),
    "Rat.den": ((RAT,), RatDen, NAT),
    # `Nat.digits b n` as its statements read it (mirror.translate.digits)
    _digits.SUM: ((NAT, NAT), _digits.DigitSum, NAT),
    _digits.LENGTH: ((NAT, NAT), _digits.DigitLength, NAT),
    _digits.AT: ((NAT, NAT, NAT), _digits.Digit, NAT),
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
    # `OfNat.ofNat n` on a variable `n : ℕ` ([n.AtLeastTwo]) is Mathlib's `instOfNat`: Nat.cast
    "OfNat.ofNat": ((NAT,), lambda n: n, None),
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
    "LMatSum FinAll FinExists FinMax FinMin PropIte Index Tabulate BoundCall Recursion FinWrap SupNorm "
    "LMatInv LMatMul LMatAdd LMatSub LMatNeg LMatSMul LMatPow LMatOne LMatZero LMatTranspose VecMulVec MulVec "
    "ArrayEq Holds LeanIntegral PosDef LMatDet LeanTan LeanCot LeanArcsin NatSqrt "
    "NatLog NatChoose NatGcd NatLcm IntTDiv IntFDiv IntTMod IntFMod ENNSub ENNMul ENNInv "
    "ENNAdd ENNToReal FUNCTIONS CONSTANTS"
).split()
