"""A randomized mix of faults against leanmirror; prints, per fault, how often the run held.

Usage::

    python tools/chaos.py [--count N] [--time SECONDS] [--seed S] [--jobs J]

Each trial draws one fault (a crashing, hanging or exiting binding; SIGKILL of ``report`` or
``fuzz`` at a random moment; a torn log line at a random offset; a disk full at a random
size; symlink loops, FIFOs and devices in the source tree; an unterminated comment at a
random place), sets it up in a fresh temporary directory (nothing outside it is touched),
runs leanmirror against it in a child process bounded in time, and checks the acceptance
of issue 22: the run finishes, the faulty statement is an ``error`` row naming the cause,
every other statement has its verdict, no file is lost or half-written. At most ``--count``
trials run, and none starts after ``--time`` seconds. Exit status 1 when any trial broke.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.faults.projects import FAULTY, UNTOUCHED, make_project  # noqa: E402

#: Seconds any one command may take before the trial counts as broken (a hang).
COMMAND_LIMIT = 150
#: Words each binding fault's rows must name.
CAUSES = {"exit": "exited with status 1", "segfault": "SIGSEGV",
          "c_loop": "hard time limit", "memory": "MemoryError",
          "exit_at_import": "exited with status 3", "loop_at_import": "hard time limit",
          "segfault_at_import": "SIGSEGV"}
#: The binding faults that end a worker at import (what ``generate`` imports).
AT_IMPORT = ("exit_at_import", "loop_at_import", "segfault_at_import")
REPORT_NAMES = ("report.html", "report.md", "report.json")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    return env


def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mirror.product.cli", *args], env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _finish(proc: subprocess.Popen, limit: float = COMMAND_LIMIT) -> tuple[int | None, str]:
    """The return code (``None``: it hung and was killed) and the output."""
    try:
        out, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return None, "hung"
    return proc.returncode, out + err


def _rows(out: Path) -> dict[str, dict]:
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return {row["name"]: row for row in data["statements"]}


def binding_fault(fault: str, jobs: int) -> Callable[[Path, random.Random], str | None]:
    def trial(tmp: Path, rng: random.Random) -> str | None:
        project = make_project(tmp / "p", fault)
        code, text = _finish(_start("report", "--project", str(project), "--out",
                                    str(tmp / "r"), "--method", "scanner", "--examples", "20",
                                    "--statement-timeout", "3", "--jobs", str(jobs)))
        if code != 1:  # 1: findings (the error rows); anything else is a failure
            return f"report exit {code}: {text[-300:]}"
        rows = _rows(tmp / "r")
        for name in FAULTY:
            if rows[name]["mirror_status"] != "error" or CAUSES[fault] not in rows[name]["reason"]:
                return f"{name}: {rows[name]['mirror_status']} {rows[name]['reason']!r}"
        for name in UNTOUCHED:
            if rows[name]["mirror_status"] not in ("tested", "symbolic"):
                return f"{name}: {rows[name]['mirror_status']}"
        return None
    return trial


def _one_set(out: Path, old: dict[str, bytes]) -> str | None:
    """``None`` when ``out`` holds the old set or one whole new set."""
    now = {n: (out / n).read_bytes() if (out / n).exists() else None for n in REPORT_NAMES}
    if now == old:
        return None
    if any(now[n] is None or now[n] == old[n] for n in REPORT_NAMES):
        return "a mix of the previous and the new report: " + ", ".join(
            f"{n} {'missing' if now[n] is None else 'old' if now[n] == old[n] else 'new'}"
            for n in REPORT_NAMES)
    stamp = json.loads(now["report.json"])["meta"]["generated_at"]
    if not all(stamp.encode() in now[n] for n in ("report.html", "report.md")):
        return "the new files are of different runs"
    return None


def _old_report(out: Path) -> dict[str, bytes]:
    from mirror.judge.result import StatementResult
    from mirror.product.report import write_report

    row = StatementResult("P.previous", "P", "theorem", "unchecked", "tested")
    write_report(out, ({"generated_at": "previous-run"}, [row], []))
    return {n: (out / n).read_bytes() for n in REPORT_NAMES}


def sigkill_report(tmp: Path, rng: random.Random) -> str | None:
    project = make_project(tmp / "p", "none")
    out = tmp / "r"
    old = _old_report(out)
    proc = _start("report", "--project", str(project), "--out", str(out), "--method",
                  "scanner", "--examples", "20", "--jobs", "2", "--no-cache")
    time.sleep(rng.uniform(0.5, 12.0))
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
    return _one_set(out, old)


def sigkill_fuzz(tmp: Path, rng: random.Random) -> str | None:
    from mirror.judge.fileio import append_jsonl, read_jsonl

    project = make_project(tmp / "p", "none")
    log = tmp / "fuzz.jsonl"
    proc = _start("fuzz", "--project", str(project), "--method", "scanner", "--quiet",
                  "--time", "30", "--jobs", "2", "--log", str(log), "--database",
                  str(tmp / "db"))
    time.sleep(rng.uniform(0.5, 12.0))
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
    try:
        before = len(read_jsonl(log).records) if log.exists() else 0
        append_jsonl(log, {"event": "probe"})
        after = read_jsonl(log).records
    except Exception as exc:  # noqa: BLE001 - the point: any failure to read is a break
        return f"log unreadable after the kill: {exc}"
    return None if len(after) == before + 1 else "records lost after the kill"


def torn_log(tmp: Path, rng: random.Random) -> str | None:
    from mirror.judge.fileio import append_jsonl, read_jsonl

    log = tmp / "fuzz.jsonl"
    for i in range(rng.randint(2, 8)):
        append_jsonl(log, {"event": "result", "i": i, "pad": "x" * rng.randint(0, 200)})
    data = log.read_bytes()
    cut = rng.randint(1, len(data) - 1)
    log.write_bytes(data[:cut])
    whole = data[:cut].count(b"\n")
    append_jsonl(log, {"event": "after"})
    try:
        records = read_jsonl(log).records
    except Exception as exc:  # noqa: BLE001
        return f"unreadable: {exc}"
    if len(records) != whole + 1 or records[-1] != {"event": "after"}:
        return f"expected {whole} whole records and the new one, read {len(records)}"
    return None


def full_disk(tmp: Path, rng: random.Random) -> str | None:
    """A real full disk: a tmpfs of a random size, the previous report on it."""
    mount = tmp / "disk"
    mount.mkdir()
    size = rng.choice((48, 64, 96, 128, 256))
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}k", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        return "skip: cannot mount a tmpfs (needs root)"
    try:
        from mirror.judge.result import StatementResult
        from mirror.product.report import write_report

        out = mount / "r"
        try:
            old = _old_report(out)
        except OSError:
            return None  # not even the previous report fits: nothing to keep
        rows = [StatementResult(f"P.t{i}", "P", "theorem", "unchecked", "tested",
                                statement="x" * rng.randint(10, 4000))
                for i in range(rng.randint(1, 60))]
        try:
            write_report(out, ({"generated_at": "new-run"}, rows, []))
        except OSError as exc:
            if str(out) not in str(exc):
                return f"the error names no file of the report: {exc}"
            if "No space" not in str(exc):
                return f"unexpected error: {exc}"
        left = sorted(p.name for p in mount.iterdir())
        if left != ["r"]:
            return f"left behind: {left}"
        return _one_set(out, old)
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def source_tree(tmp: Path, rng: random.Random) -> str | None:
    root = tmp / "p"
    (root / "lean" / "P").mkdir(parents=True)
    (root / "lakefile.toml").write_text('name = "p"\nsrcDir = "lean"\n\n[[lean_lib]]\n'
                                        'name = "P"\n', encoding="utf-8")
    (root / "lean" / "P" / "Good.lean").write_text(
        "namespace P\ntheorem good (x : Nat) : x + 0 = x := by simp\nend P\n", encoding="utf-8")
    for i in range(rng.randint(1, 3)):
        os.symlink(rng.choice((".", "..")), root / "lean" / "P" / f"loop{i}")
    if rng.random() < 0.5:
        os.mkfifo(root / "lean" / "P" / "Fifo.lean")
    if rng.random() < 0.5:
        os.symlink("/dev/zero", root / "lean" / "P" / "Zero.lean")
    script = ("import json, sys; from bridge.scanner import scan_project; "
              "e = scan_project(sys.argv[1]); print(json.dumps(e.meta['modules']))")
    try:
        done = subprocess.run([sys.executable, "-c", script, str(root)], env=_env(),
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "the walk did not end within 60 s"
    if done.returncode != 0:
        return f"scan failed: {done.stderr[-300:]}"
    modules = json.loads(done.stdout)
    return None if "P.Good" in modules and len(modules) == len(set(modules)) <= 3 else \
        f"modules {modules[:5]} … ({len(modules)})"


def unterminated(tmp: Path, rng: random.Random) -> str | None:
    from bridge.scanner import scan_file

    lines = [f"theorem t{i} (x : Nat) : x + {i} = {i} + x := by omega" for i in range(8)]
    at = rng.randint(0, len(lines))
    opening = rng.choice(("/- open comment", 'def s : String := "open'))
    text = "\n".join(lines[:at] + [opening] + lines[at:]) + "\n"
    names = {d.name for d in scan_file(tmp / "X.lean", "X", text=text)[0]}
    expected = {f"t{i}" for i in range(at)}
    hidden = {f"t{i}" for i in range(at, len(lines))} & names
    if hidden:
        return f"declarations after the unterminated {opening.split()[0]} still found: {hidden}"
    return None if expected <= names else f"lost {expected - names}"


def dead_worker_fuzz(tmp: Path, rng: random.Random) -> str | None:
    project = make_project(tmp / "p", rng.choice(("exit", "segfault")))
    log = tmp / "fuzz.jsonl"
    code, text = _finish(_start("fuzz", "--project", str(project), "--method", "scanner",
                                "--quiet", "--examples", "20", "--jobs", "2", "--log",
                                str(log), "--database", str(tmp / "db")))
    if code is None:
        return "fuzz hung after a worker died"
    if "6/6 statements" not in text:
        return f"statements missing from the summary: {text[-300:]}"
    return None


def generate_fault(tmp: Path, rng: random.Random) -> str | None:
    """``generate`` then ``generate --check`` with a module that ends its worker at import:
    both finish, exit 1 naming the module and the cause, and the files are the same at
    ``--jobs 1`` and ``2``."""
    fault = rng.choice(AT_IMPORT)
    project = make_project(tmp / "p", fault)
    args = ("--project", str(project), "--out", str(tmp / "m"), "--method", "scanner",
            "--statement-timeout", "3")
    for extra in (("--jobs", "2"), ("--check", "--jobs", "1")):
        code, text = _finish(_start("generate", *args, *extra))
        if code != 1 or CAUSES[fault] not in text or "faultpkg.bad" not in text:
            return f"generate {' '.join(extra)} ({fault}): exit {code}: {text[-300:]}"
        if "--check" in extra and "up to date" not in text:
            return f"generate --check ({fault}) differs at --jobs 1: {text[-300:]}"
    return None


def faults(jobs: int) -> dict[str, Callable[[Path, random.Random], str | None]]:
    table: dict[str, Callable[[Path, random.Random], str | None]] = {
        f"binding {name}": binding_fault(name, jobs) for name in CAUSES}
    table.update({"sigkill report": sigkill_report, "sigkill fuzz": sigkill_fuzz,
                  "torn log line": torn_log, "full disk (tmpfs)": full_disk,
                  "source tree": source_tree, "unterminated comment/string": unterminated,
                  "fuzz after a dead worker": dead_worker_fuzz,
                  "generate, a module ends its worker": generate_fault})
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=12, help="trials at most (default 12)")
    parser.add_argument("--time", type=float, default=600.0,
                        help="no trial starts after this many seconds (default 600)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument("--jobs", type=int, default=2, help="report workers (default 2)")
    parser.add_argument("--only", nargs="+", metavar="FAULT", help="draw only these faults")
    args = parser.parse_args(argv)
    if args.count <= 0 or args.time <= 0:
        parser.error(f"--count {args.count} / --time {args.time}: expected positive numbers")
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    table = faults(args.jobs)
    names = [n for n in table if not args.only or any(o in n for o in args.only)]
    if not names:
        parser.error(f"--only {args.only}: matches none of {sorted(table)}")
    tally: dict[str, list[int]] = {}
    start = time.monotonic()
    print(f"chaos: seed {seed}, at most {args.count} trials in {args.time:g} s")
    for trial in range(args.count):
        if time.monotonic() - start > args.time:
            break
        name = rng.choice(names)
        with tempfile.TemporaryDirectory(prefix="leanmirror-chaos-") as tmp:
            began = time.monotonic()
            try:
                broke = table[name](Path(tmp), rng)
            except Exception as exc:  # noqa: BLE001 - a crash of the trial is a break
                broke = f"{type(exc).__name__}: {exc}"
        held = tally.setdefault(name, [0, 0])
        if broke is not None and broke.startswith("skip:"):
            print(f"  {trial + 1:3d} {name:32s} skipped ({broke[5:].strip()})")
            continue
        held[0 if broke is None else 1] += 1
        verdict = "held" if broke is None else f"BROKE: {broke}"
        print(f"  {trial + 1:3d} {name:32s} {verdict} ({time.monotonic() - began:.1f} s)")
    print(f"{'fault':34s} held  broke")
    for name in sorted(tally):
        print(f"{name:34s} {tally[name][0]:4d}  {tally[name][1]:5d}")
    return 1 if any(b for _, b in tally.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
