"""``report``, ``show``, ``bindings`` and ``generate`` with the work in worker processes.

:func:`run_isolated` is :func:`mirror.product.pipeline.run` with the work moved out of the
parent (:mod:`mirror.product.workers`): the parent only schedules and collects. It

1. imports each module the project's configuration names in a worker (:func:`probe_modules`),
   so a module that kills its worker at import (``os._exit``, a segfault) or never finishes
   importing is named and refused afterwards: its bindings are ``error`` rows;
2. surveys the project in a worker (extraction, registry, mirrors): per statement its base
   row and cache key (:mod:`mirror.product.cache`);
3. re-uses the cached row of every statement whose key is stored and checks the others in
   the pool, each under a hard time limit; a worker's death is that statement's ``error``
   row naming the cause.

Rows come back in the survey's order whatever the number of workers, so the report is the
same at ``--jobs 1`` and ``--jobs N``. :func:`generate_isolated` does steps 1 and 3 for
``generate``: each statement is translated in a worker, the parent renders the files.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from bridge.errors import InvalidArgument, LeanMirrorError
from mirror.judge.result import StatementResult
from mirror.product.cache import CACHE_DIR, DESCRIPTIVE, ResultCache
from mirror.product.settings import CheckSettings, RunResult, run_meta, selects
from mirror.product.showing import show_mirrors  # noqa: F401 - part of this interface
from mirror.product.tasks import death_row, with_output
from mirror.product.workers import Outcome, open_pool

#: Seconds added to every hard limit (a worker's start, its first build).
HARD_MARGIN = 10.0
#: Hard limit of the survey (extraction and every mirror's build) when no statement limit is set.
SURVEY_LIMIT = 3600.0


class RunError(LeanMirrorError, RuntimeError):
    """A run cannot go on (the survey of the project ended every worker)."""


@dataclass
class StatementInfo:
    """One statement as the survey found it: enough to select, schedule and report it."""

    name: str
    module: str
    status: str
    #: Its row before any check (name, module, statement, location, …).
    row: dict[str, Any]
    key: str


def hard_limit(settings: CheckSettings, build_seconds: float) -> float | None:
    """The hard time limit of one statement's task: its own limit, the build it may have
    to repeat in a fresh worker, and a margin."""
    if settings.statement_timeout is None:
        return None
    return 1.25 * settings.statement_timeout + 2 * build_seconds + HARD_MARGIN


def configured_modules(project: Path) -> tuple[list[str], list[str]]:
    """``(modules, python_path)`` the project's configuration makes leanmirror import."""
    from mirror.bind.config import read_config

    config = read_config(project)
    modules: list[str] = []
    for spec in config.bindings:
        for target in (spec.impl, spec.adapter):
            if isinstance(target, str) and target.partition(":")[0] not in modules:
                modules.append(target.partition(":")[0])
    modules += [m for m in config.modules if m not in modules]
    catalog = getattr(config, "catalog", None)
    table = catalog.get("table") if isinstance(catalog, dict) else None
    if isinstance(table, str) and table.partition(":")[0] not in modules:
        modules.append(table.partition(":")[0])
    return modules, [str(p) for p in config.python_path]


def probe_modules(pool: Any, project: Path, limit: float | None) -> tuple[tuple[str, str], ...]:
    """The configured modules whose import ends or hangs a worker, with the cause. ``limit``
    is the import's own time; a worker's start (leanmirror's imports, a Ray worker's launch)
    gets :data:`HARD_MARGIN` seconds more."""
    modules, python_path = configured_modules(project)
    if limit is not None:
        limit += HARD_MARGIN
    if not modules:
        return ()
    # all in one worker first: one start-up serves them all when none ends it
    pool.submit("all", "mirror.product.tasks:probe_imports", (modules, python_path),
                timeout=limit)
    outcome = pool.next()
    if outcome is not None and outcome.death is None:
        return ()
    for module in modules:  # one of them ends its worker: which?
        pool.submit(module, "mirror.product.tasks:probe_import", (module, python_path),
                    timeout=limit)
    poisoned = []
    for _ in modules:
        outcome = pool.next()
        if outcome is not None and outcome.death is not None:
            poisoned.append((outcome.key, outcome.describe()))
    return tuple(sorted(poisoned))


def survey(pool: Any, project: Path, method: str, settings: CheckSettings,
           store: ResultCache | None = None, reuse: bool = True
           ) -> tuple[dict[str, Any], tuple[tuple[str, str], ...]]:
    """The survey of ``project`` (run in a worker) and the modules it must not import.
    With ``store``, the survey is kept there and, when ``reuse``, re-used while its inputs
    are unchanged (:func:`mirror.product.tasks.survey`)."""
    probe_limit = settings.statement_timeout
    poisoned = probe_modules(pool, project, probe_limit)
    limit = SURVEY_LIMIT if settings.statement_timeout is None else max(
        SURVEY_LIMIT / 6, 5 * settings.statement_timeout)
    cache_dir = None if store is None else str(store.directory)
    modules = tuple(configured_modules(project)[0])
    pool.submit("survey", "mirror.product.tasks:survey",
                (str(project), method, settings.statement_timeout, poisoned, settings,
                 cache_dir, modules, reuse), timeout=limit)
    outcome = pool.next()
    if outcome is None or not outcome.ok:
        cause = outcome.describe() if outcome is not None else "no outcome"
        raise RunError(f"project {str(project)!r}: extracting it and building its mirrors "
                       f"failed in a worker ({cause}); run `leanmirror bindings` to see "
                       "which binding fails")
    for category, message in outcome.value.get("warnings", ()):
        warnings.warn(message, category, stacklevel=2)  # the worker's, shown by the parent
    return outcome.value, poisoned


def statement_infos(found: dict[str, Any], select: Iterable[str] | None = None
                    ) -> list[StatementInfo]:
    infos = [StatementInfo(**entry) for entry in found["statements"]]
    tokens = [t for t in (select or []) if t]
    return [i for i in infos if not tokens or any(selects(t, i) for t in tokens)]


def _reused(row: dict[str, Any], at: str, current: dict[str, Any]) -> StatementResult:
    result = StatementResult.from_json(row)
    for name in DESCRIPTIVE:
        if name in current:
            setattr(result, name, current[name])
    result.cached = at
    return result


def _row(outcome: Outcome, info: StatementInfo) -> dict[str, Any]:
    row = outcome.value if outcome.ok else death_row(info.row, outcome.describe())
    return with_output(row, outcome)


def run_isolated(
    project: str | Path,
    *,
    method: str = "auto",
    settings: CheckSettings | None = None,
    select: list[str] | None = None,
    progress: Callable[[StatementResult], None] | None = None,
    jobs: int | None = None,
    ray: str | None = None,
    cache: bool = True,
    cache_dir: str | Path | None = None,
) -> RunResult:
    """Check every statement of ``project`` in worker processes; see the module docstring.

    ``jobs``: workers (default: all cores); ``ray``: a Ray cluster address (or ``"local"``);
    ``cache=False`` recomputes every row (and stores the new ones)."""
    project = Path(project)
    if not project.is_dir():
        raise InvalidArgument(f"project: {str(project)!r} is not a directory; expected a "
                              "Lake project")
    settings = settings or CheckSettings()
    store = ResultCache(Path(cache_dir) if cache_dir else project / CACHE_DIR)
    pool = open_pool(jobs, ray)
    finished = False
    try:
        found, poisoned = survey(pool, project, method, settings, store, reuse=cache)
        infos = statement_infos(found, select)
        rows = _collect(pool, infos, found, poisoned, project, method, settings,
                        store if cache else None, store, progress)
        finished = True
    finally:
        pool.close(finished)
        store.close()
    results = [rows[i.name] for i in infos]
    meta = run_meta(found["meta"], method, project, settings, found["bindings"],
                    found["catalog"])
    meta["cache"] = {"directory": str(store.directory), "enabled": cache,
                     "reused": sum(r.cached is not None for r in results),
                     "computed": sum(r.cached is None for r in results),
                     "survey": found.get("survey_cached")}
    problems = found["problems"] + [f"{m}: {cause}" for m, cause in poisoned] + store.warnings
    return RunResult(meta, results, found["diagnostics"] + problems, [])


def _collect(pool: Any, infos: list[StatementInfo], found: dict[str, Any],
             poisoned: tuple, project: Path, method: str, settings: CheckSettings,
             reading: ResultCache | None, writing: ResultCache,
             progress: Callable[[StatementResult], None] | None) -> dict[str, StatementResult]:
    """Every statement's row: re-used from the cache, or checked in the pool."""
    rows: dict[str, StatementResult] = {}
    by_name = {i.name: i for i in infos}
    limit = hard_limit(settings, found["seconds"])
    waiting = 0
    for info in infos:
        hit = reading.get(info.key) if reading is not None else None
        if hit is not None:
            rows[info.name] = _reused(hit[0], hit[1], info.row)
            if progress is not None:
                progress(rows[info.name])
            continue
        pool.submit(info.name, "mirror.product.tasks:check",
                    (str(project), method, settings.statement_timeout, poisoned, info.name,
                     settings), timeout=limit)
        waiting += 1
    for _ in range(waiting):
        outcome = pool.next()
        if outcome is None:
            break
        info = by_name[outcome.key]
        row = _row(outcome, info)
        if outcome.ok:
            writing.put(info.key, row)
        rows[info.name] = StatementResult.from_json(row)
        if progress is not None:
            progress(rows[info.name])
    return rows


def show_isolated(project: str | Path, name: str, method: str = "auto",
                  statement_timeout: float | None = None) -> str:
    """``leanmirror show``: the mirrors built in a worker; a worker's death is one error."""
    settings = CheckSettings(statement_timeout=statement_timeout)
    with open_pool(1) as pool:
        poisoned = probe_modules(pool, Path(project), statement_timeout)
        pool.submit("show", "mirror.product.tasks:show_text",
                    (str(project), name, method, statement_timeout, poisoned),
                    timeout=hard_limit(settings, 60.0))
        outcome = pool.next()
    if outcome is None or not outcome.ok:
        cause = outcome.describe() if outcome is not None else "no outcome"
        if outcome is not None and outcome.error and outcome.error.startswith("InvalidArgument"):
            raise InvalidArgument(outcome.error.partition(": ")[2])
        raise RunError(f"show {name}: building the mirrors of {project} failed in a worker "
                       f"({cause})")
    text = outcome.value
    for module, cause in poisoned:
        text += f"\nnote: module {module} was not imported: {cause}\n"
    return text


def bindings_isolated(project: str | Path, method: str = "auto",
                      timeout: float | None = 120.0) -> dict[str, Any]:
    """``leanmirror bindings``' table, read in a worker; a module that ends a worker at
    import is one problem line naming it."""
    with open_pool(1) as pool:
        poisoned = probe_modules(pool, Path(project), timeout)
        pool.submit("bindings", "mirror.product.tasks:binding_table",
                    (str(project), method, poisoned), timeout=None if timeout is None
                    else 5 * timeout)
        outcome = pool.next()
    if outcome is None or not outcome.ok:
        cause = outcome.describe() if outcome is not None else "no outcome"
        raise RunError(f"bindings: reading the bindings of {project} failed in a worker "
                       f"({cause})")
    table = outcome.value
    table["problems"] += [f"module {m} ended a worker at import ({cause})"
                          for m, cause in poisoned]
    return table


@dataclass
class Generation:
    """What :func:`generate_isolated` did: the files, and what ended a worker on the way."""

    result: Any
    #: Statement → why translating it ended its worker (its mirror is an ``error`` block).
    failures: dict[str, str]
    #: Module → why importing it ended a worker (its bindings are ``error`` blocks).
    poisoned: tuple[tuple[str, str], ...]


def _failed_record(declaration: Any, cause: str) -> Any:
    from mirror.product.generator import MirrorRecord

    return MirrorRecord(declaration.name, "error", declaration,
                        reason=f"leanmirror error in translate: {cause}")


def generate_isolated(project: str | Path, out_dir: str | Path, *, check: bool = False,
                      method: str = "auto", statement_timeout: float | None = None,
                      jobs: int | None = None, ray: str | None = None) -> Generation:
    """``leanmirror generate`` (and ``--check``) with every statement translated in a worker.

    The configured modules are imported in workers first (:func:`probe_modules`); then each
    statement is translated in the pool under the hard limit of :func:`hard_limit`, so a
    binding that kills its worker, a statement whose translation loops in C or exhausts the
    memory limit is that statement's ``error`` block naming the cause, and the others are
    generated as usual. The parent renders and compares the files; the result does not
    depend on ``jobs``."""
    from mirror.product.generator import project_from, render_modules, sync_files

    project = Path(project)
    if not project.is_dir():
        raise InvalidArgument(f"project: {str(project)!r} is not a directory; expected a "
                              "Lake project")
    settings = CheckSettings(statement_timeout=statement_timeout)
    pool = open_pool(jobs, ray)
    finished = False
    try:
        poisoned = probe_modules(pool, project, statement_timeout)
        pool.submit("plan", "mirror.product.tasks:generation_plan",
                    (str(project), method, poisoned), timeout=SURVEY_LIMIT)
        outcome = pool.next()
        if outcome is None or not outcome.ok:
            cause = outcome.describe() if outcome is not None else "no outcome"
            raise RunError(f"generate: reading {str(project)!r} and its bindings failed in a "
                           f"worker ({cause}); run `leanmirror bindings` to see which fails")
        declarations = outcome.value["declarations"]
        limit = hard_limit(settings, outcome.value["seconds"])
        for decl in declarations:
            pool.submit(decl.name, "mirror.product.tasks:mirror_records",
                        (str(project), method, statement_timeout, poisoned, decl.name),
                        timeout=limit)
        records, failures = _records(pool, declarations)
        finished = True
    finally:
        pool.close(finished)
    mirrors = [m for decl in declarations for m in records[decl.name]]
    files = render_modules(mirrors, project_from(out_dir, project))
    return Generation(sync_files(files, out_dir, check=check), failures, poisoned)


def _records(pool: Any, declarations: list[Any]) -> tuple[dict[str, list], dict[str, str]]:
    by_name = {d.name: d for d in declarations}
    records: dict[str, list] = {}
    failures: dict[str, str] = {}
    for _ in declarations:
        outcome = pool.next()
        if outcome is None:
            break
        if outcome.ok:
            records[outcome.key] = outcome.value
        else:
            failures[outcome.key] = outcome.describe()
            records[outcome.key] = [_failed_record(by_name[outcome.key], failures[outcome.key])]
    for name in by_name.keys() - records.keys():  # the pool gave no outcome (cannot happen)
        failures[name] = "the pool returned no outcome for it"
        records[name] = [_failed_record(by_name[name], failures[name])]
    return records, dict(sorted(failures.items()))


__all__ = ["Generation", "RunError", "StatementInfo", "bindings_isolated", "configured_modules",
           "generate_isolated", "hard_limit", "probe_modules", "run_isolated", "show_isolated", "show_mirrors",
           "statement_infos", "survey"]
