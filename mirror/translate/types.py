"""Lean types as the translator sees them.

A :class:`Ty` is a small, hashable description of a Lean type: the numeric carriers
(``Nat Int Rat Real Complex``, and ``PNat`` (``ℕ+``), ``NNReal`` (``ℝ≥0``), ``ENNReal``
(``ℝ≥0∞``)), ``Prop``, ``Fin n`` (``n`` a sympy expression; ``ZMod n`` for ``n > 0`` is
``Fin n``), functions, matrices, finsets and type variables (for implicit ``{ι : Type*}``
binders solved by unification).

The carriers are ordered by Lean's coercions (:data:`COERCIONS`): ``ℕ+ → ℕ → ℤ → ℚ → ℝ → ℂ``
and ``ℕ → ℝ≥0 → ℝ``, ``ℝ≥0 → ℝ≥0∞``. A coercion never changes a value on these carriers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from mirror.translate.errors import Untranslatable

NUMERIC_ORDER = ("Nat", "Int", "Rat", "Real", "Complex")
#: Every numeric carrier (the tower and the subtypes of it Mathlib uses).
NUMERIC_KINDS = ("PNat", "Nat", "Int", "Rat", "NNReal", "ENNReal", "Real", "Complex")
#: Lean's coercions between carriers, one step each (the closure is :func:`coerces`).
COERCIONS: dict[str, tuple[str, ...]] = {
    "PNat": ("Nat",),
    "Nat": ("Int", "NNReal", "ENNReal"),
    "Int": ("Rat",),
    "Rat": ("Real",),
    "NNReal": ("Real", "ENNReal"),
    "Real": ("Complex",),
    "ENNReal": (),
    "Complex": (),
}


def coerces(source: str, target: str) -> bool:
    """``True`` when Lean coerces a ``source`` value to ``target`` (reflexive, transitive)."""
    if source == target:
        return True
    return any(coerces(step, target) for step in COERCIONS.get(source, ()))


@dataclass(frozen=True)
class Ty:
    """A Lean type. ``kind`` is one of :data:`NUMERIC_KINDS` or ``Prop Bool Fin Fun Matrix
    Finset TyVar Sort Unknown``; ``args`` depend on the kind:

    - ``Fin``: ``(n,)`` with ``n`` a sympy expression;
    - ``Fun``: ``(domain, codomain)``;
    - ``Matrix``: ``(rows, cols, entry)`` with ``rows``/``cols`` index types;
    - ``Finset``: ``(element,)``;
    - ``TyVar``: ``(name,)``.
    """

    kind: str
    args: tuple = ()
    #: ``True`` for a ``Fin n`` that is Lean's ``ZMod n``: the same values and arithmetic, but
    #: other coercions (``ℤ → ZMod n`` always; no ``ZMod n → ℕ``), which decide the type of a
    #: relation between the two. Not part of the type's identity.
    zmod: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        if self.kind == "Fin":
            return f"Fin {self.args[0]}"
        if self.kind == "Fun":
            return f"({self.args[0]} → {self.args[1]})"
        if self.kind == "Matrix":
            return f"Matrix ({self.args[0]}) ({self.args[1]}) {self.args[2]}"
        if self.kind == "Finset":
            return f"Finset {self.args[0]}"
        if self.kind == "TyVar":
            return str(self.args[0])
        return self.kind

    @property
    def is_numeric(self) -> bool:
        return self.kind in NUMERIC_KINDS

    @property
    def is_index(self) -> bool:
        """ℕ-like: ``Nat`` or ``Fin n`` (usable as an array index)."""
        return self.kind in ("Nat", "Fin")

    @property
    def is_array(self) -> bool:
        """Functions and matrices: values that are arrays at run time."""
        return self.kind in ("Fun", "Matrix")

    def arity(self) -> int:
        """Number of index arguments until a non-function codomain."""
        if self.kind == "Matrix":
            return 2
        if self.kind == "Fun":
            return 1 + self.args[1].arity()
        return 0

    def domains(self) -> list["Ty"]:
        """The index types, outermost first."""
        if self.kind == "Matrix":
            return [self.args[0], self.args[1]]
        if self.kind == "Fun":
            return [self.args[0], *self.args[1].domains()]
        return []

    def codomain(self) -> "Ty":
        """The final value type after all index arguments."""
        if self.kind == "Matrix":
            return self.args[2]
        if self.kind == "Fun":
            return self.args[1].codomain()
        return self

    def apply(self, count: int) -> "Ty":
        """The type after applying ``count`` index arguments."""
        ty = self
        for _ in range(count):
            if ty.kind == "Matrix":
                ty = Ty("Fun", (ty.args[1], ty.args[2]))
            elif ty.kind == "Fun":
                ty = ty.args[1]
            else:
                raise TypeError(f"cannot apply a value of type {self} to {count} arguments")
        return ty


NAT = Ty("Nat")
INT = Ty("Int")
RAT = Ty("Rat")
REAL = Ty("Real")
COMPLEX = Ty("Complex")
PNAT = Ty("PNat")
NNREAL = Ty("NNReal")
ENNREAL = Ty("ENNReal")
PROP = Ty("Prop")
BOOL = Ty("Bool")
UNKNOWN = Ty("Unknown")
SORT = Ty("Sort")


def fin(n: sp.Basic) -> Ty:
    return Ty("Fin", (sp.sympify(n),))


def fun(dom: Ty, cod: Ty) -> Ty:
    return Ty("Fun", (dom, cod))


def numeric_max(a: Ty | None, b: Ty | None) -> Ty | None:
    """The type Lean's ``binop%``/``binrel%`` elaborator gives two leaves met in this order:
    ``a`` (the type so far) is kept when ``b`` coerces to it, else ``b`` is taken when ``a``
    coerces to ``b`` — so the result depends on the order where coercions go both ways.

    ``Fin n``/``ZMod n`` against ℕ or ℤ: a numeral modulus or ``ZMod`` takes the casts
    (``NatCast``/``IntCast``) and keeps the type when it comes first; a ``Fin n`` coming second
    goes to ℕ/ℤ by its value. Raises :class:`Untranslatable` where Lean's choice depends on
    something the type does not record (``NeZero n`` for a symbolic ``n``, the Mathlib
    version's ``ZMod n → ℤ`` coercion, ``RatCast`` of a prime ``ZMod p``)."""
    if a is None:
        return b
    if b is None:
        return a
    if "Fin" in (a.kind, b.kind) and {a.kind, b.kind} <= {"Fin", *NUMERIC_KINDS}:
        return _fin_max(a, b)
    if a.kind in NUMERIC_KINDS and b.kind in NUMERIC_KINDS:
        if coerces(b.kind, a.kind):
            return a
        if coerces(a.kind, b.kind):
            return b
        # no coercion either way (ℤ and ℝ≥0): both meet in ℝ
        return REAL
    if a.is_array:
        return a
    return b if b.is_array else a


#: Carriers that cast into ``Fin n`` (``n`` a numeral) and ``ZMod n``: ``NatCast``/``IntCast``.
_CAST_INTO_FIN = ("PNat", "Nat", "Int")


def _fin_max(a: Ty, b: Ty) -> Ty:
    if a.kind == "Fin" and b.kind == "Fin":
        return a
    if a.kind == "Fin":
        if b.kind in _CAST_INTO_FIN:
            if a.zmod or isinstance(a.args[0], sp.Integer):
                return a
            raise Untranslatable(
                f"a relation between {a} and {b}",
                f"Lean casts the {b} side into {a} only where an instance NeZero "
                f"{a.args[0]} is known, which leanmirror does not track; write the cast "
                f"(`(i : ℕ)` or `(k : {a})`)")
        if a.zmod and b.kind == "Rat":
            raise Untranslatable(f"a relation between ZMod {a.args[0]} and ℚ",
                                 "whether ℚ casts into it depends on a Field instance")
        return b
    if a.kind in ("PNat", "Nat"):
        return b if b.zmod else a
    if a.kind == "Int" and b.zmod:
        raise Untranslatable(
            f"a relation between ℤ and ZMod {b.args[0]}",
            "its type depends on the Mathlib version (whether ZMod n coerces to ℤ); "
            "write the cast (`(a : ZMod n)` or `(z.val : ℤ)`)")
    return a
