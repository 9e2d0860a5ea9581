"""How the resolvent operator is evaluated: the reproducible path and the BLAS path.

Private to :mod:`mirror.bundled.impl.resolvent`, which checks arguments and refuses non-finite input
before anything here runs. Planes are float64 arrays; complex numbers are carried as separate
real and imaginary planes (see the module doc of :mod:`mirror.bundled.impl.resolvent`).

- The reproducible path (``exact_order=True``) sums the logits over ``t`` and the row
  normaliser over ``j`` in fixed order, one rounding per operation, on the whole ``n x n``
  plane.
- The BLAS path works on causal row blocks: block ``[r0, r1)`` of rows only touches columns
  ``< r1`` (the rest of the triangle is zero). Its logits are one matrix product ``(qk /
  sqrt(d)) Q K^T``, its row sums NumPy's. Path products keep their fixed order on both paths.
"""

from __future__ import annotations

import math
from typing import Iterator

import numpy as np


class LogitOverflow(ArithmeticError):
    """A BLAS logit on a block's rows is not finite: the reproducible path must decide."""


def ordered_logits(q: np.ndarray, k: np.ndarray, qk: float) -> np.ndarray:
    """``qk * s_ij`` on the reproducible path (exactly 0 when ``qk == 0``)."""
    n, d = q.shape
    if qk == 0.0:
        return np.zeros((n, n), dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        return qk * scaled_logits(q, k, d)


def operator_ordered(
    logit: np.ndarray,
    m: np.ndarray,
    a_re: np.ndarray,
    a_im: np.ndarray,
    unit: bool,
    beta: float,
) -> np.ndarray:
    """``W`` from finite causal logits: the log-domain normaliser, row sums in ``j`` order."""
    n = logit.shape[0]
    causal = np.tri(n, n, dtype=bool)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        if unit:
            g_re = causal.astype(np.float64)
            g_im = np.zeros((n, n), dtype=np.float64)
            modulus = g_re
        else:
            g_re, g_im = path_planes(a_re, a_im)
            modulus = path_modulus(m)
        live = causal & (modulus > 0.0)

        shifted = np.where(live, logit, -np.inf)
        row_max = shifted.max(axis=1)
        terms = np.where(live, modulus * np.exp(shifted - row_max[:, None]), 0.0)
        total = ordered_row_sum(terms)
        log_z = row_max + np.log(total)

        scale = np.exp(logit - beta * log_z[:, None])
        w_re = np.where(live, np.where(g_re != 0.0, g_re * scale, g_re), 0.0)
        w_im = np.where(live, np.where(g_im != 0.0, g_im * scale, g_im), 0.0)
    return complex_from_planes(w_re, w_im)


def weight_blocks(
    q: np.ndarray,
    k: np.ndarray,
    m: np.ndarray,
    a_re: np.ndarray,
    a_im: np.ndarray,
    unit: bool,
    beta: float,
    qk: float,
) -> Iterator[tuple[int, int, np.ndarray, np.ndarray | None, np.ndarray | None]]:
    """The BLAS path's operator, one causal row block at a time.

    Yields ``(r0, r1, re, im, (apply, column))``: rows ``r0 .. r1-1`` of ``W`` restricted to
    columns ``< r1`` are ``apply(re, column)`` and ``apply(im, column)``, with ``apply``
    ``np.multiply`` or ``np.divide`` and ``column`` positive and finite (``1.0`` or ``(rows,
    1)``); ``im`` is ``None`` when every gate is 1. ``re`` may be a view of one scratch
    plane that the next block overwrites: the consumer uses (or copies) it before asking
    for the next block, and may modify it in place.

    At ``beta = 0`` an entry is ``G_ij e^{qk s_ij}``. Otherwise ``W_ij = G_ij e^{qk s_ij -
    M_i} e^{M_i - beta log Z_i}`` with ``M_i`` the largest live logit of row ``i`` and the
    second factor taken once per row; a row whose factor would leave ``[e^-700, e^700]``
    takes ``e^{qk s_ij - beta log Z_i}`` directly. The shift keeps the reproducible path's
    exact values: a row with one live entry reads exactly 1 at ``beta = 1``, and ``|W_ij| <=
    1`` there. At ``beta = 1``, when a bound on every logit, ``|qk s_ij| <= B <= 300``, shows
    that no ``exp`` can overflow or underflow, the shift is ``M_i = 0`` and ``W_ij = G_ij
    e^{qk s_ij} / Z_i`` is one division (the same real number; a lone live entry is still
    ``x / x = 1`` and a sum of non-negative terms is at least each of them;
    with every gate 1, :func:`operator_blas` multiplies by a reciprocal instead, see
    :func:`_normalise_rows`).
    Dead entries (above the diagonal, or ``R_ij = 0``) are 0, and a lane of ``G_ij`` that
    is exactly 0 stays as it is.

    Raises:
        LogitOverflow: a logit on a block's rows is not finite (folding the scale into ``Q``
            can overflow where ``qk * s_ij`` does not, so the caller re-decides).
    """
    n, d = q.shape
    if not unit:
        g_re, g_im = path_planes(a_re, a_im)
        modulus = path_modulus(m)
    if qk == 0.0:
        scaled_q, bound = None, 0.0
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            scaled_q = q * (qk / math.sqrt(d))
            # Cauchy-Schwarz: |<sq_i, k_j>| <= max_i |sq_i| max_j |k_j|; the margin covers
            # the rounding of the norms and of the products (NaN, from 0 * inf, is no bound).
            q_norm = math.sqrt(float(np.einsum("ij,ij->i", scaled_q, scaled_q).max()))
            k_norm = math.sqrt(float(np.einsum("ij,ij->i", k, k).max()))
            bound = q_norm * k_norm * (1 + 1e-9)
    # |M_i - beta log Z_i| <= |1 - beta| B + |beta| log n: no row can be wide below 700, and
    # the logits need not be kept once shifted.
    keep_logits = not abs(1.0 - beta) * bound + abs(beta) * math.log(n) <= 600.0
    divide = beta == 1.0 and bound <= 300.0
    keys = np.ascontiguousarray(k.T)
    block = row_block(n)
    upper = ~np.tri(block, block, dtype=bool)
    # One scratch plane for every block's logits (contiguous per block, reshaped in place):
    # the BLAS product, the exponential and the row factor all work in it.
    scratch = np.empty(block * n, dtype=np.float64)
    ones = np.ones(n, dtype=np.float64)
    for r0 in range(0, n, block):
        r1 = min(n, r0 + block)
        dead = upper[: r1 - r0, : r1 - r0]
        logit = scratch[: (r1 - r0) * r1].reshape(r1 - r0, r1)
        with np.errstate(over="ignore", invalid="ignore", under="ignore"):
            if scaled_q is None:
                logit.fill(0.0)
            else:
                np.matmul(scaled_q[r0:r1], keys[:, :r1], out=logit)
                if not bound < 1e300 and not np.isfinite(logit).all():
                    raise LogitOverflow(f"rows {r0}..{r1 - 1}")
            live = None if unit else modulus[r0:r1, :r1] > 0.0
            if beta == 0.0 or divide:
                row_max = 0.0
                scale = np.exp(logit, out=logit)
            else:
                if unit:  # columns < r0 are all live; mask the diagonal block only
                    diagonal = np.where(dead, -np.inf, logit[:, r0:r1]).max(axis=1)
                    row_max = np.maximum(logit[:, :r0].max(axis=1, initial=-np.inf), diagonal)
                else:
                    row_max = np.where(live, logit, -np.inf).max(axis=1)
                row_max = row_max[:, None]
                scale = np.subtract(logit, row_max, out=None if keep_logits else logit)
                np.exp(scale, out=scale)
            _bury(scale, live, dead, r0)
            scaling = (np.multiply, 1.0)
            if beta != 0.0:
                total = scale @ ones[:r1] if unit else np.einsum(
                    "ij,ij->i", modulus[r0:r1, :r1], scale)
            if divide:
                scaling = (np.divide, total[:, None])
            elif beta != 0.0:
                log_z = row_max + np.log(total)[:, None]
                shift = row_max - beta * log_z
                wide = (np.abs(shift) > 700.0)[:, 0]
                scaling = (np.multiply, np.exp(np.where(wide[:, None], 0.0, shift)))
                if wide.any():
                    scale[wide] = np.exp(logit[wide] - beta * log_z[wide])
                    _bury(scale, live, dead, r0)
            if unit:
                lanes = [scale, None]
            else:
                lanes = []
                for plane in (g_re, g_im):
                    lane = plane[r0:r1, :r1]
                    lanes.append(np.where(live, np.where(lane != 0.0, lane * scale, lane), 0.0))
        yield r0, r1, lanes[0], lanes[1], scaling


def _bury(scale: np.ndarray, live: np.ndarray | None, dead: np.ndarray, r0: int) -> None:
    """Zero a block's dead entries: ``~live``, or (every gate 1) the diagonal block's upper
    triangle ``dead`` at columns ``r0 ..``."""
    if live is None:
        np.copyto(scale[:, r0 : r0 + dead.shape[1]], 0.0, where=dead)
    else:
        np.copyto(scale, 0.0, where=~live)


def operator_blas(*args: object, real: bool = False) -> np.ndarray:
    """``W`` as complex128 ``[n, n]`` from :func:`weight_blocks` (same arguments), or its
    real plane as float64 with ``real`` (the caller has checked that every gate is real).

    Each row is written once, left to right: the block's weights and then the zeros above
    it. Real weights are normalised where they lie, in the block's scratch plane (in cache),
    and copied out: a ufunc writing straight into the large ``W`` is slower than the copy.
    """
    n = args[0].shape[0]
    out = np.empty((n, n), dtype=np.float64 if real else np.complex128)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        for r0, r1, re, im, (apply, column) in weight_blocks(*args):
            target = out[r0:r1, :r1]
            if im is None or real:  # real weights: a complex target gets +0.0 imaginary lanes
                if apply is np.divide and im is None:
                    _normalise_rows(re, column, r0, re)
                else:
                    apply(re, column, out=re)
                target[...] = re
            else:
                apply(re, column, out=target.real)
                apply(im, column, out=target.imag)
            out[r0:r1, r1:] = 0.0
    return out


def _normalise_rows(block: np.ndarray, total: np.ndarray, r0: int, out: np.ndarray) -> None:
    """``out = block / total`` (every gate 1, ``beta = 1``), by a multiplication per entry.

    Division costs several times a multiplication per entry. The reciprocal of each row's
    total is lowered (``nextafter``) while ``total * recip > 1`` (a guard: in binary64 with
    rounding to nearest ``x * (1 / x)`` does not exceed 1); rounding is monotone, so every
    entry, at most its row's total, stays ``<= 1`` as under division. Row 0 has one live
    entry (the diagonal) and is divided, so it reads exactly 1. Each other entry is within
    two units in the last place of the quotient.
    """
    recip = 1.0 / total
    while True:
        high = recip * total > 1.0
        if not high.any():
            break
        recip[high] = np.nextafter(recip[high], 0.0)
    lone = 1 if r0 == 0 else 0
    np.divide(block[:lone], total[:lone], out=out[:lone])
    np.multiply(block[lone:], recip[lone:], out=out[lone:])


def head_blas(v: np.ndarray, *args: object) -> np.ndarray:
    """``O = W V`` as complex128 ``[n, c]`` from :func:`weight_blocks`, never forming ``W``.

    Each block contributes ``apply(lanes V, column)``: the per-row factor is applied to the
    ``(rows, c)`` product instead of the ``(rows, r1)`` weights.
    """
    n, c = v.shape
    v = np.ascontiguousarray(v)
    out = np.zeros((n, c), dtype=np.complex128)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        for r0, r1, re, im, (apply, column) in weight_blocks(*args):
            for lanes, target in ((re, out.real), (im, out.imag)):
                if lanes is None:
                    continue
                product = lanes @ v[:r1]
                target[r0:r1] = apply(product, column)
    return out


def readout_ordered(w: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``O_i = sum_{j <= i} W_ij V_j`` accumulated over ``j`` in order, rows ``i >= j`` only."""
    n, c = v.shape
    planes = (np.zeros((n, c), dtype=np.float64), np.zeros((n, c), dtype=np.float64))
    term = np.empty((n, c), dtype=np.float64)
    for lanes, plane in zip((w.real, w.imag), planes):
        columns = np.tril(lanes).T.copy()
        if not columns.view(np.uint64).any():  # every lane +0.0 (e.g. the imaginary plane
            continue  # at g = 0): each sum is +0.0, as it starts
        for j in range(n):
            np.multiply(columns[j, j:, None], v[j], out=term[j:])
            plane[j:] += term[j:]
    return complex_from_planes(*planes)


def readout_blas(w: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``O = tril(W) V`` by BLAS products over causal row blocks, as complex128 ``[n, c]``.

    Only columns ``< r1`` of block ``[r0, r1)`` of rows are read, and the upper triangle
    of its diagonal block is zeroed in a scratch copy, so the upper triangle of ``W`` is
    never read. A real ``w`` is one plane (imaginary part +0.0), multiplied where it lies,
    by spans of ``4`` blocks: the span ``[s0, s1)``'s columns ``< s0`` times ``V[:s0]`` in
    one product, and in each of its blocks the columns ``s0 .. r0`` times ``V[s0:r0]``
    plus the diagonal block's copy times ``V[r0:r1]``. A complex ``w``'s lanes are interleaved, so each plane of the block is
    copied whole into a contiguous scratch plane (one pass over the block) and multiplied
    by ``V[:r1]``; before that, the imaginary lanes are tested on their bit patterns (an
    OR over the block's rows, then over its odd lanes), and a block whose imaginary lanes
    are all +0.0 contributes nothing to the imaginary part and skips its product. Blocks
    are taken bottom-up, and the parts of ``O`` are summed in float64 planes.
    """
    n, c = v.shape
    w = np.ascontiguousarray(w)
    v = np.ascontiguousarray(v)
    complex_lanes = np.iscomplexobj(w)
    planes = (w.real, w.imag) if complex_lanes else (w,)
    bits = w.view(np.uint64).reshape(n, 2 * n) if complex_lanes else None
    # O's parts, made complex once at the end: every block writes its rows of the real
    # part; the imaginary part is +0.0 where a block skips it (or for a real ``w``).
    sums = (np.empty((n, c), dtype=np.float64),
            np.zeros((n, c), dtype=np.float64) if complex_lanes else None)
    block = row_block(n)
    upper = ~np.tri(block, block, dtype=bool)
    scratch = np.empty(block * (n if complex_lanes else block), dtype=np.float64)
    span = 4 * block
    products = np.empty((span, c), dtype=np.float64)
    # Bottom-up: the operator writes W top-down, so its last blocks (the largest) are the
    # ones most likely still in cache. Each row's sum does not depend on the block order.
    for r0 in reversed(range(0, n, block)):
        r1 = min(n, r0 + block)
        rows = r1 - r0
        earlier = products[:rows]
        for imaginary, plane in enumerate(planes):
            result = sums[imaginary][r0:r1]
            if imaginary and not np.bitwise_or.reduce(bits[r0:r1, : 2 * r1], axis=0)[1::2].any():
                continue
            if complex_lanes:
                lanes = scratch[: rows * r1].reshape(rows, r1)
                np.copyto(lanes, plane[r0:r1, :r1])
                np.copyto(lanes[:, r0:], 0.0, where=upper[:rows, :rows])
                np.matmul(lanes, v[:r1], out=result)
            else:
                diagonal = scratch[: rows * rows].reshape(rows, rows)
                np.copyto(diagonal, plane[r0:r1, r0:r1])
                np.copyto(diagonal, 0.0, where=upper[:rows, :rows])
                np.matmul(diagonal, v[r0:r1], out=result)
                s0 = r0 - r0 % span
                if r0 > s0:
                    np.matmul(plane[r0:r1, s0:r0], v[s0:r0], out=earlier)
                    result += earlier
                if r0 == s0 > 0:  # the span's last block (bottom-up): its rows are set
                    s1 = min(n, s0 + span)
                    wide = products[: s1 - s0]
                    np.matmul(plane[s0:s1, :s0], v[:s0], out=wide)
                    sums[0][s0:s1] += wide
    return complex_from_planes(sums[0], sums[1] if complex_lanes else 0.0)


def gate_planes(m: np.ndarray, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Real and imaginary planes of ``m e^{i theta}``: ``(m cos theta, m sin theta)``."""
    with np.errstate(invalid="ignore", over="ignore"):
        return m * np.cos(theta), m * np.sin(theta)


def path_planes(a_re: np.ndarray, a_im: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Planes of the path product, ``G[i, j] = G[i, j+1] * a[j+1]`` column by column.

    The work is done on the transpose (``T[j, i] = G[i, j]``) so that each step writes one
    contiguous row: ``T[c, c+1:] = T[c+1, c+1:] * a[c+1]``. Every partial product is carried
    as a mantissa (largest lane in ``[1/2, 1)``) and a binary exponent (:func:`scaled`), so a
    path whose partial products leave float64's range still ends at its true value (a closed
    gate gives exactly 0, never ``0 * inf``); only the final value rounds to ``±inf`` or to a
    subnormal. Scaling by powers of two is exact, so in range the values are the unscaled
    products' bit for bit (up to lanes more than 2^1022 below the other, whose error is far
    below an ulp of the modulus).
    """
    n = a_re.size
    t_re = np.zeros((n, n), dtype=np.float64)
    t_im = np.zeros((n, n), dtype=np.float64)
    t_exp = np.zeros((n, n), dtype=np.int64)
    diagonal = np.arange(n)
    t_re[diagonal, diagonal] = 1.0
    m_re, m_im, m_exp = scaled(a_re, a_im, 0)
    with np.errstate(under="ignore"):
        for c in range(n - 2, -1, -1):
            prev_re = t_re[c + 1, c + 1 :]
            prev_im = t_im[c + 1, c + 1 :]
            ar = m_re[c + 1]
            ai = m_im[c + 1]
            t_re[c, c + 1 :], t_im[c, c + 1 :], t_exp[c, c + 1 :] = scaled(
                prev_re * ar - prev_im * ai, prev_re * ai + prev_im * ar,
                t_exp[c + 1, c + 1 :] + m_exp[c + 1])
    return unscaled(t_re.T, t_exp.T), unscaled(t_im.T, t_exp.T)


def chain_planes(a_re: np.ndarray, a_im: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The gated chain ``y_0 = b_0``, ``y_i = a_i y_{i-1} + b_i`` as complex128 ``[n]``, each
    ``y_i`` carried as a mantissa and a binary exponent (:func:`scaled`): the product and the
    sum round as the unscaled formula (``(a_re y_re − a_im y_im) + b``), the power-of-two
    alignments are exact, and only the stored value rounds to ``±inf`` or a subnormal."""
    n = b.size
    out_re = np.zeros(n)
    out_im = np.zeros(n)
    out_exp = np.zeros(n, dtype=np.int64)
    ar, ai, ae = (v.tolist() for v in scaled(a_re, a_im, np.zeros(n, dtype=np.int64)))
    bm, be = (v.tolist() for v in np.frexp(b))
    y_re, y_im, y_exp = 0.0, 0.0, 0
    for i in range(n):
        if i == 0:
            y_re, y_im, y_exp = bm[0], 0.0, be[0]
        else:
            p_re = ar[i] * y_re - ai[i] * y_im
            p_im = ar[i] * y_im + ai[i] * y_re
            p_exp = ae[i] + y_exp
            top = (p_exp if bm[i] == 0.0 else be[i] if p_re == 0.0 == p_im
                   else max(p_exp, be[i]))
            y_re = math.ldexp(p_re, p_exp - top) + math.ldexp(bm[i], be[i] - top)
            y_im = math.ldexp(p_im, p_exp - top)
            shift = math.frexp(max(abs(y_re), abs(y_im)))[1]
            y_re, y_im, y_exp = math.ldexp(y_re, -shift), math.ldexp(y_im, -shift), top + shift
        out_re[i], out_im[i], out_exp[i] = y_re, y_im, y_exp
    return complex_from_planes(unscaled(out_re, out_exp), unscaled(out_im, out_exp))


def scaled(re, im, exp):
    """``(re, im) · 2^exp`` as a mantissa whose largest lane is in ``[1/2, 1)`` (0 stays 0)
    and its exponent."""
    _, shift = np.frexp(np.maximum(np.abs(re), np.abs(im)))
    return np.ldexp(re, -shift), np.ldexp(im, -shift), exp + shift


def unscaled(mantissa: np.ndarray, exp: np.ndarray) -> np.ndarray:
    """``mantissa · 2^exp``, rounded once: ``±inf`` beyond float64's range, a subnormal or 0
    below it."""
    with np.errstate(over="ignore", under="ignore"):
        return np.ldexp(mantissa, np.clip(exp, -4000, 4000).astype(np.int32))


def path_modulus(m: np.ndarray) -> np.ndarray:
    """``R_ij = prod_{k=j+1}^{i} m_k``, in the same order as :func:`path_planes`."""
    n = m.size
    t = np.zeros((n, n), dtype=np.float64)
    diagonal = np.arange(n)
    t[diagonal, diagonal] = 1.0
    with np.errstate(under="ignore"):
        for c in range(n - 2, -1, -1):
            t[c, c + 1 :] = t[c + 1, c + 1 :] * m[c + 1]
    return t.T.copy()


def row_block(n: int) -> int:
    """Rows per block of the fast paths: about 512 KiB of float64 scratch per block, so that
    a block's plane stays in a per-core L2 cache between its passes (64 rows at n = 1024)."""
    return max(32, min(256, 65536 // max(n, 1)))


def scaled_logits(q: np.ndarray, k: np.ndarray, d: int) -> np.ndarray:
    """``s_ij = (sum_{t=0}^{d-1} q_it k_jt) / sqrt(d)``, summed in ``t`` order from 0.0.

    Vectorized over ``(i, j)`` in row blocks that fit in cache; one multiply and one add per
    ``t`` (never a fused multiply-add), so the value does not depend on BLAS or on ``n``.
    """
    n = q.shape[0]
    out = np.zeros((n, n), dtype=np.float64)
    k_cols = np.ascontiguousarray(k.T)
    block = max(1, 65536 // max(n, 1))
    product = np.empty((block, n), dtype=np.float64)
    for start in range(0, n, block):
        stop = min(n, start + block)
        acc = out[start:stop]
        tmp = product[: stop - start]
        for t in range(d):
            np.multiply(q[start:stop, t : t + 1], k_cols[t], out=tmp)
            np.add(acc, tmp, out=acc)
    out /= math.sqrt(d)
    return out


def ordered_row_sum(terms: np.ndarray) -> np.ndarray:
    """Row sums taken over ``j = 0, 1, ..`` in order (so row ``i`` does not depend on ``n``)."""
    columns = np.ascontiguousarray(terms.T)
    total = np.zeros(terms.shape[0], dtype=np.float64)
    for j in range(columns.shape[0]):
        total += columns[j]
    return total


def complex_from_planes(re: np.ndarray, im: np.ndarray) -> np.ndarray:
    """A complex128 array whose parts are exactly ``re`` and ``im`` (no arithmetic)."""
    re, im = np.broadcast_arrays(np.asarray(re, dtype=np.float64), np.asarray(im, dtype=np.float64))
    out = np.empty(re.shape, dtype=np.complex128)
    out.real = re
    out.imag = im
    return out
