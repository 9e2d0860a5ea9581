"""Benchmark: the resolvent operator's softmax corner, side by side in one process.

Three implementations of one causal softmax head with a readout ``O = W V``:

- ``ours``: :func:`mirror.impl.resolvent.operator` at ``Switches.SOFTMAX`` then :func:`readout`;
- ``sdpa``: ``torch.nn.functional.scaled_dot_product_attention`` in float64, ``is_causal=True``;
- ``loop``: the spec's definition as a pure-Python triple loop (O(n^2 d)).

All three run at ``n = 128`` (the loop is too slow beyond that); ``ours`` and ``sdpa`` also
run at ``n = 1024``. ``d = 64`` and ``value_dim = 64`` throughout. Each time is the best of
``k`` runs; ratios are against ``ours`` at the same ``n``. Agreement (max abs difference of
the readouts) is printed beside the times.

Run: ``.venv/bin/python bench/bench_resolvent.py``
"""

from __future__ import annotations

import math
import time
from typing import Callable

import numpy as np

from mirror.impl.resolvent import SOFTMAX, operator, readout


def best_time(run: Callable[[], object], repeats: int) -> tuple[float, object]:
    """Best wall time of ``repeats`` calls, and the last result."""
    best = math.inf
    result: object = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


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


def main() -> None:
    """Run the benchmark and print the table."""
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is an optional dependency
        torch = None
    d = 64
    rows = []
    for n, repeats, with_loop in ((128, 20, True), (1024, 7, False)):
        rng = np.random.default_rng(n)
        q = rng.standard_normal((n, d))
        k = rng.standard_normal((n, d))
        v = rng.standard_normal((n, d))
        u = np.ones(n)
        theta = np.zeros(n)
        t_ours, ours = best_time(lambda: readout(operator(q, k, u, theta, SOFTMAX), v), repeats)
        t_op, _ = best_time(lambda: operator(q, k, u, theta, SOFTMAX), repeats)
        rows.append((n, "ours (operator+readout)", t_ours, 1.0, math.nan))
        rows.append((n, "ours (operator only)", t_op, t_op / t_ours, math.nan))
        if torch is not None:
            tq, tk, tv = (torch.from_numpy(x)[None, None] for x in (q, k, v))

            def sdpa() -> np.ndarray:
                with torch.no_grad():
                    out = torch.nn.functional.scaled_dot_product_attention(
                        tq, tk, tv, is_causal=True
                    )
                return out[0, 0].numpy()

            t_sdpa, ref = best_time(sdpa, repeats)
            rows.append((n, "torch SDPA float64", t_sdpa, t_sdpa / t_ours, _gap(ours, ref)))
        if with_loop:
            t_loop, ref = best_time(lambda: loop_reference(q, k, v), 2)
            rows.append((n, "pure-Python triple loop", t_loop, t_loop / t_ours, _gap(ours, ref)))
    threads = torch.get_num_threads() if torch is not None else "n/a"
    print(f"softmax corner, d = value_dim = {d}; torch threads = {threads}")
    header = f"{'implementation':<26}{'best time (s)':>14}{'time / ours':>13}{'max |diff|':>12}"
    print(f"{'n':>5}  {header}")
    for n, name, seconds, ratio, gap in rows:
        gap_text = "" if math.isnan(gap) else f"{gap:.1e}"
        print(f"{n:>5}  {name:<26}{seconds:>14.5f}{ratio:>13.3f}{gap_text:>12}")


def _gap(ours: np.ndarray, other: np.ndarray) -> float:
    """Max abs difference between our complex readout and a real reference."""
    return float(np.max(np.abs(ours - other)))


if __name__ == "__main__":
    main()
