"""Checks: run a generated property and decide what the evidence supports.

Three kinds of evidence, never overstated (DESIGN.md):

- **symbolic** — sympy reduces the statement to true (closed statements are evaluated exactly;
  scalar equations are simplified); recorded with the method.
- **tested** — Hypothesis examples (shrinking, example database replayed first) plus a
  vectorized sweep (many NumPy draws in one call). float64 is only the fast filter: a draw
  whose value fails, or holds only within the tolerance of a relation's boundary, is decided
  exactly (:mod:`mirror.judge.exact`) before it counts. The count of decided examples, the largest
  error seen and the tolerance are recorded.
- **refuted** — a counterexample whose hypotheses hold and whose conclusion fails when
  decided exactly. An implementation's float-only mismatch with its Lean definition is
  **inconclusive**, and so is a statement whose draws are mostly rejected by its hypotheses.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
import sympy as sp
from sympy.logic.boolalg import BooleanFunction
from hypothesis import HealthCheck, Phase, assume, given, settings as hsettings
from hypothesis import strategies as st
from hypothesis.errors import Flaky, Unsatisfiable as HypothesisUnsatisfiable
from hypothesis.reporting import with_reporter

from mirror.judge.accuracy import conformance_adapter, run_conformance
from mirror.judge.fileio import open_example_database
from mirror.judge.guard import Guard
from mirror.judge.outcome import (FLOAT_TOLERANCE, KERNEL_WRONG, NONFINITE_DECISIONS,
                                  STATEMENT_FALSE, Outcome, readable)
from mirror.judge.exact import FAILS, HOLDS, OUTSIDE, VACUOUS, Decision, decide
from mirror.judge.identity import faithful
from mirror.judge.tally import Tally, summarize as _summarize
from mirror.evaluate.runtime import NumpyRuntime, OutOfDomain
from mirror.sample.strategies import (examples, group_by_shape, sample_batch, stack,
                               unambiguous_size)

# Mutation testing covers the classification of a draw (Judge, holds); the Hypothesis and
# sweep drivers, their budgets and the symbolic settling are left out.
# pragma: no mutate start
#: Passing sweep draws that are re-decided exactly per statement (the closest calls first);
#: the rest of the fragile ones are not counted as examples.
SWEEP_EXACT = 64
#: CPU seconds of exact decisions per statement (this process's CPU time, so that another
#: process's load does not shrink the budget); past them, draws float64 cannot settle beyond
#: doubt are not counted (said in the method), and a float64 counterexample is not decided.
EXACT_SECONDS = 10.0
#: Seconds a decided counterexample may be shrunk for; past them the smallest one found so far
#: is the counterexample (every candidate it was shrunk through was itself decided).
SHRINK_SECONDS = 10.0
#: Draws in one Hypothesis example at most (evaluated in one vectorized call).
DRAWS_PER_EXAMPLE = 16


PASS, REJECT, REFUTED, FLOAT_ONLY, UNSETTLED, SKIPPED = (
    "pass", "reject", "refuted", "float-only", "undecided", "skipped")


class _Found(Exception):
    """A decided counterexample: Hypothesis shrinks it and raises the smallest one again."""

    def __init__(self, example: dict[str, Any], err: float, decision: Decision) -> None:
        super().__init__("counterexample decided exactly")
        self.example, self.err, self.decision = example, err, decision


def _silent(value: object) -> None:
    """A Hypothesis reporter that prints nothing."""


class _ExactSpent(BaseException):
    """Stops Hypothesis once the exact-decision time is spent (more draws would not count)."""


class _Enough(BaseException):
    """Stops Hypothesis once the phase's examples have passed."""


class _OutOfBudget(BaseException):
    """Stops Hypothesis when the time budget is spent (the examples so far still count)."""


# pragma: no mutate end
class Judge:
    """Classifies draws: float64 decides the clear ones, :func:`mirror.judge.exact.decide` the rest."""

    def __init__(self, function: Callable, plan: dict, bindings: dict[str, Callable],
                 bound: bool, tally: Tally, unfolded: Callable | None = None) -> None:
        self.function = function
        #: The statement with the bound definitions unfolded (Lean's own definitions).
        self.unfolded = unfolded
        self.plan = plan
        self.bindings = bindings
        self.bound = bound
        self.tally = tally
        self._decided: dict[bytes, Decision] = {}
        self.last_decision: Decision | None = None
        self.exact_seconds = 0.0

    def _key(self, example: dict[str, Any]) -> bytes:
        return b"|".join(np.ascontiguousarray(example[e["name"]]).tobytes()
                         for e in self.plan["variables"])

    def decide(self, example: dict[str, Any]) -> Decision:
        """The exact decision at ``example``, computed once per distinct example of the run
        (small discrete domains repeat draws)."""
        key = self._key(example)
        decision = self._decided.get(key)
        if decision is None:
            started = time.process_time()
            decision = decide(self.function, self.plan, example, self.bindings)
            self.exact_seconds += time.process_time() - started
            self._decided[key] = decision
            self.tally.exact += 1
            kind = decision.kind
            self.tally.exact_methods[kind] = self.tally.exact_methods.get(kind, 0) + 1
        return decision

    def settled(self, hyp, concl, hyp_sure, concl_sure) -> tuple:
        """``(passes, rejects)``: the draws float64 alone settles (booleans or arrays). With a
        bound implementation the float comparison is the check; otherwise a draw passes only
        when its hypotheses and conclusion hold beyond doubt, and is rejected only when its
        hypotheses fail beyond doubt."""
        if self.bound:
            return hyp & concl, ~hyp
        return hyp & concl & hyp_sure & concl_sure, ~hyp & hyp_sure

    def classify(self, example: dict[str, Any], hyp: bool, concl: bool, hyp_sure: bool,
                 concl_sure: bool, err: float, exact_allowed: bool = True) -> str:
        """One draw: ``hyp``/``concl`` are its float64 truth values, ``*_sure`` whether float64
        decides them beyond doubt (:class:`~mirror.evaluate.runtime.Truth`), ``err`` the conclusion's
        deviation. ``exact_allowed=False``: an unsure draw that float64 does not call a
        counterexample is skipped (not counted) instead of decided exactly."""
        tally = self.tally
        passes, rejects = self.settled(*map(np.bool_, (hyp, concl, hyp_sure, concl_sure)))
        if rejects:
            tally.rejected += 1
            return REJECT
        if passes:
            return self._pass(err)
        if self.bound:
            lean = self.lean_decision(example)
            if lean is not None and lean.verdict == FAILS:
                return self._refute(example, err, lean, STATEMENT_FALSE)
            if lean is not None and lean.verdict == VACUOUS:
                tally.rejected += 1
                return REJECT
            # the kernel's outputs are compared with the statement within the tolerance
            decision = self.last_decision = decide(self.function, self.plan, example,
                                                   self.bindings, tolerance=FLOAT_TOLERANCE)
            if decision.verdict == FAILS:
                return self._refute(example, err, decision,
                                    KERNEL_WRONG if lean is not None else "")
            tally.float_only += 1
            if np.isfinite(err):
                tally.rounding = max(tally.rounding, err)
            if tally.float_example is None:
                tally.float_example = (dict(example), err)
            return FLOAT_ONLY
        fragile = not (hyp_sure and concl_sure)
        # an example decided before is decided the same way again (Hypothesis replays it)
        known = self._key(example) in self._decided
        if fragile and not exact_allowed and not (hyp and not concl) and not known:
            tally.skipped += 1
            return SKIPPED
        if self.exact_seconds >= EXACT_SECONDS and not known:
            # the statement's exact-decision time is spent: nothing more is counted
            tally.skipped += 1
            return SKIPPED
        decision = self.last_decision = self.decide(example)
        if decision.verdict == HOLDS:
            if hyp and not concl:
                tally.resolved += 1
            return self._pass(0.0 if fragile else err)
        if decision.verdict == VACUOUS:
            tally.rejected += 1
            return REJECT
        if decision.verdict == FAILS:
            return self._refute(example, err, decision)
        if decision.method == OUTSIDE:  # (the rigorous evaluation left the sampled domain)
            tally.refused += 1
            return REJECT
        # undecided is not rejected: counted apart, it supports no verdict
        tally.count_undecided(decision, bool(hyp and not concl))
        return UNSETTLED

    def _pass(self, err: float) -> str:
        self.tally.valid += 1
        if np.isfinite(err):
            self.tally.max_error = max(self.tally.max_error, err)
        return PASS

    def lean_decision(self, example: dict[str, Any]) -> Decision | None:
        """The statement decided exactly on Lean's own definitions at ``example`` (``None``:
        no unfolded form, or the exact-decision time is spent)."""
        if self.unfolded is None or self.exact_seconds >= EXACT_SECONDS:
            return None
        started = time.process_time()
        decision = decide(self.unfolded, self.plan, example)
        self.exact_seconds += time.process_time() - started
        self.tally.exact += 1
        kind = "Lean's own definitions: " + decision.method.split(" up to ")[0]
        self.tally.exact_methods[kind] = self.tally.exact_methods.get(kind, 0) + 1
        self.tally.lean_holds += decision.verdict == HOLDS
        return decision

    def nonfinite(self, example: dict[str, Any]) -> str:
        """A draw the kernel answered with NaN/±∞ (ℝ has neither): refuted when Lean's own
        definition violates the statement there, else counted apart from rejections."""
        self.tally.nonfinite += 1
        if self.tally.nonfinite <= NONFINITE_DECISIONS:
            lean = self.lean_decision(example)
            if lean is not None and lean.verdict == FAILS:
                return self._refute(example, math.inf, lean, STATEMENT_FALSE)
        return REJECT

    def _refute(self, example: dict[str, Any], err: float, decision: Decision,
                kind: str = "") -> str:
        self.last_decision = decision
        self.tally.valid += 1
        if self.tally.counterexample is None:
            self.tally.counterexample = (dict(example), err, decision)
            self.tally.refuted_as = kind
        return REFUTED


def holds(truth) -> np.ndarray:  # float64 truth: exact, or within an equation's tolerance
    return np.asarray(truth.ok) | np.asarray(truth.exact)


# pragma: no mutate start
def evaluate(function: Callable, plan: dict, values: dict[str, Any], rt) -> tuple:
    """Run ``function`` on batched ``values``; ``(valid, hypotheses, conclusion)``.
    Floating-point warnings are off for the whole evaluation (:mod:`mirror.evaluate.runtime`)."""
    try:
        with np.errstate(all="ignore"):
            hyp, concl = function(rt, **values)
    except OutOfDomain:
        invalid = np.ones(rt.batch, dtype=bool)
        return ~invalid, None, None
    valid = ~rt.invalid
    return valid, hyp, concl


def run_property(
    function: Callable,
    plan: dict,
    *,
    name: str,
    bindings: dict[str, Callable] | None = None,
    bound: bool = False,
    max_examples: int = 200,
    sweep: int = 512,
    seed: int = 0,
    database: Path | None = None,
    time_budget: float | None = None,
    max_reject_fraction: float = 0.5,
    digest: str = "",
    unfolded: Callable | None = None,
) -> Outcome:
    """Hypothesis examples, then a vectorized sweep; what float64 cannot settle is decided
    exactly. ``time_budget`` (seconds) is honoured between examples and sweep batches: the
    examples decided before it ran out still count. ``unfolded``: the statement over Lean's
    own definitions (whose violation is the statement's). A conformance row is judged on
    its accuracy (:mod:`mirror.judge.accuracy`)."""
    bindings = bindings or {}
    adapter = conformance_adapter(name, bindings)
    if adapter is not None:
        return run_conformance(function, plan, name=name, lean_name=adapter.binding.lean_name,
                               adapter=adapter, bindings=bindings, max_examples=max_examples,
                               database=database, time_budget=time_budget, digest=digest)
    if not plan["variables"]:
        # a closed statement has exactly one example
        max_examples, sweep = min(max_examples, 1), min(sweep, 1)
    deadline = None if time_budget is None else time.monotonic() + time_budget
    tally = Tally()
    judge = Judge(function, plan, bindings, bound, tally, unfolded)
    methods = []
    out_of_time = False
    if max_examples > 0:
        out_of_time = _hypothesis_phase(judge, name, digest, max_examples, database, deadline)
        methods.append(f"hypothesis ({max_examples} max examples)")
    if tally.counterexample is None and sweep > 0 and not out_of_time:
        out_of_time = _sweep(judge, sweep, seed, deadline)
        methods.append(f"vectorized sweep ({sweep} draws)")
    return _summarize(tally, methods, out_of_time, max_reject_fraction)


def _hypothesis_phase(judge: Judge, name: str, digest: str, max_examples: int,
                      database: Path | None, deadline: float | None) -> bool:
    """Run the Hypothesis phase; ``True`` when the time budget ran out during it.

    A Hypothesis example is a list of up to :data:`DRAWS_PER_EXAMPLE` draws, evaluated in
    one vectorized call (draws of one shape together) and classified draw by draw: the
    engine's own cost per example is spread over several draws, and shrinking a failing list
    deletes the draws that do not fail and simplifies the one that does. The phase ends once
    ``max_examples`` draws have passed."""
    plan, nat_domain = judge.plan, judge.plan["settings"]["nat_domain"]
    start_valid = judge.tally.valid
    found: _Found | None = None
    found_at = 0.0

    def check_draws(draws: list[dict[str, Any]]) -> None:
        nonlocal found, found_at
        if deadline is not None and time.monotonic() > deadline:
            raise _OutOfBudget()
        if found is not None and time.monotonic() - found_at > SHRINK_SECONDS:
            # the shrink budget is spent: every further candidate ends at once, so the
            # shrinker stops and replays its target, the smallest counterexample decided
            raise _Found(found.example, found.err, found.decision)
        if judge.tally.valid - start_valid >= max_examples and found is None:
            raise _Enough()  # (never while a counterexample is being shrunk)
        passed = False
        for group in group_by_shape(draws, plan):
            # padded with copies of its last draw to a size no array dimension shares
            size = unambiguous_size(group)
            padded = group + group[-1:] * (size - len(group))
            rt = NumpyRuntime(size, nat_domain, FLOAT_TOLERANCE, judge.bindings)
            valid, hyp, concl = evaluate(judge.function, plan, stack(padded, plan), rt)
            for index, example in enumerate(group):
                if hyp is None or not valid[index]:
                    judge.tally.refused += 1
                    continue
                if rt.impl_nonfinite[index]:
                    if judge.nonfinite(example) == REFUTED:
                        found = _Found(dict(example), math.inf, judge.tally.counterexample[2])
                        found_at = found_at or time.monotonic()
                        raise found
                    continue
                err = 0.0 if concl.exact[index] else float(concl.err[index])
                kind = judge.classify(example, bool(holds(hyp)[index]),
                                      bool(holds(concl)[index]), bool(hyp.sure[index]),
                                      bool(concl.sure[index]), err)
                if kind == REFUTED:
                    # (the judge keeps the first one, should the budget end the shrinking)
                    found = _Found(dict(example), err, judge.last_decision)
                    found_at = found_at or time.monotonic()
                    raise found
                if kind == SKIPPED and judge.exact_seconds >= EXACT_SECONDS:
                    raise _ExactSpent()
                passed = passed or kind == PASS
                if deadline is not None and time.monotonic() > deadline:
                    raise _OutOfBudget()
        if not passed:
            assume(False)

    db = open_example_database(database)
    # the database key: one per statement (Hypothesis reads it from the inner test)
    check_draws._hypothesis_internal_add_digest = f"{name}|{digest}".encode()
    configured = hsettings(
        max_examples=max_examples,
        database=db,
        deadline=None,
        derandomize=db is None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
        report_multiple_bugs=False,
    )(given(st.lists(examples(plan), min_size=1, max_size=DRAWS_PER_EXAMPLE))(check_draws))
    try:
        with with_reporter(_silent):  # leanmirror reports what Hypothesis found itself
            configured()
    except _Found as shrunk:  # the shrunk counterexample
        judge.tally.counterexample = (shrunk.example, shrunk.err, shrunk.decision)
    except _OutOfBudget:
        return True
    except (_ExactSpent, _Enough):
        pass
    except (HypothesisUnsatisfiable, Flaky):
        # Flaky: a replayed draw was skipped by the exact-decision budget the second time;
        # the examples decided so far stand
        pass
    return False


def _sweep(judge: Judge, sweep: int, seed: int, deadline: float | None) -> bool:
    """Vectorized draws; ``True`` when the time budget ran out during the sweep."""
    plan, tally = judge.plan, judge.tally
    rng = np.random.default_rng(seed)
    nat_domain = plan["settings"]["nat_domain"]
    batch = 64 if judge.bindings else 256
    remaining = sweep
    exact_left = SWEEP_EXACT
    while remaining > 0 and tally.counterexample is None:
        if deadline is not None and time.monotonic() > deadline:
            return True
        size = min(batch, remaining)
        remaining -= size
        values = sample_batch(plan, rng, size)
        pre_valid = values.pop("__valid__")
        rt = NumpyRuntime(size, nat_domain, FLOAT_TOLERANCE, judge.bindings)
        named = {e["param"]: values[e["name"]] for e in plan["variables"]}
        valid, hyp, concl = evaluate(judge.function, plan, named, rt)
        if hyp is None:
            tally.refused += size
            continue
        usable = pre_valid & valid & ~rt.impl_nonfinite
        tally.rejected, tally.refused = (tally.rejected + int((~pre_valid).sum()),
                                         tally.refused + int((pre_valid & ~valid).sum()))
        for index in np.flatnonzero(pre_valid & valid & rt.impl_nonfinite):
            example = {e["name"]: np.asarray(values[e["name"]])[index] for e in plan["variables"]}
            if judge.nonfinite(example) == REFUTED:
                return False
        hyp_ok, concl_ok = holds(hyp), holds(concl)
        errors = np.where(concl.exact, 0.0, concl.err)
        # clear float64 decisions in bulk
        passes, rejects = judge.settled(hyp_ok, concl_ok, hyp.sure, concl.sure)
        clear_pass, clear_reject = usable & passes, usable & rejects
        tally.valid += int(clear_pass.sum())
        tally.rejected += int(clear_reject.sum())
        if clear_pass.any():
            tally.max_error = max(tally.max_error, float(np.nanmax(np.where(clear_pass, errors,
                                                                            0.0))))
        # the rest one by one: failures first (at most 5 a batch), then the closest calls
        rest = usable & ~clear_pass & ~clear_reject
        failing = np.flatnonzero(rest & hyp_ok & ~concl_ok)[:5]
        others = np.flatnonzero(rest & ~(hyp_ok & ~concl_ok))
        others = others[np.argsort(-np.nan_to_num(errors[others], nan=np.inf))]
        # float64 failures past the five a batch: not decided, so not counted (never
        # rejections)
        tally.skipped += int((rest & hyp_ok & ~concl_ok).sum()) - len(failing)
        for index in [*failing, *others]:
            example = {e["name"]: np.asarray(values[e["name"]])[index] for e in plan["variables"]}
            exacts = judge.tally.exact
            kind = judge.classify(example, bool(hyp_ok[index]), bool(concl_ok[index]),
                                  bool(hyp.sure[index]), bool(concl.sure[index]),
                                  float(errors[index]), exact_left > 0)
            exact_left -= judge.tally.exact - exacts
            if kind == REFUTED:
                return False
            if deadline is not None and time.monotonic() > deadline:
                return True
    return False


# ---- symbolic -----------------------------------------------------------------------------------


#: Seconds one symbolic attempt may take before it gives up (the statement is then tested).
SYMBOLIC_LIMIT = 10.0

def _atomized(expr: sp.Basic) -> sp.Basic:
    """``expr`` with each of leanmirror's propositions (``FinAll``, ``Holds``, ``ArrayEq``…)
    replaced by a fresh boolean symbol. sympy's logic simplifier reads a ``BooleanFunction``'s
    arguments as propositional atoms (``∀ x < NATDOM, x ≤ 232`` simplified to True): as opaque
    atoms, the simplification proves only what holds whatever their values."""
    mapping: dict[sp.Basic, sp.Basic] = {}
    for node in sp.preorder_traversal(expr):
        if isinstance(node, BooleanFunction) and type(node).__module__.startswith("mirror."):
            mapping.setdefault(node, sp.Dummy("proposition"))
    return expr.xreplace(mapping) if mapping else expr


def settle_symbolically(statement, time_limit: float | None = None) -> str | None:
    """Try to reduce a statement to ``True`` with sympy; the method on success, else ``None``.

    sympy reasons over ℝ and ℂ, so a statement is only settled when every node of its
    translation means in sympy what it means in Lean (:func:`faithful`): Lean's junk values
    live in opaque functions (``LeanDiv``, ``NatSub``, ``LeanLog``…) that sympy cannot
    simplify away. The attempt is bounded by :data:`SYMBOLIC_LIMIT` seconds, or by
    ``time_limit`` when that is shorter."""
    if statement.hypotheses:
        return None
    concl = statement.conclusion
    if not faithful(concl):
        return None
    if concl is sp.true:
        return "sympy: the statement evaluates to True exactly"
    if concl is sp.false:
        return None
    guard = Guard(SYMBOLIC_LIMIT if time_limit is None else max(min(time_limit, SYMBOLIC_LIMIT),
                                                                 1e-3))
    if not statement.variables:
        value = guard.call("doit", lambda: concl.doit() if hasattr(concl, "doit") else concl)
        if value is sp.true and faithful(value):
            return "sympy: exact rational evaluation of the closed statement"
        if value is not None and guard.call("simplify", sp.simplify, _atomized(value)) is sp.true:
            return "sympy: simplification of the closed statement"
    if isinstance(concl, sp.Equality):
        difference = concl.lhs - concl.rhs
        if sp.count_ops(difference) > 80:
            return None
        if guard.call("simplify", sp.simplify, difference) == 0:
            return "sympy: simplify(lhs - rhs) = 0"
        rewritten = guard.call("rewrite", difference.rewrite, sp.exp)
        if rewritten is not None and guard.call("simplify", sp.simplify, rewritten) == 0:
            return "sympy: simplify(rewrite(lhs - rhs, exp)) = 0"
    return None


__all__ = ["Judge", "Outcome", "Tally", "conformance_adapter", "evaluate", "faithful", "holds", "readable",
           "run_property", "settle_symbolically"]
# pragma: no mutate end
