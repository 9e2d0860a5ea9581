"""The resolvent operator: one causal attention head with three switches, in NumPy.

This mirrors ``aether_core::resolvent`` (spec: ``spec/resolvent-operator.txt``). For a causal
sequence of length ``n`` with queries/keys ``q_i, k_j`` in R^d, raw gate magnitudes ``u_k``,
phases ``theta_k`` and switches ``(beta, qk, g)``, for ``0 <= j <= i < n``::

    s_ij  = <q_i, k_j> / sqrt(d)                              scaled logit
    m_k   = clamp(lerp(1, u_k, g), 0, 1),  theta'_k = g theta_k   blended gate
    a_k   = m_k exp(i theta'_k)                                the gate
    G_ij  = prod_{k=j+1}^{i} a_k,  G_ii = 1                    the path product
    R_ij  = prod_{k=j+1}^{i} m_k = |G_ij|                      its modulus
    Z_i   = sum_{j<=i} R_ij exp(qk s_ij)                       the row normaliser
    W_ij  = G_ij exp(qk s_ij) / Z_i^beta  (j <= i),  W_ij = 0 (j > i)
    O_i   = sum_{j<=i} W_ij V_j                                the readout

Three familiar operators are corners of this family: :data:`SOFTMAX` ``(1, 1, 0)`` is causal
softmax attention, :data:`UNNORMALIZED_KERNEL` ``(0, 1, 0)`` the bare exponential kernel and
:data:`PATH_PRODUCT` ``(0, 0, 1)`` the exact path product of a gated chain, i.e. the resolvent
``(I - A)^{-1}`` of the gate shift ``A_{i,i-1} = a_i``.

Floating-point rules (they are what makes the spec's bitwise tests meaningful):

- Complex numbers are carried as separate real and imaginary float64 planes and multiplied by
  the textbook formula ``(ac - bd) + (ad + bc)i`` with one rounding per operation. NumPy's
  own complex multiply may fuse multiply-adds (it does on AVX-512 machines), which would make
  results depend on the CPU; this module never uses it on the hot path.
- ``s_ij`` accumulates ``q_it k_jt`` over ``t = 0 .. d-1`` in that order, starting from
  ``0.0``, then divides by ``sqrt(d)``; the sum is vectorized over all ``(i, j)`` but its order
  is fixed, so ``s_ij`` does not depend on BLAS, on ``n`` or on any other entry.
- The row normaliser sums its terms over ``j = 0 .. i`` in order. Consequently each row ``i``
  of :func:`operator` depends only on inputs ``0 .. i`` and is bitwise independent of ``n``.

The two rules above hold for ``exact_order=True`` (the reproducible path). By default
:func:`operator` and :func:`readout` take the score and readout sums from BLAS matrix
products and NumPy reductions over causal row blocks, where the spec does not fix the order,
and :func:`operator_readout` reads each block of ``W`` out as soon as it is formed, never
storing ``W``. The semantics (the normaliser shifted by the row maximum wherever an
exponential could leave the float64 range, live entries, refusals, exact zeros, the path
product's order) are the same on both paths; values agree to rounding
(``tests/impl/test_resolvent_fast.py`` states the tolerances). The evaluation itself lives in
:mod:`mirror.bundled.impl._resolvent_eval`, the switches and the checking of inputs in
:mod:`mirror.bundled.impl._resolvent_inputs`. For a real operator (every gate real, e.g. ``g = 0``),
``operator(..., real=True)`` returns ``W``'s real plane as float64, half the memory of the
complex128 ``W``, and :func:`readout` reads it without conversion.

Everything is vectorized over the ``n^2`` entries; the only Python loops run over ``n`` (one
vectorized column update per step), over ``d`` or over row blocks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from bridge.errors import InvalidArgument
from mirror.bundled.impl import _resolvent_eval as _eval
from mirror.bundled.impl._resolvent_inputs import (
    NON_FINITE_INPUTS, PATH_PRODUCT, SOFTMAX, UNNORMALIZED_KERNEL, NonFinite, Switches,
    _as_array, _complex_vector, _query_key, _real_array, _real_vector, _refuse_non_finite,
    _switches,
)

__all__ = [
    "NON_FINITE_INPUTS",
    "NonFinite",
    "PATH_PRODUCT",
    "SOFTMAX",
    "Switches",
    "UNNORMALIZED_KERNEL",
    "blend",
    "chain_label",
    "gate",
    "operator",
    "operator_readout",
    "path_product",
    "readout",
]

# --------------------------------------------------------------------------- gate pieces


def blend(u: Any, theta: Any, g: Any) -> tuple[Any, Any]:
    """The blended gate ``(m, theta') = (clamp(lerp(1, u, g), 0, 1), g * theta)``.

    ``lerp(1, u, g)`` is evaluated as ``torch.lerp`` does: ``1 + g (u - 1)`` when ``g < 1/2``
    and ``u - (u - 1)(1 - g)`` otherwise. In exact arithmetic both are ``1 + g (u - 1)``; this
    form is exact at both ends, so ``g = 0`` gives ``m = 1`` and ``g = 1`` gives ``m =
    clamp(u, 0, 1)`` bitwise. The clamp maps an overflowing ``lerp`` to 0 or 1. ``theta' = g *
    theta`` may overflow to ``+-inf``; :func:`operator` refuses that as ``blended phase``.

    ``u``, ``theta`` and ``g`` are scalars or broadcastable arrays. Scalars in give Python
    floats out, arrays give float64 arrays. NaN inputs propagate (only :func:`operator` refuses).
    """
    u_arr = _real_array(u, "u")
    theta_arr = _real_array(theta, "theta")
    g_arr = _real_array(g, "g")
    with np.errstate(over="ignore", invalid="ignore"):
        diff = u_arr - 1.0
        low = 1.0 + g_arr * diff
        high = u_arr - diff * (1.0 - g_arr)
        m = np.clip(np.where(g_arr < 0.5, low, high), 0.0, 1.0)
        blended = g_arr * theta_arr
    m, blended = np.broadcast_arrays(m, blended)
    if m.ndim == 0:
        return float(m), float(blended)
    return np.array(m, dtype=np.float64), np.array(blended, dtype=np.float64)


def gate(m: Any, theta: Any) -> Any:
    """The gate ``a = m e^{i theta} = m cos(theta) + i m sin(theta)``, as complex128.

    Each part is one real product (no complex multiply), so ``gate(1, 0) == 1`` exactly and
    ``gate(0, theta) == 0`` exactly for finite ``theta``. Scalars in give a Python ``complex``,
    arrays a complex128 array of the broadcast shape.
    """
    m_arr = _real_array(m, "m")
    theta_arr = _real_array(theta, "theta")
    re, im = _eval.gate_planes(m_arr, theta_arr)
    out = _eval.complex_from_planes(re, im)
    if out.ndim == 0:
        return complex(out)
    return out


def path_product(a: Any) -> np.ndarray:
    """The path product ``G_ij = prod_{k=j+1}^{i} a_k`` (``j <= i``), as complex128 ``[n, n]``.

    ``G_ii = 1`` (the empty product) and ``G_ij = 0`` above the diagonal. The product
    accumulates from ``k = i`` down to ``k = j + 1``, the order the source fixes because a
    complex product is not associative in floating point: ``G_ij = ((1 * a_i) * a_{i-1}) ...
    * a_{j+1}``, i.e. ``G[i, j] = G[i, j+1] * a[j+1]``, computed one column at a time from the
    diagonal leftwards and vectorized over the rows. ``a_0`` is never read. A closed gate
    ``a_k = 0`` makes every path through it exactly 0 (the product is never taken through a
    logarithm).
    """
    arr = _complex_vector(a, "a")
    re, im = _eval.path_planes(arr.real.copy(), arr.imag.copy())
    return _eval.complex_from_planes(re, im)


# --------------------------------------------------------------------------- operator


def operator(
    q: Any,
    k: Any,
    u: Any,
    theta: Any,
    switches: Switches | tuple[float, float, float] = Switches.SOFTMAX,
    *,
    seq: int | None = None,
    head_dim: int | None = None,
    exact_order: bool = False,
    real: bool = False,
) -> np.ndarray:
    """The head's weight matrix ``W`` as complex128 ``[seq, seq]`` (zero above the diagonal).

    ``q`` and ``k`` are ``(seq, head_dim)`` arrays, or flat row-major vectors of length
    ``seq * head_dim`` with ``seq``/``head_dim`` given (``seq`` defaults to ``len(u)``,
    ``head_dim`` to ``len(q) // seq``). ``u`` and ``theta`` have length ``seq``.

    Evaluation: ``Z_i^beta`` is taken in the log domain, ``W_ij = G_ij exp(qk s_ij - beta log
    Z_i)``, where ``log Z_i = M_i + log sum_j R_ij exp(qk s_ij - M_i)`` is shifted by the
    maximum ``M_i`` of ``qk s_ij`` over the live entries (``R_ij > 0``). Every row has a live
    diagonal (``R_ii = 1``), so ``Z_i > 0``; closing every gate leaves the identity. At ``beta =
    1`` this keeps ``|W_ij| <= 1`` (up to rounding) even at logits of ``+-1e4``. With ``qk == 0``
    the logit is exactly 0 and ``s`` is never formed, so an overflowing dot product is accepted.

    Away from ``beta = 1`` a live entry whose true value exceeds the float64 range reads
    ``+-inf``. It never reads NaN: a dead entry (``R_ij == 0``) is exactly 0 and a part (real or
    imaginary lane) of ``G_ij`` that is exactly 0 stays 0 rather than becoming ``0 * inf``.

    Two evaluations share these semantics. The default takes the logits ``Q K^T`` and the
    row sums from BLAS/NumPy reductions, over causal row blocks, and agrees with the other to
    a few units in the last place of the logits (the spec leaves that summation order open;
    the path product keeps its fixed order). ``exact_order=True`` is the bit-reproducible
    evaluation of the module doc: logits summed in ``t`` order without fused multiply-adds,
    row sums in ``j`` order, so each row is bitwise independent of BLAS, of the machine and
    of ``n``. Both evaluate ``qk = 0`` (logit exactly 0) and ``beta = 0`` (``G_ij e^{qk
    s_ij}``) alike; at ``(qk, beta) = (0, 0)`` they agree bitwise.

    ``real=True`` returns the real plane ``W.real`` as float64 ``[seq, seq]``, and is only
    accepted for a real operator: every gate ``a_k`` (``k >= 1``) with imaginary part exactly
    0, as at ``g = 0`` (the softmax and kernel corners) or with every blended phase 0. Then
    every imaginary lane of ``W`` is a zero (the spec's "imaginary part of exactly 0"), so the
    plane is the whole operator, in half the memory; :func:`readout` takes it as it is. The
    values are bitwise those of ``operator(...).real`` on the same path.

    Raises:
        NonFinite: a NaN/infinite switch, query, key, magnitude (``u``) or phase (``theta``), a
            blended phase ``g theta_k`` that overflows, or a logit ``qk s_ij`` (``j <= i``) that
            overflows; ``.input`` names the class.
        InvalidArgument: (a ``ValueError``) shapes that do not fit together, ``head_dim ==
            0`` with ``seq > 0`` (the source panics there), or ``real=True`` with a gate whose
            imaginary part is not 0.
    """
    head = _Head.prepare(q, k, u, theta, switches, seq, head_dim)
    if real:
        head.require_real()
    if head.n == 0:
        return np.zeros((0, 0), dtype=np.float64 if real else np.complex128)
    if not exact_order:
        try:
            return _eval.operator_blas(*head.blas_args(), real=real)
        except _eval.LogitOverflow:
            pass  # the reproducible path refuses, or evaluates where BLAS scaling overflowed
    w = head.ordered()
    return w.real.copy() if real else w


def operator_readout(
    q: Any,
    k: Any,
    u: Any,
    theta: Any,
    v: Any,
    switches: Switches | tuple[float, float, float] = Switches.SOFTMAX,
    *,
    exact_order: bool = False,
) -> np.ndarray:
    """``readout(operator(q, k, u, theta, switches), v)`` in one pass, as complex128 ``[n, c]``.

    Same arguments, semantics and refusals as :func:`operator` then :func:`readout` (``q``,
    ``k`` two-dimensional, ``v`` of shape ``(n, c)`` or ``(n,)``). On the default path the
    weights are never stored: each causal row block of ``W`` is read out as soon as it is
    formed, and its row factor ``e^{M_i - beta log Z_i}`` multiplies the ``(rows, c)`` product
    rather than the weights, so the result agrees with the two-step form to rounding.
    ``exact_order=True`` is exactly ``readout(operator(..., exact_order=True), v,
    exact_order=True)``.
    """
    head = _Head.prepare(q, k, u, theta, switches, None, None)
    v_mat = _real_array(v, "v")
    if v_mat.ndim == 1:
        v_mat = v_mat.reshape(-1, 1)
    if v_mat.ndim != 2 or v_mat.shape[0] != head.n:
        raise InvalidArgument(
            f"operator_readout: v has shape {v_mat.shape}; expected ({head.n}, value_dim) "
            f"to fit seq={head.n}"
        )
    _refuse_non_finite(v_mat, "value", "v")
    if head.n and not exact_order:
        try:
            return _eval.head_blas(v_mat, *head.blas_args())
        except _eval.LogitOverflow:
            pass
    w = head.ordered() if head.n else np.zeros((0, 0), dtype=np.complex128)
    with np.errstate(over="ignore", invalid="ignore"):
        if exact_order:
            return _eval.readout_ordered(w, v_mat)
        return _eval.readout_blas(w, v_mat)


@dataclass(frozen=True)
class _Head:
    """Checked inputs of one head: ``q``, ``k`` as ``(n, d)``, the blended gate planes."""

    q: np.ndarray
    k: np.ndarray
    switches: Switches
    m: np.ndarray
    a_re: np.ndarray
    a_im: np.ndarray
    unit: bool

    @property
    def n(self) -> int:
        return self.q.shape[0]

    @classmethod
    def prepare(cls, q, k, u, theta, switches, seq, head_dim) -> "_Head":
        """Check shapes, refuse non-finite input and blend the gates (see :func:`operator`)."""
        sw = _switches(switches)
        u_vec = _real_vector(u, "u")
        theta_vec = _real_vector(theta, "theta")
        q_mat, k_mat, n, _ = _query_key(q, k, u_vec, theta_vec, seq, head_dim)

        for name, value in (("beta", sw.beta), ("qk", sw.qk), ("g", sw.g)):
            if not math.isfinite(value):
                raise NonFinite("switch", f"Switches.{name} = {value!r}")
        _refuse_non_finite(q_mat, "query", "q")
        _refuse_non_finite(k_mat, "key", "k")
        _refuse_non_finite(u_vec, "magnitude", "u")
        _refuse_non_finite(theta_vec, "phase", "theta")

        if sw.g == 0.0:
            # The gates switched off: for finite u and theta, blend gives m = 1 and theta' =
            # g * theta (a signed zero), so a = 1 * cos(+-0) + i 1 * sin(+-0) = 1 + (g *
            # theta) i, bitwise; taken without the general blend's passes.
            m = np.ones(n, dtype=np.float64)
            a_im = np.multiply(sw.g, theta_vec)
            return cls(q_mat, k_mat, sw, m, m, a_im, True)
        m, blended = blend(u_vec, theta_vec, sw.g)
        m = np.asarray(m, dtype=np.float64).reshape(n)
        blended = np.asarray(blended, dtype=np.float64).reshape(n)
        bad = np.flatnonzero(~np.isfinite(blended))
        if bad.size:
            i = int(bad[0])
            raise NonFinite(
                "blended phase",
                f"g * theta[{i}] = {sw.g!r} * {float(theta_vec[i])!r} overflows",
            )
        a_re, a_im = _eval.gate_planes(m, blended)
        # Every gate exactly 1 (e.g. g = 0): the ordered products are exactly 1 + 0i on the
        # causal triangle, so the loops are skipped (bitwise the same result).
        unit = bool(np.all(a_re[1:] == 1.0) and np.all(a_im[1:] == 0.0))
        return cls(q_mat, k_mat, sw, m, a_re, a_im, unit)

    def require_real(self) -> None:
        """Refuse ``real=True`` for an operator with a gate off the real axis."""
        off_axis = np.flatnonzero(self.a_im[1:] != 0.0)
        if off_axis.size:
            i = int(off_axis[0]) + 1
            raise InvalidArgument(
                f"operator: real=True but gate a[{i}] = {complex(self.a_re[i], self.a_im[i])!r}"
                f" (g = {self.switches.g!r}) is not real; expected every gate a_k, k >= 1, "
                "with imaginary part 0 (e.g. g = 0)"
            )

    def blas_args(self) -> tuple:
        """Arguments of :func:`_resolvent_eval.weight_blocks`."""
        sw = self.switches
        return (self.q, self.k, self.m, self.a_re, self.a_im, self.unit, sw.beta, sw.qk)

    def ordered(self) -> np.ndarray:
        """``W`` on the reproducible path; refuses a non-finite causal logit."""
        sw = self.switches
        n, d = self.q.shape
        logit = _eval.ordered_logits(self.q, self.k, sw.qk)
        bad_logit = np.tri(n, n, dtype=bool) & ~np.isfinite(logit)
        if bad_logit.any():
            i, j = (int(x) for x in np.argwhere(bad_logit)[0])
            raise NonFinite(
                "logit",
                f"qk * s[{i}, {j}] = {sw.qk!r} * <q_{i}, k_{j}>/sqrt({d}) is {logit[i, j]!r}",
            )
        return _eval.operator_ordered(logit, self.m, self.a_re, self.a_im, self.unit, sw.beta)


def readout(
    w: Any,
    v: Any,
    *,
    seq: int | None = None,
    value_dim: int | None = None,
    exact_order: bool = False,
) -> np.ndarray:
    """The readout ``O_i = sum_{j <= i} W_ij V_j`` as complex128 ``[seq, value_dim]``.

    ``w`` is ``(seq, seq)`` (or flat of length ``seq^2``); ``v`` is ``(seq, value_dim)``,
    ``(seq,)`` (read as ``value_dim = 1``; the result is still 2-D) or flat row-major with
    ``value_dim`` given. A real ``w`` (e.g. from ``operator(..., real=True)``) is read as
    the complex operator with zero imaginary lanes, without conversion: the same products
    and sums, so the readouts agree (bitwise on the reproducible path; on the default path
    the BLAS reads one plane in place rather than from a copy). Entries of ``w`` above the
    diagonal are ignored (treated as 0), so the
    readout is causal whatever ``w`` holds there. Non-finite values are refused with
    ``NonFinite(input="value")``; a ``w`` holding ``+-inf`` (an overflowed operator away from
    ``beta = 1``) gives an undefined result, as in the source, and is not guarded.

    By default the sums are BLAS matrix products over causal row blocks (a block whose
    imaginary lanes are all zero skips its imaginary product). ``exact_order=True`` sums
    ``j = 0 .. i`` in order, one rounding per product and per addition, so row ``i`` is
    bitwise independent of BLAS and of ``n``.
    """
    w_arr = _as_array(w, "w", allow_complex=True)
    w_arr = w_arr.astype(np.complex128 if np.iscomplexobj(w_arr) else np.float64, copy=False)
    v_arr = _real_array(v, "v")
    if w_arr.ndim == 1:
        side = math.isqrt(w_arr.size) if seq is None else seq
        if side * side != w_arr.size:
            raise InvalidArgument(
                f"readout: w is flat with {w_arr.size} entries and seq={seq!r}; "
                "expected seq * seq entries"
            )
        w_arr = w_arr.reshape(side, side)
    if w_arr.ndim != 2 or w_arr.shape[0] != w_arr.shape[1]:
        raise InvalidArgument(
            f"readout: w has shape {w_arr.shape}; expected a square (seq, seq) matrix"
        )
    n = w_arr.shape[0]
    if seq is not None and seq != n:
        raise InvalidArgument(f"readout: w has shape {w_arr.shape} but seq={seq!r}")
    if v_arr.ndim == 1:
        if value_dim is None:
            value_dim = 1
        if value_dim < 0 or v_arr.size != n * value_dim:
            raise InvalidArgument(
                f"readout: v has shape {v_arr.shape}; expected seq * value_dim = "
                f"{n} * {value_dim} entries to fit w of shape {w_arr.shape}"
            )
        v_arr = v_arr.reshape(n, value_dim)
    if v_arr.ndim != 2 or v_arr.shape[0] != n or (
        value_dim is not None and v_arr.shape[1] != value_dim
    ):
        raise InvalidArgument(
            f"readout: v has shape {v_arr.shape} and value_dim={value_dim!r}; expected "
            f"({n}, value_dim) to fit w of shape {w_arr.shape}"
        )
    _refuse_non_finite(v_arr, "value", "v")
    with np.errstate(over="ignore", invalid="ignore"):
        if exact_order:
            return _eval.readout_ordered(w_arr, v_arr)
        return _eval.readout_blas(w_arr, v_arr)


def chain_label(a: Any, b: Any) -> np.ndarray:
    """The gated chain ``y_i = a_i y_{i-1} + b_i`` with ``y_{-1} = 0``, as complex128 ``[n]``.

    So ``y_0 = b_0``. The spec states the chain as ``y_0 = 0`` under the convention ``b_0 =
    0``; with ``b_0 = 0`` the two agree, and with any ``b`` this chain equals the readout of
    the path-product corner, ``y = G b`` (``a_0`` is never read). ``a`` is complex (or real),
    ``b`` real, both of length ``n``. The recurrence is inherently sequential (one step per
    position); complex products use the textbook formula with one rounding per operation, on
    values carried as a mantissa and a binary exponent (:func:`_eval.chain_planes`), so that a
    prefix beyond float64's range does not poison the rest (``0 · inf``).
    """
    a_vec = _complex_vector(a, "a")
    b_vec = _real_vector(b, "b")
    if a_vec.size != b_vec.size:
        raise InvalidArgument(
            f"chain_label: a has length {a_vec.size} and b has length {b_vec.size}; "
            "expected equal lengths"
        )
    return _eval.chain_planes(a_vec.real.copy(), a_vec.imag.copy(), b_vec.copy())
