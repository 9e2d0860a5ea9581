"""Attention Op Specs: ``softmax``, ``causalGQA``, ``slidingGQA``, ``decodeGQA``,
``slidingDecodeGQA`` (no Lean definition in spec 1.0), ``sigmoidGate``.

Shapes follow the Lean definitions, with optional leading batch axes:
``q[..., S, Hkv, G, D]``, ``k, v[..., L, Hkv, D]``, output ``[..., S, Hkv, G, D]``.
KV head ``c`` serves the ``G`` query heads ``c·G + g``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from bridge.errors import InvalidArgument
from mirror.bundled.impl.ops._checks import _array, _broadcast_batch, _dtype, _int_array, _natural, _scalar
from mirror.bundled.impl.ops.scalar import sigmoid


def softmax(s: Any, visible: Any = None, *, dtype: Any = None) -> np.ndarray:
    """Masked softmax over the last axis.

    ``visible`` is a boolean mask broadcastable to ``s`` (``None``: all visible). Invisible
    entries are 0; a row with nothing visible is all 0 (the Lean definition's value).
    """
    dt = _dtype(dtype)
    logits = _array("s", s, dt, min_ndim=1)
    if visible is None:
        mask = np.ones(logits.shape, dtype=bool)
    else:
        mask = np.asarray(visible)
        if mask.dtype != np.bool_:
            raise InvalidArgument(
                f"argument 'visible' has dtype {mask.dtype}; expected a boolean mask"
            )
        try:
            mask = np.broadcast_to(mask, logits.shape)
        except ValueError as exc:
            raise InvalidArgument(
                f"argument 'visible' has shape {mask.shape}; expected a shape broadcastable "
                f"to s's shape {logits.shape}"
            ) from exc
    return _masked_softmax(logits, mask)


def _masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax over the last axis restricted to ``mask``; rows with no visible entry are 0."""
    shifted = np.where(mask, logits, -np.inf)
    top = np.max(shifted, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    weights = np.where(mask, np.exp(np.where(mask, logits - top, 0.0)), 0.0)
    total = np.sum(weights, axis=-1, keepdims=True)
    return weights / np.where(total > 0, total, 1.0)


def _qkv(q: Any, k: Any, v: Any, dt: np.dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Check ``q[..., S, Hkv, G, D]``, ``k[..., L, Hkv, D]``, ``v[..., L, Hkv, D]``."""
    qa = _array("q", q, dt, min_ndim=4)
    ka = _array("k", k, dt, min_ndim=3)
    va = _array("v", v, dt, min_ndim=3)
    _, hkv, _, d = qa.shape[-4:]
    if ka.shape[-2:] != (hkv, d):
        raise InvalidArgument(
            f"argument 'k' has shape {ka.shape}; expected trailing shape (L, Hkv, D) = "
            f"(*, {hkv}, {d}) from q's shape {qa.shape} (S, Hkv, G, D)"
        )
    if va.shape[-3:] != ka.shape[-3:]:
        raise InvalidArgument(
            f"argument 'v' has shape {va.shape}; expected trailing shape (L, Hkv, D) = "
            f"{ka.shape[-3:]} like k"
        )
    _broadcast_batch(("q", "k", "v"), (qa.shape[:-4], ka.shape[:-3], va.shape[:-3]))
    return qa, ka, va


def _grouped_attention(scale: float, q: np.ndarray, k: np.ndarray, v: np.ndarray,
                       mask: np.ndarray) -> np.ndarray:
    """``Σ_l softmax(scale · q·k_l, mask)_l · v_l`` with ``mask[..., S, L]``."""
    qh = np.moveaxis(q, -4, -2)  # [..., Hkv, G, S, D]
    kh = np.moveaxis(k, -3, -2)[..., :, None, :, :]  # [..., Hkv, 1, L, D]
    vh = np.moveaxis(v, -3, -2)[..., :, None, :, :]
    with np.errstate(over="ignore", invalid="ignore"):
        logits = scale * (qh @ np.swapaxes(kh, -1, -2))  # [..., Hkv, G, S, L]
    visible = mask[..., None, None, :, :]
    if logits.dtype.kind == "f" and not np.isfinite(logits).all():
        logits = _exact_rows(scale, qh, kh, logits, visible)
    probs = _masked_softmax(logits, visible)
    return np.moveaxis(probs @ vh, -2, -4)  # [..., S, Hkv, G, D]


def _exact_rows(scale: float, qh: np.ndarray, kh: np.ndarray, logits: np.ndarray,
                visible: np.ndarray) -> np.ndarray:
    """Logit rows with a non-finite visible entry from finite operands (``q·k`` overflowed,
    ``0 · inf``), recomputed exactly: softmax is shift-invariant, so such a row becomes its
    exact logits minus their exact visible maximum, each rounded once (``-inf`` where the gap
    is beyond float64's range, whose weight ``exp`` rounds to 0 anyway). Rows from
    non-finite operands are left as they are."""
    if not (np.isfinite(qh).all() and np.isfinite(kh).all() and math.isfinite(scale)):
        return logits
    shape = logits.shape
    qb = np.broadcast_to(qh, shape[:-1] + qh.shape[-1:])
    kb = np.broadcast_to(kh, shape[:-2] + kh.shape[-2:])
    vis = np.broadcast_to(visible, shape)
    out = logits.copy()
    bad = (~np.isfinite(logits) & vis).any(axis=-1)
    factor = Fraction(float(scale))
    for row in map(tuple, np.argwhere(bad)):
        cols = np.flatnonzero(vis[row])
        query = [Fraction(float(u)) for u in qb[row]]
        exact = [factor * sum((a * Fraction(float(b)) for a, b in zip(query, kb[row[:-1]][c])),
                              Fraction(0)) for c in cols]
        top = max(exact)
        out[row][cols] = [_rounded(e - top) for e in exact]
    return out


def _rounded(value: Fraction) -> float:
    """An exact non-positive number rounded once to float64 (``-inf`` below its range)."""
    try:
        return float(value)
    except OverflowError:
        return -math.inf


#: Per-head work ``S * L`` from which causal and sliding attention take the blocked path.
BLOCKED_MIN_WORK = 64 * 64


def _windowed_attention(scale: float, q: np.ndarray, k: np.ndarray, v: np.ndarray,
                        pos: np.ndarray, window: int | None) -> np.ndarray:
    """Causal (``window=None``) or sliding attention: key ``l`` is visible from position ``p``
    iff ``l <= p`` and ``l + window > p``. Small heads take the vectorized path, large ones
    :func:`_banded_attention` (the same values up to rounding)."""
    keys = np.arange(k.shape[-3])
    if q.shape[-4] * k.shape[-3] < BLOCKED_MIN_WORK:
        mask = keys <= pos[..., :, None]
        if window is not None:
            mask = mask & (keys + window > pos[..., :, None])
        return _grouped_attention(scale, q, k, v, mask)
    lo = np.zeros_like(pos) if window is None else pos - window + 1
    return _banded_attention(scale, q, k, v, lo, pos)


def _banded_attention(scale: float, q: np.ndarray, k: np.ndarray, v: np.ndarray,
                      lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Grouped attention where query ``s`` sees keys ``lo[s] <= l <= hi[s]``, by BLAS blocks.

    Per batch element and KV head, the ``G`` query heads are stacked (rows ``(s, g)``) and
    taken in blocks of positions; a block only multiplies the keys some of its rows can see.
    ``scale`` is folded into the queries and the normaliser is applied to the ``(rows, D)``
    output instead of the weights, so values agree with :func:`_grouped_attention` to
    rounding. When a bound on every logit of a head (``sum_e max|q_e| max|k_e|``) is at most
    300, no ``exp`` can overflow or underflow and the max-shift is skipped (softmax is
    shift-invariant). A row that sees no key is 0.
    """
    length, hkv, d = k.shape[-3:]
    s_len, _, g, _ = q.shape[-4:]
    batch = np.broadcast_shapes(q.shape[:-4], k.shape[:-3], v.shape[:-3], lo.shape[:-1])
    q = np.broadcast_to(q, batch + q.shape[-4:])
    k = np.broadcast_to(k, batch + k.shape[-3:])
    v = np.broadcast_to(v, batch + v.shape[-3:])
    lo = np.broadcast_to(lo, batch + (s_len,))
    hi = np.broadcast_to(hi, batch + (s_len,))
    out = np.zeros(batch + (s_len, hkv, g, d), dtype=q.dtype)
    # About 2 MiB of logits per block, at least 16 positions, and at most an eighth of S so
    # that the causal triangle is mostly skipped.
    block = max(16, min((1 << 18) // max(1, g * length), max(16, s_len // 8)))
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        for index in np.ndindex(*batch):
            for c in range(hkv):
                heads = (q[index][:, c] * q.dtype.type(scale)).reshape(s_len * g, d)
                k_rows = np.ascontiguousarray(k[index][:, c])
                v_rows = np.ascontiguousarray(v[index][:, c])
                bound = float(np.abs(heads).max(axis=0, initial=0.0)
                              @ np.abs(k_rows).max(axis=0, initial=0.0))
                for s0 in range(0, s_len, block):
                    s1 = min(s_len, s0 + block)
                    out[index][s0:s1, c] = _band_block(
                        heads[s0 * g : s1 * g], k_rows, v_rows, lo[index][s0:s1],
                        hi[index][s0:s1], g, bound <= 300.0)
    return out


def _band_block(heads: np.ndarray, k: np.ndarray, v: np.ndarray, lo: np.ndarray,
                hi: np.ndarray, g: int, bounded: bool) -> np.ndarray:
    """One block of :func:`_banded_attention`: ``rows`` positions times ``g`` heads;
    ``bounded``: every logit is within ``+-300``, so the max-shift is skipped."""
    rows = lo.size
    d = v.shape[-1]
    first = max(0, int(lo.min()))
    stop = min(k.shape[0], int(hi.max()) + 1)
    if stop <= first:
        return np.zeros((rows, g, d), dtype=heads.dtype)
    # Columns [full0, full1) are visible from every row; masks only touch the rest.
    full0 = max(first, int(lo.max()))
    full1 = min(stop, int(hi.min()) + 1)
    if full1 <= full0:
        full0 = full1 = first
    logits = (heads @ k[first:stop].T).reshape(rows, g, stop - first)
    top = np.full((rows, g), -np.inf, dtype=logits.dtype)
    if full1 > full0 and not bounded:
        top = logits[..., full0 - first : full1 - first].max(axis=-1)
    partial = []
    for a, z in ((first, full0), (full1, stop)):
        if z > a:
            cols = np.arange(a, z)
            hidden = ((cols < lo[:, None]) | (cols > hi[:, None]))[:, None, :]
            part = logits[..., a - first : z - first]
            if not bounded:
                top = np.maximum(top, np.where(hidden, -np.inf, part).max(axis=-1))
            partial.append((part, hidden))
    if not bounded:
        top = np.where(np.isfinite(top), top, 0.0)
        np.subtract(logits, top[..., None], out=logits)
    np.exp(logits, out=logits)
    for part, hidden in partial:
        np.copyto(part, 0.0, where=hidden)
    total = logits.sum(axis=-1)
    values = logits.reshape(rows * g, stop - first) @ v[first:stop]
    values = values.reshape(rows, g, d)
    values /= np.where(total > 0, total, 1.0)[..., None]
    return values


def _positions(pos: Any, q: np.ndarray) -> np.ndarray:
    """Query positions ``pos[..., S]`` (natural numbers) matching ``q``'s ``S`` axis."""
    p = _int_array("pos", pos, min_ndim=1)
    if p.shape[-1] != q.shape[-4]:
        raise InvalidArgument(
            f"argument 'pos' has shape {p.shape}; expected trailing shape (S,) = "
            f"({q.shape[-4]},) from q's shape {q.shape}"
        )
    if p.size and p.min() < 0:
        raise InvalidArgument(
            f"argument 'pos' holds {int(p.min())}; expected natural-number positions"
        )
    return p


def causal_gqa(scale: Any, pos: Any, q: Any, k: Any, v: Any, *, dtype: Any = None) -> np.ndarray:
    """Causal grouped-query attention: query ``s`` sees keys ``l ≤ pos[s]``.

    ``q[..., S, Hkv, G, D]``, ``k, v[..., L, Hkv, D]``, ``pos[..., S]`` → ``[..., S, Hkv, G, D]``.
    """
    dt = _dtype(dtype)
    sc = _scalar("scale", scale)
    qa, ka, va = _qkv(q, k, v, dt)
    return _windowed_attention(sc, qa, ka, va, _positions(pos, qa), None)


def sliding_gqa(scale: Any, window: Any, pos: Any, q: Any, k: Any, v: Any, *,
                dtype: Any = None) -> np.ndarray:
    """Sliding-window GQA: the query at position ``p`` sees keys ``l`` with ``p − w < l ≤ p``.

    The window test is taken over the integers (``l + w > p``), so a window at least the
    sequence length is causal attention. Shapes as :func:`causal_gqa`.
    """
    dt = _dtype(dtype)
    sc = _scalar("scale", scale)
    w = _natural("window", window)
    qa, ka, va = _qkv(q, k, v, dt)
    return _windowed_attention(sc, qa, ka, va, _positions(pos, qa), w)


def _decode_query(q: Any, k: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Flat decode query heads ``q[..., Hkv·G, D]`` as ``[..., 1, Hkv, G, D]``."""
    qa = _array("q", q, dt, min_ndim=2)
    hkv, d = k.shape[-2:]
    h = qa.shape[-2]
    if qa.shape[-1] != d or hkv == 0 or h % hkv:
        raise InvalidArgument(
            f"argument 'q' has shape {qa.shape}; expected trailing shape (H, D) with "
            f"D = {d} and H a multiple of Hkv = {hkv} (from k's shape {k.shape})"
        )
    return qa.reshape(qa.shape[:-2] + (1, hkv, h // hkv, d))


def _decode(scale: Any, window: int | None, q: Any, k: Any, v: Any, dt: np.dtype) -> np.ndarray:
    """Decode attention over the cache, restricted to the last ``window`` positions."""
    sc = _scalar("scale", scale)
    ka = _array("k", k, dt, min_ndim=3)
    va = _array("v", v, dt, min_ndim=3)
    q5 = _decode_query(q, ka, dt)
    qa, ka, va = _qkv(q5, ka, va, dt)
    length = ka.shape[-3]
    keys = np.arange(length)
    last = length - 1
    mask = keys <= last if window is None else (keys <= last) & (keys + window > last)
    out = _grouped_attention(sc, qa, ka, va, mask[None, :])
    return out.reshape(out.shape[:-4] + (out.shape[-3] * out.shape[-2], out.shape[-1]))


def decode_gqa(scale: Any, q: Any, k: Any, v: Any, *, dtype: Any = None) -> np.ndarray:
    """Decode attention: one query at the last position ``L − 1`` of ``L`` cached tokens.

    ``q[..., H, D]`` with ``H = Hkv·G`` flat query heads (head ``c·G + g`` reads KV head
    ``c``), ``k, v[..., L, Hkv, D]`` → ``[..., H, D]``.
    """
    return _decode(scale, None, q, k, v, _dtype(dtype))


def sliding_decode_gqa(scale: Any, window: Any, q: Any, k: Any, v: Any, *,
                       dtype: Any = None) -> np.ndarray:
    """Sliding-window decode attention over the last ``window`` cached positions.

    Spec 1.0 has no Lean definition for this (``slidingDecodeGQA`` is UNKNOWN); the window
    semantics are :func:`sliding_gqa`'s at ``pos = L − 1``. Shapes as :func:`decode_gqa`.
    """
    return _decode(scale, _natural("window", window), q, k, v, _dtype(dtype))


def sigmoid_gate(o: Any, gate: Any, *, dtype: Any = None) -> np.ndarray:
    """Output gate of gated attention: ``o ⊙ σ(gate)`` (same shapes)."""
    dt = _dtype(dtype)
    oa = _array("o", o, dt)
    ga = _array("gate", gate, dt)
    if oa.shape != ga.shape:
        raise InvalidArgument(
            f"argument 'gate' has shape {ga.shape}; expected o's shape {oa.shape}"
        )
    return oa * sigmoid(ga, dtype=dt)
