"""The values of collections while a statement is desugared (:mod:`mirror.translate.collections`).

A list or multiset is a :class:`Sequence` of segments, an option an :class:`Optional`, a finset
a :class:`Subset` of a range or of ``Fin n``; each is a recipe of Lean terms over the drawn
binders (lengths, entry functions, Booleans, masks) that the translator reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from bridge import term as T
from mirror.translate.lean_terms import NAT, ONE, TRUE, app, conj, disj

#: Collection type constructors drawn as binders.
KINDS = ("List", "Multiset", "Option", "Finset")
#: Qualified operations: name → position of the collection among the explicit arguments.
QUALIFIED = {
    **{f"List.{op}": 0 for op in ("sum", "prod", "length", "getD", "get", "headD")},
    **{f"List.{op}": 1 for op in ("map", "countP", "count", "filter")},
    **{f"Multiset.{op}": 0 for op in ("sum", "prod", "card")},
    **{f"Multiset.{op}": 1 for op in ("map", "countP", "count", "filter")},
    **{f"Finset.{op}": 0 for op in ("card", "sum", "prod", "Nonempty")},
    "Finset.filter": 1,
    **{f"Option.{op}": 0 for op in ("getD", "isSome", "isNone", "get!")},
    "Option.map": 1,
}
Entry = Callable[[T.Term], T.Term]


@dataclass(frozen=True)
class Segment:
    """``length`` entries ``entry(i)`` for ``i : Fin length``, kept where ``mask(i)`` holds.

    A ``single`` segment is one element whose entry ignores its index."""

    length: T.Term
    entry: Entry
    mask: Callable[[T.Term], T.Term] | None = None
    single: bool = False


@dataclass(frozen=True)
class Sequence:
    """A list or multiset: its segments in order."""

    kind: str
    elem: T.Term | None
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Optional:
    """An option: ``present`` (a proposition or Bool) and the value read when it holds."""

    present: T.Term
    value: T.Term


@dataclass(frozen=True)
class Subset:
    """A finset ``{x ∈ domain | mask x}``: the domain is ``range size`` (``fin=False``) or
    ``Fin size`` (``fin=True``)."""

    size: T.Term
    fin: bool
    mask: Callable[[T.Term], T.Term]

    @property
    def elem(self) -> T.Term:
        return app("Fin", self.size) if self.fin else NAT

    def bound(self, x: T.Term) -> T.Term:
        return TRUE if self.fin else app("LT.lt", x, self.size)

    def member(self, x: T.Term) -> T.Term:
        return conj(self.bound(x), self.mask(x))

    def insert(self, x: T.Term) -> "Subset":
        """``insert x self``: the domain grows to hold ``x``; ``x`` is kept by the mask."""
        size = self.size if self.fin else app("max", self.size, app("HAdd.hAdd", x, ONE))
        return Subset(size, self.fin, lambda y: disj(app("Eq", y, x), self.member(y)))


Rep = Sequence | Optional | Subset


def operation(term: T.Term) -> tuple[str, T.Term, tuple[T.Term, ...]] | None:
    """``(operation, receiver, other arguments)`` of ``x.op a …`` or ``Kind.op … x …``."""
    if isinstance(term, T.Proj) and isinstance(term.field, str):
        return term.field, term.expr, ()
    if isinstance(term, T.App) and isinstance(term.fn, T.Proj) and isinstance(term.fn.field, str):
        return term.fn.field, term.fn.expr, term.args
    if isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name in QUALIFIED:
        position = QUALIFIED[term.fn.name]
        if len(term.args) <= position:
            return None
        args = term.args[:position] + term.args[position + 1:]
        return term.fn.name.rsplit(".", 1)[1], term.args[position], args
    if isinstance(term, T.Const) and term.name in QUALIFIED:
        return None
    return None
