"""What one replayed example shows a person: inputs, calls, values, the relation, the verdict.

:func:`explain` runs a mirrored statement on one example through a recording runtime: every
call of a bound implementation (its Lean name, the arguments it got in Lean's order, the
value it returned) and every relation the statement evaluated (its two sides) are kept, in
order. The last relation evaluated is the conclusion's (its sides are evaluated first); with
the implementation's value on one side, its other side is Lean's value for that input. The
verdict is the replay's (float64 first, then decided exactly as a check decides).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

#: Runtime relations whose two sides the recorder keeps, and how they read.
RELATIONS = {"eq": "=", "ne": "≠", "lt": "<", "le": "≤", "array_eq": "="}
#: Entries of long vectors shown in text (the JSON output has all of them).
SHOWN_ENTRIES = 8


@dataclass
class Call:
    """One call of a bound implementation."""

    lean_name: str
    args: list[Any]
    value: Any


@dataclass
class Relation:
    """One relation the statement evaluated, with its two sides (first draw of the batch)."""

    op: str
    left: Any
    right: Any
    holds: bool | None


class Recorder:
    """A runtime that records calls and relations, delegating everything to ``runtime``."""

    def __init__(self, runtime: Any, debug: bool = False) -> None:
        self._runtime = runtime
        self._debug = debug
        self.calls: list[Call] = []
        self.relations: list[Relation] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._runtime, name)
        if name == "call":
            return self._recorded_call(attr)
        if name in RELATIONS and callable(attr):
            return self._recorded_relation(name, attr)
        return attr

    def _recorded_call(self, call: Callable) -> Callable:
        def recorded(lean_name: str, dims: tuple, *args: Any) -> Any:
            if self._debug:
                import pdb

                print(f"leanmirror: --pdb: before the call of {lean_name}; `step` twice enters "
                      "its binding, `continue` goes on", file=sys.stderr)
                pdb.set_trace()  # the user asked for the debugger (--pdb)
            value = call(lean_name, dims, *args)
            self.calls.append(Call(lean_name, [_first(a) for a in (*dims, *args)], _first(value)))
            return value
        return recorded

    def _recorded_relation(self, op: str, relation: Callable) -> Callable:
        def recorded(a: Any, b: Any, *rest: Any, **kwargs: Any) -> Any:
            truth = relation(a, b, *rest, **kwargs)
            ok = getattr(truth, "ok", None)
            holds = bool(np.asarray(ok).reshape(-1)[0]) if ok is not None else None
            self.relations.append(Relation(op, _first(a), _first(b), holds))
            return truth
        return recorded


def _first(value: Any) -> Any:
    """The first draw's value of a batched runtime value (batch axis first)."""
    arr = np.asarray(value) if not callable(value) else None
    if arr is None or arr.dtype == object:
        return value
    return arr[0] if arr.ndim else arr.item()


@dataclass
class Explanation:
    """The replay of one example, ready to print or to serialise."""

    name: str
    inputs: dict[str, Any]
    bound_to: list[str]
    calls: list[Call] = field(default_factory=list)
    relation: Relation | None = None
    verdict: str = ""
    line: str = ""
    method: str | None = None
    float_error: float | None = None
    #: A conformance row: one side is the implementation's value, the other Lean's.
    conformance: bool = False
    #: Lean name → ``module:function`` of the bound implementation.
    implementations: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        relation = None
        if self.relation is not None:
            relation = {"op": RELATIONS[self.relation.op], "left": _plain(self.relation.left),
                        "right": _plain(self.relation.right), "holds_in_float64":
                        self.relation.holds}
        return {"name": self.name, "inputs": _plain(self.inputs), "bound_to": self.bound_to,
                "implementations": self.implementations,
                "calls": [{"lean_name": c.lean_name, "args": _plain(c.args),
                           "value": _plain(c.value)} for c in self.calls],
                "conclusion_relation": relation, "verdict": self.verdict,
                "decided_by": self.method, "float_error": self.float_error,
                "summary": self.line}

    def text(self) -> str:
        lines = [f"statement: {self.name}", "inputs:"]
        lines += [f"  {k} = {_shown(v)}" for k, v in self.inputs.items()]
        for call in self.calls:
            impl = ", ".join(self.bound_to) or "its binding"
            impl = self.implementations.get(call.lean_name, impl)
            args = ", ".join(_shown(a) for a in call.args)
            lines.append(f"call: {call.lean_name}({args}) via {impl}")
            lines.append(f"  returned {_shown(call.value)}")
        if self.relation is not None:
            op = RELATIONS[self.relation.op]
            left_label, right_label = _side_labels(self)
            lines.append(f"conclusion: {left_label} {op} {right_label}")
            lines.append(f"  {left_label}: {_shown(self.relation.left)}")
            lines.append(f"  {right_label}: {_shown(self.relation.right)}")
            if self.relation.holds is not None:
                lines.append(f"  in float64 the relation {'holds' if self.relation.holds else 'fails'}"
                             + (f" (error {self.float_error:.3g})" if self.float_error else ""))
        if self.method:
            lines.append(f"decided by: {self.method}")
        lines.append(f"verdict: {self.line}")
        return "\n".join(lines)


def _side_labels(explanation: Explanation) -> tuple[str, str]:
    """``implementation`` / ``Lean's value`` for a conformance row (the implementation's value
    against the unfolded Lean definition); ``left side`` / ``right side`` otherwise."""
    relation = explanation.relation
    if relation is None or not explanation.calls or not explanation.conformance:
        return "left side", "right side"
    last = explanation.calls[-1].value
    if _same(relation.left, last):
        return "implementation", "Lean's definition in float64"
    if _same(relation.right, last):
        return "Lean's definition in float64", "implementation"
    return "left side", "right side"


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True))
    except (TypeError, ValueError):
        return False


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    arr = np.asarray(value) if not callable(value) else None
    if arr is None or arr.dtype == object:
        return str(value)
    if np.iscomplexobj(arr):
        return {"re": _plain(arr.real), "im": _plain(arr.imag)}
    if arr.dtype.kind == "f":
        return [_float(x) for x in arr.reshape(-1)] if arr.ndim else _float(arr.item())
    return arr.tolist()


def _float(x: float) -> Any:
    return x if np.isfinite(x) else str(x)


def _shown(value: Any) -> str:
    if callable(value):
        return "<function>"
    arr = np.asarray(value)
    if arr.dtype == object or arr.ndim == 0:
        return repr(arr.item()) if arr.dtype != object else str(value)
    flat = arr.reshape(-1)
    items = ", ".join(f"{x!r}" for x in flat[:SHOWN_ENTRIES].tolist())
    more = f", … ({flat.size} entries)" if flat.size > SHOWN_ENTRIES else ""
    shape = f" (shape {arr.shape})" if arr.ndim > 1 else ""
    return f"[{items}{more}]{shape}"


def explain(mirror: Any, text: str, debug: bool = False) -> Explanation:
    """Replay ``text`` on ``mirror`` (as :func:`mirror.product.replay.replay`) and record what
    the float64 run called and compared; ``debug`` stops in pdb before each bound call."""
    from mirror.bind.binding import runtime_bindings
    from mirror.evaluate.runtime import NumpyRuntime
    from mirror.judge.checks import FLOAT_TOLERANCE, evaluate
    from mirror.judge.exact import as_batch
    from mirror.product.replay import example_from_json, replay

    outcome = replay(mirror, text)
    example = example_from_json(mirror.plan, text, mirror.name)
    bindings = runtime_bindings(set(mirror.bound_to), mirror.table or {})
    recorder = Recorder(NumpyRuntime(1, mirror.plan["settings"]["nat_domain"], FLOAT_TOLERANCE,
                                     bindings), debug=debug)
    evaluate(mirror.load(), mirror.plan, as_batch(example, mirror.plan), recorder)
    inputs = {k: json.loads(json.dumps(_plain(v))) for k, v in example.items()}
    implementations = {name: getattr(b, "implementation", name)
                       for name, b in (mirror.table or {}).items()}
    return Explanation(mirror.name, inputs, list(mirror.bound_to), recorder.calls,
                       recorder.relations[-1] if recorder.relations else None,
                       outcome.verdict, outcome.line(), outcome.method, outcome.float_error,
                       conformance=getattr(mirror, "role", "") == "conformance",
                       implementations=implementations)


def attach_explanations(results: list[Any], mirrors: list[Any]) -> int:
    """Give each refuted result with a counterexample its :class:`Explanation` (as JSON);
    returns how many were attached. A replay that fails leaves its row as it is."""
    from mirror.product.pipeline import instance_mirrors

    by_name = {m.name: m for m in instance_mirrors(list(mirrors))}
    attached = 0
    for result in results:
        mirror = by_name.get(getattr(result, "name", None))
        example = getattr(result, "counterexample", None)
        if getattr(result, "mirror_status", None) != "refuted" or mirror is None or not example:
            continue
        try:
            result.explanation = explain(mirror, json.dumps(example)).to_json()
        except Exception:  # noqa: BLE001 - a display aid; the verdict stands without it
            continue
        attached += 1
    return attached


__all__ = ["Call", "Explanation", "Recorder", "Relation", "attach_explanations", "explain"]
