"""Throughput of generated properties, side by side with hand-written references.

For two statements — the scalar ``sigmoid x + sigmoid (-x) = 1`` (Mirror.Ops) and the
positional head ``pos_head_is_causal_convolution`` (Mirror.PositionalHead) — it measures, in
one process:

- vectorized evaluations per second: the generated property on a batch of draws, called as
  the sweep calls it (:func:`mirror.judge.checks.evaluate`), against the same statement written by
  hand in NumPy on the same batch;
- Hypothesis examples per second: :func:`mirror.judge.checks.run_property` with the sweep off,
  against a plain ``@given`` test of the hand-written statement with the same example count.
  The plain test trusts float64 within 1e-9; the generated one decides every draw that float64
  cannot settle (every passing draw of an equation) exactly (:mod:`mirror.judge.exact`).

Each ratio is generated time / hand-written time, the best of ``--repeats`` runs taken in
turn. Figures are for this machine and its load at the time; only the ratios compare.

Run: ``PYTHONPATH=. python bench/bench_translation.py``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridge.scanner import scan_project
from mirror.judge.checks import evaluate, run_property
from mirror.product.pipeline import build_mirrors
from mirror.evaluate.runtime import NumpyRuntime
from mirror.sample.strategies import sample_batch

ROOT = Path(__file__).resolve().parents[1]


def best_of(fns, repeats: int) -> list[float]:
    """The best CPU time of each of ``fns``, run in turn ``repeats`` times: interleaved, and
    in process time rather than wall time, so that the load of a shared machine affects both
    sides of a ratio alike."""
    times = [[] for _ in fns]
    for _ in range(repeats):
        for fn, spent in zip(fns, times):
            start = time.process_time()
            fn()
            spent.append(time.process_time() - start)
    return [min(spent) for spent in times]


def repeat(fn, times: int) -> None:
    """Call ``fn`` ``times`` times, keeping no result (a list of results would time the
    allocator: the generated side returns more arrays than the hand-written one)."""
    for _ in range(times):
        fn()


def hand_sigmoid(values):
    x = values["x"]
    s = 1 / (1 + np.exp(-x)) + 1 / (1 + np.exp(x))
    return np.abs(s - 1) <= 1e-9 * np.maximum(1, np.abs(s))


def hand_positional(values):
    a, v, i = values["a"], values["v"], values["i"]
    batch, size = a.shape
    j = np.arange(size)[None, :]
    live = j <= i[:, None]
    rows = np.arange(batch)[:, None]
    back = np.clip(i[:, None] - j, 0, size - 1)
    w = np.where(live, np.exp(a[rows, back]), 0.0)
    lhs = np.sum(w / w.sum(axis=1, keepdims=True) * np.where(live, v, 0.0), axis=1)
    k = np.where(live, np.exp(a), 0.0)
    rhs = np.sum(k * np.where(live, v[rows, back], 0.0), axis=1) / k.sum(axis=1)
    return np.abs(lhs - rhs) <= 1e-9 * np.maximum(1, np.abs(rhs))


def unfolded_sigmoid_property():
    """``sigmoid x + sigmoid (-x) = 1`` with sympy's folding off, so the generated code
    evaluates the statement instead of a constant ``True``."""
    import sympy as sp

    from bridge import term as T
    from mirror.translate.codegen import print_property
    from mirror.translate.translation import Env, Statement, Translator, Value, Variable
    from mirror.translate.types import REAL

    extraction = scan_project(ROOT)
    translator = Translator(extraction.by_name())
    x = sp.Symbol("x", real=True)
    env = Env(x=Value(x, REAL))
    lhs = T.app("HAdd.hAdd", T.app("Mirror.Ops.sigmoid", T.Var("x")),
                T.app("Mirror.Ops.sigmoid", T.app("Neg.neg", T.Var("x"))))
    value = translator.elab(lhs, env, REAL)
    statement = Statement("sigmoid_sum", [Variable("x", REAL, x)], [],
                          sp.Eq(value.expr, 1, evaluate=False))
    source = print_property(statement)
    namespace: dict = {}
    exec(compile(source.source, "<bench>", "exec"), {"__builtins__": {}}, namespace)
    return namespace[source.function_name]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--examples", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--loops", type=int, default=50,
                        help="vectorized evaluations per timed run")
    args = parser.parse_args()

    mirrors = {m.name: m for m in build_mirrors(scan_project(ROOT))}
    cases = [
        ("sigmoid x + sigmoid (-x) = 1", mirrors["Mirror.Ops.sigmoid_add_sigmoid_neg"],
         hand_sigmoid, lambda: st.floats(-5, 5), "x"),
        ("pos_head_is_causal_convolution",
         mirrors["Mirror.PositionalHead.pos_head_is_causal_convolution"], hand_positional, None,
         None),
    ]
    print(f"{'statement':34s} {'measure':26s} {'generated':>12s} {'hand-written':>13s} {'ratio':>7s}")
    for title, mirror, hand, strategy, var in cases:
        fn = unfolded_sigmoid_property() if var == "x" else mirror.load()
        plan = mirror.plan
        batch = sample_batch(plan, np.random.default_rng(0), args.batch)
        batch.pop("__valid__")
        named = {e["param"]: batch[e["name"]] for e in plan["variables"]}

        def generated():
            rt = NumpyRuntime(args.batch, plan["settings"]["nat_domain"])
            return evaluate(fn, plan, named, rt)  # as the sweep calls it

        t_gen, t_hand = (t / args.loops for t in best_of(
            [lambda: repeat(generated, args.loops), lambda: repeat(lambda: hand(batch), args.loops)],
            args.repeats))
        print(f"{title:34s} {'vectorized evals/s':26s} {args.batch / t_gen:12.0f} "
              f"{args.batch / t_hand:13.0f} {t_gen / t_hand:7.2f}")

        examples = []

        def generated_hypothesis():
            outcome = run_property(fn, plan, name=mirror.name, max_examples=args.examples,
                                   sweep=0)
            examples.append(outcome.examples)

        runs = [generated_hypothesis]
        if strategy is not None:
            @settings(max_examples=args.examples, database=None, deadline=None,
                      suppress_health_check=list(HealthCheck))
            @given(strategy())
            def plain(x):
                hand({var: np.asarray([x])})

            runs.append(plain)
        t_runs = best_of(runs, args.repeats)
        rate = min(examples) / t_runs[0]
        if strategy is not None:
            plain_rate = f"{args.examples / t_runs[1]:13.0f}"
            ratio = f"{(args.examples / t_runs[1]) / rate:7.2f}"
        else:
            plain_rate, ratio = f"{'—':>13s}", f"{'—':>7s}"
        print(f"{'':34s} {'Hypothesis examples/s':26s} {rate:12.0f} {plain_rate} {ratio}")


if __name__ == "__main__":
    main()
