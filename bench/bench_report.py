"""``leanmirror report`` at one and two workers, from a warm cache, after a one-theorem edit,
and statements per second on a public corpus.

Usage::

    python bench/bench_report.py [--examples N] [--corpus DIR] [--skip-corpus]
    python bench/bench_report.py --warm-against OTHER_TREE [--examples 5]

Every run is the CLI in a child process on a copy of the bundled project in a temporary
directory (the edit never touches this checkout). Printed per run: wall seconds, the CPU
seconds of the child and its workers, and the load average around it; the ratios are what
to read. On a shared machine the wall ratio of ``--jobs 2`` to ``--jobs 1`` is bounded by
the cores the others leave free, so the CPU-based figure (CPU seconds / wall seconds of the
two-worker run: the cores it kept busy) is printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: The file of the theorem the edit run changes (its statement gains a space: same meaning).
EDITED_FILE = Path("lean") / "Mirror" / "Ops" / "Scalar.lean"


def _env(code: Path = REPO) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(code), env.get("PYTHONPATH")) if p)
    return env


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def report(project: Path, out: Path, *args: str, code: Path = REPO) -> dict:
    """One ``report`` run (leanmirror from the tree ``code``): wall and CPU seconds, load,
    and the rows of its report.json."""
    load = os.getloadavg()[0]
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "mirror.product.cli", "report", "--project",
                           str(project), "--out", str(out), "--method", "scanner", *args],
                          env=_env(code), cwd=code, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):  # 1: findings (refuted or error rows), still a report
        raise SystemExit(f"report {' '.join(args)} failed ({done.returncode}): "
                         f"{done.stderr[-2000:]}")
    rows = json.loads((out / "report.json").read_text(encoding="utf-8"))["statements"]
    return {"wall": wall, "cpu": _children_cpu() - cpu, "load": (load, os.getloadavg()[0]),
            "rows": rows, "recomputed": sum(r.get("cached") is None for r in rows)}


def _line(label: str, run: dict) -> str:
    return (f"{label:34s} {run['wall']:8.1f} s wall {run['cpu']:8.1f} s CPU  "
            f"{len(run['rows']):4d} rows, {run['recomputed']:4d} computed  "
            f"load {run['load'][0]:.1f}→{run['load'][1]:.1f}")


def _verdicts(run: dict) -> list[tuple]:
    return [(r["name"], r["mirror_status"], r["examples"], str(r.get("counterexample")))
            for r in run["rows"]]


def _copy_bundled(into: Path) -> Path:
    shutil.copytree(REPO, into, ignore=shutil.ignore_patterns(
        ".git", ".venv", "tests", "__pycache__", ".leanmirror", "report", "mirrors",
        "*.egg-info", "bench", "docs"))
    return into


def _edit_one_theorem(project: Path) -> str:
    """Rewrite one theorem's statement (same meaning); its name."""
    from bridge.scanner import scan_project

    file = project / EDITED_FILE
    theorems = [d for d in scan_project(project).declarations
                if d.kind == "theorem" and d.range is not None and str(d.range).startswith(
                    str(EDITED_FILE))]
    target = theorems[0]
    text = file.read_text(encoding="utf-8")
    old = target.statement_text
    new = old.replace(" : ", " :  ", 1) if " : " in old else old + " "
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    return target.name


def bundled(examples: str | None) -> None:
    extra = ("--examples", examples) if examples else ()
    with tempfile.TemporaryDirectory(prefix="leanmirror-bench-") as tmp:
        project = _copy_bundled(Path(tmp) / "bundled")
        out = Path(tmp) / "report"
        one = report(project, out, "--jobs", "1", "--no-cache", *extra)
        print(_line("bundled --jobs 1 --no-cache", one), flush=True)
        two = report(project, out, "--jobs", "2", "--no-cache", *extra)
        print(_line("bundled --jobs 2 --no-cache", two), flush=True)
        warm = report(project, out, "--jobs", "2", *extra)
        print(_line("bundled re-run, nothing changed", warm), flush=True)
        name = _edit_one_theorem(project)
        edited = report(project, out, "--jobs", "2", *extra)
        print(_line(f"bundled after editing {name.split('.')[-1]}", edited), flush=True)
        changed = [r["name"] for r in edited["rows"] if r.get("cached") is None]
        print(f"  wall ratio --jobs 1 / --jobs 2: {one['wall'] / two['wall']:.2f}x")
        print(f"  CPU-time-based ratio 2 x CPU(--jobs 1) / CPU(--jobs 2): "
              f"{2 * one['cpu'] / two['cpu']:.2f}x (the speed-up on two free cores if the "
              "work divides evenly)")
        print(f"  cores kept busy at --jobs 2 (CPU / wall): {two['cpu'] / two['wall']:.2f}")
        print(f"  verdicts identical at --jobs 1, --jobs 2 and warm: "
              f"{_verdicts(one) == _verdicts(two) == _verdicts(warm)}")
        print(f"  warm re-run: {warm['wall']:.1f} s wall, {warm['cpu']:.1f} s CPU, "
              f"{warm['recomputed']} rows computed (target: ≤ 10 s)")
        print(f"  recomputed after the edit: {changed}")


def warm_against(other: Path, examples: str, repeats: int = 3) -> None:
    """The warm re-run of this tree and of ``other`` (another checkout, e.g. an older
    commit), side by side: per tree, one cold run at ``examples`` examples fills the cache,
    then ``repeats`` warm runs alternate between the trees. The cold runs are not the
    measure (use few examples: they only fill the caches)."""
    trees = {"this tree": REPO, f"{other}": other}
    with tempfile.TemporaryDirectory(prefix="leanmirror-bench-") as tmp:
        projects = {}
        for index, (label, code) in enumerate(trees.items()):
            projects[label] = _copy_bundled(Path(tmp) / f"bundled{index}")
            cold = report(projects[label], Path(tmp) / f"cold{index}", "--jobs", "2",
                          "--examples", examples, code=code)
            print(_line(f"cold fill, {label}"[:34], cold), flush=True)
        runs: dict[str, list[dict]] = {label: [] for label in trees}
        for _ in range(repeats):
            for index, (label, code) in enumerate(trees.items()):
                runs[label].append(report(projects[label], Path(tmp) / f"warm{index}",
                                          "--jobs", "2", "--examples", examples, code=code))
        for label, done in runs.items():
            walls = sorted(r["wall"] for r in done)
            cpus = sorted(r["cpu"] for r in done)
            print(f"warm re-run, {label}: median {walls[len(walls) // 2]:.1f} s wall, "
                  f"{cpus[len(cpus) // 2]:.1f} s CPU; per run (in order): "
                  + ", ".join(f"{r['wall']:.1f} s wall {r['cpu']:.1f} s CPU "
                              f"{r['recomputed']} rows computed" for r in done))


def corpus(path: Path, examples: str | None, jobs: str) -> None:
    extra = ("--examples", examples) if examples else ()
    with tempfile.TemporaryDirectory(prefix="leanmirror-bench-") as tmp:
        run = report(path, Path(tmp) / "report", "--jobs", jobs, "--no-cache",
                     "--statement-timeout", "60", *extra)
        rows = run["rows"]
        print(_line(f"{path.name} --jobs {jobs} --no-cache", run))
        statuses: dict[str, int] = {}
        for row in rows:
            statuses[row["mirror_status"] or "none"] = statuses.get(row["mirror_status"] or "none", 0) + 1
        print(f"  {len(rows) / run['wall']:.2f} statements/s wall, "
              f"{len(rows) / max(run['cpu'], 1e-9):.2f} statements per CPU second; {statuses}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", help="examples per statement (default: report's)")
    parser.add_argument("--corpus", type=Path, default=None,
                        help="a Lake project of ~500 statements (default: /work/corpus/minif2f "
                        "if present, else tests/fixtures/mathlib)")
    parser.add_argument("--corpus-jobs", default="2")
    parser.add_argument("--skip-bundled", action="store_true")
    parser.add_argument("--skip-corpus", action="store_true")
    parser.add_argument("--warm-against", metavar="TREE", type=Path,
                        help="only compare the warm re-run of this tree with another checkout "
                        "of leanmirror (e.g. `git archive BASE | tar -x -C TREE`)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start")
    if args.warm_against is not None:
        warm_against(args.warm_against.resolve(), args.examples or "5")
        return
    if not args.skip_bundled:
        bundled(args.examples)
    if not args.skip_corpus:
        path = args.corpus or next((p for p in (Path("/work/corpus/minif2f"),
                                                REPO / "tests" / "fixtures" / "mathlib")
                                    if p.is_dir()))
        corpus(path, args.examples, args.corpus_jobs)


if __name__ == "__main__":
    main()
