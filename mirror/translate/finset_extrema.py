"""Greatest and least elements of finsets written out element by element (Lean-term
rewrites, before translation), by Mathlib's definitions.

===========================  ================================================  ==========================
Lean                         value                                             Mathlib
===========================  ================================================  ==========================
``s.max`` (``WithBot α``)    ``↑(greatest element)``, ``⊥`` on ``∅``           ``Finset.max_insert``,
                                                                               ``Finset.max_empty``
``s.min`` (``WithTop α``)    ``↑(least element)``, ``⊤`` on ``∅``              ``Finset.min_empty``
``s.max' h`` / ``s.min' h``  the greatest / least element                      ``Finset.max'_insert``
``s.sup' h f``               ``max (f a) (max (f b) …)`` over the elements     ``Finset.sup'_insert``
``s.inf' h f``               ``min (f a) (min (f b) …)``                       ``Finset.inf'_insert``
``s.sup f`` (``s ≠ ∅``)      ``max (f a) (max (f b) …)`` (``f a ⊔ ⊥ = f a``)   ``Finset.sup_insert``
===========================  ================================================  ==========================

``s`` is a literal ``{a, b, …}`` (``Insert.insert``/``Singleton.singleton``) or ``∅`` whose
elements are numerals; the order of numerals is the same in ℕ, ℤ, ℚ and ℝ, so an
unascribed literal needs no type. ``s.max`` and ``s.min`` are values of ``WithBot``/``WithTop``
and are read inside a comparison with a numeral, ``⊥``, ``⊤`` or another such value
(:mod:`mirror.translate.extended_values`); anywhere else the row is untranslatable, saying
so. ``s.sup f`` on ``∅`` is ``⊥`` of ``f``'s codomain, which is not known here: untranslatable.
"""

from __future__ import annotations

from fractions import Fraction

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.extended_values import (BOT, RELATIONS, TOP, c, compare, extended, is_app,
                                              numeral, truth)
from mirror.translate.term_rewriter import ReadingRewriter, rewrite_declaration
from mirror.translate.values import Untranslatable

_FIELDS = ("max", "min", "max'", "min'", "sup'", "inf'", "sup")
_NAMES = frozenset(f"Finset.{f}" for f in _FIELDS)


def _elements(t: T.Term) -> list[T.Term] | None:
    """The elements of a literal finset (``None``: not one)."""
    if isinstance(t, T.Typed):
        if not is_app(t.type, "Finset", 1):
            return None
        return _elements(t.expr)
    if t == T.Const("EmptyCollection.emptyCollection"):
        return []
    if is_app(t, "Singleton.singleton", 1):
        return [t.args[0]]
    if is_app(t, "Insert.insert", 2):
        rest = _elements(t.args[1])
        return None if rest is None else [t.args[0], *rest]
    return None


def _split(t: T.Term) -> tuple[str, T.Term, tuple[T.Term, ...], bool] | None:
    """``(field, finset, other arguments, written as a projection)``."""
    if isinstance(t, T.Proj) and t.field in _FIELDS:
        return t.field, t.expr, (), True
    if isinstance(t, T.App) and isinstance(t.fn, T.Proj) and t.fn.field in _FIELDS:
        return t.fn.field, t.fn.expr, t.args, True
    if isinstance(t, T.App) and isinstance(t.fn, T.Const) and t.fn.name in _NAMES and t.args:
        return t.fn.name.split(".", 1)[1], t.args[0], t.args[1:], False
    return None


def _ring(t: T.Term) -> str | None:
    """``R`` of a literal ascribed ``Finset R`` (``None``: not ascribed): it decides what
    ``/`` and a decimal mean (read only in ℚ, ℝ, ℂ; ``7 / 2 = 3`` in ℕ)."""
    if isinstance(t, T.Typed) and is_app(t.type, "Finset", 1) \
            and isinstance(t.type.args[0], T.Const):
        return t.type.args[0].name
    return None


def _numerals(elements: list[T.Term], ring: str | None) -> list[tuple[Fraction, T.Term]] | None:
    values = [(numeral(e, ring), e) for e in elements]
    return None if any(v is None for v, _ in values) else values


def _fold(op: str, terms: list[T.Term]) -> T.Term:
    out = terms[-1]
    for t in reversed(terms[:-1]):
        out = c(op, t, out)
    return out


class _FinsetExtrema(ReadingRewriter):

    def _extended(self, t: T.Term) -> tuple[Fraction | str, str | None] | None:
        """The value of ``s.max`` / ``s.min`` of a literal of numerals, and its ring."""
        split = _split(t)
        if split is None or split[0] not in ("max", "min") or split[2]:
            return None
        elements = _elements(split[1])
        if elements is None:
            return None
        ring = _ring(split[1])
        values = _numerals(elements, ring)
        if values is None:
            raise Untranslatable(f"Finset.{split[0]}", "of a finset whose elements are not "
                                 "all numerals")
        if not values:
            return (BOT if split[0] == "max" else TOP), ring
        pick = max if split[0] == "max" else min
        return pick(v for v, _ in values), ring

    def read(self, t: T.Term) -> T.Term | None:
        if isinstance(t, T.App) and isinstance(t.fn, T.Const) and t.fn.name in RELATIONS \
                and len(t.args) == 2:
            ea, eb = (self._extended(x) for x in t.args)
            if ea is not None or eb is not None:
                ring = (ea or eb)[1]
                a = ea[0] if ea is not None else extended(t.args[0], ring)
                b = eb[0] if eb is not None else extended(t.args[1], ring)
                if a is None or b is None:
                    raise Untranslatable("Finset.max / Finset.min", "a value in WithBot / "
                                         "WithTop is read only compared with a numeral, ⊥, ⊤ "
                                         "or another such value")
                return truth(compare(t.fn.name, a, b))
        split = _split(t)
        if split is None:
            return None
        field, s, rest, _ = split
        elements = _elements(s)
        if elements is None:
            return None
        what = f"Finset.{field}"
        if field in ("max", "min"):
            raise Untranslatable(what, "a value in WithBot / WithTop is read only compared "
                                 "with a numeral, ⊥, ⊤ or another such value")
        if not elements:  # sup'/max' need a proof of nonemptiness: none exists for ∅
            raise Untranslatable(what, "of the empty finset (its value there is ⊥ of a "
                                 "codomain not known here)")
        if field in ("max'", "min'") and len(rest) == 1:
            values = _numerals(elements, _ring(s))
            if values is None:
                return _fold("max" if field == "max'" else "min",
                             [self.term(e) for e in elements])
            pick = max if field == "max'" else min
            return pick(values, key=lambda pair: pair[0])[1]
        f = rest[-1] if field in ("sup'", "inf'") and len(rest) == 2 else \
            rest[0] if field == "sup" and len(rest) == 1 else None
        if f is None:
            return None
        f = self.term(f)
        applied = [_beta(f, self.term(e)) for e in elements]
        return _fold("min" if field == "inf'" else "max", applied)


def _beta(f: T.Term, a: T.Term) -> T.Term:
    if isinstance(f, T.Lam) and len(f.binders) == 1:
        return T.substitute(f.body, {f.binders[0].name: a})
    return T.App(f, (a,))


def _mentions(t: T.Term) -> bool:
    return any((isinstance(n, T.Const) and n.name in _NAMES)
               or (isinstance(n, T.Proj) and n.field in _FIELDS) for n in T.walk(t))


def rewrite_finset_extrema(decl: Declaration) -> Declaration:
    """``decl`` with the extrema of literal finsets computed (unchanged when it has none)."""
    return rewrite_declaration(decl, _mentions, _FinsetExtrema)


__all__ = ["rewrite_finset_extrema"]
