"""Configuration: what a Lake project says about its Python side.

A project states its bindings in ``[tool.leanmirror]`` of the ``pyproject.toml`` in its root,
or in a ``leanmirror.toml`` there with the same tables and no ``tool.leanmirror`` prefix::

    [tool.leanmirror]
    python-path = ["python"]          # added to sys.path, relative to that file
    modules = ["toyimpl.ops"]         # imported for their @binds decorators

    [tool.leanmirror.bindings]
    "Toy.relu" = "toyimpl.ops:relu"
    "Toy.prefixSum" = { impl = "toyimpl.ops:prefix_sum", index = ["i"] }
    "Toy.logsumexp" = { impl = "toyimpl.ops:logsumexp", dims = ["n"] }
    "Toy.attn" = { impl = "toyimpl.ops:attn", vectorized = true, domain = { tau = "> 0" } }

:func:`read_config` reads and validates it (nothing is imported here; the registry does that).
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge.errors import InvalidArgument

#: The configuration files, in the order they are looked for.
CONFIG_FILES = ("leanmirror.toml", "pyproject.toml")
#: Keys a binding table may have.
BINDING_KEYS = ("impl", "index", "dims", "vectorized", "domain", "adapter", "description")
#: Keys of the ``[tool.leanmirror]`` table.
TOP_KEYS = ("python-path", "modules", "bindings", "catalog")


class ConfigError(InvalidArgument):
    """The project's ``[tool.leanmirror]`` configuration is malformed."""


@dataclass(frozen=True)
class BindingSpec:
    """One binding as the project states it (configuration entry or ``@binds``)."""

    lean_name: str
    #: ``"module:function"``, or the function itself (a decorated one).
    impl: Any
    index: tuple[str, ...] = ()
    dims: tuple[str, ...] = ()
    vectorized: bool = False
    #: Per Lean parameter: ``{"lo": 0.0, "strict": True, "hi": …, "hi_strict": …}``.
    domain: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: ``"module:function"`` of an adapter ``(impl, args, dims) -> value``, or the callable.
    adapter: Any = None
    description: str = ""
    #: Where it was stated (a file, or ``@binds in module``), for error messages.
    source: str = ""


@dataclass(frozen=True)
class ProjectConfig:
    """The ``[tool.leanmirror]`` section of a project (empty when it has none)."""

    root: Path
    #: The file the section was read from (``None``: no configuration).
    path: Path | None = None
    python_path: tuple[Path, ...] = ()
    modules: tuple[str, ...] = ()
    bindings: tuple[BindingSpec, ...] = ()
    #: ``{"title": …, "table": "module:NAME"}``: a mapping of named entries (``lean_name``,
    #: ``lean_defined``, ``kernel``, ``description``) the report lists with their conformance.
    catalog: dict[str, str] | None = None

    @property
    def where(self) -> str:
        return str(self.path) if self.path is not None else f"{self.root} (no configuration)"


_COMPARATORS = {">": ("lo", True), ">=": ("lo", False), "≥": ("lo", False),
                "<": ("hi", True), "<=": ("hi", False), "≤": ("hi", False)}


def parse_domain(text: Any, where: str) -> dict[str, Any]:
    """``"> 0"``, ``">= 1"``, ``"> 0, < 1"`` → ``{"lo": 0.0, "strict": True, …}``."""
    if not isinstance(text, str) or not text.strip():
        raise ConfigError(f"{where}: got {text!r}; expected a bound such as \"> 0\" or "
                          "\">= 0, < 1\"")
    out: dict[str, Any] = {}
    for part in text.replace(" and ", ",").split(","):
        part = part.strip()
        op = next((o for o in (">=", "<=", ">", "<", "≥", "≤") if part.startswith(o)), None)
        try:
            value = float(part[len(op):]) if op else None
        except ValueError:
            value = None
        if op is None or value is None:
            raise ConfigError(f"{where}: got {text!r}; expected bounds such as \"> 0\" or "
                              "\">= 0, < 1\"")
        if not math.isfinite(value):
            raise ConfigError(f"{where}: got {text!r}; a bound must be a finite number "
                              "(ℝ has no NaN or ∞): leave that side out for no bound")
        side, strict = _COMPARATORS[op]
        if side in out:
            raise ConfigError(f"{where}: got {text!r}; give at most one lower and one upper "
                              "bound, such as \">= 0, < 1\"")
        if side == "lo":
            out.update(lo=value, strict=strict)
        else:
            out.update(hi=value, hi_strict=strict)
    if "lo" in out and "hi" in out and (
            out["lo"] > out["hi"] or (out["lo"] == out["hi"]
                                      and (out["strict"] or out["hi_strict"]))):
        raise ConfigError(f"{where}: got {text!r}, which no number satisfies; fix the bounds "
                          "(lower below upper)")
    return out


def _names(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: got {value!r}; expected a list of Lean parameter names")
    return tuple(value)


def _target(value: Any, where: str) -> str:
    if not isinstance(value, str) or value.count(":") != 1 or not all(value.split(":")):
        raise ConfigError(f"{where}: got {value!r}; expected \"package.module:function\"")
    return value


def binding_spec(lean_name: str, entry: Any, source: str) -> BindingSpec:
    """A :class:`BindingSpec` from one entry of a ``bindings`` table."""
    where = f"binding {lean_name} ({source})"
    if isinstance(entry, str):
        return BindingSpec(lean_name, _target(entry, where), source=source)
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: got {entry!r}; expected \"module:function\" or a table "
                          "with impl = \"module:function\"")
    unknown = sorted(set(entry) - set(BINDING_KEYS))
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r}; expected one of "
                          f"{', '.join(BINDING_KEYS)}")
    if "impl" not in entry:
        raise ConfigError(f"{where}: no impl; add impl = \"module:function\"")
    vectorized = entry.get("vectorized", False)
    if not isinstance(vectorized, bool):
        raise ConfigError(f"{where}: vectorized = {vectorized!r}; expected true or false")
    domain = entry.get("domain", {})
    if not isinstance(domain, dict):
        raise ConfigError(f"{where}: domain = {domain!r}; expected a table such as "
                          "{ tau = \"> 0\" }")
    return BindingSpec(
        lean_name,
        _target(entry["impl"], f"{where} impl"),
        index=_names(entry.get("index", []), f"{where} index"),
        dims=_names(entry.get("dims", []), f"{where} dims"),
        vectorized=vectorized,
        domain={p: parse_domain(b, f"{where} domain {p}") for p, b in domain.items()},
        adapter=_target(entry["adapter"], f"{where} adapter") if "adapter" in entry else None,
        description=str(entry.get("description", "")),
        source=source,
    )


def _section(path: Path) -> dict[str, Any] | None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); fix the file") from None
    if path.name == "pyproject.toml":
        return data.get("tool", {}).get("leanmirror")
    return data


def read_config(project: str | Path) -> ProjectConfig:
    """The project's configuration: ``leanmirror.toml``, else ``[tool.leanmirror]`` of its
    ``pyproject.toml``, else an empty one."""
    root = Path(project).resolve()
    for name in CONFIG_FILES:
        path = root / name
        if not path.is_file():
            continue
        section = _section(path)
        if section is None:
            continue
        if not isinstance(section, dict):
            raise ConfigError(f"{path}: [tool.leanmirror] is not a table; expected a table")
        unknown = sorted(set(section) - set(TOP_KEYS))
        if unknown:
            raise ConfigError(f"{path}: unknown key {unknown[0]!r} in [tool.leanmirror]; "
                              f"expected one of {', '.join(TOP_KEYS)}")
        paths = _names(section.get("python-path", []), f"{path}: python-path")
        modules = _names(section.get("modules", []), f"{path}: modules")
        table = section.get("bindings", {})
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: bindings is {table!r}; expected a table "
                              "[tool.leanmirror.bindings]")
        specs = tuple(binding_spec(name, entry, str(path)) for name, entry in table.items())
        catalog = section.get("catalog")
        if catalog is not None and not (isinstance(catalog, dict) and "table" in catalog):
            raise ConfigError(f"{path}: catalog = {catalog!r}; expected a table such as "
                              "{ title = \"Ops\", table = \"pkg.mod:TABLE\" }")
        if catalog is not None:
            _target(catalog["table"], f"{path}: catalog table")
        return ProjectConfig(root, path, tuple((path.parent / p).resolve() for p in paths),
                             modules, specs, catalog)
    return ProjectConfig(root)


__all__ = ["BindingSpec", "ConfigError", "ProjectConfig", "binding_spec", "parse_domain",
           "read_config"]
