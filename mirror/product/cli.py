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
import sys
import warnings
from importlib import metadata
from typing import Callable, Sequence

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
from mirror.product.console import summarise_warnings

# re-exported: CommandError, find_project, resolve_project, LAKEFILES and the exit statuses are
# the names commands of other packages (mirror.bundled.commands) build on
from mirror.product.commands import (COMMAND_GROUP, DEFAULT_DECLARATIONS, DEFAULT_LOCK,
                                     LAKEFILES, CommandError, _cmd_bindings, _cmd_check,
                                     _cmd_extract, _cmd_fuzz, _cmd_generate, _cmd_init,
                                     _cmd_report, _cmd_show, _cmd_status, find_project,
                                     resolve_project)
from mirror.product.outcome import (DEFAULT_FAIL_ON, EXIT_ERROR, EXIT_FINDINGS, EXIT_OK,
                                    exit_table_text, parse_fail_on)

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
    p.add_argument("--jobs", metavar="N", type=_positive_int,
                   help="worker processes translating the statements (default: all cores)")

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
    p.add_argument("--run-kernel", action="store_true",
                   help="with --certificate of a kernel's conformance row: also call the kernel "
                   "(through its binding) at the certificate's draw and confirm its recorded "
                   "output, bit for bit")
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
