"""Benchmarks of Op Spec kernels against their references, side by side in one process.

1. Causal GQA, S = L = 512, Hkv = 2, G = 4, D = 64, float64: our ``causal_gqa`` against
   torch's ``scaled_dot_product_attention(is_causal=True, enable_gqa=True)``.
2. Gated DeltaNet, T = 2048, Dk = Dv = 64, chunk 64: our chunked (WY) form against our
   recurrence (float64) and flash-linear-attention's naive chunked reference (loaded by
   path; it computes in float32 whatever it is given, so its ``max |diff|`` is float32's).

NumPy's BLAS and torch run with the same number of threads (``--threads``, default 1).
Times are best-of-``--rounds`` interleaved rounds; nothing is asserted.

Run: ``PYTHONPATH=. .venv/bin/python bench/bench_ops.py [--threads 1] [--rounds 7]``
"""

from __future__ import annotations

import argparse
from typing import Callable

import numpy as np

from bench._common import fla_chunk_runner, fla_naive, race, threads
from mirror.bundled.impl.ops import causal_gqa, chunk_gated_delta_rule, gated_delta_rule, l2norm


def gqa_contenders(s: int, hkv: int = 2, g: int = 4, d: int = 64) -> dict[str, Callable]:
    """Our causal GQA and torch SDPA (GQA layout) on one random problem."""
    import torch
    import torch.nn.functional as F

    rng = np.random.default_rng(1)
    q = rng.normal(size=(s, hkv, g, d))
    k = rng.normal(size=(s, hkv, d))
    v = rng.normal(size=(s, hkv, d))
    scale = d ** -0.5
    pos = np.arange(s)
    tq = torch.from_numpy(np.ascontiguousarray(q.reshape(s, hkv * g, d).transpose(1, 0, 2)))[None]
    tk = torch.from_numpy(np.ascontiguousarray(k.transpose(1, 0, 2)))[None]
    tv = torch.from_numpy(np.ascontiguousarray(v.transpose(1, 0, 2)))[None]

    def sdpa() -> np.ndarray:
        with torch.no_grad():
            out = F.scaled_dot_product_attention(tq, tk, tv, is_causal=True, scale=scale,
                                                 enable_gqa=True)
        return out[0].permute(1, 0, 2).reshape(s, hkv, g, d).numpy()

    return {"torch SDPA float64": sdpa, "numpy causal_gqa": lambda: causal_gqa(scale, pos, q, k, v)}


def deltanet_contenders(t: int, dk: int = 64, dv: int = 64, chunk: int = 64,
                        with_recurrence: bool = True) -> dict[str, Callable]:
    """Our chunked and recurrent gated delta rule, and fla's naive chunked reference."""
    rng = np.random.default_rng(0)
    alpha = rng.uniform(0.9, 1.0, t)
    beta = rng.uniform(0.0, 1.0, t)
    q = rng.normal(size=(t, dk))
    k = l2norm(1e-6, rng.normal(size=(t, dk)))
    v = rng.normal(size=(t, dv))
    runs = {"chunked WY (ours)": lambda: chunk_gated_delta_rule(alpha, beta, q, k, v, chunk)}
    if with_recurrence:
        runs["recurrence (ours)"] = lambda: gated_delta_rule(alpha, beta, q, k, v)
    naive = fla_naive()
    if naive is not None:
        runs["fla naive chunked (float32)"] = fla_chunk_runner(naive, alpha, beta, q, k, v, chunk)
    return runs


def table(title: str, runs: dict[str, Callable], base: str, rounds: int) -> None:
    """Race ``runs`` and print times, ratios against ``base`` and agreement with it."""
    best = race(runs, rounds)
    reference = np.asarray(runs[base]())
    print(f"{title} (best of {rounds} interleaved rounds)")
    print(f"  {'implementation':<30}{'best (ms)':>11}{f'/ {base.split()[0]}':>13}{'max |diff|':>12}")
    for name, seconds in best.items():
        gap = float(np.max(np.abs(np.asarray(runs[name]()) - reference)))
        print(f"  {name:<30}{seconds * 1e3:>11.2f}{seconds / best[base]:>13.2f}{gap:>12.1e}")


def main(argv: list[str] | None = None) -> None:
    """Run both tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1, help="threads for BLAS and torch")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved timing rounds")
    args = parser.parse_args(argv)
    with threads(args.threads) as summary:
        print(summary)
        table("causal GQA S=L=512 Hkv=2 G=4 D=64, float64", gqa_contenders(512),
              "torch SDPA float64", args.rounds)
        table("gated DeltaNet T=2048 Dk=Dv=64 chunk=64, float64", deltanet_contenders(2048),
              "chunked WY (ours)", args.rounds)


if __name__ == "__main__":
    main()
