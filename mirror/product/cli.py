"""The ``leanmirror`` command line.

Three workflows (see ``DESIGN.md``):

- a Lean author changed a theorem: ``leanmirror status``, then ``leanmirror generate``;
- a numerics engineer changed a kernel: ``leanmirror fuzz`` (or ``pytest mirrors/``);
- a reviewer wants the coverage: ``leanmirror report``.

Every command turns the problems a user can meet — a missing project, a broken lock, an
unreadable file, an interrupted run — into ONE line ``leanmirror: error: <problem>; <fix>``
on stderr and exit status 2; files are written atomically, so nothing is left half-written.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Sequence

from bridge.errors import (
    ExportFormatError,
    InvalidArgument,
    LeanMirrorError,
    LockError,
    ProjectError,
    ToolchainFailure,
    ToolchainNotFound,
)
from mirror.judge.guard import DEFAULT_STATEMENT_TIMEOUT
from mirror.product.console import Console, summarise_warnings

#: Entry-point group of packages adding their own subcommands: each entry loads to
#: ``register(sub)``, given the subparsers (the bundled demo's ``models``/``experiment``).
COMMAND_GROUP = "leanmirror.commands"
#: File names that mark a Lake project root.
LAKEFILES = ("lakefile.toml", "lakefile.lean")
#: The statement lock, relative to the project, unless ``--lock`` says otherwise.
DEFAULT_LOCK = "leanmirror.lock"
#: Extracted declarations, relative to the project, unless ``--out`` says otherwise.
DEFAULT_DECLARATIONS = Path(".leanmirror") / "declarations.json"
from mirror.product.outcome import (DEFAULT_FAIL_ON, EXIT_ERROR, EXIT_FINDINGS, EXIT_OK,
                                    exit_status, exit_table_text, finding_lines, parse_fail_on,
                                    status_counts, summary_line)
_METHODS = ("auto", "exporter", "scanner", "dojo")
_FIXES: tuple[tuple[type, str], ...] = (
    (ProjectError, "pass --project with a directory that contains lakefile.toml"),
    (LockError, "recreate the lock with `leanmirror extract` (it writes the lock)"),
    (ToolchainNotFound, "install Lean with elan, or pass --method scanner"),
    (ToolchainFailure, "run `lake build` in the project to see Lean's own messages"),
    (ExportFormatError, "rebuild the exporter (`lake build leanmirror-export`) and retry"),
    (InvalidArgument, "see `leanmirror COMMAND --help` for the accepted values"),
)

_EPILOG = """\
workflows:
  a Lean author changed a theorem      leanmirror status; leanmirror generate
  a numerics engineer changed a kernel leanmirror fuzz --time 600   (or: pytest mirrors/)
  a reviewer wants the coverage        leanmirror report --out report/

exit status:
{exits}

The project is the nearest directory with a lakefile.toml from the current directory upward,
or the one --project names.
"""


class CommandError(LeanMirrorError, RuntimeError):
    """A command cannot proceed; the message carries the problem and the fix."""


def find_project(start: Path | None = None) -> Path:
    """The directory with a lakefile from ``start`` (default: cwd) upward, as git finds its
    repository; nowhere else (leanmirror's own bundled project is used only from its root)."""
    here = (start or Path.cwd()).resolve()
    for directory in (here, *here.parents):
        if any((directory / name).is_file() for name in LAKEFILES):
            return directory
    raise ProjectError(
        f"no Lake project (lakefile.toml or lakefile.lean) in {str(here)!r} or any parent; "
        "run leanmirror inside a Lake project or pass --project PATH"
    )


def resolve_project(value: str | None) -> Path:
    """The project a command works on: ``--project`` (checked) or :func:`find_project`."""
    if value is None:
        return find_project()
    path = Path(value).expanduser()
    if not path.exists():
        raise ProjectError(f"project {value!r} does not exist")
    if not path.is_dir():
        raise ProjectError(f"project {value!r} is not a directory")
    if not any((path / name).is_file() for name in LAKEFILES):
        raise ProjectError(f"project {value!r} has no lakefile.toml")
    return path.resolve()


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"got {text!r}; expected a positive integer") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"got {value}; expected a positive integer")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"got {text!r}; expected seconds > 0") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"got {text!r}; expected seconds > 0")
    return value


def _lock_path(project: Path, value: str | None) -> Path:
    return Path(value) if value else project / DEFAULT_LOCK


def _cmd_extract(args: argparse.Namespace) -> int:
    project = resolve_project(args.project)
    from bridge.extraction import extract, write_declarations
    from bridge.lock import write_lock

    extraction = extract(project, method=args.method)
    out = Path(args.out) if args.out else project / DEFAULT_DECLARATIONS
    lock = _lock_path(project, args.lock)
    write_declarations(extraction, out)
    write_lock(extraction, lock)
    meta = extraction.meta
    kernel = "kernel checked" if meta.get("kernel") else "no kernel ran"
    print(
        f"extracted {len(extraction.declarations)} declarations "
        f"({meta.get('method', args.method)}, {kernel}), "
        f"{len(extraction.diagnostics)} diagnostics"
    )
    for diagnostic in extraction.diagnostics:
        print(f"  {diagnostic}", file=sys.stderr)
    print(f"declarations: {out}\nlock: {lock}")
    return EXIT_OK


def _cmd_status(args: argparse.Namespace) -> int:
    project = resolve_project(args.project)
    lock_file = _lock_path(project, args.lock)
    if not lock_file.is_file():
        raise LockError(f"no statement lock at {str(lock_file)!r}")
    from bridge.extraction import extract
    from bridge.lock import compare, read_lock

    lock = read_lock(lock_file)
    diff = compare(lock, extract(project, method=args.method))
    if args.json:
        _print_json({"lock": str(lock_file), "stale": diff.is_stale,
                     "new": sorted(diff.new), "changed": sorted(diff.changed),
                     "removed": sorted(diff.removed)})
        return EXIT_FINDINGS if diff.is_stale else EXIT_OK
    for label, names in (("new", diff.new), ("changed", diff.changed), ("removed", diff.removed)):
        for name in sorted(names):
            print(f"{label:8} {name}")
    if diff.is_stale:
        print(
            f"stale: {len(diff.new)} new, {len(diff.changed)} changed, {len(diff.removed)} "
            "removed; run `leanmirror generate`, review, then `leanmirror extract`"
        )
        return EXIT_FINDINGS
    print(f"up to date with {lock_file}")
    return EXIT_OK


def _cmd_show(args: argparse.Namespace) -> int:
    project = resolve_project(args.project)
    from mirror.product.runner import show_isolated

    print(show_isolated(project, args.name, method=args.method,
                        statement_timeout=args.statement_timeout))
    return EXIT_OK


def _console(args: argparse.Namespace) -> Console:
    return Console(verbosity=-1 if args.quiet else (1 if args.verbose else 0))


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def _findings(command: str, args: argparse.Namespace, rows: list[dict[str, Any]],
              extra: str = "") -> int:
    """The summary line and the failing rows on stderr; the exit status ``--fail-on`` gives."""
    counts = status_counts(rows)
    print(summary_line(command, counts, extra), file=sys.stderr)  # even with -q
    for line in finding_lines(rows, args.fail_on):
        print(f"  {line}", file=sys.stderr)
    return exit_status(counts, args.fail_on)


def _cmd_report(args: argparse.Namespace) -> int:
    project = resolve_project(args.project)
    from mirror.product.pipeline import CheckSettings
    from mirror.product.report import write_report
    from mirror.product.runner import run_isolated

    settings = CheckSettings(seed=args.seed, statement_timeout=args.statement_timeout)
    if args.examples is not None:
        settings.max_examples = args.examples
    console = _console(args)
    console.say(f"report: checking the statements of {project}")
    progress = console.progress("report")
    try:
        result = run_isolated(project, method=args.method, settings=settings,
                              progress=progress.advance, jobs=args.jobs, ray=args.ray,
                              cache=not args.no_cache)
    finally:
        progress.close()
    from mirror.product.explain import attach_explanations

    attach_explanations(result.results, getattr(result, "mirrors", []))
    compare_with = _previous_report(args.compare) if args.compare else None
    written = write_report(Path(args.out), result, previous=compare_with)
    rows = [r.to_json() if hasattr(r, "to_json") else dict(r) for r in result.results]
    if args.json:
        _print_json({"project": str(project), "files": {k: str(v) for k, v in written.items()},
                     "counts": dict(status_counts(rows)),
                     "findings": [{"name": r["name"], "status": r.get("mirror_status"),
                                   "replay": r.get("replay"), "reason": r.get("reason")}
                                  for r in rows if r.get("mirror_status") in args.fail_on]})
    else:
        for fmt, path in written.items():
            print(f"{fmt}: {path}")
    return _findings("report", args, rows)


def _previous_report(value: str) -> dict[str, Any]:
    path = Path(value)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data.get("statements"), list):
            raise ValueError("it has no 'statements' list")
    except (OSError, ValueError, AttributeError) as exc:
        raise InvalidArgument(f"--compare {value!r} is not a readable report.json ({exc}); "
                              "pass the report.json of an earlier `leanmirror report`") from None
    return data


def _cmd_generate(args: argparse.Namespace) -> int:
    project = resolve_project(args.project)
    from mirror.product.generator import generate

    result = generate(project, Path(args.out), check=args.check, method=args.method,
                      statement_timeout=args.statement_timeout)
    if args.check:
        if result.stale:
            for path in result.stale:
                print(f"stale: {path}")
            print(f"{len(result.stale)} generated files are stale; run `leanmirror generate`")
            return EXIT_FINDINGS
        print(f"{len(result.expected)} generated files up to date in {args.out}")
        return EXIT_OK
    for path in result.written:
        print(f"wrote {path}")
    for path in result.removed:
        print(f"removed {path}")
    unchanged = len(result.expected) - len(result.written)
    print(f"{len(result.written)} written, {len(result.removed)} removed, {unchanged} unchanged")
    return EXIT_OK


def _cmd_fuzz(args: argparse.Namespace) -> int:
    project = resolve_project(args.project)
    from mirror.product.fuzz import run_session

    summary = run_session(
        project,
        select=args.select or None,
        examples=args.examples,
        time_budget=args.time,
        jobs=args.jobs,
        log=args.log,
        database=args.database,
        ray=args.ray,
        progress=not args.quiet and sys.stderr.isatty(),
        method=args.method,
        seed=args.seed,
        statement_timeout=args.statement_timeout,
    )
    statuses = ", ".join(f"{k} {v}" for k, v in sorted(summary.statuses.items()))
    print(
        f"fuzz {summary.session}: {summary.done}/{summary.statements} statements, "
        f"{summary.examples} examples, {len(summary.failures)} refuted ({statuses}) "
        f"in {summary.elapsed:.1f} s; log {summary.log}"
    )
    if summary.stopped:
        print(f"stopped early: {summary.stopped}")
    for warning in summary.warnings:
        print(f"warning: {warning}")
    failing = set(summary.failures)
    rows = [{"name": name, "mirror_status": status}
            for name, status in sorted(getattr(summary, "final_statuses", {}).items())]
    if not rows:  # a summary without per-statement statuses: counts and the refuted names
        rows = [{"name": name, "mirror_status": "refuted"} for name in sorted(failing)]
        rows += [{"name": "", "mirror_status": status}
                 for status, n in summary.statuses.items() if status != "refuted"
                 for _ in range(n)]
    return _findings(f"fuzz {summary.session}", args, rows)


def _cmd_init(args: argparse.Namespace) -> int:
    project = resolve_project(args.project)
    from bridge.extraction import extract
    from mirror.bind.onboarding import init_section, write_init

    extraction = extract(project, method=args.method)
    if args.print:
        print(init_section(extraction), end="")
        return EXIT_OK
    path = write_init(project, extraction)
    print(f"wrote [tool.leanmirror] to {path}; uncomment the bindings you implement, then run "
          "`leanmirror bindings`")
    return EXIT_OK


def _cmd_bindings(args: argparse.Namespace) -> int:
    project = resolve_project(args.project)
    from mirror.product.runner import bindings_isolated

    table = bindings_isolated(project, args.method)  # imported in a worker: it may crash
    rows = table["rows"]
    if args.json:
        _print_json({"config": str(table["where"]), "bindings": rows,
                     "problems": [str(p) for p in table["problems"]]})
        return EXIT_FINDINGS if table["errors"] or table["problems"] else EXIT_OK
    print(f"{len(rows)} binding(s) in {table['where']}")
    for row in rows:
        if row["loads"]:
            print(f"ok     {row['lean_name']}: {row['convention']}")
        else:
            print(f"error  {row['lean_name']}: {row['error']}")
    for problem in table["problems"]:
        print(f"error  {problem}")
    return EXIT_FINDINGS if table["errors"] or table["problems"] else EXIT_OK


def _cmd_check(args: argparse.Namespace) -> int:
    project = resolve_project(args.project)
    from mirror.product.pipeline import build_mirrors, extract_project, instance_mirrors
    from mirror.product.explain import explain

    mirrors = instance_mirrors(build_mirrors(extract_project(project, args.method)))
    exact = [m for m in mirrors if m.name == args.name]
    matches = exact or [m for m in mirrors if m.name.endswith("." + args.name)]
    if len(matches) != 1:
        names = ", ".join(sorted(m.name for m in matches)[:6]) or "none"
        raise CommandError(f"check: {args.name!r} names {len(matches)} mirrored statements "
                           f"({names}); pass one full name as the report shows it")
    if args.certificate is not None:
        from mirror.judge.certificate import read
        from mirror.product.replay import check_certificate

        verdict = check_certificate(matches[0], read(args.certificate))
        print(verdict.line(matches[0].name))
        return EXIT_OK if verdict.accepted else EXIT_FINDINGS
    if args.example is None:
        raise CommandError("check: pass --example JSON (replay a draw) or --certificate FILE "
                           "(re-verify a refutation)")
    explanation = explain(matches[0], args.example, debug=args.pdb)
    if args.json:
        _print_json(explanation.to_json())
    else:
        print(explanation.text())
    return EXIT_FINDINGS if explanation.verdict == "refuted" else EXIT_OK


def _add_project(parser: argparse.ArgumentParser, method: bool = True) -> None:
    parser.add_argument(
        "--project",
        metavar="PATH",
        help="the Lake project (a directory with lakefile.toml); default: the nearest one "
        "from the current directory upward, else the bundled project (the repository root)",
    )
    if method:
        parser.add_argument(
            "--method",
            choices=_METHODS,
            default="auto",
            help="extraction: exporter (needs a Lean toolchain; kernel checked), scanner "
            "(no Lean; statuses unchecked), dojo (LeanDojo traces); auto picks the exporter "
            "when Lean is installed (default: auto)",
        )


def _add_statement_timeout(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--statement-timeout",
        metavar="SECONDS",
        type=_positive_float,
        default=DEFAULT_STATEMENT_TIMEOUT,
        help="wall-clock limit per statement; past it the statement is an `error` row "
        f"(\"timed out in <stage>\") and the run goes on (default: {DEFAULT_STATEMENT_TIMEOUT:g})",
    )


#: Subcommand → (one-line help, description).
_COMMAND_TEXTS: dict[str, tuple[str, str]] = {
    "extract": (
        "extract the project's declarations and write the statement lock",
        "Extract every declaration of the project (exporter or source scanner), "
        "write them as JSON, and write the statement lock that `status` and `generate` "
        "compare against.",
    ),
    "status": (
        "list statements that changed since the lock (exit 1 when stale)",
        "Compare the project's current statements with the statement lock and "
        "list new, changed and removed ones. Exit status 1 when the lock is stale.",
    ),
    "show": (
        "show one statement: Lean text, translation, generated code, plan",
        "Show what leanmirror makes of one declaration: its Lean statement, "
        "status, sympy translation, generated property and sampling plan.",
    ),
    "report": (
        "check every statement and write report.html, report.md and report.json",
        "Run every mirror (symbolic check, Hypothesis, vectorized sweep) and "
        "write the proved-vs-tested coverage report: report.html (one self-contained page), "
        "report.md and report.json.",
    ),
    "generate": (
        "write the mirrors as reviewable Python source (--check: exit 1 when stale)",
        "Write, per Lean module, a module of property functions and a pytest "
        "module that runs them through Hypothesis. Output is deterministic. With --check "
        "nothing is written: stale files are listed and the exit status is 1.",
    ),
    "fuzz": (
        "fuzz mirrored statements on all cores (or a Ray cluster) for a budget",
        "Run every mirrored statement (or the selection) with an example or time "
        "budget on all local cores, or as Ray tasks. Each result is appended to a JSON-lines "
        "log as it arrives; counterexamples are saved to the Hypothesis database and replayed "
        "first by the next session. Exit status 1 when a statement is refuted.",
    ),
    "init": (
        "write a commented [tool.leanmirror] section listing the project's definitions",
        "Append to the project's pyproject.toml a commented [tool.leanmirror] "
        "section: every definition with a body, its parameters and the call the default "
        "calling convention makes, as bindings to uncomment.",
    ),
    "bindings": (
        "list each binding, whether it loads, and its calling convention (exit 1: errors)",
        "Resolve the project's bindings ([tool.leanmirror.bindings], @binds "
        "modules, entry points) against its Lean definitions and list each one: the calling "
        "convention it resolved, or the error that stops it.",
    ),
    "check": (
        "replay one example of one statement (the command a refuted row carries)",
        "Run one mirrored statement on one example (a JSON object of its "
        "variables), in float64 and then decided exactly, calling the bound implementations on "
        "exactly those inputs. Exit status 1 when the example refutes the statement.",
    ),
}


def _add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true",
                        help="print the result as JSON on stdout (the summary stays on stderr)")


def _add_fail_on(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fail-on", metavar="STATUSES", type=parse_fail_on, default=DEFAULT_FAIL_ON,
        help="exit 1 when a row has one of these statuses (comma-separated, e.g. "
        "refuted,error,inconclusive; `none` never fails; default: refuted,error)")


def _add_seed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", metavar="SEED", type=int, default=0, help="random seed (default: 0)")


def _command(sub: argparse._SubParsersAction, name: str, handler: Callable[[argparse.Namespace], int],
             *, project: bool = True, timeout: bool = False) -> argparse.ArgumentParser:
    """The subcommand ``name`` (texts from :data:`_COMMAND_TEXTS`) run by ``handler``, with
    ``--project``/``--method`` and, with ``timeout``, ``--statement-timeout``; the caller
    adds its own arguments."""
    help_text, description = _COMMAND_TEXTS[name]
    parser = sub.add_parser(name, help=help_text, description=description)
    loudness = parser.add_mutually_exclusive_group()
    loudness.add_argument("-q", "--quiet", action="store_true",
                          help="no progress and no notes; the summary and errors only")
    loudness.add_argument("-v", "--verbose", action="store_true",
                          help="each statement's verdict as it arrives, every warning")
    if project:
        _add_project(parser)
    if timeout:
        _add_statement_timeout(parser)
    parser.set_defaults(handler=handler)
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand and its help."""
    from mirror import __version__

    parser = argparse.ArgumentParser(
        prog="leanmirror",
        description="Mirror Lean 4 statements as executable Python properties, fuzz NumPy "
        "implementations against them, and report what is proved by Lean's kernel, what is "
        "only tested, and what is neither.",
        epilog=_EPILOG.format(exits=exit_table_text()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"leanmirror {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = _command(sub, "extract", _cmd_extract)
    p.add_argument(
        "--out",
        metavar="FILE",
        help=f"declarations JSON to write (default: PROJECT/{DEFAULT_DECLARATIONS})",
    )
    p.add_argument("--lock", metavar="FILE", help=f"statement lock to write (default: PROJECT/{DEFAULT_LOCK})")

    p = _command(sub, "status", _cmd_status)
    p.add_argument("--lock", metavar="FILE", help=f"statement lock to read (default: PROJECT/{DEFAULT_LOCK})")
    _add_json(p)

    p = _command(sub, "show", _cmd_show, timeout=True)
    p.add_argument("name", metavar="NAME", help="declaration name (full or its last component)")

    p = _command(sub, "report", _cmd_report, timeout=True)
    p.add_argument("--out", metavar="DIR", default="report", help="output directory (default: report/)")
    p.add_argument(
        "--examples", metavar="N", type=_positive_int, help="Hypothesis examples per statement (default: 200)"
    )
    _add_seed(p)
    p.add_argument("--jobs", metavar="N", type=_positive_int,
                   help="worker processes (default: all cores)")
    p.add_argument("--ray", metavar="ADDRESS|local",
                   help="run statements as Ray tasks on the cluster at ADDRESS, or on a local "
                   "Ray instance (needs the extra leanmirror[ray])")
    p.add_argument("--no-cache", action="store_true",
                   help="recompute every statement (default: re-use the rows of statements "
                   "whose statement, definitions, implementation and settings did not change)")
    _add_json(p)
    _add_fail_on(p)
    p.add_argument("--compare", metavar="REPORT_JSON",
                   help="an earlier report.json: the report shows what became refuted, what "
                   "was fixed and what is newly covered")

    p = _command(sub, "generate", _cmd_generate, timeout=True)
    p.add_argument("--out", metavar="DIR", default="mirrors", help="output directory (default: mirrors/)")
    p.add_argument("--check", action="store_true", help="compare only; exit 1 when files are stale")

    p = _command(sub, "fuzz", _cmd_fuzz, timeout=True)
    p.add_argument(
        "--select",
        metavar="NAME|MODULE",
        nargs="+",
        help="statements by full or short name, or whole modules (default: all)",
    )
    p.add_argument("--examples", metavar="N", type=_positive_int,
                   help="examples per statement (with --time: whichever ends first)")
    p.add_argument("--time", metavar="SECONDS", type=_positive_float,
                   help="wall-clock budget of the session, spent in rounds over the statements")
    p.add_argument("--jobs", metavar="N", type=_positive_int, help="worker processes (default: all cores)")
    p.add_argument("--log", metavar="FILE", help="JSON-lines results log (default: PROJECT/.leanmirror/fuzz.jsonl)")
    p.add_argument(
        "--database", metavar="DIR", help="Hypothesis example database (default: PROJECT/.leanmirror/hypothesis)"
    )
    p.add_argument(
        "--ray",
        metavar="ADDRESS|local",
        help="run statements as Ray tasks on the cluster at ADDRESS, or on a local Ray "
        "instance started for the session (needs the extra leanmirror[ray])",
    )
    _add_seed(p)
    _add_fail_on(p)

    p = _command(sub, "init", _cmd_init)
    p.add_argument("--print", action="store_true", help="print the section, write nothing")

    _add_json(_command(sub, "bindings", _cmd_bindings))

    p = _command(sub, "check", _cmd_check)
    p.add_argument("name", metavar="NAME", help="the statement's full name, as the report shows it")
    p.add_argument("--example", metavar="JSON",
                   help="the example, e.g. '{\"x\": [1.5, -2.0]}': each variable of the "
                   "statement, a value of its Lean type")
    p.add_argument("--certificate", metavar="FILE",
                   help="re-verify a refutation certificate (JSON) with the independent checker")
    p.add_argument("--pdb", action="store_true",
                   help="stop in the Python debugger before each call of a bound implementation")
    _add_json(p)

    for entry in metadata.entry_points(group=COMMAND_GROUP):
        entry.load()(sub)  # a package's own commands (the bundled demo: models, experiment)
    return parser


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _fail(problem: str, fix: str | None) -> int:
    message = _one_line(problem)
    if fix and "; " not in message:
        message = f"{message}; {fix}"
    print(f"leanmirror: error: {message}", file=sys.stderr)
    return EXIT_ERROR


def _print_notes(caught: list[warnings.WarningMessage], verbosity: int = 0) -> None:
    """Warnings raised during a command: each distinct one once, with its count (a fallback,
    a skipped file, a user kernel's RuntimeWarning …); nothing with ``-q``."""
    if verbosity < 0:
        return
    for text in summarise_warnings(caught):
        print(f"leanmirror: note: {text}", file=sys.stderr)


def _fix_for(exc: BaseException) -> str:
    for kind, fix in _FIXES:
        if isinstance(exc, kind):
            return fix
    return "see `leanmirror --help`"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 findings, 2 error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default")
            status = int(args.handler(args))
        verbosity = -1 if getattr(args, "quiet", False) else int(getattr(args, "verbose", False))
        _print_notes(caught, verbosity)  # on success only: an error is reported as one line
        return status
    except KeyboardInterrupt:
        return _fail(
            f"{args.command} interrupted",
            "files already written are complete (nothing half-written); run it again",
        )
    except LeanMirrorError as exc:
        return _fail(str(exc) or type(exc).__name__, _fix_for(exc))
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in ("bridge", "mirror"):
            return _fail(
                f"{args.command}: this leanmirror lacks its component {exc.name!r}",
                "reinstall leanmirror from a complete checkout",
            )
        return _fail(
            f"{args.command} needs the module {exc.name!r}, which is not installed",
            "install leanmirror with the matching extra (e.g. pip install 'leanmirror[ray]')",
        )
    except ImportError as exc:
        return _fail(
            f"{args.command}: this leanmirror lacks a component ({exc})",
            "reinstall leanmirror from a complete checkout",
        )
    except UnicodeDecodeError as exc:
        return _fail(f"a file is not valid UTF-8 ({exc.reason})", "check the file's encoding")
    except OSError as exc:
        target = exc.filename if exc.filename is not None else ""
        what = exc.strerror or type(exc).__name__
        return _fail(
            f"cannot access {str(target)!r}: {what}" if target else f"I/O error: {what}",
            "check that the path exists and is readable/writable",
        )


if __name__ == "__main__":
    sys.exit(main())
