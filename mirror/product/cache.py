"""The result cache of ``report``: a statement's row is re-used while nothing it rests on changed.

A row is stored (in a :class:`diskcache.Cache`, a SQLite store, under
``<project>/.leanmirror/cache``) under a content key, the SHA-256 of a JSON document of:

- the statement: its Lean text, kind, Lean status and axioms, and what leanmirror made of
  it (status, reason, generated source, sympy form, sampling plan, carriers and instances);
- the definitions it uses, unfolded: every project declaration its terms name, and the
  ones those name in turn (binders, type, body, equations, Lean text);
- the bound implementations: ``module:function`` of each binding it uses and the SHA-256 of
  the source files of the modules involved (a package: every ``.py`` file under it);
- the settings (examples, sweep, seed, time limits, rejection fraction, symbolic attempt);
- leanmirror's version and the SHA-256 of its own source (``bridge/``, ``mirror/`` except
  the bundled project's kernels, which are hashed as implementations), and the versions of
  the libraries it rests on (sympy, NumPy, Hypothesis, python-flint, mpmath, ml_dtypes).

The survey of a project (translating every statement, to find these keys) is itself stored
under a coarser key (:func:`survey_key`: any change to any declaration, binding or module
re-translates the project), so a re-run with nothing changed translates nothing.

Editing a theorem changes only its key; editing a definition or a kernel changes the keys
of the statements that use it. ``error`` rows are never stored (a time limit or a dead
worker says nothing lasting). Descriptive fields (location, docstring) are taken from the
current extraction when a row is re-used.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import json
import sys
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any, Mapping

from bridge import term as T
from mirror import __version__

#: The cache directory, relative to the project.
CACHE_DIR = Path(".leanmirror") / "cache"
#: Row fields that describe where a statement is, not what was found: always current.
DESCRIPTIVE = ("location", "docstring", "module", "statement")


def _digest(material: Any) -> str:
    text = json.dumps(material, sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _files_digest(files: list[Path]) -> str:
    h = hashlib.sha256()
    for file in sorted(set(files)):
        try:
            data = file.read_bytes()
        except OSError:
            data = b"<unreadable>"
        h.update(str(file).encode("utf-8") + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def leanmirror_digest() -> str:
    """The SHA-256 of leanmirror's own source (the bundled kernels excluded)."""
    root = Path(__file__).resolve().parents[2]
    bundled = root / "mirror" / "bundled"
    files = [f for package in ("bridge", "mirror") for f in (root / package).rglob("*")
             if f.is_file() and f.suffix in (".py", ".json", ".toml", ".j2")
             and not f.is_relative_to(bundled) and "__pycache__" not in f.parts]
    return _files_digest(files)


def _module_files(module: str) -> list[Path]:
    """The source files of ``module``: its file, or every ``.py`` under its package."""
    loaded = sys.modules.get(module)
    origin = getattr(loaded, "__file__", None)
    if origin is None:
        return []
    path = Path(origin)
    if path.name == "__init__.py":
        return [f for f in path.parent.rglob("*.py") if "__pycache__" not in f.parts]
    return [path]


@functools.lru_cache(maxsize=256)
def _modules_digest(modules: tuple[str, ...]) -> str:
    """The SHA-256 of the source files of ``modules`` (once per survey: they do not change)."""
    return _files_digest([f for m in modules for f in _module_files(m)])


def _binding_material(binding: Any) -> dict[str, Any]:
    modules = {binding.implementation.partition(":")[0]}
    for part in (binding.call, binding.function):
        name = getattr(part, "__module__", None)
        if isinstance(name, str):
            modules.add(name)
    return {"implementation": binding.implementation, "vectorized": binding.vectorized,
            "domain": binding.domain, "modules": sorted(modules),
            # the accuracy and draw settings (global, per binding, per statement)
            "profile": repr(getattr(binding, "profile", None)),
            "source": _modules_digest(tuple(sorted(modules)))}


def _declaration_material(decl: Any) -> dict[str, Any]:
    return {"name": decl.name, "kind": decl.kind, "text": decl.statement_text,
            "binders": repr(decl.binders), "type": repr(decl.type), "value": repr(decl.value),
            "equations": repr(decl.equations), "lean_status": decl.lean_status,
            "axioms": None if decl.axioms is None else list(decl.axioms)}


def _terms(decl: Any) -> list[Any]:
    terms = [b.type for b in decl.binders if b.type is not None]
    terms += [t for t in (decl.type, decl.value) if t is not None]
    for equation in decl.equations:
        terms += [*equation.patterns, equation.rhs]
    return terms


def used_definitions(decl: Any, declarations: Mapping[str, Any]) -> list[str]:
    """The project declarations ``decl`` names, transitively (sorted, ``decl`` excluded)."""
    seen: set[str] = set()
    todo = [decl]
    while todo:
        current = todo.pop()
        for term in _terms(current):
            for name in T.constants(term):
                if name in declarations and name not in seen and name != decl.name:
                    seen.add(name)
                    todo.append(declarations[name])
    return sorted(seen)


def _mirror_material(mirror: Any) -> dict[str, Any]:
    plan = mirror.plan
    if plan is not None and is_dataclass(plan):
        plan = asdict(plan)
    return {"name": mirror.name, "role": mirror.role, "status": mirror.status,
            "reason": mirror.reason, "source": mirror.source, "sympy": mirror.sympy_text,
            "plan": plan, "bound_to": list(mirror.bound_to), "carrier": mirror.carrier,
            "unfolded": None if mirror.unfolded is None else repr(mirror.unfolded),
            "declaration": _declaration_material(mirror.declaration),
            "instances": [_mirror_material(m) for m in mirror.instances]}


def _settings_material(settings: Any) -> dict[str, Any]:
    return {k: getattr(settings, k, None) for k in (
        "max_examples", "sweep", "seed", "time_budget", "max_reject_fraction",
        "statement_timeout", "symbolic")}


@functools.lru_cache(maxsize=1)
def library_versions() -> dict[str, str]:
    """The versions of the libraries a verdict or a translation rests on."""
    from importlib import metadata

    versions = {"python": sys.version.split()[0]}
    for name in ("sympy", "numpy", "hypothesis", "python-flint", "mpmath", "ml_dtypes"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "absent"
    return versions


def survey_key(extraction: Any, registry: Any, settings: Any, method: str,
               poisoned: tuple, modules: tuple[str, ...]) -> str:
    """The content key of a whole survey (every statement's mirror, base row and key): every
    declaration and diagnostic of the extraction as read, the registry (its configuration,
    every binding with its modules' source, its errors and problems), the source of the
    configured ``modules``, the modules refused, the settings, the libraries and leanmirror.
    Any change anywhere re-translates the project (the rows themselves are keyed finer)."""
    return "survey:" + _digest({
        "version": __version__,
        "leanmirror": leanmirror_digest(),
        "libraries": library_versions(),
        "method": method,
        "settings": _settings_material(settings),
        "poisoned": [list(p) for p in poisoned],
        "declarations": repr(extraction.declarations),
        "diagnostics": repr(extraction.diagnostics),
        "meta": extraction.meta,
        "config": repr(registry.config),
        "bindings": {n: _binding_material(b) for n, b in sorted(registry.bindings.items())},
        "errors": registry.errors,
        "problems": registry.problems,
        "modules": _modules_digest(tuple(sorted(modules))),
    })


def statement_key(mirror: Any, declarations: Mapping[str, Any], settings: Any) -> str:
    """The content key of one statement's result (see the module docstring)."""
    table = mirror.table or {}
    names = set(mirror.bound_to) | {n for m in mirror.instances for n in m.bound_to}
    if mirror.role == "conformance":
        names.add(mirror.declaration.name)
    definitions = used_definitions(mirror.declaration, declarations)
    return _digest({
        "version": __version__,
        "leanmirror": leanmirror_digest(),
        "libraries": library_versions(),
        "settings": _settings_material(settings),
        "mirror": _mirror_material(mirror),
        "definitions": [_declaration_material(declarations[n]) for n in definitions],
        "implementations": {n: _binding_material(table[n]) for n in sorted(names) if n in table},
    })


class ResultCache:
    """Rows by content key, with the time each was computed; a failing store is a warning."""

    def __init__(self, directory: str | Path) -> None:
        import diskcache

        self.directory = Path(directory)
        self.warnings: list[str] = []
        try:
            self._store = diskcache.Cache(str(self.directory))
        except Exception as exc:  # noqa: BLE001 - no cache is a slower run, not a failure
            self._store = None
            self._warn("open", exc)

    def _warn(self, what: str, exc: Exception) -> None:
        self.warnings.append(f"result cache {self.directory}: cannot {what} "
                             f"({type(exc).__name__}: {exc}); statements are recomputed")

    def get(self, key: str) -> tuple[dict[str, Any], str] | None:
        """``(row, computed_at)`` stored under ``key``, or ``None``."""
        if self._store is None:
            return None
        try:
            entry = self._store.get(key)
        except Exception as exc:  # noqa: BLE001
            self._warn("read", exc)
            return None
        if not (isinstance(entry, dict) and isinstance(entry.get("row"), dict)):
            return None
        return entry["row"], str(entry.get("at", ""))

    def put(self, key: str, row: dict[str, Any]) -> None:
        """Store ``row`` (not an ``error`` row) under ``key``."""
        if self._store is None or row.get("mirror_status") == "error":
            return
        at = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        try:
            self._store.set(key, {"row": row, "at": at})
        except Exception as exc:  # noqa: BLE001
            self._warn("write", exc)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()


__all__ = ["CACHE_DIR", "DESCRIPTIVE", "ResultCache", "leanmirror_digest", "library_versions",
           "statement_key", "survey_key", "used_definitions"]
