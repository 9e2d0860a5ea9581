"""Render report.html in headless Chromium with tools/check_report_html.py."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from mirror.product.report import write_report
from tests.product.conftest import PYTHON, REPO, subprocess_env

CHROMIUM = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else shutil.which("chromium")


@pytest.fixture(autouse=True)
def _chromium_present() -> None:
    """A missing browser fails these tests (never skips them): `make test` installs it."""
    if CHROMIUM is None:
        pytest.fail(
            "chromium is not installed; `make test` installs it (apt-get, as root), or "
            "install the Debian package chromium",
            pytrace=False,
        )


TOOL = REPO / "tools" / "check_report_html.py"


def _check(report_dir: Path, screenshot: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PYTHON, str(TOOL), str(report_dir), "--screenshot", str(screenshot), "--chromium", CHROMIUM],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=300,
    )


def test_rendered_summary_matches_report_json(meta, results, tmp_path):
    write_report(tmp_path / "report", (meta, results, ["lean/A.lean:1:1: error: x"]))
    shot = tmp_path / "shot.png"
    proc = _check(tmp_path / "report", shot)
    assert proc.returncode == 0, proc.stderr
    assert "OK" in proc.stdout
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_tampered_report_json_is_caught(meta, results, tmp_path):
    out = tmp_path / "report"
    write_report(out, (meta, results, []))
    doc = json.loads((out / "report.json").read_text())
    doc["summary"]["counts"]["unchecked"]["tested"] += 1
    (out / "report.json").write_text(json.dumps(doc))
    proc = _check(out, tmp_path / "shot.png")
    assert proc.returncode == 1
    assert "count-unchecked-tested" in proc.stderr


def _tool():
    import importlib.util
    import sys

    if "check_report_html" in sys.modules:
        return sys.modules["check_report_html"]
    spec = importlib.util.spec_from_file_location("check_report_html", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_report_html"] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


class _Groups:
    """Statement groups of a rendered DOM in document order, with hidden flags."""

    def __init__(self, dom: str):
        from html.parser import HTMLParser

        self.groups: list[tuple[str, bool, str]] = []
        groups = self.groups

        class Reader(HTMLParser):
            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                classes = (a.get("class") or "").split()
                if tag == "tbody" and "stmt" in classes:
                    groups.append((a["data-name"], "hidden" in classes, a["data-mirror-status"]))

        Reader().feed(dom)


def test_filter_and_sort_run_in_the_browser(meta, results, tmp_path):
    tool = _tool()
    out = tmp_path / "report"
    write_report(out, (meta, results, []))
    dom = tool.render(out / "report.html", CHROMIUM, None, 120, fragment="mirror=refuted")
    shown = [(name, status) for name, hidden, status in _Groups(dom).groups if not hidden]
    assert shown == [(r.name, "refuted") for r in results if r.mirror_status == "refuted"]
    page = tool.parse_dom(dom)
    assert page.by_id["shown-count"].text == "1"

    dom = tool.render(out / "report.html", CHROMIUM, None, 120)
    statuses = [status for _, _, status in _Groups(dom).groups]
    from mirror.product.outcome import severity
    assert statuses == sorted(statuses, key=severity)  # the review order: findings first
    assert statuses[0] == "refuted"

    dom = tool.render(out / "report.html", CHROMIUM, None, 120, fragment="sort=3&dir=desc")
    order = [name for name, _, _ in _Groups(dom).groups]
    by_examples = sorted(results, key=lambda r: r.examples, reverse=True)
    assert [dict((r.name, r.examples) for r in results)[n] for n in order] == [
        r.examples for r in by_examples
    ]

    dom = tool.render(out / "report.html", CHROMIUM, None, 120, fragment="q=exp_pos")
    assert [n for n, hidden, _ in _Groups(dom).groups if not hidden] == ["Mirror.Ops.exp_pos"]


def test_layout_check_catches_a_verdict_column_cut_off_at_420_px(meta, results, tmp_path):
    out = tmp_path / "report"
    write_report(out, (meta, results, []))
    html = out / "report.html"
    proc = _check(out, tmp_path / "ok.png")
    assert proc.returncode == 0, proc.stderr
    # control: a page whose statements table is forced wider than a phone
    html.write_text(html.read_text(encoding="utf-8").replace(
        "</style>", "#statements { min-width: 2400px; } #statements td:first-child { padding-left: 1800px; }</style>"),
        encoding="utf-8")
    proc = _check(out, tmp_path / "cut.png")
    assert proc.returncode == 1
    assert "at 420 px:" in proc.stderr and "beyond the right edge" in proc.stderr
