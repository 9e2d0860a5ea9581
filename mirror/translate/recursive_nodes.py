"""The nodes of a recursive definition evaluated at run time, as translation builds them.

A recursive *system* (well-founded, on several arguments, mutual) is each member's body as a
``Lambda`` over its parameters, in which a call of a member is a :class:`RecursiveCall`; a
statement applies the system with :class:`RecursiveEval` (the ``…Truth`` forms when the
member's value is a proposition or a ``Bool``). :mod:`mirror.translate.unfolding` builds them,
the code printer prints them, :mod:`mirror.evaluate.recursion` evaluates them.
"""

from __future__ import annotations

from typing import Iterable

import sympy as sp
from sympy.core.symbol import Str
from sympy.logic.boolalg import BooleanFunction


class RecursiveCall(sp.Function):
    """A call of a member of the system being defined: ``Str(name), *args``."""


class RecursiveTruth(BooleanFunction):
    """:class:`RecursiveCall` of a member whose value is a proposition or a ``Bool``."""


class RecursiveEval(sp.Function):
    """A system applied: ``Str(name), system, *args``; ``system`` is a ``Tuple`` of
    ``Tuple(Str(member), Lambda(params, body), truth)`` (``truth``: ``sympy.true`` when the
    member's value is a proposition or a ``Bool``)."""


class RecursiveEvalTruth(BooleanFunction):
    """:class:`RecursiveEval` of a member whose value is a proposition or a ``Bool``."""


def call_node(name: str, args: Iterable[sp.Basic], truth: bool) -> sp.Basic:
    """The call of member ``name`` inside the system's bodies."""
    return (RecursiveTruth if truth else RecursiveCall)(Str(name), *args)


def eval_node(name: str, system: sp.Tuple, args: Iterable[sp.Basic], truth: bool) -> sp.Basic:
    """The application of member ``name`` of ``system`` in a statement."""
    return (RecursiveEvalTruth if truth else RecursiveEval)(Str(name), system, *args)


__all__ = ["RecursiveCall", "RecursiveEval", "RecursiveEvalTruth", "RecursiveTruth", "call_node",
           "eval_node"]
