"""Shared paths and loaders for the corpus tests (ground truth from code nobody here wrote)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
MATHLIB = REPO / "tests" / "fixtures" / "mathlib"
#: The Mathlib oracle's Lake projects: the files tuned on, then one project per later round.
MATHLIB_PROJECTS = [MATHLIB] + sorted(p for p in MATHLIB.glob("round-*") if (p / "lakefile.toml").is_file())
#: The proved competition statements (Compfiles).
COMPETITION = REPO / "tests" / "fixtures" / "competition"


def load_tool(name: str) -> ModuleType:
    """Import ``tools/<name>.py`` (the tools are scripts, not a package)."""
    key = f"leanmirror_tools_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, REPO / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def coverage_tool() -> ModuleType:
    return load_tool("coverage")


@pytest.fixture(scope="session")
def mutants_tool() -> ModuleType:
    return load_tool("mutants")
