"""Undecided is not rejected: a draw no precision decides is counted apart, by the part it
leaves open, and supports no verdict."""

from __future__ import annotations

import numpy as np

from mirror.judge.checks import UNSETTLED, Judge, Tally, _summarize

PLAN = {"settings": {"nat_domain": 8}, "variables": [{"name": "x", "param": "v_x"}]}


def _vanishing(rt, v_x):
    """``toReal (exp x) - exp x``: exactly 0, but no ball is exactly 0 and sympy does not
    evaluate ℝ≥0∞ (so nothing decides an equation on it)."""
    return rt.enn_to_real(rt.exp(v_x)) - rt.exp(v_x)


def _classify(prop, hyp=True, concl=True, hyp_sure=False, concl_sure=True):
    judge = Judge(prop, PLAN, {}, False, Tally())
    kind = judge.classify({"x": np.float64(0.5)}, hyp, concl, hyp_sure, concl_sure, 0.0)
    return kind, judge.tally


def test_an_undecided_hypothesis_is_counted_apart_from_the_rejections():
    kind, tally = _classify(lambda rt, v_x: (rt.eq(_vanishing(rt, v_x), 0), rt.truth(True)))
    assert kind == UNSETTLED
    assert tally.rejected == 0 and tally.valid == 0
    assert tally.undecided == 1 and tally.undecided_in == {"hypotheses": 1}


def test_an_undecided_conclusion_is_attributed_to_the_conclusion():
    kind, tally = _classify(lambda rt, v_x: (rt.lt(0, v_x), rt.eq(_vanishing(rt, v_x), 0)),
                            hyp_sure=True, concl_sure=False)
    assert kind == UNSETTLED and tally.rejected == 0
    assert tally.undecided_in == {"conclusion": 1}


def test_undecided_draws_are_shown_and_support_no_verdict():
    tally = Tally(valid=3, undecided=7, undecided_in={"hypotheses": 7})
    outcome = _summarize(tally, ["m"], False, 0.5)
    assert outcome.rejected == 0 and outcome.undecided == 7
    assert "7 in the hypotheses" in outcome.method and "not rejections" in outcome.method
    # 3 decided draws of 10 are too few: undecided draws never count for the verdict
    assert outcome.status == "inconclusive" and "7 undecided by every precision" in outcome.reason
