"""The worker pool: a task that kills, hangs or floods its worker is that task's outcome."""

from __future__ import annotations

import pytest

from mirror.product.workers import LocalPool, WorkerError


def _all(pool: LocalPool) -> dict:
    outcomes = {}
    while (outcome := pool.next()) is not None:
        outcomes[outcome.key] = outcome
    return outcomes


def test_each_death_is_the_outcome_of_its_task_and_the_pool_goes_on():
    with LocalPool(2, memory_limit=2 * 1024**3, output_limit=100) as pool:
        pool.submit("exit", "os:_exit", (1,))
        pool.submit("segfault", "ctypes:string_at", (0,))
        pool.submit("c loop", "builtins:sum", (range(10**12),), timeout=2)
        pool.submit("memory", "builtins:bytearray", (3 * 1024**3,))
        pool.submit("chatty", "builtins:print", ("x" * 1000,))
        pool.submit("raises", "math:sqrt", (-1,))
        pool.submit("fine", "math:sqrt", (16,))
        outcomes = _all(pool)
    assert outcomes["exit"].death == "the worker exited with status 1"
    assert outcomes["segfault"].death == "the worker was killed by SIGSEGV"
    assert outcomes["c loop"].death == "the worker was killed after the hard time limit of 2 s"
    assert outcomes["memory"].error.startswith("MemoryError: the worker's memory limit (2048 MiB)")
    assert outcomes["chatty"].ok and outcomes["chatty"].output.startswith("x" * 100)
    assert outcomes["chatty"].output.endswith(
        "[output truncated: the first 100 of 1001 bytes are shown]")
    assert outcomes["raises"].error == "ValueError: math domain error"
    assert outcomes["fine"].ok and outcomes["fine"].value == 4.0


def test_the_hard_limit_is_per_task_not_per_worker():
    with LocalPool(1) as pool:
        pool.submit("first", "time:sleep", (1.5,), timeout=3)
        pool.submit("second", "time:sleep", (1.5,), timeout=3)
        outcomes = _all(pool)
    assert outcomes["first"].ok and outcomes["second"].ok


@pytest.mark.parametrize("jobs", [0, -1, True, 1.5])
def test_bad_job_counts_name_the_argument(jobs):
    with pytest.raises(WorkerError, match=r"jobs: got .*expected a positive integer"):
        LocalPool(jobs)


@pytest.mark.slow  # (moved to the slow job: the default run stays under 10 min)
def test_the_ray_pool_has_the_same_interface_and_limits():
    import ray  # noqa: F401  (a test dependency: a missing one fails the test, never skips)
    from mirror.product.workers import RayPool

    pool = RayPool("local", 2)
    try:
        pool.submit("fine", "math:sqrt", (16,))
        pool.submit("raises", "math:sqrt", (-1,))
        pool.submit("hangs", "time:sleep", (600,), timeout=3)
        outcomes = _all(pool)
    finally:
        pool.close()
    assert outcomes["fine"].ok and outcomes["fine"].value == 4.0
    assert "math domain error" in outcomes["raises"].error
    assert "hard time limit of 3 s" in outcomes["hangs"].death
