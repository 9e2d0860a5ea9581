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
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from bridge.errors import LeanMirrorError


class OutOfSample(LeanMirrorError, IndexError):
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


def _positive_rms(eps: Any, x: np.ndarray, mean: bool) -> None:
    """Refuse a row whose ``Σ x² (/ H) + ε`` is not positive.

    There Lean's ``Real.sqrt`` of a negative is ``0`` and ``x / 0 = 0``: junk values the
    kernel (a true square root) does not reproduce, so the draw is out of its domain."""
    x = _floats(x)
    total = np.sum(x * x, axis=-1)
    if mean:
        total = total / x.shape[-1]
    if np.any(total + float(eps) <= 0):
        raise ValueError(f"eps = {float(eps)} makes a row's mean square plus eps non-positive; "
                         "expected a positive normaliser")


def _rmsnorm_family(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """``rmsnorm``, ``rmsnormOffset``, ``rmsnormUnit``: ``(eps, x[, w])`` in Lean's order."""
    _positive_rms(args[0], args[1], mean=True)
    return kernel(*args)


def _rmsnorm_gated(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``rmsnormGated eps x z w``; the kernel takes ``(eps, x, w, z)``."""
    eps, x, z, w = args
    _positive_rms(eps, x, mean=True)
    return kernel(eps, x, w, z)


def _l2norm(kernel: Callable, args: list, dims: list) -> np.ndarray:
    eps, x = args
    _positive_rms(eps, x, mean=False)
    return kernel(eps, x)


def _residual(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``residual r x h``; the kernel takes ``(x, h, r)``."""
    r, x, h = args
    return kernel(x, h, r)


def _embed(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``embed c E tokens`` (tokens ``Fin T → Fin V``); the kernel takes ``(tokens, E, c)``."""
    c, table, tokens = args
    return kernel(_ints(tokens), table, c)


def _lm_head(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``lmHead mul cap c x W``; the kernel takes ``(x, W, mul, cap)``, ``cap=None`` off."""
    mul, cap, c, x, weight = args
    return kernel(x, weight, mul, c if bool(cap) else None)


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


def _rope_frequency_domain(theta: float, denom: int, active: int, count: int) -> None:
    """Refuse a base ``θ ≤ 0`` that makes an active frequency a Lean junk value.

    Mathlib's ``θ ^ y`` for ``θ < 0`` is ``|θ| ^ y · cos(π y)`` and ``0 ^ y = 0`` for
    ``y ≠ 0``; the kernel's ``numpy.power`` agrees only at integral exponents (``θ < 0``) or
    at exponent 0. A RoPE base is positive, so such a draw is out of the kernel's domain."""
    if theta > 0:
        return
    for i in range(min(count, active)):
        exponent = -(2.0 * i / denom) if denom else 0.0
        if exponent == 0.0:
            continue
        if theta == 0 or exponent != np.round(exponent):
            raise ValueError(f"theta = {theta} with exponent {exponent} for pair {i}; "
                             "expected a positive RoPE base")


def _inv_freq(kernel: Callable, args: list, dims: list) -> float:
    theta, denom, active, i = args
    denom, active, i = _as_int(denom), _as_int(active), _as_int(i)
    if i < active:
        _rope_frequency_domain(float(theta), denom, active, i + 1)
        _rope_frequency_domain(float(theta), denom, i + 1, i + 1)
    return float(kernel(theta, denom, active, i))


def _rope(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``rope θ rot denom active pos x``; the kernel takes ``(x, pos, θ, rot, denom,
    active)`` with ``rot ≤ D``. Lean reads a coordinate ``≥ D`` as ``0`` (``coord``), so for
    ``rot > D`` the rows are zero-padded to ``rot`` and the result cut back to ``D``. An odd
    ``rot`` is refused by the kernel (out of domain)."""
    theta, rot, denom, active, pos, x = args
    rot, denom, active = _as_int(rot), _as_int(denom), _as_int(active)
    x = _floats(x)
    depth = x.shape[-1]
    _rope_frequency_domain(float(theta), denom, active, rot // 2)
    if rot > depth:
        x = np.concatenate([x, np.zeros(x.shape[:-1] + (rot - depth,))], axis=-1)
    out = kernel(x, _ints(pos), theta, rot, denom, active)
    return np.asarray(out)[..., :depth]


def _gdn_state(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``gdnState α β k v t _``: the ``Dv × Dk`` state after ``t ≤ T`` steps."""
    alpha, beta, k, v, t = args
    return kernel(alpha, beta, k, v, _as_int(t))


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


def _op(name: str, function: str, call: Callable, description: str) -> Binding:
    return Binding(f"Mirror.Ops.{name}", f"mirror.impl.ops:{function}", call, description)


#: The Op Specs with a Lean definition (``OP_SPECS`` entries with ``lean_defined``).
OP_BINDINGS: tuple[Binding, ...] = (
    _op("sigmoid", "sigmoid", _same_order, "sigmoid(x)"),
    _op("silu", "silu", _same_order, "silu(x)"),
    _op("softplus", "softplus", _same_order, "softplus(x) (stable form)"),
    _op("geluTanh", "gelu_tanh", _same_order, "gelu_tanh(x)"),
    _op("softcap", "softcap", _same_order, "softcap(c, x)"),
    _op("rmsnorm", "rmsnorm", _rmsnorm_family, "rmsnorm(eps, x, w); mean(x²) + eps > 0"),
    _op("rmsnormOffset", "rmsnorm_offset", _rmsnorm_family,
        "rmsnorm_offset(eps, x, w); mean(x²) + eps > 0"),
    _op("rmsnormUnit", "rmsnorm_unit", _rmsnorm_family, "rmsnorm_unit(eps, x); mean(x²) + eps > 0"),
    _op("rmsnormGated", "rmsnorm_gated", _rmsnorm_gated,
        "rmsnorm_gated(eps, x, w, z) for Lean (eps, x, z, w); mean(x²) + eps > 0"),
    _op("l2norm", "l2norm", _l2norm, "l2norm(eps, x); Σ x² + eps > 0"),
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
    _op("invFreq", "inv_freq", _inv_freq, "inv_freq(theta, denom, active, i); theta > 0"),
    _op("rope", "rope", _rope,
        "rope(x, pos, theta, rot, denom, active), x zero-padded to rot when rot > D; "
        "rot even, theta > 0"),
    _op("gdnState", "gdn_state", _gdn_state, "gdn_state(alpha, beta, k, v, t)"),
    _op("gatedDeltaRule", "gated_delta_rule", _same_order,
        "gated_delta_rule(alpha, beta, q, k, v) (alpha is the decay)"),
    _op("gdnStep", "gdn_step", _same_order, "gdn_step(state, alpha, beta, k, v)"),
    _op("chunkDeltaRule", "chunk_gated_delta_rule", _chunk_delta_rule,
        "chunk_gated_delta_rule(alpha, beta, q, k, v, C) (WY form); C ≥ 1"),
    _op("causalConvSilu", "causal_conv_silu", _causal_conv_silu,
        "causal_conv_silu(x[T, C], w[C, K])"),
)

BINDINGS.update((b.lean_name, b) for b in OP_BINDINGS)


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
        return rt.from_float(np.zeros(rt.batch))
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


__all__ = ["BINDINGS", "Binding", "OP_BINDINGS", "OutOfSample", "batched_call", "register", "runtime_bindings"]
