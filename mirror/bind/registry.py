"""Registry: the one table from a project's Lean definitions to its implementations.

Two doors lead into it: the project's configuration (``[tool.leanmirror.bindings]``, see
:mod:`mirror.bind.config`) and the :func:`binds` decorator on the user's own functions (found
through ``[tool.leanmirror] modules = [...]`` or the entry point group
``leanmirror.bindings``). Either way a :class:`~mirror.bind.config.BindingSpec` is resolved
against the Lean definition it names into a :class:`~mirror.bind.binding.Binding`:

- by default the definition's explicit arguments, in Lean's order, are the function's
  positional arguments: ``ℝ`` a float, ``ℕ``/``ℤ`` an int, ``ℂ`` a complex, ``Bool``/``Prop``
  a bool, ``ℕ → ℝ`` the sampled prefix as a 1-D float64 array, ``Fin n → ℝ`` an array of
  length ``n``, ``Fin n → Fin m → ℝ`` and ``Matrix`` a 2-D array (proof arguments are never
  passed);
- ``index`` names trailing arguments that select an entry of the function's output instead;
- ``dims`` names size arguments that the arrays imply (not passed);
- ``vectorized`` functions take every argument with a leading batch axis;
- an ``adapter`` ``(impl, args, dims) -> value`` takes over the call for odd signatures.

A binding that cannot be used is a one-line :class:`~mirror.bind.binding.BindingError` naming the
binding, the file and the fix; :func:`load_registry` collects them instead of raising, so that
a report shows them as that statement's ``error`` row.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import importlib
import inspect
import sys
import warnings
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import numpy as np
import sympy as sp

from bridge.declaration import Declaration
from bridge.errors import InvalidArgument
from mirror.bind.binding import Binding, BindingError, OutOfSample, as_array
from mirror.bind.config import (BindingSpec, ConfigError, ProjectConfig, parse_domain,
                               read_config)
from mirror.translate.types import Ty

#: The entry point group packages use to advertise modules with ``@binds`` functions.
ENTRY_POINT_GROUP = "leanmirror.bindings"

#: ``@binds`` specs by the module that defined the function.
_DECORATED: dict[str, list[BindingSpec]] = {}


def binds(lean_name: str, *, index: Iterable[str] = (), dims: Iterable[str] = (),
          vectorized: bool = False, domain: Mapping[str, str] | None = None,
          adapter: Callable | str | None = None, description: str = "") -> Callable:
    """Bind the decorated function to the Lean definition ``lean_name`` (keywords as in the
    configuration's binding tables). The function is returned unchanged."""
    if not isinstance(lean_name, str) or not lean_name:
        raise InvalidArgument(f"binds: lean_name = {lean_name!r}; expected a Lean name such "
                              "as \"Toy.relu\"")

    def decorate(function: Callable) -> Callable:
        if not callable(function):
            raise InvalidArgument(f"@binds({lean_name!r}): got {function!r}; expected a function")
        module = getattr(function, "__module__", "?")
        where = f"@binds in {module}"
        spec = BindingSpec(
            lean_name, function, tuple(index), tuple(dims), bool(vectorized),
            {p: parse_domain(b, f"{where} domain {p}") for p, b in (domain or {}).items()},
            adapter, description, where)
        specs = _DECORATED.setdefault(module, [])
        specs[:] = [s for s in specs if s.lean_name != lean_name] + [spec]
        return function

    return decorate


# ---- the Lean side of a binding -------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """One explicit argument of a Lean definition, as a binding receives it."""

    name: str
    #: ``float int complex bool prefix array other``; ``proof`` is never passed.
    kind: str
    #: Lean type as text (for messages).
    lean_type: str = ""
    #: Array axes (``prefix``/``array``) and the entries' NumPy dtype.
    ndim: int = 0
    dtype: str = "float64"

    #: Array axes as Lean sizes (``("n", "m")``; ``"N"`` for the sampled prefix of ``ℕ``).
    axes: tuple[str, ...] = ()

    def describe(self, batch: bool = False) -> str:
        lead = ["B"] if batch else []
        if self.kind in ("prefix", "array"):
            note = " (sampled prefix)" if self.kind == "prefix" else ""
            return f"{self.name}: {self.dtype}[{', '.join(lead + list(self.axes))}]{note}"
        if self.kind in ("float", "int", "complex", "bool"):
            return f"{self.name}: {self.dtype}[B]" if batch else f"{self.name}: {self.kind}"
        return f"{self.name}: as drawn ({self.lean_type})"


_SCALARS = {"Real": ("float", "float64"), "Rat": ("float", "float64"),
            "Nat": ("int", "int64"), "Int": ("int", "int64"), "Fin": ("int", "int64"),
            "Complex": ("complex", "complex128"), "Bool": ("bool", "bool"),
            "Prop": ("bool", "bool")}


def _param(name: str, ty: Ty) -> Param:
    if ty.kind in _SCALARS:
        kind, dtype = _SCALARS[ty.kind]
        return Param(name, kind, str(ty), 0, dtype)
    if ty.is_array:
        dtype = _SCALARS.get(ty.codomain().kind, ("", "float64"))[1]
        domains = ty.domains()
        axes = tuple("N" if d.kind == "Nat" else str(d.args[0]) if d.kind == "Fin" and d.args
                     else "?" for d in domains)
        prefix = domains[0].kind == "Nat"
        return Param(name, "prefix" if prefix else "array", str(ty), ty.arity(), dtype, axes)
    return Param(name, "other", str(ty))


@dataclass(frozen=True)
class LeanSignature:
    """A definition's explicit arguments as they arrive (proofs included) and its result."""

    params: tuple[Param, ...]
    result: Ty | None

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.params if p.kind != "proof"]


def lean_signature(decl: Declaration, declarations: Mapping[str, Declaration]) -> LeanSignature:
    """The explicit arguments of ``decl`` in the order a bound call passes them."""
    from mirror.translate import translation as tr

    translator = tr.Translator(dict(declarations))
    env = tr.Env()
    params: list[Param] = []

    def add(binder, explicit: bool) -> None:
        if binder.info == "instImplicit" or binder.type is None:
            return
        if tr._is_prop_type(binder.type):
            if explicit:
                params.append(Param(binder.name, "proof", "a proof"))
            return
        try:
            ty = translator.type_of(binder.type, env)
        except tr.Untranslatable:
            ty = Ty("Unknown")
        if ty.kind in ("Sort", "TyVar"):
            env[binder.name] = Ty("Fin", (sp.Symbol(f"{binder.name}_size", integer=True,
                                                    positive=True),))
        else:
            symbol = sp.Symbol(binder.name)
            env[binder.name] = (tr.Value(fn=tr.ArrayFn(symbol, ty), ty=ty) if ty.is_array
                                else tr.Value(expr=symbol, ty=ty))
        if explicit:
            params.append(_param(binder.name, ty))

    for binder in decl.binders:
        add(binder, binder.info == "default")
    post = [b for b in tr._post_colon_params(decl.type) if not tr._is_prop_type(b.type)]
    for binder in post:
        add(binder, True)
    result = None
    if decl.type is not None:
        rest = tr._drop_pis(decl.type, len(tr._post_colon_params(decl.type)))
        try:
            result = translator.type_of(rest, env)
        except tr.Untranslatable:
            result = None
    return LeanSignature(tuple(params), result)


# ---- resolving a spec into a binding --------------------------------------------------------


def _fail(spec: BindingSpec, problem: str, fix: str) -> BindingError:
    return BindingError(f"binding {spec.lean_name} ({spec.source}): {problem}; {fix}")


def _import_target(spec: BindingSpec, target: Any, what: str) -> tuple[Callable, str]:
    """The callable ``target`` names and its ``module:function`` text."""
    if not isinstance(target, str):
        name = f"{getattr(target, '__module__', '?')}:{getattr(target, '__qualname__', target)}"
        return target, name
    module, _, attr = target.partition(":")
    try:
        loaded = importlib.import_module(module)
    except Exception as exc:  # noqa: BLE001 - any import failure is the user's to fix
        raise _fail(spec, f"cannot import module {module!r} of {what} {target!r} "
                    f"({type(exc).__name__}: {' '.join(str(exc).split())})",
                    "fix the module name, or add its directory to python-path") from None
    function = loaded
    for part in attr.split("."):
        function = getattr(function, part, None)
        if function is None:
            raise _fail(spec, f"module {module!r} has no attribute {attr!r} ({what} {target!r})",
                        f"fix the name after ':' in {what}")
    if not callable(function):
        raise _fail(spec, f"{target!r} is not callable", f"point {what} at a function")
    return function, target


def _positional_range(function: Callable) -> tuple[int, float] | None:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    low, high = 0, 0.0
    for p in signature.parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            high = float("inf")
        elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            high += 1
            low += p.default is p.empty
    return low, high


def _check_names(spec: BindingSpec, key: str, names: tuple[str, ...], lean: LeanSignature
                 ) -> None:
    for name in names:
        if name not in lean.names:
            raise _fail(spec, f"{key} names {name!r}, which is not an explicit parameter of "
                        f"{spec.lean_name} ({', '.join(lean.names) or 'none'})", f"fix {key}")


def _convert(param: Param, value: Any) -> Any:
    """One argument for one draw (``batch=False``) or a batch, in the function's type."""
    if param.kind in ("prefix", "array"):
        return np.asarray(np.asarray(value).real if param.dtype != "complex128" else value,
                          dtype=param.dtype)
    arr = np.asarray(value)
    if arr.ndim:
        if param.kind == "int":
            return np.asarray(np.rint(arr.real), dtype=np.int64)
        if param.kind in ("float", "bool"):
            return np.asarray(arr.real, dtype=_SCALARS["Real" if param.kind == "float"
                                                       else "Bool"][1])
        return np.asarray(arr, dtype=complex) if param.kind == "complex" else arr
    if param.kind == "int":
        return int(np.rint(arr.real))
    if param.kind == "float":
        return float(arr.real)
    if param.kind == "complex":
        return complex(arr)
    if param.kind == "bool":
        return bool(arr)
    return value


def _select(value: np.ndarray, indices: list[np.ndarray], batch: bool, spec: BindingSpec,
            target: str) -> np.ndarray:
    """The entry of ``value`` the ``index`` arguments select (per draw of a batch)."""
    if not indices:
        return value
    lead = 1 if batch else 0
    if value.ndim < lead + len(indices):
        raise _fail(spec, f"{target} returned shape {value.shape}, which {len(indices)} index "
                    f"argument(s) cannot select from", "fix the function's result or index")
    picked = [np.asarray(np.rint(np.asarray(i).real), dtype=np.int64) for i in indices]
    for axis, i in enumerate(picked):
        size = value.shape[lead + axis]
        if (i < 0).any() or (i >= size).any():
            raise OutOfSample(f"index {i.tolist()} beyond the output's axis of length {size}")
    if batch:
        return value[(np.arange(value.shape[0]), *picked)]
    return value[tuple(int(i) for i in picked)]


def _convention_call(spec: BindingSpec, lean: LeanSignature, target: str) -> Callable:
    roles = ["proof" if p.kind == "proof" else "index" if p.name in spec.index else
             "dim" if p.name in spec.dims else "pass" for p in lean.params]

    def call(impl: Callable, args: list, dims: list) -> Any:
        passed = [_convert(p, a) for p, r, a in zip(lean.params, roles, args) if r == "pass"]
        indices = [a for r, a in zip(roles, args) if r == "index"]
        value = as_array(impl(*passed))
        return _select(value, indices, spec.vectorized, spec, target)

    return call


def resolve(spec: BindingSpec, declarations: Mapping[str, Declaration]) -> Binding:
    """The :class:`Binding` for ``spec``; a :class:`BindingError` when it cannot be used."""
    decl = declarations.get(spec.lean_name)
    if decl is None:
        close = difflib.get_close_matches(spec.lean_name, list(declarations), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise _fail(spec, f"no Lean definition named {spec.lean_name} in the project{hint}",
                    "fix the name, or remove the binding")
    if decl.kind not in ("def", "abbrev"):
        raise _fail(spec, f"{spec.lean_name} is a {decl.kind}, not a definition",
                    "bind a def or abbrev")
    lean = lean_signature(decl, declarations)
    _check_names(spec, "index", spec.index, lean)
    _check_names(spec, "dims", spec.dims, lean)
    _check_names(spec, "domain", tuple(spec.domain), lean)
    function, target = _import_target(spec, spec.impl, "impl")
    passed = [p for p in lean.params
              if p.kind != "proof" and p.name not in spec.index and p.name not in spec.dims]
    batch = spec.vectorized
    convention = f"{target}({', '.join(p.describe(batch) for p in passed)})"
    if spec.index:
        convention += f"[{', '.join(i for i in lean.names if i in spec.index)}]"
    result_ndim = None
    if spec.adapter is not None:
        adapter, adapter_name = _import_target(spec, spec.adapter, "adapter")
        call = adapter
        convention = f"adapter {adapter_name}(impl, args, dims) with impl = {target}"
    else:
        allowed = _positional_range(function)
        if allowed is not None and not allowed[0] <= len(passed) <= allowed[1]:
            takes = (f"{allowed[0]}" if allowed[0] == allowed[1] else
                     f"{allowed[0]} to {allowed[1]:g}")
            raise _fail(spec, f"{target} takes {takes} positional argument(s), but "
                        f"{spec.lean_name} passes {len(passed)} "
                        f"({', '.join(p.name for p in passed) or 'none'})",
                        "fix the function's parameters, or name size arguments in dims and "
                        "output selectors in index")
        call = _convention_call(spec, lean, target)
        if lean.result is not None:
            result_ndim = lean.result.arity()
            convention += f" → {result_ndim}-axis value for Lean's {lean.result}"
    if batch:
        convention += " (vectorized: one call per batch)"
    return Binding(spec.lean_name, target, call, spec.description or convention,
                   dict(spec.domain), vectorized=batch, convention=convention,
                   source=spec.source, result_ndim=result_ndim,
                   function=None if isinstance(spec.impl, str) else function,
                   profile=spec.profile)


# ---- the registry of a project --------------------------------------------------------------


class BindingTable(dict):
    """Lean name → :class:`Binding`, carrying the project's per-statement draw settings
    (``statements``: statement name → :class:`~mirror.bind.config.StatementSettings`), which
    planning reads beside the bindings."""

    def __init__(self, *args: Any, statements: Mapping[str, Any] | None = None) -> None:
        super().__init__(*args)
        self.statements = dict(statements or {})


def statement_table(table: Mapping[str, Any]) -> dict[str, Any]:
    """The per-statement settings a binding table carries (none for a plain mapping)."""
    return getattr(table, "statements", {})


@dataclass
class Registry:
    """A project's bindings: the ones that load, and one error per one that does not."""

    config: ProjectConfig
    bindings: dict[str, Binding] = field(default_factory=BindingTable)
    #: Lean name → one-line error of a binding that cannot be used.
    errors: dict[str, str] = field(default_factory=dict)
    #: Errors that belong to no Lean definition (a module list entry that does not import).
    problems: list[str] = field(default_factory=list)
    specs: dict[str, BindingSpec] = field(default_factory=dict)


def _add_python_path(paths: Iterable[Path]) -> None:
    for path in reversed(list(paths)):
        text = str(path)
        if text not in sys.path:
            sys.path.insert(0, text)


#: leanmirror's own top-level packages: never dropped and re-imported from a project's
#: python-path (a second copy of ``mirror`` in one process breaks pickling and isinstance).
RUNNING_PACKAGES = ("bridge", "mirror")


def _forget_foreign(module: str, paths: tuple[Path, ...]) -> str | None:
    """Drop a cached package of the same name imported from another project's python-path.
    leanmirror's own packages are kept; the warning that says so is returned."""
    top = module.split(".")[0]
    cached = sys.modules.get(top)
    origin = getattr(cached, "__file__", None)
    if cached is None or origin is None:
        return None
    ours = [p for p in paths if (p / top).is_dir() or (p / f"{top}.py").is_file()]
    if ours and top in RUNNING_PACKAGES:
        running = Path(origin).resolve().parent
        if not any(running.is_relative_to(p) for p in ours):
            return (f"python-path entry {str(ours[0])!r} holds another copy of leanmirror's "
                    f"package {top!r}; its modules are imported from the running leanmirror "
                    f"({running}) instead")
        return None
    if ours and not any(Path(origin).resolve().is_relative_to(p) for p in ours):
        for name in [n for n in sys.modules if n == top or n.startswith(top + ".")]:
            del sys.modules[name]


def _decorated(module: str) -> list[BindingSpec]:
    return [spec for name, specs in _DECORATED.items()
            if name == module or name.startswith(module + ".") for spec in specs]


def load_registry(project: str | Path, declarations: Mapping[str, Declaration],
                  config: ProjectConfig | None = None) -> Registry:
    """Read the project's configuration, import what it names, resolve every binding."""
    config = config or read_config(project)
    _add_python_path(config.python_path)
    registry = Registry(config)
    targets = [s.impl for s in config.bindings] + [s.adapter for s in config.bindings]
    kept_running = set()
    for target in targets + list(config.modules):
        if isinstance(target, str):
            kept = _forget_foreign(target.partition(":")[0], config.python_path)
            if kept is not None and kept not in kept_running:
                kept_running.add(kept)
                warnings.warn(kept, stacklevel=2)
    specs: dict[str, BindingSpec] = {s.lean_name: s for s in config.bindings}

    def take(spec: BindingSpec, required: bool) -> None:
        if not required and (spec.lean_name not in declarations or spec.lean_name in specs):
            return  # an installed package's binding for another project, or one the
            # project's own configuration overrides
        if spec.lean_name in specs and specs[spec.lean_name].impl is not spec.impl:
            registry.errors[spec.lean_name] = str(_fail(
                spec, f"{spec.lean_name} is also bound in {specs[spec.lean_name].source}",
                "keep one of the two bindings"))
        specs.setdefault(spec.lean_name, spec)

    for module in config.modules:
        try:
            importlib.import_module(module)
        except Exception as exc:  # noqa: BLE001
            registry.problems.append(
                f"modules entry {module!r} ({config.where}): cannot import it "
                f"({type(exc).__name__}: {' '.join(str(exc).split())}); fix the module name, "
                "or add its directory to python-path")
            continue
        for spec in _decorated(module):
            take(spec, True)
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            entry.load()
        except Exception as exc:  # noqa: BLE001
            registry.problems.append(
                f"entry point {entry.name} = {entry.value!r} (group {ENTRY_POINT_GROUP}): "
                f"cannot load it ({type(exc).__name__}: {exc}); fix or uninstall that package")
            continue
        for spec in _decorated(entry.module):
            take(spec, False)
    _check_statements(config, declarations, specs)
    registry.bindings = BindingTable(statements=config.statements)
    for name, spec in specs.items():
        own = config.statements.get(f"{name}.conformance")
        if own is not None:  # the conformance row's own settings win over the binding's
            spec = dataclasses.replace(spec, profile=own.profile(spec.profile))
            specs[name] = spec
        if name in registry.errors:
            continue
        try:
            registry.bindings[name] = resolve(spec, declarations)
        except BindingError as exc:
            registry.errors[name] = str(exc)
    registry.specs = specs
    return registry


def _check_statements(config: ProjectConfig, declarations: Mapping[str, Declaration],
                      specs: Mapping[str, BindingSpec]) -> None:
    """Every ``[tool.leanmirror.statements."NAME"]`` names a theorem of the project or the
    conformance row of a bound definition: a :class:`ConfigError` naming the first that does
    not (with the closest name)."""
    known = {n for n, d in declarations.items() if d.kind == "theorem"}
    known |= {f"{n}.conformance" for n in specs}
    for name, own in config.statements.items():
        if name in known:
            continue
        close = difflib.get_close_matches(name, sorted(known), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise ConfigError(f"{own.where}: no statement named {name} in the project{hint}; "
                          "expected a theorem's name or a bound definition's "
                          "NAME.conformance")


@functools.lru_cache(maxsize=8)
def registry_at(project: Path) -> Registry:
    """The registry of the Lake project at ``project`` (an absolute path), its declarations
    read by the source scanner; resolved once per process (generated mirrors, the bundled
    project)."""
    from bridge.scanner import scan_project

    return load_registry(project, scan_project(project).by_name())


def catalog_rows(config: ProjectConfig) -> dict[str, Any] | None:
    """The configured catalog as JSON-ready rows (``None`` when there is none)."""
    if config.catalog is None:
        return None
    module, _, attr = config.catalog["table"].partition(":")
    try:
        table = getattr(importlib.import_module(module), attr)
    except Exception as exc:  # noqa: BLE001
        raise BindingError(f"catalog {config.catalog['table']!r} ({config.where}): cannot load "
                           f"it ({type(exc).__name__}: {exc}); fix catalog.table") from None
    rows = []
    for key, entry in dict(table).items():
        kernel = getattr(entry, "kernel", None)
        rows.append({
            "op": str(key),
            "lean_name": getattr(entry, "lean_name", str(key)),
            "lean_defined": bool(getattr(entry, "lean_defined", True)),
            "kernel": f"{kernel.__module__}:{kernel.__name__}" if callable(kernel) else None,
            "description": str(getattr(entry, "description", "")),
        })
    return {"title": str(config.catalog.get("title", "Catalog")), "rows": rows}


def binding_rows(registry: Registry) -> list[dict[str, Any]]:
    """Each binding: what it binds, whether it loads, the calling convention it resolved."""
    rows = []
    for name, spec in registry.specs.items():
        binding = registry.bindings.get(name)
        impl = spec.impl if isinstance(spec.impl, str) else \
            f"{spec.impl.__module__}:{spec.impl.__qualname__}"
        rows.append({
            "lean_name": name,
            "implementation": binding.implementation if binding else impl,
            "source": spec.source,
            "loads": binding is not None,
            "convention": binding.convention if binding else None,
            "vectorized": spec.vectorized,
            "description": binding.description if binding else spec.description,
            "error": registry.errors.get(name),
        })
    return rows


__all__ = ["ENTRY_POINT_GROUP", "BindingTable", "LeanSignature", "Param", "Registry", "binds",
           "binding_rows", "catalog_rows", "lean_signature", "load_registry", "registry_at",
           "resolve", "statement_table"]
