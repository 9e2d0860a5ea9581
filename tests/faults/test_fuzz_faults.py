"""``fuzz`` survives a worker's death, and runs from a second checkout of leanmirror."""

from __future__ import annotations

import shutil

import pytest

from mirror.judge.fileio import read_jsonl
from tests.faults.conftest import REPO, leanmirror
from tests.faults.projects import FAULTY, UNTOUCHED, make_project


def _session_end(log):
    return [r for r in read_jsonl(log).records if r.get("event") == "session-end"][-1]


# (the time budget's run is in the slow job: the default run stays under 10 min)
@pytest.mark.parametrize("budget", [("--examples", "20"),
                                    pytest.param(("--time", "20"), marks=pytest.mark.slow)])
def test_fuzz_finishes_after_a_worker_dies_and_keeps_the_crashed_statements(budget, tmp_path):
    project = make_project(tmp_path / "p", "exit")
    log = tmp_path / "fuzz.jsonl"
    done = leanmirror("fuzz", "--project", str(project), "--method", "scanner", "--jobs", "2",
                      "--quiet", "--log", str(log), "--database", str(tmp_path / "db"),
                      "--statement-timeout", "5", *budget)
    assert done.returncode == 1, done.stderr[-2000:]  # findings: Flt.false_square
    end = _session_end(log)
    assert end["not_run"] == []
    statements = len(FAULTY) + len(UNTOUCHED) + 1
    assert f"{statements}/{statements} statements" in done.stdout, done.stdout
    assert "error 2" in done.stdout, done.stdout  # the two rows of the dead binding
    results = {r["result"]["name"]: r["result"] for r in read_jsonl(log).records
               if r.get("event") == "result"}
    for name in FAULTY:
        assert results[name]["mirror_status"] == "error"
        assert "the worker exited with status 1" in results[name]["reason"]


def test_fuzz_from_a_second_checkout_uses_the_running_leanmirror(tmp_path):
    """The bundled project's python-path ``["."]`` holds a second ``mirror`` package."""
    second = tmp_path / "second"
    shutil.copytree(REPO, second, ignore=shutil.ignore_patterns(
        ".git", ".venv", "tests", "__pycache__", ".leanmirror", "report", "*.egg-info"))
    done = leanmirror("fuzz", "--project", str(second), "--method", "scanner", "--examples",
                      "5", "--select", "Mirror.Ops.sigmoid.conformance",
                      "--log", str(tmp_path / "log.jsonl"), "--database", str(tmp_path / "db"),
                      cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "PicklingError" not in done.stderr
    assert "1/1 statements" in done.stdout
    assert "holds another copy of leanmirror's package 'mirror'" in done.stderr
