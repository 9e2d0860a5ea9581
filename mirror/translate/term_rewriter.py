"""The skeleton the Lean-term rewrites share (:mod:`mirror.translate.number_theory`,
:mod:`mirror.translate.orders`, :mod:`mirror.translate.extrema`): structural recursion and
the rewriting of a theorem's binders and type, with the names it already uses kept apart
from the fresh ones a rewrite introduces."""

from __future__ import annotations

import dataclasses
from typing import Callable

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.lean_terms import fresh_name


class TermRewriter:
    """A rewrite of Lean terms: subclasses override :meth:`term` and fall back on
    :meth:`structural` for the nodes they leave as they are."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken

    def fresh(self, base: str) -> str:
        return fresh_name(base, self.taken)

    def term(self, t: T.Term) -> T.Term:
        return self.structural(t)

    def structural(self, t: T.Term) -> T.Term:
        """``t`` with :meth:`term` applied to its children."""
        plain = T.map_plain(t, self.term)
        if plain is not None:
            return plain
        if isinstance(t, (T.Lam, T.Pi)):
            binders = tuple(T.Binder(b.name, None if b.type is None else self.term(b.type),
                                     b.info) for b in t.binders)
            return type(t)(binders, self.term(t.body))
        if isinstance(t, T.Let):
            return T.Let(t.name, t.type, self.term(t.value), self.term(t.body))
        return t


class ReadingRewriter(TermRewriter):
    """A rewrite that reads applications and projections (:meth:`read`: the replacement, or
    ``None`` to recurse into the node)."""

    def term(self, t: T.Term) -> T.Term:
        if isinstance(t, (T.App, T.Proj)):
            found = self.read(t)
            if found is not None:
                return found
        return self.structural(t)

    def read(self, t: T.Term) -> T.Term | None:
        return None


def taken_names(decl: Declaration) -> set[str]:
    """Every name ``decl``'s statement uses (binders, free and bound variables)."""
    terms = [b.type for b in decl.binders if b.type is not None]
    terms += [decl.type] if decl.type is not None else []
    taken = {b.name for b in decl.binders}
    for t in terms:
        taken |= T.free_vars(t)
        for node in T.walk(t):
            if isinstance(node, (T.Lam, T.Pi)):
                taken |= {b.name for b in node.binders}
    return taken


def rewrite_declaration(decl: Declaration, mentions: Callable[[T.Term], bool],
                        make: Callable[[set[str]], TermRewriter]) -> Declaration:
    """``decl`` (a theorem) with the rewriter ``make(taken)`` applied to its binders' types and
    its type, when some of them ``mentions`` what it rewrites; else ``decl`` itself. ``taken``
    holds every name the statement uses (binders, free and bound variables)."""
    if decl.type is None or decl.kind != "theorem":
        return decl
    terms = [b.type for b in decl.binders if b.type is not None] + [decl.type]
    if not any(mentions(t) for t in terms):
        return decl
    rewriter = make(taken_names(decl))
    binders = tuple(T.Binder(b.name, None if b.type is None else rewriter.term(b.type), b.info)
                    for b in decl.binders)
    return dataclasses.replace(decl, binders=binders, type=rewriter.term(decl.type))


__all__ = ["ReadingRewriter", "TermRewriter", "rewrite_declaration", "taken_names"]
