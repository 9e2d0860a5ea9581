"""The resolvent layer against scipy.linalg.fractional_matrix_power, side by side.

For each case ``(d, B)``: an accretive ``A`` (``AccretiveParams.random``), ``X`` (B × d),
reference ``Y = X · Re(fractional_matrix_power(A, r))ᵀ`` (Schur–Padé), and the layer on
the direct path and on the GMRES path (fixed iterations, batched and, for one small case,
SciPy's ``gmres`` column by column). Prints times (best of ``--repeat``), the ratio to the
SciPy reference, the relative error against it, and the GMRES residual reported.

Run: ``.venv/bin/python bench/bench_fractional.py [--repeat 3] [--skew 0.1]``
"""

from __future__ import annotations

import argparse

import numpy as np

from bench._common import best_of
from mirror.bundled.impl.fractional import AccretiveParams, estimate_bounds, fractional_apply, fractional_power_reference
from mirror.bundled.impl.quadrature import build_rule

CASES = ((64, 1024), (256, 1024), (512, 1024))


def main() -> None:
    """Run every case and print one line per method."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--r", type=float, default=0.5)
    parser.add_argument("--shifts", type=int, default=12)
    parser.add_argument("--skew", type=float, default=0.1, help="‖K‖₂ / λmax(S)")
    parser.add_argument("--iterations", type=int, default=24, help="GMRES iterations per shift")
    args = parser.parse_args()
    r = args.r
    print(f"r={r} shifts={args.shifts} skew={args.skew} gmres_iterations={args.iterations} placement=rational")
    print(f"{'d':>4s} {'B':>5s} {'method':<22s} {'seconds':>9s} {'ratio':>7s} {'rel.err':>9s} {'residual':>9s}")
    for d, batch in CASES:
        params = AccretiveParams.random(d, d // 2, delta=0.1, skew=args.skew, seed=d)
        X = np.random.default_rng(0).standard_normal((batch, d))
        rule = build_rule("rational", r, args.shifts, *estimate_bounds(params.S, skew=params.K))
        ref_time, ref = best_of(lambda: X @ fractional_power_reference(params.A, r).T, args.repeat)
        print(f"{d:4d} {batch:5d} {'scipy fmp (reference)':<22s} {ref_time:9.4f} {1.0:7.2f} {'-':>9s} {'-':>9s}")
        methods = [("direct", {"method": "direct"}),
                   ("gmres batched", {"method": "gmres", "gmres_iterations": args.iterations})]
        if d == 64:
            methods.append(("gmres batched B=64", {"method": "gmres", "gmres_iterations": args.iterations, "_batch": 64}))
            methods.append(("direct B=64", {"method": "direct", "_batch": 64}))
        for name, kwargs in methods:
            rows = kwargs.pop("_batch", batch)
            Xs, refs = X[:rows], ref[:rows]
            seconds, (Y, info) = best_of(
                lambda: fractional_apply(Xs, params, r, rule, return_info=True, **kwargs), args.repeat)
            err = np.linalg.norm(Y - refs) / np.linalg.norm(refs)
            ref_rows = ref_time if rows == batch else best_of(
                lambda: Xs @ fractional_power_reference(params.A, r).T, args.repeat)[0]
            print(f"{d:4d} {rows:5d} {name:<22s} {seconds:9.4f} {seconds / ref_rows:7.2f} {err:9.1e} {info.residual:9.1e}")
    # SciPy's gmres column by column, one small case (slow: Python loop over columns and shifts).
    d, rows = 256, 16
    params = AccretiveParams.random(d, d // 2, delta=0.1, skew=args.skew, seed=d)
    X = np.random.default_rng(0).standard_normal((rows, d))
    rule = build_rule("rational", r, args.shifts, *estimate_bounds(params.S, skew=params.K))
    kw = {"method": "gmres", "gmres_iterations": args.iterations}
    t_batched, Yb = best_of(lambda: fractional_apply(X, params, r, rule, **kw), args.repeat)
    t_scipy, Ys = best_of(lambda: fractional_apply(X, params, r, rule, solver="scipy", **kw), 1)
    print(f"{d:4d} {rows:5d} batched vs scipy.gmres: {t_batched:.4f}s vs {t_scipy:.4f}s "
          f"(scipy/batched x{t_scipy / t_batched:.1f}), max diff {np.abs(Yb - Ys).max() / np.abs(Ys).max():.1e}")


if __name__ == "__main__":
    main()
