"""Integer statements decided on a finite cover: bounded ranges and residue classes.

A counterexample is a point where every hypothesis holds and the conclusion fails: a point of
the *search region* ``hypotheses ∧ ¬conclusion``. Over integer variables (ℕ, ℤ, ℕ+) that
region is often covered by finitely many points, and then deciding each of them decides the
statement (``symbolic`` when none is a counterexample, ``refuted`` at the first one):

- a variable bounded on both sides by the region's atoms (``x < 100``, or the negated
  conclusion ``¬ (6710 ≤ n)``, i.e. ``n < 6710``) ranges over the points between;
- a variable that every other atom reads only through remainders, ``(2 * n + 1) % 7``,
  ``(x + 1) ^ 2 * (y + 5) ^ 3 % 19`` (ring operations with numeral exponents inside a ``%`` by
  a numeral ``m``), is *periodic*: the atoms depend on it only through ``n mod M``, ``M`` the
  lcm of the moduli around it (``(a + k·M) % m = a % m`` when ``m ∣ M``, on ℕ and for
  Lean's Euclidean ``%`` on ℤ alike). Its bound atoms, if any, must all be on one side
  (``0 < n``; ℕ's own ``0 ≤ n``); then the ``M`` consecutive integers from that bound are
  representatives of every residue class and satisfy the bounds, so every point of the
  region has a representative with the same truth value of every atom.

Several congruences on one variable are so combined exactly (``n % 7 = 5 ∧ n % 3 = 2`` is
decided on the 21 classes modulo 21, the Chinese remainder theorem by exhaustion), and a
system no class satisfies is ``vacuous`` when the cover came from the hypotheses alone.
Truncation polarity: the cover is complete by the argument above, never a sample — a
variable that is neither bounded nor periodic makes the search return ``None``.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass

import sympy as sp
from sympy.core.relational import Relational

from mirror.translate import vocabulary as V
from mirror.translate.values import Statement

#: Integer kinds the cover is built over, with their least value.
INTEGER_FLOORS = {"Nat": 0, "PNat": 1, "Int": None}
#: The most points one cover may have.
MAX_COVER = 20000


@dataclass
class Cover:
    """The finite cover of a search region: per variable its points, and how they were got."""

    symbols: list[sp.Symbol]
    ranges: list[range]
    #: Per variable, ``"[lo, hi]"`` or ``"residues modulo M from lo"``.
    described: list[str]

    @property
    def size(self) -> int:
        return math.prod(len(r) for r in self.ranges)


def _bound_atom(atom: sp.Basic, symbol: sp.Symbol) -> tuple[str, sp.Rational] | None:
    """``symbol rel c`` (either side) as ``("lo" | "hi" | "eq", c)``, integer-rounded."""
    if not isinstance(atom, Relational) or isinstance(atom, sp.Ne):
        return None
    for var, const, flip in ((atom.lhs, atom.rhs, False), (atom.rhs, atom.lhs, True)):
        if var != symbol or not const.is_Rational:
            continue
        kind = type(atom)
        if kind is sp.Eq:
            return ("eq", const) if const.is_Integer else None
        less = kind in (sp.StrictLessThan, sp.LessThan)
        strict = kind in (sp.StrictLessThan, sp.StrictGreaterThan)
        upper = less != flip  # symbol < c, or c > symbol
        if upper:
            value = math.ceil(const) - 1 if strict else math.floor(const)
            return "hi", sp.Integer(value)
        value = math.floor(const) + 1 if strict else math.ceil(const)
        return "lo", sp.Integer(value)
    return None


def integer_bounds(statement: Statement, atoms: list[sp.Basic], exact: bool = False
                   ) -> dict[sp.Symbol, tuple]:
    """The constant bounds ``atoms`` (conjuncts that hold) put on each scalar variable,
    ``{symbol: (lo, hi)}`` (``None``: unbounded on that side): an integer variable's closed
    integer range, its type's floor included; with ``exact``, a real variable's bounds too, as
    written (strictness dropped: for choosing values, not for a range claimed complete)."""
    found: dict[sp.Symbol, tuple] = {}
    for var in statement.variables:
        if var.ty.is_array:
            continue
        integral = var.ty.kind in INTEGER_FLOORS
        if not integral and not exact:
            continue
        lo, hi = (INTEGER_FLOORS[var.ty.kind] if integral else None), None
        for atom in atoms:
            if integral:
                bound = _bound_atom(atom, var.symbol)
            else:
                bound = _real_bound(atom, var.symbol)
            if bound is None:
                continue
            side, value = bound
            if side in ("lo", "eq"):
                lo = value if lo is None else max(lo, value)
            if side in ("hi", "eq"):
                hi = value if hi is None else min(hi, value)
        if lo is not None or hi is not None:
            found[var.symbol] = (None if lo is None else (int(lo) if integral else lo),
                                 None if hi is None else (int(hi) if integral else hi))
    return found


def _real_bound(atom: sp.Basic, symbol: sp.Symbol) -> tuple[str, sp.Rational] | None:
    if not isinstance(atom, Relational) or isinstance(atom, sp.Ne):
        return None
    for var, const, flip in ((atom.lhs, atom.rhs, False), (atom.rhs, atom.lhs, True)):
        if var != symbol or not const.is_Rational:
            continue
        if isinstance(atom, sp.Eq):
            return "eq", const
        upper = isinstance(atom, (sp.StrictLessThan, sp.LessThan)) != flip
        return ("hi" if upper else "lo"), const
    return None


def _ring(expr: sp.Basic, symbol: sp.Symbol, moduli: list[int]) -> bool:
    """``expr mod m`` depends on ``symbol`` only through ``symbol mod m`` (for every ``m``
    dividing the lcm of ``moduli``): ring operations, numeral exponents, periodic parts."""
    if symbol not in expr.free_symbols or expr == symbol:
        return True
    if isinstance(expr, (sp.Add, sp.Mul)):  # integer numerals only: v / 2 is no ring term
        return all(_ring(a, symbol, moduli) and (a.is_Integer or not a.is_number)
                   for a in expr.args)
    if isinstance(expr, sp.Pow):
        exponent = expr.args[1]
        return bool(exponent.is_Integer and exponent >= 0) and _ring(expr.args[0], symbol, moduli)
    return _periodic(expr, symbol, moduli)


def _periodic(expr: sp.Basic, symbol: sp.Symbol, moduli: list[int]) -> bool:
    """``expr`` depends on ``symbol`` only through ``symbol mod lcm(moduli)`` (the moduli of
    the remainders found are appended)."""
    if symbol not in expr.free_symbols:
        return True
    if expr == symbol:
        return False
    if isinstance(expr, V.NatMod):
        value, modulus = expr.args
        if modulus.is_Integer and modulus != 0 and symbol not in modulus.free_symbols:
            if _ring(value, symbol, moduli):
                moduli.append(abs(int(modulus)))
                return True
        return False
    if isinstance(expr, sp.Lambda):
        return symbol not in expr.variables and _periodic(expr.expr, symbol, moduli)
    if not isinstance(expr, sp.Basic) or not expr.args:
        return False
    # any function of periodic arguments is periodic
    return all(_periodic(a, symbol, moduli) for a in expr.args)


def _atoms(props: list[sp.Basic]) -> list[sp.Basic]:
    return [a for p in props for a in sp.And.make_args(p)]


def cover(statement: Statement, props: list[sp.Basic], read: list[sp.Basic] = (),
          limit: int = MAX_COVER) -> Cover | None:
    """A finite cover of the points where every one of ``props`` holds (integer scalars
    only), on which ``read`` (the conclusion, when it is not negated among ``props``) is
    decided alike: its atoms bound nothing, and a variable not bounded on both sides must be
    periodic in them too. ``None`` when a variable is neither bounded nor periodic, or the
    cover is larger than ``limit``."""
    variables = statement.variables
    if not variables or any(v.ty.is_array or v.ty.kind not in INTEGER_FLOORS for v in variables):
        return None
    atoms = _atoms(props)
    ranges, described = [], []
    for var in variables:
        lo, hi = INTEGER_FLOORS[var.ty.kind], None
        others = []
        for atom in atoms:
            bound = _bound_atom(atom, var.symbol)
            if bound is None:
                if var.symbol in atom.free_symbols:
                    others.append(atom)
                continue
            side, value = bound
            if side in ("lo", "eq"):
                lo = int(value) if lo is None else max(lo, int(value))
            if side in ("hi", "eq"):
                hi = int(value) if hi is None else min(hi, int(value))
        if lo is not None and hi is not None:
            if hi - lo + 1 > limit:
                return None
            ranges.append(range(lo, max(lo, hi + 1)))
            described.append(f"{var.name} ∈ [{lo}, {hi}]")
            continue
        others += [a for a in _atoms(list(read)) if var.symbol in a.free_symbols]
        moduli: list[int] = []
        if not all(_periodic(atom, var.symbol, moduli) for atom in others):
            return None
        modulus = math.lcm(*moduli) if moduli else 1
        if modulus > limit:
            return None
        start = lo if lo is not None else (hi - modulus + 1 if hi is not None else 0)
        ranges.append(range(start, start + modulus))
        side = ("from " + str(start)) if lo is not None else (
            f"up to {hi}" if hi is not None else "")
        described.append(f"{var.name}: every residue modulo {modulus} {side}".rstrip())
    found = Cover([v.symbol for v in variables], ranges, described)
    return found if found.size <= limit else None


class Unevaluated(Exception):
    """A node :func:`truth` does not compute on integers (the caller falls back to sympy)."""


#: The most bits a power computed by :func:`integer_value` may have.
MAX_BITS = 1 << 20
_RELATIONS = {sp.Eq: lambda a, b: a == b, sp.Ne: lambda a, b: a != b,
              sp.StrictLessThan: lambda a, b: a < b, sp.LessThan: lambda a, b: a <= b,
              sp.StrictGreaterThan: lambda a, b: a > b, sp.GreaterThan: lambda a, b: a >= b}


def integer_value(expr: sp.Basic, point: dict[sp.Symbol, int]) -> int:
    """``expr`` at an integer point on Python integers, with Lean's semantics of the
    translator's integer functions (their own exact folds); raises :class:`Unevaluated`."""
    if expr.is_Integer:
        return int(expr)
    if expr in point:
        return point[expr]
    if isinstance(expr, sp.Add):
        return sum(integer_value(a, point) for a in expr.args)
    if isinstance(expr, sp.Mul):
        return math.prod(integer_value(a, point) for a in expr.args)
    if isinstance(expr, sp.Pow):
        base, exponent = (integer_value(a, point) for a in expr.args)
        if exponent < 0 or exponent * max(abs(base).bit_length(), 1) > MAX_BITS:
            raise Unevaluated(expr)
        return base ** exponent
    if isinstance(expr, V.NatSub):
        a, b = (integer_value(x, point) for x in expr.args)
        return max(a - b, 0)
    if isinstance(expr, sp.factorial):
        n = integer_value(expr.args[0], point)
        if not 0 <= n <= 5000:
            raise Unevaluated(expr)
        return math.factorial(n)
    if isinstance(expr, V.LeanIte):
        cond, a, b = expr.args
        return integer_value(a if truth(cond, point) else b, point)
    if isinstance(expr, (V.FinSum, V.FinProd)):
        terms = (integer_value(t, at) for t, at in _instances(expr, point))
        return sum(terms) if isinstance(expr, V.FinSum) else math.prod(terms)
    exact = getattr(type(expr), "_exact", None)
    if exact is not None and len(expr.args) == 2 and isinstance(expr, sp.Function):
        a, b = (integer_value(x, point) for x in expr.args)
        on_zero = getattr(type(expr), "_on_zero", None)
        if b == 0 and on_zero is not None:
            return integer_value(on_zero(sp.Integer(a)), point)
        value = exact(a, b)
        if value is None:
            raise Unevaluated(expr)
        return int(value)
    raise Unevaluated(expr)


def truth(prop: sp.Basic, point: dict[sp.Symbol, int]) -> bool:
    """``prop`` at an integer point, exactly on Python integers; raises :class:`Unevaluated`
    on anything else."""
    if prop is sp.true or prop is sp.false:
        return bool(prop)
    test = _RELATIONS.get(type(prop))
    if test is not None:
        return test(integer_value(prop.lhs, point), integer_value(prop.rhs, point))
    if isinstance(prop, sp.And):
        return all(truth(a, point) for a in prop.args)
    if isinstance(prop, sp.Or):
        return any(truth(a, point) for a in prop.args)
    if isinstance(prop, sp.Not):
        return not truth(prop.args[0], point)
    if isinstance(prop, sp.Implies):
        return not truth(prop.args[0], point) or truth(prop.args[1], point)
    if isinstance(prop, sp.Equivalent) and len(prop.args) == 2:
        return truth(prop.args[0], point) == truth(prop.args[1], point)
    if isinstance(prop, (V.FinAll, V.FinExists)):
        found = (truth(t, at) for t, at in _instances(prop, point))
        return all(found) if isinstance(prop, V.FinAll) else any(found)
    raise Unevaluated(prop)


#: The most instances of a finite sum or quantifier :func:`truth` expands.
MAX_INSTANCES = 100000


def _instances(node: sp.Basic, point: dict[sp.Symbol, int]):
    """The body of ``∑ / ∏ / ∀ / ∃ j ∈ [lo, hi)`` with the point extended by each ``j``
    (the range read at ``point``; :class:`Unevaluated` for a body that is not a ``Lambda`` or a long range)."""
    lam, lo, hi = node.args
    if not isinstance(lam, sp.Lambda) or len(lam.variables) != 1:
        raise Unevaluated(node)
    lo, hi = integer_value(lo, point), integer_value(hi, point)
    if hi - lo > MAX_INSTANCES:
        raise Unevaluated(node)
    j = lam.variables[0]
    for value in range(lo, hi):
        yield lam.expr, {**point, j: value}


#: How many solutions a congruence-constrained draw chooses among.
DRAWN_SOLUTIONS = 32


def congruence_solutions(statement: Statement, symbol: sp.Symbol, floor: int | None
                         ) -> tuple[list[int], str] | None:
    """The least solutions of the hypotheses that read only ``symbol``, and only through
    remainders (``n % 5 = 3``, ``n ≡ 5 [MOD 7]``, ``5 ∣ n - 3`` over ℤ): ``5 k + 3`` for ``k``
    from the type's floor (ℕ: ``3, 8, 13 …``; ℤ: around ``0``), with how they were got;
    ``None`` when no such hypothesis narrows ``symbol``. Draws among them satisfy those
    hypotheses by construction (every hypothesis is still evaluated on every draw)."""
    atoms = [a for _, h in statement.hypotheses for a in sp.And.make_args(h)
             if a.free_symbols == {symbol}]
    kept, moduli = [], []
    for atom in atoms:
        found: list[int] = []
        if _periodic(atom, symbol, found) and found:
            kept.append(atom)
            moduli += found
    atoms = kept
    if not atoms:
        return None
    modulus = math.lcm(*moduli)
    if modulus > MAX_COVER:
        return None
    try:
        residues = [r for r in range(modulus) if all(truth(a, {symbol: r}) for a in atoms)]
    except Unevaluated:
        return None
    if not residues or len(residues) == modulus:
        return None
    start = floor if floor is not None else -(DRAWN_SOLUTIONS // 2 // len(residues) + 1) * modulus
    first = start - start % modulus
    values = [first + k * modulus + r for k in range(DRAWN_SOLUTIONS + 1) for r in residues]
    values = [v for v in values if v >= start][:DRAWN_SOLUTIONS]
    shown = ", ".join(map(str, residues[:6])) + (" …" if len(residues) > 6 else "")
    return values, f"≡ {shown} (mod {modulus})"


def points(found: Cover, deadline: float):
    """The points of a cover (``None`` once the deadline passed)."""
    for values in itertools.product(*found.ranges):
        if time.monotonic() > deadline:
            yield None
            return
        yield {s: sp.Integer(x) for s, x in zip(found.symbols, values)}


__all__ = ["Cover", "Unevaluated", "congruence_solutions", "cover", "integer_bounds", "points",
           "truth"]
