"""The pytest plugin: Hypothesis profiles ci/dev/nightly and the leanmirror options."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from mirror.product.pytest_plugin import PROFILES, SWEEPS
from tests.product.conftest import REPO

#: Load the plugin explicitly unless the installed distribution's entry point does it.
_LOAD = (
    []
    if any(e.value == "mirror.product.pytest_plugin" for e in entry_points(group="pytest11"))
    else ["-p", "mirror.product.pytest_plugin"]
)

pytest_plugins = ["pytester"]

_PROBE = """
from hypothesis import settings

def test_probe():
    print("PROFILE", settings.get_current_profile_name(), settings.default.max_examples,
          settings.default.derandomize)
"""


@pytest.fixture
def probe(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    pytester.makepyfile(test_probe=_PROBE)

    def run(*args):
        result = pytester.runpytest_subprocess(*_LOAD, "-s", *args)
        return result

    return run


def _profile_line(result):
    line = next(l for l in result.outlines if "PROFILE " in l)
    _, name, examples, derandomize = line[line.index("PROFILE "):].split()
    return name, int(examples), derandomize == "True"


def test_ci_profile_is_loaded(probe):
    result = probe("--leanmirror-profile", "ci")
    result.assert_outcomes(passed=1)
    assert _profile_line(result) == ("ci", PROFILES["ci"]["max_examples"], True)
    assert any("leanmirror: hypothesis profile 'ci'" in l for l in result.outlines)


def test_examples_override(probe):
    result = probe("--leanmirror-profile", "nightly", "--leanmirror-examples", "7")
    result.assert_outcomes(passed=1)
    name, examples, _ = _profile_line(result)
    assert examples == 7 and "nightly" in name


def test_ini_option(probe, pytester):
    pytester.makeini("[pytest]\nleanmirror_profile = dev\n")
    result = probe()
    result.assert_outcomes(passed=1)
    assert _profile_line(result)[:2] == ("dev", 50)


def test_without_options_the_default_profile_stays(probe):
    from hypothesis._settings import is_in_ci

    result = probe()
    result.assert_outcomes(passed=1)
    # Hypothesis itself picks its "ci" profile on a CI machine; the plugin changes nothing
    assert _profile_line(result)[0] == ("ci" if is_in_ci() else "default")


def test_unknown_profile_is_a_usage_error(probe):
    result = probe("--leanmirror-profile", "weekly")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "weekly" in result.stderr.str() and "ci" in result.stderr.str()


def test_check_settings_follow_the_profile(pytester, monkeypatch, tmp_path):
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    pytester.makepyfile(
        test_settings="""
from mirror.product.pytest_plugin import check_settings

def test_it():
    s = check_settings()
    print("SETTINGS", s.max_examples, s.sweep, s.database)
"""
    )
    db = tmp_path / "db"
    result = pytester.runpytest_subprocess(
        *_LOAD, "-s", "--leanmirror-profile", "ci",
        "--leanmirror-examples", "11", "--leanmirror-database", str(db),
    )
    result.assert_outcomes(passed=1)
    line = next(l for l in result.outlines if "SETTINGS " in l)
    assert line[line.index("SETTINGS "):].split() == ["SETTINGS", "11", str(SWEEPS["ci"]), str(db)]


def test_project_conftest_may_redefine_a_profile(probe, pytester):
    pytester.makeconftest(
        "from hypothesis import settings\n"
        "settings.register_profile('nightly', max_examples=3)\n"
    )
    result = probe("--leanmirror-profile", "nightly")
    result.assert_outcomes(passed=1)
    assert _profile_line(result)[:2] == ("nightly", 3)
