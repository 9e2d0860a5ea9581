"""A pytest plugin for mutation runs (``[tool.mutmut] pytest_add_cli_args`` loads it).

mutmut forks each mutant's test run from a process that has already imported (and, for the
parametrised tests, evaluated) the code under test. sympy memoises every ``Function.eval``
and the runtime memoises a few tables with ``functools.lru_cache``; a result computed there
by the unmutated code would be replayed under the mutant and hide it, and a result cached by
one test (or by the collection of a parametrised one) would hide from mutmut's coverage map
the tests that repeat it. Every test therefore starts with empty caches.
"""

from __future__ import annotations

import sys

from sympy.core.cache import clear_cache


def clear_caches() -> None:
    """Empty sympy's cache and every ``lru_cache`` of a loaded ``mirror`` module."""
    clear_cache()
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "mirror" or name.startswith("mirror.")):
            continue
        for value in list(vars(module).values()):
            cache_clear = getattr(value, "cache_clear", None)
            if callable(cache_clear) and hasattr(value, "cache_info"):
                cache_clear()


def pytest_sessionstart(session) -> None:
    clear_caches()


def pytest_runtest_setup(item) -> None:
    clear_caches()
