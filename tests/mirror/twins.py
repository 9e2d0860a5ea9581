"""Checks shared by the tests of true statements and their false twins (``name`` and
``name_false`` in one Lean source)."""

from __future__ import annotations

#: The verdicts of a statement found to hold.
GOOD = {"tested", "symbolic", "certified"}


def assert_twins(rows: dict, pairs: tuple[str, ...]) -> None:
    """Each of ``pairs`` holds (tested, symbolic or certified) and its ``_false`` twin is
    refuted."""
    for name in pairs:
        assert rows[name].mirror_status in GOOD, (name, rows[name].reason)
        twin = rows[f"{name}_false"]
        assert twin.mirror_status == "refuted", (twin.name, twin.reason)
