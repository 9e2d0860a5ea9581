"""An example given on the command line, checked against the statement's binders.

``leanmirror check NAME --example '{…}'`` takes a JSON object of the statement's variables.
Each value must be a value of its Lean type: ``ℕ`` a non-negative integer, ``ℤ`` an integer,
``Fin n`` an integer in ``0 … n-1``, ``ℝ`` a finite number (ℝ has no NaN or ∞), ``ℝ≥0∞`` a
non-negative number or ``"inf"``, ``ℂ`` a number or ``{"re": …, "im": …}``, ``Bool``/``Prop``
``true``/``false``, and a function or vector a list of exactly the length its type gives
(``Fin n → ℝ``: ``n`` entries; ``ℕ → ℝ``: the sampled prefix). Anything else is a one-line
:class:`~bridge.errors.InvalidArgument` naming the variable, what came and what was expected.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from bridge.errors import InvalidArgument
from mirror.sample.ranges import size

#: How each kind of variable is described in messages.
KIND_NAMES = {"nat": "ℕ (an integer ≥ 0)", "int": "ℤ (an integer)", "fin": "Fin n",
              "real": "ℝ (a finite number)", "ennreal": "ℝ≥0∞ (a number ≥ 0 or \"inf\")",
              "complex": "ℂ (a number or {\"re\": …, \"im\": …})", "bool": "a boolean"}


def parse_example(plan: dict, text: str, name: str) -> dict[str, Any]:
    """The JSON object ``text``, checked against ``plan``'s variables; Lean-named values."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidArgument(f"--example {_short(text)} is not JSON ({exc}); expected an "
                              "object such as '{\"x\": 1.5}'") from None
    if not isinstance(data, dict):
        raise InvalidArgument(f"--example {_short(text)}: expected a JSON object of variables, "
                              f"got {type(data).__name__}")
    names = [entry["name"] for entry in plan["variables"]]
    missing = [n for n in names if n not in data]
    unknown = [k for k in data if k not in names]
    if missing or unknown:
        raise InvalidArgument(
            f"--example for {name}: missing {missing}, unknown {unknown}; expected exactly the "
            f"variables {names}")
    values: dict[str, Any] = {}
    for entry in plan["variables"]:
        values[entry["name"]] = _checked(entry, data[entry["name"]], values, plan["settings"],
                                         name)
    return values


def _short(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _fail(statement: str, variable: str, value: Any, expected: str) -> InvalidArgument:
    shown = json.dumps(value, ensure_ascii=False) if not isinstance(value, float) else repr(value)
    if len(shown) > 60:
        shown = shown[:60] + "…"
    return InvalidArgument(f"--example for {statement}: {variable} = {shown}; expected "
                           f"{expected}")


def _checked(entry: dict, value: Any, values: dict, settings: dict, statement: str) -> Any:
    kind, var = entry["kind"], entry["name"]
    if kind == "array":
        shape = [size(spec, values, settings) for spec in entry["shape"]]
        return _array(entry, value, shape, statement)
    expected = KIND_NAMES.get(kind, kind)
    if kind == "fin":
        n = size(entry["size"], values, settings)
        expected = f"Fin {n} (an integer in 0 … {n - 1})" if n else "Fin 0, which has no values"
        return np.asarray(_scalar("fin", value, lambda: _fail(statement, var, value, expected),
                                  upper=n))
    return np.asarray(_scalar(kind, value, lambda: _fail(statement, var, value, expected)))


def _scalar(kind: str, value: Any, error, upper: int | None = None) -> Any:
    """``value`` as a number of ``kind``, or raise ``error()``."""
    if kind in ("nat", "int", "fin"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise error()
        if kind in ("nat", "fin") and value < 0:
            raise error()
        if upper is not None and value >= upper:
            raise error()
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise error()
        return value
    if kind == "complex":
        if isinstance(value, dict) and set(value) == {"re", "im"}:
            return complex(_scalar("real", value["re"], error), _scalar("real", value["im"], error))
        return complex(_scalar("real", value, error))
    if kind == "ennreal":
        if value in ("inf", "⊤"):
            return math.inf
        number = _scalar("real", value, error)
        if number < 0:
            raise error()
        return number
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise error()
    number = float(value)
    if not math.isfinite(number):
        raise error()
    return number


def _array(entry: dict, value: Any, shape: list[int], statement: str) -> np.ndarray:
    var, elem = entry["name"], entry["elem"]
    described = " × ".join(str(n) for n in shape) or "scalar"
    expected = (f"a list of shape {described} of {KIND_NAMES.get(elem, elem)}"
                if len(shape) > 1 else f"a list of {shape[0]} {KIND_NAMES.get(elem, elem)}")
    if isinstance(value, dict) and set(value) == {"re", "im"} and elem == "complex":
        re = _array({**entry, "elem": "real"}, value["re"], shape, statement)
        im = _array({**entry, "elem": "real"}, value["im"], shape, statement)
        return re + 1j * im

    def walk(item: Any, depth: int) -> Any:
        if depth == len(shape):
            return _scalar(elem, item, lambda: _fail(statement, var, value, expected))
        if not isinstance(item, list) or len(item) != shape[depth]:
            raise _fail(statement, var, value, expected)
        return [walk(x, depth + 1) for x in item]

    nested = walk(value, 0)
    dtype = {"real": float, "ennreal": float, "complex": complex, "bool": bool}.get(elem, np.int64)
    return np.asarray(nested, dtype=dtype).reshape(shape)


__all__ = ["KIND_NAMES", "parse_example"]
