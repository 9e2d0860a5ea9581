#!/usr/bin/env python3
"""Regenerate ``docs/coverage.md``: how much of each Lean project leanmirror reads, translates and checks.

Usage::

    python tools/coverage.py [--examples N] [--sweep N] [--out docs/coverage.md]
                             [--describe NAME=TEXT ...] [--extreme] [PROJECT ...]
                             [--benchmark] [--rows FILE]

Every project under ``tests/fixtures/projects/``, ``tests/fixtures/mathlib`` and
``tests/fixtures/competition`` is measured,
then each ``PROJECT`` given on the command line (a public project checked out elsewhere; one
that is absent is listed with a note, not measured; ``--describe NAME=TEXT`` records where
project ``NAME`` comes from, e.g. its repository and commit). For each project the pipeline runs with
the source scanner and a small example budget, and the page gets:

- counts and shares of theorems *parsed*, *translated* (a mirror was built), *tested or
  symbolic*, *refuted* and *error* (leanmirror failed on the statement);
- per project, the parser's unknown notation, grouped by the token that stopped parsing, most
  frequent first;
- what blocks coverage: every untranslatable/unbound reason, keyed as the report keys it
  (``unknown constant Foo``, ``notation ≃ᵐ``, ``type class C`` …), by frequency;
- with ``--mutants``: the mutation score on the vendored Mathlib files (``tools/mutants.py``);
- with ``--extreme``: every ``tested`` theorem of the proved sets (Mathlib, competition)
  re-checked with real draws forced to extreme magnitudes (:data:`EXTREMES`: ``1e-300`` …
  ``1e300``, subnormals, exact zeros; :mod:`mirror.sample.extremes`); a refutation there is a bug.

A fixture directory may hold a ``sources.toml`` saying where its files come from and in which
round each was first measured (``round = "tuned"`` for files earlier rounds measured and fixed
leanmirror on, else the round's date; per file under ``[[file]]`` or for the whole directory at
the top level). Each round of a directory is its own row, and rows of files never measured
before a round are reported apart, as that round's *first look*: what a new user meets.

With ``--benchmark`` only the projects named on the command line are measured (a public
benchmark such as miniF2F, or ``tests/fixtures/competition`` for Compfiles), and the page also
breaks down the inconclusive rows by reason; ``--rows FILE`` writes every theorem row (status,
reason, method, rejected draws, and which pass: ``ordinary`` or ``extreme``) as JSON lines, for
diffing two runs. ``--rows`` and ``--findings`` are written as each statement finishes and the
page after each project, so a run killed half-way keeps what it measured.

In a project whose theorems are all proved (the vendored Mathlib files, the public projects),
every ``refuted`` and every ``error`` is a leanmirror bug; their names are listed.
"""

from __future__ import annotations

import argparse
import ast
import json
import shlex
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tools.coverage_rows import Sink, finding_row, is_error, theorem_row  # noqa: E402,F401

FIXTURES = REPO / "tests" / "fixtures"
#: Statuses that are a claim about the statement holding.
CHECKED = ("tested", "symbolic", "certified")
#: Statuses that say leanmirror could not build a mirror.
BLOCKED = ("untranslatable", "unbound")
#: Round of files earlier rounds were tuned on (``sources.toml``).
TUNED = "tuned"
#: Fixture directories whose theorems are all proved upstream (``--extreme`` re-checks them):
#: the Mathlib projects (``fixtures/mathlib`` and its ``round-*`` projects) and the competition set.
PROVED_SETS = ("fixtures/mathlib", "fixtures/competition")
#: Magnitudes the extreme pass forces on real draws (each with both signs): the ends of the
#: float64 range, subnormals and exact zero.
EXTREMES = (0.0, 5e-324, 1e-310, 2.2250738585072014e-308, 1e-300, 1e-200, 1e-100, 1e-30,
            1e30, 1e100, 1e200, 1e300)
#: ``real_bound`` of a re-checked plan, so that unbounded real ranges reach ``1e300``.
EXTREME_BOUND = 1e300
#: Hand-checked findings on public benchmarks (misformalized statements refuted), included in
#: the page as they are: written by whoever checked each by hand, not generated.
BENCHMARK_FINDINGS = REPO / "docs" / "benchmark-findings.md"


@dataclass
class Figures:
    """What one project's run amounts to."""

    project: str
    theorems: int = 0
    parsed: int = 0
    translated: int = 0
    checked: int = 0
    refuted: int = 0
    error: int = 0
    inconclusive: int = 0
    #: Inconclusive rows by their reason, normalized (:func:`inconclusive_key`).
    undecided: Counter = field(default_factory=Counter)
    notation: Counter = field(default_factory=Counter)
    blockers: Counter = field(default_factory=Counter)
    refuted_names: list[str] = field(default_factory=list)
    error_names: list[str] = field(default_factory=list)
    #: Set when the run itself failed (the project got no rows at all).
    failed: str | None = None
    #: The round (a date) in which these files were first measured, for a first look.
    first_look: str | None = None

    def share(self, count: int) -> str:
        """``count`` as a percentage of the theorems (``–`` when there are none)."""
        return f"{100.0 * count / self.theorems:.0f} %" if self.theorems else "–"


def stopping_token(diagnostic) -> str | None:
    """The token (or construct) at which the parser gave up, from a parse diagnostic.

    Uses the diagnostic's ``construct`` when the scanner provides one; otherwise reads the
    ``unexpected <kind> '<token>'`` / ``unexpected end of input`` tail of its message.
    ``None`` for diagnostics that are not about parsing.
    """
    construct = getattr(diagnostic, "construct", None)
    if construct:
        return str(construct)
    message = diagnostic.message
    if "cannot parse" not in message:
        return None
    _, found, tail = message.rpartition("unexpected ")
    if not found:
        return message.rsplit(": ", 1)[-1]
    kind, _, quoted = tail.partition(" ")
    if quoted[:1] in ("'", '"'):
        try:
            return str(ast.literal_eval(quoted))
        except (ValueError, SyntaxError):
            return quoted
    return tail


def blocker(result, notation: dict[str, str]) -> str:
    """What blocked a row, keyed as the report's "What blocks coverage" table keys it
    (:func:`mirror.product.report.blocker_key`), so equal causes group together."""
    from mirror.product.report import blocker_key

    parsed = notation.get(result.name) if "did not parse" in (result.reason or "") else None
    return blocker_key(result.mirror_status, result.reason, parsed)


def inconclusive_key(reason: str | None) -> str:
    """An inconclusive row's reason with its particulars (draw counts, values, names after a
    colon) dropped, so equal causes group together."""
    text = " ".join((reason or "no reason given").split())
    head = text.split(": ", 1)[0].split(" (", 1)[0]
    words = ["N" if word.strip(",.;%").replace(".", "", 1).isdigit() else word
             for word in head.split()]
    key = " ".join(words)
    return key if len(key) <= 90 else key[:87] + "..."


def statement_constructs(diagnostics: Iterable) -> dict[str, str]:
    """Declaration name → the token that stopped parsing its statement."""
    found: dict[str, str] = {}
    prefix = "cannot parse the statement of "
    for diagnostic in diagnostics:
        token = stopping_token(diagnostic)
        if token is not None and diagnostic.message.startswith(prefix):
            found.setdefault(diagnostic.message[len(prefix):].split(":", 1)[0], token)
    return found


def unknown_notation(diagnostics: Iterable) -> Counter:
    """Parse diagnostics grouped by the token that stopped the parser."""
    found: Counter = Counter()
    for diagnostic in diagnostics:
        token = stopping_token(diagnostic)
        if token is not None:
            found[token] += 1
    return found


def module_of(path: str) -> str:
    """``Mathlib/Data/Nat/Defs.lean`` → ``Mathlib.Data.Nat.Defs`` (a project-relative file)."""
    return path.removesuffix(".lean").replace("\\", "/").replace("/", ".")


def tally(name: str, run_result, modules: set[str] | None = None) -> Figures:
    """Count one :class:`mirror.product.pipeline.RunResult` into :class:`Figures`; with
    ``modules``, only the rows and diagnostics of those modules."""
    def kept(module: str) -> bool:
        return modules is None or module in modules

    figures = Figures(name)
    diagnostics = [d for d in run_result.diagnostics if kept(module_of(d.file))]
    constructs = statement_constructs(diagnostics)
    theorem_mirrors = [m for m in run_result.mirrors
                       if m.role == "theorem" and kept(m.declaration.module)]
    figures.parsed = sum(1 for m in theorem_mirrors if m.declaration.type is not None)
    figures.translated = sum(1 for m in theorem_mirrors if m.status == "ready")
    for result in run_result.results:
        if result.kind != "theorem" or not kept(result.module):
            continue
        figures.theorems += 1
        status = result.mirror_status
        if status in CHECKED:
            figures.checked += 1
        elif status == "refuted":
            figures.refuted += 1
            figures.refuted_names.append(result.name)
        elif is_error(result):
            figures.error += 1
            figures.error_names.append(result.name)
        elif status == "inconclusive":
            figures.inconclusive += 1
            figures.undecided[inconclusive_key(result.reason)] += 1
        elif status in BLOCKED:
            figures.blockers[blocker(result, constructs)] += 1
    figures.notation = unknown_notation(diagnostics)
    return figures


def rounds(project: Path) -> dict[str, set[str] | None]:
    """Round → the modules first measured in it, from ``project/sources.toml`` (``None``: the
    whole directory). No file, one round: ``{"tuned": None}``."""
    import tomllib

    path = project / "sources.toml"
    if not path.is_file():
        return {TUNED: None}
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    if "round" in data:
        return {str(data["round"]): None}
    found: dict[str, set[str] | None] = {}
    for entry in data.get("file", []):
        if "path" not in entry or "round" not in entry:
            raise ValueError(f"{path}: a [[file]] entry needs 'path' and 'round', got {sorted(entry)}")
        found.setdefault(str(entry["round"]), set()).add(module_of(str(entry["path"])))
    return found or {TUNED: None}


def split_by_round(name: str, project: Path, run_result) -> list[Figures]:
    """One :class:`Figures` per round of ``project`` (tuned first, then first looks by date)."""
    by_round = rounds(project)
    if len(by_round) == 1:
        figures = tally(name, run_result)
        label = next(iter(by_round))
        figures.first_look = None if label == TUNED else label
        return [figures]
    measured = []
    for label in sorted(by_round, key=lambda r: (r != TUNED, r)):
        if label == TUNED:
            measured.append(tally(f"{name} (tuned)", run_result, by_round[label]))
            continue
        figures = tally(f"{name} (first look {label})", run_result, by_round[label])
        figures.first_look = label
        measured.append(figures)
    return measured


def run_project(project: Path, examples: int, sweep: int, progress=None):
    """The pipeline's :class:`RunResult` on ``project`` (source scanner, small budgets);
    ``progress`` is called with each statement's row as soon as it is checked."""
    from mirror.product.pipeline import CheckSettings, run

    return run(project, method="scanner", settings=CheckSettings(max_examples=examples, sweep=sweep),
               progress=progress)


def measure(name: str, project: Path, examples: int, sweep: int,
            progress=None) -> tuple[list[Figures], object]:
    """Run the pipeline on ``project`` and tally it by round; a failed run is recorded, not
    raised. Also returns the run (``None`` when it failed)."""
    try:
        result = run_project(project, examples, sweep, progress)
    except Exception as exc:  # noqa: BLE001 - the page reports a crashed run as a finding
        return [Figures(name, failed=f"{type(exc).__name__}: {exc}".splitlines()[0][:200])], None
    return split_by_round(name, project, result), result


def fixture_projects() -> list[tuple[str, Path]]:
    """The repository's fixture projects: ``tests/fixtures/projects/*``, the Mathlib files (the
    tuned project and one project per later round, ``round-<date>/``) and the competition
    statements."""
    found = [(f"fixtures/projects/{p.name}", p)
             for p in sorted((FIXTURES / "projects").iterdir()) if p.is_dir()]
    found.append(("fixtures/mathlib", FIXTURES / "mathlib"))
    found += [(f"fixtures/mathlib/{p.name}", p) for p in sorted((FIXTURES / "mathlib").iterdir())
              if p.is_dir() and (p / "lakefile.toml").is_file()]
    found.append(("fixtures/competition", FIXTURES / "competition"))
    return found


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return lines


def _cell(text: str) -> str:
    return "`" + text.replace("|", "\\|").replace("`", "'") + "`"


def _figures_table(measured: list[Figures]) -> list[str]:
    rows = []
    for f in measured:
        if f.failed:
            rows.append([f.project, "run failed", "", "", "", "", f.failed])
            continue
        rows.append([
            f.project, str(f.theorems),
            f"{f.parsed} ({f.share(f.parsed)})", f"{f.translated} ({f.share(f.translated)})",
            f"{f.checked} ({f.share(f.checked)})", f"{f.refuted} ({f.share(f.refuted)})",
            f"{f.error} ({f.share(f.error)})",
        ])
    lines = _table(["project", "theorems", "parsed", "translated", "tested/symbolic",
                    "refuted", "error"], rows)
    for f in measured:
        if f.refuted_names or f.error_names:
            lines += ["", f"**{f.project}** — refuted: {', '.join(f.refuted_names) or 'none'}; "
                      f"error: {', '.join(f.error_names) or 'none'}."]
    return lines


def render(measured: list[Figures], notes: list[str], command: str,
           described: dict[str, str] | None = None, mutation: list[str] | None = None,
           extreme: list[str] | None = None) -> str:
    """The Markdown page; ``command`` is how it was generated. Rows of a first look (files
    never measured before their round) get their own section, apart from the tuned ones."""
    lines = [
        "# Coverage",
        "",
        f"Generated by `{command}` (source scanner, no Lean kernel). Do not edit by hand.",
        "",
        "Shares are of the theorems of each project. *parsed*: the statement parsed; "
        "*translated*: a property was generated; *tested/symbolic*: checked and found to hold; "
        "*refuted* and *error* in a fully proved project are leanmirror bugs.",
        "",
    ]
    if described:
        lines += ["Projects measured from outside this repository:", ""]
        lines += [f"- `{name}`: {text}" for name, text in described.items()] + [""]
    first = [f for f in measured if f.first_look]
    lines += _figures_table([f for f in measured if not f.first_look])
    if notes:
        lines += [""] + [f"- {note}" for note in notes]
    for label in sorted({f.first_look for f in first}):
        lines += ["", f"## First look: files first measured on {label}", "",
                  "Measured before anything was fixed for them (what a new user meets); every "
                  "theorem here is proved upstream, so each refuted or error row is a bug. "
                  "Which files: the directory's `sources.toml`.", ""]
        lines += _figures_table([f for f in first if f.first_look == label])
    blockers: Counter = Counter()
    for f in measured:
        blockers.update(f.blockers)
    lines += ["", "## Unknown notation (token that stopped the parser), per project", "",
              "Parse diagnostics (statements, variables, commands) by the token or notation the parser "
              "stopped at, most frequent first: the next notation to support is at the top.", ""]
    for f in measured:
        if f.failed or not f.notation:
            continue
        ranked = sorted(f.notation.items(), key=lambda item: (-item[1], item[0]))
        lines += [f"**{f.project}** ({sum(f.notation.values())} diagnostics, "
                  f"{f.theorems - f.parsed} of {f.theorems} theorem statements unparsed)", ""]
        lines += _table(["token", "diagnostics"], [[_cell(t), str(n)] for t, n in ranked]) + [""]
    if not any(f.notation for f in measured if not f.failed):
        lines += ["none", ""]
    lines.pop()
    lines += ["", "## What blocks coverage (untranslatable / unbound reasons)", ""]
    lines += _table(["reason", "theorems"],
                    [[_cell(b), str(n)] for b, n in blockers.most_common()]) if blockers else ["none"]
    undecided: Counter = Counter()
    for f in measured:
        undecided.update(f.undecided)
    if undecided:
        lines += ["", "## Why rows are inconclusive", ""]
        lines += _table(["reason", "theorems"], [[_cell(b), str(n)] for b, n in undecided.most_common()])
    if BENCHMARK_FINDINGS.is_file():
        lines += ["", "## Known-false benchmark statements (checked by hand)", "",
                  f"Included from `{BENCHMARK_FINDINGS.relative_to(REPO)}`.", "",
                  BENCHMARK_FINDINGS.read_text(encoding="utf-8").strip()]
    if extreme:
        lines += ["", "## Extreme-magnitude pass", ""] + extreme
    if mutation:
        lines += ["", "## Mutation score (fixtures/mathlib)", ""] + mutation
    return "\n".join(lines) + "\n"


@dataclass
class Extreme:
    """One proved set's extreme-magnitude pass: its ``tested`` theorems re-checked."""

    project: str
    statuses: Counter = field(default_factory=Counter)
    #: The rows that came out refuted or error (:class:`StatementResult`).
    findings: list = field(default_factory=list)


def extreme_plan(plan: dict) -> dict:
    """A copy of ``plan`` whose real draws are forced to :data:`EXTREMES` half of the time
    (:mod:`mirror.sample.extremes`), with ranges reaching ``±1e300``."""
    import copy

    forced = copy.deepcopy(plan)
    forced["settings"]["extremes"] = list(EXTREMES)
    forced["settings"]["real_bound"] = EXTREME_BOUND
    return forced


def _extreme_mirror(mirror):
    from dataclasses import replace

    return replace(mirror, plan=extreme_plan(mirror.plan) if mirror.plan else mirror.plan,
                   instances=[_extreme_mirror(m) for m in mirror.instances])


def extreme_pass(name: str, run_result, examples: int, sweep: int, progress=None) -> Extreme:
    """Re-check every ``tested`` theorem of ``run_result`` with forced extreme draws (no
    symbolic attempt: the draws are the point). Refuted and error rows are findings;
    ``progress`` is called with each re-checked row as soon as it is done."""
    from mirror.product.pipeline import CheckSettings, check_mirror

    settings = CheckSettings(max_examples=examples, sweep=sweep, symbolic=False)
    tested = {r.name for r in run_result.results if r.kind == "theorem" and r.mirror_status == "tested"}
    found = Extreme(name)
    for mirror in run_result.mirrors:
        if mirror.role != "theorem" or mirror.name not in tested or mirror.plan is None:
            continue
        result = check_mirror(_extreme_mirror(mirror), settings)
        status = "error" if is_error(result) else result.mirror_status
        found.statuses[status] += 1
        if status in ("refuted", "error"):
            found.findings.append(result)
        if progress is not None:
            progress(result)
    return found


def extreme_section(passes: list[Extreme]) -> list[str]:
    """The page's lines for the extreme-magnitude pass."""
    lines = ["Every `tested` theorem of the proved sets re-checked with half of its real draws "
             "forced to ±{" + ", ".join(f"{m:g}" for m in EXTREMES) + "} where its ranges admit "
             "them (unbounded reals reach ±1e300; no symbolic attempt). A proved theorem must "
             "never be refuted here; an inconclusive row is a draw certified arithmetic could "
             "not decide.", ""]
    statuses = ["tested", "refuted", "error", "inconclusive"]
    rows = [[x.project, str(sum(x.statuses.values()))]
            + [str(x.statuses.get(s, 0)) for s in statuses]
            + [str(sum(n for s, n in x.statuses.items() if s not in statuses))] for x in passes]
    lines += _table(["set", "re-checked", *statuses, "other"], rows)
    for x in passes:
        for r in x.findings:
            lines += ["", f"- **{r.mirror_status}** `{r.name}` at `{r.counterexample}`: "
                      f"{(r.reason or '')[:300]}"]
    return lines


def mutation_section(examples: int, sweep: int) -> list[str]:
    """Run ``tools/mutants.py`` on the vendored Mathlib files; the page's lines for it."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import mutants

    originals, outcomes = mutants.run_mutants(FIXTURES / "mathlib", examples, sweep)
    value = mutants.score(outcomes)
    survivors = sorted(o.mutant.declaration.name for o in outcomes if o.status in CHECKED)
    return [
        f"{len(outcomes)} mutants of the {originals} tested/symbolic theorems (flip a relation, "
        "negate the conclusion, perturb a literal, drop a hypothesis). Mutation score: "
        + ("n/a" if value is None else f"**{100 * value:.0f} %** refuted") + ".",
        "",
        mutants.table(outcomes),
        "",
        "Survivors (leads, not failures; some mutants are true): "
        + (", ".join(f"`{name}`" for name in survivors) or "none") + ".",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("projects", nargs="*", type=Path,
                        help="public Lean projects checked out locally (absent ones are noted)")
    parser.add_argument("--examples", type=int, default=10, help="Hypothesis examples per statement")
    parser.add_argument("--sweep", type=int, default=32, help="vectorized draws per statement")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "coverage.md")
    parser.add_argument("--mutants", action="store_true",
                        help="also run tools/mutants.py on the Mathlib fixture and add its score")
    parser.add_argument("--describe", action="append", default=[], metavar="NAME=TEXT",
                        help="where project NAME (its directory name) comes from; repeatable")
    parser.add_argument("--extreme", action="store_true",
                        help="re-check every tested theorem of the proved sets with extreme draws")
    parser.add_argument("--benchmark", action="store_true",
                        help="measure only the PROJECTs given (no fixtures); break down inconclusive rows")
    parser.add_argument("--rows", type=Path, default=None, metavar="FILE",
                        help="also write every theorem row (status, reason, method, pass) as JSON lines, "
                             "one as each statement finishes")
    parser.add_argument("--findings", type=Path, default=None, metavar="FILE",
                        help="also write every refuted/error row (both passes) as JSON lines")
    parser.add_argument("--only", action="append", default=[], metavar="FIXTURE",
                        help="measure only these fixture projects (e.g. fixtures/mathlib/"
                             "round-2026-12-01; repeatable), to split a long run into pieces")
    args = parser.parse_args(argv)
    described = {}
    for item in args.describe:
        name, sep, text = item.partition("=")
        if not sep or not name or not text:
            parser.error(f"--describe {item!r}: expected NAME=TEXT, e.g. pfr='teorth/pfr @ <commit>'")
        described[name] = text
    if args.examples < 1 or args.sweep < 0:
        parser.error(f"--examples must be ≥ 1 and --sweep ≥ 0, got {args.examples} and {args.sweep}")
    targets = [] if args.benchmark else fixture_projects()
    if args.only:
        known = fixture_projects()
        unknown = sorted(set(args.only) - {name for name, _ in known})
        if unknown:
            parser.error(f"--only {unknown[0]!r}: expected a fixture project, one of "
                         + ", ".join(name for name, _ in known))
        targets = [(name, path) for name, path in known if name in args.only]
    notes = []
    for path in args.projects:
        if path.is_dir():
            targets.append((path.name, path))
        else:
            notes.append(f"{path}: not found here, skipped")
    sink = Sink(args.rows, args.findings)
    measured, passes = [], []
    command = " ".join(["python tools/coverage.py"]
                       + [shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv)])

    def write_page(mutation=None) -> None:
        extreme = extreme_section(passes) if args.extreme else None
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(render(measured, notes, command, described, mutation, extreme),
                            encoding="utf-8")

    for name, path in targets:
        started = time.monotonic()
        rows, run_result = measure(name, path, args.examples, args.sweep,
                                   progress=sink.for_pass(name, "ordinary"))
        measured.extend(rows)
        for figures in rows:
            print(f"{figures.project}: {figures.theorems} theorems, parsed {figures.share(figures.parsed)}, "
                  f"translated {figures.share(figures.translated)}, tested/symbolic "
                  f"{figures.share(figures.checked)}, refuted {figures.refuted}, error {figures.error}"
                  + (f" — run failed: {figures.failed}" if figures.failed else ""), flush=True)
        print(f"{name}: {time.monotonic() - started:.0f} s", flush=True)
        write_page()
        if run_result is None:
            continue
        if args.extreme and name.startswith(PROVED_SETS):
            started = time.monotonic()
            passes.append(extreme_pass(name, run_result, args.examples, args.sweep,
                                       progress=sink.for_pass(name, "extreme")))
            print(f"{name} extreme pass: {dict(passes[-1].statuses)} "
                  f"({time.monotonic() - started:.0f} s)", flush=True)
            write_page()
    write_page(mutation_section(args.examples, args.sweep) if args.mutants else None)
    print(f"wrote {args.out}")
    for label, path, count in sink.close():
        print(f"wrote {path} ({count} {label})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
