"""Tally: the counts of one property run, and the outcome they support.

A draw is counted in exactly one of: a decided example (``valid``), a rejection (its
hypotheses decided false, or outside the sampled domain), an **undecided** draw (no precision
and no identity decided it — counted apart, by the part left open, never as a rejection and
never as support for any verdict), a draw the bound kernel refused or answered with NaN/±∞,
or a skipped draw (not decided within the exact-decision budget).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mirror.judge.exact import Decision
from mirror.judge.outcome import FLOAT_TOLERANCE, Outcome, readable

#: The parts of a statement an undecided draw is attributed to.
UNDECIDED_PARTS = ("hypotheses", "conclusion")


@dataclass
class Tally:
    """Counts of one property run, shared by the Hypothesis phase and the sweep."""

    valid: int = 0
    rejected: int = 0
    exact: int = 0
    resolved: int = 0
    undecided: int = 0
    #: Undecided draws by the part no enclosure decided (:data:`UNDECIDED_PARTS`).
    undecided_in: dict[str, int] = field(default_factory=dict)
    #: Undecided draws that float64 had called counterexamples (and why the first one is).
    undecided_failing: int = 0
    undecided_reason: str = ""
    skipped: int = 0
    float_only: int = 0
    float_example: tuple[dict[str, Any], float] | None = None
    max_error: float = 0.0
    counterexample: tuple[dict[str, Any], float, Decision] | None = None
    exact_methods: dict[str, int] = field(default_factory=dict)
    #: Draws the bound kernel refused (out of its domain) or answered with NaN/±∞: never
    #: blamed on the hypotheses.
    refused: int = 0
    nonfinite: int = 0
    #: Which of the three answers a refutation of a theorem over a kernel is
    #: (:data:`STATEMENT_FALSE`, :data:`KERNEL_WRONG`), and the largest violation that only
    #: float rounding explains.
    refuted_as: str = ""
    rounding: float = 0.0
    #: Draws where Lean's own definitions satisfy a statement its kernel fails.
    lean_holds: int = 0

    def count_undecided(self, decision: Decision, failing: bool) -> None:
        """One draw no enclosure decided: counted apart from the rejections, by the part
        (hypotheses or conclusion) left open; ``failing``: float64 called it a counterexample."""
        self.undecided += 1
        part = decision.undecided_in or "conclusion"
        self.undecided_in[part] = self.undecided_in.get(part, 0) + 1
        if failing:
            self.undecided_failing += 1
            self.undecided_reason = self.undecided_reason or decision.method


def undecided_note(tally: Tally) -> str:
    """The row's note on its undecided draws."""
    where = ", ".join(f"{tally.undecided_in[p]} in the {p}" for p in UNDECIDED_PARTS
                      if tally.undecided_in.get(p))
    return (f"{tally.undecided} draw(s) no precision could decide ({where}; not counted, "
            "and not rejections)")


def _notes(tally: Tally, out_of_time: bool) -> list[str]:
    notes = []
    if tally.refused:
        notes.append(f"{tally.refused} draw(s) out of the domain of the statement's values or "
                     "refused by a bound kernel (not counted)")
    if tally.nonfinite:
        notes.append(f"{tally.nonfinite} draw(s) where a bound kernel returned NaN or ±∞ "
                     "(ℝ has neither; its conformance row judges the kernel)")
    if tally.exact:
        how = ", ".join(f"{n} by {m}" for m, n in sorted(tally.exact_methods.items()))
        notes.append(f"{tally.exact} distinct draw(s) decided exactly ({how})")
    if tally.resolved:
        notes.append(f"{tally.resolved} float64 mismatch(es) resolved by exact decision")
    if tally.skipped:
        notes.append(f"{tally.skipped} draw(s) float64 could not settle were not decided "
                     "exactly (exact-decision budget spent) and not counted")
    if tally.undecided:
        notes.append(undecided_note(tally))
    if out_of_time:
        notes.append("stopped by the time budget")
    return notes


def summarize(tally: Tally, methods: list[str], out_of_time: bool,
              max_reject_fraction: float) -> Outcome:
    """The outcome ``tally`` supports. Undecided draws support nothing: they are not
    examples, and with the rejections they count as draws not counted when too many are."""
    outcome = Outcome(status="tested", examples=tally.valid,
                      rejected=tally.rejected + tally.refused + tally.nonfinite,
                      undecided=tally.undecided, max_error=tally.max_error,
                      tolerance=FLOAT_TOLERANCE)
    notes = _notes(tally, out_of_time)
    outcome.method = " + ".join(methods) + "".join(f"; {n}" for n in notes)
    outcome.notes = notes
    not_counted = outcome.rejected + outcome.undecided
    total = outcome.examples + not_counted
    if tally.counterexample is not None:
        example, err, decision = tally.counterexample
        outcome.status = "refuted"
        outcome.counterexample = readable(example)
        outcome.decision_method = decision.method
        outcome.refuted_as = tally.refuted_as
        outcome.max_error = max(outcome.max_error, err if np.isfinite(err) else 0.0)
        outcome.reason = (
            f"counterexample decided by {decision.method}: the hypotheses hold and the "
            f"conclusion fails (error {decision.error:.3g}, float64 error {err:.3g})"
        ) + (f"; {tally.refuted_as}" if tally.refuted_as else "")
    elif tally.float_only:
        example, err = tally.float_example
        outcome.status = "inconclusive"
        outcome.counterexample = readable(example)
        outcome.max_error = max(outcome.max_error, err)
        outcome.reason = (
            f"the kernel violates the statement only by float rounding: {tally.float_only} "
            f"float64 mismatch(es) that re-evaluating the kernel's outputs at 50 digits "
            f"(within {FLOAT_TOLERANCE:g}) does not confirm (largest float64 violation "
            f"{tally.rounding:.3g})" + (
                "; Lean's own definition satisfies the statement there"
                if tally.lean_holds else "")
        )
    elif tally.undecided_failing:
        # a draw float64 calls a counterexample that no enclosure decides supports no verdict
        outcome.status = "inconclusive"
        outcome.reason = (
            f"{tally.undecided_failing} draw(s) fail in float64 but are undecided by exact and "
            f"ball arithmetic ({tally.undecided_reason})")
    elif total == 0:
        outcome.status = "inconclusive"
        outcome.reason = "no example was drawn" + (" before the time budget ran out"
                                                   if out_of_time else "")
    elif not_counted > max_reject_fraction * total:
        outcome.status = "inconclusive"
        parts = [f"{n} {why}" for n, why in (
            (tally.rejected, "rejected by the hypotheses"),
            (tally.undecided, "undecided by every precision"),
            (tally.refused, "out of the domain of its values or refused by a bound kernel"),
            (tally.nonfinite, "where a bound kernel returned NaN or ±∞")) if n]
        outcome.reason = f"{not_counted} of {total} draws not counted: " + ", ".join(parts)
    return outcome


__all__ = ["Tally", "UNDECIDED_PARTS", "summarize", "undecided_note"]
