"""Grouped-query attention where a logit ``scale · q·k`` overflows in float64 although the
operands are finite (issue 20's wide draws): the kernel's softmax must be that of the exact
logits. The reference is mpmath at 60 digits from the Lean definition
(`lean/Mirror/Ops/Attention.lean`: `Σ_l softmax(scale · ⟪q, k_l⟫ over l ≤ pos) · v_l`), and the
generated conformance rows replayed at round 19's failing decode draw."""

from __future__ import annotations

import math

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


def lean_causal(scale, pos, q, k, v):
    """``out[s, c, g, :]`` by the definition, logits exact."""
    s_len, hkv, g, d = q.shape
    out = np.zeros(q.shape)
    for s in range(s_len):
        for c in range(hkv):
            for gi in range(g):
                keys = range(min(pos[s], k.shape[0] - 1) + 1)
                logits = [MP.mpf(scale) * MP.fsum(MP.mpf(a) * MP.mpf(b)
                                                  for a, b in zip(q[s, c, gi], k[l, c]))
                          for l in keys]
                top = max(logits)
                w = [MP.exp(x - top) for x in logits]
                total = MP.fsum(w)
                for e in range(d):
                    out[s, c, gi, e] = float(MP.fsum(wi * MP.mpf(v[l, c, e])
                                                     for wi, l in zip(w, keys)) / total)
    return out


CASES = {
    # q·k ≈ 7e308 overflows; the scale brings the logits back to ~1e292 (round 19's draw kind)
    "small-scale": (-2.220446049250313e-16, np.full((2, 1, 1, 2), -2.88e276),
                    np.array([[[1e32, 3e32]], [[-2e32, 1e32]]]), np.array([[[1.0, -2.0]],
                                                                          [[0.5, 4.0]]])),
    # logits ~1e309 and beyond: the softmax is one-hot on the largest exact logit
    "beyond-range": (1.0, np.full((2, 1, 1, 1), 1e160), np.array([[[1e150]], [[2e150]]]),
                     np.array([[[3.0]], [[-7.0]]])),
    # 0 · inf: the exact logits are 0, the weights uniform
    "zero-scale": (0.0, np.full((2, 1, 1, 1), 1e200), np.array([[[1e200]], [[-1e200]]]),
                   np.array([[[1.0]], [[2.0]]])),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_causal_attention_is_the_softmax_of_the_exact_logits(name):
    scale, q, k, v = CASES[name]
    pos = np.arange(q.shape[0])
    got = ops.causal_gqa(scale, pos, q, k, v)
    want = lean_causal(scale, pos, q, k, v)
    assert np.isfinite(got).all()
    ulps = np.abs(got - want) / np.array([math.ulp(abs(x)) for x in want.ravel()]).reshape(
        want.shape)
    assert ulps.max() <= 8


def test_decode_row_holds_at_round_19s_failing_draw():
    import mirrors.leanmirror_mirror_ops_attention as module

    prop = module.prop_Mirror__Ops__decodeGQA__conformance
    table = project_bindings(ROOT, prop.lean_name, sorted(prop.bound_to))
    bindings = runtime_bindings(set(prop.bound_to), table)
    big = 2.681561585988519e+154  # scale · q · k = 1.9e463
    example = {"L": 1, "Hkv": 1, "G": 1, "D": 1, "scale": big, "arg4": 0, "arg5": 0,
               "arg6": 0, "q": [[[big]]], "k": [[[big]]], "v": [[[0.0]]]}
    verdict, _, method = replay_conformance(prop, prop.plan, bindings["Mirror.Ops.decodeGQA"],
                                            bindings, example)
    assert verdict == "holds", method
