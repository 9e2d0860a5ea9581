"""The handlers of the ``leanmirror`` subcommands, and how a command finds its project.

:mod:`mirror.product.cli` builds the argument parser and turns errors into one line; each
``_cmd_<name>`` here runs one subcommand on parsed arguments and returns its exit status
(:mod:`mirror.product.outcome`). The project is found as git finds its repository
(:func:`find_project`) or named by ``--project`` (:func:`resolve_project`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bridge.errors import InvalidArgument, LeanMirrorError, LockError, ProjectError
from mirror.product.console import Console
from mirror.product.outcome import (EXIT_FINDINGS, EXIT_OK, exit_status, finding_lines,
                                    status_counts, summary_line)


#: Entry-point group of packages adding their own subcommands: each entry loads to
#: ``register(sub)``, given the subparsers (the bundled demo's ``models``/``experiment``).
COMMAND_GROUP = "leanmirror.commands"
#: File names that mark a Lake project root.
LAKEFILES = ("lakefile.toml", "lakefile.lean")
#: The statement lock, relative to the project, unless ``--lock`` says otherwise.
DEFAULT_LOCK = "leanmirror.lock"
#: Extracted declarations, relative to the project, unless ``--out`` says otherwise.
DEFAULT_DECLARATIONS = Path(".leanmirror") / "declarations.json"


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
    from mirror.product.settings import CheckSettings
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
    if getattr(result, "mirrors", None):  # pooled runs explain in the workers
        from mirror.product.explain import attach_explanations

        attach_explanations(result.results, result.mirrors)
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
    from mirror.product.runner import generate_isolated

    generation = generate_isolated(project, Path(args.out), check=args.check,
                                   method=args.method, statement_timeout=args.statement_timeout,
                                   jobs=args.jobs)
    result = generation.result
    for module, cause in generation.poisoned:
        print(f"error: module {module} ended a worker at import ({cause}); its bindings are "
              "error blocks", file=sys.stderr)
    for name, cause in generation.failures.items():
        print(f"error: {name}: translating it ended a worker ({cause})", file=sys.stderr)
    failed = EXIT_FINDINGS if generation.failures or generation.poisoned else EXIT_OK
    if args.check:
        if result.stale:
            for path in result.stale:
                print(f"stale: {path}")
            print(f"{len(result.stale)} generated files are stale; run `leanmirror generate`")
            return EXIT_FINDINGS
        print(f"{len(result.expected)} generated files up to date in {args.out}")
        return failed
    for path in result.written:
        print(f"wrote {path}")
    for path in result.removed:
        print(f"removed {path}")
    unchanged = len(result.expected) - len(result.written)
    print(f"{len(result.written)} written, {len(result.removed)} removed, {unchanged} unchanged")
    return failed


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

        certificate = read(args.certificate)
        verdict = check_certificate(matches[0], certificate)
        print(verdict.line(matches[0].name))
        if args.run_kernel:
            from mirror.product.replay import rerun_kernel

            confirmed, line = rerun_kernel(matches[0], certificate)
            print(line)
            verdict.accepted = verdict.accepted and confirmed
        return EXIT_OK if verdict.accepted else EXIT_FINDINGS
    if args.run_kernel:
        raise CommandError("check: --run-kernel re-runs a conformance certificate's kernel; "
                           "pass it with --certificate FILE")
    if args.example is None:
        raise CommandError("check: pass --example JSON (replay a draw) or --certificate FILE "
                           "(re-verify a refutation)")
    explanation = explain(matches[0], args.example, debug=args.pdb)
    if args.json:
        _print_json(explanation.to_json())
    else:
        print(explanation.text())
    return EXIT_FINDINGS if explanation.verdict == "refuted" else EXIT_OK


