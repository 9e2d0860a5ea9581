"""The pipeline: extraction → translation → NumPy property → checks → results.

This module wires the stages together; each stage lives in its own package.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import time

import sympy as sp

from bridge import term as T
from bridge.declaration import Declaration, Diagnostic, Extraction
from bridge.errors import InvalidArgument
from mirror.bind.binding import BindingError, runtime_bindings
from mirror.judge.checks import Outcome, run_property, settle_symbolically
from mirror.judge.presettle import presettle
from mirror.product.attribution import with_rejections
from mirror.translate.codegen import CodegenError, print_property
from mirror.translate.rewrites import rewrite_theorem
from mirror.judge.guard import DEFAULT_STATEMENT_TIMEOUT, Failure, Guard
from mirror.translate.instances import (NoCarrier, default_table, instantiate,
                              with_value_hypotheses)
from mirror.translate.records import Records
from mirror.bind.registry import binding_rows, catalog_rows, load_registry
from mirror.product.domains import apply_domains, drawn_on
from mirror.product.replay import attach_replay, certify
from mirror.judge.result import StatementResult, combine
from mirror.sample.strategies import PlanSettings, plan_statement
from mirror.translate.translation import Statement, Translator, Unbound, UnknownConstant, Untranslatable
from mirror.product.settings import CheckSettings, RunResult, run_meta, selects  # noqa: F401 - re-exported


@dataclass
class Mirror:
    """One declaration, translated (or not) into an executable property."""

    declaration: Declaration
    #: ``"ready"``, ``"untranslatable"``, ``"unbound"``, ``"error"`` (leanmirror failed while
    #: building it), ``"definition"`` (defs are not checked
    #: themselves; their conformance checks are separate mirrors).
    status: str
    reason: str | None = None
    sympy_text: str | None = None
    #: Python source of the property function (generated, whitelisted constructs only).
    source: str | None = None
    function_name: str | None = None
    #: JSON-able sampling plan: binders → strategies, constraints, filters.
    plan: dict[str, Any] | None = None
    bound_to: list[str] = field(default_factory=list)
    #: The translated statement, for symbolic attempts (not serialized).
    statement: Statement | None = None
    #: ``"theorem"`` or ``"conformance"`` (an implementation against its Lean definition).
    role: str = "theorem"
    #: The statement with bound definitions unfolded too (for the symbolic attempt).
    unfolded: Statement | None = None
    #: The binding table the mirror was built with (the project's registry).
    table: dict | None = None
    #: Why leanmirror failed on this declaration (status ``"error"``).
    failure: Failure | None = None
    #: Seconds spent building the mirror (they count against the statement's time limit).
    build_seconds: float = 0.0
    #: A statement over type parameters: one ready (or error) mirror per carrier it is
    #: checked at (:mod:`mirror.translate.instances`); this mirror's own fields are the first one's.
    instances: list["Mirror"] = field(default_factory=list)
    #: An instance's carriers, as the report names them (``R := ℝ``).
    carrier: str | None = None

    @property
    def name(self) -> str:
        if self.role == "conformance":
            return f"{self.declaration.name}.conformance"
        return self.declaration.name

    @property
    def module(self) -> str:
        return self.declaration.module

    def load(self) -> Callable:
        """The property function, compiled from :attr:`source` with no builtins available."""
        if self.source is None or self.function_name is None:
            raise InvalidArgument(f"mirror {self.name} has no generated source (status {self.status})")
        namespace: dict[str, Any] = {}
        code = compile(self.source, f"<leanmirror {self.name}>", "exec")
        exec(code, {"__builtins__": {}}, namespace)  # generated from whitelisted constructs only
        return namespace[self.function_name]


# ---- building mirrors ----------------------------------------------------------------------


def _translate(decl: Declaration, translator: Translator, role: str, guard: Guard) -> Mirror:
    """One declaration through translate → plan → print (→ unfold), every stage guarded."""
    if role == "theorem":  # Lean-level rewrites before translation: mirror.translate.rewrites
        rewritten = guard.call("desugar", _desugared, decl)
        if guard.failed or isinstance(rewritten, Mirror):
            return rewritten if isinstance(rewritten, Mirror) else _failed(decl, role, guard)
        decl = rewritten

    def translated() -> Statement | Mirror:
        try:
            if role == "conformance":
                return translator.translate_conformance(decl)
            return translator.translate_statement(decl)
        except (Unbound, UnknownConstant) as exc:
            return Mirror(decl, "unbound", reason=str(exc), role=role)
        except Untranslatable as exc:
            return Mirror(decl, "untranslatable", reason=str(exc), role=role)

    statement = guard.call("translate", translated)
    if guard.failed or isinstance(statement, Mirror):
        return statement if isinstance(statement, Mirror) else _failed(decl, role, guard)
    bound = bool(statement.bound)

    def planned() -> dict | Mirror:
        try:
            plan = plan_statement(statement, PlanSettings(dim_min=1 if bound else 0))
        except ValueError as exc:
            return Mirror(decl, "untranslatable", reason=f"cannot draw examples: {exc}", role=role)
        plan["domains"] = apply_domains(plan, decl, role, translator)
        return plan

    plan = guard.call("plan", planned)
    if guard.failed or isinstance(plan, Mirror):
        return plan if isinstance(plan, Mirror) else _failed(decl, role, guard)

    def printed() -> tuple[Any, str] | Mirror:
        try:
            printed_source = print_property(statement)
        except CodegenError as exc:
            return Mirror(decl, "untranslatable", reason=str(exc), role=role)
        hyps = " ∧ ".join(f"({sp.sstr(h)})" for _, h in statement.hypotheses)
        return printed_source, (f"{hyps} → " if hyps else "") + sp.sstr(statement.conclusion)

    output = guard.call("print", printed)
    if guard.failed or isinstance(output, Mirror):
        return output if isinstance(output, Mirror) else _failed(decl, role, guard)
    source, sympy_text = output

    def unfolded_statement() -> Statement | None:
        try:
            return Translator(translator.declarations, translator.bound, unfold_bound=True,
                              table=translator.table).translate_statement(decl)
        except Untranslatable:
            return None

    unfolded = None
    if bound and role == "theorem":
        unfolded = guard.call("unfold", unfolded_statement)
        if guard.failed:
            return _failed(decl, role, guard)
    return Mirror(
        decl,
        "ready",
        sympy_text=sympy_text,
        source=source.source,
        function_name=source.function_name,
        plan=plan,
        bound_to=sorted(statement.bound),
        statement=statement,
        role=role,
        unfolded=unfolded,
    )


def _desugared(decl: Declaration) -> Declaration | Mirror:
    try:
        return rewrite_theorem(decl)
    except Untranslatable as exc:
        return Mirror(decl, "untranslatable", reason=str(exc))


def _failed(decl: Declaration, role: str, guard: Guard) -> Mirror:
    """The ``error`` mirror of a declaration whose translation failed inside leanmirror."""
    failure = guard.failure
    return Mirror(decl, "error", reason=failure.describe() if failure else None, role=role,
                  failure=failure)


def project_registry(extraction: Extraction):
    """The registry of the project ``extraction`` came from (its configuration's bindings)."""
    project = extraction.meta.get("project")
    return load_registry(Path(project) if project else Path.cwd(), extraction.by_name())


def _binding_errors(decl: Declaration, errors: dict[str, str]) -> str | None:
    """The error of a failing binding that ``decl`` is (or whose statement names one)."""
    if decl.name in errors:
        return errors[decl.name]
    terms = [b.type for b in decl.binders if b.type is not None]
    terms += [t for t in (decl.type,) if t is not None]
    for term in terms:
        for node in T.walk(term):
            if isinstance(node, T.Const) and node.name in errors:
                return errors[node.name]
    return None


def mirrored_declarations(extraction: Extraction, bound: set[str], errors: dict) -> list:
    """The declarations that get a mirror: theorems, and definitions bound (or failing to)."""
    return [d for d in extraction.declarations if d.kind == "theorem" or (
        d.kind in ("def", "abbrev") and (d.name in bound or d.name in errors))]


def build_mirrors(
    extraction: Extraction,
    bindings: dict | None = None,
    errors: dict[str, str] | None = None,
    *,
    statement_timeout: float | None = DEFAULT_STATEMENT_TIMEOUT,
    only: set[str] | frozenset[str] | None = None,
) -> list[Mirror]:
    """Translate every theorem, and every bound definition against its implementation
    (``only``: just the declarations of those names).

    ``bindings`` defaults to the project's registry (its configuration); a definition whose
    binding fails (``errors``: name → message) is an ``error`` row, and so is a theorem that
    names it. Each declaration is built under its own :class:`~mirror.judge.guard.Guard`: an
    exception or a stage running past ``statement_timeout`` seconds makes that declaration
    an ``error`` mirror (the time spent counts against its check later)."""
    if bindings is None:
        registry = project_registry(extraction)
        bindings, errors = registry.bindings, registry.errors
    table, errors = bindings, errors or {}
    declarations = extraction.by_name()
    bound = {name for name in table if name in declarations}
    records = Records(declarations, bound)
    repeated = _repeated_names(extraction)
    mirrors: list[Mirror] = []
    for decl in mirrored_declarations(extraction, bound, errors):
        if only is not None and decl.name not in only:
            continue
        role = "theorem" if decl.kind == "theorem" else "conformance"
        failure = _binding_errors(decl, errors)
        if failure is not None:
            mirrors.append(Mirror(decl, "error", reason=failure, role=role))
            continue
        translator = Translator(_module_view(declarations, repeated, decl), bound, table=table)
        if role == "theorem":
            mirrors.append(_instantiated(decl, translator, statement_timeout, records))
            continue
        guard = Guard(statement_timeout)
        mirror = _translate(decl, translator, role, guard)
        mirror.build_seconds = guard.elapsed
        mirrors.append(mirror)
    for mirror in mirrors:
        mirror.table = table
        for instance in mirror.instances:
            instance.table = table
    return mirrors


def _repeated_names(extraction: Extraction) -> dict[str, list[Declaration]]:
    """Names declared in more than one module (``def a`` in two files of a benchmark)."""
    seen: dict[str, list[Declaration]] = {}
    for d in extraction.declarations:
        seen.setdefault(d.name, []).append(d)
    return {name: found for name, found in seen.items() if len(found) > 1}


def _module_view(declarations: dict[str, Declaration], repeated: dict[str, list[Declaration]],
                 decl: Declaration) -> dict[str, Declaration]:
    """The declarations ``decl`` sees: a repeated name means the declaration of ``decl``'s own
    module; declared only in other modules it is ambiguous and left out (the statement is
    ``unbound`` on it), never read as whichever module came last."""
    if not repeated:
        return declarations
    view = dict(declarations)
    for name, found in repeated.items():
        own = [d for d in found if d.module == decl.module]
        if own:
            view[name] = own[-1]
        else:
            view.pop(name, None)
    return view


def _split_and_translate(decl: Declaration, translator: Translator, records: Records,
                         statement_timeout: float | None) -> Mirror:
    """A theorem through the records stage (:mod:`mirror.translate.records`) and translation."""
    guard = Guard(statement_timeout)
    split = guard.call("split records", records.split, decl)
    if guard.failed:
        return _failed(decl, "theorem", guard)
    mirror = _translate(split, translator, "theorem", guard)
    mirror.build_seconds = guard.elapsed
    return mirror


def _instantiated(decl: Declaration, translator: Translator,
                  statement_timeout: float | None, records: Records) -> Mirror:
    """A theorem's mirror; over type parameters, one instance per carrier that translates
    (at most the carrier table's ``max_instances``), held by a composite mirror."""
    decl = with_value_hypotheses(decl)
    try:
        instances = instantiate(decl)
    except NoCarrier as exc:
        return Mirror(decl, "untranslatable", reason=str(exc))
    if not instances or not instances[0].carriers:
        decl = instances[0].declaration if instances else decl
        return _split_and_translate(decl, translator, records, statement_timeout)
    built: list[Mirror] = []
    skipped: list[tuple[str, Mirror]] = []
    for instance in instances:
        mirror = _split_and_translate(instance.declaration, translator, records,
                                      statement_timeout)
        mirror.carrier = instance.label
        if mirror.status in ("ready", "error"):
            built.append(mirror)
        else:
            skipped.append((instance.label, mirror))
        if len(built) >= default_table().max_instances:
            break
    if not built:
        label, first = skipped[0]
        return Mirror(decl, first.status,
                      reason=f"translated at no carrier; at {label}: {first.reason}")
    head = next((m for m in built if m.status == "ready"), built[0])
    unused = "; ".join(f"not translated at {label} ({m.reason})" for label, m in skipped)
    return Mirror(decl, "ready", reason=unused or None, sympy_text=head.sympy_text,
                  source=head.source, function_name=head.function_name, plan=head.plan, bound_to=head.bound_to,
                  statement=head.statement, unfolded=head.unfolded, instances=built,
                  build_seconds=sum(m.build_seconds for m in built))


def instance_mirrors(mirrors: list[Mirror]) -> list[Mirror]:
    """``mirrors`` with every composite replaced by its instances (named ``T[R := ℝ]``)."""
    return [m for mirror in mirrors for m in (mirror.instances or [mirror])]


# ---- checking ------------------------------------------------------------------------------


def base_row(mirror: Mirror) -> StatementResult:
    """The row of ``mirror`` before any check: what it is and where (no verdict yet)."""
    return _result(mirror, None)


def _result(mirror: Mirror, status: str | None, **fields: Any) -> StatementResult:
    decl = mirror.declaration
    return StatementResult(
        name=mirror.name,
        module=decl.module,
        kind="conformance" if mirror.role == "conformance" else decl.kind,
        lean_status=decl.lean_status,
        mirror_status=status,
        statement=decl.statement_text or decl.name,
        location=None if decl.range is None else str(decl.range),
        axioms=None if decl.axioms is None else list(decl.axioms),
        sympy=mirror.sympy_text,
        code=mirror.source,
        bound_to=[
            (mirror.table or {})[n].implementation if n in (mirror.table or {}) else n
            for n in mirror.bound_to
        ],
        docstring=decl.docstring,
        domain=drawn_on(mirror.plan, mirror.role, (mirror.table or {}).get(decl.name)),
        **fields,
    )


def check_mirror(mirror: Mirror, settings: CheckSettings | None = None) -> StatementResult:
    """Run one mirror and turn what it found into a :class:`StatementResult`.

    The symbolic attempt and the property run are guarded: an exception, or running past the
    statement's time limit (which the build already used part of), is an ``error`` row —
    except a property run that overran the limit, which is ``inconclusive`` (time budget)."""
    settings = settings or CheckSettings()
    if mirror.instances:
        rows = [(m.carrier or m.name, check_mirror(m, settings)) for m in mirror.instances]
        return combine(rows, _result(mirror, None), mirror.reason)
    if mirror.status == "error":
        if mirror.failure is not None and mirror.failure.timed_out:
            # building the mirror (translate, plan, print …) is search as much as the check
            # is: past the statement's limit it was slow, not wrong, so no verdict and no error
            return _out_of_time(mirror, mirror.failure, mirror.build_seconds,
                                f"building the mirror ({mirror.failure.stage})")
        return _error_result(mirror, mirror.failure, mirror.build_seconds)
    if mirror.status != "ready":
        return _result(mirror, mirror.status, reason=mirror.reason)
    guard = Guard(settings.statement_timeout, spent=mirror.build_seconds)
    started = time.monotonic()
    if mirror.role == "theorem" and settings.symbolic and not mirror.bound_to:
        settled = guard.call("presettle", presettle, mirror.statement)
        if guard.failed and guard.failure.timed_out:
            # solving the hypotheses is a search: unfinished, it decides nothing, and the
            # draws must not run in its place (they would read a membership condition on the
            # sampled prefix only), so the row is inconclusive
            return _out_of_time(mirror, guard.failure, guard.elapsed, "solving the hypotheses")
        if guard.failed:
            return _error_result(mirror, guard.failure, guard.elapsed)
        if settled is not None:  # a box proof or a solved system: mirror.judge.presettle
            return _result(mirror, settled.status, method=settled.method, reason=settled.reason,
                           examples=settled.examples, counterexample=settled.counterexample,
                           certificate=certify(mirror, settled)
                           if settled.status == "refuted" else settled.certificate,
                           duration=round(guard.elapsed, 3))
    symbolic = None
    if mirror.role == "theorem" and settings.symbolic:
        symbolic = guard.call("symbolic settle", settle_symbolically,
                              mirror.unfolded or mirror.statement, settings.time_budget)
    budget = settings.time_budget
    if budget is not None:  # the symbolic attempt counts against the statement's budget
        budget = max(0.0, budget - (time.monotonic() - started))
    outcome = guard.call("check", _run_checks, mirror, settings, guard, budget)
    if guard.failed and guard.failure.timed_out:
        # the property run honours its budget between draws, the symbolic attempt is a search;
        # past the hard limit either was slow, not wrong: nothing it saw counts (a verdict
        # needs the run's tally or a finished proof), so inconclusive
        what = "the check" if guard.failure.stage == "check" else guard.failure.stage
        return _out_of_time(mirror, guard.failure, guard.elapsed, what)
    if guard.failed:
        return _error_result(mirror, guard.failure, guard.elapsed)
    outcome = with_rejections(mirror, outcome, settings.seed)  # by which hypothesis
    return _verdict(mirror, outcome, symbolic, guard.elapsed)


def _out_of_time(mirror: Mirror, failure: Failure, elapsed: float, what: str) -> StatementResult:
    """``inconclusive``: a stage (``what``) ran past the statement's hard limit."""
    return _result(mirror, "inconclusive", duration=round(elapsed, 3),
                   reason=f"stopped by the time budget: {what} ran past the statement's limit "
                          f"({failure.message}) before it could end on its own; "
                          "nothing it saw counts")


def _error_result(mirror: Mirror, failure: Failure | None, elapsed: float) -> StatementResult:
    reason = mirror.reason
    if failure is not None:
        # a failing binding's message already names the binding, its file and the fix
        reason = failure.message if failure.kind == BindingError.__name__ else failure.describe()
    return _result(
        mirror,
        "error",
        reason=reason,
        stage=failure.stage if failure else None,
        duration=round(elapsed, 3),
    )


def _run_checks(mirror: Mirror, settings: CheckSettings, guard: Guard,
                budget: float | None) -> Outcome:
    remaining = guard.remaining()
    if remaining is not None:
        # leave the property run a margin to finish its current example before the hard limit
        budget = min(budget, 0.9 * remaining) if budget is not None else 0.9 * remaining
    return run_property(
        mirror.load(),
        mirror.plan,
        name=mirror.name,
        bindings=runtime_bindings(set(mirror.bound_to), mirror.table),
        bound=bool(mirror.bound_to),
        max_examples=settings.max_examples,
        sweep=settings.sweep,
        seed=settings.seed,
        database=settings.database,
        time_budget=budget,
        max_reject_fraction=settings.max_reject_fraction,
        digest=mirror.source or "",
        unfolded=_unfolded_function(mirror),
    )


def _unfolded_function(mirror: Mirror) -> Callable | None:
    """The property over Lean's own definitions of a theorem's bound kernels (``None``:
    no kernel, or the unfolded statement does not print or draws other variables)."""
    statement = mirror.unfolded
    if not mirror.bound_to or statement is None or statement.bound:
        return None
    if [v.name for v in statement.variables] != [v.name for v in mirror.statement.variables]:
        return None
    try:
        printed = print_property(statement)
    except CodegenError:
        return None
    unfolded = Mirror(mirror.declaration, "ready", source=printed.source,
                      function_name=printed.function_name)
    return unfolded.load()


def _verdict(mirror: Mirror, outcome: Outcome, symbolic: str | None,
             elapsed: float) -> StatementResult:
    status = outcome.status
    method = outcome.method
    if mirror.plan and mirror.plan.get("domains"):
        method = f"{method}; " + "; ".join(mirror.plan["domains"])
    if mirror.plan and mirror.plan.get("solved"):  # mirror.sample.plan: drawn among solutions
        method = f"{method}; {', '.join(mirror.plan['solved'])} drawn among (or computed " \
                 "from) the exact solutions of the equation hypotheses"
    reason = outcome.reason
    if symbolic is not None:
        if status == "refuted":
            reason = f"{reason}; sympy had reduced it to true ({symbolic}): check the translation"
        elif status == "tested":
            status = "symbolic"
            scope = "on the unfolded Lean definitions" if mirror.bound_to else ""
            method = f"{symbolic} {scope}".strip() + (f"; also {method}" if method else "")
    return _result(
        mirror,
        status,
        examples=outcome.examples,
        rejected=outcome.rejected,
        undecided=outcome.undecided,
        max_error=outcome.max_error,
        tolerance=outcome.tolerance,
        counterexample=outcome.counterexample,
        reason=reason,
        method=method,
        duration=round(elapsed, 3),
        accuracy=outcome.accuracy,
        certificate=certify(mirror, outcome) if status == "refuted" else None,
    )


def with_replay(result: StatementResult, mirror: Mirror, project: Path) -> StatementResult:
    """A refuted row's replay command; a composite's replays the instance that refuted it."""
    if not (mirror.instances and result.mirror_status == "refuted"):
        return attach_replay(result, project)
    label = next((lab for lab in result.carriers
                  if result.reason and result.reason.startswith(f"at {lab}:")), None)
    refuting = next((m for m in mirror.instances if m.carrier == label), None)
    if refuting is not None:
        result.replay = attach_replay(dataclasses.replace(result, name=refuting.name),
                                      project).replay
    return result


def extract_project(project: Path, method: str = "auto") -> Extraction:
    """Extract a project's declarations (the exporter when a toolchain exists, else the scanner)."""
    from bridge.extraction import extract

    return extract(project, method=method)


def run(
    project: Path,
    *,
    method: str = "auto",
    settings: CheckSettings | None = None,
    select: list[str] | None = None,
    progress: Callable[[StatementResult], None] | None = None,
) -> RunResult:
    """The whole pipeline on a project: extract, translate, check every statement."""
    project = Path(project)
    settings = settings or CheckSettings()
    extraction = extract_project(project, method)
    registry = project_registry(extraction)
    mirrors = [m for m in build_mirrors(extraction, registry.bindings, registry.errors,
                                        statement_timeout=settings.statement_timeout)
               if not select or any(selects(token, m) for token in select)]
    results = []
    for mirror in mirrors:
        result = with_replay(check_mirror(mirror, settings), mirror, project)
        results.append(result)
        if progress is not None:
            progress(result)
    meta = run_meta(extraction.meta, method, project, settings, binding_rows(registry),
                    catalog_rows(registry.config))
    problems = registry.problems + [e for n, e in registry.errors.items()
                                    if n not in extraction.by_name()]
    return RunResult(meta, results, list(extraction.diagnostics) + problems, mirrors)


def show(project: Path, name: str, method: str = "auto",
         statement_timeout: float | None = DEFAULT_STATEMENT_TIMEOUT) -> str:
    """The statement, its sympy form and the generated NumPy source of one declaration
    (built in this process; ``leanmirror show`` builds it in a worker, :mod:`mirror.product.runner`)."""
    from mirror.product.showing import show_mirrors

    extraction = extract_project(Path(project), method)
    return show_mirrors(project, name, build_mirrors(extraction, statement_timeout=statement_timeout))


__all__ = [
    "CheckSettings",
    "Mirror",
    "base_row",
    "RunResult",
    "build_mirrors",
    "check_mirror",
    "extract_project",
    "instance_mirrors",
    "run",
    "selects",
    "show",
]
