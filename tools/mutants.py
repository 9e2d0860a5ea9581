#!/usr/bin/env python3
"""Mutation testing of leanmirror's verdicts: make true statements false and see them refuted.

Usage::

    python tools/mutants.py [PROJECT] [--examples N] [--sweep N] [--per-kind K]

``PROJECT`` defaults to the vendored Mathlib files (``tests/fixtures/mathlib``), whose theorems
are all kernel-proved. Every theorem whose verdict is ``tested`` or ``symbolic`` is mutated on
its Lean AST (the scanner's term, so the mutant keeps the file's context: namespaces, opens,
variables, definitions) in four ways:

- ``flip``: a relation of the conclusion is replaced by its converse-strict form, the negation
  of the relation (``a ≤ b`` → ``b < a``, ``a < b`` → ``b ≤ a``, ``≥``/``>`` likewise);
- ``negate``: the conclusion ``P`` becomes ``¬P`` (under its ``∀``/``→`` prefix);
- ``perturb``: a numeric literal of the conclusion is changed (``n`` → ``n + 1``, a decimal
  ``q`` → ``q + 1/100``);
- ``drop``: one hypothesis (a hypothesis binder or an ``→`` premise) is removed.

Each mutant runs through the same pipeline as a statement. The mutation score is the share of
mutants refuted among all mutants of tested/symbolic originals. A mutant that survives is a
lead (it may be true: ``0 ≤ x ^ 2`` perturbed to ``0 ≤ x ^ 3`` is not, ``1 ≤ exp x`` for
``0 ≤ x`` perturbed from ``0 ≤ exp x`` is), not a failure.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, fields, is_dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Callable, Iterator

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bridge import term as T  # noqa: E402
from bridge.declaration import Declaration, Extraction  # noqa: E402

KINDS = ("flip", "negate", "perturb", "drop")
#: ``a R b`` ↦ ``¬(a R b)`` written as a relation: (new relation, arguments swapped?).
FLIPS = {
    "LE.le": ("LT.lt", True),
    "LT.lt": ("LE.le", True),
    "GE.ge": ("LT.lt", False),
    "GT.gt": ("LE.le", False),
}
#: Heads that make a binder's type a proposition (a hypothesis).
PROPOSITIONS = frozenset({
    "LE.le", "LT.lt", "GE.ge", "GT.gt", "Eq", "Ne", "Not", "And", "Or", "Iff",
    "Membership.mem", "Dvd.dvd",
})
CHECKED = ("tested", "symbolic", "certified")


@dataclass(frozen=True)
class Mutant:
    """One mutated declaration and how it was made."""

    kind: str
    original: str
    detail: str
    declaration: Declaration


# ---- term surgery -------------------------------------------------------------------------------


def _replace_node(term, target, new):
    """``term`` with the node ``target`` (by identity) replaced by ``new``."""
    if term is target:
        return new
    if isinstance(term, tuple):
        items = tuple(_replace_node(item, target, new) for item in term)
        return items if any(a is not b for a, b in zip(items, term)) else term
    if not is_dataclass(term):
        return term
    changes = {}
    for f in fields(term):
        value = getattr(term, f.name)
        updated = _replace_node(value, target, new)
        if updated is not value:
            changes[f.name] = updated
    return replace(term, **changes) if changes else term


def _conclusion(term):
    """The body under the statement's ``∀``/``→`` prefix."""
    while isinstance(term, T.Pi):
        term = term.body
    return term


def _map_conclusion(term, change: Callable):
    if isinstance(term, T.Pi):
        return T.Pi(term.binders, _map_conclusion(term.body, change))
    return change(term)


def _head(term) -> str | None:
    if isinstance(term, T.App) and isinstance(term.fn, T.Const):
        return term.fn.name
    return None


def _is_proposition(term) -> bool:
    return _head(term) in PROPOSITIONS


# ---- the four operators ------------------------------------------------------------------------


def _flips(decl: Declaration) -> Iterator[tuple[str, T.Term]]:
    conclusion = _conclusion(decl.type)
    for node in T.walk(conclusion):
        name = _head(node)
        if name in FLIPS and len(node.args) == 2:
            relation, swap = FLIPS[name]
            a, b = node.args
            flipped = T.app(relation, *((b, a) if swap else (a, b)))
            yield (f"{name} → {relation}" + (" (sides swapped)" if swap else ""),
                   _map_conclusion(decl.type, lambda c, n=node, f=flipped: _replace_node(c, n, f)))


def _negations(decl: Declaration) -> Iterator[tuple[str, T.Term]]:
    yield "P → ¬P", _map_conclusion(decl.type, lambda c: T.app("Not", c))


def _perturbations(decl: Declaration) -> Iterator[tuple[str, T.Term]]:
    for node in T.walk(_conclusion(decl.type)):
        if isinstance(node, T.Lit) and not isinstance(node.value, bool):
            value = node.value
            new = value + 1 if isinstance(value, int) else value + Fraction(1, 100)
            yield (f"literal {value} → {new}",
                   _map_conclusion(decl.type, lambda c, n=node, v=new: _replace_node(c, n, T.Lit(v))))


def _drops(decl: Declaration) -> Iterator[tuple[str, Declaration]]:
    for binder in decl.binders:
        if binder.info == "default" and binder.type is not None and _is_proposition(binder.type):
            binders = tuple(b for b in decl.binders if b is not binder)
            yield f"hypothesis {binder.name} dropped", replace(decl, binders=binders)
    term = decl.type
    while isinstance(term, T.Pi):
        for binder in term.binders:
            if binder.name == "_" and binder.type is not None:
                kept = tuple(b for b in term.binders if b is not binder)
                new = T.Pi(kept, term.body) if kept else term.body
                yield "premise dropped", replace(decl, type=_replace_node(decl.type, term, new))
        term = term.body


def mutants(decl: Declaration, per_kind: int = 2) -> list[Mutant]:
    """Up to ``per_kind`` mutants of each kind for one theorem (none if its statement did not parse)."""
    if decl.type is None:
        return []
    made: list[Mutant] = []
    typed = {"flip": _flips, "negate": _negations, "perturb": _perturbations}
    for kind, make in typed.items():
        for index, (detail, new_type) in enumerate(make(decl)):
            if index >= per_kind:
                break
            made.append(Mutant(kind, decl.name, detail,
                               replace(decl, name=f"{decl.name}~{kind}{index + 1}", type=new_type)))
    for index, (detail, mutated) in enumerate(_drops(decl)):
        if index >= per_kind:
            break
        made.append(Mutant("drop", decl.name, detail,
                           replace(mutated, name=f"{decl.name}~drop{index + 1}")))
    return made


# ---- running ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    """A mutant and the verdict it got."""

    mutant: Mutant
    status: str
    reason: str | None = None


def run_mutants(project: Path, examples: int, sweep: int, per_kind: int = 2,
                select: Callable[[str], bool] | None = None) -> tuple[int, list[Outcome]]:
    """Check the project's theorems, then every mutant of the tested/symbolic ones.

    Returns (number of tested/symbolic originals, one :class:`Outcome` per mutant).
    """
    from bridge.scanner import scan_project
    from mirror.product.pipeline import CheckSettings, build_mirrors, check_mirror

    settings = CheckSettings(max_examples=examples, sweep=sweep)
    extraction = scan_project(project)
    context = [d for d in extraction.declarations if d.kind != "theorem"]
    originals = [m for m in build_mirrors(extraction)
                 if m.role == "theorem" and m.status == "ready"
                 and (select is None or select(m.name))]
    holding = [m.declaration for m in originals
               if check_mirror(m, settings).mirror_status in CHECKED]
    outcomes = []
    for decl in holding:
        for mutant in mutants(decl, per_kind):
            mirrors = [m for m in build_mirrors(Extraction(context + [mutant.declaration]))
                       if m.role == "theorem"]
            result = check_mirror(mirrors[0], settings)
            outcomes.append(Outcome(mutant, result.mirror_status, result.reason))
    return len(holding), outcomes


def score(outcomes: list[Outcome]) -> float | None:
    """Mutants refuted / mutants (``None`` when there are none)."""
    if not outcomes:
        return None
    return sum(o.status == "refuted" for o in outcomes) / len(outcomes)


def table(outcomes: list[Outcome]) -> str:
    """Per kind: mutants, refuted, survived (tested/symbolic), other verdicts."""
    lines = ["| kind | mutants | refuted | survived | other |", "|---|---|---|---|---|"]
    for kind in KINDS + ("all",):
        chosen = [o for o in outcomes if kind in ("all", o.mutant.kind)]
        counts = Counter("refuted" if o.status == "refuted"
                         else "survived" if o.status in CHECKED else "other" for o in chosen)
        lines.append(f"| {kind} | {len(chosen)} | {counts['refuted']} | {counts['survived']} | "
                     f"{counts['other']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", nargs="?", type=Path, default=REPO / "tests" / "fixtures" / "mathlib")
    parser.add_argument("--examples", type=int, default=10, help="Hypothesis examples per statement")
    parser.add_argument("--sweep", type=int, default=32, help="vectorized draws per statement")
    parser.add_argument("--per-kind", type=int, default=2, help="mutants of each kind per theorem")
    args = parser.parse_args(argv)
    if not args.project.is_dir():
        parser.error(f"project {str(args.project)!r}: expected a directory with a lakefile")
    if args.examples < 1 or args.sweep < 0 or args.per_kind < 1:
        parser.error(f"--examples and --per-kind must be ≥ 1 and --sweep ≥ 0, got "
                     f"{args.examples}, {args.per_kind} and {args.sweep}")
    originals, outcomes = run_mutants(args.project, args.examples, args.sweep, args.per_kind)
    print(f"{originals} tested/symbolic theorems, {len(outcomes)} mutants")
    print(table(outcomes))
    value = score(outcomes)
    print("mutation score: " + ("n/a" if value is None else f"{100 * value:.0f} % refuted"))
    survivors = [o for o in outcomes if o.status in CHECKED]
    if survivors:
        print("\nsurvivors (leads, not failures):")
        for o in survivors:
            print(f"  {o.mutant.declaration.name}: {o.mutant.detail} — {o.status}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
