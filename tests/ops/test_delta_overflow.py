"""One Gated DeltaNet step where float64 overflows from finite operands (issue 20's wide draws:
``β = 1.9e92``, ``k_0 = 1e253``): the entries must be the rounded exact values of
`gdnStep S α β k v = α • (S * (1 - β • vecMulVec k k)) + β • vecMulVec v k`
(`lean/Mirror/Ops/DeltaNet.lean`), checked against mpmath at 60 digits and through the
generated conformance row."""

from __future__ import annotations

import math

import mpmath
import numpy as np

from mirror.bind.binding import runtime_bindings
from mirror.bundled.impl import ops
from mirror.judge.accuracy import replay_conformance
from mirror.product.generator import project_bindings
from tests.mirror.conftest import ROOT

MP = mpmath.mp.clone()
MP.dps = 60

ALPHA, BETA = 0.9829226839731452, 1.8733992077648854e+92
K = [1.0559840052435572e+253, 5.0, 5.0, 5.0]
V = [-1.5306948719679195e+188, 3.0]
S = [[0.0, 0.0, 0.0, -3.487186009115717e-164], [1.0, 0.0, 2.0, 0.0]]


def lean_step() -> list[list]:
    a, b = MP.mpf(ALPHA), MP.mpf(BETA)
    k = [MP.mpf(x) for x in K]
    out = []
    for row, vi in zip(S, V):
        r = [MP.mpf(x) for x in row]
        sk = MP.fsum(x * y for x, y in zip(r, k))
        out.append([a * (r[j] - b * sk * k[j]) + b * MP.mpf(vi) * k[j] for j in range(len(k))])
    return out


def test_the_step_is_the_rounded_exact_value_where_float64_overflows():
    got = ops.gdn_step(np.array(S), ALPHA, BETA, np.array(K), np.array(V))
    top = np.finfo(np.float64).max
    for g_row, e_row in zip(got, lean_step()):
        for g, e in zip(g_row, e_row):
            if abs(e) > top:
                assert g == math.copysign(math.inf, float(MP.sign(e)))
            else:
                assert abs(MP.mpf(float(g)) - e) <= 4 * math.ulp(abs(float(e))), (g, e)


def test_the_step_row_holds_where_float64_overflows():
    import mirrors.leanmirror_mirror_ops_deltanet as module

    prop = module.prop_Mirror__Ops__gdnStep__conformance
    table = project_bindings(ROOT, prop.lean_name, sorted(prop.bound_to))
    bindings = runtime_bindings(set(prop.bound_to), table)
    example = {"Dk": 4, "Dv": 2, "α": ALPHA, "β": BETA, "S": S, "k": K, "v": V}
    verdict, _, method = replay_conformance(prop, prop.plan, bindings["Mirror.Ops.gdnStep"],
                                            bindings, example)
    assert verdict == "holds", method


def test_a_closed_gate_drops_an_overflowed_state_exactly():
    # S_1 = β v kᵀ = 1e400 overflows; α_2 = 0 gives S_2 = β_2 v_2 k_2ᵀ = 6 exactly (Lean's
    # `0 • S = 0` whatever S is), not 0 · inf = NaN
    alpha, beta = np.array([1.0, 0.0]), np.array([1e200, 1.0])
    q = np.array([[0.0], [1.0]])
    k, v = np.array([[1e100], [2.0]]), np.array([[1e100], [3.0]])
    out, state = ops.gated_delta_rule(alpha, beta, q, k, v, return_state=True)
    assert state.tolist() == [[6.0]]
    assert out[1].tolist() == [6.0]
