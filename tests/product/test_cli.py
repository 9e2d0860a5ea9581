"""The leanmirror command line: help texts and one-line errors with exit status 2."""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import tomllib
from importlib import metadata
from types import SimpleNamespace

import pytest

from mirror.product import cli
from tests.product.conftest import PYTHON, REPO, subprocess_env

SUBCOMMANDS = {
    "extract": ["--project", "--method", "--out", "--lock"],
    "status": ["--project", "--lock"],
    "show": ["NAME", "--project"],
    "report": ["--project", "--out", "--examples", "--seed"],
    "generate": ["--project", "--out", "--check"],
    "fuzz": ["--select", "--examples", "--time", "--jobs", "--log", "--ray"],
    "models": [],
    "experiment": ["fractional"],
}


def _error_line(capsys) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("leanmirror: error: ")
    assert "; " in lines[0]  # problem; fix
    assert "Traceback" not in err
    return lines[0]


def test_top_level_help_lists_every_command_and_workflow(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for name in SUBCOMMANDS:
        assert name in out
    assert "leanmirror status; leanmirror generate" in out
    assert "leanmirror report" in out and "leanmirror fuzz" in out


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return action.choices


@pytest.mark.parametrize("command", sorted(SUBCOMMANDS))
def test_subcommand_declares_its_options_each_with_our_help(command):
    sub = _subparsers(cli.build_parser())[command]
    actions = [a for a in sub._actions if not isinstance(a, argparse._HelpAction)]
    declared = {o for a in actions for o in a.option_strings} | {a.metavar for a in actions}
    if command == "experiment":
        declared |= set(_subparsers(sub))
    assert set(SUBCOMMANDS[command]) <= declared
    # every option, argument and sub-command carries a help text written for it
    helped = [c for a in actions for c in getattr(a, "_choices_actions", [a])]
    missing = [a.dest for a in helped if not (a.help and a.help.strip())]
    assert missing == []


@pytest.mark.parametrize(
    "argv, handler",
    [
        (["extract"], "_cmd_extract"), (["status"], "_cmd_status"),
        (["show", "Mirror.x"], "_cmd_show"), (["report"], "_cmd_report"),
        (["generate"], "_cmd_generate"), (["fuzz"], "_cmd_fuzz"),
        (["models"], "mirror.bundled.commands:cmd_models"),
        (["experiment", "fractional"], "mirror.bundled.commands:cmd_experiment"),
    ],
)
def test_each_command_line_reaches_its_handler(argv, handler):
    args = cli.build_parser().parse_args(argv)
    module, _, name = handler.rpartition(":")
    assert args.handler is getattr(importlib.import_module(module) if module else cli, name)


def test_bundled_commands_come_from_the_declared_entry_point():
    """``models``/``experiment`` are the bundled demo's: the generic command line reaches them
    only through the ``leanmirror.commands`` entry point ``pyproject.toml`` declares (after
    editing it, reinstall: ``pip install --no-deps -e .``)."""
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    group = declared["project"]["entry-points"][cli.COMMAND_GROUP]
    assert group == {"bundled": "mirror.bundled.commands:register"}
    installed = {e.name: e.value for e in metadata.entry_points(group=cli.COMMAND_GROUP)}
    assert installed == group, "the installed metadata is stale: pip install --no-deps -e ."


def test_a_package_registers_its_own_command(monkeypatch, capsys):
    def register(sub):
        sub.add_parser("hello", help="say hello").set_defaults(handler=lambda args: 0)

    entry = SimpleNamespace(name="demo", load=lambda: register)
    monkeypatch.setattr(cli.metadata, "entry_points",
                        lambda group: [entry] if group == cli.COMMAND_GROUP else [])
    parser = cli.build_parser()
    assert set(_subparsers(parser)) >= {"hello", "status"}
    assert "models" not in _subparsers(parser)
    assert cli.main(["hello"]) == 0


def test_experiment_fractional_help(capsys):
    with pytest.raises(SystemExit):
        cli.main(["experiment", "fractional", "--help"])
    out = capsys.readouterr().out
    for option in ("--out", "--seeds", "--steps", "--cifar"):
        assert option in out


@pytest.mark.parametrize(
    "argv",
    [
        ["status"],
        ["extract"],
        ["report"],
        ["generate"],
        ["fuzz"],
        ["show", "Foo.bar"],
    ],
)
def test_missing_project_is_one_line_exit_2(argv, tmp_path, capsys):
    code = cli.main([*argv, "--project", str(tmp_path / "nowhere")])
    assert code == 2
    line = _error_line(capsys)
    assert "nowhere" in line and "does not exist" in line and "lakefile.toml" in line


def test_directory_without_lakefile_is_rejected(tmp_path, capsys):
    assert cli.main(["generate", "--project", str(tmp_path)]) == 2
    assert "no lakefile.toml" in _error_line(capsys)


def test_missing_lock_is_one_line_exit_2(tmp_path, capsys):
    (tmp_path / "lakefile.toml").write_text('name = "p"\n')
    assert cli.main(["status", "--project", str(tmp_path)]) == 2
    line = _error_line(capsys)
    assert "no statement lock" in line and "leanmirror extract" in line


def test_broken_lock_is_one_line_exit_2(tmp_path, capsys):
    (tmp_path / "lakefile.toml").write_text('name = "p"\n')
    lock = tmp_path / "leanmirror.lock"
    lock.write_text("{ this is not a lock")
    assert cli.main(["status", "--project", str(tmp_path)]) == 2
    _error_line(capsys)


def test_interrupt_mid_generate_is_one_line_exit_2_and_leaves_no_partial_file(tmp_path, capsys, monkeypatch):
    """Ctrl-C after the first mirror file is in place: that file is complete, no other is."""
    project = REPO / "tests" / "fixtures" / "projects" / "planted"
    complete = tmp_path / "complete"
    assert cli.main(["generate", "--project", str(project), "--out", str(complete)]) == 0
    expected = {p.name: p.read_text(encoding="utf-8") for p in complete.iterdir()}
    assert len(expected) >= 2
    capsys.readouterr()

    real_replace, calls = os.replace, []

    def interrupted_second(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", interrupted_second)
    out = tmp_path / "m"
    assert cli.main(["generate", "--project", str(project), "--out", str(out)]) == 2
    line = _error_line(capsys)
    assert "interrupted" in line
    assert len(calls) == 2  # generate really ran and was stopped in its second write
    written = {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}
    assert len(written) == 1  # the first file and no temporary leftovers
    assert all(expected[name] == text for name, text in written.items())


def test_unreadable_path_is_one_line_exit_2(tmp_path, capsys, monkeypatch):
    (tmp_path / "lakefile.toml").write_text('name = "p"\n')
    from mirror.product import runner

    def unreadable(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(tmp_path / "lean" / "A.lean"))

    monkeypatch.setattr(runner, "generate_isolated", unreadable)  # what `generate` runs
    assert cli.main(["generate", "--project", str(tmp_path)]) == 2
    line = _error_line(capsys)
    assert "Permission denied" in line and "A.lean" in line


def test_bad_option_value_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["fuzz", "--examples", "-3"])
    assert exit_info.value.code == 2
    assert "expected a positive integer" in capsys.readouterr().err


def test_find_project_walks_upward(tmp_path, monkeypatch):
    (tmp_path / "lakefile.toml").write_text('name = "p"\n')
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert cli.find_project() == tmp_path.resolve()


def test_find_project_outside_a_lake_project_is_an_error_naming_project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(cli.ProjectError, match="--project"):
        cli.find_project()


def test_console_entry_runs_as_module():
    proc = subprocess.run(
        [PYTHON, "-m", "mirror.product.cli", "status", "--project", "/nonexistent/project"],
        capture_output=True, text=True, env=subprocess_env(), timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("leanmirror: error: ")


@pytest.fixture
def planted(tmp_path):
    from tests.product.test_fuzz import PLANTED_LEAN

    project = tmp_path / "planted"
    (project / "lean").mkdir(parents=True)
    (project / "lakefile.toml").write_text('name = "planted"\nsrcDir = "lean"\n')
    (project / "lean" / "Planted.lean").write_text(PLANTED_LEAN, encoding="utf-8")
    return project


def test_report_end_to_end(planted, tmp_path, capsys):
    import json

    out = tmp_path / "report"
    code = cli.main(["report", "--project", str(planted), "--out", str(out), "--examples", "30", "--method", "scanner"])
    assert code == 1  # a refuted row: findings
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert doc["meta"]["method"] == "scanner" and doc["meta"]["kernel"] is False
    assert doc["summary"]["totals"]["statements"] == 4
    by_name = {s["name"]: s for s in doc["statements"]}
    assert by_name["Planted.a_false_square"]["mirror_status"] == "refuted"
    assert by_name["Planted.a_false_square"]["lean_status"] == "stated"
    assert "No Lean kernel ran" in (out / "report.md").read_text(encoding="utf-8")
    assert sorted(p.name for p in out.iterdir()) == ["report.html", "report.json", "report.md"]


def test_extract_then_status_detects_an_edit(planted, capsys):
    assert cli.main(["extract", "--project", str(planted), "--method", "scanner"]) == 0
    assert (planted / "leanmirror.lock").is_file()
    assert (planted / ".leanmirror" / "declarations.json").is_file()
    assert not [p for p in planted.rglob("*.tmp")]
    assert cli.main(["status", "--project", str(planted), "--method", "scanner"]) == 0
    lean = planted / "lean" / "Planted.lean"
    lean.write_text(lean.read_text().replace("0 ≤ x ^ 2", "0 ≤ x ^ 4"), encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["status", "--project", str(planted), "--method", "scanner"]) == 1
    out = capsys.readouterr().out
    assert "changed" in out and "Planted.b_sq_nonneg" in out


def test_show_prints_the_statement(planted, capsys):
    assert cli.main(["show", "a_false_square", "--project", str(planted)]) == 0
    out = capsys.readouterr().out
    assert "Planted.a_false_square" in out and "x ≤ x ^ 2" in out


def test_show_unknown_name_is_one_line(planted, capsys):
    assert cli.main(["show", "no_such_theorem", "--project", str(planted)]) == 2
    assert "no_such_theorem" in _error_line(capsys)


def test_experiment_fractional_runs_and_summarises(tmp_path, capsys):
    import sklearn  # noqa: F401 - a test dependency: missing, the run fails here
    import torch  # noqa: F401
    out = tmp_path / "exp"
    assert cli.main(["experiment", "fractional", "--out", str(out), "--seeds", "1",
                     "--steps", "4"]) == 0
    printed = capsys.readouterr().out
    for kind in ("linear", "symmetric", "accretive"):
        assert kind in printed
    assert (out / "results.json").is_file()


def test_experiment_refuses_a_missing_cifar_directory(tmp_path, capsys):
    code = cli.main(["experiment", "fractional", "--out", str(tmp_path / "x"), "--cifar",
                     str(tmp_path / "nope")])
    assert code == 2
    assert "--cifar" in capsys.readouterr().err


def test_status_names_exactly_the_edited_statement_of_the_bundled_project(tmp_path, capsys):
    import shutil

    project = tmp_path / "bundled"
    shutil.copytree(REPO / "lean", project / "lean")
    for name in ("lakefile.toml", "lean-toolchain", "lake-manifest.json"):
        shutil.copy(REPO / name, project / name)
    assert cli.main(["extract", "--project", str(project), "--method", "scanner"]) == 0
    source = project / "lean" / "Mirror" / "Resolvent.lean"
    text = source.read_text(encoding="utf-8")
    edited = text.replace("head d 0 1 0 q k u θ i j = if j ≤ i then",
                          "head d 0 1 0 q k u θ i j = if j < i + 1 then", 1)
    assert edited != text
    source.write_text(edited, encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["status", "--project", str(project), "--method", "scanner"]) == 1
    lines = [line for line in capsys.readouterr().out.splitlines() if "Mirror." in line]
    assert len(lines) == 1 and "Mirror.Resolvent.corner_linear" in lines[0]
