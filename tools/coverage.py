#!/usr/bin/env python3
"""Regenerate ``docs/coverage.md``: how much of each Lean project leanmirror reads, translates and checks.

Usage::

    python tools/coverage.py [--examples N] [--sweep N] [--out docs/coverage.md]
                             [--describe NAME=TEXT ...] [PROJECT ...]

Every project under ``tests/fixtures/projects/`` and ``tests/fixtures/mathlib`` is measured,
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
- with ``--mutants``: the mutation score on the vendored Mathlib files (``tools/mutants.py``).

In a project whose theorems are all proved (the vendored Mathlib files, the public projects),
every ``refuted`` and every ``error`` is a leanmirror bug; their names are listed.
"""

from __future__ import annotations

import argparse
import ast
import shlex
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

FIXTURES = REPO / "tests" / "fixtures"
#: Statuses that are a claim about the statement holding.
CHECKED = ("tested", "symbolic", "certified")
#: Statuses that say leanmirror could not build a mirror.
BLOCKED = ("untranslatable", "unbound")
#: Before the ``error`` status existed, a failure inside a check was reported with this reason.
_INTERNAL_ERROR = "leanmirror internal error"


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
    notation: Counter = field(default_factory=Counter)
    blockers: Counter = field(default_factory=Counter)
    refuted_names: list[str] = field(default_factory=list)
    error_names: list[str] = field(default_factory=list)
    #: Set when the run itself failed (the project got no rows at all).
    failed: str | None = None

    def share(self, count: int) -> str:
        """``count`` as a percentage of the theorems (``–`` when there are none)."""
        return f"{100.0 * count / self.theorems:.0f} %" if self.theorems else "–"


def is_error(result) -> bool:
    """Whether a row says leanmirror itself failed (the ``error`` status, or its older spelling)."""
    if result.mirror_status == "error":
        return True
    return result.mirror_status == "inconclusive" and (result.reason or "").startswith(_INTERNAL_ERROR)


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


def tally(name: str, run_result) -> Figures:
    """Count one :class:`mirror.product.pipeline.RunResult` into :class:`Figures`."""
    figures = Figures(name)
    constructs = statement_constructs(run_result.diagnostics)
    theorem_mirrors = [m for m in run_result.mirrors if m.role == "theorem"]
    figures.parsed = sum(1 for m in theorem_mirrors if m.declaration.type is not None)
    figures.translated = sum(1 for m in theorem_mirrors if m.status == "ready")
    for result in run_result.results:
        if result.kind != "theorem":
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
        elif status in BLOCKED:
            figures.blockers[blocker(result, constructs)] += 1
    figures.notation = unknown_notation(run_result.diagnostics)
    return figures


def measure(name: str, project: Path, examples: int, sweep: int) -> Figures:
    """Run the pipeline on ``project`` and tally it; a failed run is recorded, not raised."""
    from mirror.product.pipeline import CheckSettings, run

    try:
        result = run(project, method="scanner",
                     settings=CheckSettings(max_examples=examples, sweep=sweep))
    except Exception as exc:  # noqa: BLE001 - the page reports a crashed run as a finding
        return Figures(name, failed=f"{type(exc).__name__}: {exc}".splitlines()[0][:200])
    return tally(name, result)


def fixture_projects() -> list[tuple[str, Path]]:
    """The repository's fixture projects: ``tests/fixtures/projects/*`` and the Mathlib files."""
    found = [(f"fixtures/projects/{p.name}", p)
             for p in sorted((FIXTURES / "projects").iterdir()) if p.is_dir()]
    found.append(("fixtures/mathlib", FIXTURES / "mathlib"))
    return found


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return lines


def _cell(text: str) -> str:
    return "`" + text.replace("|", "\\|").replace("`", "'") + "`"


def render(measured: list[Figures], notes: list[str], command: str,
           described: dict[str, str] | None = None, mutation: list[str] | None = None) -> str:
    """The Markdown page; ``command`` is how it was generated."""
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
    lines += _table(["project", "theorems", "parsed", "translated", "tested/symbolic",
                     "refuted", "error"], rows)
    if notes:
        lines += [""] + [f"- {note}" for note in notes]
    for f in measured:
        if f.refuted_names or f.error_names:
            lines += ["", f"**{f.project}** — refuted: {', '.join(f.refuted_names) or 'none'}; "
                      f"error: {', '.join(f.error_names) or 'none'}."]
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
    if mutation:
        lines += ["", "## Mutation score (fixtures/mathlib)", ""] + mutation
    return "\n".join(lines) + "\n"


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
    args = parser.parse_args(argv)
    described = {}
    for item in args.describe:
        name, sep, text = item.partition("=")
        if not sep or not name or not text:
            parser.error(f"--describe {item!r}: expected NAME=TEXT, e.g. pfr='teorth/pfr @ <commit>'")
        described[name] = text
    if args.examples < 1 or args.sweep < 0:
        parser.error(f"--examples must be ≥ 1 and --sweep ≥ 0, got {args.examples} and {args.sweep}")
    targets = fixture_projects()
    notes = []
    for path in args.projects:
        if path.is_dir():
            targets.append((path.name, path))
        else:
            notes.append(f"{path}: not found here, skipped")
    measured = []
    for name, path in targets:
        figures = measure(name, path, args.examples, args.sweep)
        measured.append(figures)
        print(f"{name}: {figures.theorems} theorems, parsed {figures.share(figures.parsed)}, "
              f"translated {figures.share(figures.translated)}, tested/symbolic "
              f"{figures.share(figures.checked)}, refuted {figures.refuted}, error {figures.error}"
              + (f" — run failed: {figures.failed}" if figures.failed else ""))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    command = " ".join(["python tools/coverage.py"]
                       + [shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv)])
    mutation = mutation_section(args.examples, args.sweep) if args.mutants else None
    args.out.write_text(render(measured, notes, command, described, mutation), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
