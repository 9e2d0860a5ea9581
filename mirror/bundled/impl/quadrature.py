"""Quadrature rules for the Balakrishnan (resolvent-mixture) formula.

For ``0 < r < 1`` and ``t > 0``::

    t**r = (sin(pi r) / pi) * integral_0^inf  lam**(r - 1) * t / (lam + t)  d lam

A rule replaces the integral by ``sum_j w_j lam_j**(r-1) t / (lam_j + t)``; its
*coefficients* ``c_j = (sin(pi r)/pi) w_j lam_j**(r-1)`` make the approximation the real
rational function ``R(t) = sum_j c_j t / (lam_j + t)`` with poles at ``-lam_j`` (real,
negative). A matrix ``A`` whose spectrum lies in the right half plane then has
``A**r ~ sum_j c_j (lam_j I + A)^{-1} A``, which is what :mod:`mirror.bundled.impl.fractional` uses.

Placements (all return a :class:`QuadratureRule` for an interval ``[delta, Lambda]``):

``log``
    Trapezoid rule in ``x = log lam`` on a padded interval, with the two tails integrated in
    closed form and folded into the end weights. The pad is tuned on the *training* grid.
``de``
    Double exponential: ``lam = sqrt(delta Lambda) exp(a sinh u)``, trapezoid in ``u``
    (``(a, h)`` tuned on the training grid).
``elliptic``
    The Hale–Higham–Trefethen conformal map (their method for ``A**(1/2)`` with real poles):
    ``lam = delta sc(u | 1 - delta/Lambda)**2``, midpoint rule in ``u`` on ``(0, K')``. For
    ``r = 1/2`` the transformed integrand is smooth and the rule converges geometrically;
    for other ``r`` it has an endpoint singularity (algebraic convergence), hence
``elliptic-fitted``
    the elliptic nodes with weights fitted by (iteratively reweighted) least squares on the
    relative error, and
``rational``
    a numerically computed near-best rational approximation (Zolotarev-style): the nodes are
    optimized by variable projection starting from elliptic nodes, the weights fitted.
``log-fitted`` / ``de-fitted``
    the closed-form nodes with fitted weights.

Fitting always uses :func:`training_points`; errors are reported on :func:`held_out_points`
(a different grid), as *relative* errors ``|R(t) - t**r| / t**r``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
from scipy.optimize import least_squares
from scipy.special import ellipj, ellipk

from bridge.errors import InvalidArgument

#: Names accepted by :func:`build_rule`, in the order tables print them.
PLACEMENTS = ("log", "log-fitted", "de", "de-fitted", "elliptic", "elliptic-fitted", "rational")

#: Points of the fitting grid (log-spaced, endpoints included).
TRAINING_POINTS = 1500
#: Points of the held-out grid (log-spaced midpoints of a finer, shifted grid).
HELD_OUT_POINTS = 4001


@dataclass(frozen=True)
class QuadratureRule:
    """Shifts ``nodes`` (``lam_j > 0``) and weights ``weights`` (``w_j``, measure ``d lam``)
    of the Balakrishnan integral for the exponent ``r``, designed for ``[delta, Lambda]``."""

    r: float
    nodes: np.ndarray
    weights: np.ndarray
    placement: str
    interval: tuple[float, float]

    @property
    def m(self) -> int:
        """Number of shifts."""
        return int(self.nodes.shape[0])

    @property
    def coefficients(self) -> np.ndarray:
        """``c_j = (sin(pi r)/pi) w_j lam_j**(r-1)``: ``R(t) = sum_j c_j t/(lam_j + t)``.

        Each factor to about an ulp: ``sin(pi r) = sin(pi (1 - r))`` for ``r >= 1/2`` (``1 - r``
        is exact there, and ``pi r`` rounded near ``pi`` would lose the small sine's digits),
        and ``lam**(r-1) = lam**r / lam`` (``r - 1`` rounded, times ``log lam``, would be
        ``|log lam|`` ulps off: ~9 ulps at ``lam = 1e-30``), by the power where that over- or
        underflows."""
        return sine_factor(self.r) * self.weights * shifted_power(self.nodes, self.r)

    def evaluate(self, t: np.ndarray | float) -> np.ndarray:
        """The rational approximation ``R(t)`` of ``t**r`` (real or complex ``t``)."""
        values = np.asarray(t)
        c = self.coefficients
        return np.sum(c * values[..., None] / (self.nodes + values[..., None]), axis=-1)

    def relative_error(self, t: np.ndarray) -> np.ndarray:
        """``|R(t) - t**r| / |t**r|`` pointwise (principal branch for complex ``t``)."""
        values = np.asarray(t)
        exact = values.astype(complex) ** self.r if np.iscomplexobj(values) else values**self.r
        return np.abs(self.evaluate(values) - exact) / np.abs(exact)

    def scaled(self, factor: float) -> "QuadratureRule":
        """The rule for ``[factor delta, factor Lambda]``: nodes and weights scale by ``factor``."""
        if not (math.isfinite(factor) and factor > 0):
            raise InvalidArgument(f"factor: got {factor!r}, expected a finite number > 0")
        lo, hi = self.interval
        return QuadratureRule(
            self.r, self.nodes * factor, self.weights * factor, self.placement, (lo * factor, hi * factor)
        )


def sine_factor(r: float) -> float:
    """``sin(pi r) / pi`` for ``0 < r < 1`` to about an ulp (no cancellation near ``r = 1``)."""
    return math.sin(math.pi * min(r, 1.0 - r)) / math.pi


def shifted_power(lam: np.ndarray, r: float) -> np.ndarray:
    """``lam ** (r - 1)`` for ``lam > 0`` without the rounding of ``r - 1``: ``lam**r / lam``,
    or the power itself where that quotient over- or underflows."""
    lam = np.asarray(lam, dtype=float)
    with np.errstate(all="ignore"):
        quotient = lam**r / lam
        plain = lam ** (r - 1.0)
    good = np.isfinite(quotient) & (quotient != 0)
    return np.where(good, quotient, plain)


# ----------------------------------------------------------------------------- validation


def check_exponent(r: Any) -> float:
    """The exponent ``r`` as a float in ``(0, 1)``; :class:`InvalidArgument` naming it otherwise."""
    try:
        value = float(r)
    except (TypeError, ValueError):
        raise InvalidArgument(f"r: got {r!r}, expected a real number in (0, 1)") from None
    if not (0.0 < value < 1.0):
        raise InvalidArgument(f"r: got {r!r}, expected a real number in (0, 1)")
    return value


def _check_interval(delta: float, Lambda: float) -> tuple[float, float]:
    lo, hi = float(delta), float(Lambda)
    if not (math.isfinite(lo) and lo > 0):
        raise InvalidArgument(f"delta: got {delta!r}, expected a finite number > 0")
    if not (math.isfinite(hi) and hi > lo):
        raise InvalidArgument(f"Lambda: got {Lambda!r}, expected a finite number > delta = {lo!r}")
    return lo, hi


def _check_count(m: int) -> int:
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1 or m > 256:
        raise InvalidArgument(f"m: got {m!r}, expected an integer number of shifts in [1, 256]")
    return int(m)


# ----------------------------------------------------------------------------- grids


def training_points(delta: float, Lambda: float, n: int = TRAINING_POINTS) -> np.ndarray:
    """The fitting grid: ``n`` log-spaced points of ``[delta, Lambda]``, endpoints included."""
    lo, hi = _check_interval(delta, Lambda)
    return np.geomspace(lo, hi, n)


def held_out_points(delta: float, Lambda: float, n: int = HELD_OUT_POINTS) -> np.ndarray:
    """The evaluation grid, disjoint from :func:`training_points`: geometric midpoints of an
    ``n + 1``-point log grid (so it reaches within a hair of both ends)."""
    lo, hi = _check_interval(delta, Lambda)
    edges = np.linspace(math.log(lo), math.log(hi), n + 1)
    return np.exp(0.5 * (edges[1:] + edges[:-1]))


def scalar_error(rule: QuadratureRule, delta: float | None = None, Lambda: float | None = None) -> float:
    """Max relative error of ``rule`` over the held-out points of ``[delta, Lambda]``
    (default: the rule's own interval)."""
    lo, hi = rule.interval if delta is None or Lambda is None else (delta, Lambda)
    return float(np.max(rule.relative_error(held_out_points(lo, hi))))


# ----------------------------------------------------------------------------- fitting


def _design(nodes: np.ndarray, t: np.ndarray, r: float) -> np.ndarray:
    """Columns ``t/(lam_j + t) / t**r``: the relative-error design matrix in coefficient space."""
    return (t[:, None] / (nodes[None, :] + t[:, None])) / (t[:, None] ** r)


def fit_weights(
    nodes: Sequence[float] | np.ndarray,
    r: float,
    delta: float,
    Lambda: float,
    *,
    minimax_iterations: int = 30,
    points: np.ndarray | None = None,
) -> np.ndarray:
    """Weights ``w_j`` for fixed ``nodes`` minimizing the relative scalar error on
    ``[delta, Lambda]``: linear least squares, then ``minimax_iterations`` steps of Lawson's
    iteratively reweighted least squares toward the minimax solution (the best iterate in the
    max norm on the training grid is kept)."""
    r = check_exponent(r)
    lo, hi = _check_interval(delta, Lambda)
    lam = np.asarray(nodes, dtype=float)
    if lam.ndim != 1 or lam.size == 0 or not np.all(np.isfinite(lam)) or np.any(lam <= 0):
        raise InvalidArgument(f"nodes: got {nodes!r}, expected a non-empty 1-D array of finite numbers > 0")
    t = training_points(lo, hi) if points is None else np.asarray(points, dtype=float)
    design = _design(lam, t, r)
    target = np.ones_like(t)
    lawson = np.full(t.shape, 1.0 / t.size)
    best, best_err = None, math.inf
    for _ in range(int(minimax_iterations) + 1):
        root = np.sqrt(lawson)
        coeffs, *_ = np.linalg.lstsq(design * root[:, None], target * root, rcond=None)
        residual = np.abs(design @ coeffs - target)
        err = float(residual.max())
        if err < best_err:
            best, best_err = coeffs, err
        lawson = lawson * residual
        total = lawson.sum()
        if not (math.isfinite(total) and total > 0):
            break
        lawson /= total
    return best / (math.sin(math.pi * r) / math.pi * lam ** (r - 1.0))


def _max_training_error(nodes: np.ndarray, weights: np.ndarray, r: float, t: np.ndarray) -> float:
    rule = QuadratureRule(r, nodes, weights, "tmp", (float(t[0]), float(t[-1])))
    return float(np.max(rule.relative_error(t)))


# ----------------------------------------------------------------------------- placements


def log_spaced_rule(r: float, m: int, delta: float, Lambda: float, pad: float | None = None) -> QuadratureRule:
    """Trapezoid in ``log lam`` on ``[log delta - pad, log Lambda + pad]`` with closed-form tails.

    The tails are integrated with the leading term of the integrand:
    ``int_0^{lam_1} lam**(r-1) t/(lam+t) ~ lam_1**r / r`` (``t >> lam_1``) and
    ``int_{lam_m}^inf ~ t lam_m**(r-1)/(1-r)`` (``t << lam_m``); both are exactly of the form
    ``w lam**(r-1) t/(lam+t)`` to leading order, so they are added to the end weights.
    ``pad=None`` tunes the pad on the training grid."""
    r = check_exponent(r)
    m = _check_count(m)
    lo, hi = _check_interval(delta, Lambda)
    if m < 2:
        raise InvalidArgument(f"m: got {m!r}, expected at least 2 shifts for the log-spaced rule")

    def build(p: float) -> QuadratureRule:
        x = np.linspace(math.log(lo) - p, math.log(hi) + p, m)
        h = x[1] - x[0]
        lam = np.exp(x)
        w = h * lam
        w[0] = 0.5 * h * lam[0] + lam[0] / r
        w[-1] = 0.5 * h * lam[-1] + lam[-1] / (1.0 - r)
        return QuadratureRule(r, lam, w, "log", (lo, hi))

    if pad is not None:
        return build(float(pad))
    t = training_points(lo, hi, 400)
    candidates = [build(p) for p in np.linspace(0.0, 12.0, 49)]
    return min(candidates, key=lambda rule: float(np.max(rule.relative_error(t))))


def double_exponential_rule(
    r: float, m: int, delta: float, Lambda: float, a: float | None = None, h: float | None = None
) -> QuadratureRule:
    """Double-exponential rule: ``lam = sqrt(delta Lambda) exp(a sinh u)``, ``u_j = (j - (m-1)/2) h``,
    ``w_j = h a cosh(u_j) lam_j`` (trapezoid in ``u``; the single-exponential decay of the
    integrand in ``log lam`` becomes double-exponential in ``u``). ``a``/``h`` left ``None`` are
    tuned on the training grid."""
    r = check_exponent(r)
    m = _check_count(m)
    lo, hi = _check_interval(delta, Lambda)
    centre = 0.5 * (math.log(lo) + math.log(hi))

    def build(scale: float, step: float) -> QuadratureRule:
        u = (np.arange(m) - 0.5 * (m - 1)) * step
        x = centre + scale * np.sinh(u)
        if np.max(np.abs(x)) > 600.0:
            return QuadratureRule(r, np.ones(m), np.full(m, np.inf), "de", (lo, hi))
        lam = np.exp(x)
        w = step * scale * np.cosh(u) * lam
        return QuadratureRule(r, lam, w, "de", (lo, hi))

    if a is not None and h is not None:
        return build(float(a), float(h))
    t = training_points(lo, hi, 400)
    scales = [float(a)] if a is not None else [0.5, 1.0, 1.5, 2.0, 3.0, 4.0]
    steps = [float(h)] if h is not None else list(np.linspace(0.1, 1.5, 29))
    best, best_err = None, math.inf
    for scale in scales:
        for step in steps:
            rule = build(scale, step)
            with np.errstate(all="ignore"):
                err = float(np.max(rule.relative_error(t)))
            if math.isfinite(err) and err < best_err:
                best, best_err = rule, err
    if best is None:
        raise InvalidArgument(f"m: got {m!r}; no finite double-exponential rule for [{lo}, {hi}]")
    return best


def elliptic_nodes(m: int, delta: float, Lambda: float, extend: float = 1.0) -> np.ndarray:
    """Hale–Higham–Trefethen shifts for ``[delta/extend, Lambda*extend]``:
    ``lam_j = lo sc(u_j | 1 - lo/hi)**2``, ``u_j = (j - 1/2) K'/m`` (``K' = K(1 - lo/hi)``).
    They are symmetric under ``lam -> lo hi / lam`` and equispaced in the conformal variable."""
    m = _check_count(m)
    lo, hi = _check_interval(delta, Lambda)
    lo, hi = lo / extend, hi * extend
    param = 1.0 - lo / hi
    kprime = float(ellipk(param))
    u = (np.arange(m) + 0.5) * kprime / m
    sn, cn, _, _ = ellipj(u, param)
    return lo * (sn / cn) ** 2


def elliptic_rule(r: float, m: int, delta: float, Lambda: float) -> QuadratureRule:
    """Elliptic (HHT) shifts with closed-form weights: midpoint rule in ``u`` after
    ``lam = delta sc(u)**2``, ``d lam = 2 delta sc nc dc du``. Geometric convergence at
    ``r = 1/2`` (smooth transformed integrand), algebraic otherwise."""
    r = check_exponent(r)
    m = _check_count(m)
    lo, hi = _check_interval(delta, Lambda)
    param = 1.0 - lo / hi
    kprime = float(ellipk(param))
    u = (np.arange(m) + 0.5) * kprime / m
    sn, cn, dn, _ = ellipj(u, param)
    lam = lo * (sn / cn) ** 2
    weights = (kprime / m) * 2.0 * lo * sn * dn / cn**3
    return QuadratureRule(r, lam, weights, "elliptic", (lo, hi))


def _fitted(rule: QuadratureRule, name: str) -> QuadratureRule:
    lo, hi = rule.interval
    weights = fit_weights(rule.nodes, rule.r, lo, hi)
    return QuadratureRule(rule.r, rule.nodes, weights, name, (lo, hi))


def elliptic_fitted_rule(r: float, m: int, delta: float, Lambda: float) -> QuadratureRule:
    """Elliptic shifts for an interval extended asymmetrically, ``[delta/e1, Lambda*e2]``,
    with weights fitted by :func:`fit_weights`. For ``r != 1/2`` the best shifts are not
    symmetric in ``log lam`` (the left tail of ``lam**(r-1)`` is heavier for small ``r``), so
    ``(e1, e2)`` is chosen from powers of 2 in ``[1/4, 256]`` (then refined by ``sqrt 2``) by
    the least-squares error on a coarse training grid."""
    r = check_exponent(r)
    m = _check_count(m)
    lo, hi = _check_interval(delta, Lambda)
    coarse = training_points(lo, hi, 200)
    target = np.ones_like(coarse)

    def lsq_error(lower: float, upper: float) -> float:
        if hi * upper <= 1.01 * lo / lower:
            return math.inf
        design = _design(elliptic_nodes(m, lo / lower, hi * upper), coarse, r)
        coeffs, *_ = np.linalg.lstsq(design, target, rcond=None)
        return float(np.max(np.abs(design @ coeffs - target)))

    # Coarse search over powers of 2, then one refinement over the neighbouring sqrt-2 steps.
    factors = 2.0 ** np.arange(-2, 9)
    scores = {(float(a), float(b)): lsq_error(a, b) for a in factors for b in factors}
    centre = min(scores, key=scores.__getitem__)
    for a in (centre[0] / math.sqrt(2), centre[0], centre[0] * math.sqrt(2)):
        for b in (centre[1] / math.sqrt(2), centre[1], centre[1] * math.sqrt(2)):
            if (a, b) not in scores:
                scores[(a, b)] = lsq_error(a, b)
    best_pair = min(scores, key=scores.__getitem__)
    nodes = elliptic_nodes(m, lo / best_pair[0], hi * best_pair[1])
    weights = fit_weights(nodes, r, lo, hi)
    return QuadratureRule(r, nodes, weights, "elliptic-fitted", (lo, hi))


@functools.lru_cache(maxsize=256)
def _rational_normalized(r: float, m: int, kappa: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Near-best rational rule on ``[1, kappa]`` (cached; rules scale with the interval)."""
    start = elliptic_fitted_rule(r, m, 1.0, kappa)
    coarse = training_points(1.0, kappa, 60 * m)

    def residual(log_nodes: np.ndarray) -> np.ndarray:
        design = _design(np.exp(log_nodes), coarse, r)
        coeffs, *_ = np.linalg.lstsq(design, np.ones_like(coarse), rcond=None)
        return design @ coeffs - 1.0

    with np.errstate(all="ignore"):
        solution = least_squares(residual, np.log(start.nodes), method="trf", max_nfev=60 * m, x_scale=1.0)
    nodes = np.exp(np.sort(solution.x))
    t = training_points(1.0, kappa)
    best = start
    if np.all(np.isfinite(nodes)) and np.all(np.diff(nodes) > 0):
        weights = fit_weights(nodes, r, 1.0, kappa, points=t)
        if _max_training_error(nodes, weights, r, t) < _max_training_error(start.nodes, start.weights, r, t):
            best = QuadratureRule(r, nodes, weights, "rational", (1.0, kappa))
    return tuple(best.nodes.tolist()), tuple(best.weights.tolist())


def rational_rule(r: float, m: int, delta: float, Lambda: float) -> QuadratureRule:
    """Near-best rational approximation with real negative poles (Zolotarev-style, computed):
    log-shifts optimized by variable projection (weights eliminated by least squares) from the
    elliptic start, then minimax-refined weights. Computed on ``[1, Lambda/delta]`` and scaled."""
    r = check_exponent(r)
    m = _check_count(m)
    lo, hi = _check_interval(delta, Lambda)
    nodes, weights = _rational_normalized(r, m, hi / lo)
    rule = QuadratureRule(r, np.array(nodes), np.array(weights), "rational", (1.0, hi / lo))
    return rule.scaled(lo)


_BUILDERS: dict[str, Callable[[float, int, float, float], QuadratureRule]] = {
    "log": log_spaced_rule,
    "log-fitted": lambda r, m, lo, hi: _fitted(log_spaced_rule(r, m, lo, hi), "log-fitted"),
    "de": double_exponential_rule,
    "de-fitted": lambda r, m, lo, hi: _fitted(double_exponential_rule(r, m, lo, hi), "de-fitted"),
    "elliptic": elliptic_rule,
    "elliptic-fitted": elliptic_fitted_rule,
    "rational": rational_rule,
}


def build_rule(placement: str, r: float, m: int, delta: float, Lambda: float) -> QuadratureRule:
    """The rule of ``placement`` (one of :data:`PLACEMENTS`) for ``t**r`` on ``[delta, Lambda]``."""
    if placement not in _BUILDERS:
        raise InvalidArgument(f"placement: got {placement!r}, expected one of {', '.join(PLACEMENTS)}")
    return _BUILDERS[placement](check_exponent(r), _check_count(m), *_check_interval(delta, Lambda))


def error_table(
    placements: Sequence[str] = PLACEMENTS,
    exponents: Sequence[float] = (0.25, 0.5, 0.75),
    counts: Sequence[int] = tuple(range(4, 17)),
    kappa: float = 1e4,
) -> list[dict[str, float | int | str]]:
    """Held-out max relative error for every placement x exponent x number of shifts on
    ``[1, kappa]`` (errors are scale invariant: every rule scales with the interval)."""
    rows: list[dict[str, float | int | str]] = []
    for placement in placements:
        for r in exponents:
            for m in counts:
                with np.errstate(all="ignore"):
                    rule = build_rule(placement, r, m, 1.0, kappa)
                    err = scalar_error(rule)
                rows.append({"placement": placement, "r": float(r), "m": int(m), "error": err})
    return rows


def best_errors(rows: Sequence[dict[str, float | int | str]], r: float, max_m: int) -> tuple[str, float]:
    """The best (placement, error) among ``rows`` for exponent ``r`` using at most ``max_m`` shifts."""
    candidates = [row for row in rows if row["r"] == r and int(row["m"]) <= max_m]
    if not candidates:
        raise InvalidArgument(f"max_m: got {max_m!r}; no rows for r={r!r} with m <= {max_m!r}")
    row = min(candidates, key=lambda item: float(item["error"]))
    return str(row["placement"]), float(row["error"])


__all__ = [
    "HELD_OUT_POINTS",
    "PLACEMENTS",
    "QuadratureRule",
    "TRAINING_POINTS",
    "best_errors",
    "build_rule",
    "double_exponential_rule",
    "elliptic_fitted_rule",
    "elliptic_nodes",
    "elliptic_rule",
    "error_table",
    "fit_weights",
    "held_out_points",
    "log_spaced_rule",
    "rational_rule",
    "scalar_error",
    "training_points",
]
