"""Benchmark: the resolvent operator's softmax corner against torch SDPA, side by side.

One causal softmax head with a readout ``O = W V``, float64, ``d = value_dim = 64``:

- ``torch SDPA``: ``torch.nn.functional.scaled_dot_product_attention(is_causal=True)``, the
  reference every ratio is taken against;
- ``operator + readout``: :func:`mirror.impl.resolvent.operator` at ``SOFTMAX`` then
  :func:`readout` (default BLAS path; ``W`` is materialised as complex128 ``[n, n]``);
- ``operator_readout``: the same readout in one pass, ``W`` never stored;
- ``operator only``: the weights alone;
- ``exact_order=True``: the bit-reproducible path, operator then readout;
- at ``n = 128`` only, the spec's definition as a pure-Python triple loop;
- ``fill complex128 [n, n]`` (``np.ones``): no attention at all, the cost of writing an
  operator the size of ``W`` once, a floor for any ``operator`` that returns ``W``.

NumPy's BLAS and torch run with the same number of threads (``--threads``, default 1).
Times are best-of-``--rounds`` interleaved rounds; ``max |diff|`` is against SDPA.

Run: ``PYTHONPATH=. .venv/bin/python bench/bench_resolvent.py [--threads 1] [--rounds 15]``
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from bench._common import race, threads
from mirror.impl.resolvent import SOFTMAX, operator, operator_readout, readout


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


def contenders(n: int, d: int, with_loop: bool) -> tuple[dict, dict]:
    """The implementations at size ``n`` and their outputs (for agreement)."""
    import torch

    rng = np.random.default_rng(n)
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    u, theta = np.ones(n), np.zeros(n)
    tq, tk, tv = (torch.from_numpy(x)[None, None] for x in (q, k, v))

    def sdpa() -> np.ndarray:
        with torch.no_grad():
            out = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=True)
        return out[0, 0].numpy()

    runs = {
        "torch SDPA float64": sdpa,
        "operator + readout": lambda: readout(operator(q, k, u, theta, SOFTMAX), v),
        "operator_readout (fused)": lambda: operator_readout(q, k, u, theta, v, SOFTMAX),
        "operator only": lambda: operator(q, k, u, theta, SOFTMAX),
        "exact_order=True op + readout": lambda: readout(
            operator(q, k, u, theta, SOFTMAX, exact_order=True), v, exact_order=True),
    }
    if with_loop:
        runs["pure-Python triple loop"] = lambda: loop_reference(q, k, v)
    runs["fill complex128 [n, n]"] = lambda: np.ones((n, n), dtype=np.complex128)
    outputs = {name: run() for name, run in runs.items()
               if name not in ("operator only", "fill complex128 [n, n]")}
    return runs, outputs


def main(argv: list[str] | None = None) -> None:
    """Print one table per size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1, help="threads for BLAS and torch")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved timing rounds")
    args = parser.parse_args(argv)
    d = 64
    with threads(args.threads) as summary:
        print(f"softmax corner, float64, d = value_dim = {d}; {summary}")
        for n, with_loop in ((128, True), (1024, False)):
            runs, outputs = contenders(n, d, with_loop)
            rounds = 3 if with_loop else args.rounds
            best = race(runs, rounds)
            reference = outputs["torch SDPA float64"]
            base = best["torch SDPA float64"]
            print(f"\nn = {n} (best of {rounds} interleaved rounds)")
            print(f"  {'implementation':<32}{'best (ms)':>11}{'/ SDPA':>9}{'max |diff|':>12}")
            for name, seconds in best.items():
                gap = (f"{float(np.max(np.abs(outputs[name] - reference))):.1e}"
                       if name in outputs else "")
                print(f"  {name:<32}{seconds * 1e3:>11.3f}{seconds / base:>9.2f}{gap:>12}")


if __name__ == "__main__":
    main()
