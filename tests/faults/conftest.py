"""Fixtures of the fault-injection suite: the CLI in a child process, bounded in time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
#: No fault may make a command run longer than this (seconds); past it the test fails.
COMMAND_LIMIT = 120


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    return env


def leanmirror(*args: str, cwd: Path | None = None, limit: float = COMMAND_LIMIT,
               memory: int | None = None) -> subprocess.CompletedProcess:
    """``leanmirror ARGS`` in a child process; a run past ``limit`` seconds fails the test
    (the child and its workers are killed). ``memory``: an address-space cap in bytes."""
    def cap() -> None:
        os.setsid()
        if memory is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    proc = subprocess.Popen([PYTHON, "-m", "mirror.product.cli", *args], cwd=cwd or REPO,
                            env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=cap)
    try:
        out, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.communicate()
        pytest.fail(f"leanmirror {' '.join(args)} did not finish within {limit} s")
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def report_rows(out: Path) -> dict[str, dict]:
    """``name → row`` of the report.json in ``out``."""
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return {row["name"]: row for row in data["statements"]}
