"""What CI and a newcomer rely on: exit codes, summaries, JSON, project discovery, replay.

Every exit status of the table in ``leanmirror --help`` is exercised here, and every bad
``check --example`` is a one-line error with exit status 2.
"""

from __future__ import annotations

import io
import json
import shutil
import warnings

import pytest

from mirror.product import cli
from mirror.product.console import Console, summarise_warnings
from mirror.product.outcome import (EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, EXIT_TABLE,
                                    parse_fail_on)
from tests.product.conftest import REPO

TOY = REPO / "examples" / "toy"
#: The toy project's refuting example of the wrong prefix sum (exclusive instead of inclusive).
PREFIX_ZERO = '{"a": [1.0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}'


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """A copy of examples/toy (a Lake project with a wrong kernel), and its report."""
    root = tmp_path_factory.mktemp("toy")
    project = root / "toy"
    shutil.copytree(TOY, project)
    out = root / "report"
    code = cli.main(["report", "--project", str(project), "--out", str(out), "--examples", "30",
                     "--method", "scanner", "-q"])
    return project, out, code


def _one_error(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("leanmirror: error: ")
    return err[0]


# ---- exit statuses -------------------------------------------------------------------------

def test_the_exit_table_is_in_the_help(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    for code, _ in EXIT_TABLE:
        assert f"  {code}  " in out


def test_report_exits_1_on_a_refuted_row_and_lists_it_on_stderr(toy, capsys):
    project, out, code = toy
    assert code == EXIT_FINDINGS
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    refuted = [s["name"] for s in doc["statements"] if s["mirror_status"] == "refuted"]
    assert refuted  # the wrong prefix sum
    capsys.readouterr()
    code = cli.main(["report", "--project", str(project), "--out", str(out), "--examples", "30",
                     "--method", "scanner"])  # the fixture's settings: the same verdicts
    err = capsys.readouterr().err
    assert code == EXIT_FINDINGS
    summary = [line for line in err.splitlines() if line.startswith("report: ") and "statements:" in line]
    assert len(summary) == 1 and f"{len(refuted)} refuted" in summary[0]
    for name in refuted:
        assert any(name in line and "leanmirror check" in line for line in err.splitlines())


def test_report_fail_on_none_exits_0_and_a_bad_fail_on_is_a_usage_error(toy, tmp_path, capsys):
    project, _, _ = toy
    assert cli.main(["report", "--project", str(project), "--out", str(tmp_path / "r"),
                     "--examples", "10", "--method", "scanner", "-q", "--fail-on", "none"]) == EXIT_OK
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["report", "--project", str(project), "--fail-on", "refuted,oops"])
    assert exit_info.value.code == EXIT_ERROR
    assert "expected a comma-separated subset" in capsys.readouterr().err


def test_fail_on_parses_sets_and_none():
    assert parse_fail_on("refuted,error,inconclusive") == {"refuted", "error", "inconclusive"}
    assert parse_fail_on("none") == frozenset()


def test_report_json_names_the_findings(toy, tmp_path, capsys):
    project, _, _ = toy
    code = cli.main(["report", "--project", str(project), "--out", str(tmp_path / "r"),
                     "--examples", "10", "--method", "scanner", "-q", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == EXIT_FINDINGS
    assert data["counts"]["refuted"] == len(data["findings"]) >= 1
    assert all(f["replay"].startswith("leanmirror check ") for f in data["findings"])


def test_status_json_and_its_exit_statuses(toy, capsys):
    project, _, _ = toy
    assert cli.main(["extract", "--project", str(project), "--method", "scanner", "-q"]) == EXIT_OK
    capsys.readouterr()
    assert cli.main(["status", "--project", str(project), "--method", "scanner", "--json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["stale"] is False
    lean = project / "lean" / "Toy" / "Basic.lean"
    original = lean.read_text(encoding="utf-8")
    try:
        lean.write_text(original.replace("0 ≤ relu x", "0 ≤ relu x + 0"), encoding="utf-8")
        assert cli.main(["status", "--project", str(project), "--method", "scanner",
                         "--json"]) == EXIT_FINDINGS
        data = json.loads(capsys.readouterr().out)
        assert data["stale"] is True and data["changed"] == ["Toy.relu_nonneg"]
    finally:
        lean.write_text(original, encoding="utf-8")


def test_bindings_json(toy, capsys):
    project, _, _ = toy
    assert cli.main(["bindings", "--project", str(project), "--method", "scanner", "--json"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    assert {row["lean_name"] for row in data["bindings"]} >= {"Toy.relu", "Toy.prefixSum"}
    assert all(row["loads"] for row in data["bindings"])


# ---- project discovery ---------------------------------------------------------------------

@pytest.mark.parametrize("command", [["bindings"], ["report"], ["extract"], ["generate"],
                                     ["status"], ["init"], ["show", "x"], ["fuzz"]])
def test_outside_a_lake_project_every_command_says_so_and_names_project(command, tmp_path,
                                                                        monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(command) == EXIT_ERROR
    line = _one_error(capsys)
    assert "no Lake project" in line and "--project" in line
    assert list(tmp_path.iterdir()) == []  # nothing written anywhere


# ---- check: validated examples, an explained replay ----------------------------------------

@pytest.mark.parametrize("example, expected", [
    ('{"i": -1, "a": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}', "i = -1; expected ℕ"),
    ('{"i": 1.5, "a": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}', "i = 1.5; expected ℕ"),
    ('{"i": 0, "a": [1.0, 2.0]}', "expected a list of 16 ℝ"),
    ('{"i": 0, "a": [NaN, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}', "expected a list of 16 ℝ"),
    ('{"i": true, "a": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}', "expected ℕ"),
    ('{"a": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}', "missing ['i']"),
    ('{"i": 0, "j": 1, "a": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}', "unknown ['j']"),
    ('[1, 2]', "expected a JSON object"),
    ('{"i": 0,', "is not JSON"),
])
def test_a_bad_example_is_one_line_with_exit_2(toy, example, expected, capsys):
    project, _, _ = toy
    code = cli.main(["check", "Toy.prefixSum_succ", "--project", str(project), "--method",
                     "scanner", "--example", example])
    assert code == EXIT_ERROR
    line = _one_error(capsys)
    assert expected in line, line
    assert "Traceback" not in line


def test_a_fin_index_out_of_range_is_rejected(toy, capsys):
    project, _, _ = toy
    code = cli.main(["check", "Toy.attn_nonneg", "--project", str(project), "--method", "scanner",
                     "--example", '{"n": 2, "tau": 1.0, "s": [0.0, 1.0], "i": 2}'])
    assert code == EXIT_ERROR
    assert "i = 2; expected Fin 2 (an integer in 0 … 1)" in _one_error(capsys)


def test_check_explains_a_refuting_example(toy, capsys):
    project, _, _ = toy
    code = cli.main(["check", "Toy.prefixSum.conformance", "--project", str(project), "--method",
                     "scanner", "--example", '{"i": 0, "a": [1.0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}'])
    out = capsys.readouterr().out
    assert code == EXIT_FINDINGS
    assert "inputs:" in out and "i = 0" in out
    assert "call: Toy.prefixSum(" in out and "toyimpl.ops:prefix_sum" in out
    assert "implementation: 0.0" in out and "Lean's definition in float64: 1.0" in out
    assert out.strip().splitlines()[-1].startswith("verdict: refuted")


def test_check_json_holds_and_exit_0(toy, capsys):
    project, _, _ = toy
    code = cli.main(["check", "Toy.relu_of_nonneg", "--project", str(project), "--method",
                     "scanner", "--json", "--example", '{"x": 2.5}'])
    data = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK and data["verdict"] == "holds"
    assert data["inputs"] == {"x": 2.5}
    assert data["conclusion_relation"]["op"] == "=" and data["conclusion_relation"]["left"] == 2.5


def test_the_report_replay_command_reproduces_the_refutation(toy, capsys):
    project, out, _ = toy
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    row = next(s for s in doc["statements"] if s["mirror_status"] == "refuted")
    assert row["explanation"]["verdict"] == "refuted"
    words = __import__("shlex").split(row["replay"])
    assert words[:2] == ["leanmirror", "check"]
    capsys.readouterr()
    assert cli.main(words[1:] + ["--method", "scanner"]) == EXIT_FINDINGS
    assert "verdict: refuted" in capsys.readouterr().out


# ---- output: quiet, verbose, progress, warnings -------------------------------------------

def test_quiet_prints_only_the_summary(toy, tmp_path, capsys):
    project, _, _ = toy
    cli.main(["report", "--project", str(project), "--out", str(tmp_path / "q"), "--examples", "5",
              "--method", "scanner", "-q"])
    err = capsys.readouterr().err
    assert "note:" not in err and "checking the statements" not in err
    assert [line for line in err.splitlines() if line.startswith("report: ")]


def test_verbose_prints_each_verdict(toy, tmp_path, capsys):
    project, _, _ = toy
    cli.main(["report", "--project", str(project), "--out", str(tmp_path / "v"), "--examples", "5",
              "--method", "scanner", "-v"])
    err = capsys.readouterr().err
    assert any(line.startswith("tested") and "Toy.relu_of_nonneg" in line for line in err.splitlines())


def test_progress_in_a_pipe_is_plain_lines_at_an_interval():
    stream = io.StringIO()
    now = [0.0]
    console = Console(stream=stream, interval=5.0, clock=lambda: now[0])
    progress = console.progress("report", total=10)
    for step in range(10):
        now[0] = step * 2.0  # a result every 2 s
        progress.advance({"name": f"S{step}", "mirror_status": "refuted" if step == 3 else "tested"})
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue()
    assert lines == ["report: 4/10 statements (1 refuted)", "report: 7/10 statements (1 refuted)",
                     "report: 10/10 statements (1 refuted)"]


def test_repeated_kernel_warnings_are_one_line_with_a_count():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(19):
            warnings.warn("overflow encountered in exp", RuntimeWarning)
        warnings.warn("something else", RuntimeWarning)
    lines = summarise_warnings(caught)
    assert len(lines) == 2
    assert lines[0].startswith("RuntimeWarning: overflow encountered in exp (×19, ")


def test_models_in_a_user_project_says_it_belongs_to_the_bundled_demo(toy, capsys):
    project, _, _ = toy
    assert cli.main(["models", "--project", str(project), "--method", "scanner"]) == EXIT_ERROR
    line = _one_error(capsys)
    assert "belongs to the bundled demo" in line and "UNKNOWN" not in line
