"""What a run means for the shell: the exit status, the one-line summary, the findings.

CI reads a command by its exit status. ``report`` and ``fuzz`` exit :data:`EXIT_FINDINGS`
when any row has a status in the ``--fail-on`` set (default :data:`DEFAULT_FAIL_ON`),
:data:`EXIT_ERROR` on a usage or configuration error, :data:`EXIT_OK` otherwise. The
summary and the failing rows go to stderr, so stdout stays for paths or ``--json``.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any, Iterable, Mapping

#: Exit statuses of every command (the table in ``--help`` and the README).
EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_TABLE = (
    (EXIT_OK, "success: nothing in the --fail-on set (report, fuzz), up to date (status, "
              "generate --check), the example holds (check)"),
    (EXIT_FINDINGS, "findings: a row refuted or error (or another --fail-on status), stale lock "
                    "or mirrors, a binding that does not load, a refuting example or a rejected "
                    "certificate"),
    (EXIT_ERROR, "usage or configuration error: one line on stderr, 'leanmirror: error: "
                 "<problem>; <fix>'"),
)
#: Statuses a row can have that ``--fail-on`` may name.
FAILABLE = ("refuted", "error", "inconclusive", "untranslatable", "unbound", "vacuous")
#: What makes ``report``/``fuzz`` exit 1 unless ``--fail-on`` says otherwise.
DEFAULT_FAIL_ON = frozenset({"refuted", "error"})
#: Severity order of the statuses: the order findings and report rows are listed in.
SEVERITY = ("refuted", "error", "inconclusive", "vacuous", "unbound", "untranslatable",
            "tested", "certified", "symbolic", "none")


def parse_fail_on(text: str) -> frozenset[str]:
    """``--fail-on`` as a set of statuses (argparse ``type``); ``none`` means never fail."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    if names == ["none"]:
        return frozenset()
    unknown = [n for n in names if n not in FAILABLE]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"got {text!r}; expected a comma-separated subset of {','.join(FAILABLE)} "
            "(or none)")
    return frozenset(names)


def severity(status: str | None) -> int:
    """Sort key: refuted first, then error, inconclusive …, covered statuses last."""
    key = status or "none"
    return SEVERITY.index(key) if key in SEVERITY else len(SEVERITY)


def status_counts(rows: Iterable[Mapping[str, Any]]) -> Counter:
    """``mirror_status`` → number of rows (``none`` for rows without one)."""
    return Counter(row.get("mirror_status") or "none" for row in rows)


def summary_line(command: str, counts: Mapping[str, int], extra: str = "") -> str:
    """``report: 9 statements: 3 refuted, 1 symbolic, 5 tested`` (severity order)."""
    total = sum(counts.values())
    parts = ", ".join(f"{counts[s]} {s}" for s in sorted(counts, key=severity) if counts[s])
    tail = f"; {extra}" if extra else ""
    return f"{command}: {total} statements: {parts or 'none'}{tail}"


def finding_lines(rows: Iterable[Mapping[str, Any]], fail_on: frozenset[str]) -> list[str]:
    """One line per row whose status is in ``fail_on``: status, name, and what to do next."""
    lines = []
    for row in sorted(rows, key=lambda r: (severity(r.get("mirror_status")), r.get("name", ""))):
        status = row.get("mirror_status")
        if status not in fail_on:
            continue
        hint = row.get("replay") or row.get("reason") or ""
        lines.append(f"{status:<13} {row.get('name', '?')}" + (f"  {hint}" if hint else ""))
    return lines


def exit_status(counts: Mapping[str, int], fail_on: frozenset[str]) -> int:
    """:data:`EXIT_FINDINGS` when any status of ``fail_on`` occurs, else :data:`EXIT_OK`."""
    return EXIT_FINDINGS if any(counts.get(s, 0) for s in fail_on) else EXIT_OK


def exit_table_text() -> str:
    """The exit-status table as ``--help`` prints it."""
    return "\n".join(f"  {code}  {text}" for code, text in EXIT_TABLE)


__all__ = ["DEFAULT_FAIL_ON", "EXIT_ERROR", "EXIT_FINDINGS", "EXIT_OK", "EXIT_TABLE",
           "FAILABLE", "SEVERITY", "exit_status", "exit_table_text", "finding_lines",
           "parse_fail_on", "severity", "status_counts", "summary_line"]
