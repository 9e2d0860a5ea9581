"""tools/coverage.py: how parse diagnostics and blocking reasons are grouped, and the page."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bridge.declaration import Diagnostic
from mirror.judge.result import StatementResult


def _parse_error(text: str) -> Diagnostic:
    return Diagnostic("A.lean", 3, 7, f"cannot parse the statement of Foo.bar: {text}")


@pytest.mark.parametrize(
    "message, token",
    [
        ("unexpected sym '≃'", "≃"),
        ("unexpected sym \"'\"", "'"),
        ("unexpected keyword 'at'", "at"),
        ("unexpected end of input", "end of input"),
    ],
)
def test_parse_diagnostics_group_by_the_token_that_stopped_the_parser(coverage_tool, message, token):
    assert coverage_tool.stopping_token(_parse_error(message)) == token


def test_a_structured_construct_wins_and_other_diagnostics_are_not_notation(coverage_tool):
    @dataclass(frozen=True)
    class WithConstruct:
        message: str
        construct: str

    assert coverage_tool.stopping_token(WithConstruct("cannot parse …: unexpected sym '⟪'", "⟪ ⟫")) == "⟪ ⟫"
    assert coverage_tool.stopping_token(Diagnostic("A.lean", 1, 1, "unknown namespace Foo")) is None
    counted = coverage_tool.unknown_notation(
        [_parse_error("unexpected sym '≃'"), _parse_error("unexpected sym '≃'"),
         _parse_error("unexpected end of input")])
    assert counted.most_common() == [("≃", 2), ("end of input", 1)]


@pytest.mark.parametrize(
    "reason, group",
    [
        ("cannot translate constant OrderIso.symm: it is not in mirror.translate.translation's table",
         "unknown constant OrderIso.symm"),
        ("cannot translate recursive definition Nat.log: only structural recursion on ℕ",
         "recursive definition Nat.log"),
        ("cannot translate binder α : Sort: type parameters are not drawn",
         "type parameter (no carrier to draw)"),
        ("cannot translate finset: App(fn=Const(name='Finset.antidiagonal'), args=())", "finset"),
        ("cannot translate statement: the statement did not parse", "statement did not parse"),
    ],
)
def test_blocking_reasons_group_by_what_they_name(coverage_tool, reason, group):
    row = StatementResult("Foo.bar", "Foo", "theorem", "unchecked", "untranslatable", reason=reason)
    assert coverage_tool.blocker(row, {}) == group


def test_an_unparsed_statement_is_keyed_by_the_notation_that_stopped_it(coverage_tool):
    diagnostics = [_parse_error("unexpected sym '≃'"), Diagnostic("A.lean", 1, 1, "unknown namespace Foo")]
    constructs = coverage_tool.statement_constructs(diagnostics)
    assert constructs == {"Foo.bar": "≃"}
    row = StatementResult("Foo.bar", "Foo", "theorem", "unchecked", "untranslatable",
                          reason="cannot translate statement: the statement did not parse")
    assert coverage_tool.blocker(row, constructs) == "notation ≃"


def test_the_page_has_the_figures_the_notation_and_the_blockers(coverage_tool):
    figures = coverage_tool.Figures("demo", theorems=4, parsed=3, translated=2, checked=1,
                                    refuted=1, refuted_names=["Demo.bad"])
    figures.notation["≃"] = 1
    figures.blockers["constant Foo.bar"] = 1
    failed = coverage_tool.Figures("broken", failed="IndexError: tuple index out of range")
    page = coverage_tool.render([figures, failed], ["elsewhere: not found here, skipped"],
                                "python tools/coverage.py elsewhere", {"demo": "owner/demo @ abc"})
    assert "| demo | 4 | 3 (75 %) | 2 (50 %) | 1 (25 %) | 1 (25 %) | 0 (0 %) |" in page
    assert "| broken | run failed |" in page and "IndexError" in page
    assert "refuted: Demo.bad" in page
    assert "| `≃` | 1 |" in page and "| `constant Foo.bar` | 1 |" in page
    notation = page.split("## Unknown notation", 1)[1].split("## What blocks coverage", 1)[0]
    assert "**demo** (1 diagnostics, 1 of 4 theorem statements unparsed)" in notation
    assert "broken" not in notation  # a failed run has no parse figures
    assert "owner/demo @ abc" in page and "elsewhere: not found here" in page


def _project(root, sources: str | None):
    root.mkdir(parents=True)
    (root / "lakefile.toml").write_text('name = "p"\n')
    if sources is not None:
        (root / "sources.toml").write_text(sources)
    return root


def test_rounds_come_from_sources_toml_per_file_or_for_the_whole_directory(coverage_tool, tmp_path):
    assert coverage_tool.rounds(_project(tmp_path / "bare", None)) == {"tuned": None}
    whole = _project(tmp_path / "whole", 'round = "2026-12-01"\ncommit = "abc"\n')
    assert coverage_tool.rounds(whole) == {"2026-12-01": None}
    mixed = _project(tmp_path / "mixed", '[[file]]\npath = "A/B.lean"\nround = "tuned"\n\n'
                                         '[[file]]\npath = "A/C.lean"\nround = "2026-12-01"\n')
    assert coverage_tool.rounds(mixed) == {"tuned": {"A.B"}, "2026-12-01": {"A.C"}}
    broken = _project(tmp_path / "broken", '[[file]]\npath = "A/B.lean"\n')
    with pytest.raises(ValueError, match="needs 'path' and 'round'"):
        coverage_tool.rounds(broken)


def test_a_first_look_is_tallied_by_module_and_rendered_apart(coverage_tool, tmp_path):
    from types import SimpleNamespace

    rows = [StatementResult("A.B.x", "A.B", "theorem", "unchecked", "tested"),
            StatementResult("A.C.y", "A.C", "theorem", "unchecked", "refuted"),
            StatementResult("A.C.z", "A.C", "theorem", "unchecked", "tested")]
    run_result = SimpleNamespace(results=rows, mirrors=[],
                                 diagnostics=[Diagnostic("A/C.lean", 1, 1, "cannot parse the statement "
                                                         "of A.C.w: unexpected sym '≃'")])
    mixed = _project(tmp_path / "mixed", '[[file]]\npath = "A/B.lean"\nround = "tuned"\n\n'
                                         '[[file]]\npath = "A/C.lean"\nround = "2026-12-01"\n')
    tuned, first = coverage_tool.split_by_round("demo", mixed, run_result)
    assert (tuned.project, tuned.theorems, tuned.refuted, tuned.first_look) == ("demo (tuned)", 1, 0, None)
    assert (first.project, first.theorems, first.refuted, first.first_look) == (
        "demo (first look 2026-12-01)", 2, 1, "2026-12-01")
    assert not tuned.notation and first.notation == {"≃": 1}
    page = coverage_tool.render([tuned, first], [], "python tools/coverage.py")
    main, section = page.split("## First look: files first measured on 2026-12-01", 1)
    assert "| demo (tuned) | 1 |" in main and "first look" not in main
    assert "| demo (first look 2026-12-01) | 2 |" in section.split("## Unknown notation")[0]
    assert "refuted: A.C.y" in section


def test_the_extreme_plan_is_a_forced_copy(coverage_tool):
    plan = {"settings": {"real_bound": 5.0, "nat_max": 6}, "variables": []}
    forced = coverage_tool.extreme_plan(plan)
    assert plan == {"settings": {"real_bound": 5.0, "nat_max": 6}, "variables": []}
    assert forced["settings"]["real_bound"] == 1e300 and forced["settings"]["nat_max"] == 6
    assert {0.0, 5e-324, 1e-300, 1e300} <= set(forced["settings"]["extremes"])


def test_inconclusive_rows_group_by_reason_without_their_particulars(coverage_tool):
    key = coverage_tool.inconclusive_key
    assert key("2902 of 2902 draws not counted: 2902 rejected by the hypotheses") == \
        key("12 of 40 draws not counted: 12 rejected by the hypotheses") == "N of N draws not counted"
    assert key(None) == "no reason given"


def test_a_benchmark_page_breaks_inconclusive_rows_down_and_rows_are_written(coverage_tool):
    figures = coverage_tool.Figures("minif2f", theorems=2, inconclusive=2)
    figures.undecided["N of N draws not counted"] = 2
    page = coverage_tool.render([figures], [], "python tools/coverage.py --benchmark x")
    assert "## Why rows are inconclusive" in page
    assert "| `N of N draws not counted` | 2 |" in page
    row = StatementResult("M.t", "M", "theorem", "stated", "inconclusive", reason="r",
                          method="sweep; rejected draws: of 128 fresh draws, h rejects 88",
                          rejected=41, examples=21)
    written = coverage_tool.theorem_row("minif2f", row)
    assert written["status"] == "inconclusive" and written["rejected"] == 41
    assert "h rejects 88" in written["method"]


def test_the_hand_checked_benchmark_findings_are_part_of_the_page(coverage_tool):
    page = coverage_tool.render([coverage_tool.Figures("demo")], [], "python tools/coverage.py")
    assert "## Known-false benchmark statements (checked by hand)" in page
    assert "mathd_algebra_208" in page


def test_only_names_a_fixture_project_or_stops_with_one_line(coverage_tool, capsys):
    with pytest.raises(SystemExit) as stopped:
        coverage_tool.main(["--only", "fixtures/mathlib/round-1999", "--out", "/dev/null"])
    assert stopped.value.code == 2
    message = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--only 'fixtures/mathlib/round-1999': expected a fixture project" in message
    assert "fixtures/mathlib/round-2026-12-01b" in message


def test_rows_and_findings_are_on_disk_as_each_statement_finishes(coverage_tool, tmp_path, monkeypatch):
    """A run killed half-way (here: the second project's check raises) keeps every row it
    finished, in both passes, and the page of the projects done so far."""
    from types import SimpleNamespace

    seen = []

    def fake_measure(name, project, examples, sweep, progress=None):
        if name == "fixtures/competition":
            raise KeyboardInterrupt
        rows = [StatementResult("A.ok", "A", "theorem", "unchecked", "tested"),
                StatementResult("A.bad", "A", "theorem", "unchecked", "refuted", counterexample={"x": 0})]
        for row in rows:
            progress(row)
            seen.append(sorted(p.name for p in tmp_path.iterdir()))
        return [coverage_tool.tally(name, SimpleNamespace(results=rows, mirrors=[], diagnostics=[]))], \
            SimpleNamespace(results=rows, mirrors=[], diagnostics=[])

    def fake_extreme(name, run_result, examples, sweep, progress=None):
        row = StatementResult("A.ok", "A", "theorem", "unchecked", "error", reason="boom")
        progress(row)
        return coverage_tool.Extreme(name, coverage_tool.Counter(error=1), [row])

    monkeypatch.setattr(coverage_tool, "measure", fake_measure)
    monkeypatch.setattr(coverage_tool, "extreme_pass", fake_extreme)
    rows, findings, out = tmp_path / "rows.jsonl", tmp_path / "findings.jsonl", tmp_path / "page.md"
    with pytest.raises(KeyboardInterrupt):
        coverage_tool.main(["--only", "fixtures/mathlib", "--only", "fixtures/competition", "--extreme",
                            "--rows", str(rows), "--findings", str(findings), "--out", str(out)])
    import json

    written = [json.loads(line) for line in rows.read_text().splitlines()]
    assert [(r["name"], r["status"], r["pass"]) for r in written] == [
        ("A.ok", "tested", "ordinary"), ("A.bad", "refuted", "ordinary"), ("A.ok", "error", "extreme")]
    found = [json.loads(line) for line in findings.read_text().splitlines()]
    assert [(f["name"], f["pass"]) for f in found] == [("A.bad", "ordinary"), ("A.ok", "extreme")]
    assert "| fixtures/mathlib | 2 |" in out.read_text() and "Extreme-magnitude pass" in out.read_text()


def test_a_sink_without_files_writes_nothing_and_one_with_files_counts_its_rows(tmp_path):
    from tools.coverage_rows import Sink

    assert Sink(None, None).close() == []
    sink = Sink(tmp_path / "rows.jsonl", None)
    sink.for_pass("demo", "extreme")(StatementResult("A.x", "A", "theorem", "unchecked", "tested"))
    sink.for_pass("demo", "extreme")(StatementResult("A.d", "A", "definition", "unchecked", "tested"))
    assert sink.close() == [("rows", tmp_path / "rows.jsonl", 1)]
