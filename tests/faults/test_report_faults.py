"""``report``, ``show`` and ``bindings`` survive a binding that crashes, hangs or exits.

Each fault of :data:`tests.faults.projects.FAULTS` is in the binding of ``Flt.boom``: the
run finishes, the rows of that binding are ``error`` rows naming the cause, and every other
statement has its verdict."""

from __future__ import annotations

import pytest

from tests.faults.conftest import leanmirror, report_rows
from tests.faults.projects import FAULTY, UNTOUCHED, fault_params, make_project

#: The words of the cause each fault's rows must name.
CAUSES = {
    "exit": "exited with status 1",
    "segfault": "SIGSEGV",
    "c_loop": "hard time limit",
    "memory": "MemoryError",
    "exit_at_import": "exited with status 3",
    "loop_at_import": "hard time limit",
    "segfault_at_import": "SIGSEGV",
}

ARGS = ("--method", "scanner", "--examples", "20", "--statement-timeout", "3")


@pytest.mark.parametrize("fault", fault_params(sorted(CAUSES)))
def test_report_finishes_with_the_fault_as_error_rows(fault, tmp_path):
    project = make_project(tmp_path / "p", fault)
    out = tmp_path / "report"
    done = leanmirror("report", "--project", str(project), "--out", str(out), "--jobs", "2",
                      *ARGS)
    assert done.returncode == 1, done.stderr[-2000:]  # findings: error rows and a refutation
    rows = report_rows(out)
    for name in FAULTY:
        assert rows[name]["mirror_status"] == "error", rows[name]
        assert CAUSES[fault] in rows[name]["reason"], rows[name]["reason"]
    for name in UNTOUCHED:
        assert rows[name]["mirror_status"] in ("tested", "symbolic"), rows[name]


@pytest.mark.parametrize("fault", fault_params(["exit_at_import", "loop_at_import", "segfault_at_import"]))
def test_show_survives_a_module_that_ends_its_worker_at_import(fault, tmp_path):
    project = make_project(tmp_path / "p", fault)
    shown = leanmirror("show", "Flt.relu_nonneg", "--project", str(project),
                       "--method", "scanner", "--statement-timeout", "3")
    assert shown.returncode == 0, shown.stderr[-2000:]
    assert "# Flt.relu_nonneg" in shown.stdout
    assert "module faultpkg.bad was not imported: the worker" in shown.stdout


@pytest.mark.parametrize("fault", ["exit_at_import", "segfault_at_import"])
def test_bindings_lists_a_module_that_exits_at_import_as_one_error_line(fault, tmp_path):
    project = make_project(tmp_path / "p", fault)
    listed = leanmirror("bindings", "--project", str(project), "--method", "scanner")
    assert listed.returncode == 1, listed.stderr[-2000:]  # findings: one binding fails
    assert "ok     Flt.relu" in listed.stdout
    boom = [line for line in listed.stdout.splitlines() if "Flt.boom" in line]
    assert boom and boom[0].startswith("error"), listed.stdout
    assert any(line.startswith("error  module faultpkg.bad ended a worker")
               and CAUSES[fault] in line for line in listed.stdout.splitlines())


@pytest.mark.slow  # (moved to the slow job: the default run stays under 10 min)
def test_report_on_a_local_ray_instance_makes_a_segfault_an_error_row(tmp_path):
    import ray  # noqa: F401  (a test dependency: a missing one fails the test, never skips)
    project = make_project(tmp_path / "p", "segfault")
    out = tmp_path / "report"
    # the untouched rows must finish: a local Ray instance on a loaded 2-core machine needs
    # more than the 3 s the other fault tests allow (a segfault ends its worker at once anyway)
    done = leanmirror("report", "--project", str(project), "--out", str(out), "--ray", "local",
                      *ARGS[:-1], "30")
    assert done.returncode == 1, done.stderr[-2000:]
    rows = report_rows(out)
    for name in FAULTY:
        assert rows[name]["mirror_status"] == "error"
        assert "the Ray worker died" in rows[name]["reason"], rows[name]["reason"]
    for name in UNTOUCHED:
        assert rows[name]["mirror_status"] in ("tested", "symbolic"), rows[name]
    assert rows["Flt.false_square"]["mirror_status"] == "refuted"


def test_what_a_binding_prints_is_in_its_rows_truncated_with_the_truncation_stated(tmp_path):
    """A binding that prints (and does not die): its rows carry the worker's captured output,
    cut at the pool's limit with the cut stated; the report shows it; rows that print
    nothing carry none."""
    project = make_project(tmp_path / "p", "print")
    out = tmp_path / "report"
    done = leanmirror("report", "--project", str(project), "--out", str(out), "--jobs", "2",
                      *ARGS)
    assert done.returncode == 1, done.stderr[-2000:]  # the false theorem is refuted
    rows = report_rows(out)
    for name in FAULTY:
        assert rows[name]["mirror_status"] in ("tested", "symbolic"), rows[name]
    chatty = rows["Flt.boom.conformance"]["output"]
    assert chatty.startswith("chatty chatty"), chatty[:100]
    assert "[output truncated: the first 4096 of " in chatty and len(chatty) < 4300
    for name in UNTOUCHED:
        assert rows[name].get("output") is None, rows[name].get("output")
    assert "worker output" in (out / "report.html").read_text(encoding="utf-8")
    assert "Worker output" in (out / "report.md").read_text(encoding="utf-8")
