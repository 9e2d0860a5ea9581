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
        """Per draw: no value lies in the range (for reals: no finite float64,
        :func:`float_ends`)."""
        if np.asarray(self.lo).dtype.kind == "f" or np.asarray(self.hi).dtype.kind == "f":
            lo, hi = float_ends(self.lo, self.hi, self.lo_strict, self.hi_strict)
            return lo > hi
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
        lo_strict = np.where(v > lo, b["strict"], np.where(v == lo, lo_strict | b["strict"],
                                                            lo_strict))
        lo = np.maximum(lo, v)
    for b in highs:
        v = np.asarray(_bound_value(b, values), dtype=float)
        hi_strict = np.where(v < hi, b["strict"], np.where(v == hi, hi_strict | b["strict"],
                                                            hi_strict))
        hi = np.minimum(hi, v)
    if lows and not highs:
        hi = np.maximum(hi, lo + bound)
    if highs and not lows:
        lo = np.minimum(lo, hi - bound)
    lo, hi = np.asarray(lo, dtype=float) + 0.0, np.asarray(hi, dtype=float) + 0.0  # no -0.0
    if all(np.ndim(x) == 0 for x in (lo, hi, lo_strict, hi_strict)):
        return Range(float(lo), float(hi), bool(lo_strict), bool(hi_strict))
    return Range(lo, hi, lo_strict, hi_strict)


#: The largest finite float64: draws are finite, so no range reaches beyond it.
FLOAT_MAX = float(np.finfo(np.float64).max)


def float_ends(lo: Any, hi: Any, lo_strict: Any, hi_strict: Any) -> tuple[Any, Any]:
    """The closed float64 ends of the draws in ``lo … hi`` (strict ends excluded): exactly the
    finite float64 values the range holds, as ``[lo', hi']`` with ``lo' > hi'`` when it holds
    none. A strict end moves to the next float inward (``0 < x`` is ``5e-324 ≤ x`` among
    floats, and ``0 < x < 5e-324`` holds no float); an end beyond float64's range (a bound
    that overflowed, ``y ≥ x ^ 2`` at ``x = 1e300``) admits no finite float beyond it, so an
    overflowed lower end ``+inf`` empties the range and ``-inf`` opens it; ``-0.0`` is ``0``
    (ℝ has one zero) and a NaN end (a bound with no value) empties the range."""
    lo = np.asarray(lo, dtype=float)
    hi = np.asarray(hi, dtype=float)
    unknown = np.isnan(lo) | np.isnan(hi)
    lo = np.where(np.asarray(lo_strict, dtype=bool), np.nextafter(lo, np.inf), lo)
    hi = np.where(np.asarray(hi_strict, dtype=bool), np.nextafter(hi, -np.inf), hi)
    lo = np.where(unknown, np.inf, np.maximum(lo, -FLOAT_MAX)) + 0.0
    hi = np.where(unknown, -np.inf, np.minimum(hi, FLOAT_MAX)) + 0.0
    return lo, hi


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


def within_bounds(entry: dict, value: Any, values: dict) -> Any:
    """Per draw: ``value`` (a copied, computed or chosen value of ``entry``, which no range
    drew) satisfies every explicit bound of ``entry`` — the bounds its hypotheses give and
    its type's (``0 ≤ w`` for ``w : ℝ≥0``), not the default widths. ``w₂ := 1 - w₁`` from
    ``w₁ + w₂ = 1`` is no ``ℝ≥0`` value at ``w₁ = 2``."""
    value = np.asarray(value)
    inside = np.ones(value.shape, dtype=bool)
    for bound, above in [(b, True) for b in entry.get("lo", [])] + \
            [(b, False) for b in entry.get("hi", [])]:
        end = np.asarray(_bound_value(bound, values))
        if above:
            inside = inside & ((value > end) if bound["strict"] else (value >= end))
        else:
            inside = inside & ((value < end) if bound["strict"] else (value <= end))
    return inside


def element_range(entry: dict, values: dict, settings: dict) -> Range:
    """The range of an array's elements (its bounds may be drawn values)."""
    lows = [entry["elem_lo"]] if entry.get("elem_lo") else []
    highs = [entry["elem_hi"]] if entry.get("elem_hi") else []
    return _range(entry["elem"], lows, highs, entry.get("elem_size"), False, values, settings)


__all__ = ["FACTOR_DIVISIONS", "FLOAT_MAX", "INTEGER_KINDS", "Range", "float_ends", "element_range", "evaluate_tree", "scalar_range", "size",
           "within_bounds"]
