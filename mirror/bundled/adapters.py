"""Adapters of the bundled project: its kernels called the way its Lean definitions read.

The bundled Lean project (``lean/Mirror``) binds its definitions to the kernels of
``mirror/bundled/impl`` through its configuration (``[tool.leanmirror.bindings]`` in the repository's
``pyproject.toml``); each kernel whose argument order or layout differs from the Lean
definition's gets one adapter here, ``adapter(kernel, args, dims) -> value`` with ``args`` the
definition's explicit arguments in Lean's order.

Most bindings are ``vectorized = true``: their adapter receives every argument with a leading
batch axis (one row per draw) and calls the kernel once for the whole batch (the kernels take
leading batch axes, per-draw scalars such as ``eps`` included). The others are called once
per draw, each for a reason stated at its adapter: the kernel reads one sequence whose prefix
each draw chooses (``i``, ``j``), or a per-draw integer fixes the computation's structure
(chunk size, rotated pairs), or the kernel solves one matrix at a time. Specs:
resolvent-operator.txt, op-specs.txt, fractional-power-layer.txt.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from mirror.bind.binding import OutOfSample, RefusedDraws


def _prefix(n: int, *arrays: np.ndarray) -> list[np.ndarray]:
    for arr in arrays:
        if n > len(arr):
            raise OutOfSample(f"index {n - 1} beyond the sampled prefix of length {len(arr)}")
    return [arr[:n] for arr in arrays]


def _as_int(x: Any) -> int:
    return int(np.asarray(x).real)


def _int_rows(x: Any) -> np.ndarray:
    """Per-draw natural numbers (drawn as integers or integral floats) as ``int64``."""
    return np.asarray(np.rint(np.asarray(x).real), dtype=np.int64)


# ---- the resolvent operator (spec: resolvent-operator.txt) ----------------------------------


def resolvent_head(operator: Callable, args: list, dims: list) -> complex:
    """Per draw: the operator reads one sequence, over the prefix ``0…max(i, j)`` that each
    draw's ``i, j`` choose (and its ``d``)."""
    d, beta, qk, g, q, k, u, theta, i, j = args
    from mirror.bundled.impl.resolvent import Switches

    i, j = _as_int(i), _as_int(j)
    n = max(i, j) + 1
    q, k, u, theta = _prefix(n, q, k, u, theta)
    d = _as_int(d)
    w = operator(q[:, :d], k[:, :d], u, theta, Switches(float(beta), float(qk), float(g)))
    return w[i, j]


def path_product(path_product: Callable, args: list, dims: list) -> complex:
    """Per draw: the kernel takes one gate sequence, over the prefix each draw's ``i, j``
    choose."""
    a, i, j = args
    i, j = _as_int(i), _as_int(j)
    (a,) = _prefix(max(i, j) + 1, a)
    return path_product(a)[i, j]


def gate(gate: Callable, args: list, dims: list) -> np.ndarray:
    """Vectorized: ``gate(m[B], θ[B])`` broadcasts."""
    m, theta = args
    return gate(_floats(m), _floats(theta))


def blend_magnitude(blend: Callable, args: list, dims: list) -> np.ndarray:
    """Vectorized: ``blend(u[B], 0, g[B])`` broadcasts; its magnitude."""
    u, g = args
    return blend(_floats(u), 0.0, _floats(g))[0]


def chain(chain_label: Callable, args: list, dims: list) -> np.ndarray:
    """Per draw: the chain is a sequential recurrence over one 1-D sequence."""
    a, b = args
    return chain_label(np.asarray(a, dtype=float), np.asarray(b, dtype=float)).real


def positional_head(head: Callable, args: list, dims: list) -> float:
    """Per draw: the head reads one score sequence, over the prefix ``0…i`` each draw's
    ``i`` chooses."""
    a, v, i = args
    i = _as_int(i)
    a, v = _prefix(i + 1, a, v)
    return float(head(a, v)[i])


# ---- the Op Specs (spec: op-specs.txt; Lean: lean/Mirror/Ops/, kernels: mirror/bundled/impl/ops/) ----
#
# One adapter per Op Spec whose kernel's argument order or layout differs from the Lean
# definition's; the rest use the default calling convention. Each returns the value of the Lean
# definition applied to its explicit arguments: an array for a function-valued definition.


def _floats(x: Any) -> np.ndarray:
    return np.asarray(x, dtype=float)


def _ints(x: Any) -> np.ndarray:
    """A natural-number array (positions, token ids) drawn as integers or integral floats."""
    return np.asarray(np.asarray(x).real, dtype=np.int64)


def _normalised_rows(kernel: Callable, eps: Any, x: Any, rest: tuple, mean: bool,
                     rows_of: tuple[bool, ...]) -> np.ndarray:
    """A row-wise norm kernel, where every row's normaliser ``Σ x² (/ H) + ε`` is positive.

    A row whose normaliser is not positive takes Lean's value there, ``0``: ``Real.sqrt`` of a
    non-positive number is ``0`` and ``x / 0 = 0`` (the kernel's true square root gives NaN).
    The kernel is called once, on the other rows of the whole batch (``x[B, T, H]``, ``eps``
    one per draw); ``rows_of[i]`` says whether ``rest[i]`` has a row axis (``z``) or is
    per-feature (``w[B, H]``)."""
    x = _floats(x)
    eps = _floats(eps)
    top = np.max(np.abs(x), axis=-1) if x.shape[-1] else np.zeros(x.shape[:-1])
    eps_rows = np.broadcast_to(eps.reshape(eps.shape + (1,) * (top.ndim - eps.ndim)),
                               top.shape)
    good = _normaliser_positive(x, top, eps_rows, mean)
    out = np.zeros(x.shape)
    if good.any():
        picked = [np.asarray(r)[good] if has_rows else _per_row_of(np.asarray(r), x)[good]
                  for r, has_rows in zip(rest, rows_of)]
        out[good] = kernel(eps_rows[good], x[good], *picked)
    return out


def _normaliser_positive(x: np.ndarray, top: np.ndarray, eps: np.ndarray,
                         mean: bool) -> np.ndarray:
    """Whether ``Σ x² (/ H) + eps > 0`` per row, without squaring ``x`` (whose squares
    overflow above 1.3e154 and underflow below 1.5e-154). ``Σ x² > 0`` iff some entry is
    nonzero, so with ``eps >= 0`` the sign is exact; with ``eps < 0`` it is the sign of
    ``Σ (x/c)² (/ H) + eps/c²`` for ``c = max(max|x|, √-eps)``, a number in ``[-1, H]``."""
    c = np.maximum(top, np.sqrt(np.abs(eps)))
    safe = np.where(c > 0, c, 1.0)
    y = x / safe[..., None]
    total = np.sum(y * y, axis=-1)
    if mean and x.shape[-1]:
        total = total / x.shape[-1]
    scaled = total + (eps / safe) / safe > 0
    return np.where(eps >= 0, (eps > 0) | (top > 0), scaled)


def _per_row_of(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    """A per-feature ``w[..., H]`` (leading axes those of ``x``'s draws) on every row of ``x``."""
    shaped = w.reshape(w.shape[:-1] + (1,) * (x.ndim - w.ndim) + w.shape[-1:])
    return np.broadcast_to(shaped, x.shape)


def rmsnorm_family(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Vectorized: ``rmsnorm``, ``rmsnormOffset`` ``(eps, x, w)`` and ``rmsnormUnit``
    ``(eps, x)``."""
    eps, x, *rest = args
    return _normalised_rows(kernel, eps, x, tuple(rest), True, (False,) * len(rest))


def rmsnorm_gated(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Vectorized: Lean ``rmsnormGated eps x z w``; the kernel takes ``(eps, x, w, z)``."""
    eps, x, z, w = args
    return _normalised_rows(kernel, eps, x, (w, z), True, (False, True))


def l2norm(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Vectorized: ``l2norm(eps, x)``."""
    eps, x = args
    return _normalised_rows(kernel, eps, x, (), False, ())


def residual(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Vectorized: Lean ``residual r x h``; the kernel takes ``(x, h, r)``."""
    r, x, h = args
    return kernel(x, h, r)


def embed(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Vectorized: Lean ``embed c E tokens`` (``tokens : Fin T → Fin V``); the kernel takes
    ``(tokens, E, c)``, one table per draw."""
    c, table, tokens = args
    return kernel(_int_rows(tokens), table, c)


def lm_head(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Vectorized: Lean ``lmHead mul cap c x W``; the kernel takes ``(x, W, mul, cap)``,
    ``cap=None`` off. One call for the draws with ``cap`` on, one for the rest."""
    mul, cap, c, x, weight = args
    on = np.asarray(cap).astype(bool).reshape(-1)
    x, weight, mul, c = _floats(x), _floats(weight), _floats(mul), _floats(c)
    out = None
    for rows, capped in ((on, True), (~on, False)):
        if rows.any():
            value = np.asarray(kernel(x[rows], weight[rows], mul[rows],
                                      c[rows] if capped else None))
            if out is None:
                out = np.zeros((len(on),) + value.shape[1:])
            out[rows] = value
    return out


def softmax(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Vectorized: Lean ``softmax s visible`` with the predicate tabulated as a boolean
    mask."""
    s, visible = args
    return kernel(s, np.asarray(visible, dtype=bool))


# Per draw, the three GQA kernels: ``scale`` (and ``window``) are one scalar per call.


def causal_gqa(kernel: Callable, args: list, dims: list) -> np.ndarray:
    scale, pos, q, k, v = args
    return kernel(scale, _ints(pos), q, k, v)


def sliding_gqa(kernel: Callable, args: list, dims: list) -> np.ndarray:
    scale, window, pos, q, k, v = args
    return kernel(scale, _as_int(window), _ints(pos), q, k, v)


def decode_gqa(kernel: Callable, args: list, dims: list) -> np.ndarray:
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


def inv_freq(kernel: Callable, args: list, dims: list) -> float:
    """Per draw: ``theta``, ``denom`` and ``active`` are one scalar per call."""
    theta, denom, active, i = args
    denom, active, i = _as_int(denom), _as_int(active), _as_int(i)
    if i < active:
        _check_frequency(float(theta), denom, i)
    return float(kernel(theta, denom, active, i))


def rope(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``rope θ rot denom active pos x``; the kernel takes ``(x, pos, θ, rot, denom,
    active)`` with an even ``rot ≤ D``.

    * ``rot > D``: Lean reads a coordinate ``≥ D`` as ``0`` (``coord``), so the rows are
      zero-padded to ``rot`` and the result cut back to ``D``.
    * odd ``rot = 2m + 1``: Lean rotates the pairs ``(i, i + m)``, ``i < m`` (the kernel with
      ``rot = 2m``) and also sets ``y[2m] = x[2m] cos φ_m + x[m] sin φ_m``. The frequencies do
      not depend on ``rot``, so that coordinate is the second member of pair ``m`` of the
      kernel with ``rot = 2m + 2`` applied to the vector holding ``x[m]`` at ``m`` and
      ``x[2m]`` at ``2m + 1``.

    Per draw: ``rot``, ``denom`` and ``active`` fix the rotated pairs of the call."""
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


def gdn_state(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Vectorized: Lean ``gdnState α β k v t _``, the ``Dv × Dk`` state after ``t ≤ T`` steps.

    The kernel runs the whole batch once per step count ``0…T`` (a loop over time, not over
    draws) and each draw takes its own ``t``; the draws with ``t > T`` are refused. The proof
    ``t ≤ T`` is never passed. When ``t`` is left as the index of the result (``(t : ℕ) → … →
    Matrix``), the states for ``t = 0, …, T`` stacked along the axis after the batch's."""
    alpha, beta, k, v, *rest = args
    steps = np.asarray(k).shape[-2]
    states = np.stack([kernel(alpha, beta, k, v, t) for t in range(steps + 1)], axis=1)
    if not rest:
        return states
    t = _int_rows(rest[0])
    beyond = (t < 0) | (t > steps)
    if beyond.any():
        raise RefusedDraws(beyond, f"t = {t[beyond].tolist()}; expected 0 <= t <= T = {steps}")
    return states[np.arange(len(t)), t]


def chunk_delta_rule(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Lean ``chunkDeltaRule C α β q k v``; the kernel takes the chunk size last and refuses
    ``C = 0`` (Lean's ``i / 0 = 0`` makes that the plain recurrence). Per draw: the chunk
    size fixes the blocking of the call."""
    chunk, alpha, beta, q, k, v = args
    return kernel(alpha, beta, q, k, v, _as_int(chunk))


def causal_conv_silu(kernel: Callable, args: list, dims: list) -> np.ndarray:
    """Vectorized: Lean ``causalConvSilu w x`` with ``w : Fin Ch → Fin K → ℝ`` (tap ``K − 1`` on the
    current token); the kernel takes ``(x[T, C], w[C, K])`` in the same tap layout."""
    weight, x = args
    return kernel(x, weight)


# ---- the fractional-power layer (spec: fractional-power-layer.txt) ---------------------------
#
# Per draw: ``AccretiveParams`` and ``fractional_apply`` take one matrix and solve with it.


def _matrix_square(value: Any, name: str) -> np.ndarray:
    arr = np.asarray(value, dtype=float)
    if arr.ndim != 2:
        raise ValueError(f"{name}: expected a matrix, got shape {arr.shape}")
    return arr


def sym_part(params: Callable, args: list, dims: list) -> np.ndarray:
    lower, delta = args
    lower = _matrix_square(lower, "L")
    d = lower.shape[0]
    return params(lower, float(delta), np.zeros((d, d))).S


def skew_part(params: Callable, args: list, dims: list) -> np.ndarray:
    (upper,) = args
    upper = _matrix_square(upper, "U")
    d = upper.shape[0]
    return params(np.zeros((d, 0)), 1.0, upper).K


def accretive(params: Callable, args: list, dims: list) -> np.ndarray:
    lower, delta, upper = args
    return params(_matrix_square(lower, "L"), float(delta), _matrix_square(upper, "U")).A


def accretive_layer(fractional_apply: Callable, args: list, dims: list) -> np.ndarray:
    from mirror.bundled.impl.fractional import AccretiveParams
    from mirror.bundled.impl.quadrature import QuadratureRule

    lower, delta, upper, r, lam, w = args
    a = AccretiveParams(_matrix_square(lower, "L"), float(delta), _matrix_square(upper, "U"))
    lam = np.asarray(lam, dtype=float)
    w = np.asarray(w, dtype=float)
    if lam.size == 0:
        raise ValueError("resolventMixture: no shifts")
    rule = QuadratureRule(float(r), lam, w, "lean", (float(lam.min()), float(lam.max())))
    return fractional_apply(np.eye(a.d), a, float(r), rule, method="direct").T


