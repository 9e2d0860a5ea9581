"""The gated chain and the path product at the extreme magnitudes of the wide draws (issue 20):
a partial product beyond float64's range must not poison what follows (``0 · inf`` = NaN,
``inf · 1e-300`` = inf where the true value is finite).

The reference is mpmath at 60 digits from the Lean definitions (`lean/Mirror/Resolvent.lean`:
`chain a b 0 = b 0`, `chain a b (n + 1) = a (n + 1) * chain a b n + b (n + 1)`; `pathProd a i j
= ∏ k ∈ [j + 1, i], a k` for `j ≤ i`, else 0), and the generated conformance row replayed at
round 19's failing input.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from mirror.bind.binding import runtime_bindings
from mirror.bundled.impl.resolvent import chain_label, path_product
from mirror.judge.accuracy import replay_conformance
from mirror.product.generator import project_bindings
from tests.mirror.conftest import ROOT

MP = mpmath.mp.clone()
MP.dps = 60

CHAINS = {
    # round 19's failing draw: y_1 = 2.6e344 overflows, a_2 = 0 closes the gate
    "closed-after-overflow": ([0.0, -3.3268661399128835e+196] + [0.0] * 14,
                              [-7.8598414074419e+147] + [0.0] * 15),
    "back-into-range": ([0.0, 1e200, 1e200, 1e-300, -2.0], [1e200, 0.0, 0.0, 3.0, 1.0]),
    "through-underflow": ([0.0, 1e-200, 1e-200, 1e300, 0.5], [1e-100, 0.0, 0.0, 0.0, 2e-1]),
    "ordinary": ([0.0, 2.0, -3.0, 0.5], [1.0, 1.0, 1.0, -4.0]),
}


def lean_chain(a: list[float], b: list[float]) -> list:
    y, out = MP.mpf(b[0]), [MP.mpf(b[0])]
    for ai, bi in zip(a[1:], b[1:]):
        y = MP.mpf(ai) * y + MP.mpf(bi)
        out.append(y)
    return out


def lean_path(a: list[complex]) -> list[list]:
    n = len(a)
    return [[MP.fprod(MP.mpc(a[k]) for k in range(j + 1, i + 1)) if j <= i else MP.mpc(0)
             for j in range(n)] for i in range(n)]


def ulps(got: complex, exact) -> float:
    """The error's modulus in ulps of the exact value's modulus (IEEE rounding of a value
    beyond float64's range, ±inf in that lane, counts as exact there)."""
    exact = MP.mpc(exact)
    top = np.finfo(np.float64).max
    lanes = []
    for g, e in ((got.real, exact.real), (got.imag, exact.imag)):
        if np.isinf(g) and abs(e) > top and (g > 0) == (e > 0):
            lanes.append(MP.mpf(0))
        elif not np.isfinite(g):
            return float("inf")
        else:
            lanes.append(MP.mpf(float(g)) - e)
    size = min(abs(exact), MP.mpf(top))
    return float(abs(MP.mpc(*lanes)) / math.ulp(float(size)))


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_the_chain_carries_its_exponent(name):
    a, b = CHAINS[name]
    got = chain_label(np.array(a), np.array(b))
    exact = lean_chain(a, b)
    assert max(ulps(complex(g), e) for g, e in zip(got, exact)) <= 4


PATHS = {
    # G[i, j] accumulates from a_i down to a_{j+1}
    "back-into-range": [0.0, 3.0, 1e-300, 1e200, 1e200],
    "complex-overflow-then-closed": [0.0, 1e300 + 1e300j, 1e200 - 1e10j, 0.0, 1e-300j],
    "through-underflow": [0.0, 1e-5 - 2j, 1e300, 1e-200, 1e-200 + 1e-210j],
}


@pytest.mark.parametrize("name", sorted(PATHS))
def test_the_path_product_carries_its_exponent(name):
    a = PATHS[name]
    got = path_product(np.array(a, dtype=complex))
    exact = lean_path(a)
    worst = max(ulps(complex(got[i, j]), exact[i][j])
                for i in range(len(a)) for j in range(len(a)))
    assert worst <= 4


def test_the_chain_row_holds_at_round_19s_failing_input():
    import mirrors.leanmirror_mirror_resolvent as module

    prop = module.prop_Mirror__Resolvent__chain__conformance
    table = project_bindings(ROOT, prop.lean_name, sorted(prop.bound_to))
    bindings = runtime_bindings(set(prop.bound_to), table)
    a, b = CHAINS["closed-after-overflow"]
    example = {"arg2": 3, "a": a, "b": b}
    verdict, _, method = replay_conformance(prop, prop.plan, bindings["Mirror.Resolvent.chain"],
                                            bindings, example)
    assert verdict == "holds", method
