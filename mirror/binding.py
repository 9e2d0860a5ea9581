"""Binding: the one table from Lean definitions to their NumPy implementations.

Each :class:`Binding` says which implementation a Lean definition is mirrored by and how a
Lean call maps onto it: the definition's explicit arguments arrive in Lean's order (arrays
over ``ℕ`` as their sampled prefix, arrays over ``Fin n`` whole), its implicit dimensions as
``dims``; the ``call`` maps them to the implementation's arguments, and the Lean definition's
index arguments select entries of the implementation's output.

At run time :func:`batched_call` evaluates a binding for every draw of a batch (the
implementations work on one example at a time). An implementation that refuses an input
(``NonFinite``, ``ValueError``) or an index beyond the sampled domain marks the draw out of
domain; a non-finite output is recorded, so that a float overflow is never confirmed as a
counterexample.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from bridge.errors import LeanMirrorError
from mirror.runtime import OutOfDomain, Truth


class OutOfSample(OutOfDomain):
    """A Lean index lies beyond the sampled prefix of an ``ℕ → α`` argument."""


@dataclass(frozen=True)
class Binding:
    """A Lean definition mirrored by a NumPy implementation."""

    lean_name: str
    #: ``"module:function"`` of the implementation (for the report).
    implementation: str
    #: ``call(impl, args, dims) -> value`` for ONE draw; ``args`` in Lean's explicit order.
    call: Callable[[Callable, list, list], Any]
    description: str = ""
    #: The implementation's documented domain, per Lean parameter name:
    #: ``{"δ": {"lo": 0.0, "strict": True}}``. Statements are drawn within it (and say so).
    domain: dict[str, dict[str, Any]] = field(default_factory=dict)

    def load(self) -> Callable:
        module, _, name = self.implementation.partition(":")
        return getattr(importlib.import_module(module), name)


def _prefix(n: int, *arrays: np.ndarray) -> list[np.ndarray]:
    for arr in arrays:
        if n > len(arr):
            raise OutOfSample(f"index {n - 1} beyond the sampled prefix of length {len(arr)}")
    return [arr[:n] for arr in arrays]


def _as_int(x: Any) -> int:
    return int(np.asarray(x).real)


# ---- the resolvent operator (spec: resolvent-operator.txt) ----------------------------------


def _head(operator: Callable, args: list, dims: list) -> complex:
    d, beta, qk, g, q, k, u, theta, i, j = args
    from mirror.impl.resolvent import Switches

    i, j = _as_int(i), _as_int(j)
    n = max(i, j) + 1
    q, k, u, theta = _prefix(n, q, k, u, theta)
    d = _as_int(d)
    w = operator(q[:, :d], k[:, :d], u, theta, Switches(float(beta), float(qk), float(g)))
    return w[i, j]


def _path_product(path_product: Callable, args: list, dims: list) -> complex:
    a, i, j = args
    i, j = _as_int(i), _as_int(j)
    (a,) = _prefix(max(i, j) + 1, a)
    return path_product(a)[i, j]


def _gate(gate: Callable, args: list, dims: list) -> complex:
    m, theta = args
    return gate(float(m), float(theta))


def _blend_mag(blend: Callable, args: list, dims: list) -> float:
    u, g = args
    return blend(float(u), 0.0, float(g))[0]


def _chain(chain_label: Callable, args: list, dims: list) -> np.ndarray:
    a, b = args
    return chain_label(np.asarray(a, dtype=float), np.asarray(b, dtype=float)).real


def _positional(head: Callable, args: list, dims: list) -> float:
    a, v, i = args
    i = _as_int(i)
    a, v = _prefix(i + 1, a, v)
    return float(head(a, v)[i])


BINDINGS: dict[str, Binding] = {
    b.lean_name: b
    for b in (
        Binding("Mirror.Resolvent.head", "mirror.impl.resolvent:operator", _head,
                "W[i, j] of operator(q, k, u, θ, Switches(β, qk, g)) over the prefix 0…max(i, j)"),
        Binding("Mirror.Resolvent.pathProd", "mirror.impl.resolvent:path_product", _path_product,
                "path_product(a)[i, j] over the prefix 0…max(i, j)"),
        Binding("Mirror.Resolvent.gate", "mirror.impl.resolvent:gate", _gate, "gate(m, θ)"),
        Binding("Mirror.Resolvent.blendMag", "mirror.impl.resolvent:blend", _blend_mag,
                "blend(u, 0, g)[0] (the magnitude)"),
        Binding("Mirror.Resolvent.chain", "mirror.impl.resolvent:chain_label", _chain,
                "chain_label(a, b) over the sampled prefix (real part)"),
        Binding("Mirror.PositionalHead.posHead", "mirror.impl.positional:causal_softmax_head",
                _positional, "causal_softmax_head(a, v)[i] (dense O(n²))"),
        Binding("Mirror.PositionalHead.convHead",
                "mirror.impl.positional:causal_convolution_head", _positional,
                "causal_convolution_head(a, v)[i] (FFT, O(n log n))"),
    )
}


# ---- the Op Specs (spec: op-specs.txt; Lean: lean/Mirror/Ops/, kernels: mirror/impl/ops/) ----
#
# One adapter per Op Spec whose kernel's argument order or layout differs from the Lean
# definition's; the rest go through :func:`_same_order`. Each returns the value of the Lean
# definition applied to its explicit arguments: an array for a function-valued definition.


def _floats(x: Any) -> np.ndarray:
    return np.asarray(x, dtype=float)


def _ints(x: Any) -> np.ndarray:
    """A natural-number array (positions, token ids) drawn as integers or integral floats."""
    return np.asarray(np.asarray(x).real, dtype=np.int64)


def _same_order(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """The kernel takes the Lean definition's explicit arguments in Lean's order."""
    return kernel(*args)


def _normalised_rows(kernel: Callable, eps: Any, x: Any, rest: tuple, mean: bool,
                     rows_of: tuple[bool, ...]) -> np.ndarray:
    """A row-wise norm kernel, where every row's normaliser ``Σ x² (/ H) + ε`` is positive.

    A row whose normaliser is not positive takes Lean's value there, ``0``: ``Real.sqrt`` of a
    non-positive number is ``0`` and ``x / 0 = 0`` (the kernel's true square root gives NaN).
    The kernel is called on the other rows only; ``rows_of[i]`` says whether ``rest[i]`` has a
    row axis (``z``) or is per-feature (``w``)."""
    x = _floats(x)
    total = np.sum(x * x, axis=-1)
    if mean:
        total = total / x.shape[-1]
    good = total + float(eps) > 0
    out = np.zeros(x.shape)
    if good.any():
        picked = [np.asarray(r)[good] if has_rows else r for r, has_rows in zip(rest, rows_of)]
        out[good] = kernel(eps, x[good], *picked)
    return out


def _rmsnorm_family(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """``rmsnorm``, ``rmsnormOffset`` ``(eps, x, w)`` and ``rmsnormUnit`` ``(eps, x)``."""
    eps, x, *rest = args
    return _normalised_rows(kernel, eps, x, tuple(rest), True, (False,) * len(rest))


def _rmsnorm_gated(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``rmsnormGated eps x z w``; the kernel takes ``(eps, x, w, z)``."""
    eps, x, z, w = args
    return _normalised_rows(kernel, eps, x, (w, z), True, (False, True))


def _l2norm(kernel: Callable, args: list, dims: list) -> np.ndarray:
    eps, x = args
    return _normalised_rows(kernel, eps, x, (), False, ())


def _residual(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``residual r x h``; the kernel takes ``(x, h, r)``."""
    r, x, h = args
    return kernel(x, h, r)


def _embed(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``embed c E tokens`` (``tokens : Fin T → Fin V``); the kernel takes
    ``(tokens, E, c)``."""
    c, table, tokens = args
    return kernel(_ints(tokens), table, c)


def _boolean(value: Any) -> bool:
    """A Lean ``Bool`` argument: a drawn bool, or a literal the runtime passes as a batched
    proposition (its ``ok`` array, the same for every draw of the batch)."""
    ok = getattr(value, "ok", None)
    if ok is None:
        return bool(np.asarray(value))
    ok = np.asarray(ok, dtype=bool)
    if ok.size == 0 or not (ok.all() or not ok.any()):
        raise ValueError(f"Bool argument {value!r} differs between the draws of a batch; "
                         "expected one value per call")
    return bool(ok.reshape(-1)[0])


def _lm_head(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``lmHead mul cap c x W``; the kernel takes ``(x, W, mul, cap)``, ``cap=None`` off."""
    mul, cap, c, x, weight = args
    return kernel(x, weight, mul, c if _boolean(cap) else None)


def _softmax(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``softmax s visible`` with the predicate tabulated as a boolean mask."""
    s, visible = args
    return kernel(s, np.asarray(visible, dtype=bool))


def _causal_gqa(kernel: Callable, args: list, dims: list) -> np.ndarray:
    scale, pos, q, k, v = args
    return kernel(scale, _ints(pos), q, k, v)


def _sliding_gqa(kernel: Callable, args: list, dims: list) -> np.ndarray:
    scale, window, pos, q, k, v = args
    return kernel(scale, _as_int(window), _ints(pos), q, k, v)


def _decode_gqa(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean's query ``q c g`` is the kernel's flat head ``c·G + g``: ``q[Hkv, G, D]`` is
    reshaped to ``[Hkv·G, D]`` and the output back to ``[Hkv, G, D]``."""
    scale, q, k, v = args
    q = _floats(q)
    hkv, groups, depth = q.shape
    out = kernel(scale, q.reshape(hkv * groups, depth), k, v)
    return np.asarray(out).reshape(hkv, groups, depth)


#: Largest rotation angle the float64 RoPE kernel is held to (its ``cos``/``sin`` of an angle
#: ``A`` carry an absolute error of about ``A · 1e-16``, beyond the ``1e-9`` tolerance past it).
_MAX_ROPE_ANGLE = 1e6


def _check_frequency(theta: float, denom: int, i: int, max_pos: int = 0) -> None:
    """Refuse an active pair ``i`` whose frequency lies outside the RoPE kernel's domain.

    * a base ``θ ≤ 0`` with a non-zero exponent: Mathlib's ``θ ^ y`` for ``θ < 0`` is
      ``|θ| ^ y · cos(π y)`` and ``0 ^ y = 0`` for ``y ≠ 0``, junk values ``numpy.power``
      matches only at integral exponents (``θ < 0``);
    * a frequency that overflows float64, or an angle ``pos · invFreq i`` beyond
      :data:`_MAX_ROPE_ANGLE` (a base near ``0``), which no float64 kernel evaluates to the
      tolerance."""
    exponent = -(2.0 * i / denom) if denom else 0.0
    if exponent == 0.0:
        return
    if theta <= 0 and (theta == 0 or exponent != np.round(exponent)):
        raise ValueError(f"theta = {theta} with exponent {exponent} for pair {i}; "
                         "expected a positive RoPE base")
    with np.errstate(all="ignore"):
        frequency = float(np.power(np.float64(abs(theta)), exponent))
    if not np.isfinite(frequency):
        raise ValueError(f"theta = {theta}: frequency of pair {i} overflows float64; "
                         "expected a float64-sized frequency")
    if max_pos > 0:
        angle = max_pos * frequency
        if not angle <= _MAX_ROPE_ANGLE:
            raise ValueError(f"theta = {theta}, position {max_pos}: rotation angle {angle:.3g} "
                             f"of pair {i} beyond {_MAX_ROPE_ANGLE:g}; expected float64-sized "
                             "angles")


def _inv_freq(kernel: Callable, args: list, dims: list) -> float:
    theta, denom, active, i = args
    denom, active, i = _as_int(denom), _as_int(active), _as_int(i)
    if i < active:
        _check_frequency(float(theta), denom, i)
    return float(kernel(theta, denom, active, i))


def _rope(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``rope θ rot denom active pos x``; the kernel takes ``(x, pos, θ, rot, denom,
    active)`` with an even ``rot ≤ D``.

    * ``rot > D``: Lean reads a coordinate ``≥ D`` as ``0`` (``coord``), so the rows are
      zero-padded to ``rot`` and the result cut back to ``D``.
    * odd ``rot = 2m + 1``: Lean rotates the pairs ``(i, i + m)``, ``i < m`` (the kernel with
      ``rot = 2m``) and also sets ``y[2m] = x[2m] cos φ_m + x[m] sin φ_m``. The frequencies do
      not depend on ``rot``, so that coordinate is the second member of pair ``m`` of the
      kernel with ``rot = 2m + 2`` applied to the vector holding ``x[m]`` at ``m`` and
      ``x[2m]`` at ``2m + 1``."""
    theta, rot, denom, active, pos, x = args
    rot, denom, active = _as_int(rot), _as_int(denom), _as_int(active)
    x = _floats(x)
    pos = _ints(pos)
    depth = x.shape[-1]
    half = rot // 2
    for i in range(min(half + rot % 2, active)):
        _check_frequency(float(theta), denom, i, int(pos.max(initial=0)))
    width = max(depth, rot + 1)
    padded = np.concatenate([x, np.zeros(x.shape[:-1] + (width - depth,))], axis=-1)
    out = np.array(kernel(padded, pos, theta, 2 * half, denom, active), dtype=float)
    if rot % 2:
        pair = np.zeros(x.shape[:-1] + (2 * half + 2,))
        pair[..., half] = padded[..., half]
        pair[..., 2 * half + 1] = padded[..., 2 * half]
        extra = np.asarray(kernel(pair, pos, theta, 2 * half + 2, denom, active))
        out[..., 2 * half] = extra[..., 2 * half + 1]
    return out[..., :depth]


def _gdn_state(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``gdnState α β k v t _``: the ``Dv × Dk`` state after ``t ≤ T`` steps.

    The proof ``t ≤ T`` is never passed. When ``t`` is passed too, the state at ``t``; when it
    is left as the index of the result (``(t : ℕ) → … → Matrix``), the states for
    ``t = 0, …, T`` stacked along a leading axis (an index ``t > T`` lies outside it)."""
    alpha, beta, k, v, *rest = args
    if rest:
        return kernel(alpha, beta, k, v, _as_int(rest[0]))
    steps = np.asarray(k).shape[0]
    return np.stack([kernel(alpha, beta, k, v, t) for t in range(steps + 1)])


def _chunk_delta_rule(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``chunkDeltaRule C α β q k v``; the kernel takes the chunk size last and refuses
    ``C = 0`` (Lean's ``i / 0 = 0`` makes that the plain recurrence)."""
    chunk, alpha, beta, q, k, v = args
    return kernel(alpha, beta, q, k, v, _as_int(chunk))


def _causal_conv_silu(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``causalConvSilu w x`` with ``w : Fin Ch → Fin K → ℝ`` (tap ``K − 1`` on the
    current token); the kernel takes ``(x[T, C], w[C, K])`` in the same tap layout."""
    weight, x = args
    return kernel(x, weight)


def _op(name: str, function: str, call: Callable, description: str,
        domain: dict[str, dict[str, Any]] | None = None) -> Binding:
    return Binding(f"Mirror.Ops.{name}", f"mirror.impl.ops:{function}", call, description,
                   domain or {})


#: A RoPE base is positive (``numpy.power`` of a negative base is not Mathlib's ``rpow``).
_POSITIVE_BASE = {"theta": {"lo": 0.0, "strict": True}}


#: The Op Specs with a Lean definition (``OP_SPECS`` entries with ``lean_defined``).
OP_BINDINGS: tuple[Binding, ...] = (
    _op("sigmoid", "sigmoid", _same_order, "sigmoid(x)"),
    _op("silu", "silu", _same_order, "silu(x)"),
    _op("softplus", "softplus", _same_order, "softplus(x) (stable form)"),
    _op("geluTanh", "gelu_tanh", _same_order, "gelu_tanh(x)"),
    _op("softcap", "softcap", _same_order, "softcap(c, x)"),
    _op("rmsnorm", "rmsnorm", _rmsnorm_family,
        "rmsnorm(eps, x, w) on rows with mean(x²) + eps > 0, else 0"),
    _op("rmsnormOffset", "rmsnorm_offset", _rmsnorm_family,
        "rmsnorm_offset(eps, x, w) on rows with mean(x²) + eps > 0, else 0"),
    _op("rmsnormUnit", "rmsnorm_unit", _rmsnorm_family,
        "rmsnorm_unit(eps, x) on rows with mean(x²) + eps > 0, else 0"),
    _op("rmsnormGated", "rmsnorm_gated", _rmsnorm_gated,
        "rmsnorm_gated(eps, x, w, z) for Lean (eps, x, z, w) on rows with mean(x²) + eps > 0, "
        "else 0"),
    _op("l2norm", "l2norm", _l2norm, "l2norm(eps, x) on rows with Σ x² + eps > 0, else 0"),
    _op("linear", "linear", _same_order, "linear(x, W)"),
    _op("gateUp", "gate_up", _same_order, "gate_up(x, W_gate, W_up)"),
    _op("siluMul", "silu_mul", _same_order, "silu_mul(gu)"),
    _op("geluMul", "gelu_mul", _same_order, "gelu_mul(gu)"),
    _op("residual", "residual", _residual, "residual(x, h, r) for Lean (r, x, h)"),
    _op("embed", "embed", _embed, "embed(tokens, E, c) for Lean (c, E, tokens)"),
    _op("lmHead", "lm_head", _lm_head,
        "lm_head(x, W, mul, c if cap else None) for Lean (mul, cap, c, x, W)"),
    _op("softmax", "softmax", _softmax, "softmax(s, visible as a boolean mask)"),
    _op("causalGQA", "causal_gqa", _causal_gqa, "causal_gqa(scale, pos, q, k, v)"),
    _op("slidingGQA", "sliding_gqa", _sliding_gqa, "sliding_gqa(scale, w, pos, q, k, v)"),
    _op("decodeGQA", "decode_gqa", _decode_gqa,
        "decode_gqa(scale, q[Hkv·G, D], k, v) reshaped to [Hkv, G, D]"),
    _op("sigmoidGate", "sigmoid_gate", _same_order, "sigmoid_gate(o, gate)"),
    _op("invFreq", "inv_freq", _inv_freq, "inv_freq(theta, denom, active, i); theta > 0",
        _POSITIVE_BASE),
    _op("rope", "rope", _rope,
        "rope(x, pos, theta, rot, denom, active), x zero-padded to rot when rot > D, an odd "
        "rot's last coordinate from the kernel at rot + 1; theta > 0", _POSITIVE_BASE),
    _op("gdnState", "gdn_state", _gdn_state, "gdn_state(alpha, beta, k, v, t)"),
    _op("gatedDeltaRule", "gated_delta_rule", _same_order,
        "gated_delta_rule(alpha, beta, q, k, v) (alpha is the decay)"),
    _op("gdnStep", "gdn_step", _same_order, "gdn_step(state, alpha, beta, k, v)"),
    _op("chunkDeltaRule", "chunk_gated_delta_rule", _chunk_delta_rule,
        "chunk_gated_delta_rule(alpha, beta, q, k, v, C) (WY form); C ≥ 1", {"C": {"lo": 1}}),
    _op("causalConvSilu", "causal_conv_silu", _causal_conv_silu,
        "causal_conv_silu(x[T, C], w[C, K])"),
)

BINDINGS.update((b.lean_name, b) for b in OP_BINDINGS)


# ---- the fractional-power layer (spec: fractional-power-layer.txt) ---------------------------


def _matrix_square(value: Any, name: str) -> np.ndarray:
    arr = np.asarray(value, dtype=float)
    if arr.ndim != 2:
        raise ValueError(f"{name}: expected a matrix, got shape {arr.shape}")
    return arr


def _sym_part(params: Callable, args: list, dims: list) -> np.ndarray:
    lower, delta = args
    lower = _matrix_square(lower, "L")
    d = lower.shape[0]
    return params(lower, float(delta), np.zeros((d, d))).S


def _skew_part(params: Callable, args: list, dims: list) -> np.ndarray:
    (upper,) = args
    upper = _matrix_square(upper, "U")
    d = upper.shape[0]
    return params(np.zeros((d, 0)), 1.0, upper).K


def _accretive(params: Callable, args: list, dims: list) -> np.ndarray:
    lower, delta, upper = args
    return params(_matrix_square(lower, "L"), float(delta), _matrix_square(upper, "U")).A


def _layer(fractional_apply: Callable, args: list, dims: list) -> np.ndarray:
    from mirror.impl.fractional import AccretiveParams
    from mirror.impl.quadrature import QuadratureRule

    lower, delta, upper, r, lam, w = args
    a = AccretiveParams(_matrix_square(lower, "L"), float(delta), _matrix_square(upper, "U"))
    lam = np.asarray(lam, dtype=float)
    w = np.asarray(w, dtype=float)
    if lam.size == 0:
        raise ValueError("resolventMixture: no shifts")
    rule = QuadratureRule(float(r), lam, w, "lean", (float(lam.min()), float(lam.max())))
    return fractional_apply(np.eye(a.d), a, float(r), rule, method="direct").T


_POSITIVE = {"lo": 0.0, "strict": True}
FRACTIONAL_BINDINGS: tuple[Binding, ...] = (
    Binding("Mirror.FractionalPower.symPart", "mirror.impl.fractional:AccretiveParams",
            _sym_part, "AccretiveParams(L, δ, 0).S = L Lᵀ + δ I", {"δ": _POSITIVE}),
    Binding("Mirror.FractionalPower.skewPart", "mirror.impl.fractional:AccretiveParams",
            _skew_part, "AccretiveParams(0, 1, U).K = (U − Uᵀ)/2"),
    Binding("Mirror.FractionalPower.accretiveParam", "mirror.impl.fractional:AccretiveParams",
            _accretive, "AccretiveParams(L, δ, U).A = S + K", {"δ": _POSITIVE}),
    Binding("Mirror.FractionalPower.accretiveLayer", "mirror.impl.fractional:fractional_apply",
            _layer, "fractional_apply(I, AccretiveParams(L, δ, U), r, QuadratureRule(r, lam, w))ᵀ "
            "(direct solve)",
            {"δ": _POSITIVE, "r": {"lo": 0.0, "strict": True, "hi": 1.0, "hi_strict": True},
             "lam": _POSITIVE}),
)
BINDINGS.update((b.lean_name, b) for b in FRACTIONAL_BINDINGS)


def register(binding: Binding) -> None:
    """Add a binding to the table (later stages extend it: Op Specs, the fractional layer)."""
    BINDINGS[binding.lean_name] = binding


# ---- evaluation -------------------------------------------------------------------------------

_REFUSALS: tuple[type[BaseException], ...] = (ValueError, ArithmeticError, IndexError,
                                              LeanMirrorError)


def batched_call(rt, binding: Binding, dims: tuple, args: tuple) -> np.ndarray:
    """Evaluate ``binding`` for every active draw of ``rt``'s batch."""
    impl = binding.load()
    prepared = []
    for arg in args:
        if callable(arg):
            arg = rt.tabulate(arg, (rt.nat_domain,))
        if isinstance(arg, Truth):  # a Bool/Prop argument: each draw's own value
            arg = arg.exact
        prepared.append(rt.to_float(rt.batched(arg)))
    dim_values = [rt.to_float(rt.batched(d)) for d in dims]
    active = rt.active
    outputs: list[Any] = [None] * rt.batch
    for b in range(rt.batch):
        if not active[b] or rt.invalid[b]:
            continue
        try:
            value = binding.call(impl, [p[b] for p in prepared], [d[b] for d in dim_values])
        except _REFUSALS:
            rt.invalid[b] = True
            continue
        value = np.asarray(value)
        if not np.isfinite(value).all():
            rt.impl_nonfinite[b] = True
        outputs[b] = value
    template = next((o for o in outputs if o is not None), None)
    if template is None:
        # no active draw (a branch nobody takes): still answer with the output's shape
        try:
            template = np.asarray(
                binding.call(impl, [p[0] for p in prepared], [d[0] for d in dim_values])
            )
        except _REFUSALS:
            # no draw has a value, so no output shape: the evaluation cannot go on
            raise OutOfSample(f"{binding.lean_name}: the implementation refused every draw")
    filled = [o if o is not None else np.zeros_like(template) for o in outputs]
    return rt.from_float(np.stack(filled))


def runtime_bindings(
    names: set[str] | None = None, table: dict[str, Binding] | None = None
) -> dict[str, Callable]:
    """Adapters for a runtime's ``bindings`` (name → ``adapter(rt, dims, *args)``), from
    ``table`` (default: :data:`BINDINGS`)."""
    source = BINDINGS if table is None else table
    table = source if names is None else {n: source[n] for n in names if n in source}
    return {
        name: (lambda rt, dims, *args, _b=binding: batched_call(rt, _b, dims, args))
        for name, binding in table.items()
    }


__all__ = ["BINDINGS", "Binding", "OP_BINDINGS", "OutOfSample", "batched_call", "register",
           "runtime_bindings"]
