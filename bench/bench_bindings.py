"""``vectorized = true`` against the per-example path, side by side in one process.

A throwaway Lake project defines the same cheap Lean definition twice (``Bench.reluA``,
``Bench.reluB``: ``max x 0`` on a vector ``Fin n → ℝ``) and binds both to the same NumPy
function, ``np.maximum(x, 0)``: one per example, one ``vectorized = true``. Measured:

1. the binding call alone: ``batched_call`` on a batch of ``--batch`` draws;
2. the whole conformance check of each binding (the vectorized sweep of ``--sweep`` draws,
   no Hypothesis phase), as examples per second;
3. bundled bindings (``rmsnorm``, ``softcap``, ``linear``, ``embed``): their vectorized
   adapter against the same binding called once per draw, on a batch of ``--batch`` draws.

Run: ``PYTHONPATH=. .venv/bin/python bench/bench_bindings.py [--repeats K] [--batch B] [--sweep N]``.
Prints best-of-K examples/s (section 3 in interleaved rounds) and the ratios; nothing is
asserted.
Recorded (shared 2-core machine under load from other jobs, best of 5, three runs):
binding call 41–228× (e.g. 192,130 vs 7,826,831 examples/s); whole conformance check 2.2–3.4×
(10,854 vs 23,742 examples/s: drawing the examples, about half of the vectorized check, and
evaluating the Lean side dominate once the binding is one call); bundled bindings
rmsnorm 234–378×, softcap 186–206×, linear 61–74×, embed 90–153×.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Callable

import numpy as np

from bench._common import best_of

LEAN = """\
import Mathlib

namespace Bench

def reluA {n : ℕ} (x : Fin n → ℝ) : Fin n → ℝ := fun i => max (x i) 0

def reluB {n : ℕ} (x : Fin n → ℝ) : Fin n → ℝ := fun i => max (x i) 0

end Bench
"""

KERNEL = """\
import numpy as np


def relu(x):
    return np.maximum(x, 0.0)
"""

CONFIG = """\
[tool.leanmirror]
python-path = ["python"]

[tool.leanmirror.bindings]
"Bench.reluA" = "benchkernels.ops:relu"
"Bench.reluB" = { impl = "benchkernels.ops:relu", vectorized = true }
"""


def make_project(root: Path) -> Path:
    (root / "lean").mkdir(parents=True)
    (root / "lakefile.toml").write_text('name = "bench"\nsrcDir = "lean"\n\n[[lean_lib]]\n'
                                        'name = "Bench"\n', encoding="utf-8")
    (root / "lean" / "Bench.lean").write_text(LEAN, encoding="utf-8")
    package = root / "python" / "benchkernels"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "ops.py").write_text(KERNEL, encoding="utf-8")
    (root / "pyproject.toml").write_text(CONFIG, encoding="utf-8")
    return root


def bench_call(bindings: dict, repeats: int, batch: int, width: int = 8) -> None:
    from mirror.bind.binding import batched_call
    from mirror.evaluate.runtime import NumpyRuntime

    x = np.random.default_rng(0).normal(size=(batch, width))

    def call(binding) -> Callable[[], object]:
        return lambda: batched_call(NumpyRuntime(batch, 16, 1e-9, {}), binding, (width,), (x,))

    per = best_of(call(bindings["Bench.reluA"]), repeats, warm=True)[0]
    vec = best_of(call(bindings["Bench.reluB"]), repeats, warm=True)[0]
    print(f"binding call, batch of {batch} draws of x : Fin {width} → ℝ (best of {repeats})")
    print(f"  per example     : {batch / per:12,.0f} examples/s")
    print(f"  vectorized=true : {batch / vec:12,.0f} examples/s")
    print(f"  ratio vectorized / per example = {per / vec:.1f}x")


def _bundled_draws(op: str, batch: int, rng: np.random.Generator) -> tuple[list, list]:
    """A batch of draws for a bundled Op Spec binding: ``(args, dims)`` with a leading axis."""
    T, H, N = 4, 8, 8
    x = rng.uniform(-3, 3, size=(batch, T, H))
    eps = rng.uniform(1e-6, 1.0, size=batch)
    return {
        "rmsnorm": ([eps, x, rng.uniform(-2, 2, size=(batch, H))], [T, H]),
        "softcap": ([rng.uniform(0.5, 5, size=batch), rng.uniform(-5, 5, size=batch)], []),
        "linear": ([x, rng.uniform(-2, 2, size=(batch, N, H))], [T, H, N]),
        "embed": ([eps, rng.uniform(-2, 2, size=(batch, N, H)), rng.integers(0, N, (batch, T))],
                  [N, T, H]),
    }[op]


def bench_bundled(repeats: int, batch: int) -> None:
    import dataclasses

    from bench._common import race
    from mirror.bind.binding import batched_call
    from mirror.bundled import bundled_bindings
    from mirror.evaluate.runtime import NumpyRuntime

    rng = np.random.default_rng(1)
    print(f"bundled bindings, batch of {batch} draws (best of {repeats}, interleaved)")
    for op in ("rmsnorm", "softcap", "linear", "embed"):
        vectorized = bundled_bindings()[f"Mirror.Ops.{op}"]
        per_draw = dataclasses.replace(vectorized, vectorized=False)
        args, dims = _bundled_draws(op, batch, rng)

        def call(binding):
            return lambda: batched_call(NumpyRuntime(batch, 16, 1e-9, {}), binding,
                                        tuple(np.full(batch, d) for d in dims), tuple(args))

        np.testing.assert_allclose(call(vectorized)(), call(per_draw)(), rtol=1e-12)
        best = race({"per": call(per_draw), "vec": call(vectorized)}, repeats)
        print(f"  {op:8s} per example {batch / best['per']:12,.0f} examples/s, vectorized "
              f"{batch / best['vec']:12,.0f} examples/s: {best['per'] / best['vec']:.1f}x")


def bench_check(mirrors: dict, repeats: int, sweep: int) -> None:
    from mirror.product.pipeline import CheckSettings, check_mirror

    settings = CheckSettings(max_examples=0, sweep=sweep)
    timed = {}
    for name in ("Bench.reluA.conformance", "Bench.reluB.conformance"):
        result = check_mirror(mirrors[name], settings)
        assert result.mirror_status == "tested", result.reason
        timed[name] = (best_of(lambda m=mirrors[name]: check_mirror(m, settings), repeats, warm=True)[0],
                       result.examples)
    (per, n_per), (vec, n_vec) = timed.values()
    print(f"conformance check, vectorized sweep of {sweep} draws (best of {repeats})")
    print(f"  per example     : {n_per / per:12,.0f} examples/s")
    print(f"  vectorized=true : {n_vec / vec:12,.0f} examples/s")
    print(f"  ratio vectorized / per example = {(n_vec / vec) / (n_per / per):.1f}x")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--sweep", type=int, default=2048)
    args = parser.parse_args(argv)
    from bridge.scanner import scan_project
    from mirror.product.pipeline import build_mirrors
    from mirror.bind.registry import load_registry

    with tempfile.TemporaryDirectory() as tmp:
        project = make_project(Path(tmp) / "bench")
        extraction = scan_project(project)
        registry = load_registry(project, extraction.by_name())
        if registry.errors:
            sys.exit(f"bench project bindings failed: {registry.errors}")
        mirrors = {m.name: m for m in build_mirrors(extraction, registry.bindings)}
        bench_call(registry.bindings, args.repeats, args.batch)
        bench_check(mirrors, args.repeats, args.sweep)
    bench_bundled(args.repeats, args.batch)


if __name__ == "__main__":
    main()
