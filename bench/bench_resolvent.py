"""Benchmark: the resolvent operator's softmax corner against torch SDPA, side by side.

One causal softmax head with a readout ``O = W V``, float64, ``d = value_dim = 64``:

- ``torch SDPA``: ``torch.nn.functional.scaled_dot_product_attention(is_causal=True)``, the
  reference every ratio is taken against;
- ``operator then readout``: :func:`mirror.bundled.impl.resolvent.operator` at ``SOFTMAX`` then
  :func:`readout` (default BLAS path; ``W`` is materialised as complex128 ``[n, n]``);
- ``operator(real=True) then readout``: the same two steps with ``W``'s real plane (float64
  ``[n, n]``; the operator is real at ``g = 0``);
- ``operator_readout``: the same readout in one pass, ``W`` never stored;
- ``operator only`` (both representations): the weights alone;
- ``exact_order=True``: the bit-reproducible path, operator then readout (fewer rounds);
- at ``n = 128`` only, the spec's definition as a pure-Python triple loop;
- ``fill complex128 [n, n]`` (``np.ones``): no attention at all, the cost of writing an
  operator the size of ``W`` once, a floor for any ``operator`` that returns ``W``.

NumPy's BLAS and torch run with the same number of threads (``--threads``, default 1).
Contenders run in turn, round after round (``--rounds``), in one process. The table prints
the median over rounds of each contender's time divided by SDPA's time in the same round,
for wall-clock time and for the thread's CPU time (``time.thread_time``: on a shared machine
it leaves out the time the process waits for a core, not the slowdown from sharing caches
and memory), with the median wall time; ``max |diff|`` is against SDPA.

Run: ``PYTHONPATH=. .venv/bin/python bench/bench_resolvent.py [--threads 1] [--rounds 30]``
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from typing import Callable

import numpy as np

from bench._common import threads
from mirror.bundled.impl.resolvent import SOFTMAX, operator, operator_readout, readout

REFERENCE = "torch SDPA float64"
CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}


def loop_reference(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Causal softmax attention by the definition, as pure-Python loops."""
    n, d = q.shape
    ql, kl, vl = q.tolist(), k.tolist(), v.tolist()
    root = math.sqrt(d)
    out = []
    for i in range(n):
        logits = []
        for j in range(i + 1):
            acc = 0.0
            for t in range(d):
                acc += ql[i][t] * kl[j][t]
            logits.append(acc / root)
        top = max(logits)
        weights = [math.exp(x - top) for x in logits]
        total = sum(weights)
        row = [0.0] * len(vl[0])
        for j, w in enumerate(weights):
            scale = w / total
            for c, x in enumerate(vl[j]):
                row[c] += scale * x
        out.append(row)
    return np.array(out)


def race_medians(contenders: dict[str, Callable[[], object]], rounds: int,
                 reference: str = REFERENCE, warm: bool = True) -> dict[str, dict[str, float]]:
    """Per contender: median seconds on each clock and median per-round ratios to
    ``reference``.

    With ``warm`` every contender first runs once untimed; then ``rounds`` rounds run every
    contender in turn, each run timed on both clocks of :data:`CLOCKS`. Returns ``{name:
    {"wall": s, "cpu": s, "wall ratio": r, "cpu ratio": r}}``.
    """
    for run in contenders.values() if warm else ():
        run()
    samples = {name: {clock: [] for clock in CLOCKS} for name in contenders}
    for _ in range(rounds):
        for name, run in contenders.items():
            start = {clock: read() for clock, read in CLOCKS.items()}
            run()
            for clock, read in CLOCKS.items():
                samples[name][clock].append(read() - start[clock])
    base = samples[reference]
    table = {}
    for name, times in samples.items():
        row = {}
        for clock in CLOCKS:
            row[clock] = statistics.median(times[clock])
            ratios = [t / max(b, 1e-12) for t, b in zip(times[clock], base[clock])]
            row[f"{clock} ratio"] = statistics.median(ratios)
        table[name] = row
    return table


def contenders(n: int, d: int, with_loop: bool) -> tuple[dict, dict, dict]:
    """The fast implementations, the slow ones (timed in fewer rounds), their outputs."""
    import torch

    rng = np.random.default_rng(n)
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    u, theta = np.ones(n), np.zeros(n)
    tq, tk, tv = (torch.from_numpy(x)[None, None] for x in (q, k, v))

    def sdpa() -> np.ndarray:
        with torch.no_grad():
            out = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=True)
        return out[0, 0].numpy()

    fast = {
        REFERENCE: sdpa,
        "operator then readout": lambda: readout(operator(q, k, u, theta, SOFTMAX), v),
        "operator(real=True) then readout": lambda: readout(
            operator(q, k, u, theta, SOFTMAX, real=True), v),
        "operator_readout (fused)": lambda: operator_readout(q, k, u, theta, v, SOFTMAX),
        "operator only": lambda: operator(q, k, u, theta, SOFTMAX),
        "operator(real=True) only": lambda: operator(q, k, u, theta, SOFTMAX, real=True),
        "fill complex128 [n, n]": lambda: np.ones((n, n), dtype=np.complex128),
    }
    slow = {
        REFERENCE: sdpa,
        "exact_order=True op + readout": lambda: readout(
            operator(q, k, u, theta, SOFTMAX, exact_order=True), v, exact_order=True),
    }
    if with_loop:
        slow["pure-Python triple loop"] = lambda: loop_reference(q, k, v)
    outputs = {name: run() for runs in (fast, slow) for name, run in runs.items()
               if "only" not in name and "fill" not in name}
    return fast, slow, outputs


def main(argv: list[str] | None = None) -> None:
    """Print one table per size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1, help="threads for BLAS and torch")
    parser.add_argument("--rounds", type=int, default=30, help="interleaved timing rounds")
    args = parser.parse_args(argv)
    d = 64
    with threads(args.threads) as summary:
        print(f"softmax corner, float64, d = value_dim = {d}; {summary}")
        for n, with_loop in ((128, True), (1024, False)):
            fast, slow, outputs = contenders(n, d, with_loop)
            table = race_medians(fast, args.rounds)
            slow_rounds = 3 if with_loop else max(3, args.rounds // 6)
            table.update((name, row) for name, row in race_medians(slow, slow_rounds).items()
                         if name != REFERENCE)
            reference = outputs[REFERENCE]
            print(f"\nn = {n}: medians over {args.rounds} interleaved rounds "
                  f"({slow_rounds} for the exact path and the loop)")
            print(f"  {'implementation':<36}{'wall (ms)':>10}{'/ SDPA wall':>13}"
                  f"{'/ SDPA cpu':>12}{'max |diff|':>12}")
            for name, row in table.items():
                gap = (f"{float(np.max(np.abs(outputs[name] - reference))):.1e}"
                       if name in outputs else "")
                print(f"  {name:<36}{row['wall'] * 1e3:>10.3f}{row['wall ratio']:>13.2f}"
                      f"{row['cpu ratio']:>12.2f}{gap:>12}")


if __name__ == "__main__":
    main()
