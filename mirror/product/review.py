"""The report as a review: what to look at first, what changed, where the source is.

- :func:`review_order` lists rows by severity (refuted, error, inconclusive, … covered last),
  then by name, so a reviewer meets the findings first;
- :func:`compare` sets a report against an earlier ``report.json``: rows that became
  refuted, were fixed, are newly covered, lost their coverage, are new or are gone;
- :func:`source_href` turns ``path:line:col`` into a link (a ``file://`` URL of the project's
  file, or the ``--source-url`` template with ``{path}`` and ``{line}``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping
from urllib.parse import quote

from mirror.product.outcome import severity

#: Statuses that count as "covered by leanmirror" (checked, not proved).
COVERED = frozenset({"symbolic", "certified", "tested"})
#: The change kinds :func:`compare` reports, in display order, with their headings.
CHANGE_KINDS = (
    ("became_refuted", "became refuted"),
    ("fixed", "fixed (was refuted)"),
    ("newly_covered", "newly covered"),
    ("lost_coverage", "no longer covered"),
    ("new", "new statements"),
    ("removed", "removed statements"),
)


def review_order(statements: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Rows by severity of their mirror status, then module and name."""
    return sorted(statements, key=lambda s: (severity(s.get("mirror_status")),
                                             s.get("module", ""), s.get("name", "")))


def compare(previous: Mapping[str, Any], statements: Iterable[Mapping[str, Any]]
            ) -> dict[str, list[dict[str, Any]]]:
    """What changed since ``previous`` (an earlier report document): per change kind, the
    rows ``{name, before, after}``."""
    before = {s.get("name"): s.get("mirror_status") for s in previous.get("statements", [])
              if isinstance(s, Mapping)}
    after = {s.get("name"): s.get("mirror_status") for s in statements}
    changes: dict[str, list[dict[str, Any]]] = {kind: [] for kind, _ in CHANGE_KINDS}
    for name in sorted(set(before) | set(after), key=str):
        old, new = before.get(name, "absent"), after.get(name, "absent")
        row = {"name": name, "before": old, "after": new}
        if name not in before:
            changes["new"].append(row)
        elif name not in after:
            changes["removed"].append(row)
        elif new == "refuted" and old != "refuted":
            changes["became_refuted"].append(row)
        elif old == "refuted" and new != "refuted":
            changes["fixed"].append(row)
        elif new in COVERED and old not in COVERED:
            changes["newly_covered"].append(row)
        elif old in COVERED and new not in COVERED:
            changes["lost_coverage"].append(row)
    return changes


def source_href(location: str | None, project: str | None, template: str | None = None
                ) -> str | None:
    """A link to ``location`` (``lean/A/B.lean:24:1``), or ``None`` when it names no file."""
    if not location:
        return None
    path, _, rest = location.partition(":")
    line = rest.split(":", 1)[0] if rest else ""
    if not path.endswith(".lean"):
        return None
    if template:
        return template.replace("{path}", quote(path)).replace("{line}", quote(line))
    base = Path(project) if project else Path.cwd()
    target = (base / path) if not Path(path).is_absolute() else Path(path)
    return target.resolve().as_uri() + (f"#L{line}" if line else "")


__all__ = ["CHANGE_KINDS", "COVERED", "compare", "review_order", "source_href"]
