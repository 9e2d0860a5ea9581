"""An identity is proved once per statement (on symbols), then reused at every draw whose own
evaluation builds an instance of it; nothing unfaithful to Lean is ever kept as one."""

from __future__ import annotations

import numpy as np
import sympy as sp

from mirror.judge import exact
from mirror.judge.exact import FAILS, HOLDS, decide
from mirror.judge.identity import SymbolicRuntime

PLAN = {"settings": {"nat_domain": 8}, "variables": [{"name": "x", "param": "v_x"}]}


def _strict_trig(rt, v_x):
    return rt.truth(True), rt.lt(rt.sin(v_x) ** 2 + rt.cos(v_x) ** 2, 1)


def _trig_eq(rt, v_x):
    return rt.truth(True), rt.eq(rt.sin(v_x) ** 2 + rt.cos(v_x) ** 2, 1)


def test_the_identity_is_proved_once_and_decides_every_draw():
    draws = [{"x": np.float64(v)} for v in (0.3, -2.5, 1e-30, 7.0)]
    verdicts = [decide(_strict_trig, PLAN, d).verdict for d in draws]
    assert verdicts == [FAILS] * 4
    (symbols, proven), = exact._IDENTITIES[_strict_trig].values()
    assert len(proven) == 1 and proven[0].free_symbols == {symbols["v_x"]}
    # the next draw's difference is an instance of it: known 0 without a proof
    known = exact._identities(_strict_trig, PLAN, {"x": np.float64(0.5)}, None)
    half = sp.Rational(1, 2)
    assert 1 - (sp.sin(half) ** 2 + sp.cos(half) ** 2) in known  # (b - a of a < b)


def test_an_equation_that_holds_is_decided_at_each_draw():
    assert all(decide(_trig_eq, PLAN, {"x": np.float64(v)}).verdict == HOLDS
               for v in (0.1, 3.0, -40.0))


def test_a_difference_sympy_means_differently_from_lean_is_not_kept():
    x = sp.Symbol("_x", real=True)
    rt = SymbolicRuntime(8)
    # sympy proves tan x = sin x / cos x, but Lean's tan and x / 0 = 0 disagree at cos x = 0
    assert not rt._zero(sp.tan(x) - sp.sin(x) / sp.cos(x))
    assert rt.proven == []
    assert rt._zero(sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1) and len(rt.proven) == 1
