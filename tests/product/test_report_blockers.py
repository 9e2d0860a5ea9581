"""The report's "What blocks coverage" table and its hiding of fully uncovered modules."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bridge.declaration import Diagnostic
from mirror.product.report import blocker_key, build_report, render_html, render_markdown, write_report
from mirror.judge.result import StatementResult
from tests.product.conftest import PYTHON, REPO, scanner_meta, subprocess_env

CHROMIUM = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else shutil.which("chromium")
TOOL = REPO / "tools" / "check_report_html.py"


@pytest.mark.parametrize(
    "status, reason, notation, key",
    [
        ("untranslatable", "cannot translate constant Nat.Prime: it is not in mirror.translate.vocabulary.FUNCTIONS "
         "and the project does not define it; add it there or bind an implementation", None,
         "unknown constant Nat.Prime"),
        ("unbound", "cannot translate definition Real.tanPartialHomeomorph: no body is available and no "
         "implementation is bound", None, "definition without a body Real.tanPartialHomeomorph"),
        ("untranslatable", "cannot translate recursive definition Nat.clog: applied to too few arguments",
         None, "recursive definition Nat.clog"),
        ("untranslatable", "cannot translate binder Ω : Sort: type parameters are not drawn", None,
         "type parameter (no carrier to draw)"),
        ("untranslatable", "cannot translate type App(fn=Const(name='MeasureSpace'), args=(Var(name='Ω'),), "
         "ty=None)", None, "type MeasureSpace"),
        ("untranslatable", "cannot translate type MeasureSpace Ω", None, "type MeasureSpace"),
        ("untranslatable", "cannot translate binder Ω: no carrier satisfies the type class MeasureSpace",
         None, "type class MeasureSpace"),
        ("untranslatable", "cannot translate statement: the statement did not parse", "≃ᵐ", "notation ≃ᵐ"),
        ("untranslatable", "cannot translate statement: the statement did not parse", None,
         "statement did not parse"),
        ("untranslatable", "cannot translate a quantifier over Int", None, "quantifier over Int"),
        ("error", "leanmirror error in check: KeyError: 'x'", None, "leanmirror error in check: KeyError"),
    ],
)
def test_reasons_are_normalized_into_keys(status, reason, notation, key):
    assert blocker_key(status, reason, notation) == key


def _result(name: str, module: str, status: str | None, reason: str | None = None) -> StatementResult:
    return StatementResult(name, module, "theorem", "unchecked", status, reason=reason,
                           examples=5 if status in ("tested", "refuted") else 0)


def _run():
    """Three modules: one with a tested row, one with only a refuted row, two fully blocked."""
    unknown = "cannot translate constant Foo.bar: it is not in mirror.translate.vocabulary.FUNCTIONS"
    unparsed = "cannot translate statement: the statement did not parse"
    results = [
        _result("A.ok", "A", "tested"),
        _result("A.foo", "A", "untranslatable", unknown),
        _result("B.wrong", "B", "refuted"),
        _result("C.foo1", "C", "untranslatable", unknown),
        _result("C.foo2", "C", "untranslatable", unknown),
        _result("C.equiv", "C", "untranslatable", unparsed),
        _result("D.crash", "D", "error", "leanmirror error in check: KeyError: 'x'"),
        _result("D.maybe", "D", "inconclusive", "no example was drawn"),
    ]
    diagnostics = [Diagnostic("C.lean", 3, 20, "cannot parse the statement of C.equiv: unexpected sym '≃'",
                              "a term", "error", "≃ᵐ")]
    return scanner_meta(), results, diagnostics


def test_json_groups_blocked_rows_by_key_most_frequent_first():
    doc = build_report(_run())
    blockers = doc["blockers"]
    assert [(b["key"], b["count"]) for b in blockers] == [
        ("unknown constant Foo.bar", 3),
        ("leanmirror error in check: KeyError", 1),
        ("notation ≃ᵐ", 1),
    ]
    by_name = {s["name"]: s for s in doc["statements"]}
    assert [s["name"] for s in blockers[0]["statements"]] == ["A.foo", "C.foo1", "C.foo2"]
    for blocker in blockers:
        for entry in blocker["statements"]:
            row = by_name[entry["name"]]
            assert row["anchor"] == entry["anchor"] and row["blocker"] == blocker["anchor"]
            assert row["blocker_key"] == blocker["key"]
    assert by_name["A.ok"]["blocker"] is None and by_name["D.maybe"]["blocker"] is None
    assert blockers[1]["statuses"] == {"error": 1}
    # JSON keeps every module and says which are fully uncovered
    flags = {m["module"]: m["fully_uncovered"] for m in doc["modules"]}
    assert flags == {"A": False, "B": False, "C": True, "D": True}


def test_markdown_lists_blockers_with_links_and_uncovered_modules_in_one_line():
    text = render_markdown(build_report(_run()))
    modules = text.split("## Modules", 1)[1].split("## What blocks coverage", 1)[0]
    table_rows = [line for line in modules.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split("|")[1].strip() for row in table_rows[1:]] == ["A", "B"]
    uncovered = [line for line in modules.splitlines() if line.startswith("Fully uncovered")]
    assert uncovered == ["Fully uncovered (2 modules, no statement tested, symbolic or refuted): C (3), D (2)."]
    blockers = text.split("## What blocks coverage", 1)[1].split("## Statements", 1)[0]
    first = next(line for line in blockers.splitlines() if "Foo.bar" in line)
    cells = [cell.strip() for cell in first.split(" | ")]
    assert cells[1] == "3" and cells[2] == "untranslatable 3"
    # rows are in (module, name) order: A.foo is the first statement, C.foo2 the sixth
    assert "[A.foo](#stmt-1)" in first and "[C.foo2](#stmt-6)" in first
    assert '<a id="stmt-6"></a>' in text  # the link target exists
    assert "- Blocked by: [notation ≃ᵐ](#blocker-3)" in text


class _Tables(HTMLParser):
    """Module rows per table id, whether they sit inside a <details>, and blocker rows."""

    def __init__(self) -> None:
        super().__init__()
        self.table: list[str] = []
        self.in_details = 0
        self.modules: dict[str, list[str]] = {}
        self.details_open: list[bool] = []
        self.blockers: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.table.append(a.get("id", ""))
        elif tag == "details":
            self.details_open.append("open" in a)
        elif tag == "tr" and "module-row" in (a.get("class") or ""):
            self.modules.setdefault(self.table[-1], []).append(a["data-module"])
        elif tag == "tr" and "blocker-row" in (a.get("class") or ""):
            self.blockers.append((a["id"], a["data-key"]))

    def handle_endtag(self, tag):
        if tag == "table":
            self.table.pop()


def test_html_collapses_uncovered_modules_and_shows_the_blocker_table():
    html = render_html(build_report(_run()))
    tables = _Tables()
    tables.feed(html)
    assert tables.modules == {"modules": ["A", "B"], "uncovered-modules-table": ["C", "D"]}
    details = html.split('<details id="uncovered-modules"', 1)[1]
    assert 'data-count="2"' in details.split(">", 1)[0]
    assert "show 2 fully uncovered modules" in details.split("</summary>", 1)[0]
    assert tables.details_open and not any(tables.details_open)
    assert tables.blockers == [("blocker-1", "unknown constant Foo.bar"),
                               ("blocker-2", "leanmirror error in check: KeyError"),
                               ("blocker-3", "notation ≃ᵐ")]
    assert '<a href="#blocker=blocker-1">3</a>' in html
    assert 'href="#stmt-6">C.foo2</a>' in html and 'id="stmt-6"' in html


def test_no_blocker_table_and_no_toggle_when_nothing_is_blocked_or_uncovered():
    meta, results, _ = _run()
    doc = build_report((meta, [r for r in results if r.module in ("A", "B") and r.mirror_status != "untranslatable"],
                        []))
    assert doc["blockers"] == []
    html = render_html(doc)
    assert 'id="blockers"' not in html and 'id="uncovered-modules"' not in html
    assert "What blocks coverage" not in render_markdown(doc)


def _check(report_dir: Path) -> subprocess.CompletedProcess:
    if CHROMIUM is None:
        pytest.fail("chromium is not installed; `make test` installs it", pytrace=False)
    return subprocess.run(
        [PYTHON, str(TOOL), str(report_dir), "--screenshot", str(report_dir / "shot.png"), "--chromium", CHROMIUM],
        capture_output=True, text=True, env=subprocess_env(), timeout=300,
    )


def test_chromium_check_passes_and_catches_a_wrong_blocker_count(tmp_path):
    out = tmp_path / "report"
    write_report(out, _run())
    proc = _check(out)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    doc["blockers"][0]["count"] += 1
    (out / "report.json").write_text(json.dumps(doc), encoding="utf-8")
    proc = _check(out)
    assert proc.returncode == 1
    assert "#blocker-1-count" in proc.stderr and "#blocker=blocker-1" in proc.stderr
