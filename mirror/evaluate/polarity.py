"""Truncation has a polarity: what the finite part of an infinite domain decides.

A quantifier over ℕ is evaluated on the sampled prefix ``[0, nat_domain)`` only (a range that
ends at :class:`SamplingBound`). Its value there is sure in one
direction only: a failing instance makes a ``∀`` false on all of ℕ, a witness makes an ``∃``
true; a ``∀`` that holds on the prefix, or an ``∃`` without a witness there, says nothing.

So every truth value carries ``known`` beside ``ok`` (:class:`~mirror.evaluate.truth.Truth`):
per draw, whether ``ok`` is the value on the whole domain. A value that is not known may be
either — Kleene's strong three-valued logic — and the connectives combine ``known`` by
:data:`TABLE`. Read from the statement's side, a truncated quantifier decides only where its
polarity lets the finite part decide (:data:`POLARITY`, :data:`EFFECT`):

======================  ============================  ===========================================
position                truncated ``∀``               truncated ``∃``
======================  ============================  ===========================================
conclusion (+)          a failing instance refutes    a witness proves
hypothesis (−)          holding on the prefix is not  no witness on the prefix is not known
                        known: no refutation rests    false: the draw is not known to be
                        on it                         outside the hypotheses
both (``↔``)            as + and − together           as + and − together
======================  ============================  ===========================================

``¬`` and the premise of ``→`` flip the polarity, ``↔`` gives both sides both polarities,
``∧``, ``∨``, the conclusion of ``→`` and the bodies of quantifiers keep it. The same rules
combine float64 sureness (``sure``): a value is decided when a decided part settles it (a
false conjunct, a true disjunct, a false premise, a true conclusion) or every part is decided.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

class SamplingBound(int):
    """The length of the sampled prefix of ℕ, as the runtime holds it (``rt.nat_domain``): a
    range that ends at it covers only part of ℕ, so a quantifier over it is truncated. Any
    arithmetic on it gives a plain ``int`` (``n < nat_domain + 1`` is an ordinary bound)."""

    def __repr__(self) -> str:
        return f"SamplingBound({int(self)})"


def truncated(hi) -> bool:
    """Whether a range ending at ``hi`` is a truncated prefix of ℕ."""
    return isinstance(hi, SamplingBound)


#: Polarities: ``+`` (a conclusion), ``−`` (a hypothesis), ``±`` (both: under ``↔``).
POSITIVE, NEGATIVE, BOTH = "+", "-", "±"

_FLIP = {POSITIVE: NEGATIVE, NEGATIVE: POSITIVE, BOTH: BOTH}
_KEEP = {POSITIVE: POSITIVE, NEGATIVE: NEGATIVE, BOTH: BOTH}
_BOTH = {POSITIVE: BOTH, NEGATIVE: BOTH, BOTH: BOTH}

#: Connective → the polarity of each argument, given the polarity of the whole.
POLARITY: dict[str, tuple[dict[str, str], ...]] = {
    "¬": (_FLIP,),
    "∧": (_KEEP, _KEEP),
    "∨": (_KEEP, _KEEP),
    "→": (_FLIP, _KEEP),
    "↔": (_BOTH, _BOTH),
    "∀": (_KEEP,),
    "∃": (_KEEP,),
}


def argument_polarity(connective: str, position: int, polarity: str) -> str:
    """The polarity of argument ``position`` of ``connective`` when the whole has
    ``polarity``."""
    try:
        rules = POLARITY[connective]
    except KeyError:
        raise ValueError(f"connective: expected one of {sorted(POLARITY)}, got {connective!r}")
    if not 0 <= position < len(rules):
        raise ValueError(f"position: expected 0…{len(rules) - 1} for {connective}, got {position}")
    return rules[position][polarity]


def known_on_prefix(quantifier: str, value: bool) -> bool:
    """Whether a truncated ``quantifier`` whose value on the prefix is ``value`` has that value
    on the whole domain: one instance settles a false ``∀`` and a true ``∃``; nothing settles
    the other value."""
    if quantifier not in ("∀", "∃"):
        raise ValueError(f"quantifier: expected ∀ or ∃, got {quantifier!r}")
    return value is (quantifier == "∃")


#: (truncated quantifier, polarity of its position, its value on the prefix) → what a draw may
#: conclude from it. A conclusion is positive, a hypothesis negative (``POLARITY`` gives the
#: polarity of a nested position).
EFFECT: dict[tuple[str, str, bool], str] = {
    ("∀", POSITIVE, False): "refutes: a failing instance makes the conclusion false",
    ("∀", POSITIVE, True): "passes on the part seen: tested, not proved",
    ("∃", POSITIVE, True): "holds: a witness makes the conclusion true",
    ("∃", POSITIVE, False): "undecided: no witness seen is no refutation",
    ("∀", NEGATIVE, False): "rejects: a failing instance makes the hypothesis false",
    ("∀", NEGATIVE, True): "undecided: held on the part seen, no refutation rests on it",
    ("∃", NEGATIVE, True): "holds: a witness makes the hypothesis true",
    ("∃", NEGATIVE, False): "undecided: no witness seen is not a false hypothesis",
}


def effect(quantifier: str, polarity: str, value: bool) -> str:
    """:data:`EFFECT` of a truncated quantifier at a position of ``polarity`` (``±``: known
    values decide both ways, the others neither)."""
    if polarity == BOTH:
        return ("decided on the whole domain" if known_on_prefix(quantifier, value)
                else "undecided: not known on the whole domain")
    try:
        return EFFECT[(quantifier, polarity, bool(value))]
    except KeyError:
        raise ValueError(f"quantifier/polarity: expected ∀ or ∃ and +, - or ±, got "
                         f"{quantifier!r}, {polarity!r}")


# --------------------------------------------------------------------------------------------
# The runtime side: combining ``known`` (or ``sure``) of batched truth values


def _junction(oks: Sequence[np.ndarray], decided: Sequence[np.ndarray],
              conjunction: bool) -> np.ndarray:
    settling = np.logical_or.reduce([d & (ok != conjunction) for ok, d in zip(oks, decided)])
    return settling | np.logical_and.reduce(list(decided))


def conjunction(oks, decided) -> np.ndarray:
    """``a ∧ b ∧ …``: decided by a decided false part, or when every part is decided."""
    return _junction(oks, decided, True)


def disjunction(oks, decided) -> np.ndarray:
    """``a ∨ b ∨ …``: decided by a decided true part, or when every part is decided."""
    return _junction(oks, decided, False)


def negation(ok, decided) -> np.ndarray:
    """``¬a``: decided where ``a`` is."""
    return decided


def implication(a_ok, a_decided, b_ok, b_decided) -> np.ndarray:
    """``a → b``: decided by a decided false premise, a decided true conclusion, or both
    decided."""
    return (a_decided & ~a_ok) | (b_decided & b_ok) | (a_decided & b_decided)


def equivalence(a_ok, a_decided, b_ok, b_decided) -> np.ndarray:
    """``a ↔ b``: decided only where both sides are."""
    return a_decided & b_decided


def choice(cond_decided, taken, then_decided, else_decided) -> np.ndarray:
    """``if c then p else q``: decided where ``c`` and the branch taken are. (Two decided,
    agreeing branches would decide it whatever ``c`` is, but the runtime evaluates each
    branch only for the draws that take it, so the other branch's value is not read.)"""
    return cond_decided & np.where(taken, then_decided, else_decided)


class Quantified:
    """The running ``known`` of ``∀``/``∃`` over a range, instance by instance (masked).

    Over a complete range the value is decided by a decided settling instance (a false one
    for ``∀``, a true one for ``∃``) or when every instance is decided; over a truncated
    range (a prefix of ℕ) only by a settling instance."""

    def __init__(self, batch: int, universal: bool, complete: bool) -> None:
        self.universal = universal
        self.complete = complete
        self.settled = np.zeros(batch, dtype=bool)
        self.every = np.ones(batch, dtype=bool)

    def add(self, mask: np.ndarray, ok: np.ndarray, decided: np.ndarray) -> None:
        self.every = np.where(mask, self.every & decided, self.every)
        self.settled = np.where(mask, self.settled | (decided & (ok != self.universal)),
                                self.settled)

    def result(self) -> np.ndarray:
        return self.settled | self.every if self.complete else self.settled.copy()


#: Connective → its rule for ``known`` (and ``sure``), the table the runtime combines by.
TABLE: dict[str, Callable] = {
    "¬": negation,
    "∧": conjunction,
    "∨": disjunction,
    "→": implication,
    "↔": equivalence,
    "ite": choice,
}


__all__ = ["BOTH", "EFFECT", "NEGATIVE", "POLARITY", "POSITIVE", "TABLE", "Quantified",
           "SamplingBound", "truncated",
           "argument_polarity", "choice", "conjunction", "disjunction", "effect",
           "equivalence", "implication", "known_on_prefix", "negation"]
