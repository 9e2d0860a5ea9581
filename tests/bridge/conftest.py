"""Shared paths for the bridge tests."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
PROJECTS = FIXTURES / "projects"
EXPORTS = FIXTURES / "export"


@pytest.fixture
def new_project() -> Path:
    return PROJECTS / "newsyntax"


@pytest.fixture
def old_project() -> Path:
    return PROJECTS / "oldsyntax"
