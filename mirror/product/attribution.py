"""A checked row's record of its rejected draws, by hypothesis (:mod:`mirror.judge.rejections`).

The property run counts the draws its hypotheses rejected as one number; for a row with any,
this adds to the row's method which hypotheses reject the planner's draws and how often (a
second, small float64 pass over fresh draws), so that the reader knows which hypothesis to
bound, solve or give a domain. Bounded in time; when the pass cannot run the row is unchanged.
"""

from __future__ import annotations

import dataclasses

from mirror.judge.guard import Guard
from mirror.judge.outcome import Outcome
from mirror.judge.rejections import describe, rejections_by_hypothesis
from mirror.translate.codegen import CodegenError, print_property

#: Seconds the attribution pass may take.
ATTRIBUTION_SECONDS = 5.0


def with_rejections(mirror, outcome: Outcome | None, seed: int = 0) -> Outcome | None:
    """``outcome`` with ``"; rejected draws: of 128 fresh draws, h₀ rejects 120, …"`` added to
    its method, when it rejected draws and the statement has hypotheses."""
    if outcome is None or not outcome.rejected or mirror.role != "theorem":
        return outcome

    def load(statement):
        try:
            printed = print_property(statement)
        except CodegenError:
            return None
        return dataclasses.replace(mirror, source=printed.source,
                                   function_name=printed.function_name).load()

    counts = Guard(ATTRIBUTION_SECONDS).call("attribute rejections", rejections_by_hypothesis,
                                             mirror.statement, mirror.plan, load, seed=seed)
    text = describe(counts)
    if text is None:
        return outcome
    method = f"{outcome.method}; rejected draws: {text}" if outcome.method else \
        f"rejected draws: {text}"
    return dataclasses.replace(outcome, method=method)


__all__ = ["ATTRIBUTION_SECONDS", "with_rejections"]
