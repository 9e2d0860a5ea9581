"""Checks: run a generated property and decide what the evidence supports.

Three kinds of evidence, never overstated (DESIGN.md):

- **symbolic** — sympy reduces the statement to true (closed statements are evaluated exactly;
  scalar equations are simplified); recorded with the method.
- **tested** — Hypothesis examples (shrinking, example database replayed first) plus a
  vectorized sweep (many NumPy draws in one call); the count of valid examples, the largest
  error seen and the tolerance are recorded.
- **refuted** — a counterexample that still fails when re-evaluated in 50-digit mpmath. A
  float-only mismatch is **inconclusive**, and so is a statement whose draws are mostly
  rejected by its hypotheses.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import sympy as sp
from hypothesis import HealthCheck, Phase, assume, given, settings as hsettings
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import Unsatisfiable as HypothesisUnsatisfiable

from mirror.runtime import MpRuntime, NumpyRuntime, OutOfDomain
from mirror.strategies import examples, sample_batch

#: Tolerance of float64 equations (relative, mixed with absolute below 1).
FLOAT_TOLERANCE = 1e-9
#: Tolerance of the 50-digit re-evaluation of a statement with no bound implementation.
EXACT_TOLERANCE = 1e-25


@dataclass
class Outcome:
    """What one property run found."""

    status: str
    examples: int = 0
    rejected: int = 0
    max_error: float = 0.0
    tolerance: float = FLOAT_TOLERANCE
    counterexample: dict[str, Any] | None = None
    reason: str | None = None
    method: str = ""
    float_mismatches: int = 0
    notes: list[str] = field(default_factory=list)


class _Confirmed(Exception):
    """Raised inside the Hypothesis test when a counterexample survives high precision."""

    def __init__(self, example: dict[str, Any], float_error: float, exact_error: float) -> None:
        super().__init__("counterexample confirmed in high precision")
        self.example = example
        self.float_error = float_error
        self.exact_error = exact_error


def holds(truth) -> np.ndarray:
    """A proposition holds when it holds exactly on the computed values, or within tolerance.

    Tolerance is what lets float rounding pass (``‖G‖ = 0.9999999999999999`` for ``‖G‖ = 1``);
    exactness is what keeps a tiny non-zero from being "equal to 0" inside ``↔``/``¬``.
    """
    return np.asarray(truth.ok) | np.asarray(truth.exact)


def _batched(example: dict[str, Any], plan: dict) -> dict[str, Any]:
    """One example as a batch of one, keyed by parameter name."""
    out = {}
    for entry in plan["variables"]:
        value = np.asarray(example[entry["name"]])
        out[entry["param"]] = value[None, ...]
    return out


def evaluate(function: Callable, plan: dict, values: dict[str, Any], rt) -> tuple:
    """Run ``function`` on batched ``values``; ``(valid, hypotheses, conclusion)``."""
    try:
        hyp, concl = function(rt, **values)
    except OutOfDomain:
        invalid = np.ones(rt.batch, dtype=bool)
        return ~invalid, None, None
    valid = ~rt.invalid
    return valid, hyp, concl


def _plain(value: Any) -> Any:
    arr = np.asarray(value)
    if arr.ndim == 0:
        item = arr.item()
        if isinstance(item, complex):
            return {"re": item.real, "im": item.imag}
        return item
    if np.iscomplexobj(arr):
        return {"re": arr.real.tolist(), "im": arr.imag.tolist()}
    return arr.tolist()


def readable(example: dict[str, Any]) -> dict[str, Any]:
    """A counterexample as JSON-ready Lean-named values."""
    return {name: _plain(value) for name, value in example.items()}


def confirm(
    function: Callable,
    plan: dict,
    example: dict[str, Any],
    bindings: dict[str, Callable],
    bound: bool,
) -> tuple[str, float]:
    """Re-evaluate one example in 50-digit mpmath: ``("fails" | "holds" | "undecided", err)``."""
    tolerance = FLOAT_TOLERANCE if bound else EXACT_TOLERANCE
    rt = MpRuntime(plan["settings"]["nat_domain"], tolerance=tolerance, bindings=bindings)
    values = {k: rt.lift(v) for k, v in _batched(example, plan).items()}
    try:
        valid, hyp, concl = evaluate(function, plan, values, rt)
    except (ArithmeticError, ValueError, TypeError) as exc:  # mpmath domain errors
        return "undecided", float("nan") if exc else 0.0
    if hyp is None or not valid[0] or rt.impl_nonfinite[0]:
        return "undecided", float("nan")
    if not holds(hyp)[0]:
        return "holds", 0.0
    return ("holds" if holds(concl)[0] else "fails"), float(concl.err[0])


def _mismatch_kind(verdict: str, bound: bool) -> str:
    """What a float64 mismatch becomes once re-evaluated in 50 digits.

    ``refuted``: it still fails. ``resolved``: no implementation is involved and the 50-digit
    value (the statement's own) holds. ``rejected``: no implementation is involved and neither
    precision can evaluate the draw (e.g. a quadrature that does not converge), so it tells
    nothing. ``float_only``: an implementation's float64 result disagrees where 50 digits do
    not confirm it (the statement is then ``inconclusive``)."""
    if verdict == "fails":
        return "refuted"
    if not bound and verdict == "holds":
        return "resolved"
    if not bound and verdict == "undecided":
        return "rejected"
    return "float_only"


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
) -> Outcome:
    """Hypothesis examples, then a vectorized sweep; counterexamples confirmed in mpmath."""
    bindings = bindings or {}
    nat_domain = plan["settings"]["nat_domain"]
    if not plan["variables"]:
        # a closed statement has exactly one example
        max_examples, sweep = min(max_examples, 1), min(sweep, 1)
    stats = {"valid": 0, "rejected": 0, "max_error": 0.0, "float_only": 0, "float_example": None,
             "resolved": 0}
    deadline = None if time_budget is None else time.monotonic() + time_budget

    def check_one(example: dict[str, Any]) -> None:
        rt = NumpyRuntime(1, nat_domain, FLOAT_TOLERANCE, bindings)
        valid, hyp, concl = evaluate(function, plan, _batched(example, plan), rt)
        if hyp is None or not valid[0] or not holds(hyp)[0]:
            stats["rejected"] += 1
            assume(False)
        stats["valid"] += 1
        err = 0.0 if concl.exact[0] else float(concl.err[0])
        if holds(concl)[0]:
            stats["max_error"] = max(stats["max_error"], err)
            return
        verdict, exact_err = confirm(function, plan, example, bindings, bound)
        kind = _mismatch_kind(verdict, bound)
        if kind == "refuted":
            raise _Confirmed(dict(example), err, exact_err)
        if kind == "resolved":
            stats["resolved"] += 1
            return
        if kind == "rejected":
            stats["valid"] -= 1
            stats["rejected"] += 1
            assume(False)
        stats["float_only"] += 1
        if stats["float_example"] is None:
            stats["float_example"] = (dict(example), err)

    outcome = Outcome(status="tested", tolerance=FLOAT_TOLERANCE)
    methods = []
    if max_examples > 0:
        db = DirectoryBasedExampleDatabase(str(database)) if database is not None else None
        # the database key: one per statement (Hypothesis reads it from the inner test)
        check_one._hypothesis_internal_add_digest = f"{name}|{digest}".encode()
        test = given(examples(plan))(check_one)
        configured = hsettings(
            max_examples=max_examples,
            database=db,
            deadline=None,
            derandomize=db is None,
            suppress_health_check=list(HealthCheck),
            phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
            report_multiple_bugs=False,
        )(test)
        try:
            configured()
        except _Confirmed as found:
            outcome.status = "refuted"
            outcome.counterexample = readable(found.example)
            outcome.max_error = max(found.float_error, stats["max_error"])
            outcome.reason = (
                f"counterexample confirmed in 50-digit mpmath (error {found.exact_error:.3g}, "
                f"float64 error {found.float_error:.3g})"
            )
        except HypothesisUnsatisfiable:
            outcome.notes.append("Hypothesis could not satisfy the hypotheses")
        methods.append(f"hypothesis ({max_examples} max examples)")
    outcome.examples = stats["valid"]
    outcome.rejected = stats["rejected"]
    outcome.max_error = max(outcome.max_error, stats["max_error"])
    if outcome.status != "refuted" and sweep > 0 and (deadline is None or time.monotonic() < deadline):
        _sweep(function, plan, bindings, bound, sweep, seed, outcome, stats)
        methods.append(f"vectorized sweep ({sweep} draws)")
    outcome.method = " + ".join(methods)
    if stats["resolved"]:
        outcome.method += (f"; {stats['resolved']} float64 mismatch(es) resolved by 50-digit "
                           "evaluation of the statement")
    total = outcome.examples + outcome.rejected
    if outcome.status == "refuted":
        return outcome
    if stats["float_only"]:
        example, err = stats["float_example"]
        outcome.status = "inconclusive"
        outcome.counterexample = readable(example)
        outcome.max_error = max(outcome.max_error, err)
        outcome.reason = (
            f"{stats['float_only']} float64 mismatch(es) that 50-digit re-evaluation does not "
            f"confirm (largest float64 error {err:.3g})"
        )
    elif total == 0 or outcome.rejected > max_reject_fraction * total:
        outcome.status = "inconclusive"
        outcome.reason = (
            f"{outcome.rejected} of {total} draws rejected by the hypotheses or outside the "
            "sampled domain"
        )
    return outcome


def _sweep(function, plan, bindings, bound, sweep, seed, outcome: Outcome, stats) -> None:
    rng = np.random.default_rng(seed)
    nat_domain = plan["settings"]["nat_domain"]
    batch = 64 if bindings else 256
    remaining = sweep
    while remaining > 0:
        size = min(batch, remaining)
        remaining -= size
        values = sample_batch(plan, rng, size)
        pre_valid = values.pop("__valid__")
        rt = NumpyRuntime(size, nat_domain, FLOAT_TOLERANCE, bindings)
        named = {e["param"]: values[e["name"]] for e in plan["variables"]}
        valid, hyp, concl = evaluate(function, plan, named, rt)
        if hyp is None:
            outcome.rejected += size
            continue
        usable = pre_valid & valid & holds(hyp)
        outcome.rejected += int(size - usable.sum())
        outcome.examples += int(usable.sum())
        if not usable.any():
            continue
        passed = holds(concl)
        errors = np.where(usable & passed, np.where(concl.exact, 0.0, concl.err), 0.0)
        outcome.max_error = max(outcome.max_error, float(errors.max()))
        failing = np.flatnonzero(usable & ~passed)
        for index in failing[:5]:
            example = {e["name"]: np.asarray(values[e["name"]])[index] for e in plan["variables"]}
            verdict, exact_err = confirm(function, plan, example, bindings, bound)
            kind = _mismatch_kind(verdict, bound)
            if kind == "resolved":
                stats["resolved"] += 1
                continue
            if kind == "rejected":
                outcome.examples -= 1
                outcome.rejected += 1
                continue
            if kind == "refuted":
                outcome.status = "refuted"
                outcome.counterexample = readable(example)
                outcome.max_error = max(outcome.max_error, float(concl.err[index]))
                outcome.reason = (
                    f"counterexample from the vectorized sweep, confirmed in 50-digit mpmath "
                    f"(error {exact_err:.3g})"
                )
                return
            stats["float_only"] += 1
            if stats["float_example"] is None:
                stats["float_example"] = (example, float(concl.err[index]))


# ---- symbolic -----------------------------------------------------------------------------------


def settle_symbolically(statement) -> str | None:
    """Try to reduce a statement to ``True`` with sympy; the method on success, else ``None``."""
    if statement.hypotheses:
        return None
    concl = statement.conclusion
    if concl is sp.true:
        return "sympy: the statement evaluates to True exactly"
    if concl is sp.false:
        return None
    if not statement.variables:
        try:
            value = concl.doit() if hasattr(concl, "doit") else concl
            if value is sp.true:
                return "sympy: exact rational evaluation of the closed statement"
            simplified = sp.simplify(value)
            if simplified is sp.true:
                return "sympy: simplification of the closed statement"
        except (TypeError, ValueError, NotImplementedError, RecursionError):
            return None
    if isinstance(concl, sp.Equality):
        difference = concl.lhs - concl.rhs
        if sp.count_ops(difference) > 80 or difference.atoms(sp.Function) - _plain_functions(
            difference
        ):
            return None
        try:
            if sp.simplify(difference) == 0:
                return "sympy: simplify(lhs - rhs) = 0"
            if sp.simplify(difference.rewrite(sp.exp)) == 0:
                return "sympy: simplify(rewrite(lhs - rhs, exp)) = 0"
        except (TypeError, ValueError, NotImplementedError, RecursionError):
            return None
    return None


def _plain_functions(expr) -> set:
    return {
        f for f in expr.atoms(sp.Function)
        if isinstance(f, (sp.exp, sp.log, sp.sin, sp.cos, sp.tanh, sp.sinh, sp.cosh, sp.Abs))
    }


__all__ = ["Outcome", "confirm", "evaluate", "readable", "run_property", "settle_symbolically"]
_ = math
