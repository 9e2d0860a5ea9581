"""The per-statement result record that checks produce and reports render, and the one row
of a statement checked at several carriers (:func:`combine`, the instances of
:mod:`mirror.translate.instances`)."""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass, field
from typing import Any

#: Python-side evidence levels, in DESIGN.md's vocabulary.
MIRROR_STATUSES = (
    "symbolic",
    "certified",
    "tested",
    "refuted",
    "vacuous",
    "inconclusive",
    "untranslatable",
    "unbound",
    "error",
)


@dataclass
class StatementResult:
    """What leanmirror knows about one Lean declaration."""

    name: str
    module: str
    kind: str
    lean_status: str
    mirror_status: str | None
    examples: int = 0
    max_error: float | None = None
    tolerance: float | None = None
    counterexample: dict[str, Any] | None = None
    reason: str | None = None
    #: How a ``symbolic`` verdict was reached, or how examples were drawn.
    method: str | None = None
    rejected: int = 0
    #: Draws no precision decided (not rejections; :mod:`mirror.judge.tally`).
    undecided: int = 0
    statement: str = ""
    location: str | None = None
    axioms: list[str] | None = None
    sympy: str | None = None
    code: str | None = None
    #: Implementation(s) the statement was run against, when bound.
    bound_to: list[str] = field(default_factory=list)
    docstring: str | None = None
    duration: float = 0.0
    #: For ``error`` rows: the stage leanmirror failed in (translate, plan, print, unfold,
    #: symbolic settle, check).
    stage: str | None = None
    #: A refuted row's one-line command that replays its counterexample.
    replay: str | None = None
    #: For a statement over type parameters: the carriers it was checked at
    #: (``R := ℝ``, one entry per instance; see :mod:`mirror.translate.instances`).
    carriers: list[str] = field(default_factory=list)
    #: A conformance row's accuracy per dtype (:attr:`mirror.judge.checks.Outcome.accuracy`).
    accuracy: list[dict[str, Any]] | None = None
    #: A refuted row's replay as a person reads it: the inputs, the calls of bound
    #: implementations, the conclusion's two sides (:mod:`mirror.product.explain`).
    explanation: dict[str, Any] | None = None
    #: A refuted row's certificate (:mod:`mirror.judge.certificate`), with the independent
    #: checker's verdict on it under ``"checked"``; a ``certified`` row's box cover
    #: (:mod:`mirror.judge.boxes`, re-checked by :mod:`mirror.judge.box_check`); a ``vacuous``
    #: row's proof that no draw satisfies the hypotheses (:mod:`mirror.sample.solve`).
    certificate: dict[str, Any] | None = None
    #: When the row was computed, if it was re-used from the result cache (ISO time, UTC);
    #: ``None``: computed in this run.
    cached: str | None = None
    #: What the statement's bound implementations printed (stdout and stderr of the worker
    #: that checked it), truncated by the pool with the truncation stated; ``None``: nothing.
    output: str | None = None
    #: What the row was drawn on (sizes, magnitudes, dtypes, domains), as the report says it.
    domain: str | None = None

    @property
    def error_unit(self) -> str | None:
        """The unit of :attr:`max_error`: ulps of the dtype for a kernel's conformance row
        (of Lean's largest entry when measured normwise), an absolute difference for a
        theorem's float check."""
        if self.max_error is None:
            return None
        if self.accuracy:
            normwise = any("normwise" in str(p.get("budget", "")) for p in self.accuracy)
            return "ulps of the largest entry" if normwise else "ulps"
        return "absolute"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; non-finite floats become strings (JSON has no ``inf``)."""
        data = asdict(self)
        data["error_unit"] = self.error_unit
        for key in ("max_error", "tolerance"):
            value = data[key]
            if isinstance(value, float) and value != value:
                data[key] = "nan"
            elif isinstance(value, float) and value in (float("inf"), float("-inf")):
                data[key] = "inf" if value > 0 else "-inf"
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "StatementResult":
        """Inverse of :meth:`to_json`."""
        values = dict(data)
        for key in ("max_error", "tolerance"):
            if isinstance(values.get(key), str):
                values[key] = float(values[key])
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in values.items() if k in known})


#: From least to most evidence: a combined verdict that is neither refuted nor fully
#: checked is the weakest of its instances.
_STRENGTH = ("error", "untranslatable", "unbound", "inconclusive", "vacuous", "tested",
             "certified", "symbolic")


def combine(rows: list[tuple[str, StatementResult]], base: StatementResult,
            skipped: str | None = None) -> StatementResult:
    """One row for a statement checked at several carriers (``rows``: label → its result).

    Any refuted instance refutes the statement (its counterexample and carrier are the row's);
    the statement is ``symbolic`` when every instance is, ``tested`` when every instance is
    tested or symbolic, otherwise the weakest instance's verdict. ``base`` holds the
    declaration's own fields (name, statement, location); ``skipped`` says at which carriers
    the statement could not be translated."""
    if not rows:
        raise ValueError("combine: expected at least one checked instance, got none")
    labels = [label for label, _ in rows]
    refuted = [(label, r) for label, r in rows if r.mirror_status == "refuted"]
    # an instance whose hypotheses never hold at its carrier (`b < 0` at ℕ) holds vacuously
    # there and says nothing of the others: the statement is vacuous only if every instance is
    judged = [(label, r) for label, r in rows if r.mirror_status != "vacuous"] or rows
    statuses = [r.mirror_status for _, r in judged]
    if refuted:
        label, chosen = refuted[0]
        status = "refuted"
    elif all(s == "symbolic" for s in statuses):
        label, chosen = judged[0]
        status = "symbolic"
    elif all(s in ("tested", "symbolic") for s in statuses):
        label, chosen = next((lr for lr in judged if lr[1].mirror_status == "tested"), judged[0])
        status = "tested"
    else:
        label, chosen = min(judged, key=lambda lr: _STRENGTH.index(lr[1].mirror_status)
                            if lr[1].mirror_status in _STRENGTH else 0)
        status = chosen.mirror_status
    notes = "; ".join(f"{lab}: {r.mirror_status}" for lab, r in rows)
    notes = f"checked at {notes}" + (f"; {skipped}" if skipped else "") + (
        f"; at {label}: {chosen.method}" if chosen.method else "")
    reason = chosen.reason
    if reason:
        reason = f"at {label}: {reason}"
    return dataclasses.replace(
        base,
        mirror_status=status,
        examples=sum(r.examples for _, r in rows),
        rejected=sum(r.rejected for _, r in rows),
        undecided=sum(r.undecided for _, r in rows),
        max_error=chosen.max_error,
        tolerance=chosen.tolerance,
        counterexample=chosen.counterexample,
        reason=reason,
        method=notes,
        sympy=chosen.sympy,
        code=chosen.code,
        duration=round(sum(r.duration for _, r in rows), 3),
        stage=chosen.stage,
        carriers=labels,
        # a refuted instance's certificate is the row's (it names the instance it checks)
        certificate=chosen.certificate if status == "refuted" else base.certificate,
    )


__all__ = ["MIRROR_STATUSES", "StatementResult", "combine"]
