"""Benchmarks of Op Spec kernels, measured side by side in one process, ratios printed.

1. Chunked (WY) vs recurrent gated DeltaNet, T = 2048, Dk = Dv = 64, chunk 64 (float64).
2. Our causal GQA vs torch's scaled_dot_product_attention (float64, CPU),
   S = L = 512, Hkv = 2, G = 4, D = 64.

Run: ``.venv/bin/python bench/bench_ops.py [--repeats K]``. Prints best-of-K wall times and
ratios; nothing is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from typing import Callable

import numpy as np

from mirror.impl.ops import causal_gqa, chunk_gated_delta_rule, gated_delta_rule, l2norm


def _best_of(fn: Callable[[], object], repeats: int) -> float:
    """Best wall time of ``repeats`` calls, after one warm-up call."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def bench_deltanet(repeats: int, t: int = 2048, dk: int = 64, dv: int = 64, chunk: int = 64) -> None:
    """Chunked vs recurrent gated delta rule on one head."""
    rng = np.random.default_rng(0)
    alpha = rng.uniform(0.9, 1.0, t)
    beta = rng.uniform(0.0, 1.0, t)
    q = rng.normal(size=(t, dk))
    k = l2norm(1e-6, rng.normal(size=(t, dk)))
    v = rng.normal(size=(t, dv))
    rec = _best_of(lambda: gated_delta_rule(alpha, beta, q, k, v), repeats)
    chk = _best_of(lambda: chunk_gated_delta_rule(alpha, beta, q, k, v, chunk), repeats)
    err = np.abs(chunk_gated_delta_rule(alpha, beta, q, k, v, chunk)
                 - gated_delta_rule(alpha, beta, q, k, v)).max()
    print(f"gated DeltaNet T={t} Dk={dk} Dv={dv} chunk={chunk} (float64, best of {repeats})")
    print(f"  recurrent : {rec * 1e3:9.2f} ms")
    print(f"  chunked WY: {chk * 1e3:9.2f} ms")
    print(f"  ratio recurrent / chunked = {rec / chk:.2f}x   (max |diff| = {err:.2e})")


def bench_attention(repeats: int, s: int = 512, hkv: int = 2, g: int = 4, d: int = 64) -> None:
    """Our causal GQA vs torch SDPA with GQA, float64."""
    rng = np.random.default_rng(1)
    q = rng.normal(size=(s, hkv, g, d))
    k = rng.normal(size=(s, hkv, d))
    v = rng.normal(size=(s, hkv, d))
    scale = d ** -0.5
    pos = np.arange(s)
    ours = _best_of(lambda: causal_gqa(scale, pos, q, k, v), repeats)
    print(f"causal GQA S=L={s} Hkv={hkv} G={g} D={d} (float64, best of {repeats})")
    print(f"  numpy causal_gqa : {ours * 1e3:9.2f} ms")
    try:
        import torch
    except ImportError:
        print("  torch SDPA       : skipped (torch is not installed)")
        return
    import torch.nn.functional as F

    tq = torch.from_numpy(np.ascontiguousarray(q.reshape(s, hkv * g, d).transpose(1, 0, 2)))[None]
    tk = torch.from_numpy(np.ascontiguousarray(k.transpose(1, 0, 2)))[None]
    tv = torch.from_numpy(np.ascontiguousarray(v.transpose(1, 0, 2)))[None]

    def sdpa():
        with torch.no_grad():
            return F.scaled_dot_product_attention(tq, tk, tv, is_causal=True, scale=scale,
                                                  enable_gqa=True)

    ref = _best_of(sdpa, repeats)
    got = causal_gqa(scale, pos, q, k, v)
    want = sdpa()[0].permute(1, 0, 2).reshape(s, hkv, g, d).numpy()
    print(f"  torch SDPA (CPU) : {ref * 1e3:9.2f} ms   (torch threads = {torch.get_num_threads()})")
    print(f"  ratio ours / SDPA = {ours / ref:.2f}x   (max |diff| = {np.abs(got - want).max():.2e})")


def main(argv: list[str] | None = None) -> None:
    """Run both benchmarks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="best of this many runs")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS/torch threads for both sides (0: library defaults)")
    args = parser.parse_args(argv)
    with _thread_limit(args.threads):
        print(f"threads: {args.threads or 'library defaults'}")
        bench_deltanet(args.repeats)
        bench_attention(args.repeats)


@contextlib.contextmanager
def _thread_limit(threads: int):
    """Limit BLAS (threadpoolctl, when installed) and torch to ``threads`` threads."""
    if threads <= 0:
        yield
        return
    with contextlib.ExitStack() as stack:
        try:
            from threadpoolctl import threadpool_limits

            stack.enter_context(threadpool_limits(limits=threads))
        except ImportError:
            print("threadpoolctl not installed: BLAS threads left at their default")
        try:
            import torch

            previous = torch.get_num_threads()
            torch.set_num_threads(threads)
            stack.callback(torch.set_num_threads, previous)
        except ImportError:
            pass
        yield


if __name__ == "__main__":
    main()
