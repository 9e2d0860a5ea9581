"""Shared fixtures of the product-surface tests: small, hand-made runs and projects."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from mirror.result import StatementResult

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
