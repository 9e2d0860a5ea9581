"""Binding: a Lean definition mirrored by an implementation, and how a run calls it.

A :class:`Binding` says which implementation mirrors a Lean definition and how a Lean call
maps onto it: the definition's explicit arguments arrive in Lean's order (arrays over ``ℕ``
as their sampled prefix, arrays over ``Fin n`` whole), its implicit dimensions as ``dims``;
``call(impl, args, dims)`` maps them to the implementation. Bindings come from the project's
configuration or the ``@binds`` decorator (:mod:`mirror.bind.registry`); nothing here knows any
project.

At run time :func:`batched_call` evaluates a binding for the draws of a batch: once per draw,
or once per batch for a ``vectorized`` binding (the implementation takes a leading batch axis;
it may refuse some draws of the batch by raising :class:`RefusedDraws`).
An implementation that refuses an input (``ValueError``, ``ArithmeticError``, an index beyond
the sampled domain) marks the draw out of domain; a non-finite output is recorded, so that a
float overflow is never confirmed as a counterexample. A result of the wrong shape is a
:class:`BindingError` (the statement's ``error`` row), never a verdict.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from bridge.errors import InvalidArgument, LeanMirrorError
from mirror.bind.config import KernelProfile
from mirror.evaluate.runtime import OutOfDomain, Truth
from mirror.sample.wide import numpy_dtype, round_to


class OutOfSample(OutOfDomain):
    """A Lean index lies beyond the sampled prefix of an ``ℕ → α`` argument."""


class RefusedDraws(ValueError):
    """Raised by a vectorized implementation (or its adapter) that refuses some draws of a
    batch: ``refused`` masks them along the leading batch axis. The refused draws are out of
    domain; the implementation is called again on the others."""

    def __init__(self, refused: Any, message: str) -> None:
        super().__init__(message)
        self.refused = np.asarray(refused, dtype=bool).reshape(-1)


class BindingError(InvalidArgument):
    """A binding cannot be used: the message names the binding, its file and the fix."""


@dataclass(frozen=True)
class Binding:
    """A Lean definition mirrored by an implementation."""

    lean_name: str
    #: ``"module:function"`` of the implementation (for the report).
    implementation: str
    #: ``call(impl, args, dims) -> value`` for ONE draw (for a whole batch when
    #: :attr:`vectorized`); ``args`` in Lean's explicit order.
    call: Callable[[Callable, list, list], Any]
    description: str = ""
    #: The implementation's documented domain, per Lean parameter name:
    #: ``{"δ": {"lo": 0.0, "strict": True}}``. Statements are drawn within it (and say so).
    domain: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The implementation takes a leading batch axis and is called once per batch.
    vectorized: bool = False
    #: The resolved calling convention, for ``leanmirror bindings`` and error messages.
    convention: str = ""
    #: Where the binding was stated (a file or ``@binds in module``).
    source: str = ""
    #: Axes of the value for one draw (``None``: not checked, an adapter decides).
    result_ndim: int | None = None
    #: The implementation object itself, when it was given as one (``@binds``).
    function: Callable | None = field(default=None, compare=False)
    #: How its conformance is drawn and judged (dtypes, accuracy budget, reference, sizes).
    profile: KernelProfile = field(default_factory=KernelProfile)
    #: The dtype its float arguments are cast to before the call (its output is read back
    #: as float64): one of :data:`mirror.bind.config.DTYPES`.
    dtype: str = "float64"

    def load(self) -> Callable:
        if self.function is not None:
            return self.function
        module, _, name = self.implementation.partition(":")
        return getattr(importlib.import_module(module), name)

    def shape_error(self, shape: tuple, per: str, expected: str) -> BindingError:
        where = f" ({self.source})" if self.source else ""
        return BindingError(
            f"binding {self.lean_name}{where}: {self.implementation} returned shape {shape} "
            f"for {per}, expected {expected} ({self.convention}); fix the function's result, "
            "or its index/dims/vectorized settings")


def as_array(value: Any) -> np.ndarray:
    """What an implementation returned, as a NumPy array (torch tensors included; a
    bfloat16 tensor is read as float32, which holds it exactly)."""
    detach = getattr(value, "detach", None)
    if callable(detach):
        value = detach().cpu()
        if str(getattr(value, "dtype", "")) == "torch.bfloat16":
            value = value.float()
        value = value.numpy()
    return np.asarray(value)


def _cast(value: Any, dtype: str) -> Any:
    """A float argument (array or scalar) in ``dtype``; anything else unchanged."""
    if isinstance(value, float) or (isinstance(value, np.ndarray | np.floating)
                                    and value.dtype.kind == "f"):
        with np.errstate(all="ignore"):
            cast = np.asarray(value).astype(numpy_dtype(dtype))
        return cast if cast.ndim else cast[()]
    return value


def in_dtype(impl: Callable, dtype: str) -> Callable:
    """``impl`` called with its float arguments cast to ``dtype`` (after the calling
    convention's own conversions)."""
    if dtype == "float64":
        return impl

    def cast_call(*args, **kwargs):
        return impl(*(_cast(a, dtype) for a in args), **kwargs)

    return cast_call


def _uncast(arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind == "f" and arr.dtype != np.float64:
        return arr.astype(np.float64)
    if arr.dtype.kind == "V" or str(arr.dtype) == "bfloat16":
        return arr.astype(np.float64)
    return arr


# ---- evaluation -------------------------------------------------------------------------------

_REFUSALS: tuple[type[BaseException], ...] = (ValueError, ArithmeticError, IndexError)


def _refused(exc: BaseException) -> bool:
    """An input the implementation refuses (the draw is out of its domain), not a bug."""
    return not isinstance(exc, BindingError) and isinstance(exc, _REFUSALS + (LeanMirrorError,))


def _prepare(rt, args: tuple, dims: tuple) -> tuple[list[np.ndarray], list[np.ndarray]]:
    prepared = []
    for arg in args:
        if callable(arg):
            arg = rt.tabulate(arg, (rt.nat_domain,))
        if isinstance(arg, Truth):  # a Bool/Prop argument: each draw's own value
            arg = arg.exact
        prepared.append(rt.to_float(rt.batched(arg)))
    return prepared, [rt.to_float(rt.batched(d)) for d in dims]


def _called(binding: Binding, impl: Callable, args: list, dims: list) -> np.ndarray:
    """The binding's value; an exception that is no refusal is the binding's error."""
    try:
        return _uncast(as_array(binding.call(in_dtype(impl, binding.dtype), args, dims)))
    except Exception as exc:  # noqa: BLE001 - refusals pass, the rest name the binding
        if _refused(exc) or isinstance(exc, BindingError):
            raise
        where = f" ({binding.source})" if binding.source else ""
        text = " ".join(str(exc).split())
        raise BindingError(
            f"binding {binding.lean_name}{where}: {binding.implementation} raised "
            f"{type(exc).__name__}: {text}; fix the function, or refuse inputs outside its "
            "domain with ValueError") from exc


def _one(binding: Binding, impl: Callable, args: list, dims: list) -> np.ndarray:
    value = _called(binding, impl, args, dims)
    if binding.result_ndim is not None and value.ndim != binding.result_ndim:
        raise binding.shape_error(value.shape, "one example", f"{binding.result_ndim} axes")
    return value


def _batch(binding: Binding, impl: Callable, args: list, dims: list, rows: np.ndarray
           ) -> np.ndarray:
    value = _called(binding, impl, [a[rows] for a in args], [d[rows] for d in dims])
    expected = None if binding.result_ndim is None else binding.result_ndim + 1
    if value.ndim == 0 or value.shape[0] != len(rows) or (
            expected is not None and value.ndim != expected):
        axes = "" if expected is None else f"{expected} axes, "
        raise binding.shape_error(value.shape, f"a batch of {len(rows)}",
                                  f"{axes}the first the batch's {len(rows)} draws")
    return value


def _vectorized(rt, binding: Binding, impl: Callable, args: list, dims: list,
                rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One call for the batch: ``(rows with a value, their values)``. A refused batch is
    split in halves until the refused draws are found (each one out of domain), so that a
    few refused draws cost a few calls, not one per draw."""
    try:
        return rows, _batch(binding, impl, args, dims, rows)
    except RefusedDraws as exc:
        if exc.refused.shape == rows.shape and exc.refused.any():
            rt.invalid[rows[exc.refused]] = True
            rest = rows[~exc.refused]
            if not len(rest):
                return rest, np.array([])
            return _vectorized(rt, binding, impl, args, dims, rest)
    except Exception as exc:  # noqa: BLE001 - re-raised unless it is a refusal
        if not _refused(exc):
            raise
    if len(rows) == 1:
        rt.invalid[rows[0]] = True
        return np.array([], dtype=int), np.array([])
    half = len(rows) // 2
    parts = [_vectorized(rt, binding, impl, args, dims, part)
             for part in (rows[:half], rows[half:])]
    parts = [part for part in parts if len(part[0])]
    if not parts:
        return np.array([], dtype=int), np.array([])
    return (np.concatenate([kept for kept, _ in parts]),
            np.concatenate([values for _, values in parts]))


def _per_draw(rt, binding: Binding, impl: Callable, args: list, dims: list,
              rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One call per draw: ``(rows with a value, their values)``."""
    kept, values = [], []
    for b in rows:
        try:
            values.append(_one(binding, impl, [p[b] for p in args], [d[b] for d in dims]))
            kept.append(b)
        except Exception as exc:  # noqa: BLE001 - re-raised unless it is a refusal
            if not _refused(exc):
                raise
            rt.invalid[b] = True
    if not kept:
        return np.array([], dtype=int), np.array([])
    return np.array(kept), np.stack(values)


def batched_call(rt, binding: Binding, dims: tuple, args: tuple) -> np.ndarray:
    """Evaluate ``binding`` for every active draw of ``rt``'s batch."""
    impl = binding.load()
    prepared, dim_values = _prepare(rt, args, dims)
    rows = np.flatnonzero(rt.active & ~rt.invalid)
    evaluate = _vectorized if binding.vectorized else _per_draw
    kept, values = evaluate(rt, binding, impl, prepared, dim_values, rows) if len(rows) else (
        rows, np.array([]))
    if len(kept):
        if values.dtype.kind in "fc":
            finite = np.isfinite(values).reshape(len(kept), -1).all(axis=1)
            rt.impl_nonfinite[kept[~finite]] = True
        template = values[0]
    else:
        # no active draw (a branch nobody takes): still answer with the output's shape,
        # from draw 0, whose validity this probe must not change
        saved = rt.invalid.copy()
        probe_rows, probe = evaluate(rt, binding, impl, prepared, dim_values, np.array([0]))
        rt.invalid[:] = saved
        if not len(probe_rows):
            # no draw has a value, so no output shape: the evaluation cannot go on
            raise OutOfSample(f"{binding.lean_name}: the implementation refused every draw")
        template = probe[0]
    out = np.zeros((rt.batch,) + template.shape, dtype=template.dtype)
    if len(kept):
        out[kept] = values
    return rt.from_float(out)


def runtime_bindings(names: set[str], table: dict[str, Binding] | None) -> dict[str, Callable]:
    """Adapters for a runtime's ``bindings`` (name → ``adapter(rt, dims, *args)``): the
    ``names`` a statement calls, from ``table`` (the project's bindings, from its registry).
    ``table`` may be ``None`` only when ``names`` is empty: a bound statement without its
    project's bindings is an error, never a run whose calls are all out of domain."""
    if table is None:
        if names:
            raise InvalidArgument(
                f"table: expected the project's bindings for {sorted(names)}, got None")
        return {}
    return {name: BindingAdapter(binding) for name, binding in table.items() if name in names}


class BindingAdapter:
    """A runtime's adapter for one binding: ``adapter(rt, dims, *args)``; the binding itself
    is :attr:`binding` (its profile decides how conformance is judged)."""

    def __init__(self, binding: Binding) -> None:
        self.binding = binding

    def __call__(self, rt, dims: tuple, *args) -> np.ndarray:
        return batched_call(rt, self.binding, dims, args)


__all__ = ["Binding", "BindingAdapter", "BindingError", "OutOfSample", "RefusedDraws", "as_array",
           "batched_call", "numpy_dtype", "round_to", "runtime_bindings"]
