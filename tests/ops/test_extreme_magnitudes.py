"""The bundled norm and linear kernels at the extreme magnitudes of the wide draws (issue 20):
entries whose squares overflow (above 1.3e154) or underflow (below 1.5e-154), and sums whose
BLAS evaluation overflows.

Two independent references: mpmath at 60 digits written from the Lean definitions
(`lean/Mirror/Ops/Norm.lean`: `x i / √(Σ x² / H + ε) * w i`, `Real.sqrt` of a non-positive
number being 0 and `x / 0 = 0`), and the generated conformance row replayed at the input
(Lean's value through the judge's exact evaluation).
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from mirror.bind.binding import runtime_bindings
from mirror.bundled.impl import ops
from mirror.judge.accuracy import replay_conformance
from mirror.product.generator import project_bindings
from tests.mirror.conftest import ROOT

MP = mpmath.mp.clone()
MP.dps = 60

#: The wide-draw refutations of round 19 (docs/accuracy-worst.json), and their mirror images.
TINY = [-3.724445095232093e-298]
HUGE = [2.9224965063496144e+192, 0.0, -1e200, 3.0, 0.0]
MIXED = [1e-300, -2.5e-310, 7e-305, 0.0]
ROWS = {"tiny": (TINY, 0.0), "huge": (HUGE, 0.0), "huge-eps": (HUGE, 2.981876717724307e+98),
        "subnormal": (MIXED, 0.0), "negative-eps": ([1e200, -3e199], -1.5e308)}


def lean_norm(x: list[float], eps: float, mean: bool) -> list:
    """`x i / √(Σ x² (/ H) + ε)` with Lean's `Real.sqrt` and division by zero."""
    xs = [MP.mpf(v) for v in x]
    total = MP.fsum(v * v for v in xs)
    if mean:
        total /= len(xs)
    total += MP.mpf(eps)
    root = MP.sqrt(total) if total > 0 else MP.mpf(0)
    return [v / root if root != 0 else MP.mpf(0) for v in xs]


def ulps(got: np.ndarray, exact: list) -> float:
    """The largest error of ``got`` in ulps of each exact entry (a subnormal's ulp below)."""
    worst = 0.0
    for g, e in zip(np.ravel(got), exact):
        if not np.isfinite(g):
            return float("inf")
        worst = max(worst, float(abs(MP.mpf(float(g)) - e) / np.spacing(abs(float(e)))))
    return worst


@pytest.mark.parametrize("row", sorted(ROWS))
@pytest.mark.parametrize("kernel, mean", [(ops.rmsnorm_unit, True), (ops.l2norm, False)],
                         ids=["rmsnormUnit", "l2norm"])
def test_norms_are_accurate_where_squares_overflow_or_underflow(kernel, mean, row):
    x, eps = ROWS[row]
    got = kernel(eps, np.array([x]))
    assert ulps(got, lean_norm(x, eps, mean)) <= 4


def test_weighted_and_gated_norms_scale_too():
    x, eps = ROWS["huge-eps"]
    w = np.array([1e-17, 2.0, 0.5, 1.0, 3.0])
    z = np.array([[4.0, 1.0, -2.0, 0.0, 30.0]])
    exact = lean_norm(x, eps, True)
    silu = [MP.mpf(v) / (1 + MP.exp(-MP.mpf(v))) for v in z[0]]
    assert ulps(ops.rmsnorm(eps, np.array([x]), w), [e * MP.mpf(v) for e, v in zip(exact, w)]) <= 4
    assert ulps(ops.rmsnorm_offset(eps, np.array([x]), w),
                [e * (1 + MP.mpf(v)) for e, v in zip(exact, w)]) <= 4
    gated = ops.rmsnorm_gated(eps, np.array([x]), w, z)
    assert ulps(gated, [e * MP.mpf(v) * s for e, v, s in zip(exact, w, silu)]) <= 8


def _replay(name: str, example: dict) -> tuple[str, float, str]:
    import mirrors.leanmirror_mirror_ops_norm as module

    prop = getattr(module, f"prop_Mirror__Ops__{name}__conformance")
    table = project_bindings(ROOT, prop.lean_name, sorted(prop.bound_to))
    bindings = runtime_bindings(set(prop.bound_to), table)
    return replay_conformance(prop, prop.plan, bindings[f"Mirror.Ops.{name}"], bindings, example)


#: The failing inputs the accuracy bench recorded for round 19 (docs/accuracy-worst.json).
WORST = {
    "rmsnorm": {"T": 1, "H": 1, "eps": 0.0, "arg3": 0, "arg4": 0, "x": [TINY], "w": [1.0]},
    "rmsnormOffset": {"T": 1, "H": 1, "eps": 0.0, "arg3": 0, "arg4": 0, "x": [TINY],
                      "w": [0.0]},
    "rmsnormUnit": {"T": 1, "H": 1, "eps": 0.0, "arg2": 0, "arg3": 0, "x": [TINY]},
    "l2norm": {"T": 1, "H": 1, "eps": 0.0, "arg2": 0, "arg3": 0, "x": [TINY]},
    "rmsnormGated": {"T": 2, "H": 5, "eps": 2.981876717724307e+98, "arg4": 1, "arg5": 0,
                     "x": [[0.0] * 5, [2.9224965063496144e+192, 0.0, 0.0, 0.0, 0.0]],
                     "z": [[0.0] * 5, [4.0, 0.0, 0.0, 0.0, 0.0]],
                     "w": [1e-17, 0.0, 0.0, 0.0, 0.0]},
}


@pytest.mark.parametrize("name", sorted(WORST))
def test_the_conformance_rows_hold_at_the_wide_draws_failing_inputs(name):
    verdict, _, method = _replay(name, WORST[name])
    assert verdict == "holds", method


#: ``linear``'s entries where BLAS overflows: ``-1e310`` (beyond float64: −∞ is its rounding),
#: ``1e310 − 1e310 = 0`` through ``inf − inf``, and a finite sum after an overflowed product.
LINEAR_X = [[1e300, 1e300, -1e300, 0.5]]
LINEAR_W = [[1e10, -1e10, 1e10, 0.0], [-1e300, 1e300, 0.0, 3.0],
            [1e10, 1e10, 1e10, -1e-300], [2e8, 0.0, 2e8, 1.0]]


def test_linear_is_the_rounded_exact_sum_where_blas_overflows():
    got = ops.linear(np.array(LINEAR_X), np.array(LINEAR_W))[0]
    exact = [MP.fsum(MP.mpf(a) * MP.mpf(b) for a, b in zip(LINEAR_X[0], row))
             for row in LINEAR_W]
    top = np.finfo(np.float64).max
    rounded = [float(e) if abs(e) <= top else float(MP.sign(e)) * np.inf for e in exact]
    assert list(got) == rounded == [-np.inf, 1.5, np.inf, 0.5]


def test_the_linear_row_holds_where_its_sum_overflows():
    import mirrors.leanmirror_mirror_ops_linear as module

    prop = module.prop_Mirror__Ops__linear__conformance
    table = project_bindings(ROOT, prop.lean_name, sorted(prop.bound_to))
    bindings = runtime_bindings(set(prop.bound_to), table)
    for n in range(len(LINEAR_W)):
        example = {"T": 1, "K": 4, "N": 4, "arg2": 0, "arg3": n, "x": LINEAR_X, "W": LINEAR_W}
        verdict, _, method = replay_conformance(prop, prop.plan, bindings["Mirror.Ops.linear"],
                                                bindings, example)
        assert verdict == "holds", (n, method)
