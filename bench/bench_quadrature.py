"""Scalar error of every quadrature placement for t^r on [δ, Λ], Λ/δ = 1e4 (held-out points).

Prints the full table (placement × r × m, max relative error |R(t) − t^r| / t^r over the
held-out grid), the best placement for m ≤ 8 and m ≤ 16 against the issue's acceptance
(1e-3 and 1e-8), and the build time of each placement relative to the closed-form log rule
(measured side by side in this process).

Run: ``.venv/bin/python bench/bench_quadrature.py [--json out.json]``
"""

from __future__ import annotations

import argparse
import json
import time

from mirror.bundled.impl.quadrature import PLACEMENTS, best_errors, build_rule, error_table

EXPONENTS = (0.25, 0.5, 0.75)
COUNTS = tuple(range(4, 17))
KAPPA = 1e4


def main() -> None:
    """Print the table and the acceptance lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()

    rows = error_table(PLACEMENTS, EXPONENTS, COUNTS, KAPPA)
    print(f"held-out max relative error, Λ/δ = {KAPPA:g}")
    header = "placement        r    " + " ".join(f"m={m:<6d}" for m in COUNTS)
    print(header)
    for placement in PLACEMENTS:
        for r in EXPONENTS:
            errs = [row["error"] for row in rows if row["placement"] == placement and row["r"] == r]
            print(f"{placement:<16s} {r:<4g} " + " ".join(f"{e:8.1e}" for e in errs))
    print()
    for r in EXPONENTS:
        p8, e8 = best_errors(rows, r, 8)
        p16, e16 = best_errors(rows, r, 16)
        print(f"r={r:<4g} best m<=8: {e8:.2e} ({p8}) {'OK' if e8 < 1e-3 else 'MISS'} 1e-3 | "
              f"best m<=16: {e16:.2e} ({p16}) {'OK' if e16 < 1e-8 else 'MISS'} 1e-8")
    print()
    print("build time per rule (r=0.25, m=12), ratio to 'log':")
    times = {}
    for placement in PLACEMENTS:
        start = time.perf_counter()
        build_rule(placement, 0.25, 12, 1.0, KAPPA * 1.37)  # fresh κ: no cache hit
        times[placement] = time.perf_counter() - start
    for placement in PLACEMENTS:
        print(f"  {placement:<16s} {1e3 * times[placement]:9.2f} ms   x{times[placement] / times['log']:8.1f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(rows, handle, indent=1)


if __name__ == "__main__":
    main()
