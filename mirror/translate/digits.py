"""``Nat.digits``, by Mathlib's definition, read through the list operations statements use.

Mathlib (``Mathlib/Data/Nat/Digits``)::

    def digits : ℕ → ℕ → List ℕ
      | 0 => digitsAux0          -- digits 0 0 = [], digits 0 (n + 1) = [n + 1]
      | 1 => digitsAux1          -- digits 1 n = List.replicate n 1
      | b + 2 => digitsAux (b + 2) …   -- little-endian: (n % b) :: digits b (n / b), [] at 0

A list is no value of the translator, so ``Nat.digits b n`` is read where a statement uses it:

==================================  ===========================================================
Lean                                rewritten to
==================================  ===========================================================
``(Nat.digits b n).sum``            ``DigitSum b n`` (``List.sum`` of the list above)
``(Nat.digits b n).length``         ``DigitLength b n``
``d ∈ Nat.digits b n``              ``∃ i, i < DigitLength b n ∧ Digit b n i = d``
                                    (``List.mem_iff_getElem``)
``Nat.digits b n = [x₀, …, xₖ]``    ``DigitLength b n = k + 1 ∧ Digit b n 0 = x₀ ∧ …``
                                    (``List.ext_getElem``)
==================================  ===========================================================

``Digit b n i`` is the ``i``-th entry of the list (``0`` past its end, where no rewrite reads
it). Each node is exact on numerals (:func:`nat_digits`).
"""

from __future__ import annotations

import sympy as sp

from bridge import term as T

#: The internal table names of the three reads (``#`` cannot occur in a Lean identifier, so
#: no project constant shadows them).
SUM, LENGTH, AT = "Nat.digits#sum", "Nat.digits#length", "Nat.digits#get"


def nat_digits(b: int, n: int) -> list[int]:
    """``Nat.digits b n`` on Python integers, with Mathlib's values at ``b = 0`` and ``b = 1``."""
    if n <= 0:
        return []  # Nat.digits_zero
    if b == 0:
        return [n]  # Nat.digits_zero_succ'
    if b == 1:
        return [1] * n  # Nat.digits_one
    out = []
    while n:
        out.append(n % b)  # Nat.digits_add_two_add_one
        n //= b
    return out


def digit_sum(b: int, n: int) -> int:
    return sum(nat_digits(b, n))


def digit_length(b: int, n: int) -> int:
    if b == 1:
        return max(n, 0)
    return len(nat_digits(b, n))


def digit_at(b: int, n: int, i: int) -> int:
    if b == 1:
        return 1 if 0 <= i < n else 0
    digits = nat_digits(b, n)
    return digits[i] if 0 <= i < len(digits) else 0


def _numerals(*xs) -> bool:
    return all(isinstance(x, sp.Integer) and x >= 0 for x in xs)


class DigitSum(sp.Function):
    """``(Nat.digits b n).sum``."""

    nargs = 2
    is_integer = is_nonnegative = True

    @classmethod
    def eval(cls, b, n):
        return sp.Integer(digit_sum(int(b), int(n))) if _numerals(b, n) else None


class DigitLength(sp.Function):
    """``(Nat.digits b n).length``."""

    nargs = 2
    is_integer = is_nonnegative = True

    @classmethod
    def eval(cls, b, n):
        return sp.Integer(digit_length(int(b), int(n))) if _numerals(b, n) else None


class Digit(sp.Function):
    """``(Nat.digits b n)[i]`` (``0`` past the end)."""

    nargs = 3
    is_integer = is_nonnegative = True

    @classmethod
    def eval(cls, b, n, i):
        return sp.Integer(digit_at(int(b), int(n), int(i))) if _numerals(b, n, i) else None


# ---- Lean-term rewrites ----------------------------------------------------------------------


def _c(name: str, *args: T.Term) -> T.App:
    return T.App(T.Const(name), tuple(args))


def digits_args(t: T.Term) -> tuple[T.Term, T.Term] | None:
    """``(b, n)`` when ``t`` is ``Nat.digits b n``."""
    if isinstance(t, T.App) and t.fn == T.Const("Nat.digits") and len(t.args) == 2:
        return t.args[0], t.args[1]
    return None


def list_literal(t: T.Term) -> list[T.Term] | None:
    """The entries of ``[x₀, …, xₖ]`` (``List.cons x₀ (… List.nil)``)."""
    out: list[T.Term] = []
    while isinstance(t, T.App) and t.fn == T.Const("List.cons") and len(t.args) == 2:
        out.append(t.args[0])
        t = t.args[1]
    return out if t == T.Const("List.nil") else None


def read(field: str, digits: tuple[T.Term, T.Term]) -> T.Term | None:
    """``(Nat.digits b n).sum`` / ``.length`` as a table call (``None`` for another field)."""
    name = {"sum": SUM, "length": LENGTH}.get(field)
    return None if name is None else _c(name, *digits)


def member(d: T.Term, digits: tuple[T.Term, T.Term], index: str) -> T.Term:
    """``d ∈ Nat.digits b n``: some position ``i < length`` holds ``d``."""
    i = T.Var(index)
    body = _c("And", _c("LT.lt", i, _c(LENGTH, *digits)), _c("Eq", _c(AT, *digits, i), d))
    return _c("Exists", T.Lam((T.Binder(index, T.Const("Nat")),), body))


def equals(digits: tuple[T.Term, T.Term], entries: list[T.Term]) -> T.Term:
    """``Nat.digits b n = [x₀, …, xₖ]``: the lengths agree and so does every entry."""
    out: T.Term = _c("Eq", _c(LENGTH, *digits), T.Lit(len(entries)))
    for position, entry in enumerate(entries):
        out = _c("And", out, _c("Eq", _c(AT, *digits, T.Lit(position)), entry))
    return out


__all__ = ["AT", "Digit", "DigitLength", "DigitSum", "LENGTH", "SUM", "digit_at",
           "digit_length", "digit_sum", "equals", "list_literal", "member", "nat_digits", "read"]
