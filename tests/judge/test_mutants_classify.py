"""Round 20 mutation tests of the classification: what a run's tally supports
(:func:`~mirror.judge.tally.summarize`: every verdict, count and note) and how one draw is
classified (:class:`~mirror.judge.checks.Judge`: settled by float64, decided exactly, within the
tolerance of a bound kernel, against Lean's own definitions, skipped when the budget is spent).
"""

from __future__ import annotations

import math

import numpy as np

# ---- the outcome a run's tally supports (tally.summarize) --------------------------------------

from mirror.judge.checks import (FLOAT_ONLY, PASS, REFUTED, REJECT, SKIPPED, UNSETTLED,
                                 Judge, holds)
from mirror.judge.exact import Decision
from mirror.judge.outcome import FLOAT_TOLERANCE, KERNEL_WRONG
from mirror.judge.tally import Tally, summarize, undecided_note


def _summary(tally, fraction=0.5, out_of_time=False):
    return summarize(tally, ["hypothesis (10 max examples)", "sweep"], out_of_time, fraction)


def test_a_run_of_passing_examples_is_tested_with_its_counts():
    outcome = _summary(Tally(valid=20, rejected=3, max_error=1e-12))
    assert outcome.status == "tested" and outcome.reason is None
    assert outcome.examples == 20 and outcome.rejected == 3 and outcome.undecided == 0
    assert outcome.max_error == 1e-12 and outcome.tolerance == FLOAT_TOLERANCE
    assert outcome.method == "hypothesis (10 max examples) + sweep" and outcome.notes == []


def test_rejections_refusals_and_nonfinite_draws_are_not_counted_and_too_many_make_it_inconclusive():
    # 10 passing, 4 rejected + 3 refused + 3 non-finite = 10 not counted: exactly half is allowed
    tally = Tally(valid=10, rejected=4, refused=3, nonfinite=3)
    outcome = _summary(tally)
    assert outcome.status == "tested" and outcome.rejected == 10
    # one more rejection tips it past half
    tally.rejected = 5
    outcome = _summary(tally)
    assert outcome.status == "inconclusive"
    assert outcome.reason == ("11 of 21 draws not counted: 5 rejected by the hypotheses, "
                              "3 out of the domain of its values or refused by a bound kernel, "
                              "3 where a bound kernel returned NaN or ±∞")
    # undecided draws count against the statement as rejections do, and are named
    outcome = _summary(Tally(valid=2, undecided=3, undecided_in={"conclusion": 3}))
    assert outcome.status == "inconclusive" and outcome.undecided == 3
    assert outcome.reason == "3 of 5 draws not counted: 3 undecided by every precision"
    # a stricter fraction
    assert _summary(Tally(valid=10, rejected=2), fraction=0.1).status == "inconclusive"
    assert _summary(Tally(valid=10, rejected=1), fraction=0.1).status == "tested"


def test_no_draw_at_all_is_inconclusive_and_says_whether_time_ran_out():
    assert _summary(Tally()).reason == "no example was drawn"
    outcome = _summary(Tally(), out_of_time=True)
    assert outcome.status == "inconclusive"
    assert outcome.reason == "no example was drawn before the time budget ran out"
    assert outcome.notes == ["stopped by the time budget"]


def test_a_counterexample_refutes_whatever_else_was_counted():
    decision = Decision("fails", "exact rational arithmetic", error=0.75)
    tally = Tally(valid=3, rejected=100, undecided=50, undecided_failing=2, float_only=1,
                  float_example=({"x": 1.0}, 1e-3),
                  counterexample=({"x": np.float64(0.5)}, 0.25, decision), refuted_as=KERNEL_WRONG)
    outcome = _summary(tally)
    assert outcome.status == "refuted"
    assert outcome.counterexample == {"x": 0.5}
    assert outcome.decision_method == "exact rational arithmetic"
    assert outcome.max_error == 0.25
    assert outcome.reason == ("counterexample decided by exact rational arithmetic: the "
                              "hypotheses hold and the conclusion fails (error 0.75, float64 "
                              "error 0.25); " + KERNEL_WRONG)
    # a non-finite float64 error does not become the largest error
    tally.counterexample = ({"x": 0.5}, math.inf, decision)
    tally.refuted_as = ""
    outcome = _summary(tally)
    assert outcome.max_error == 0.0 and outcome.reason.endswith("float64 error inf)")


def test_a_float_only_mismatch_is_inconclusive_with_its_size():
    tally = Tally(valid=30, float_only=2, float_example=({"x": 2.0}, 3e-10), rounding=4e-10,
                  max_error=1e-11)
    outcome = _summary(tally)
    assert outcome.status == "inconclusive" and outcome.counterexample == {"x": 2.0}
    assert outcome.max_error == 3e-10
    assert outcome.reason == ("the kernel violates the statement only by float rounding: 2 "
                              "float64 mismatch(es) that re-evaluating the kernel's outputs at "
                              "50 digits (within 1e-09) does not confirm (largest float64 "
                              "violation 4e-10)")
    tally.lean_holds = 1
    assert _summary(tally).reason.endswith("; Lean's own definition satisfies the statement there")
    # an undecided float64 counterexample comes after it
    tally.undecided_failing, tally.undecided_reason = 1, "ball arithmetic up to 512 bits"
    assert _summary(tally).reason.startswith("the kernel violates")


def test_an_undecided_float_counterexample_is_inconclusive_not_tested():
    tally = Tally(valid=100, undecided=1, undecided_failing=1,
                  undecided_reason="ball arithmetic up to 2048 bits")
    outcome = _summary(tally)
    assert outcome.status == "inconclusive"
    assert outcome.reason == ("1 draw(s) fail in float64 but are undecided by exact and ball "
                              "arithmetic (ball arithmetic up to 2048 bits)")


def test_the_notes_say_every_count():
    tally = Tally(valid=40, refused=2, nonfinite=1, exact=5,
                  exact_methods={"exact rational arithmetic": 3, "ball arithmetic": 2},
                  resolved=4, skipped=6, undecided=2,
                  undecided_in={"hypotheses": 1, "conclusion": 1})
    outcome = _summary(tally, out_of_time=True)
    assert outcome.notes == [
        "2 draw(s) out of the domain of the statement's values or refused by a bound kernel "
        "(not counted)",
        "1 draw(s) where a bound kernel returned NaN or ±∞ (ℝ has neither; its conformance row "
        "judges the kernel)",
        "5 distinct draw(s) decided exactly (2 by ball arithmetic, 3 by exact rational arithmetic)",
        "4 float64 mismatch(es) resolved by exact decision",
        "6 draw(s) float64 could not settle were not decided exactly (exact-decision budget "
        "spent) and not counted",
        "2 draw(s) no precision could decide (1 in the hypotheses, 1 in the conclusion; not "
        "counted, and not rejections)",
        "stopped by the time budget",
    ]
    assert outcome.method == ("hypothesis (10 max examples) + sweep; " + "; ".join(outcome.notes))
    assert undecided_note(Tally(undecided=3, undecided_in={"conclusion": 3})) == (
        "3 draw(s) no precision could decide (3 in the conclusion; not counted, and not rejections)")


def test_an_undecided_draw_is_counted_by_the_part_left_open():
    tally = Tally()
    tally.count_undecided(Decision("undecided", "ball arithmetic up to 64 bits",
                                   undecided_in="hypotheses"), failing=False)
    tally.count_undecided(Decision("undecided", "m1"), failing=True)
    tally.count_undecided(Decision("undecided", "m2"), failing=True)
    assert tally.undecided == 3 and tally.undecided_in == {"hypotheses": 1, "conclusion": 2}
    assert tally.undecided_failing == 2 and tally.undecided_reason == "m1"
    assert tally.rejected == 0 and tally.valid == 0


# ---- the classification of one draw (checks.Judge) ---------------------------------------------

from mirror.evaluate.batch import OutOfDomain
from mirror.judge import checks
from mirror.judge.outcome import STATEMENT_FALSE

PLAN = {"settings": {"nat_domain": 8}, "variables": [{"name": "x", "param": "v_x"}]}
HALF = {"x": np.float64(0.5)}


def _judge(prop, bound=False, unfolded=None):
    return Judge(prop, PLAN, {}, bound, Tally(), unfolded)


def _true(rt, v_x):
    return rt.truth(True), rt.lt(0, v_x)          # 0 < x: true at x = 1/2


def _false(rt, v_x):
    return rt.truth(True), rt.lt(v_x, 0)          # x < 0: false at x = 1/2


def _vacuous(rt, v_x):
    return rt.lt(v_x, 0), rt.lt(v_x, 0)           # the hypothesis x < 0 is false


def _near(rt, v_x):
    return rt.truth(True), rt.le(v_x, rt.number("0.4999999999999"))   # fails by 1e-13


def _settled(judge, *truths):
    """``Judge.settled`` on float64 truth values as ``classify`` passes them (NumPy booleans)."""
    return tuple(bool(v) for v in judge.settled(*map(np.bool_, truths)))


def test_float64_settles_only_what_it_decides_beyond_doubt():
    judge = _judge(_false)
    assert _settled(judge, True, True, True, True) == (True, False)
    assert _settled(judge, True, True, False, True) == (False, False)   # unsure hypotheses
    assert _settled(judge, True, True, True, False) == (False, False)   # unsure conclusion
    assert _settled(judge, False, True, True, True) == (False, True)    # sure false hypotheses
    assert _settled(judge, False, False, False, True) == (False, False)  # unsure: decide exactly
    bound = _judge(_false, bound=True)
    assert _settled(bound, True, True, False, False) == (True, False)   # a kernel: the float check
    assert _settled(bound, False, True, False, False) == (False, True)
    assert _settled(bound, True, False, True, True) == (False, False)


def test_a_sure_float_pass_counts_with_its_error_and_a_sure_rejection_rejects():
    judge = _judge(_false)   # the function is not consulted for what float64 settles
    assert judge.classify(HALF, True, True, True, True, 3e-12) == PASS
    assert judge.tally.valid == 1 and judge.tally.max_error == 3e-12 and judge.tally.exact == 0
    assert judge.classify(HALF, True, True, True, True, math.inf) == PASS
    assert judge.tally.max_error == 3e-12          # a non-finite error is no error size
    assert judge.classify(HALF, False, True, True, True, 0.0) == REJECT
    assert judge.tally.rejected == 1 and judge.tally.valid == 2


def test_an_unsure_draw_is_decided_exactly_and_a_resolved_mismatch_is_counted():
    judge = _judge(_true)
    # float64 called it a counterexample; the exact decision says it holds
    assert judge.classify(HALF, True, False, True, False, 0.5) == PASS
    assert judge.tally.resolved == 1 and judge.tally.valid == 1
    assert judge.tally.max_error == 0.0           # a fragile draw's float error is not kept
    assert judge.tally.exact == 1 and judge.tally.exact_methods == {"exact rational arithmetic": 1}
    # decided once per distinct example
    assert judge.classify(HALF, True, False, True, False, 0.5) == PASS
    assert judge.tally.exact == 1 and judge.tally.resolved == 2
    # an unsure pass is decided too, and is not a resolved mismatch
    other = _judge(_true)
    assert other.classify(HALF, True, True, False, True, 1e-10) == PASS
    assert other.tally.resolved == 0 and other.tally.max_error == 0.0


def test_an_unsure_draw_decided_false_refutes_and_vacuous_rejects():
    judge = _judge(_false)
    assert judge.classify(HALF, True, False, True, False, 0.5) == REFUTED
    example, err, decision = judge.tally.counterexample
    assert example == HALF and err == 0.5 and decision.verdict == "fails"
    assert judge.last_decision is decision and judge.tally.refuted_as == ""
    # a later refutation keeps the first counterexample
    assert judge.classify({"x": np.float64(0.25)}, True, False, True, False, 0.7) == REFUTED
    assert judge.tally.counterexample[0] == HALF and judge.tally.valid == 2
    vacuous = _judge(_vacuous)
    assert vacuous.classify(HALF, True, True, False, True, 0.0) == REJECT
    assert vacuous.tally.rejected == 1 and vacuous.tally.valid == 0


def test_a_draw_the_rigorous_evaluation_leaves_the_domain_of_is_refused_not_rejected():
    def outside(rt, v_x):
        raise OutOfDomain("index 9 of a sequence sampled to 8")
    judge = _judge(outside)
    assert judge.classify(HALF, True, True, False, False, 0.0) == REJECT
    assert judge.tally.refused == 1 and judge.tally.rejected == 0


def test_without_exact_decisions_an_unsure_draw_is_skipped_unless_float_calls_it_a_counterexample():
    judge = _judge(_false)
    assert judge.classify(HALF, True, True, False, True, 0.0, exact_allowed=False) == SKIPPED
    assert judge.tally.skipped == 1 and judge.tally.exact == 0 and judge.tally.valid == 0
    # float64 calls it a counterexample: decided anyway
    assert judge.classify(HALF, True, False, True, False, 1.0, exact_allowed=False) == REFUTED
    # once decided, the same example is replayed as decided
    assert judge.classify(HALF, True, True, False, True, 0.0, exact_allowed=False) == REFUTED
    assert judge.tally.skipped == 1


def test_once_the_exact_time_is_spent_new_unsure_draws_are_skipped():
    judge = _judge(_false)
    judge.classify(HALF, True, False, True, False, 1.0)
    judge.exact_seconds = checks.EXACT_SECONDS
    assert judge.classify({"x": np.float64(0.25)}, True, False, True, False, 1.0) == SKIPPED
    assert judge.tally.skipped == 1
    assert judge.classify(HALF, True, False, True, False, 1.0) == REFUTED   # decided before
    assert judge.lean_decision(HALF) is None


def test_a_kernel_is_judged_within_the_float_tolerance():
    # a kernel off by 1e-13 is a float-only mismatch, not a refutation
    judge = _judge(_near, bound=True)
    assert judge.classify(HALF, True, False, True, False, 1e-13) == FLOAT_ONLY
    assert judge.tally.float_only == 1 and judge.tally.rounding == 1e-13
    assert judge.tally.float_example == (HALF, 1e-13) and judge.tally.valid == 0
    assert judge.classify({"x": np.float64(0.5)}, True, False, True, False, math.nan) == FLOAT_ONLY
    assert judge.tally.rounding == 1e-13 and judge.tally.float_example == (HALF, 1e-13)
    assert judge.last_decision.verdict == "holds"
    # off by far more than the tolerance: refuted, the kernel is wrong only if Lean's
    # definitions say otherwise (no unfolded form here: no attribution)
    wrong = _judge(_false, bound=True)
    assert wrong.classify(HALF, True, False, True, False, 0.5) == REFUTED
    assert wrong.tally.refuted_as == ""
    assert wrong.tally.counterexample[2].verdict == "fails"


def test_lean_own_definitions_decide_a_kernel_statement_first():
    # Lean's definition violates the statement: the statement is false
    judge = _judge(_near, bound=True, unfolded=_false)
    assert judge.classify(HALF, True, False, True, False, 0.5) == REFUTED
    assert judge.tally.refuted_as == STATEMENT_FALSE
    assert judge.tally.exact == 1 and judge.tally.lean_holds == 0
    assert judge.tally.exact_methods == {"Lean's own definitions: exact rational arithmetic": 1}
    # Lean's definition satisfies it, the kernel's output is off beyond the tolerance
    kernel = _judge(_false, bound=True, unfolded=_true)
    assert kernel.classify(HALF, True, False, True, False, 0.5) == REFUTED
    assert kernel.tally.refuted_as == KERNEL_WRONG and kernel.tally.lean_holds == 1
    # Lean's hypotheses fail there: the draw says nothing
    vacuous = _judge(_true, bound=True, unfolded=_vacuous)
    assert vacuous.classify(HALF, True, False, True, False, 0.5) == REJECT
    assert vacuous.tally.rejected == 1 and vacuous.tally.valid == 0


def test_a_nonfinite_kernel_output_is_counted_apart_or_refuted_by_leans_definition():
    judge = _judge(_true, bound=True, unfolded=_false)
    assert judge.nonfinite(HALF) == REFUTED
    assert judge.tally.nonfinite == 1 and judge.tally.refuted_as == STATEMENT_FALSE
    assert judge.tally.counterexample[1] == math.inf
    fine = _judge(_true, bound=True, unfolded=_true)
    assert fine.nonfinite(HALF) == REJECT and fine.tally.nonfinite == 1
    assert fine.tally.rejected == 0 and fine.tally.exact == 1
    # past NONFINITE_DECISIONS draws, Lean's definition is no longer consulted
    many = _judge(_true, bound=True, unfolded=_false)
    many.tally.nonfinite = checks.NONFINITE_DECISIONS
    assert many.nonfinite(HALF) == REJECT and many.tally.exact == 0


def test_holds_is_exact_or_within_an_equations_tolerance():
    class T:
        ok = np.array([True, False, False, True])
        exact = np.array([False, True, False, True])
    assert holds(T()).tolist() == [True, True, False, True]
