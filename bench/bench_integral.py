"""The float64 integral of the runtime against ``scipy.integrate.quad_vec``, on one batch.

The integrand is the Stieltjes form of ``t ^ r`` (Mirror.FractionalPower's
``rpow_eq_resolvent_integral``): ``∫ s in (0, ∞), s ^ (r - 1) * t / (s + t)``, whose value is
``π / sin(π r) · t ^ r``, for a batch of draws ``r ∈ (0, 1)``, ``t ∈ (0, 5)`` — an endpoint
singularity and an algebraic tail, both slow when ``r`` nears 0 or 1.

- ``runtime``: :meth:`mirror.evaluate.runtime.NumpyRuntime.integral` — a fixed trapezoid rule after the
  double-exponential substitution, one body call per node for the whole batch, and a per-draw
  tail test that marks the draws it cannot trust (they are decided exactly or rejected).
- ``quad_vec``: the same substitution integrated adaptively by ``quad_vec`` (GK21,
  ``epsrel=1e-12``, max norm over the batch). It has one error estimate for the whole batch,
  so a draw it cannot integrate makes every draw pay for its subdivisions and is not told apart.

Printed: the best wall time of each (interleaved rounds), body calls, the median and
largest relative error against the closed form, and what each says about its slow draws.

Run: ``PYTHONPATH=. python bench/bench_integral.py [--batch 256]``.
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy.integrate import quad_vec

from bench._common import race
from mirror.evaluate.runtime import NumpyRuntime, _de_substitution


def _body(rt: NumpyRuntime, r: np.ndarray, t: np.ndarray, calls: list):
    def body(s):
        calls.append(1)
        return rt.div(t * rt.rpow(s, r - 1), s + t)

    return body


def with_runtime(r: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, str, int]:
    rt, calls = NumpyRuntime(len(r), 16), []
    value = rt.integral(_body(rt, r, t, calls), 0, rt.inf)
    return value, f"{int(rt.invalid.sum())} draws marked untrusted", len(calls)


def with_quad_vec(r: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, str, int]:
    rt, calls = NumpyRuntime(len(r), 16), []
    body = _body(rt, r, t, calls)
    lo, hi = np.zeros(len(r)), np.full(len(r), np.inf)

    def transformed(u: float) -> np.ndarray:
        with np.errstate(all="ignore"):
            s, ds = _de_substitution(u, lo, hi)
            term = body(s) * ds
        return np.where(np.isfinite(term), term, 0.0)

    value, error = quad_vec(transformed, -8.0, 8.0, epsrel=1e-12, norm="max", limit=200)
    return value, f"one batch error estimate {error:.2g}", len(calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    np.seterr(all="ignore")  # overflow at the far nodes of the substitution is expected
    rng = np.random.default_rng(0)
    r, t = rng.uniform(0, 1, args.batch), rng.uniform(0, 5, args.batch)
    closed = np.pi / np.sin(np.pi * r) * t ** r
    methods = {"runtime": with_runtime, "quad_vec": with_quad_vec}
    times = race({name: (lambda f=f: f(r, t)) for name, f in methods.items()}, args.rounds)
    print(f"{'method':10s} {'seconds':>8s} {'ratio':>6s} {'body calls':>10s} "
          f"{'median err':>10s} {'max err':>8s}  slow draws")
    for name, method in methods.items():
        value, slow, calls = method(r, t)
        err = np.abs(value - closed) / closed
        print(f"{name:10s} {times[name]:8.3f} {times[name] / times['runtime']:6.1f} {calls:10d} "
              f"{np.median(err):10.1e} {err.max():8.1e}  {slow}")


if __name__ == "__main__":
    main()
