"""Scaling benchmark: time against n for each kernel and its reference, as a log-log plot.

For n = 256 ... 8192 (doubling), float64 unless noted, ``d = D = 64``:

- resolvent softmax corner: ``operator_readout`` (fused), ``operator`` + ``readout`` (``W``
  complex128), ``operator(real=True)`` + ``readout`` (``W``'s real plane), the
  reproducible path (``exact_order=True``, capped at n = 2048: it is quadratic with
  ``d`` NumPy passes over an ``n x n`` plane, minutes and gigabytes at 8192) and torch SDPA;
- causal GQA, S = L = n, Hkv = 2, G = 4: ours and torch SDPA;
- gated DeltaNet, T = n, chunk 64: chunked (ours), recurrence (ours) and flash-linear-
  attention's naive chunked reference (float32, loaded by path).

Times are medians of the thread's CPU time (``time.thread_time``; every contender runs in
the calling thread at one thread) over interleaved rounds after a warm-up (5 rounds up to
n = 512, 3 at 1024): on a machine shared with other jobs, CPU time leaves out the time spent
waiting for a core, which dominates wall-clock noise there. From n = 2048 on, each contender
runs once, without warm-up, to keep ``make bench`` within a few minutes (so the largest
sizes are single cold runs and noisier).
The fitted exponent is the least-squares slope of log time against log n over n >= 1024,
where fixed per-call costs no longer dominate. Writes ``scaling.png`` and ``scaling.csv``
into ``--out`` (default ``docs/bench``) and prints the table and the exponents.

Run: ``PYTHONPATH=. .venv/bin/python bench/bench_scaling.py [--threads 1] [--max-n 8192]``
"""

from __future__ import annotations

import argparse
import csv
import math
from pathlib import Path
from typing import Callable

import numpy as np

from bench._common import threads
from bench.bench_ops import deltanet_contenders, gqa_contenders
from bench.bench_resolvent import race_medians
from mirror.bundled.impl.resolvent import SOFTMAX, operator, operator_readout, readout

#: Largest n at which the reproducible resolvent path is timed.
EXACT_CAP = 2048
#: Smallest n used for the fitted exponent.
FIT_FROM = 1024


def resolvent_contenders(n: int, d: int = 64) -> dict[str, Callable]:
    """The softmax corner's implementations at size ``n``."""
    import torch

    rng = np.random.default_rng(n)
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    u, theta = np.ones(n), np.zeros(n)
    tq, tk, tv = (torch.from_numpy(x)[None, None] for x in (q, k, v))

    def sdpa() -> object:
        with torch.no_grad():
            return torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=True)

    runs = {
        "torch SDPA": sdpa,
        "operator_readout (fused)": lambda: operator_readout(q, k, u, theta, v, SOFTMAX),
        "operator + readout": lambda: readout(operator(q, k, u, theta, SOFTMAX), v),
        "operator(real=True) + readout": lambda: readout(
            operator(q, k, u, theta, SOFTMAX, real=True), v),
    }
    if n <= EXACT_CAP:
        runs["exact_order=True"] = lambda: readout(
            operator(q, k, u, theta, SOFTMAX, exact_order=True), v, exact_order=True)
    return runs


KERNELS: dict[str, Callable[[int], dict[str, Callable]]] = {
    "resolvent softmax corner (d = 64)": resolvent_contenders,
    "causal GQA (Hkv = 2, G = 4, D = 64)": gqa_contenders,
    "gated DeltaNet (Dk = Dv = 64, chunk 64)": deltanet_contenders,
}


def rounds_for(n: int) -> int:
    """Interleaved timing rounds at size ``n`` (1 means one cold run)."""
    return 5 if n <= 512 else 3 if n <= 1024 else 1


def exponent(sizes: list[int], seconds: list[float]) -> float:
    """Least-squares slope of log time against log n over ``n >= FIT_FROM``."""
    points = [(math.log(n), math.log(t)) for n, t in zip(sizes, seconds) if n >= FIT_FROM]
    if len(points) < 2:
        return math.nan
    x, y = np.array(points).T
    return float(np.polyfit(x, y, 1)[0])


def measure(sizes: list[int]) -> dict[str, dict[str, dict[int, float]]]:
    """``times[kernel][implementation][n]`` in seconds, printed as they come."""
    times: dict[str, dict[str, dict[int, float]]] = {}
    for kernel, make in KERNELS.items():
        print(f"\n{kernel}")
        times[kernel] = {}
        for n in sizes:
            rounds = rounds_for(n)
            runs = make(n)
            table = race_medians(runs, rounds, reference=next(iter(runs)), warm=rounds > 1)
            cpu = {name: row["cpu"] for name, row in table.items()}
            shown = "  ".join(f"{name} {t * 1e3:.1f} ms" for name, t in cpu.items())
            print(f"  n = {n:>5}: {shown}", flush=True)
            for name, seconds in cpu.items():
                times[kernel].setdefault(name, {})[n] = seconds
    return times


def report(times: dict, out: Path) -> None:
    """Print the exponents, write the CSV and the log-log plot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    print(f"\nfitted exponents (time ~ n^p, n >= {FIT_FROM})")
    fig, axes = plt.subplots(1, len(times), figsize=(6 * len(times), 4.8))
    with open(out / "scaling.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["kernel", "implementation", "n", "cpu_seconds"])
        for axis, (kernel, by_name) in zip(np.atleast_1d(axes), times.items()):
            print(f"  {kernel}")
            for name, by_n in by_name.items():
                sizes = sorted(by_n)
                seconds = [by_n[n] for n in sizes]
                slope = exponent(sizes, seconds)
                print(f"    {name:<30} p = {slope:.2f}")
                axis.loglog(sizes, seconds, marker="o", label=f"{name} (p = {slope:.2f})")
                writer.writerows([kernel, name, n, f"{t:.6g}"] for n, t in zip(sizes, seconds))
            axis.set_title(kernel)
            axis.set_xlabel("n (sequence length)")
            axis.set_ylabel("median thread CPU time (s)")
            axis.set_xscale("log", base=2)
            axis.grid(True, which="both", alpha=0.3)
            axis.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "scaling.png", dpi=110)
    plt.close(fig)
    print(f"wrote {out / 'scaling.png'} and {out / 'scaling.csv'}")


def main(argv: list[str] | None = None) -> None:
    """Measure, print and plot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1, help="threads for BLAS and torch")
    parser.add_argument("--max-n", type=int, default=8192, help="largest n (a power of two)")
    parser.add_argument("--out", type=Path, default=Path("docs/bench"), help="output folder")
    args = parser.parse_args(argv)
    sizes = [n for n in (256, 512, 1024, 2048, 4096, 8192) if n <= args.max_n]
    with threads(args.threads) as summary:
        print(summary)
        times = measure(sizes)
    report(times, args.out)


if __name__ == "__main__":
    main()
