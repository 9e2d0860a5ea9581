"""The report says what each row was drawn on and in which unit its largest error is
(issue 20: conformance rows measure ulps, theorem rows an absolute float difference)."""

from __future__ import annotations

import json

from mirror.judge.result import StatementResult
from mirror.product.report import build_report, render_html, render_markdown, write_report
from tests.product.test_statement_settings import _project, _rows


def _row(name: str, **fields) -> StatementResult:
    return StatementResult(name=name, module="Tiny", kind=fields.pop("kind", "theorem"),
                           lean_status="stated", mirror_status="tested", examples=40, **fields)


ROWS = [
    _row("Tiny.total.conformance", kind="conformance", max_error=3.25,
         accuracy=[{"dtype": "float64", "budget": "float64 4 ulps + 2 × input sensitivity"}],
         domain="sizes 0..4096, magnitude wide, dtypes float64/float32"),
    _row("Tiny.layer.conformance", kind="conformance", max_error=37.5,
         accuracy=[{"dtype": "float64", "budget": "float64 4 ulps of Lean's largest entry "
                                                  "(normwise) + 2 × input sensitivity"}],
         domain="sizes 1..4, magnitude narrow, dtypes float64; δ > 0.0"),
    _row("Tiny.twice_small", max_error=2.5e-16, tolerance=1e-9, domain="reals in [-5, 5]"),
]


def test_each_largest_error_has_its_unit_and_each_row_its_domain(meta):
    units = {r.name: r.error_unit for r in ROWS}
    assert units == {"Tiny.total.conformance": "ulps",
                     "Tiny.layer.conformance": "ulps of the largest entry",
                     "Tiny.twice_small": "absolute"}
    doc = build_report((meta, ROWS, []))
    by_name = {s["name"]: s for s in doc["statements"]}
    assert by_name["Tiny.total.conformance"]["error_unit"] == "ulps"
    assert by_name["Tiny.twice_small"]["domain"] == "reals in [-5, 5]"
    md = render_markdown(doc)
    assert "largest error 3.25 ulps" in md and "largest error 2.5e-16 absolute" in md
    assert "drawn on sizes 0..4096, magnitude wide, dtypes float64/float32" in md
    html = render_html(doc)
    assert '<span class="muted unit">ulps of the largest entry</span>' in html
    assert '<span class="muted unit">absolute</span>' in html
    assert '<dd class="domain">sizes 1..4, magnitude narrow, dtypes float64; δ &gt; 0.0</dd>' \
        in html


def test_the_pipeline_states_the_domain_of_every_row(tmp_path, meta):
    rows = _rows(_project(tmp_path / "p"))
    assert rows["total.conformance"].domain == "sizes 1..4, magnitude narrow, dtypes float64"
    assert rows["total_short"].domain == "sizes 1..4, reals in [-5, 5]"
    paths = write_report(tmp_path / "out", (meta, list(rows.values()), []))
    written = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert paths and all(s["domain"] for s in written["statements"])
    assert {s["error_unit"] for s in written["statements"]} == {"ulps", "absolute"}
