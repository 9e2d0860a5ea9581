"""Ranges of drawn values: one place for the scalar (Hypothesis) and batched (NumPy) draws.

A plan entry's bounds are dicts (``{"const"}``, ``{"var", "offset"}`` or ``{"expr": tree}``,
each with ``strict``) over earlier variables; :func:`evaluate_tree` evaluates a bound tree on
drawn values, scalars or batch arrays alike. :func:`scalar_range` and :func:`element_range`
give the :class:`Range` of a scalar variable and of an array's elements from the plan's
settings and those bounds; both draw paths read them from here.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from mirror.translate.digits import digit_length

#: Kinds drawn as integers.
INTEGER_KINDS = ("nat", "int", "fin")
#: Stands for "no bound" in integer bound arithmetic (far beyond any drawn value).
_NO_BOUND = 1 << 30


class Range(NamedTuple):
    """``[lo, hi]`` of a draw (ints/floats, or arrays with one bound per draw), each end
    excluded when its ``*_strict`` flag says so (integer ranges are always closed)."""

    lo: Any
    hi: Any
    lo_strict: Any = False
    hi_strict: Any = False

    def empty(self) -> Any:
        """Per draw: no value lies in the range."""
        return (self.lo > self.hi) | ((self.lo == self.hi) & (self.lo_strict | self.hi_strict))

#: Bounds on ``x`` from ``x · b ≤ a`` (or ``≥``) for a factor ``b`` of unknown sign:
#: ``op → (a / b rounded, the sign of b it holds for, bounds from above)``. Where ``b`` has the
#: other sign (or is 0) the op gives no bound; the opposite op covers it.
FACTOR_DIVISIONS = {
    f"{sign}_{name}": (quotient, positive, upper)
    for sign, positive in (("pos", True), ("neg", False))
    for name, quotient, upper in (
        ("floordiv", lambda a, b: a // b, True),
        ("ceildiv", lambda a, b: -((-a) // b), False),
        ("upper_div", lambda a, b: a / b, True),
        ("lower_div", lambda a, b: a / b, False),
    )
}


def evaluate_tree(tree: dict, values: dict[str, Any]) -> Any:
    """Evaluate a bound tree on drawn values (scalars or batch arrays)."""
    if "const" in tree:
        return tree["const"]
    if "var" in tree:
        return values[tree["var"]]
    a, b = (evaluate_tree(arg, values) for arg in tree["args"])
    op = tree["op"]
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "nat_sub":
        return np.maximum(np.asarray(a) - np.asarray(b), 0)
    if op == "mul":
        return a * b
    if op == "pow":  # ℕ exponent on integers
        return np.asarray(a, dtype=np.int64) ** np.asarray(b, dtype=np.int64)
    if op == "rpow":
        # Real.rpow with its junk values; on integer exponents it is also Monoid.npow/zpow
        from mirror.evaluate.runtime import NumpyRuntime

        return NumpyRuntime(1, 1).rpow(a, b)
    b_arr = np.asarray(b)
    if op in FACTOR_DIVISIONS:
        quotient, positive, upper = FACTOR_DIVISIONS[op]
        applies = b_arr > 0 if positive else b_arr < 0
        return np.where(applies, quotient(np.asarray(a), np.where(applies, b_arr, 1)),
                        _NO_BOUND if upper else -_NO_BOUND)
    if op == "int_div":  # ℕ division (floor), n / 0 = 0
        safe = np.where(b_arr == 0, 1, b_arr)
        return np.where(b_arr == 0, 0, np.asarray(a) // safe)
    if op == "digit_length":  # (Nat.digits a b).length
        return np.vectorize(digit_length, otypes=[np.int64])(np.asarray(a, dtype=np.int64), b_arr)
    if op == "int_ediv":  # ℤ division (Int.ediv): a / b = sign b · ⌊a / |b|⌋, a / 0 = 0
        safe = np.where(b_arr == 0, 1, np.abs(b_arr))
        return np.where(b_arr == 0, 0, np.sign(b_arr) * (np.asarray(a) // safe))
    safe = np.where(b_arr == 0, 1.0, b_arr)
    return np.where(b_arr == 0, 0.0, np.asarray(a) / safe)


def _bound_value(bound: dict, values: dict[str, Any]) -> Any:
    if "const" in bound:
        return bound["const"]
    if "expr" in bound:
        return evaluate_tree(bound["expr"], values)
    return values[bound["var"]] + bound["offset"]


def size(spec: dict, values: dict, settings: dict) -> int:
    """An array dimension or ``Fin`` size (one value per batch: the sweep draws dimensions
    once per batch)."""
    if "nat_domain" in spec:
        return settings["nat_domain"]
    if "const" in spec:
        return spec["const"]
    value = evaluate_tree(spec["expr"], values) if "expr" in spec else values[spec["var"]]
    value = np.asarray(value)
    return int(value.reshape(-1)[0]) if value.ndim else int(value)


def _int_defaults(kind: str, size_spec: dict | None, dimension: bool, values: dict,
                  settings: dict) -> tuple[int, int]:
    if dimension:
        return settings["dim_min"], settings["dim_max"]
    if kind == "fin":
        return 0, size(size_spec, values, settings) - 1
    if kind == "int":
        return -settings["int_max"], settings["int_max"]
    return 0, settings["nat_max"]


def _int_range(lows: list[dict], highs: list[dict], values: dict, default_lo: int,
               default_hi: int) -> Range:
    """An integer draw's range: ints for scalar ``values``, int64 arrays (one bound per draw)
    for batched ones."""
    lo: Any = default_lo
    hi: Any = default_hi
    for b in lows:
        v = np.asarray(_bound_value(b, values))
        lo = np.maximum(lo, np.floor(v).astype(np.int64) + 1 if b["strict"]
                        else np.ceil(v).astype(np.int64))
    for b in highs:
        v = np.asarray(_bound_value(b, values))
        hi = np.minimum(hi, np.ceil(v).astype(np.int64) - 1 if b["strict"]
                        else np.floor(v).astype(np.int64))
    if highs and not lows and default_lo < 0:
        lo = np.minimum(lo, hi)
    if np.ndim(lo) == 0 and np.ndim(hi) == 0:
        return Range(int(lo), int(hi))
    return Range(lo, hi)


def _real_range(lows: list[dict], highs: list[dict], values: dict, bound: float) -> Range:
    """A real draw's range: the tightest bound wins; an end with no bound lies ``bound``
    beyond the other (arrays when ``values`` are batched)."""
    lo: Any = -bound
    hi: Any = bound
    lo_strict: Any = False
    hi_strict: Any = False
    for b in lows:
        v = np.asarray(_bound_value(b, values), dtype=float)
        lo_strict = np.where(v >= lo, b["strict"], lo_strict)
        lo = np.maximum(lo, v)
    for b in highs:
        v = np.asarray(_bound_value(b, values), dtype=float)
        hi_strict = np.where(v <= hi, b["strict"], hi_strict)
        hi = np.minimum(hi, v)
    if lows and not highs:
        hi = np.maximum(hi, lo + bound)
    if highs and not lows:
        lo = np.minimum(lo, hi - bound)
    if all(np.ndim(x) == 0 for x in (lo, hi, lo_strict, hi_strict)):
        return Range(float(lo), float(hi), bool(lo_strict), bool(hi_strict))
    return Range(lo, hi, lo_strict, hi_strict)


def _range(kind: str, lows: list[dict], highs: list[dict], size_spec: dict | None,
           dimension: bool, values: dict, settings: dict) -> Range:
    if kind in INTEGER_KINDS:
        defaults = _int_defaults(kind, size_spec, dimension, values, settings)
        return _int_range(lows, highs, values, *defaults)
    return _real_range(lows, highs, values, settings["real_bound"])


def scalar_range(entry: dict, values: dict, settings: dict) -> Range:
    """The range of a scalar ``nat``/``fin``/``int``/``real``/``ennreal`` variable."""
    return _range(entry["kind"], entry["lo"], entry["hi"], entry.get("size"),
                  entry["dimension"], values, settings)


def element_range(entry: dict, values: dict, settings: dict) -> Range:
    """The range of an array's elements (its bounds may be drawn values)."""
    lows = [entry["elem_lo"]] if entry.get("elem_lo") else []
    highs = [entry["elem_hi"]] if entry.get("elem_hi") else []
    return _range(entry["elem"], lows, highs, entry.get("elem_size"), False, values, settings)


__all__ = ["FACTOR_DIVISIONS", "INTEGER_KINDS", "Range", "element_range", "evaluate_tree", "scalar_range", "size"]
