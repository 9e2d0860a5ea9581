"""``report`` re-uses what did not change: the same verdicts at any job count and from a
warm cache, and only the rows an edit touches recomputed."""

from __future__ import annotations

from pathlib import Path

from tests.faults.conftest import leanmirror, report_rows
from tests.faults.projects import make_project

ARGS = ("--method", "scanner", "--examples", "30")
#: What a verdict is: the fields that must not depend on scheduling or caching.
VERDICT = ("mirror_status", "examples", "rejected", "counterexample", "reason", "method",
           "max_error", "tolerance", "lean_status")


def _report(project: Path, out: Path, *extra: str) -> dict[str, dict]:
    done = leanmirror("report", "--project", str(project), "--out", str(out), *ARGS, *extra)
    assert done.returncode == 1, done.stderr[-2000:]  # findings: Flt.false_square is refuted
    return report_rows(out)


def _verdicts(rows: dict[str, dict]) -> dict[str, tuple]:
    return {name: tuple(str(row.get(k)) for k in VERDICT) for name, row in rows.items()}


def _recomputed(rows: dict[str, dict]) -> set[str]:
    return {name for name, row in rows.items() if row.get("cached") is None}


def test_verdicts_are_identical_at_one_and_two_jobs_and_from_a_warm_cache(tmp_path):
    project = make_project(tmp_path / "p")
    one = _report(project, tmp_path / "r1", "--jobs", "1", "--no-cache")
    two = _report(project, tmp_path / "r2", "--jobs", "2", "--no-cache")
    warm = _report(project, tmp_path / "r3", "--jobs", "2")
    assert _verdicts(one) == _verdicts(two) == _verdicts(warm)
    assert one["Flt.false_square"]["mirror_status"] == "refuted"
    assert _recomputed(one) == _recomputed(two) == set(one)
    assert _recomputed(warm) == set()
    assert all(row["cached"].endswith("+00:00") for row in warm.values())  # from when (UTC)


def test_an_edit_recomputes_only_the_rows_that_rest_on_it(tmp_path):
    project = make_project(tmp_path / "p")
    first = _report(project, tmp_path / "r", "--jobs", "2")
    assert _recomputed(first) == set(first)
    lean = project / "lean" / "Flt.lean"
    lean.write_text(lean.read_text(encoding="utf-8").replace(
        "0 ≤ x * x + x := by positivity", "0 ≤ x + x * x := by positivity"), encoding="utf-8")
    edited = _report(project, tmp_path / "r", "--jobs", "2")
    assert _recomputed(edited) == {"Flt.plain"}
    assert edited["Flt.plain"]["statement"].count("x + x * x") == 1
    kernel = project / "python" / "faultpkg" / "good.py"
    kernel.write_text(kernel.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    rebound = _report(project, tmp_path / "r", "--jobs", "2")
    assert _recomputed(rebound) == {"Flt.relu.conformance", "Flt.relu_nonneg"}
    forced = _report(project, tmp_path / "r", "--jobs", "2", "--no-cache")
    assert _recomputed(forced) == set(forced)
    assert _verdicts(forced) == _verdicts(rebound)


def _survey(out: Path) -> str | None:
    import json

    return json.loads((out / "report.json").read_text(encoding="utf-8"))["meta"]["cache"]["survey"]


def test_a_warm_run_translates_nothing_and_any_input_change_translates_again(tmp_path):
    """The survey (every statement translated) is re-used only while nothing it rests on
    changed: a warm run re-uses it; editing a binding's module, the configuration or a
    definition translates the project again (and the rows that rest on it are recomputed)."""
    project = make_project(tmp_path / "p")
    out = tmp_path / "r"
    _report(project, out, "--jobs", "2", "--no-cache")
    assert _survey(out) is None  # --no-cache translates (and keeps the new survey)
    _report(project, out, "--jobs", "2")
    assert _survey(out) is not None and _survey(out).endswith("+00:00")
    kernel = project / "python" / "faultpkg" / "good.py"
    kernel.write_text("def relu(x):\n    return max(x, 0.0) + 1e-300\n", encoding="utf-8")
    edited = _report(project, out, "--jobs", "2")
    assert _survey(out) is None
    assert {"Flt.relu.conformance", "Flt.relu_nonneg"} <= _recomputed(edited)
    config = project / "leanmirror.toml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        '"Flt.boom" = "faultpkg.bad:boom"\n', ""), encoding="utf-8")
    unbound = _report(project, out, "--jobs", "2")
    assert _survey(out) is None
    assert "Flt.boom.conformance" not in unbound
    _report(project, out, "--jobs", "2")
    assert _survey(out) is not None
