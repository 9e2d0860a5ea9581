"""Shared helpers of the benchmarks: best-of and interleaved best-of timing, one thread count for NumPy's
BLAS and torch, the BLAS kernel in use, and flash-linear-attention's naive reference.

Timings are wall-clock minima over rounds in which every contender runs once, in turn, so a
burst of load on a shared machine hits all of them alike; the ratios are what to read.
"""

from __future__ import annotations

import contextlib
import importlib.util
import time
from pathlib import Path
from typing import Callable, Iterator, TypeVar

Result = TypeVar("Result")


def best_of(run: Callable[[], Result], repeats: int, warm: bool = False) -> tuple[float, Result]:
    """Best wall time (seconds) of ``repeats`` calls of ``run`` (at least one), and the last
    result; with ``warm``, one untimed call first (lazy imports, allocator)."""
    if warm:
        run()
    best = float("inf")
    for _ in range(max(1, repeats)):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def race(contenders: dict[str, Callable[[], object]], rounds: int,
         warm: bool = True) -> dict[str, float]:
    """Best wall time (seconds) of each contender over ``rounds`` interleaved rounds.

    With ``warm``, every contender first runs once untimed (lazy imports, allocator).
    """
    for run in contenders.values() if warm else ():
        run()
    best = {name: float("inf") for name in contenders}
    for _ in range(rounds):
        for name, run in contenders.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


@contextlib.contextmanager
def threads(count: int) -> Iterator[str]:
    """Limit NumPy's BLAS (threadpoolctl) and torch to ``count`` threads; yields a summary."""
    from threadpoolctl import threadpool_info, threadpool_limits

    import torch

    previous = torch.get_num_threads()
    with threadpool_limits(limits=count):
        torch.set_num_threads(count)
        try:
            yield _describe(threadpool_info(), torch.get_num_threads())
        finally:
            torch.set_num_threads(previous)


def _describe(info: list[dict], torch_threads: int) -> str:
    """One line naming the BLAS kernels in use and the thread counts."""
    parts = []
    for pool in info:
        if pool.get("user_api") == "blas":
            arch = pool.get("architecture") or "?"
            parts.append(f"{pool.get('internal_api')} {pool.get('version')} ({arch}, "
                         f"{pool.get('num_threads')} thread(s))")
    blas = "; ".join(parts) or "no BLAS pool found"
    return f"numpy BLAS: {blas}; torch threads: {torch_threads}"


def fla_naive():
    """flash-linear-attention's naive gated-delta reference, loaded by path (never triton).

    Returns the module, or ``None`` when ``fla`` (or ``einops``, which it imports) is missing.
    """
    spec = importlib.util.find_spec("fla")  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "ops" / "gated_delta_rule" / "naive.py"
    if not path.is_file() or importlib.util.find_spec("einops") is None:
        return None
    loader = importlib.util.spec_from_file_location("_fla_gated_delta_naive", path)
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    return module


def fla_chunk_runner(naive, alpha, beta, q, k, v, chunk: int) -> Callable[[], object]:
    """A call of ``naive_chunk_gated_delta_rule`` on our single-head problem.

    fla takes ``[B, T, H, K]`` tensors, the log-decay ``g = log alpha`` and scales ``q`` (here
    by 1, as our rule has no scale); it computes in float32 whatever it is given.
    """
    import numpy as np
    import torch

    def tensor(x: np.ndarray, dims: int) -> torch.Tensor:
        t = torch.from_numpy(np.ascontiguousarray(x))
        return t.reshape((1,) + t.shape[:1] + (1,) + t.shape[1:]) if dims else t[None, :, None]

    tq, tk, tv = tensor(q, 2), tensor(k, 2), tensor(v, 2)
    tg, tb = tensor(np.log(alpha), 0), tensor(beta, 0)

    def run():
        with torch.no_grad():
            out, _ = naive.naive_chunk_gated_delta_rule(tq, tk, tv, tg, tb, chunk_size=chunk,
                                                        scale=1.0)
        return out[0, :, 0].double().numpy()

    return run
