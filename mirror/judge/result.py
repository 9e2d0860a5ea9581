"""The per-statement result record that checks produce and reports render."""

from __future__ import annotations

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
    #: A ``certified`` row's box cover (:mod:`mirror.judge.boxes`, re-checked by
    #: :mod:`mirror.judge.box_check`), or a ``vacuous`` row's proof that no draw satisfies
    #: the hypotheses (:mod:`mirror.sample.solve`).
    certificate: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; non-finite floats become strings (JSON has no ``inf``)."""
        data = asdict(self)
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
