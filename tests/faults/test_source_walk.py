"""The source walk ends: symlink loops, FIFOs, devices, huge files; an unterminated comment or
string ends the file, as for Lean."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.faults.conftest import child_env

LAKEFILE = 'name = "p"\nsrcDir = "lean"\n\n[[lean_lib]]\nname = "P"\n'
GOOD = "namespace P\ntheorem good (x : Nat) : x + 0 = x := by simp\nend P\n"
#: No walk may take longer (seconds) or more memory (bytes) than this.
LIMIT, MEMORY = 60, 2 * 1024**3

SCAN = textwrap.dedent("""
    import json, sys
    from bridge.scanner import scan_project
    found = scan_project(sys.argv[1])
    print(json.dumps({"names": [d.name for d in found.declarations],
                      "modules": found.meta["modules"],
                      "diagnostics": [str(d) for d in found.diagnostics]}))
    """)


def _project(root: Path) -> Path:
    (root / "lean" / "P").mkdir(parents=True)
    (root / "lakefile.toml").write_text(LAKEFILE, encoding="utf-8")
    (root / "lean" / "P" / "Good.lean").write_text(GOOD, encoding="utf-8")
    return root


def _scan(project: Path) -> dict:
    """The scanner on ``project`` in a child bounded in time and memory (a hang fails)."""
    def cap() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    try:
        done = subprocess.run([sys.executable, "-c", SCAN, str(project)], env=child_env(),
                              capture_output=True, text=True, timeout=LIMIT, preexec_fn=cap)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the scan of {project} did not end within {LIMIT} s")
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_a_symlink_loop_is_followed_once(tmp_path):
    project = _project(tmp_path / "p")
    os.symlink(".", project / "lean" / "P" / "self")
    found = _scan(project)
    assert found["modules"] == ["P.Good"] and found["names"] == ["P.good"]


def test_two_symlink_loops_end(tmp_path):
    project = _project(tmp_path / "p")
    os.symlink(".", project / "lean" / "P" / "a")
    os.symlink("..", project / "lean" / "P" / "b")
    found = _scan(project)
    assert found["modules"] == ["P.Good"]


def test_a_fifo_is_skipped_with_a_diagnostic(tmp_path):
    project = _project(tmp_path / "p")
    os.mkfifo(project / "lean" / "P" / "X.lean")
    found = _scan(project)
    assert found["names"] == ["P.good"]
    assert any("X.lean" in d and "a FIFO is not a source file" in d
               for d in found["diagnostics"]), found["diagnostics"]


def test_a_link_to_a_device_is_skipped_with_a_diagnostic(tmp_path):
    project = _project(tmp_path / "p")
    os.symlink("/dev/zero", project / "lean" / "P" / "Zero.lean")
    found = _scan(project)
    assert found["names"] == ["P.good"]
    assert any("Zero.lean" in d and "a character device" in d for d in found["diagnostics"])


def test_a_file_over_the_size_limit_is_skipped_with_a_diagnostic(tmp_path):
    from bridge.fileio import MAX_SOURCE_BYTES

    project = _project(tmp_path / "p")
    with open(project / "lean" / "P" / "Huge.lean", "wb") as handle:
        handle.truncate(MAX_SOURCE_BYTES + 1)  # sparse: no disk used
    found = _scan(project)
    assert found["names"] == ["P.good"]
    assert any("Huge.lean" in d and "over the limit" in d for d in found["diagnostics"])


@pytest.mark.parametrize("opening", ["/- an unterminated comment", 'def s : String := "open'])
def test_an_unterminated_comment_or_string_ends_the_file(opening, tmp_path):
    project = _project(tmp_path / "p")
    (project / "lean" / "P" / "Open.lean").write_text(
        "theorem shown (x : Nat) : x = x := rfl\n" + opening + "\n"
        "theorem hidden (x : Nat) : x + 1 = 1 + x := by omega\n", encoding="utf-8")
    found = _scan(project)
    assert "shown" in found["names"] and "hidden" not in found["names"], found["names"]
    assert any("unterminated" in d and "rest of the file" in d for d in found["diagnostics"])
