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
    "Toy.softmax" = { impl = "toyimpl.ops:softmax", dtypes = ["float64", "float32"],
                      ulps = 8, sizes = "0..1024", magnitude = "wide" }

    [tool.leanmirror.draws]           # defaults of every binding's conformance draws
    sizes = "0..4096"
    magnitude = "wide"

    [tool.leanmirror.statements."Toy.softmax.conformance"]   # one statement's own (wins)
    sizes = "0..64"
    domain = { x = ">= -100, <= 100" }

The accuracy keys (``dtypes``, ``ulps``, ``rtol``, ``atol``, ``reference``, ``k``,
``measure``) and the draw keys (``sizes``, ``magnitude``) of a binding make a
:class:`KernelProfile`; a statement's own table (:class:`StatementSettings`) is laid over its
binding's; see ``docs/accuracy.md``.

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
BINDING_KEYS = ("impl", "index", "dims", "vectorized", "domain", "adapter", "description",
                "dtypes", "ulps", "rtol", "atol", "reference", "k", "sizes", "magnitude",
                "measure")
#: Keys of the ``[tool.leanmirror]`` table.
TOP_KEYS = ("python-path", "modules", "bindings", "catalog", "draws", "statements")
#: Keys of ``[tool.leanmirror.draws]`` (every binding's defaults).
DRAW_KEYS = ("sizes", "magnitude", "dtypes", "ulps", "rtol", "atol", "k", "measure")
#: Keys of a ``[tool.leanmirror.statements."NAME"]`` table (one statement's own settings).
STATEMENT_KEYS = ("sizes", "domain", "magnitude", "dtypes", "ulps", "rtol", "atol", "k",
                  "measure", "reference")
#: Statement keys that only a kernel's conformance row (``NAME.conformance``) takes: a
#: theorem draws reals in [-5, 5] (docs/accuracy.md).
CONFORMANCE_ONLY = ("magnitude", "dtypes", "ulps", "rtol", "atol", "k", "measure",
                    "reference")
#: The dtypes a kernel can be measured in.
DTYPES = ("float64", "float32", "bfloat16", "float16")
#: Magnitudes of conformance draws: ``"wide"`` spreads reals over the dtype's whole range
#: with its special values and structured vectors; ``"narrow"`` draws in ``[-5, 5]`` only.
MAGNITUDES = ("wide", "narrow")
#: What an error is measured against: ``"entrywise"``, each entry's own ulp (a scalar or
#: elementwise kernel); ``"normwise"``, the ulp of Lean's largest entry (a kernel built on
#: matrix solves or transforms, whose error is bounded normwise: docs/accuracy.md).
MEASURES = ("entrywise", "normwise")
#: Default accuracy budget in ulps of each dtype (beyond the input sensitivity allowance).
DEFAULT_ULPS = {"float64": 4.0, "float32": 4.0, "bfloat16": 2.0, "float16": 2.0}
#: Largest size drawn by default: vectorized kernels run realistic lengths, per-draw ones
#: (one Python call per draw) are capped lower; Lean's value at every draw is computed
#: exactly, which costs time linear in the size (``sizes = "0..4096"`` asks for more).
DEFAULT_MAX_SIZE = {True: 256, False: 64}


class ConfigError(InvalidArgument):
    """The project's ``[tool.leanmirror]`` configuration is malformed."""


@dataclass(frozen=True)
class KernelProfile:
    """How a binding's conformance is drawn and judged (all optional, defaults per dtype).

    ``ulps`` / ``rtol``: the accuracy budget (``None``: :data:`DEFAULT_ULPS`), beyond which
    the conformance row is refuted; ``reference``: ``"module:function"`` called like the
    kernel, which then passes when its error is at most ``k`` times the reference's;
    ``sizes``: ``(lo, hi)`` of drawn dimensions (``None``: 0 … :data:`DEFAULT_MAX_SIZE`)."""

    dtypes: tuple[str, ...] = ("float64",)
    ulps: float | None = None
    rtol: float | None = None
    #: An absolute error always allowed, as in ``numpy.allclose``: for a kernel whose error is
    #: bounded normwise (a quadrature, an FFT), where an exact value that cancels to nearly 0
    #: is no measure of its accuracy in ulps or relative terms.
    atol: float | None = None
    reference: str | None = None
    k: float = 2.0
    sizes: tuple[int, int] | None = None
    magnitude: str = "wide"
    measure: str = "entrywise"

    def budget_ulps(self, dtype: str) -> float:
        """The ulps budget at ``dtype``."""
        return self.ulps if self.ulps is not None else DEFAULT_ULPS[dtype]

    def size_range(self, vectorized: bool) -> tuple[int, int]:
        return self.sizes if self.sizes is not None else (0, DEFAULT_MAX_SIZE[vectorized])

    def describe(self, vectorized: bool) -> str:
        lo, hi = self.size_range(vectorized)
        spread = ("magnitudes log-uniform over each dtype's range, special values "
                  "(±0, subnormals, largest finite, exp/log overflow edges, 1 ± ulp) and "
                  "structured vectors (constant, one-hot, nearly equal, large offset, wide "
                  "dynamic range)") if self.magnitude == "wide" else "reals in [-5, 5]"
        return f"drawn with sizes {lo}..{hi}, {spread}"


def _positive(value: Any, where: str, integer: bool = False) -> float:
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or value <= 0:
        raise ConfigError(f"{where}: got {value!r}; expected a positive "
                          f"{'integer' if integer else 'number'}")
    return value


def _sizes(value: Any, where: str) -> tuple[int, int]:
    """``"0..4096"`` or ``[0, 4096]`` → ``(0, 4096)``."""
    parts: Any = value
    if isinstance(value, str):
        parts = value.split("..")
        try:
            parts = [int(p.strip()) for p in parts]
        except ValueError:
            parts = None
    if (not isinstance(parts, list) or len(parts) != 2
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in parts)
            or not 0 <= parts[0] <= parts[1]):
        raise ConfigError(f"{where}: got {value!r}; expected sizes such as \"0..4096\" "
                          "(0 ≤ lo ≤ hi)")
    return parts[0], parts[1]


_PROFILE_READERS = {
    "dtypes": lambda v, w: _dtypes(v, w),
    "ulps": lambda v, w: float(_positive(v, w)),
    "rtol": lambda v, w: float(_positive(v, w)),
    "atol": lambda v, w: float(_positive(v, w)),
    "k": lambda v, w: float(_positive(v, w)),
    "reference": lambda v, w: _target(v, w),
    "sizes": _sizes,
    "magnitude": lambda v, w: _choice(v, w, MAGNITUDES),
    "measure": lambda v, w: _choice(v, w, MEASURES),
}


def _choice(value: Any, where: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ConfigError(f"{where}: got {value!r}; expected one of {', '.join(allowed)}")
    return value


def _dtypes(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        raise ConfigError(f"{where}: got {value!r}; expected a list such as "
                          "[\"float64\", \"float32\"]")
    return tuple(_choice(v, where, DTYPES) for v in value)


def kernel_profile(entry: dict[str, Any], where: str,
                   base: KernelProfile | None = None) -> KernelProfile:
    """The :class:`KernelProfile` of a binding table (or of ``[tool.leanmirror.draws]``),
    over ``base``'s values."""
    base = base or KernelProfile()
    changes = {key: _PROFILE_READERS[key](entry[key], f"{where} {key}")
               for key in _PROFILE_READERS if key in entry}
    return KernelProfile(**{**base.__dict__, **changes})


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
    #: How its conformance is drawn and judged.
    profile: KernelProfile = field(default_factory=KernelProfile)


@dataclass(frozen=True)
class StatementSettings:
    """One statement's own draw settings (``[tool.leanmirror.statements."NAME"]``): they win
    over its binding's, which win over ``[tool.leanmirror.draws]``."""

    name: str
    #: Where it was stated, for error messages.
    where: str
    #: The validated table: its profile keys are laid over a binding's (:func:`kernel_profile`).
    entry: dict[str, Any] = field(default_factory=dict)
    sizes: tuple[int, int] | None = None
    #: Per variable of the statement: ``{"lo": 0.0, "strict": True, …}``.
    domain: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def conformance(self) -> bool:
        return self.name.endswith(".conformance")

    def profile(self, base: "KernelProfile") -> "KernelProfile":
        """``base`` (a binding's profile) with this statement's keys laid over it."""
        return kernel_profile(self.entry, self.where, base)


def _known_keys(entry: dict[str, Any], keys: tuple[str, ...], where: str) -> None:
    unknown = sorted(set(entry) - set(keys))
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r}; expected one of "
                          f"{', '.join(keys)}")


def statement_settings(name: str, entry: Any, source: str) -> StatementSettings:
    """The :class:`StatementSettings` of one ``statements`` table entry, validated."""
    where = f"statement {name} ({source})"
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: got {entry!r}; expected a table such as "
                          "{ sizes = \"0..64\", domain = { x = \"> 0\" } }")
    _known_keys(entry, STATEMENT_KEYS, where)
    if not name.endswith(".conformance"):
        only = [k for k in CONFORMANCE_ONLY if k in entry]
        if only:
            raise ConfigError(f"{where}: {only[0]} applies to a kernel's conformance row "
                              f"only (a name ending in .conformance); a theorem takes sizes "
                              "and domain")
    domain = entry.get("domain", {})
    if not isinstance(domain, dict):
        raise ConfigError(f"{where} domain: got {domain!r}; expected a table such as "
                          "{ x = \"> 0\" }")
    kernel_profile(entry, where)  # validates the profile keys
    return StatementSettings(
        name, where, dict(entry),
        sizes=_sizes(entry["sizes"], f"{where} sizes") if "sizes" in entry else None,
        domain={v: parse_domain(b, f"{where} domain {v}") for v, b in domain.items()})


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
    #: Statement name → its own draw settings.
    statements: dict[str, StatementSettings] = field(default_factory=dict)

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


def binding_spec(lean_name: str, entry: Any, source: str,
                 draws: KernelProfile | None = None) -> BindingSpec:
    """A :class:`BindingSpec` from one entry of a ``bindings`` table (``draws``: the
    project's ``[tool.leanmirror.draws]`` defaults)."""
    where = f"binding {lean_name} ({source})"
    if isinstance(entry, str):
        return BindingSpec(lean_name, _target(entry, where), source=source,
                           profile=draws or KernelProfile())
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: got {entry!r}; expected \"module:function\" or a table "
                          "with impl = \"module:function\"")
    _known_keys(entry, BINDING_KEYS, where)
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
        profile=kernel_profile(entry, where, draws),
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
        draws_table = section.get("draws", {})
        if not isinstance(draws_table, dict) or set(draws_table) - set(DRAW_KEYS):
            raise ConfigError(f"{path}: draws = {draws_table!r}; expected a table "
                              f"[tool.leanmirror.draws] with keys among {', '.join(DRAW_KEYS)}")
        draws = kernel_profile(draws_table, f"{path}: draws")
        specs = tuple(binding_spec(name, entry, str(path), draws)
                      for name, entry in table.items())
        catalog = section.get("catalog")
        if catalog is not None and not (isinstance(catalog, dict) and "table" in catalog):
            raise ConfigError(f"{path}: catalog = {catalog!r}; expected a table such as "
                              "{ title = \"Ops\", table = \"pkg.mod:TABLE\" }")
        if catalog is not None:
            _target(catalog["table"], f"{path}: catalog table")
        statements = section.get("statements", {})
        if not isinstance(statements, dict):
            raise ConfigError(f"{path}: statements is {statements!r}; expected tables "
                              "[tool.leanmirror.statements.\"Lean.name\"]")
        return ProjectConfig(root, path, tuple((path.parent / p).resolve() for p in paths),
                             modules, specs, catalog,
                             {n: statement_settings(n, e, str(path))
                              for n, e in statements.items()})
    return ProjectConfig(root)


__all__ = ["DTYPES", "BindingSpec", "ConfigError", "KernelProfile", "ProjectConfig",
           "StatementSettings", "binding_spec", "kernel_profile", "parse_domain", "read_config",
           "statement_settings"]
