"""What a run is asked to do and what it returns: :class:`CheckSettings`, :class:`RunResult`,
the ``--select`` rule and the report's metadata. Kept apart from :mod:`mirror.product.pipeline`
(which imports sympy, Hypothesis and the checks) so that the parent of a pooled run, which only
schedules and writes, never imports them."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bridge.declaration import Diagnostic
from mirror import __version__
from mirror.judge.guard import DEFAULT_STATEMENT_TIMEOUT
from mirror.judge.result import StatementResult


@dataclass
class CheckSettings:
    """How hard to check each statement."""

    #: Hypothesis examples per statement.
    max_examples: int = 200
    #: Draws evaluated in the vectorized sweep per statement (0 disables it).
    sweep: int = 512
    seed: int = 0
    #: Hypothesis example database directory (counterexamples are saved and replayed first).
    database: Path | None = None
    #: Wall-clock budget per statement in seconds (``None``: example budget only).
    time_budget: float | None = None
    #: Fraction of rejected draws above which a statement is ``inconclusive``.
    max_reject_fraction: float = 0.5
    #: Wall-clock limit per statement, build included (``None``: none); past it the
    #: statement is an ``error`` row ("timed out in <stage>").
    statement_timeout: float | None = DEFAULT_STATEMENT_TIMEOUT
    #: Try to settle the statement with sympy first (a fuzz session's later rounds do not
    #: repeat an attempt that already failed).
    symbolic: bool = True


@dataclass
class RunResult:
    """Everything a report needs."""

    meta: dict[str, Any]
    results: list[StatementResult]
    diagnostics: list[Diagnostic]
    mirrors: list[Any]  # mirror.product.pipeline.Mirror


def selects(token: str, mirror: Any) -> bool:
    """Does a ``--select`` token name ``mirror``? Its full name, its last name components
    (``c`` and ``Ops.c`` name ``Toy.Ops.c``) or its module (``Toy.Ops`` names the
    statements of ``Toy.Ops`` and ``Toy.Ops.*``). The one rule of ``report`` and ``fuzz``."""
    return (mirror.name == token or mirror.name.endswith("." + token)
            or mirror.module == token or mirror.module.startswith(token + "."))


def run_meta(extracted: dict, method: str, project: Path, settings: CheckSettings,
             bindings: list, catalog: Any) -> dict[str, Any]:
    """The report's ``meta``: the extraction's, the tool, the settings and the bindings."""
    meta = dict(extracted)
    meta.update(
        tool="leanmirror",
        version=__version__,
        method=extracted.get("method", method),
        kernel=bool(extracted.get("kernel", False)),
        project=str(project),
        generated_at=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        settings={
            "max_examples": settings.max_examples,
            "sweep": settings.sweep,
            "seed": settings.seed,
        },
        bindings=bindings,
    )
    if catalog is not None:
        meta["catalog"] = catalog
    return meta


__all__ = ["CheckSettings", "RunResult", "run_meta", "selects"]
