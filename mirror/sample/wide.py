"""Wide draws: values where numerical kernels break, for a kernel's conformance.

A plan whose settings carry ``"draws": {"magnitude": "wide", "dtype": …}`` (see
:func:`widened`) draws reals over the dtype's whole range instead of ``[-5, 5]``:

- magnitudes log-uniform from the smallest subnormal to the largest finite, both signs;
- special values: ±0, the smallest subnormal and normal, the largest finite, the edges of
  ``exp`` overflow/underflow (≈ ±709.78 / −745.13 in float64, ≈ 88.72 in float32), values next
  to ±1 (where ``log(1 + x)``-style cancellation lives) and tiny values next to 0;
- structured vectors: constant, one-hot, nearly equal entries, a large common offset with a
  small spread, a huge dynamic range within one vector.

Sizes range over ``0 … hi`` (the binding's ``sizes``), mostly small with the sizes kernels
break at (powers of two and their neighbours, chunk remainders). Every strategy lists its
narrowest branch first, so Hypothesis still shrinks a failure to a small, plain input. Draws
outside the entry's range are clipped into it (ends excluded as the range says), so the
plan's constraints and the binding's domain still hold.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
from hypothesis import strategies as st

#: The sizes kernels break at, drawn beside the small ones (those within the range).
EDGE_SIZES = (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129,
              255, 256, 257, 511, 512, 1000, 1023, 1024, 1025, 2047, 2048, 4095, 4096)
#: The narrow branch: the old uniform draws in ``[-NARROW, NARROW]``.
NARROW = 5.0


def numpy_dtype(name: str) -> np.dtype:
    """The NumPy dtype named ``name`` (``bfloat16`` from ``ml_dtypes``)."""
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def round_to(values: Any, dtype: str) -> np.ndarray:
    """Float ``values`` rounded to ``dtype`` and read back as float64 (others unchanged)."""
    arr = np.asarray(values)
    if dtype == "float64" or arr.dtype.kind != "f":
        return arr
    with np.errstate(all="ignore"):
        return arr.astype(numpy_dtype(dtype)).astype(np.float64)


@lru_cache(maxsize=None)
def dtype_range(dtype: str) -> dict[str, float]:
    """``tiny`` (smallest subnormal), ``normal`` (smallest normal), ``max``, ``eps`` and
    ``exp_hi``/``exp_lo`` (where ``exp`` overflows / underflows to 0) of ``dtype``."""
    if dtype == "bfloat16":
        import ml_dtypes

        info = ml_dtypes.finfo(ml_dtypes.bfloat16)
    else:
        info = np.finfo(np.dtype(dtype))
    top = float(info.max)
    normal = float(info.smallest_normal)
    tiny = float(info.smallest_subnormal)
    return {"tiny": tiny, "normal": normal, "max": top, "eps": float(info.eps),
            "exp_hi": math.log(top), "exp_lo": math.log(tiny)}


@lru_cache(maxsize=None)
def specials(dtype: str) -> tuple[float, ...]:
    """The special values of :mod:`this module <mirror.sample.wide>` at ``dtype``."""
    r = dtype_range(dtype)
    eps = r["eps"]
    edge = [r["exp_hi"], np.nextafter(r["exp_hi"], np.inf), r["exp_lo"], -r["exp_hi"],
            r["exp_hi"] / 2, 2 * r["exp_hi"]]
    values = [0.0, -0.0, r["tiny"], -r["tiny"], r["normal"], -r["normal"], r["max"], -r["max"],
              1.0, -1.0, 1 + eps, 1 - eps / 2, -1 + eps / 2, -1 - eps, eps, -eps, eps / 4,
              math.sqrt(r["max"]), math.sqrt(r["normal"]), *edge]
    return tuple(float(np.float64(v)) for v in values)


def _pow10(exponent: Any) -> Any:
    """``10 ** exponent`` (an overflow is ``inf``, clipped into the range afterwards)."""
    with np.errstate(all="ignore"):
        return np.power(10.0, np.asarray(exponent, dtype=float))


def _quiet(function):
    """``function`` with floating-point warnings off (an overflow is clipped after)."""

    def quiet(*args):
        with np.errstate(all="ignore"):
            return function(*args)

    return quiet


def _clip(value: Any, lo: float, hi: float, lo_strict: bool, hi_strict: bool) -> Any:
    """``value`` (a float or an array) moved into ``[lo, hi]`` (ends excluded as asked)."""
    low = float(np.nextafter(lo, np.inf)) if lo_strict else lo
    high = float(np.nextafter(hi, -np.inf)) if hi_strict else hi
    out = np.clip(value, low, high)
    return float(out) if np.ndim(out) == 0 else out


def wide_reals(lo: float, hi: float, lo_strict: bool, hi_strict: bool,
               dtype: str) -> st.SearchStrategy:
    """One real in ``[lo, hi]`` from the wide mixture (narrow branch first)."""
    r = dtype_range(dtype)
    lo, hi = max(lo, -r["max"]), min(hi, r["max"])
    clip = (lambda v: _clip(v, lo, hi, lo_strict, hi_strict))
    narrow_lo, narrow_hi = max(lo, -NARROW), min(hi, NARROW)
    branches = []
    if narrow_lo < narrow_hi:
        branches.append(st.floats(narrow_lo, narrow_hi, allow_nan=False,
                                  allow_infinity=False).map(clip))
    low_exp, high_exp = math.log10(r["tiny"]), math.log10(r["max"])
    branches.append(st.tuples(st.sampled_from([1.0, -1.0]),
                              st.floats(low_exp, high_exp)).map(
        lambda p: clip(p[0] * _pow10(p[1]))))
    inside = [v for v in specials(dtype) if lo <= v <= hi]
    if inside:
        branches.append(st.sampled_from(inside).map(clip))
    width = 16 if dtype == "float16" else 32 if dtype in ("float32", "bfloat16") else 64
    bits = np.dtype({16: np.float16, 32: np.float32, 64: np.float64}[width])
    f_lo, f_hi = float(np.asarray(lo).astype(bits)), float(np.asarray(hi).astype(bits))
    f_lo = f_lo if f_lo >= lo else float(np.nextafter(np.asarray(f_lo, bits), np.inf))
    f_hi = f_hi if f_hi <= hi else float(np.nextafter(np.asarray(f_hi, bits), -np.inf))
    normal = float(np.finfo(bits).smallest_normal)
    if f_lo <= f_hi:
        branches.append(st.floats(f_lo, f_hi, allow_nan=False, allow_infinity=False,
                                  width=width,
                                  allow_subnormal=f_lo < normal and f_hi > -normal).map(clip))
    return st.one_of(*branches)


def wide_arrays(shape: tuple, element: st.SearchStrategy, lo: float, hi: float,
                lo_strict: bool, hi_strict: bool, dtype: str) -> st.SearchStrategy:
    """An array of ``shape``: independent draws in ``[-5, 5] ∩ [lo, hi]`` first (``element``
    where that is empty), then the structured vectors (constant, one-hot, nearly equal,
    large offset, wide dynamic range: independent magnitudes over the dtype's range)."""
    from hypothesis.extra import numpy as hnp

    r = dtype_range(dtype)
    size = int(np.prod(shape)) if shape else 1
    clip = (lambda a: np.asarray(_clip(a, max(lo, -r["max"]), min(hi, r["max"]),
                                       lo_strict, hi_strict), dtype=float).reshape(shape))
    # plain entries drawn as the narrow draws are (as fast): the wide magnitudes of single
    # entries come from the patterns below, built in NumPy
    narrow_lo, narrow_hi = max(lo, -NARROW), min(hi, NARROW)
    if narrow_lo < narrow_hi:
        element = st.floats(narrow_lo, narrow_hi, allow_nan=False, allow_infinity=False,
                            exclude_min=lo_strict and narrow_lo == lo,
                            exclude_max=hi_strict and narrow_hi == hi)
    plain = hnp.arrays(float, shape, elements=element)
    if size == 0:
        return plain
    # the structured vectors are built in NumPy from one seed (two Hypothesis choices):
    # as fast to draw as the plain ones
    build = _quiet(lambda p: clip(_structured(p[0], np.random.default_rng(p[1]), size, dtype)))
    patterns = [plain, st.tuples(st.sampled_from(STRUCTURES),
                                 st.integers(0, 2 ** 32 - 1)).map(build)]
    return st.one_of(*patterns)


#: The structured vectors of :func:`wide_arrays`.
STRUCTURES = ("constant", "one-hot", "nearly equal", "offset", "dynamic range")


def _wide_value(rng: np.random.Generator, dtype: str) -> float:
    """One value of the wide mixture (log-uniform magnitude, or a special value)."""
    r = dtype_range(dtype)
    if rng.random() < 0.3:
        values = specials(dtype)
        return values[rng.integers(len(values))]
    sign = -1.0 if rng.random() < 0.5 else 1.0
    return sign * float(_pow10(rng.uniform(math.log10(r["tiny"]), math.log10(r["max"]))))


def _structured(kind: str, rng: np.random.Generator, size: int, dtype: str) -> np.ndarray:
    """A structured vector of ``size`` entries (before clipping into the range)."""
    r = dtype_range(dtype)
    value = _wide_value(rng, dtype)
    if kind == "constant":
        return np.full(size, value)
    if kind == "one-hot":
        out = np.full(size, rng.choice([0.0, -NARROW, NARROW]))
        out[rng.integers(size)] = value
        return out
    if kind == "nearly equal":
        return value * (1 + rng.integers(-4, 5, size) * r["eps"])
    if kind == "offset":
        power = rng.uniform(3, math.log10(r["max"]) - 1)
        return rng.choice([-1.0, 1.0]) * _pow10(power) + rng.uniform(-1, 1, size)
    signs = np.where(rng.random(size) < 0.5, -1.0, 1.0)
    return signs * _pow10(rng.uniform(math.log10(r["tiny"]), math.log10(r["max"]), size))


def wide_sizes(lo: int, hi: int) -> st.SearchStrategy:
    """A dimension in ``[lo, hi]``: mostly small, sometimes an edge size (shrinks to ``lo``)."""
    small = st.integers(lo, min(hi, lo + 8))
    edges = [s for s in EDGE_SIZES if lo <= s <= hi and s > lo + 8]
    if hi > lo + 8 and hi not in edges:
        edges.append(hi)
    # three small draws to one edge size: large sizes are costly to decide exactly
    return st.one_of(small, small, small, st.sampled_from(edges)) if edges else small


#: Kinds of plan entries :func:`seeds` knows how to fill.
_SEEDED = ("real", "array", "nat", "fin")


def _const_range(entry: dict, array: bool) -> tuple[float, float] | None:
    """The constant ``[lo, hi]`` of a real entry (strict ends moved inside); ``None`` when a
    bound reads drawn values."""
    lows = [entry.get("elem_lo")] if array else entry["lo"]
    highs = [entry.get("elem_hi")] if array else entry["hi"]
    lo, hi = -math.inf, math.inf
    for bound, upper in [(b, False) for b in lows if b] + [(b, True) for b in highs if b]:
        if "const" not in bound:
            return None
        value = float(bound["const"])
        if bound["strict"]:
            value = float(np.nextafter(value, -np.inf if upper else np.inf))
        lo, hi = (lo, min(hi, value)) if upper else (max(lo, value), hi)
    return lo, hi


def seeds(plan: dict[str, Any], dtype: str) -> list[dict[str, Any]]:
    """Some twenty small examples at the places kernels break, tried before the search:
    every real the same special value (past ``exp``'s overflow, tiny, huge, the largest
    finite) at dimensions 1 then 2, vectors with a large common offset, a one-hot vector;
    indices 0.
    Empty when the plan has entries these cannot fill (copies, choices, masks, bounds on
    drawn values)."""
    r = dtype_range(dtype)
    values = [float(np.nextafter(r["exp_hi"], np.inf)), -r["exp_hi"] - 1, 1e-17, r["eps"],
              math.sqrt(r["max"]) * 2, r["max"], -r["max"], r["tiny"], 0.0]
    shapes = [("constant", v, n) for n in (1, 2) for v in values] + [
        ("offset", 1e8, 3), ("offset", 1e15, 3), ("one-hot", r["exp_hi"] + 1, 2)]
    out = []
    for pattern, value, size in shapes:
        example = _seed(plan, pattern, value, size)
        if example is None:
            return []
        out.append(example)
    return out


def _seed(plan: dict, pattern: str, value: float, size: int) -> dict[str, Any] | None:
    example: dict[str, Any] = {}
    for entry in plan["variables"]:
        kind = entry["kind"]
        if kind not in _SEEDED or any(k in entry for k in ("copy", "value", "choices",
                                                          "set_where", "fill")):
            return None
        if kind in ("nat", "fin"):
            if entry["lo"] or entry["hi"]:
                return None
            example[entry["name"]] = size if entry["dimension"] else 0
            continue
        array = kind == "array"
        if array and entry.get("elem") != "real":
            return None
        span = _const_range(entry, array)
        if span is None:
            return None
        if not array:
            example[entry["name"]] = float(np.clip(value, *span))
            continue
        dims = []
        for spec in entry["shape"]:
            if "var" in spec and spec["var"] in example:
                dims.append(int(example[spec["var"]]))
            elif "const" in spec:
                dims.append(int(spec["const"]))
            else:
                return None
        count = int(np.prod(dims))
        flat = {"constant": np.full(count, value),
                "offset": value + np.arange(count, dtype=float),
                "one-hot": np.where(np.arange(count) == 0, value, 0.0)}[pattern]
        example[entry["name"]] = np.clip(flat, *span).reshape(dims)
    return example


def sample_wide(rng: np.random.Generator, x: np.ndarray, lo, hi, lo_strict, hi_strict,
                dtype: str) -> np.ndarray:
    """The batched form of :func:`wide_reals`: ``x`` (uniform draws in the range) with a
    third of its entries log-uniform over the dtype's range and a tenth special values."""
    r = dtype_range(dtype)
    pick = rng.random(x.shape)
    magnitude = _pow10(rng.uniform(math.log10(r["tiny"]), math.log10(r["max"]), x.shape))
    signed = np.where(rng.random(x.shape) < 0.5, -magnitude, magnitude)
    special = np.asarray(specials(dtype))[rng.integers(0, len(specials(dtype)), x.shape)]
    out = np.where(pick < 0.3, signed, np.where(pick < 0.4, special, x))
    top = r["max"]
    low = np.where(lo_strict, np.nextafter(lo, np.inf), lo)
    high = np.where(hi_strict, np.nextafter(hi, -np.inf), hi)
    return np.clip(out, np.maximum(low, -top), np.minimum(high, top))


def sample_sizes(rng: np.random.Generator, lo: int, hi: int) -> int:
    """The batched form of :func:`wide_sizes` (one size per batch)."""
    edges = [s for s in EDGE_SIZES if lo <= s <= hi]
    if edges and rng.random() < 0.3:
        return int(rng.choice(edges))
    return int(rng.integers(lo, min(hi, lo + 8) + 1))


def widened(plan: dict[str, Any], dtype: str, sizes: tuple[int, int],
            magnitude: str = "wide") -> dict[str, Any]:
    """A copy of ``plan`` drawing wide values at ``dtype`` with dimensions in ``sizes``.

    A dimension some index (``Fin n``) is drawn in starts at 1: ``Fin 0`` has no index."""
    lo, hi = sizes
    if any(e["kind"] == "fin" and not e.get("dimension") for e in plan["variables"]):
        lo = max(lo, 1)
    settings = dict(plan["settings"], dim_min=lo, dim_max=max(lo, hi))
    if magnitude == "wide":
        settings["real_bound"] = dtype_range(dtype)["max"]
        settings["draws"] = {"magnitude": "wide", "dtype": dtype}
    return dict(plan, settings=settings)


def wide_dtype(settings: dict[str, Any]) -> str | None:
    """The dtype of a widened plan's settings (``None``: the plain draws)."""
    draws = settings.get("draws")
    return draws.get("dtype", "float64") if draws and draws.get("magnitude") == "wide" else None


__all__ = ["EDGE_SIZES", "dtype_range", "numpy_dtype", "round_to", "sample_sizes", "sample_wide", "seeds", "specials",
           "wide_arrays",
           "wide_dtype", "wide_reals", "wide_sizes", "widened"]
