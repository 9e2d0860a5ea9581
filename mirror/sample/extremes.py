"""Forced extreme magnitudes: an optional setting of a sampling plan, for stress passes.

A plan's ``settings`` may carry ``"extremes"``: a list of non-negative magnitudes (say ``1e-300``,
a subnormal, ``0.0``, ``1e300``). When present, real draws take those values, with either sign,
as often as ordinary ones wherever the draw's range admits them: the vectorized sweep replaces
half of its real draws by them (:func:`force_extremes`) and the Hypothesis strategy draws them
half of the time (:func:`with_extremes`). Plans built by :func:`mirror.sample.plan.plan_statement`
never set it, so ordinary checks draw as before; ``tools/coverage.py --extreme`` sets it on
plans it re-checks (with ``real_bound`` raised so that the ranges reach the magnitudes).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from mirror.sample.ranges import Range

#: Kinds whose draws the setting touches (``ℝ≥0∞`` draws are reals or ``⊤``).
REAL_KINDS = ("real", "ennreal")
#: Share of the sweep's real draws replaced by a forced value.
SHARE = 0.5


def candidates(settings: dict[str, Any]) -> np.ndarray:
    """The signed values the setting forces (empty when the plan sets none)."""
    magnitudes = np.asarray(settings.get("extremes") or [], dtype=float)
    return np.unique(np.concatenate([magnitudes, -magnitudes])) + 0.0  # no -0.0: ℝ has one zero


def _admitted(values: np.ndarray, lo: Any, hi: Any, lo_strict: Any, hi_strict: Any) -> np.ndarray:
    above = np.where(lo_strict, values > lo, values >= lo)
    below = np.where(hi_strict, values < hi, values <= hi)
    return above & below


def with_extremes(base: st.SearchStrategy, span: Range, kind: str,
                  settings: dict[str, Any]) -> st.SearchStrategy:
    """``base``, or half of the time one of the forced values inside ``span``."""
    values = candidates(settings)
    if kind not in REAL_KINDS or values.size == 0 or np.ndim(span.lo) or np.ndim(span.hi):
        return base
    inside = values[_admitted(values, span.lo, span.hi, span.lo_strict, span.hi_strict)]
    if inside.size == 0:
        return base
    return st.one_of(st.sampled_from([float(v) for v in inside]), base)


def force_extremes(rng: np.random.Generator, x: np.ndarray, span: Range, kind: str,
                   settings: dict[str, Any]) -> np.ndarray:
    """``x`` with :data:`SHARE` of its entries replaced by forced values inside ``span``
    (bounds per draw along the leading axis); entries whose range admits none are kept."""
    values = candidates(settings)
    if kind not in REAL_KINDS or values.size == 0:
        return x
    per_draw = (-1,) + (1,) * (x.ndim - 1)

    def spread(bound: Any) -> np.ndarray:
        arr = np.asarray(bound)
        return np.broadcast_to(arr.reshape(per_draw) if arr.ndim else arr, x.shape)

    pick = values[rng.integers(0, values.size, x.shape)]
    inside = _admitted(pick, spread(span.lo), spread(span.hi), spread(span.lo_strict),
                       spread(span.hi_strict))
    return np.where(inside & (rng.random(x.shape) < SHARE), pick, x)


__all__ = ["REAL_KINDS", "SHARE", "candidates", "force_extremes", "with_extremes"]
