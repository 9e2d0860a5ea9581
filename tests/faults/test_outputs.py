"""Outputs are whole or untouched: the report set, the JSON-lines log, the example database."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bridge import fileio
from mirror.judge.fileio import DurableExampleDatabase, append_jsonl, read_jsonl
from mirror.judge.result import StatementResult
from mirror.product.report import REPORT_FILES, write_report
from tests.faults.conftest import child_env, leanmirror
from tests.faults.projects import make_project


def _run(tag: str, count: int = 3) -> tuple[dict, list, list]:
    meta = {"project": "/p", "generated_at": tag}
    rows = [StatementResult(f"P.t{i}{tag}", "P", "theorem", "unchecked", "tested",
                            examples=i, statement=f"theorem t{i} : {tag}") for i in range(count)]
    return meta, rows, []


def _contents(out: Path) -> dict[str, str]:
    return {name: (out / name).read_text(encoding="utf-8") for name in REPORT_FILES.values()}


def _assert_one_set(out: Path, tag: str) -> None:
    """Every file of the set in ``out`` is the one of the run ``tag``."""
    texts = _contents(out)
    assert all(f"P.t0{tag}" in text for text in texts.values()), {
        name: ("P.t0" + tag) in text for name, text in texts.items()}
    assert json.loads(texts["report.json"])["meta"]["generated_at"] == tag


def test_sigkill_between_the_files_leaves_the_previous_set(tmp_path):
    out = tmp_path / "report"
    write_report(out, _run("old"))
    script = textwrap.dedent(f"""
        import os, signal
        from tests.faults.test_outputs import _run
        from mirror.product.report import write_report
        real, calls = os.replace, []
        def replace(*args, **kwargs):
            calls.append(args)
            if len(calls) == 2:  # after the first file is in place: killed
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*args, **kwargs)
        os.replace = replace
        write_report({str(out)!r}, _run("new"))
        """)
    done = subprocess.run([sys.executable, "-c", script], env=child_env(), cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == -9, done.stderr
    _assert_one_set(out, "old")
    write_report(out, _run("new"))  # the next run publishes in spite of the leftovers
    _assert_one_set(out, "new")
    assert sorted(p.name for p in out.iterdir()) == sorted(REPORT_FILES.values())


def test_disk_full_at_the_second_file_leaves_the_previous_set(tmp_path, monkeypatch):
    """ENOSPC where a file system reports it late: at ``fsync`` (injected)."""
    out = tmp_path / "report"
    write_report(out, _run("old"))
    real, calls = os.fsync, []

    def fsync(fd):
        if stat.S_ISREG(os.fstat(fd).st_mode):  # a file's data, not a directory entry
            calls.append(fd)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd)

    monkeypatch.setattr(fileio.os, "fsync", fsync)
    with pytest.raises(OSError, match=r"report\.md: cannot write it \(No space left"):
        write_report(out, _run("new"))
    monkeypatch.undo()
    _assert_one_set(out, "old")
    assert [p.name for p in tmp_path.iterdir()] == ["report"]  # no staging left behind


@pytest.fixture
def tiny_disk(tmp_path):
    """A 4 MiB tmpfs (a real full disk); skipped where mounting needs rights we lack."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()}); the injected "
                    "ENOSPC test covers the same path")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(directory: Path) -> None:
    with open(directory / "filler", "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


def test_a_really_full_disk_names_the_file_and_leaves_the_previous_set(tiny_disk):
    out = tiny_disk / "report"
    write_report(out, _run("old"))
    _fill(tiny_disk)
    with pytest.raises(OSError, match=r"report/report\.(html|md|json): cannot write it"):
        write_report(out, _run("new", count=40))
    _assert_one_set(out, "old")
    assert sorted(p.name for p in tiny_disk.iterdir()) == ["filler", "report"]


def test_a_torn_last_line_is_cut_before_the_next_append(tmp_path):
    log = tmp_path / "fuzz.jsonl"
    append_jsonl(log, {"event": "session-start", "n": 1})
    with open(log, "ab") as handle:  # a writer killed mid-line
        handle.write(b'{"event": "result", "resu')
    append_jsonl(log, {"event": "session-start", "n": 2})
    records = read_jsonl(log)
    assert [r["n"] for r in records.records] == [1, 2] and not records.torn


def test_reading_skips_and_repairs_a_torn_last_line(tmp_path):
    log = tmp_path / "fuzz.jsonl"
    append_jsonl(log, {"n": 1})
    with open(log, "ab") as handle:
        handle.write(b'{"n": 2, "x"')
    first = read_jsonl(log, repair=True)
    assert [r["n"] for r in first.records] == [1] and first.torn
    assert log.read_bytes() == b'{"n":1}\n'


def test_a_failed_example_database_write_is_a_warning_of_the_session(tmp_path):
    from mirror.product.fuzz import database_slot

    project = make_project(tmp_path / "p")
    database = tmp_path / "db"
    database.mkdir()
    database_slot(database, "Flt.false_square").write_text("not a directory")
    done = leanmirror("fuzz", "--project", str(project), "--method", "scanner", "--quiet",
                      "--examples", "50", "--select", "Flt.false_square",
                      "--log", str(tmp_path / "log.jsonl"), "--database", str(database))
    assert done.returncode == 1, done.stderr[-2000:]  # refuted
    assert "1 refuted" in done.stdout
    warnings = [line for line in done.stdout.splitlines() if line.startswith("warning: ")]
    assert warnings and "cannot save an example" in warnings[0], done.stdout
    assert "the next session will not replay it" in warnings[0]


def test_the_durable_database_records_a_failed_save(tmp_path):
    from mirror.judge.fileio import take_database_failures

    blocked = tmp_path / "db"
    blocked.write_text("a file where the database directory should be")
    DurableExampleDatabase(blocked).save(b"key", b"value")
    failures = take_database_failures()
    assert len(failures) == 1 and str(blocked) in failures[0]
    assert take_database_failures() == []


def test_the_published_directory_keeps_the_usual_permissions(tmp_path):
    out = tmp_path / "report"
    write_report(out, _run("old"))
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o777 & ~umask
    out.chmod(0o750)
    write_report(out, _run("new"))
    assert stat.S_IMODE(out.stat().st_mode) == 0o750


def test_a_result_with_nan_and_inf_is_logged_not_a_crash(tmp_path):
    """A kernel's nan output in a fuzz result: the log keeps it as text (was ValueError)."""
    import json as _json

    from bridge.fileio import append_jsonl, read_jsonl

    log = tmp_path / "fuzz.jsonl"
    append_jsonl(log, {"kernel": float("nan"), "lean": [1.0, float("inf"), -float("inf")]})
    rows = read_jsonl(log).records
    assert rows == [{"kernel": "nan", "lean": [1.0, "inf", "-inf"]}]
    assert _json.loads(log.read_text().splitlines()[0])["kernel"] == "nan"
