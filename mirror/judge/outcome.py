"""Outcome: what one property run found, and counterexamples as JSON-ready values.

Shared by the property checks (:mod:`mirror.judge.checks`) and a kernel's accuracy
(:mod:`mirror.judge.accuracy`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Tolerance of float64 comparisons (relative, mixed with absolute below 1): the filter's
#: margin, and the tolerance of an implementation in a theorem against its Lean definition.
FLOAT_TOLERANCE = 1e-9

#: A theorem over a bound definition refuted because Lean's own definition violates it.
STATEMENT_FALSE = "the statement is false: Lean's own definition violates it"
#: ... because the kernel's output violates it beyond the float tolerance while Lean's
#: definition satisfies it.
KERNEL_WRONG = ("the kernel is wrong: Lean's definition satisfies the statement here, the "
                "kernel's output violates it beyond the float tolerance")
#: Non-finite kernel outputs decided against Lean's definition per statement at most.
NONFINITE_DECISIONS = 16


@dataclass
class Outcome:
    """What one property run found."""

    status: str
    examples: int = 0
    rejected: int = 0
    #: Draws no precision decided: counted apart from the rejections, supporting nothing.
    undecided: int = 0
    max_error: float = 0.0
    tolerance: float = FLOAT_TOLERANCE
    counterexample: dict[str, Any] | None = None
    reason: str | None = None
    method: str = ""
    float_mismatches: int = 0
    notes: list[str] = field(default_factory=list)
    #: A conformance row's accuracy profile: one dict per dtype (``dtype``, ``examples``,
    #: ``max_ulps``, ``p99_ulps``, ``max_rel``, ``p99_rel``, ``budget``, ``worst`` — the
    #: input of the largest error, Lean-named like ``counterexample`` — and ``skipped``).
    accuracy: list[dict[str, Any]] | None = None
    #: How a refutation's counterexample was decided (the certificate's method).
    decision_method: str = ""
    #: A refuted conformance row's failing draw as its certificate records it: ``dtype``,
    #: the rounded ``example``, the kernel's ``output`` (and ``reference_output``), ``method``.
    observation: dict[str, Any] | None = None
    #: Why a theorem over a bound kernel is refuted (:data:`STATEMENT_FALSE`,
    #: :data:`KERNEL_WRONG`, or ``""``): what its certificate records.
    refuted_as: str = ""



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



__all__ = ["FLOAT_TOLERANCE", "KERNEL_WRONG", "NONFINITE_DECISIONS", "STATEMENT_FALSE", "Outcome",
           "readable"]
