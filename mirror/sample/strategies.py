"""Strategies: a sampling plan (:mod:`mirror.sample.plan`) → Hypothesis examples and NumPy batches.

:func:`examples` draws one example at a time (Hypothesis shrinks it); :func:`sample_batch`
draws a batch as arrays with a leading batch axis (the vectorized sweep). Both take every
range from :mod:`mirror.sample.ranges`, so the two paths draw from the same sets.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mirror.sample.extremes import force_extremes, with_extremes
from mirror.sample.plan import PlanSettings, plan_statement
from mirror.sample.ranges import (FLOAT_MAX, INTEGER_KINDS, Range, element_range, evaluate_tree, float_ends,
                                  scalar_range, size, within_bounds)
from mirror.sample.wide import (sample_sizes, sample_wide, wide_arrays, wide_dtype, wide_reals,
                                wide_sizes)

_RELS = {"lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
         "eq": np.equal, "ne": np.not_equal}


def _apply_set_where(arr: np.ndarray, rules: list[dict], values: dict[str, Any],
                     batched: bool = False) -> np.ndarray:
    """Set (or copy from an earlier array) the entries whose indices satisfy a rule."""
    if not rules:
        return arr
    out = np.array(arr, copy=True)
    lead = 1 if batched else 0
    axes = out.shape[lead:]
    grids = np.indices(axes) if axes else np.zeros((0,), dtype=int)
    for rule in rules:
        when = rule["when"]
        if when["a"] >= len(axes):
            continue
        left = grids[when["a"]]
        if "b" in when:
            right = grids[when["b"]]
        else:
            right = np.asarray(values[when["var"]])
            if batched:
                right = right.reshape((-1,) + (1,) * len(axes))
        mask = _RELS[when["rel"]](left, right)
        value = rule["value"]
        source = np.asarray(values[value["copy"]]) if isinstance(value, dict) else value
        out = np.where(mask, source, out)
    return out


#: Magnitudes below this are drawn as 0 (or as ±TINY where 0 is excluded): under it float64
#: products underflow, and a check would say more about float64 than about the statement.
TINY = 1e-30


#: The smallest positive normal float64: below it only subnormals (and 0) are left.
_NORMAL = float(np.finfo(np.float64).smallest_normal)


def _reals(lo: float, hi: float, exclude_min: bool, exclude_max: bool) -> st.SearchStrategy:
    """Finite floats in ``[lo, hi]`` (ends excluded as asked), tiny magnitudes tamed; nothing
    when no float lies there (:func:`~mirror.sample.ranges.float_ends`: adjacent or overflowed
    ends), so the draw is rejected instead of Hypothesis raising."""
    lo, hi = (float(end) for end in float_ends(lo, hi, exclude_min, exclude_max))
    if lo > hi:
        return st.nothing()

    def tame(value: float) -> float:
        if value == 0 or abs(value) >= TINY:
            return value
        if lo <= 0 <= hi:
            return 0.0
        candidate = TINY if value > 0 else -TINY
        return candidate if lo <= candidate <= hi else value

    # subnormals only where the range holds no other float (they are tamed like any tiny value)
    only_subnormal = not (lo <= 0 <= hi or hi >= _NORMAL or lo <= -_NORMAL)
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False,
                     allow_subnormal=only_subnormal).map(tame)


def examples(plan: dict[str, Any]) -> st.SearchStrategy:
    """A Hypothesis strategy for one example of ``plan`` (name → value). The strategy of a
    variable whose range reads no drawn value is built once, not at every example."""
    settings = plan["settings"]
    fixed = [None if _reads_values(entry) else _entry_strategy(entry, {}, settings)
             for entry in plan["variables"]]

    @st.composite
    def example(draw) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for entry, strategy in zip(plan["variables"], fixed):
            if strategy is None:
                strategy = _entry_strategy(entry, values, settings)
            values[entry["name"]] = draw(strategy)
        return values

    return example()


def stack(draws: list[dict[str, Any]], plan: dict[str, Any]) -> dict[str, np.ndarray]:
    """Draws of one shape (:func:`group_by_shape`) as a batch keyed by parameter name."""
    return {entry["param"]: np.stack([np.asarray(draw[entry["name"]]) for draw in draws])
            for entry in plan["variables"]}


def unambiguous_size(draws: list[dict[str, Any]]) -> int:
    """A batch size at least ``len(draws)`` that is no axis length of a drawn array and no
    small integer drawn: a runtime takes an array whose first axis is as long as the batch for
    per-draw values, so a batch of 2 beside a ``2 × 4`` constant matrix would be misread."""
    avoid: set[int] = set()
    for draw in draws:
        for value in draw.values():
            arr = np.asarray(value)
            avoid.update(arr.shape)
            if arr.ndim == 0 and arr.dtype.kind in "iu" and 0 <= int(arr) <= 1 << 12:
                avoid.add(int(arr))
    size = len(draws)
    while size in avoid:
        size += 1
    return size


def group_by_shape(draws: list[dict[str, Any]],
                   plan: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """``draws`` in groups that :func:`stack` can batch (same shapes and dtypes per variable),
    in order of first appearance."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for draw in draws:
        arrays = (np.asarray(draw[entry["name"]]) for entry in plan["variables"])
        groups.setdefault(tuple((a.shape, a.dtype.str) for a in arrays), []).append(draw)
    return list(groups.values())


#: Plan keys through which an entry reads earlier draws (bounds, sizes, copies, rules).
_VALUE_KEYS = frozenset({"var", "expr", "copy", "value", "set_where"})


def _reads_values(node: Any) -> bool:
    if isinstance(node, dict):
        return any(key in _VALUE_KEYS or _reads_values(item) for key, item in node.items())
    if isinstance(node, list):
        return any(_reads_values(item) for item in node)
    return False


def _entry_strategy(entry: dict, values: dict, settings: dict) -> st.SearchStrategy:
    kind = entry["kind"]
    if "copy" in entry or "value" in entry or "choices" in entry:
        return _given_strategy(entry, values)
    wide = wide_dtype(settings)
    if kind in INTEGER_KINDS or kind in ("real", "ennreal"):
        span = scalar_range(entry, values, settings)
        if wide and entry["dimension"] and not span.empty():
            return wide_sizes(int(span.lo), int(span.hi))
        return with_extremes(_range_strategy(span, kind, entry["hi"], wide), span, kind,
                             settings)
    if kind == "array":
        shape = tuple(size(s, values, settings) for s in entry["shape"])
        elements = _element_strategy(entry, settings, values)
        dtype = {"real": float, "complex": complex, "nat": np.int64, "int": np.int64,
                 "fin": np.int64, "bool": bool, "ennreal": float}[entry["elem"]]
        span = element_range(entry, values, settings) if entry["elem"] == "real" else None
        if wide and span is not None and "fill" not in entry and not span.empty():
            arr = wide_arrays(shape, elements, float(span.lo), float(span.hi),
                              bool(span.lo_strict), bool(span.hi_strict), wide)
        else:
            arr = hnp.arrays(dtype, shape, elements=elements)
        rules = entry.get("set_where", [])
        return arr.map(lambda a: _apply_set_where(a, rules, values))
    return _free_strategy(kind, settings)


def _given_strategy(entry: dict, values: dict) -> st.SearchStrategy:
    """A copied, computed or chosen value: only where it keeps the entry's explicit bounds
    (:func:`~mirror.sample.ranges.within_bounds`), else the draw is rejected."""
    if "copy" in entry:
        given = [values[entry["copy"]]]
    elif "value" in entry:
        value = evaluate_tree(entry["value"], values)
        given = [value.item() if isinstance(value, np.generic | np.ndarray) else value]
    else:
        given = list(entry["choices"])
    if entry["kind"] in SCALAR_KINDS:
        given = [g for g in given if bool(within_bounds(entry, g, values))]
    return st.sampled_from(given) if given else st.nothing()


#: Kinds of scalar draws (their bounds are ``lo``/``hi``).
SCALAR_KINDS = (*INTEGER_KINDS, "real", "ennreal")


def _free_strategy(kind: str, settings: dict) -> st.SearchStrategy:
    """Kinds no constraint narrows: complex numbers and booleans."""
    if kind == "complex":
        bound = settings["real_bound"]
        part = _reals(-bound, bound, False, False)
        return st.builds(complex, part, part)
    if kind == "bool":
        return st.booleans()
    raise ValueError(f"no strategy for kind {kind!r}")


def _range_strategy(span: Range, kind: str, upper, wide: str | None = None
                    ) -> st.SearchStrategy:
    """Integers or reals in ``span`` (nothing when it is empty); ``wide``: the dtype of the
    wide draws (:mod:`mirror.sample.wide`) for reals."""
    if span.empty():
        return st.nothing()
    if kind in INTEGER_KINDS:
        return st.integers(int(span.lo), int(span.hi))
    ends = (float(span.lo), float(span.hi), bool(span.lo_strict), bool(span.hi_strict))
    if wide and kind == "real":
        return wide_reals(*ends, wide)
    finite = _reals(*ends)
    return _with_top(finite, kind, upper)


def _element_strategy(entry: dict, settings: dict, values: dict) -> st.SearchStrategy:
    elem = entry["elem"]
    if "fill" in entry:
        return st.just(entry["fill"])
    if elem in ("complex", "bool"):
        return _free_strategy(elem, settings)
    span = element_range(entry, values, settings)
    return with_extremes(_range_strategy(span, elem, entry.get("elem_hi"), wide_dtype(settings)),
                         span, elem, settings)


#: Share of ``ℝ≥0∞`` draws that are ``⊤`` (``inf``).
TOP_SHARE = 0.1


def _with_top(finite: st.SearchStrategy, kind: str, upper) -> st.SearchStrategy:
    """``ℝ≥0∞`` draws include ``⊤`` (unless an upper bound excludes it)."""
    if kind != "ennreal" or upper:
        return finite
    return st.one_of(finite, st.just(float("inf")))


def _mix_top(rng, x: np.ndarray, kind: str, upper) -> np.ndarray:
    if kind != "ennreal" or upper:
        return x
    return np.where(rng.random(x.shape) < TOP_SHARE, np.inf, x)


def sample_batch(plan: dict[str, Any], rng: np.random.Generator, batch: int) -> dict[str, Any]:
    """``batch`` draws of ``plan`` as arrays with a leading batch axis (dimensions shared).

    Values that fail their constraints (an empty range) come back masked in ``"__valid__"``.
    """
    settings = plan["settings"]
    values: dict[str, Any] = {}
    valid = np.ones(batch, dtype=bool)
    for entry in plan["variables"]:
        kind = entry["kind"]
        name = entry["name"]
        if "copy" in entry:
            values[name] = np.array(values[entry["copy"]], copy=True)
        elif "value" in entry:
            values[name] = np.zeros(batch, dtype=float if kind == "real" else np.int64) + \
                evaluate_tree(entry["value"], values)
        elif "choices" in entry:
            values[name] = rng.choice(np.asarray(entry["choices"]), size=batch)
        elif kind in INTEGER_KINDS and entry["dimension"]:
            # one dimension per batch: arrays of one batch share their shapes
            firsts = {k: v[0] if isinstance(v, np.ndarray) else v for k, v in values.items()}
            span = scalar_range(entry, firsts, settings)
            drawn = (sample_sizes(rng, span.lo, max(span.lo, span.hi)) if wide_dtype(settings)
                     else rng.integers(span.lo, max(span.lo, span.hi) + 1))
            values[name] = np.full(batch, drawn, dtype=np.int64)
            valid &= not span.empty()
        elif kind in INTEGER_KINDS or kind in ("real", "ennreal"):
            span = scalar_range(entry, values, settings)
            valid &= ~np.broadcast_to(span.empty(), (batch,))
            drawn = _sample_range(rng, span, (batch,), kind, entry["hi"], wide_dtype(settings))
            values[name] = force_extremes(rng, drawn, span, kind, settings)
        elif kind == "array":
            firsts = {k: (v[0] if isinstance(v, np.ndarray) else v) for k, v in values.items()}
            shape = tuple(size(s, firsts, settings) for s in entry["shape"])
            elements, empty = _sample_elements(entry, rng, (batch, *shape), settings, values)
            valid &= ~np.broadcast_to(empty, (batch,))
            values[name] = _apply_set_where(elements, entry.get("set_where", []), values,
                                            batched=True)
        else:
            values[name] = _sample_free(rng, kind, (batch,), settings)
        if {"copy", "value", "choices"} & set(entry) and kind in SCALAR_KINDS:
            valid &= np.broadcast_to(within_bounds(entry, values[name], values), (batch,))
    values["__valid__"] = valid
    return values


def _sample_free(rng, kind: str, shape: tuple, settings: dict) -> np.ndarray:
    """Complex numbers and booleans (:func:`_free_strategy`'s sets)."""
    if kind == "complex":
        bound = min(settings["real_bound"], 1e300)  # (a wide plan's bound is float64's max)
        return rng.uniform(-bound, bound, shape) + 1j * rng.uniform(-bound, bound, shape)
    if kind == "bool":
        return rng.random(shape) < 0.5
    raise ValueError(f"no sampler for kind {kind!r}")


def _sample_range(rng, span: Range, shape: tuple, kind: str, upper,
                  wide: str | None = None) -> np.ndarray:
    """Uniform draws in ``span`` (bounds per draw along the leading axis), with the special
    values of :func:`_special_mix` for reals. Draws of an empty range are garbage (the caller
    masks them)."""
    per_draw = (-1,) + (1,) * (len(shape) - 1)

    def spread(bound):
        arr = np.asarray(bound, dtype=float)
        return np.broadcast_to(arr.reshape(per_draw) if arr.ndim else arr, shape)

    lo, hi = spread(span.lo), spread(span.hi)
    if kind not in INTEGER_KINDS:  # an overflowed end bounds no finite float: draws are finite
        lo, hi = np.maximum(lo, -FLOAT_MAX), np.minimum(hi, FLOAT_MAX)
    if kind in INTEGER_KINDS:
        width = np.maximum(hi - lo + 1, 1)
        return (lo + np.floor(rng.random(shape) * width)).astype(np.int64)
    lo_strict, hi_strict = spread(span.lo_strict).astype(bool), spread(span.hi_strict).astype(bool)
    if wide and kind == "real":
        narrow_lo, narrow_hi = np.maximum(lo, -5.0), np.minimum(hi, 5.0)
        narrow_hi = np.where(narrow_lo < narrow_hi, narrow_hi, hi)
        narrow_lo = np.where(narrow_lo < narrow_hi, narrow_lo, lo)
        x = narrow_lo + rng.random(shape) * (narrow_hi - narrow_lo)
        return sample_wide(rng, x, lo, hi, lo_strict, hi_strict, wide)
    x = _special_mix(rng, _uniform(rng.random(shape), lo, hi), lo, hi, lo_strict, hi_strict)
    return _mix_top(rng, x, kind, upper)


def _uniform(r: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``lo + r · (hi − lo)`` without overflow where the width passes float64's maximum
    (``[-1e308, 1e308]``); an empty range (``lo > hi``, masked by the caller) gives garbage
    silently."""
    with np.errstate(all="ignore"):
        width = hi - lo
        return np.where(np.isfinite(width), lo + r * width, lo * (1 - r) + hi * r)


def _special_mix(rng, x, lo, hi, lo_strict, hi_strict):
    """Mix in 0, ±1 and the bounds now and then: the values junk cases live at (never a
    bound the constraints exclude)."""
    pick = rng.random(x.shape)
    special = np.choose(rng.integers(0, 4, x.shape), [np.zeros_like(x), np.ones_like(x),
                                                      -np.ones_like(x), lo])
    above = np.where(lo_strict, special > lo, special >= lo)
    below = np.where(hi_strict, special < hi, special <= hi)
    out = np.where((pick < 0.1) & above & below, special, x)
    out = np.where(lo_strict & (out <= lo), np.nextafter(lo, np.inf), out)
    return np.where(hi_strict & (out >= hi), np.nextafter(hi, -np.inf), out)


def _sample_elements(entry: dict, rng, shape: tuple, settings: dict,
                     values: dict) -> tuple[np.ndarray, Any]:
    """An array's elements, and per draw whether their range is empty (those are garbage)."""
    elem = entry["elem"]
    if "fill" in entry:
        return np.full(shape, entry["fill"], dtype=complex if elem == "complex" else float), False
    if elem in ("complex", "bool"):
        return _sample_free(rng, elem, shape, settings), False
    span = element_range(entry, values, settings)
    drawn = _sample_range(rng, span, shape, elem, entry.get("elem_hi"), wide_dtype(settings))
    return force_extremes(rng, drawn, span, elem, settings), span.empty()


__all__ = ["PlanSettings", "evaluate_tree", "examples", "group_by_shape", "plan_statement",
           "sample_batch", "stack", "unambiguous_size"]
