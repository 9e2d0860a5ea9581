"""One read per command: a command reads its Lake project once and passes it on.

The reads are counted where the lakefile is parsed (every read of a project goes through
:func:`bridge.project.read_project`, which parses ``lakefile.toml``), for the commands that
follow the project path: ``report``, ``status`` and ``bindings``, with the source scanner and
with a toolchain whose build fails (the exporter path scans the modules that did not build).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import bridge.project
from bridge import extraction
from bridge.toolchain import BuildError, BuildResult
from mirror.product import cli

MODULE = "Tiny.Basic"


@pytest.fixture
def tiny(tmp_path) -> Path:
    """A one-file Lake project with one theorem, its statement lock written."""
    root = tmp_path / "tiny"
    (root / "Tiny").mkdir(parents=True)
    (root / "lakefile.toml").write_text('name = "tiny"\n\n[[lean_lib]]\nname = "Tiny"\n')
    (root / "Tiny" / "Basic.lean").write_text(textwrap.dedent("""\
        import Mathlib

        theorem add_zero' (n : ℕ) : n + 0 = n := by simp
        """))
    assert cli.main(["extract", "--project", str(root), "--method", "scanner"]) == 0
    return root


class FailingBuild:
    """A toolchain whose ``lake build`` fails in every module: no export, every module scanned."""

    def build(self, project, timeout):
        return BuildResult(False, [BuildError("Tiny/Basic.lean", 1, 1, "boom", MODULE)])


@pytest.fixture
def reads(monkeypatch) -> list[Path]:
    """The lakefiles parsed from now on (one entry per read of a project)."""
    seen: list[Path] = []
    original = bridge.project._read_lakefile_toml

    def counting(root, file):
        seen.append(Path(root))
        return original(root, file)

    monkeypatch.setattr(bridge.project, "_read_lakefile_toml", counting)
    return seen


#: Commands whose project is read (and bindings imported) in worker processes
#: (mirror.product.runner), never in the parent.
IN_WORKERS = frozenset({"report", "bindings"})

COMMANDS = {
    "report": lambda tmp: ["report", "--out", str(tmp / "report"), "--examples", "5"],
    "status": lambda tmp: ["status"],
    "bindings": lambda tmp: ["bindings"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("method", ["scanner", "auto"])
def test_a_command_reads_its_project_once(command, method, tiny, tmp_path, reads, monkeypatch,
                                           capsys):
    if method == "auto":
        monkeypatch.setattr(extraction.Toolchain, "find", classmethod(lambda cls: FailingBuild()))
    argv = COMMANDS[command](tmp_path) + ["--project", str(tiny), "--method", method]
    assert cli.main(argv) in (cli.EXIT_OK, cli.EXIT_FINDINGS), capsys.readouterr().err
    if command in IN_WORKERS:  # the parent never reads it: each worker reads it once
        assert reads == [], f"{command} --method {method} read the project in the parent"
        return
    assert reads == [tiny], f"{command} --method {method} read the project {len(reads)} times"
