"""Recursive definitions evaluated at run time with an explicit step budget.

Structural recursion on ℕ (``| 0 => base | n + 1 => step``) is a fold
(:class:`~mirror.translate.vocabulary.Recursion`). Everything else a project writes — well-founded
recursion (``termination_by``/``decreasing_by``), recursion on several arguments
(``choose n k``), mutual recursion (``mutual def isEven … def isOdd … end``) — is a
*system*: each member's body as a ``Lambda`` over its parameters, in which a call of a member
is a :class:`RecursiveCall`. A statement applies the system with :class:`RecursiveEval`.
The nodes are translation's (:mod:`mirror.translate.recursive_nodes`, re-exported here); this
module evaluates them.

At run time (:func:`evaluate`) the calls a draw needs are computed by a work list, not by
Python's call stack: a body is evaluated, batched over all the pending calls of one member,
with every recursive call looked up among the values already known; a call that is not known
yet makes that evaluation wait, and the call is queued. A call that waits on itself, or a
draw whose calls are not all settled within :data:`STEP_BUDGET` body evaluations and
:data:`ROUND_BUDGET` rounds, leaves the draw *out of domain* (rejected and counted, never a
verdict). Values are memoized per call, so ``choose n k`` costs ``O(n k)`` evaluations.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from mirror.translate.recursive_nodes import (RecursiveCall, RecursiveEval, RecursiveEvalTruth,
                                              RecursiveTruth, call_node, eval_node)

from mirror.evaluate.batch import OutOfDomain
from mirror.evaluate.truth import Truth

#: Body evaluations (one per pending call) one application may spend, for the whole batch.
STEP_BUDGET = 20_000
#: Rounds of the work list: a chain of ``d`` calls each waiting on the next takes ``2 d``
#: rounds (down to the call that returns, then back up).
ROUND_BUDGET = 3_000

# --------------------------------------------------------------------------------------------
# Evaluation

#: A system as the generated code passes it: member name → (truth, body). A body takes the
#: runtime to evaluate in (a batch of pending calls), the call hook, then the member's
#: parameters (batched).
System = dict[str, tuple[bool, Callable]]
Key = tuple[str, tuple]
_UNDEFINED = object()


def evaluate(rt: Any, system: System, name: str, args: tuple) -> Any:
    """``name args`` for every active draw of ``rt``, by the work list described above.
    Draws whose value is not settled within the budget are marked out of domain."""
    truth = system[name][0]
    columns = [rt.batched(a) for a in args]
    roots: dict[int, Key] = {
        int(i): (name, tuple(_scalar(c[i]) for c in columns)) for i in np.flatnonzero(rt.active)
    }
    memo = _settle(rt, system, list(dict.fromkeys(roots.values())))
    values = []
    for i in range(rt.batch):
        value = memo.get(roots[i], _UNDEFINED) if i in roots else _placeholder(truth)
        if value is _UNDEFINED:
            rt.invalid[i] = True
            value = _placeholder(truth)
        values.append(value)
    return _column(values, truth, _is_exact(rt), Truth)


def _settle(rt: Any, system: System, ready: list[Key]) -> dict:
    """Evaluate the calls ``ready`` and every call they need, within the budget."""
    memo: dict[Key, Any] = {}
    waiting: dict[Key, set[Key]] = {}
    dependents: dict[Key, list[Key]] = {}
    steps = rounds = 0
    while ready and rounds < ROUND_BUDGET and steps < STEP_BUDGET:
        ready = ready[: STEP_BUDGET - steps]
        rounds += 1
        steps += len(ready)
        queued: dict[Key, None] = {}
        blocked, resolved = [], []
        for member in dict.fromkeys(k[0] for k in ready):
            keys = [k for k in ready if k[0] == member]
            for key, (value, missing) in zip(keys, _bodies(rt, system, member, keys, memo)):
                if missing:
                    waiting[key] = missing
                    blocked.append(key)
                    for call in missing:
                        dependents.setdefault(call, []).append(key)
                        if call not in waiting:
                            queued[call] = None
                else:
                    memo[key] = value
                    waiting.pop(key, None)
                    resolved.append(key)
        candidates = [*blocked, *(d for r in resolved for d in dependents.pop(r, ()))]
        unblocked = [k for k in dict.fromkeys(candidates)
                     if k in waiting and all(m in memo for m in waiting[k])]
        ready = list(dict.fromkeys([*(q for q in queued if q not in memo), *unblocked]))
    return memo


def _bodies(rt: Any, system: System, member: str, keys: list[Key], memo: dict) -> list:
    """``(value, missing calls)`` of ``member``'s body at each call in ``keys``: batched in
    float64, one call at a time in an exact runtime (its batch is 1)."""
    if _is_exact(rt):
        return [out for key in keys for out in _batch_of_bodies(rt, system, member, [key], memo)]
    return _batch_of_bodies(rt, system, member, keys, memo)


def _batch_of_bodies(rt: Any, system: System, member: str, keys: list[Key], memo: dict) -> list:
    truth, body = system[member]
    size = len(keys)
    sub = _runtime_of_size(rt, size)
    exact = _is_exact(rt)
    missing: list[set[Key]] = [set() for _ in keys]
    poisoned = np.zeros(size, dtype=bool)

    def call(callee: str, *args: Any) -> Any:
        cols = [sub.batched(a) for a in args]
        live = sub.active
        callee_truth = system[callee][0]
        out = []
        for i in range(size):
            value = _placeholder(callee_truth)
            if live[i]:
                found = memo.get((callee, tuple(_scalar(c[i]) for c in cols)), None)
                if found is None:
                    missing[i].add((callee, tuple(_scalar(c[i]) for c in cols)))
                elif found is _UNDEFINED:
                    poisoned[i] = True
                else:
                    value = found
            out.append(value)
        return _column(out, callee_truth, exact, Truth)

    params = [_column([k[1][j] for k in keys], False, exact, Truth) for j in range(len(keys[0][1]))]
    try:
        result = body(sub, call, *params)
    except (OutOfDomain, ZeroDivisionError, OverflowError, ValueError):
        return [(_UNDEFINED, set()) for _ in keys]
    out = []
    for i in range(size):
        if missing[i]:
            out.append((None, missing[i]))
        elif poisoned[i] or sub.invalid[i]:
            out.append((_UNDEFINED, set()))
        else:
            out.append((_row(result, i, truth, size), set()))
    return out


def _runtime_of_size(rt: Any, size: int) -> Any:
    """A runtime like ``rt`` with a batch of ``size``: the bodies of pending calls are
    evaluated in it."""
    return rt.resized(size)


def _is_exact(rt: Any) -> bool:
    return rt.object_values


def _scalar(x: Any) -> Any:
    """A hashable scalar for a memo key (NumPy scalars as Python numbers)."""
    return x.item() if isinstance(x, np.generic) else x


def _placeholder(truth: bool) -> Any:
    """The value a pending call reads meanwhile (the evaluation that reads it is redone)."""
    return (False, False, 0.0, True, True) if truth else 0


def _row(result: Any, i: int, truth: bool, size: int) -> Any:
    if truth:
        return (bool(result.ok[i]), bool(result.exact[i]), float(result.err[i]),
                bool(result.sure[i]), bool(result.known[i]))
    column = np.asarray(result)
    if column.ndim == 0 or column.shape[0] != size:
        column = np.broadcast_to(column, (size,) + column.shape)
    return _scalar(column[i])


def _column(values: list, truth: bool, exact: bool, truth_type: type) -> Any:
    """Per-draw values as the runtime's batched value (a :class:`~mirror.evaluate.runtime.Truth` for a
    proposition)."""
    if truth:
        ok, sure_exact, err, sure, known = (np.array(part) for part in zip(*values)) if values \
            else (np.zeros(0, dtype=bool),) * 5
        return truth_type(ok.astype(bool), sure_exact.astype(bool), err.astype(float),
                          sure.astype(bool), known.astype(bool))
    if exact:
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    return np.array(values)


__all__ = ["ROUND_BUDGET", "STEP_BUDGET", "RecursiveCall", "RecursiveEval", "RecursiveEvalTruth",
           "RecursiveTruth", "call_node", "eval_node", "evaluate"]
