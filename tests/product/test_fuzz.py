"""Fuzz sessions: selection, the JSONL log, SIGKILL + replay, and a Ray-backed campaign."""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from bridge.declaration import Declaration
from bridge.errors import InvalidArgument
from mirror.judge.fileio import read_jsonl
from mirror.product.fuzz import check_task, read_session_log, run_session, select_mirrors
from mirror.product.pipeline import Mirror
from tests.product.conftest import PYTHON, subprocess_env

PLANTED = "Planted.a_false_square"
#: A fixture project: one false statement (x ≤ x² fails on (0, 1)) and true ones.
PLANTED_LEAN = """\
import Mathlib

namespace Planted

/-- Planted false statement: fails for `0 < x < 1`. -/
theorem a_false_square (x : ℝ) : x ≤ x ^ 2 := by
  sorry

theorem b_sq_nonneg (x : ℝ) : 0 ≤ x ^ 2 := by
  positivity

theorem c_add_comm (x y : ℝ) : x + y = y + x := by
  ring

theorem d_abs_nonneg (x : ℝ) : 0 ≤ |x| := by
  positivity

end Planted
"""


def _mirror(name: str, module: str, status: str = "ready") -> Mirror:
    return Mirror(Declaration(name, "theorem", module), status)


def test_select_by_name_short_name_and_module():
    mirrors = [
        _mirror("Mirror.Ops.Norm.a", "Mirror.Ops.Norm"),
        _mirror("Mirror.Ops.Norm.b", "Mirror.Ops.Norm"),
        _mirror("Mirror.Res.c", "Mirror.Res"),
        _mirror("Mirror.Res.f", "Mirror.Res", status="definition"),
    ]
    names = lambda ms: [m.name for m in ms]
    assert names(select_mirrors(mirrors, None)) == ["Mirror.Ops.Norm.a", "Mirror.Ops.Norm.b", "Mirror.Res.c"]
    assert names(select_mirrors(mirrors, ["Mirror.Ops"])) == ["Mirror.Ops.Norm.a", "Mirror.Ops.Norm.b"]
    assert names(select_mirrors(mirrors, ["c", "Mirror.Ops.Norm.b"])) == ["Mirror.Ops.Norm.b", "Mirror.Res.c"]
    with pytest.raises(InvalidArgument, match="nothing_here"):
        select_mirrors(mirrors, ["nothing_here"])
    with pytest.raises(InvalidArgument):  # definitions are not statements
        select_mirrors(mirrors, ["Mirror.Res.f"])


@pytest.mark.parametrize(
    "kwargs, argument",
    [({"examples": 0}, "examples"), ({"time_budget": -1}, "time_budget"), ({"jobs": 0}, "jobs")],
)
def test_bad_budgets_name_the_argument(kwargs, argument, tmp_path):
    with pytest.raises(InvalidArgument, match=argument):
        run_session(tmp_path, mirrors=[], progress=False, **kwargs)


@pytest.fixture
def planted_project(tmp_path) -> Path:
    project = tmp_path / "planted"
    (project / "lean").mkdir(parents=True)
    (project / "lakefile.toml").write_text(
        'name = "planted"\nsrcDir = "lean"\n\n[[lean_lib]]\nname = "Planted"\n', encoding="utf-8"
    )
    (project / "lean" / "Planted.lean").write_text(PLANTED_LEAN, encoding="utf-8")
    return project


def _results(log: Path) -> list[dict]:
    if not log.exists():
        return []
    return [r["result"] for r in read_jsonl(log).records if r.get("event") == "result"]


#: Examples within which a counterexample saved in the database is found again.
REPLAY_BOUND = 3


def _planted_payload(project: Path, database: Path) -> tuple:
    from bridge.extraction import extract
    from mirror.product.fuzz import _payloads
    from mirror.product.pipeline import CheckSettings, build_mirrors

    chosen = select_mirrors(build_mirrors(extract(project, method="scanner")), [PLANTED])
    return _payloads(chosen, project, "scanner", CheckSettings(database=database))[0]


def _fresh_search_examples(project: Path, root: Path) -> int:
    """Examples a session worker needs to refute the planted statement from an empty database."""
    root.mkdir(parents=True, exist_ok=True)
    result = check_task(_planted_payload(project, Path(tempfile.mkdtemp(dir=root))))
    assert result["mirror_status"] == "refuted", result
    return result["examples"]


def test_counterexample_is_on_disk_before_the_worker_reports_it(planted_project, tmp_path, disk_trace):
    """The worker's result is what the session logs; the database entry must precede it."""
    database = tmp_path / "db"
    payload = _planted_payload(planted_project, database)
    result = check_task(payload)
    reported = len(disk_trace.events)  # the session appends the result only after this
    assert result["mirror_status"] == "refuted", result
    slot = payload[-1].database
    saved = [p for p in slot.rglob("*") if p.is_file() and not p.name.startswith(".")]
    assert saved, "no counterexample saved"
    entries = [p for p in saved if p.parent.name != slot.name]
    assert any(disk_trace.durable(p, before=reported) for p in entries), disk_trace.events


def test_sigkill_loses_nothing_and_next_session_replays(planted_project, tmp_path):
    log = tmp_path / "fuzz.jsonl"
    database = tmp_path / "db"
    command = [
        PYTHON, "-m", "mirror.product.cli", "fuzz", "--project", str(planted_project),
        "--method", "scanner", "--jobs", "1", "--time", "300", "--quiet",
        "--log", str(log), "--database", str(database),
    ]
    proc = subprocess.Popen(
        command, env=subprocess_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 240
        first = None
        while time.monotonic() < deadline and proc.poll() is None:
            found = [r for r in _results(log) if r["name"] == PLANTED]
            if found:
                first = found[0]
                break
            time.sleep(0.2)
        assert first is not None, proc.stderr.read().decode() if proc.poll() is not None else "timeout"
        assert first["mirror_status"] == "refuted", first
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the session and its workers, mid-run
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL  # killed mid-session, not finished
    events = [r["event"] for r in read_jsonl(log).records]
    assert events[0] == "session-start" and "session-end" not in events
    # what the killed session found is on disk: the log line and the database entry
    assert PLANTED in read_session_log(log)
    assert any(database.rglob("*")), "counterexample not saved to the Hypothesis database"

    summary = run_session(
        planted_project, select=[PLANTED], examples=200, jobs=1, log=log,
        database=database, progress=False, method="scanner",
    )
    replayed = summary.results[0]
    assert replayed.mirror_status == "refuted"
    assert summary.failures == [PLANTED]
    # replayed from the database: found at (nearly) the first example, not by searching;
    # control: searches from a fresh database need more than that bound
    fresh = sorted(_fresh_search_examples(planted_project, tmp_path / "fresh") for _ in range(3))
    assert fresh[1] > REPLAY_BOUND, fresh
    assert replayed.examples <= REPLAY_BOUND, (replayed, fresh)
    sessions = {r["session"] for r in read_jsonl(log).records}
    assert len(sessions) == 2


@pytest.mark.slow  # (moved to the slow job: the default run stays under 10 min)
def test_ray_campaign_on_a_local_instance(planted_project, tmp_path):
    import ray  # noqa: F401 - a test dependency: missing, the run fails here
    log = tmp_path / "ray.jsonl"
    summary = run_session(
        planted_project, examples=30, jobs=2, log=log, database=tmp_path / "db",
        ray="local", progress=False, method="scanner",
    )
    assert summary.backend == "ray:local"
    assert summary.done == summary.statements >= 4
    assert PLANTED in summary.failures
    logged = read_session_log(log)
    assert set(logged) == {r.name for r in summary.results}
    assert logged[PLANTED].mirror_status == "refuted"
    records = read_jsonl(log).records
    assert records[0]["event"] == "session-start" and records[-1]["event"] == "session-end"
