"""Recursion beyond a fold on ℕ: well-founded, on two arguments, mutual; evaluated by a work
list with a step budget, never by Python's call stack (issue 12, point 4)."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest

from bridge.scanner import scan_file
from mirror.evaluate import recursion
from mirror.translate import vocabulary as V
from mirror.translate.codegen import print_property
from mirror.evaluate.recursion import RecursiveEval, RecursiveEvalTruth
from mirror.evaluate.runtime import MpRuntime, NumpyRuntime
from mirror.translate.translation import Translator, Untranslatable
from tests.mirror.conftest import PROJECTS, results_by_name

# a whole project per module (~50 s): in the slow job, so the default run stays under 10 min
pytestmark = pytest.mark.slow

RECURSION = PROJECTS / "recursion"
TESTED = ("symbolic", "certified", "tested")


def _bits(n: int) -> int:
    return max(1, n.bit_length())


# ---- the fixture project through the pipeline ------------------------------------------------


@pytest.fixture(scope="module")
def verdicts():
    return results_by_name(RECURSION)


#: The right verdict of each theorem of the fixture (its docstrings say why).
EXPECTED = {
    "bits_pos": TESTED, "bits_le_succ": TESTED, "bits_le_self": ("refuted",),
    "bits_eq_log2_succ": TESTED, "log2_eq_log": TESTED, "choose_eq": TESTED,
    "choose_symm": TESTED, "choose_le": ("refuted",), "even_or_odd": TESTED,
    "isEven_iff": TESTED, "isEven_succ": ("refuted",), "climb_pos": ("inconclusive",),
    "stuck_pos": ("inconclusive",),
}


def test_each_recursive_statement_gets_the_right_verdict_and_none_is_an_error(verdicts):
    assert set(verdicts) == set(EXPECTED)
    wrong = {name: (r.mirror_status, r.reason) for name, r in verdicts.items()
             if r.mirror_status not in EXPECTED[name]}
    assert wrong == {}


def test_counterexamples_are_confirmed_exactly_and_are_real(verdicts):
    for name in ("bits_le_self", "choose_le", "isEven_succ"):
        assert "exact rational arithmetic" in verdicts[name].reason, verdicts[name].reason
    n = verdicts["bits_le_self"].counterexample["n"]
    assert _bits(n) > n
    n, k = (verdicts["choose_le"].counterexample[v] for v in ("n", "k"))
    assert math.comb(n, k) > n + 1
    assert "n" in verdicts["isEven_succ"].counterexample


def test_running_out_of_budget_rejects_the_draws(verdicts):
    for name in ("climb_pos", "stuck_pos"):
        reason = verdicts[name].reason
        # the draws that ran out of budget are out of the domain: counted apart, never a verdict
        assert "not counted" in reason and "out of the domain" in reason, reason
        assert verdicts[name].counterexample is None


# ---- translation -----------------------------------------------------------------------------


def _statement(source: str, theorem: str):
    decls, diags = scan_file("x.lean", "M", source)
    assert not [d for d in diags if d.severity == "error"]
    by_name = {d.name: d for d in decls}
    return Translator(by_name).translate_statement(by_name[theorem])


CHOOSE = ("def choose : ℕ → ℕ → ℕ\n  | _, 0 => 1\n  | 0, _ + 1 => 0\n"
          "  | n + 1, k + 1 => choose n k + choose n (k + 1)\n")


def test_two_argument_recursion_is_a_system_of_equations_first_match_first():
    statement = _statement(CHOOSE + "theorem t (n : ℕ) : choose n 0 = 1 := sorry\n", "t")
    (node,) = statement.conclusion.atoms(RecursiveEval)
    ((member, body, truth),) = node.args[1].args
    assert member.name == "choose" and not truth
    assert len(body.variables) == 2 and body.expr.has(V.LeanIte)


def test_mutual_recursion_is_one_system_of_two_members():
    source = ("mutual\ndef isEven : ℕ → Bool\n  | 0 => true\n  | n + 1 => isOdd n\n"
              "def isOdd : ℕ → Bool\n  | 0 => false\n  | n + 1 => isEven n\nend\n"
              "theorem t (n : ℕ) : isEven n = true := sorry\n")
    (node,) = _statement(source, "t").conclusion.atoms(RecursiveEvalTruth)
    assert sorted(m.name for m, _, _ in node.args[1].args) == ["isEven", "isOdd"]


def test_a_fold_on_nat_stays_a_fold():
    source = ("def tri : ℕ → ℕ\n  | 0 => 0\n  | n + 1 => tri n + (n + 1)\n"
              "theorem t (n : ℕ) : 2 * tri n = n * (n + 1) := sorry\n")
    conclusion = _statement(source, "t").conclusion
    assert conclusion.has(V.Recursion) and not conclusion.atoms(RecursiveEval)


def test_a_call_on_other_than_the_predecessor_is_not_read_as_a_fold():
    """``h (n + 1) = h (n / 2) + 1`` is no fold: ``h 4 = h 1 + 1 = 2`` (a fold would say 4)."""
    source = ("def h : ℕ → ℕ\n  | 0 => 0\n  | n + 1 => h (n / 2) + 1\n"
              "theorem t (n : ℕ) : h n = 2 := sorry\n")
    statement = _statement(source, "t")
    assert not statement.conclusion.has(V.Recursion)
    assert _holds(statement, n=4) and not _holds(statement, n=1) and _holds(statement, n=3)


def _holds(statement, **values) -> bool:
    source = print_property(statement)
    namespace: dict = {}
    exec(compile(source.source, "<test>", "exec"), {"__builtins__": {}}, namespace)
    args = {source.parameters[k]: np.asarray([v]) for k, v in values.items()}
    rt = NumpyRuntime(1, 8)
    _, conclusion = namespace[source.function_name](rt, **args)
    assert not rt.invalid.any()
    return bool(conclusion.exact[0])


def test_what_a_system_cannot_hold_is_named():
    with pytest.raises(Untranslatable, match="pattern"):
        _statement("def f : ℤ → ℤ\n  | Int.negSucc n => 0\n  | _ => f 0\n"
                   "theorem t (x : ℤ) : f x = 0 := sorry\n", "t")
    with pytest.raises(Untranslatable, match="only numbers and truth values"):
        _statement("def g (v : ℕ → ℝ) : ℕ → ℝ\n  | 0 => v 0\n  | n + 1 => g v (n / 2) * 2\n"
                   "theorem t (v : ℕ → ℝ) (n : ℕ) : 0 ≤ g v (n + 1) := sorry\n", "t")


# ---- the work list ---------------------------------------------------------------------------


def _count_down(rt, call, n):
    """``f 0 = 0``, ``f (n + 1) = f n + 1``: a chain as long as its argument."""
    return rt.ite(rt.eq(n, 0), lambda: 0, lambda: call("f", n - 1) + 1)


def _choose(rt, call, n, k):
    return rt.ite(rt.eq(k, 0), lambda: 1, lambda: rt.ite(
        rt.eq(n, 0), lambda: 0, lambda: call("c", n - 1, k - 1) + call("c", n - 1, k)))


def test_a_chain_longer_than_pythons_stack_is_evaluated():
    depth = sys.getrecursionlimit() + 200
    assert 2 * depth < recursion.ROUND_BUDGET  # down the chain, then back up
    rt = NumpyRuntime(3, 8)
    out = rt.recursive({"f": (False, _count_down)}, "f", np.array([0, 7, depth]))
    assert list(out) == [0, 7, depth] and not rt.invalid.any()


def test_out_of_budget_marks_only_that_draw_out_of_domain():
    rt = NumpyRuntime(2, 8)
    out = rt.recursive({"f": (False, _count_down)}, "f",
                       np.array([5, recursion.ROUND_BUDGET + 10]))
    assert out[0] == 5
    assert list(rt.invalid) == [False, True]


def test_a_call_that_waits_on_itself_is_out_of_domain():
    rt = NumpyRuntime(2, 8)
    system = {"s": (False, lambda rt, call, n: rt.ite(rt.eq(n, 0), lambda: 1,
                                                      lambda: call("s", n) + 1))}
    out = rt.recursive(system, "s", np.array([0, 3]))
    assert out[0] == 1 and list(rt.invalid) == [False, True]


def test_calls_are_memoized_so_two_argument_recursion_is_polynomial():
    # without sharing, choose 40 20 would need about 10^11 body evaluations
    rt = NumpyRuntime(3, 8)
    out = rt.recursive({"c": (False, _choose)}, "c", np.array([40, 10, 3]), np.array([20, 3, 5]))
    assert [int(v) for v in out] == [math.comb(40, 20), math.comb(10, 3), 0]
    assert not rt.invalid.any()


def test_the_exact_runtime_evaluates_the_same_system():
    mp = MpRuntime(8)
    out = mp.recursive({"c": (False, _choose)}, "c", mp.lift(np.array([12])),
                       mp.lift(np.array([5])))
    assert out[0] == math.comb(12, 5) and not mp.invalid.any()


def test_inactive_draws_are_not_evaluated():
    rt = NumpyRuntime(2, 8)
    rt._push(np.array([True, False]))
    out = rt.recursive({"f": (False, _count_down)}, "f",
                       np.array([4, recursion.ROUND_BUDGET + 10]))
    rt._pop()
    assert out[0] == 4 and not rt.invalid.any()
