"""report.json / report.md / report.html from hand-made runs."""

from __future__ import annotations

import json
import re
from collections import Counter
from html.parser import HTMLParser

import pytest

from bridge.errors import InvalidArgument
from mirror.product import report as report_module
from mirror.product.pipeline import RunResult
from mirror.product.report import build_report, render_html, render_markdown, write_report
from mirror.judge.result import StatementResult


def test_summary_counts_match_the_results(meta, results):
    doc = build_report((meta, results, []))
    expected = Counter((r.lean_status, r.mirror_status or "none") for r in results)
    counts = doc["summary"]["counts"]
    seen = Counter()
    for lean_status, row in counts.items():
        for mirror_status, n in row.items():
            seen[(lean_status, mirror_status)] += n
    assert +seen == expected
    assert doc["summary"]["totals"]["statements"] == len(results)
    assert doc["summary"]["totals"]["examples"] == sum(r.examples for r in results)
    assert sum(m["statements"] for m in doc["modules"]) == len(results)
    assert [m["module"] for m in doc["modules"]] == sorted({r.module for r in results})


def test_statements_roundtrip_through_json(meta, results, tmp_path):
    paths = write_report(tmp_path, (meta, results, ["lean/A.lean:1:1: error: oops"]))
    assert set(paths) == {"html", "md", "json"}
    doc = json.loads(paths["json"].read_text(encoding="utf-8"))
    back = {s["name"]: StatementResult.from_json(s) for s in doc["statements"]}
    original = {r.name: r for r in results}
    assert back.keys() == original.keys()
    assert back["Mirror.Ops.bad"].counterexample == {"x": -1.5, "n": 3}
    assert back["Mirror.Res.fuzzy"].max_error == float("inf")
    assert doc["diagnostics"][0]["text"] == "lean/A.lean:1:1: error: oops"
    assert doc["meta"]["method"] == "scanner" and doc["meta"]["kernel"] is False


def test_run_result_supplies_generated_code(meta, results, tmp_path):
    class FakeMirror:  # only the two attributes the report reads
        name = "Mirror.Res.sym"
        source = "def prop_sym(rt):\n    return True\n"

    run = RunResult(meta=meta, results=results, diagnostics=[], mirrors=[FakeMirror()])
    doc = build_report(run)
    sym = next(s for s in doc["statements"] if s["name"] == "Mirror.Res.sym")
    assert sym["code"] == FakeMirror.source


def test_markdown_header_says_unchecked_without_kernel(meta, results):
    text = render_markdown(build_report((meta, results, [])))
    header = text.split("## Summary")[0]
    assert "No Lean kernel ran" in header and "`unchecked`" in header
    assert "source scanner" in header
    assert "proved" not in text  # no statement is proved, so the word never appears


def test_markdown_with_kernel_has_no_unchecked_banner(meta):
    meta = dict(meta, method="exporter", kernel=True)
    rows = [StatementResult("M.t", "M", "theorem", "proved", "tested", examples=10, axioms=[])]
    text = render_markdown(build_report((meta, rows, [])))
    assert "No Lean kernel ran" not in text
    assert "Lean kernel checked" in text.split("## Statements")[0]


def test_markdown_keeps_untrusted_text_inside_fences(meta, results):
    text = render_markdown(build_report((meta, results, [])))
    bad = text.split("### Mirror.Ops.bad")[1].split("###")[0]
    fence = re.search(r"^(`{3,})lean$", bad, re.M).group(1)
    assert len(fence) == 4  # longer than the ``` inside the statement
    assert "<script>alert('pwned')</script>" in bad.split(fence + "lean")[1]


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self.scripts += 1


def test_html_is_self_contained_and_escaped(meta, results):
    html = render_html(build_report((meta, results, [])))
    parsed = _Collector()
    parsed.feed(html)
    assert parsed.scripts == 1  # our inline script only: the statement's <script> is text
    assert "&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;" in html
    for tag, attrs in parsed.tags:
        assert "src" not in attrs or attrs["src"].startswith("data:"), (tag, attrs)
        if "href" in attrs and not attrs["href"].startswith(("data:", "#")):
            # the only other links: a statement's source location, opened by the reader
            assert tag == "a" and attrs.get("class") == "source", (tag, attrs)
            assert attrs["href"].startswith("file:///"), attrs
    assert "http://" not in html and "https://" not in html
    assert "proved" not in html


def test_html_has_every_statement_field(meta, results):
    html = render_html(build_report((meta, results, [])))
    parsed = _Collector()
    parsed.feed(html)
    groups = [a for t, a in parsed.tags if t == "tbody" and "stmt" in a.get("class", "").split()]
    assert sorted(g["data-name"] for g in groups) == sorted(r.name for r in results)
    cells = {a["id"]: a for t, a in parsed.tags if a.get("id", "").startswith("count-")}
    assert cells["count-unchecked-tested"]["data-count"] == "1"
    assert cells["count-total"]["data-count"] == str(len(results))
    assert "why untranslatable" in html and "Matrix.det is not in the translation table" in html
    assert "why unbound" in html and "lean/Mirror/Ops.lean:20:1" in html
    assert "<details><summary>generated code</summary>" in html
    assert "<svg" in html and 'data-mirror-status="refuted"' in html
    assert "No Lean kernel ran." in html


def test_html_says_proved_only_for_proved_statements(meta):
    meta = dict(meta, method="exporter", kernel=True)
    rows = [
        StatementResult("M.a", "M", "theorem", "proved", "tested", examples=5, axioms=["propext"]),
        StatementResult("M.b", "M", "theorem", "sorry", "tested", examples=5, axioms=["sorryAx"]),
    ]
    html = render_html(build_report((meta, rows, [])))

    def row(name: str) -> str:
        start = html.index(f'data-name="{name}"')
        return html[start:html.index("</tbody>", start)]

    proved, sorry = row("M.a"), row("M.b")
    assert 'data-lean-status="proved"' in proved and ">proved</span>" in proved
    # the sorry row is labelled sorry, shows sorryAx, and says proved nowhere
    assert 'data-lean-status="sorry"' in sorry and ">sorry</span>" in sorry
    assert "<code>sorryAx</code>" in sorry
    assert "proved" not in sorry
    assert "No Lean kernel ran." not in html


def test_bad_arguments_name_the_problem(meta, results, tmp_path):
    with pytest.raises(InvalidArgument, match="formats"):
        write_report(tmp_path, (meta, results, []), formats=("pdf",))
    with pytest.raises(InvalidArgument, match="results\\[0\\]"):
        build_report((meta, [42], []))
    with pytest.raises(InvalidArgument, match="RunResult"):
        build_report("nonsense")
    assert list(tmp_path.iterdir()) == []


def test_failed_render_writes_nothing(meta, results, tmp_path, monkeypatch):
    write_report(tmp_path, (meta, results[:1], []))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def boom(report):
        raise KeyboardInterrupt

    monkeypatch.setattr(report_module, "render_html", boom)
    with pytest.raises(KeyboardInterrupt):
        write_report(tmp_path, (meta, results, []))
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_minimal_meta_renders(results, tmp_path):
    paths = write_report(tmp_path, ({"method": "scanner"}, results, []))
    assert "No Lean kernel ran." in paths["html"].read_text(encoding="utf-8")
    assert "No Lean kernel ran" in paths["md"].read_text(encoding="utf-8")
    assert json.loads(paths["json"].read_text())["meta"]["kernel"] is False
