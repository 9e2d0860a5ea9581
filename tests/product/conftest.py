"""Shared fixtures of the product-surface tests: small, hand-made runs and projects."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from mirror.judge.result import StatementResult

REPO = Path(__file__).resolve().parents[2]


def subprocess_env() -> dict[str, str]:
    """The environment for child Pythons: the repository importable, no user site noise."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    return env


PYTHON = sys.executable


def sample_results() -> list[StatementResult]:
    """A run with every mirror status, two modules, hostile statement text."""
    return [
        StatementResult(
            "Mirror.Ops.exp_pos", "Mirror.Ops", "theorem", "unchecked", "tested",
            examples=200, max_error=1e-15, tolerance=1e-9,
            statement="theorem exp_pos (x : ℝ) : 0 < Real.exp x",
            location="lean/Mirror/Ops.lean:12:1",
            code="def prop_exp_pos(rt, x):\n    return rt.exp(x) > 0\n",
        ),
        StatementResult(
            "Mirror.Ops.bad", "Mirror.Ops", "theorem", "unchecked", "refuted",
            examples=3, counterexample={"x": -1.5, "n": 3},
            statement="x < x <script>alert('pwned')</script> ``` | # <b>",
            location="lean/Mirror/Ops.lean:20:1",
        ),
        StatementResult(
            "Mirror.Res.unb", "Mirror.Res", "theorem", "stated", "unbound",
            reason="no implementation bound for Mirror.Res.resolvent",
        ),
        StatementResult(
            "Mirror.Res.det", "Mirror.Res", "theorem", "unchecked", "untranslatable",
            reason="construct Matrix.det is not in the translation table",
        ),
        StatementResult("Mirror.Res.helper", "Mirror.Res", "def", "unchecked", None),
        StatementResult(
            "Mirror.Res.sym", "Mirror.Res", "theorem", "unchecked", "symbolic", method="simplify"
        ),
        StatementResult(
            "Mirror.Res.fuzzy", "Mirror.Res", "theorem", "sorry", "inconclusive",
            examples=50, max_error=float("inf"), tolerance=1e-6,
        ),
    ]


def scanner_meta() -> dict:
    return {
        "tool": "leanmirror",
        "version": "0.1.0",
        "method": "scanner",
        "kernel": False,
        "project": "/tmp/project",
        "lean_toolchain": "leanprover/lean4:v4.34.0",
        "mathlib_rev": "v4.34.0",
        "generated_at": "2025-01-01T00:00:00+00:00",
    }


@pytest.fixture
def results() -> list[StatementResult]:
    return sample_results()


@pytest.fixture
def meta() -> dict:
    return scanner_meta()


class DiskTrace:
    """Records, in order, the calls that decide what survives a power loss.

    ``os.write`` and ``os.fsync`` are recorded by the path their descriptor names (Linux
    ``/proc/self/fd``), ``os.rename``/``os.replace`` by source and destination. A file's
    content is *durable* when it was ``fsync``-ed after its last recorded write (or, when it
    was renamed into place, ``fsync``-ed under its temporary name before the rename) and
    its directory was ``fsync``-ed after it got its name. Writes through Python file objects
    are not recorded, so for files written that way only the rename rule applies.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.events: list[tuple[str, str, str]] = []
        real = {name: getattr(os, name) for name in ("write", "fsync", "rename", "replace")}

        def named(fd: int) -> str:
            return os.path.realpath(f"/proc/self/fd/{fd}")

        def write(fd, data):
            self.events.append(("write", named(fd), ""))
            return real["write"](fd, data)

        def fsync(fd):
            self.events.append(("fsync", named(fd), ""))
            return real["fsync"](fd)

        def renamer(kind):
            def rename(src, dst, **kwargs):
                result = real[kind](src, dst, **kwargs)
                self.events.append(("rename", os.path.realpath(src), os.path.realpath(dst)))
                return result

            return rename

        monkeypatch.setattr(os, "write", write)
        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "rename", renamer("rename"))
        monkeypatch.setattr(os, "replace", renamer("replace"))

    def durable(self, path: str | os.PathLike[str], before: int | None = None) -> bool:
        """Whether ``path``'s content is on disk after the first ``before`` events."""
        events = self.events[:before]
        target = os.path.realpath(path)
        parent = os.path.dirname(target)
        renames = [i for i, e in enumerate(events) if e[0] == "rename" and e[2] == target]
        if renames:
            last = renames[-1]
            source = events[last][1]
            synced = any(e[:2] == ("fsync", source) for e in events[:last])
            named = any(e[:2] == ("fsync", parent) for e in events[last + 1:])
            return synced and named
        writes = [i for i, e in enumerate(events) if e[:2] == ("write", target)]
        if not writes:
            return False
        return any(e[:2] == ("fsync", target) for e in events[writes[-1] + 1:])


@pytest.fixture
def disk_trace(monkeypatch) -> DiskTrace:
    if not os.path.isdir("/proc/self/fd"):
        pytest.fail("the durability tests need Linux /proc/self/fd to name descriptors")
    return DiskTrace(monkeypatch)
