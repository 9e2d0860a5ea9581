#!/usr/bin/env python3
"""Render ``report.html`` in headless Chromium and check the rendered page.

Usage::

    python tools/check_report_html.py REPORT_DIR [--screenshot PNG] [--chromium PATH]

``REPORT_DIR`` holds ``report.html`` and ``report.json`` (as ``leanmirror report`` writes
them). The page is loaded from disk in headless Chromium; the DOM *after its scripts ran*
(``--dump-dom``) is parsed with :mod:`html.parser` and checked against ``report.json``:

- the page's script ran (``<body data-ready="true">``);
- every summary cell (Lean status × mirror status) and every total equals report.json's;
- there is one statement group per statement in report.json;
- the "What blocks coverage" table has one row per blocker with report.json's count, the counts
  add up to the blocked statements, and following the first count's link (``#blocker=…``)
  shows exactly that many statements;
- fully uncovered modules are behind a closed ``<details>`` with report.json's count;
- the page loads nothing from outside (no ``src``/``href`` to another file or the network;
  a statement's source location is a ``file://`` link the reader may follow).

The page is also rendered at 420 px: at both widths no verdict badge may lie beyond the right
edge (the page measures it into ``<body data-cut-off>``). Screenshots at 1400 px and 420 px are
written too. Exit status 0 when every check
passes, 1 with one line per failed check otherwise, 2 when the check could not run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

#: Where Debian's ``chromium`` package installs the browser.
DEFAULT_CHROMIUM = "/usr/bin/chromium"
_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
    "--disable-dev-shm-usage",
)
_VOID = frozenset(
    "area base br col embed hr img input link meta source track wbr".split()
)


@dataclass
class Element:
    """An element of the rendered DOM that carries an ``id`` or ``data-count``."""

    tag: str
    attrs: dict[str, str]
    text: str = ""


@dataclass
class RenderedPage:
    """What the checks need from a DOM: elements by id, groups, external references."""

    by_id: dict[str, Element] = field(default_factory=dict)
    body: dict[str, str] = field(default_factory=dict)
    statement_groups: int = 0
    external: list[str] = field(default_factory=list)


class _DomReader(HTMLParser):
    """Collect elements by id (with their text), statement groups and outside references."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = RenderedPage()
        self._stack: list[tuple[str, dict[str, str], list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "body":
            self.page.body = values
        if tag == "tbody" and "stmt" in values.get("class", "").split():
            self.page.statement_groups += 1
        for key in ("src", "href"):
            ref = values.get(key)
            source_link = (tag == "a" and key == "href" and ref and ref.startswith("file:///")
                           and "source" in values.get("class", "").split())
            if ref and not ref.startswith(("data:", "#")) and not source_link:
                self.page.external.append(f"<{tag} {key}={ref!r}>")
        if tag in _VOID:
            if "id" in values:
                self.page.by_id[values["id"]] = Element(tag, values)
            return
        self._stack.append((tag, values, []))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        # Pop up to the matching start tag (a serialized DOM is well nested).
        for depth in range(len(self._stack) - 1, -1, -1):
            if self._stack[depth][0] == tag:
                break
        else:
            return
        while len(self._stack) > depth:
            name, values, text = self._stack.pop()
            joined = "".join(text)
            if self._stack:
                self._stack[-1][2].append(joined)
            if "id" in values:
                self.page.by_id[values["id"]] = Element(name, values, " ".join(joined.split()))

    def handle_data(self, data: str) -> None:
        if self._stack:
            self._stack[-1][2].append(data)


def parse_dom(html: str) -> RenderedPage:
    """Parse a (rendered) HTML document into a :class:`RenderedPage`."""
    reader = _DomReader()
    reader.feed(html)
    reader.close()
    return reader.page


def _run_chromium(chromium: str, extra: list[str], url: str, timeout: float) -> str:
    with tempfile.TemporaryDirectory(prefix="leanmirror-chromium-") as profile:
        command = [chromium, *_FLAGS, f"--user-data-dir={profile}", *extra, url]
        completed = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, check=False
        )
    if completed.returncode != 0:
        tail = (completed.stderr or "").strip().splitlines()[-3:]
        raise RuntimeError(
            f"chromium exited with {completed.returncode}: {' | '.join(tail) or 'no output'}"
        )
    return completed.stdout


#: Window widths the layout is checked at: a desktop and a phone.
WIDE, NARROW = 1400, 420


def render(
    html_path: Path,
    chromium: str,
    screenshot: Path | None,
    timeout: float,
    fragment: str = "",
    width: int = WIDE,
) -> str:
    """The DOM of ``html_path`` after its scripts ran; writes ``screenshot`` when given.

    ``fragment`` (``lean=…&mirror=…&module=…&q=…&sort=N&dir=desc``) presets the page's
    filters and sort order, as a user's link would.
    """
    url = html_path.resolve().as_uri() + (f"#{fragment}" if fragment else "")
    size = f"--window-size={width},2000"
    dom = _run_chromium(chromium, ["--dump-dom", "--virtual-time-budget=5000", size], url,
                        timeout)
    if screenshot is not None:
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        _run_chromium(chromium, [f"--screenshot={screenshot.resolve()}", size], url, timeout)
        if not screenshot.is_file() or screenshot.stat().st_size == 0:
            raise RuntimeError(f"chromium wrote no screenshot at {screenshot}")
    return dom


def _expect_count(page: RenderedPage, element_id: str, expected: int, problems: list[str]) -> None:
    element = page.by_id.get(element_id)
    if element is None:
        problems.append(f"#{element_id}: missing from the rendered page (report.json: {expected})")
        return
    shown = element.text.strip()
    attr = element.attrs.get("data-count")
    if shown != str(expected) or attr != str(expected):
        problems.append(
            f"#{element_id}: page shows {shown!r} (data-count={attr!r}), report.json has {expected}"
        )


def check_page(page: RenderedPage, report: dict, raw_html: str) -> list[str]:
    """Every disagreement between a rendered page and its report.json, as messages."""
    problems: list[str] = []
    if page.body.get("data-ready") != "true":
        problems.append("the page script did not run (<body data-ready> is not 'true')")
    summary = report["summary"]
    totals = summary["totals"]
    for lean_status, row in summary["counts"].items():
        for mirror_status, count in row.items():
            _expect_count(page, f"count-{lean_status}-{mirror_status}", count, problems)
        _expect_count(page, f"total-lean-{lean_status}", totals["lean"][lean_status], problems)
    for mirror_status, count in totals["mirror"].items():
        _expect_count(page, f"total-mirror-{mirror_status}", count, problems)
    _expect_count(page, "count-total", totals["statements"], problems)
    _expect_count(page, "total-statements", totals["statements"], problems)
    shown_cells = {
        key for key, el in page.by_id.items() if key.startswith("count-") and key != "count-total"
    }
    expected_cells = {
        f"count-{ls}-{ms}" for ls, row in summary["counts"].items() for ms in row
    }
    for extra in sorted(shown_cells - expected_cells):
        problems.append(f"#{extra}: on the page but not in report.json")
    if page.statement_groups != len(report["statements"]):
        problems.append(
            f"statements: page has {page.statement_groups} groups, "
            f"report.json has {len(report['statements'])}"
        )
    shown = page.by_id.get("shown-count")
    if shown is None or shown.text != str(len(report["statements"])):
        problems.append(
            f"#shown-count: page shows {shown.text if shown else None!r} with no filter, "
            f"expected {len(report['statements'])}"
        )
    problems += _check_blockers(page, report)
    problems += _check_modules(page, report)
    raw = parse_dom(raw_html)
    for ref in sorted(set(page.external) | set(raw.external)):
        problems.append(f"external reference {ref}: the report must be self-contained")
    return problems


def _check_blockers(page: RenderedPage, report: dict) -> list[str]:
    """The "What blocks coverage" table: one row per blocker of report.json, with its count,
    and the counts add up to the blocked statements."""
    problems: list[str] = []
    blockers = report.get("blockers", [])
    for blocker in blockers:
        row = page.by_id.get(blocker["anchor"])
        if row is None or row.attrs.get("data-key") != blocker["key"]:
            problems.append(f"#{blocker['anchor']}: no row for blocker {blocker['key']!r}")
            continue
        _expect_count(page, f"{blocker['anchor']}-count", blocker["count"], problems)
    shown = {key for key in page.by_id if key.startswith("blocker-") and not key.endswith("-count")}
    for extra in sorted(shown - {b["anchor"] for b in blockers}):
        problems.append(f"#{extra}: a blocker row on the page but not in report.json")
    blocked = [s for s in report["statements"] if s.get("mirror_status") in ("untranslatable", "unbound", "error")]
    if blockers and sum(b["count"] for b in blockers) != len(blocked):
        problems.append(f"blockers: counts add up to {sum(b['count'] for b in blockers)}, "
                        f"report.json has {len(blocked)} blocked statements")
    return problems


def _check_modules(page: RenderedPage, report: dict) -> list[str]:
    """Fully uncovered modules sit in a closed ``<details>`` whose count is report.json's."""
    hidden = [m for m in report["modules"] if m.get("fully_uncovered")]
    details = page.by_id.get("uncovered-modules")
    if not hidden:
        return [] if details is None else ["#uncovered-modules: shown, but no module is fully uncovered"]
    if details is None:
        return [f"#uncovered-modules: missing; report.json has {len(hidden)} fully uncovered modules"]
    problems = []
    if details.attrs.get("data-count") != str(len(hidden)):
        problems.append(f"#uncovered-modules: data-count={details.attrs.get('data-count')!r}, "
                        f"report.json has {len(hidden)}")
    if "open" in details.attrs:
        problems.append("#uncovered-modules: open by default; expected collapsed")
    return problems


def check_layout(page: RenderedPage, width: int) -> list[str]:
    """At ``width``, no verdict (a statement's mirror status, a conformance) lies outside the
    viewport: the page's script counts them into ``<body data-cut-off>``."""
    cut = page.body.get("data-cut-off")
    if cut is None:
        return [f"at {width} px: the page did not measure its layout (<body data-cut-off>)"]
    if cut != "0":
        return [f"at {width} px: {cut} verdict badges lie beyond the right edge"]
    return []


def check_blocker_link(html_path: Path, report: dict, chromium: str, timeout: float) -> list[str]:
    """Following a blocker's count link (``#blocker=…``) shows exactly its statements."""
    blockers = report.get("blockers", [])
    if not blockers:
        return []
    first = blockers[0]
    page = parse_dom(render(html_path, chromium, None, timeout, fragment=f"blocker={first['anchor']}"))
    shown = page.by_id.get("shown-count")
    if shown is None or shown.text != str(first["count"]):
        return [f"#blocker={first['anchor']}: shows {shown.text if shown else None!r} statements, "
                f"expected {first['count']} ({first['key']})"]
    return []


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="check_report_html",
        description="Render report.html in headless Chromium and check its summary numbers "
        "against report.json.",
    )
    parser.add_argument("report_dir", type=Path, help="directory with report.html and report.json")
    parser.add_argument(
        "--screenshot",
        type=Path,
        default=None,
        help="PNG to write (default: REPORT_DIR/report.png)",
    )
    parser.add_argument(
        "--narrow-screenshot",
        type=Path,
        default=None,
        help=f"PNG of the page at {NARROW} px (default: next to --screenshot, *-narrow.png)",
    )
    parser.add_argument(
        "--chromium", default=None, help=f"browser binary (default: {DEFAULT_CHROMIUM} or PATH)"
    )
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per browser run")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the check; 0 = pass, 1 = the page disagrees with report.json, 2 = cannot run."""
    args = _parse_args(argv)
    html_path = args.report_dir / "report.html"
    json_path = args.report_dir / "report.json"
    chromium = args.chromium or (
        DEFAULT_CHROMIUM if Path(DEFAULT_CHROMIUM).exists() else shutil.which("chromium")
    )
    if not chromium:
        print(
            "check_report_html: error: chromium not found; install it "
            "(apt-get install -y chromium) or pass --chromium PATH",
            file=sys.stderr,
        )
        return 2
    try:
        raw_html = html_path.read_text(encoding="utf-8")
        report = json.loads(json_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(f"check_report_html: error: cannot read the report: {exc}", file=sys.stderr)
        return 2
    screenshot = args.screenshot or args.report_dir / "report.png"
    narrow_shot = args.narrow_screenshot or screenshot.with_name(screenshot.stem + "-narrow.png")
    try:
        dom = render(html_path, chromium, screenshot, args.timeout)
        narrow = render(html_path, chromium, narrow_shot, args.timeout, width=NARROW)
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as exc:
        print(f"check_report_html: error: rendering failed: {exc}", file=sys.stderr)
        return 2
    try:
        page = parse_dom(dom)
        problems = check_page(page, report, raw_html)
        problems += check_layout(page, WIDE) + check_layout(parse_dom(narrow), NARROW)
        problems += check_blocker_link(html_path, report, chromium, args.timeout)
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as exc:
        print(f"check_report_html: error: rendering failed: {exc}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, AttributeError) as exc:
        print(f"check_report_html: error: report.json lacks {exc}", file=sys.stderr)
        return 2
    if problems:
        for problem in problems:
            print(f"check_report_html: FAIL: {problem}", file=sys.stderr)
        return 1
    totals = report["summary"]["totals"]
    print(
        f"check_report_html: OK: {totals['statements']} statements, summary matches "
        f"report.json; no verdict cut off at {WIDE} or {NARROW} px; screenshots {screenshot}, "
        f"{narrow_shot}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
