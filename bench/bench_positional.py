"""Benchmark: the positional head, FFT causal convolution vs dense causal softmax.

Both heads run side by side in one process on the same inputs (scores ``a`` uniform in
``[-5, 5]``, the documented accuracy regime; 4 value channels). Each time is the best of
``k`` runs; the ratio is dense / FFT, and the max difference relative to ``max|v|`` is
printed beside it.

Run: ``.venv/bin/python bench/bench_positional.py``
"""

from __future__ import annotations


import numpy as np

from bench._common import best_of
from mirror.bundled.impl.positional import causal_convolution_head, causal_softmax_head


def main() -> None:
    """Run the benchmark and print the table."""
    channels = 4
    print(f"positional head, a ~ U[-5, 5], {channels} channels")
    print(f"{'n':>6}{'dense (s)':>12}{'FFT (s)':>12}{'dense / FFT':>13}{'rel. diff':>11}")
    for n, repeats in ((256, 5), (1024, 5), (4096, 3), (8192, 2)):
        rng = np.random.default_rng(n)
        a = rng.uniform(-5.0, 5.0, n)
        v = rng.standard_normal((n, channels))
        t_dense, dense = best_of(lambda: causal_softmax_head(a, v), repeats)
        t_fft, fast = best_of(lambda: causal_convolution_head(a, v), repeats * 4)
        gap = float(np.max(np.abs(dense - fast)) / np.max(np.abs(v)))
        print(f"{n:>6}{t_dense:>12.5f}{t_fft:>12.5f}{t_dense / t_fft:>13.1f}{gap:>11.1e}")


if __name__ == "__main__":
    main()
