"""Proved theorems leanmirror refuted or failed on, first look of 2026-12-01: data for the lead.

Each case is a row of ``tools/coverage.py --extreme --findings`` on a proved set (the Mathlib
oracle, the competition statements, the public projects): the theorem (project, name and
statement as written), what leanmirror said (``refuted`` or ``error``) and at which draw, which
pass found it (``ordinary`` draws or the ``extreme``-magnitude pass), the diagnosis of the
cause and the area it is routed to. The cases live one per line in ``first_look_cases.jsonl``
beside this module (JSON Lines: data, several hundred lines); :data:`CASES` reads them.

``tests/corpus/test_first_looks.py`` asserts that none of them is refuted or an error (the
verdict class every proved theorem must get); it is marked ``oracle_regressions`` (deselected
by default: it re-runs three fixture projects and ~170 extreme checks). Round 19 (2026-12-01)
fixed the 18 sampling-range rows and the three rows of its own first look
(``mathlib/round-2026-12-01b``), re-ran the cases and the whole oracle: no case is refuted or an
error any more (``docs/coverage.md``); ``now``/``measured`` record what a re-run said.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("first_look_cases.jsonl")


@dataclass(frozen=True)
class Case:
    """One proved theorem leanmirror got wrong."""

    #: The fixture project, relative to ``tests/fixtures`` (``mathlib/round-2026-12-01``, …).
    project: str
    #: The declaration's full name.
    name: str
    #: ``"refuted"`` or ``"error"``: what leanmirror said.
    status: str
    #: ``"ordinary"`` (the default draws) or ``"extreme"`` (forced extreme magnitudes).
    found_by: str
    #: The statement as the Lean source writes it.
    statement: str
    #: The refuting draw (``None`` for an error row).
    draw: Any
    #: leanmirror's reason, as reported.
    reason: str
    #: Why it is wrong, and what the fix must do.
    diagnosis: str
    #: The area the lead routes it to (``certify``, ``types``, ``kernels``, …).
    area: str
    #: What leanmirror says now, at the round of :attr:`measured` (``tested``,
    #: ``inconclusive``, ``untranslatable``, …: never ``refuted`` or an error); ``None`` until
    #: re-measured.
    now: str | None = None
    #: The round (date and commit) of :attr:`now`.
    measured: str | None = None

    @property
    def extreme(self) -> bool:
        return self.found_by == "extreme"


def load(path: Path = DATA) -> list[Case]:
    """The cases of ``path`` (one JSON object per line, :class:`Case`'s fields)."""
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            cases.append(Case(**json.loads(line)))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{path}:{number}: expected one case object with the fields of Case, "
                             f"got {line[:80]!r} ({exc})") from exc
    return cases


#: Every case, in the order the coverage run found them.
CASES: list[Case] = load()

__all__ = ["CASES", "Case", "DATA", "load"]
