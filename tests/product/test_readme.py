"""The README, run literally.

Every ``sh`` block of the five-minute section is run, in order, in a fresh directory, exactly
as written (with this checkout's ``leanmirror`` first on PATH); the run must end with a report
whose refuted row's replay command reproduces its counterexample, and ``report`` must exit 1.
Every other command in the README is checked against what it names: a ``leanmirror`` command
line must parse with the real argument parser, a ``make`` target must exist in the Makefile, a
``pip install -e '.[extra]'`` extra must exist in ``pyproject.toml``, and the pytest option
must be the plugin's.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from mirror.product.cli import build_parser
from tests.product.conftest import REPO

README = REPO / "README.md"
FIVE_MINUTES = "## Mirror your own project in five minutes"


def blocks(text: str) -> list[tuple[str, str, str]]:
    """``(section heading, info string, body)`` of every fenced block, in order."""
    out, section, fence, info, body = [], "", None, "", []
    for line in text.splitlines():
        if fence is None:
            if line.startswith("## "):
                section = line
            if line.startswith("```"):
                fence, info, body = line[:len(line) - len(line.lstrip("`"))], line.strip("`").strip(), []
        elif line.startswith(fence) and not line.strip("`"):
            out.append((section, info, "\n".join(body) + "\n"))
            fence = None
        else:
            body.append(line)
    return out


def commands(body: str) -> list[list[str]]:
    """The command lines of a shell block (continuations joined, comments and heredoc
    bodies left out), split into words."""
    lines, joined, heredoc = [], "", None
    for raw in body.splitlines():
        if heredoc is not None:
            if raw.strip() == heredoc:
                heredoc = None
            continue
        line = raw.split(" #")[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if line.endswith("\\"):
            joined += line[:-1] + " "
            continue
        line, joined = joined + line, ""
        if "<<'" in line:
            heredoc = line.split("<<'", 1)[1].split("'", 1)[0]
            line = line.split("<<'", 1)[0]
        for part in line.replace("&&", ";").split(";"):
            if part.strip():
                lines.append(shlex.split(part))
    return lines


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join((str(Path(sys.executable).parent), env.get("PATH", "")))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    return env


def test_the_readme_blocks_are_found():
    found = blocks(README.read_text(encoding="utf-8"))
    five = [b for b in found if b[0] == FIVE_MINUTES and b[1] == "sh"]
    assert len(five) >= 4
    assert any("leanmirror extract" in body for _, _, body in five)  # status needs the lock


def test_the_five_minute_path_run_literally_ends_with_a_reproducible_refutation(tmp_path):
    five = [body for section, info, body in blocks(README.read_text(encoding="utf-8"))
            if section == FIVE_MINUTES and info == "sh"]
    cwd, statuses = tmp_path, []
    for body in five:
        # each block continues in the directory the previous one left (the first makes it)
        script = body + '\nstatus=$?; pwd > "$LEANMIRROR_README_PWD"; exit $status\n'
        marker = tmp_path / ".pwd"
        proc = subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True,
                              env={**_env(), "LEANMIRROR_README_PWD": str(marker)}, timeout=600)
        assert "Traceback" not in proc.stderr, proc.stderr
        assert "leanmirror: error:" not in proc.stderr, proc.stderr
        statuses.append((body, proc))
        cwd = Path(marker.read_text().strip())
    report_runs = [p for body, p in statuses if "leanmirror report" in body]
    assert report_runs and report_runs[0].returncode == 1  # refuted rows: findings
    doc = json.loads((cwd / "report" / "report.json").read_text(encoding="utf-8"))
    refuted = [s for s in doc["statements"] if s["mirror_status"] == "refuted"]
    assert {"Kernels.softplus_le", "Kernels.mean.conformance",
            "Kernels.softplus.conformance"} <= {s["name"] for s in refuted}
    for row in refuted:
        proc = subprocess.run(shlex.split(row["replay"]), cwd=cwd, capture_output=True,
                              text=True, env=_env(), timeout=300)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert proc.stdout.strip().splitlines()[-1].startswith(f"verdict: refuted: {row['name']}")
        inputs = json.loads(shlex.split(row["replay"])[-1])
        assert all(f"{name} = " in proc.stdout for name in inputs)
    assert statuses[-1][1].returncode == 0  # the last block ends with `leanmirror status`
    assert "up to date" in statuses[-1][1].stdout


def _make_targets() -> set[str]:
    targets = set()
    for line in (REPO / "Makefile").read_text(encoding="utf-8").splitlines():
        if line and not line[0].isspace() and ":" in line and not line.startswith((".", "#")):
            targets.update(line.split(":", 1)[0].split())
    return targets


def _check_command(words: list[str]) -> None:
    program = words[0]
    if program == "leanmirror":
        try:
            build_parser().parse_args(words[1:])
        except SystemExit as exc:
            pytest.fail(f"README command does not parse: {shlex.join(words)} (exit {exc.code})")
    elif program == "make":
        assert set(words[1:]) <= _make_targets(), words
    elif program == "pip":
        extras = set(tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
                     ["optional-dependencies"])
        for word in words:
            if word.startswith(".[") and word.endswith("]"):
                assert set(word[2:-1].split(",")) <= extras, word
    elif program == "pytest":
        plugin = (REPO / "mirror" / "product" / "pytest_plugin.py").read_text(encoding="utf-8")
        for word in words:
            if word.startswith("--"):
                assert f'"{word}"' in plugin, word


def test_every_other_readme_command_names_what_exists():
    checked = 0
    for section, info, body in blocks(README.read_text(encoding="utf-8")):
        if info != "sh" or section == FIVE_MINUTES:
            continue
        for words in commands(body):
            _check_command(words)
            checked += 1
    assert checked >= 12


def test_the_command_checker_catches_a_stale_flag():
    with pytest.raises(pytest.fail.Exception):
        _check_command(["leanmirror", "report", "--no-such-flag"])
    with pytest.raises(AssertionError):
        _check_command(["make", "no-such-target"])
