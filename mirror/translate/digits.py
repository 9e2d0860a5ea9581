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


def rewrite_definition(decl):
    """A project definition (``def s (n : ℕ) := (Nat.digits 10 n).sum``, or by equations)
    with the reads above applied to its body, as the theorem's own terms are
    (:mod:`mirror.translate.number_theory`); ``decl`` itself when it does not use
    ``Nat.digits``."""
    import dataclasses

    from bridge.declaration import Equation
    from mirror.translate.number_theory import _Rewriter
    from mirror.translate.term_rewriter import taken_names
    if decl.kind == "theorem":
        return decl
    terms = ([decl.value] if decl.value is not None else []) + [
        t for eq in decl.equations for t in (*eq.patterns, eq.rhs)]
    if not any("Nat.digits" in T.constants(t) for t in terms):
        return decl
    # every name the body uses: those of a declaration whose type holds the body's terms
    rewriter = _Rewriter(taken_names(dataclasses.replace(
        decl, type=T.App(T.Const("And"), tuple(terms + [decl.type] if decl.type else terms)))))
    lam = _catch_all(decl)
    if lam is not None:  # `| n => e`, one equation of variables: the function `fun n => e`
        return dataclasses.replace(decl, value=rewriter.term(lam), equations=())
    return dataclasses.replace(
        decl, value=None if decl.value is None else rewriter.term(decl.value),
        equations=tuple(Equation(eq.patterns, rewriter.term(eq.rhs)) for eq in decl.equations))


def _catch_all(decl) -> T.Term | None:
    """``fun x₁ … xₖ => e`` for a definition ``f : A₁ → … → Aₖ → B | x₁, …, xₖ => e`` (one
    equation whose patterns are distinct variables not used as its own name, so not a
    recursion); else ``None``."""
    if decl.value is not None or len(decl.equations) != 1:
        return None
    (eq,) = decl.equations
    names = [p.name for p in eq.patterns if isinstance(p, T.Var)]
    if len(names) != len(eq.patterns) or len(set(names)) != len(names) \
            or decl.name in T.constants(eq.rhs):
        return None
    domains, ty = [], decl.type
    while isinstance(ty, T.Pi) and len(domains) < len(names):
        domains += [b.type for b in ty.binders]
        ty = ty.body
    if len(domains) < len(names):
        return None
    return T.Lam(tuple(T.Binder(n, t) for n, t in zip(names, domains)), eq.rhs)


__all__ = ["AT", "Digit", "DigitLength", "DigitSum", "LENGTH", "SUM", "digit_at",
           "digit_length", "digit_sum", "equals", "list_literal", "member", "nat_digits", "read",
           "rewrite_definition"]
