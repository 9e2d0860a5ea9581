"""The leanmirror pytest plugin (entry point ``pytest11``: ``leanmirror``).

It registers three Hypothesis profiles the usual way (``settings.register_profile``) —
``dev`` (quick), ``ci`` (deterministic, the default for CI) and ``nightly`` (long) — and
adds options to run the generated mirrors with one of them::

    pytest mirrors/ --leanmirror-profile ci
    pytest mirrors/ --leanmirror-profile nightly --leanmirror-examples 20000

or, in ``pytest.ini`` / ``pyproject.toml``: ``leanmirror_profile = ci``. Profiles that a
project already registered under these names are left alone.

Generated test modules call :func:`check_settings` to get the ``CheckSettings`` that match
the loaded profile.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

#: The profiles this plugin registers, with their Hypothesis settings. ``ci`` is a quick,
#: deterministic gate (``pytest mirrors/`` in CI): few Hypothesis examples (each draws and
#: evaluates one example on its own) and the vectorized sweep (:data:`SWEEPS`) for breadth.
PROFILES: dict[str, dict[str, Any]] = {
    "dev": {"max_examples": 50, "deadline": None},
    "ci": {
        "max_examples": 10,
        "deadline": None,
        "derandomize": True,
        "print_blob": True,
        "database": None,
    },
    "nightly": {"max_examples": 5000, "deadline": None},
}
#: Draws of the vectorized sweep that follows the Hypothesis examples, per profile (other
#: profiles keep ``CheckSettings.sweep``).
SWEEPS: dict[str, int] = {"dev": 128, "ci": 256, "nightly": 4096}
_OPTION = "--leanmirror-profile"
_EXAMPLES_OPTION = "--leanmirror-examples"
_DATABASE_OPTION = "--leanmirror-database"
_INI = "leanmirror_profile"
#: Set while a pytest session with this plugin runs: the database directory to use.
_STATE: dict[str, Any] = {}


def register_profiles() -> None:
    """Register the ``dev``, ``ci`` and ``nightly`` profiles with Hypothesis.

    ``ci`` replaces Hypothesis' built-in profile of that name with a superset of it (the
    same derandomized, deadline-free, database-free settings, with ``max_examples=10``).
    The pytest plugin calls this while options are added, i.e. before ``conftest.py``
    files load, so a project registering its own profile of the same name wins.
    """
    from hypothesis import HealthCheck, settings

    for name, values in PROFILES.items():
        settings.register_profile(name, suppress_health_check=[HealthCheck.too_slow], **values)


def check_settings(**overrides: Any) -> Any:
    """``mirror.product.pipeline.CheckSettings`` matching the currently loaded Hypothesis profile.

    ``max_examples`` comes from the profile (after ``--leanmirror-examples``), the sweep
    size from :data:`SWEEPS` for the profile the plugin loaded; the example database is
    ``--leanmirror-database`` when given. ``overrides`` win over all of these.
    """
    from hypothesis import settings

    from mirror.product.pipeline import CheckSettings

    values: dict[str, Any] = {"max_examples": settings.default.max_examples}
    if _STATE.get("base") in SWEEPS:
        values["sweep"] = SWEEPS[_STATE["base"]]
    if _STATE.get("database") is not None:
        values["database"] = _STATE["database"]
    values.update(overrides)
    return CheckSettings(**values)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise pytest.UsageError(
            f"{_EXAMPLES_OPTION}: got {text!r}; expected a positive integer"
        ) from None
    if value <= 0:
        raise pytest.UsageError(f"{_EXAMPLES_OPTION}: got {value}; expected a positive integer")
    return value


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--leanmirror-profile``, ``--leanmirror-examples``, ``--leanmirror-database``.

    This is also where the profiles are registered: it runs before conftest files load.
    """
    register_profiles()
    group = parser.getgroup("leanmirror", "leanmirror generated mirrors")
    group.addoption(
        _OPTION,
        action="store",
        default=None,
        metavar="NAME",
        help="load the Hypothesis profile NAME before the tests run "
        f"(leanmirror registers {', '.join(PROFILES)}; any registered profile works)",
    )
    group.addoption(
        _EXAMPLES_OPTION,
        action="store",
        default=None,
        metavar="N",
        help="override max_examples of the loaded profile with N",
    )
    group.addoption(
        _DATABASE_OPTION,
        action="store",
        default=None,
        metavar="DIR",
        help="Hypothesis example database directory for the generated mirrors",
    )
    parser.addini(_INI, help="Hypothesis profile to load (as --leanmirror-profile)", default="")


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """Load the chosen profile (after Hypothesis' own plugin configured itself)."""
    from hypothesis import settings

    name = config.getoption(_OPTION) or (config.getini(_INI) or "").strip() or None
    examples_text = config.getoption(_EXAMPLES_OPTION)
    database = config.getoption(_DATABASE_OPTION)
    _STATE.clear()
    _STATE["database"] = Path(database) if database else None
    if name is None and examples_text is None:
        return
    if name is not None:
        try:
            settings.get_profile(name)
        except Exception:  # hypothesis.errors.InvalidArgument
            raise pytest.UsageError(
                f"{_OPTION}: got {name!r}; expected a registered Hypothesis profile "
                f"such as {', '.join(PROFILES)}"
            ) from None
    base = name or settings.get_current_profile_name()
    _STATE["profile"] = _STATE["base"] = base
    if examples_text is None:
        settings.load_profile(base)
        return
    examples = _positive_int(str(examples_text))
    derived = f"leanmirror-{base}-{examples}"
    settings.register_profile(derived, parent=settings.get_profile(base), max_examples=examples)
    settings.load_profile(derived)
    _STATE["profile"] = derived


def pytest_unconfigure(config: pytest.Config) -> None:
    """Forget the session's database option."""
    _STATE.clear()


def pytest_report_header(config: pytest.Config) -> str | None:
    """One header line naming the loaded profile (only when the plugin chose one)."""
    if "profile" not in _STATE:
        return None
    from hypothesis import settings

    return (
        f"leanmirror: hypothesis profile {_STATE['profile']!r} "
        f"(max_examples={settings.default.max_examples})"
    )


__all__ = ["PROFILES", "SWEEPS", "check_settings", "register_profiles"]
