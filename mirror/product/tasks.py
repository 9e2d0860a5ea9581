"""What the workers of :mod:`mirror.product.workers` run for ``report``, ``fuzz``, ``show``,
``bindings`` and ``generate``.

Every function here runs in a worker process: it extracts the project, imports its bindings
and builds its mirrors there (once per process, :func:`built`), so a binding that crashes
or hangs, at import or when called, ends a worker and never the parent. Modules found to
kill a worker while being imported (:func:`probe_import`) are *poisoned*: later workers
refuse to import them (an ``ImportError`` naming the cause), so their bindings become
``error`` rows and everything else still runs.
"""

from __future__ import annotations

import importlib.abc
import sys
import time
import warnings
from pathlib import Path
from typing import Any

from mirror.judge.guard import DEFAULT_STATEMENT_TIMEOUT
from mirror.judge.result import StatementResult

#: (project, method, poisoned modules) → the project read and its bindings imported here.
_CONTEXT: dict[tuple, dict[str, Any]] = {}
#: (project, method, statement timeout, poisoned modules) → the mirrors built in this process.
_BUILT: dict[tuple, dict[str, Any]] = {}


class _Poisoned(importlib.abc.MetaPathFinder):
    """Refuses to import the modules that killed a worker at import."""

    def __init__(self, causes: dict[str, str]) -> None:
        self.causes = dict(causes)

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        cause = self.causes.get(name)
        if cause is not None:
            raise ImportError(f"importing {name} ended a leanmirror worker ({cause}); "
                              "it was not imported again")
        return None


def _poison(poisoned: tuple[tuple[str, str], ...]) -> None:
    causes = dict(poisoned)
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _Poisoned)]
    if causes:
        sys.meta_path.insert(0, _Poisoned(causes))
        for name in causes:
            sys.modules.pop(name, None)


def _context(project: str, method: str, poisoned: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """``{"extraction", "registry", "seconds", "warnings"}``: the project read and its bindings
    imported, once per worker process (the modules in ``poisoned`` are refused)."""
    key = (project, method, poisoned)
    if key not in _CONTEXT:
        from mirror.product.pipeline import extract_project, project_registry

        _poison(poisoned)
        started = time.monotonic()
        with warnings.catch_warnings(record=True) as caught:  # they go to the parent
            warnings.simplefilter("always")
            extraction = extract_project(Path(project), method)
            registry = project_registry(extraction)
        _CONTEXT.clear()  # one project per worker at a time
        _BUILT.clear()
        _CONTEXT[key] = {"extraction": extraction, "registry": registry,
                         "seconds": time.monotonic() - started,
                         "warnings": [(w.category, str(w.message)) for w in caught]}
    return _CONTEXT[key]


def built(project: str, method: str, timeout: float | None,
          poisoned: tuple[tuple[str, str], ...] = ()) -> dict[str, Any]:
    """``{"extraction", "registry", "mirrors": {name: Mirror}, "order", "seconds",
    "warnings"}`` of the project, built once per worker process."""
    context = _context(project, method, poisoned)
    key = (project, method, timeout, poisoned)
    if key not in _BUILT:
        from mirror.product.pipeline import build_mirrors

        started = time.monotonic()
        registry = context["registry"]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            mirrors = build_mirrors(context["extraction"], registry.bindings, registry.errors,
                                    statement_timeout=timeout)
        _BUILT.clear()
        _BUILT[key] = {**context, "mirrors": {m.name: m for m in mirrors},
                       "order": [m.name for m in mirrors],
                       "seconds": context["seconds"] + time.monotonic() - started,
                       "warnings": context["warnings"] + [(w.category, str(w.message))
                                                          for w in caught]}
    return _BUILT[key]


def _one_mirror(project: str, method: str, timeout: float | None,
                poisoned: tuple[tuple[str, str], ...], name: str) -> Any:
    """The mirror ``name``: from this worker's whole build when it has one (the survey ran
    here), else translated alone — a worker checking a share of the statements translates that
    share, not the whole project again (each declaration is built on its own either way)."""
    key = (project, method, timeout, poisoned)
    if key in _BUILT:
        return _BUILT[key]["mirrors"][name]
    from mirror.product.pipeline import build_mirrors

    context = _context(project, method, poisoned)
    registry = context["registry"]
    declaration = name.removesuffix(".conformance")
    mirrors = build_mirrors(context["extraction"], registry.bindings, registry.errors,
                            statement_timeout=timeout, only={declaration, name})
    found = {m.name: m for m in mirrors}
    if name not in found:  # not a declaration of its own name: the whole build finds it
        return built(project, method, timeout, poisoned)["mirrors"][name]
    return found[name]


def probe_import(module: str, python_path: list[str]) -> bool:
    """Import ``module`` with the project's ``python_path`` first on ``sys.path`` (a worker's
    death here names the module that kills workers). ``False``: it raised (the registry
    reports that as the binding's error)."""
    for entry in reversed(python_path):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    try:
        importlib.import_module(module)
    except Exception:  # noqa: BLE001 - an ordinary import error is the registry's to report
        return False
    return True


def probe_imports(modules: list[str], python_path: list[str]) -> list[bool]:
    """:func:`probe_import` of every module in turn, in this one worker (the usual case: none
    ends it, and one worker start serves them all)."""
    return [probe_import(module, python_path) for module in modules]


def survey(project: str, method: str, timeout: float | None,
           poisoned: tuple[tuple[str, str], ...], settings: Any,
           cache_dir: str | None = None, modules: tuple[str, ...] = (),
           reuse: bool = True) -> dict[str, Any]:
    """What the parent needs to schedule a run: per statement its name, module, base row
    and cache key; the run's metadata and diagnostics.

    With ``cache_dir``, the survey itself is re-used while its inputs are unchanged
    (:func:`mirror.product.cache.survey_key`: every declaration, the bindings and the
    source of ``modules``, the settings, leanmirror): then nothing is translated.
    ``reuse=False`` (``--no-cache``) translates anyway and stores the new survey."""
    from mirror.product.cache import ResultCache, survey_key

    if cache_dir is None:
        return _survey(project, method, timeout, poisoned, settings)
    context = _context(project, method, poisoned)
    key = survey_key(context["extraction"], context["registry"], settings, method, poisoned,
                     modules)
    store = ResultCache(cache_dir)
    try:
        hit = store.get(key) if reuse else None
        if hit is not None:
            return dict(hit[0], survey_cached=hit[1])
        found = _survey(project, method, timeout, poisoned, settings)
        if found.pop("lasting"):
            store.put(key, found)
        return found
    finally:
        store.close()


def _survey(project: str, method: str, timeout: float | None,
            poisoned: tuple[tuple[str, str], ...], settings: Any) -> dict[str, Any]:
    from mirror.bind.registry import binding_rows, catalog_rows
    from mirror.product.cache import statement_key
    from mirror.product.pipeline import base_row

    state = built(project, method, timeout, poisoned)
    extraction, registry = state["extraction"], state["registry"]
    declarations = extraction.by_name()
    statements = []
    for name in state["order"]:
        mirror = state["mirrors"][name]
        statements.append({"name": name, "module": mirror.module, "status": mirror.status,
                           "row": base_row(mirror).to_json(),
                           "key": statement_key(mirror, declarations, settings)})
    problems = registry.problems + [e for n, e in registry.errors.items() if n not in declarations]
    # a time limit or a failure inside leanmirror says nothing lasting: not worth keeping
    failures = [m for m in state["mirrors"].values()
                for m in (m, *m.instances) if getattr(m, "failure", None) is not None]
    return {"statements": statements, "meta": dict(extraction.meta),
            "bindings": binding_rows(registry), "catalog": catalog_rows(registry.config),
            "diagnostics": list(extraction.diagnostics), "problems": problems,
            "seconds": state["seconds"], "warnings": state["warnings"],
            "lasting": not failures}


def check(project: str, method: str, timeout: float | None,
          poisoned: tuple[tuple[str, str], ...], name: str, settings: Any) -> dict[str, Any]:
    """Check the statement ``name`` (built in this worker); its result's JSON."""
    from mirror.product.explain import attach_explanations
    from mirror.product.pipeline import check_mirror, with_replay

    mirror = _one_mirror(project, method, timeout, poisoned, name)
    result = with_replay(check_mirror(mirror, settings), mirror, Path(project))
    attach_explanations([result], [mirror])  # a refuted row's replay calls the bindings: here
    return with_database_warnings(result.to_json())


def with_database_warnings(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with the example-database writes that failed while it was checked (key
    ``warnings``; :meth:`StatementResult.from_json` ignores it, the session reports it)."""
    from mirror.judge.fileio import take_database_failures

    failures = take_database_failures()
    if failures:
        row["warnings"] = failures
    return row


def show_text(project: str, name: str, method: str, timeout: float | None,
              poisoned: tuple[tuple[str, str], ...] = ()) -> str:
    """``leanmirror show``'s text, computed in a worker."""
    from mirror.product.showing import show_mirrors

    state = built(project, method, timeout, poisoned)
    return show_mirrors(project, name, list(state["mirrors"].values()))


def binding_table(project: str, method: str,
                  poisoned: tuple[tuple[str, str], ...] = ()) -> dict[str, Any]:
    """``leanmirror bindings``' rows, the configuration's location and its problems."""
    from bridge.extraction import extract
    from mirror.bind.registry import binding_rows, load_registry

    _poison(poisoned)
    registry = load_registry(project, extract(Path(project), method=method).by_name())
    return {"rows": binding_rows(registry), "where": registry.config.where,
            "problems": list(registry.problems), "errors": bool(registry.errors)}


def generation_plan(project: str, method: str,
                    poisoned: tuple[tuple[str, str], ...] = ()) -> dict[str, Any]:
    """What ``generate`` translates: the declarations that get a mirror (in order) and the
    seconds it took to read the project and import its bindings."""
    from mirror.product.pipeline import mirrored_declarations

    state = _context(project, method, poisoned)
    extraction, registry = state["extraction"], state["registry"]
    declarations = extraction.by_name()
    bound = {n for n in registry.bindings if n in declarations}
    return {"declarations": mirrored_declarations(extraction, bound, registry.errors),
            "seconds": state["seconds"]}


def mirror_records(project: str, method: str, timeout: float | None,
                   poisoned: tuple[tuple[str, str], ...], name: str) -> list[Any]:
    """The mirror(s) of the declaration ``name``, translated in this worker, as
    :class:`~mirror.product.generator.MirrorRecord` (what ``generate`` renders)."""
    from mirror.product.generator import MirrorRecord
    from mirror.product.pipeline import build_mirrors

    state = _context(project, method, poisoned)
    registry = state["registry"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mirrors = build_mirrors(state["extraction"], registry.bindings, registry.errors,
                                statement_timeout=timeout, only={name})
    return [MirrorRecord.of(m) for m in mirrors]


def with_output(row: dict[str, Any], outcome: Any) -> dict[str, Any]:
    """``row`` with what its worker printed while running it (:attr:`Outcome.output`,
    already truncated by the pool), when it printed anything."""
    if outcome.output.strip():
        row = dict(row, output=outcome.output)
    return row


def death_row(row: dict[str, Any], cause: str, stage: str = "check") -> dict[str, Any]:
    """The ``error`` row of a statement whose worker died (or was killed) running it."""
    result = StatementResult.from_json(row)
    result.mirror_status = "error"
    result.stage = stage
    result.reason = f"leanmirror error in {stage}: {cause}"
    return result.to_json()


__all__ = ["DEFAULT_STATEMENT_TIMEOUT", "binding_table", "built", "check", "death_row",
           "generation_plan", "mirror_records", "probe_import", "probe_imports", "show_text", "survey", "with_output"]
