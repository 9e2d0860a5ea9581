"""Benchmark: source-scanner throughput, against references run side by side.

Builds a corpus of ~200 Lean files by replicating the test fixtures and the bundled
``lean/`` sources, then times, in the same process:

- the full scan (``bridge.scanner.scan_file``: lex, split, parse, resolve);
- reading + lexing alone (``bridge.lexer.tokenize``), the floor the scan builds on;
- Python's own ``tokenize`` module on a Python file of the same total size.

Prints files/s and declarations/s and the ratios. Run: ``python bench/bench_scan.py``.

With ``--project DIR`` (a Lake project, e.g. a checkout of PFR: 72 Mathlib-style files) it
instead times a whole-project scan in a fresh interpreter, start-up included (``scan_project``,
as ``leanmirror extract`` does), in wall-clock and CPU time, beside a bare interpreter start-up
and Python's own ``tokenize`` over Python source of the same size, and prints the share of
theorem statements that parse and the most frequent unknown notation. Issue 12 asks for at most
2 s on such a project; compare the CPU figure when the machine is shared, and with
``--baseline TREE`` the same scan by another source tree (an earlier revision) side by side.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import subprocess
import sys
import time
import tokenize as py_tokenize
from pathlib import Path

from bench._common import best_of
from bridge.lexer import tokenize
from bridge.scanner import scan_file

ROOT = Path(__file__).resolve().parent.parent


def _corpus(target: int) -> list[tuple[str, str]]:
    sources = sorted((ROOT / "tests" / "fixtures" / "projects").rglob("*.lean"))
    sources += sorted((ROOT / "lean").rglob("*.lean"))
    sources = [s for s in sources if s.name != "lakefile.lean"]
    texts = [(str(s.relative_to(ROOT)), s.read_text(encoding="utf-8")) for s in sources]
    if not texts:
        raise SystemExit("bench_scan: no .lean sources found")
    out = []
    k = 0
    while len(out) < target:
        name, text = texts[k % len(texts)]
        out.append((f"{name}#{k}", text))
        k += 1
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=200, help="corpus size in files")
    parser.add_argument("--repeats", type=int, default=3, help="timing repeats (best is kept)")
    parser.add_argument("--project", metavar="DIR", help="time a whole-project scan of the Lake project DIR")
    parser.add_argument("--baseline", metavar="TREE", type=Path,
                        help="with --project: also time the scan with the source tree TREE (e.g. "
                             "`git worktree add /tmp/base REV`), side by side")
    args = parser.parse_args(argv)
    if args.baseline is not None and not (args.baseline / "bridge" / "scanner.py").is_file():
        parser.error(f"--baseline {str(args.baseline)!r}: expected a leanmirror source tree (bridge/scanner.py)")
    if args.project:
        _project(Path(args.project), args.repeats, args.baseline)
        return
    corpus = _corpus(args.files)
    total_chars = sum(len(t) for _, t in corpus)
    counts = {"decls": 0}

    def scan_all() -> None:
        counts["decls"] = 0
        for name, text in corpus:
            decls, _ = scan_file(name, "Bench", text=text)
            counts["decls"] += len(decls)

    def lex_all() -> None:
        for _, text in corpus:
            tokenize(text)

    py_source = (ROOT / "bridge" / "parser.py").read_text(encoding="utf-8")
    py_text = py_source * max(1, total_chars // len(py_source))

    def python_tokenize() -> None:
        for _ in py_tokenize.generate_tokens(io.StringIO(py_text).readline):
            pass

    t_scan = best_of(scan_all, args.repeats)[0]
    t_lex = best_of(lex_all, args.repeats)[0]
    t_py = best_of(python_tokenize, args.repeats)[0]
    n = len(corpus)
    print(f"corpus: {n} files, {total_chars / 1e6:.2f} M characters, {counts['decls']} declarations")
    print(f"scan (lex+split+parse+resolve): {t_scan:.3f} s  {n / t_scan:8.1f} files/s  "
          f"{counts['decls'] / t_scan:9.1f} declarations/s")
    print(f"lex only (bridge.lexer):        {t_lex:.3f} s  {n / t_lex:8.1f} files/s")
    print(f"Python tokenize, same size:     {t_py:.3f} s  ({len(py_text) / 1e6:.2f} M characters)")
    print(f"ratio scan / lex only:          {t_scan / t_lex:.2f}x")
    print(f"ratio scan / Python tokenize:   {t_scan / t_py:.2f}x")
    print(f"ratio lex / Python tokenize:    {t_lex / t_py:.2f}x")


def _fresh(command: list[str], repeats: int, root: Path = ROOT) -> tuple[float, float]:
    """Best wall-clock and best CPU time (user + system) of ``command`` in a fresh process
    importing the packages of the source tree ``root``."""
    best_wall = best_cpu = float("inf")
    env = {**os.environ, "PYTHONPATH": str(root)}
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, cwd=root, env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
    return best_wall, best_cpu


def _project(project: Path, repeats: int, baseline: Path | None = None) -> None:
    """Whole-project scan in a fresh interpreter (start-up included), with its parse rate.

    Wall-clock time depends on what else the machine runs; the CPU time of the child process
    (user + system) much less, so both are printed, with the load average, beside a bare
    interpreter start-up and Python's own ``tokenize`` over Python source of the same size."""
    from bridge.scanner import scan_project, unknown_notation

    if not project.is_dir():
        raise SystemExit(f"bench_scan: --project {str(project)!r} is not a directory; expected a Lake project")
    code = f"from bridge.scanner import scan_project; scan_project({str(project)!r})"
    sources = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(project.rglob("*.lean"))
               if ".lake" not in p.parts]
    text = "\n".join(sources)
    py_source = (ROOT / "bridge" / "parser.py").read_text(encoding="utf-8")
    py_text = py_source * max(1, len(text) // len(py_source))

    def python_tokenize() -> None:
        for _ in py_tokenize.generate_tokens(io.StringIO(py_text).readline):
            pass

    wall, cpu = _fresh([sys.executable, "-c", code], repeats)
    if baseline is not None:  # the same scan with another source tree, run right after
        base_wall, base_cpu = _fresh([sys.executable, "-c", code], repeats, baseline)
    start_wall, start_cpu = _fresh([sys.executable, "-c", "pass"], repeats)
    t_py = best_of(python_tokenize, repeats)[0]
    extraction = scan_project(project)
    theorems = [d for d in extraction.declarations if d.kind == "theorem"]
    parsed = [d for d in theorems if d.type is not None]
    print(f"project: {project} ({len(sources)} files, {len(text) / 1e6:.2f} M characters)")
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print(f"theorem statements parsed: {len(parsed)} / {len(theorems)} = {len(parsed) / max(1, len(theorems)):.1%}")
    print(f"scan_project, fresh interpreter (start-up included): {wall:.3f} s wall, {cpu:.3f} s CPU")
    if baseline is not None:
        print(f"the same with the tree {baseline}: {base_wall:.3f} s wall, {base_cpu:.3f} s CPU "
              f"(this tree / baseline CPU: {cpu / base_cpu:.2f}x)")
    print(f"bare interpreter start-up:                           {start_wall:.3f} s wall, {start_cpu:.3f} s CPU")
    print(f"Python tokenize, Python source of the same size:     {t_py:.3f} s")
    print(f"ratio scan CPU / Python tokenize:                    {cpu / t_py:.2f}x")
    print("unknown notation (most frequent first):", unknown_notation(extraction)[:10])


if __name__ == "__main__":
    main()
