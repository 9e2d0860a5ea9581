"""Decisions per second: ball arithmetic (what decides now) against the old mpmath path.

The same draws of the same properties (written as the generator writes them) are decided by

- **ball**: :func:`mirror.judge.exact.decide` — exact ``fmpq`` arithmetic and python-flint
  balls at rising precision, sympy for the equations the balls leave open;
- **mpmath**: the decision of commit 8268ce5, reproduced here for the comparison only — the
  mpmath runtime at 50 → 100 → … digits with its zero band until two successive precisions
  agree (it is no longer used to decide anything).

Contenders run interleaved (the order alternating round by round, a garbage collection before
each run so that neither pays for the other's garbage), after one untimed warm-up run each.
Printed per path: decisions per second of its best round on the wall clock and on the
thread's CPU clock (``time.thread_time``: on a shared machine the process often waits for a
core, which CPU time leaves out); then the ratio ball / mpmath of decisions per second, both
of the best rounds and as the median of the per-round ratios. The ratio is what to read:
above 1 the ball path decides faster. Also printed: how many draws each path leaves
undecided and how often the two disagree (a disagreement is an mpmath "decision" that no
enclosure supports).

Run: ``.venv/bin/python bench/bench_decisions.py [--draws N] [--rounds R]``
"""

from __future__ import annotations

import argparse
import gc
import math
import statistics
import time
from typing import Callable

import numpy as np

from mirror.evaluate.mp_runtime import MpRuntime
from mirror.judge.exact import FAILS, HOLDS, UNDECIDED, VACUOUS, as_batch, decide


def _exp_identity(rt, v_x):
    return rt.truth(True), rt.eq(rt.exp(v_x) * rt.exp(-v_x), 1)


def _log_bound(rt, v_x):
    return rt.lt(0, v_x), rt.le(rt.log(v_x), v_x - 1)


def _rpow_sub(rt, v_x, v_y):
    return rt.lt(0, v_x), rt.eq(rt.rpow(v_x, v_y - 1), rt.div(rt.rpow(v_x, v_y), v_x))


def _strict_trig(rt, v_x):
    return rt.truth(True), rt.lt(rt.sin(v_x) ** 2 + rt.cos(v_x) ** 2, 1)


def _polynomial(rt, v_x, v_y):
    return rt.truth(True), rt.le(2 * v_x * v_y, v_x * v_x + v_y * v_y)


def _enn_round_trip(rt, v_x):
    # exactly 0, but no ball is exactly 0 and sympy does not evaluate ℝ≥0∞: undecided at
    # every precision (what the escalation costs when nothing can decide)
    return rt.truth(True), rt.eq(rt.enn_to_real(rt.exp(v_x)) - rt.exp(v_x), 0)


PROPERTIES: dict[str, tuple[Callable, tuple[str, ...]]] = {
    "toReal (exp x) - exp x = 0 (ℝ≥0∞)": (_enn_round_trip, ("x",)),
    "exp x * exp (-x) = 1": (_exp_identity, ("x",)),
    "0 < x → log x ≤ x - 1": (_log_bound, ("x",)),
    "0 < x → x ^ (y - 1) = x ^ y / x": (_rpow_sub, ("x", "y")),
    "sin² x + cos² x < 1": (_strict_trig, ("x",)),
    "2xy ≤ x² + y²": (_polynomial, ("x", "y")),
}


def _plan(names: tuple[str, ...]) -> dict:
    return {"settings": {"nat_domain": 8},
            "variables": [{"name": n, "param": f"v_{n}"} for n in names]}


def mpmath_decide(function: Callable, plan: dict, example: dict) -> str:
    """The old rule: mpmath with its zero band at 50, 100, … digits until two agree."""
    previous, digits = None, 50
    while digits <= 1600:
        rt = MpRuntime(plan["settings"]["nat_domain"], digits=digits)
        values = {k: rt.lift(v) for k, v in as_batch(example, plan).items()}
        try:
            hyp, concl = function(rt, **values)
            if rt.invalid[0]:
                verdict = UNDECIDED
            elif not bool(hyp.ok[0]):
                verdict = VACUOUS
            else:
                verdict = HOLDS if bool(concl.ok[0]) else FAILS
        except (ArithmeticError, ValueError, TypeError):
            verdict = UNDECIDED
        if verdict == previous:
            return verdict
        previous, digits = verdict, digits * 2
    return UNDECIDED


def _draws(names: tuple[str, ...], count: int, rng: np.random.Generator) -> list[dict]:
    """Draws as the sampler makes them: moderate values, and extreme magnitudes."""
    draws = []
    for i in range(count):
        scale = 10.0 ** rng.choice([0, 0, 0, -30, 30, -150]) if i % 3 == 0 else 1.0
        draws.append({n: np.float64(rng.normal() * 3 * scale) for n in names})
    return draws


def _race(contenders: dict[str, Callable[[], None]], rounds: int) -> dict[str, list]:
    """``(wall, CPU)`` seconds of every contender in each of ``rounds`` interleaved rounds
    (after one untimed run each; the order alternates; a ``gc.collect()`` before each run)."""
    for run in contenders.values():
        run()
    times: dict[str, list] = {name: [] for name in contenders}
    names = list(contenders)
    for index in range(max(1, rounds)):
        for name in names if index % 2 == 0 else names[::-1]:
            gc.collect()
            wall, cpu = time.perf_counter(), time.thread_time()
            contenders[name]()
            times[name].append((time.perf_counter() - wall, time.thread_time() - cpu))
    return times


def _ratios(times: dict[str, list]) -> dict[str, float]:
    """ball / mpmath decisions per second: of the best rounds, and the median per round
    (wall clock and CPU clock)."""
    ball, old = times["ball"], times["mpmath"]
    return {
        "best wall": min(r[0] for r in old) / min(r[0] for r in ball),
        "best CPU": min(r[1] for r in old) / min(r[1] for r in ball),
        "median wall": statistics.median(o[0] / b[0] for b, o in zip(ball, old)),
        "median CPU": statistics.median(o[1] / b[1] for b, o in zip(ball, old)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=60, help="draws per property (default 60)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    cases = [(name, function, _plan(names), _draws(names, args.draws, rng))
             for name, (function, names) in PROPERTIES.items()]
    total = sum(len(draws) for *_, draws in cases)
    verdicts: dict[str, list[str]] = {"ball": [], "mpmath": []}

    def run(path: str) -> Callable[[], None]:
        def go() -> None:
            verdicts[path] = [
                (decide(f, plan, ex).verdict if path == "ball" else mpmath_decide(f, plan, ex))
                for _, f, plan, draws in cases for ex in draws]
        return go

    started = time.perf_counter()
    times = _race({"ball": run("ball"), "mpmath": run("mpmath")}, args.rounds)
    print(f"{total} draws of {len(cases)} properties, {args.rounds} interleaved rounds "
          f"({time.perf_counter() - started:.1f} s in all)")
    for path, rounds in times.items():
        undecided = verdicts[path].count(UNDECIDED)
        wall, cpu = min(r[0] for r in rounds), min(r[1] for r in rounds)
        print(f"{path:7s} {total / wall:9.1f} decisions/s (wall), {total / cpu:9.1f} (CPU)   "
              f"{undecided:4d} undecided")
    ratio = _ratios(times)
    print(f"ratio ball / mpmath (decisions per second): {ratio['best wall']:.2f}")
    print("ratio ball / mpmath: " + ", ".join(f"{k} {v:.2f}" for k, v in ratio.items()))
    disagree = [(a, b) for a, b in zip(verdicts["ball"], verdicts["mpmath"])
                if a != b and UNDECIDED not in (a, b)]
    print(f"draws both decide differently: {len(disagree)}"
          + (f" (ball, mpmath): {sorted(set(disagree))}" if disagree else ""))
    index = 0
    for name, _, _, draws in cases:
        ball = verdicts["ball"][index:index + len(draws)]
        old = verdicts["mpmath"][index:index + len(draws)]
        index += len(draws)
        print(f"  {name:34s} ball undecided {ball.count(UNDECIDED):3d}, mpmath refuted "
              f"{old.count(FAILS):3d}, ball refuted {ball.count(FAILS):3d}")
    if not all(math.isfinite(v) for v in ratio.values()):
        raise SystemExit("a contender took no time")


if __name__ == "__main__":
    main()
