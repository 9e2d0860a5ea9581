"""Which hypothesis rejected the draws: a row's record of how its draws fared.

A row whose draws were rejected says by which hypotheses (issue "Reach": "how many were
rejected by which hypothesis"). The property run combines the hypotheses into one truth value,
so the attribution is a second, small pass: one fresh batch of draws from the same plan, each
hypothesis evaluated alone on it in float64 (:class:`~mirror.evaluate.numpy_runtime.NumpyRuntime`),
and the draws each one fails counted. It is a diagnostic, never a verdict: a count says how
often a hypothesis fails at the planner's draws (a draw may fail several), so the row shows
which one to solve, bound or bind a domain for.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

from mirror.evaluate.numpy_runtime import NumpyRuntime
from mirror.judge.checks import FLOAT_TOLERANCE, evaluate, holds
from mirror.sample.strategies import sample_batch

#: Draws of the attribution pass.
ATTRIBUTION_DRAWS = 128


def rejections_by_hypothesis(statement, plan: dict, load: Callable, *, seed: int = 0,
                             draws: int = ATTRIBUTION_DRAWS) -> list[tuple[str, int]] | None:
    """``[(label, failed draws)]`` of ``draws`` fresh draws of ``plan``, per hypothesis of
    ``statement`` (``load(statement)`` compiles a statement's property, or returns ``None``);
    ``None`` when the statement has no hypotheses or the pass cannot run."""
    if statement is None or not statement.hypotheses or plan is None or statement.bound:
        return None
    values = sample_batch(plan, np.random.default_rng(seed), draws)
    pre_valid = values.pop("__valid__")
    named = {e["param"]: values[e["name"]] for e in plan["variables"]}
    counts = []
    for label, hypothesis in statement.hypotheses:
        alone = dataclasses.replace(statement, hypotheses=[], conclusion=hypothesis)
        function = load(alone)
        if function is None:
            return None
        rt = NumpyRuntime(draws, plan["settings"]["nat_domain"], FLOAT_TOLERANCE, {})
        valid, _, concl = evaluate(function, plan, named, rt)
        if concl is None:
            return None
        counts.append((label, int((pre_valid & valid & ~holds(concl)).sum())))
    return counts


def describe(counts: list[tuple[str, int]] | None, draws: int = ATTRIBUTION_DRAWS) -> str | None:
    """``"of 128 fresh draws, h₀ rejects 120, h₁ 3"`` (the failing ones, most first)."""
    if not counts:
        return None
    failing = sorted((c for c in counts if c[1]), key=lambda c: -c[1])
    if not failing:
        return f"of {draws} fresh draws, no single hypothesis rejects any in float64"
    parts = [f"{label} rejects {n}" if i == 0 else f"{label} {n}"
             for i, (label, n) in enumerate(failing)]
    return f"of {draws} fresh draws, " + ", ".join(parts)


__all__ = ["ATTRIBUTION_DRAWS", "describe", "rejections_by_hypothesis"]
