"""Throughput of the wide draws against the uniform ones, side by side on the bundled project.

Every conformance plan of the generated mirrors (``mirrors/*.py``) is drawn both ways:

- **hypothesis**: ``examples(plan)`` (one example per call, as the conformance search draws
  them), examples per second over a fixed number of draws;
- **sweep**: ``sample_batch(plan, rng, 256)`` (the vectorized sweep), draws per second.

"uniform" is the plan as generated (reals in ``[-5, 5]``, sizes 1..4); "wide" is
:func:`mirror.sample.wide.widened` at float64 with the same sizes, so the ratio measures the
values drawn, not the lengths of the vectors. Rounds are interleaved (``bench._common.race``).

Run: ``PYTHONPATH=. .venv/bin/python bench/bench_draws.py [--examples 200] [--rounds 3]``
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings

from bench._common import race
from mirror.sample.strategies import examples, sample_batch
from mirror.sample.wide import widened

ROOT = Path(__file__).resolve().parents[1]


def conformance_plans() -> dict[str, dict]:
    """``name → plan`` of every conformance row of the generated mirrors."""
    plans = {}
    for path in sorted((ROOT / "mirrors").glob("*.py")):
        if path.name.startswith("test_"):
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for value in vars(module).values():
            name = getattr(value, "lean_name", "")
            if callable(value) and name.endswith(".conformance"):
                plans[name] = value.plan  # (the @mirror decorator attaches it)
    return plans


def hypothesis_draws(plan: dict, count: int):
    """A runner drawing ``count`` Hypothesis examples of ``plan``."""

    @settings(max_examples=count, database=None, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(examples(plan))
    def draw(example):
        pass

    return draw


def sweep_draws(plan: dict, batches: int):
    rng = np.random.default_rng(0)
    return lambda: [sample_batch(plan, rng, 256) for _ in range(batches)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--batches", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    totals = {"uniform": [0.0, 0.0], "wide": [0.0, 0.0]}
    print(f"{'plan':55s} {'hyp uniform/s':>13s} {'hyp wide/s':>11s} {'ratio':>6s} "
          f"{'sweep ratio':>11s}")
    for name, plan in conformance_plans().items():
        settings_ = plan["settings"]
        wide = widened(plan, "float64", (settings_["dim_min"], settings_["dim_max"]))
        times = race({"uniform": hypothesis_draws(plan, args.examples),
                      "wide": hypothesis_draws(wide, args.examples),
                      "uniform sweep": sweep_draws(plan, args.batches),
                      "wide sweep": sweep_draws(wide, args.batches)}, args.rounds)
        for kind in ("uniform", "wide"):
            totals[kind][0] += times[kind]
            totals[kind][1] += times[f"{kind} sweep"]
        print(f"{name[:55]:55s} {args.examples / times['uniform']:13.0f} "
              f"{args.examples / times['wide']:11.0f} {times['wide'] / times['uniform']:6.2f} "
              f"{times['wide sweep'] / times['uniform sweep']:11.2f}")
    print(f"\ntotal time wide / uniform: hypothesis {totals['wide'][0] / totals['uniform'][0]:.2f}, "
          f"sweep {totals['wide'][1] / totals['uniform'][1]:.2f} (acceptance: at most 2)")


if __name__ == "__main__":
    main()
