"""Lake projects: the lakefile, the toolchain pin, the manifest and the source files.

:func:`read_project` reads ``lakefile.toml`` (with :mod:`tomllib`) or ``lakefile.lean``
(with the Lean tokenizer of :mod:`bridge.lexer`: package name, ``srcDir``, ``lean_lib``
names and roots, ``lean_exe``, ``require``), ``lean-toolchain`` and ``lake-manifest.json``
(versions 5–8 and "1.0.0"–"1.2.0"), and lists the project's ``.lean`` files with their
module names. Nothing is executed: a ``lakefile.lean`` is only tokenized.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge.errors import ProjectError
from bridge.fileio import source_files
from bridge.lexer import Token, tokenize

#: Manifest versions this reader understands.
MANIFEST_VERSIONS: tuple[int | str, ...] = (4, 5, 6, 7, 8, "1.0.0", "1.1.0", "1.2.0")
#: Directories never searched for sources.
_SKIPPED_DIRS = frozenset({".lake", "lake-packages", "build", ".git", ".venv", "node_modules"})


@dataclass(frozen=True)
class LeanLib:
    """A ``lean_lib`` target: its name, root modules and source directory (if overridden)."""

    name: str
    roots: tuple[str, ...] = ()
    src_dir: str | None = None


@dataclass(frozen=True)
class Requirement:
    """A ``require`` of the lakefile."""

    name: str
    git: str | None = None
    rev: str | None = None
    scope: str | None = None
    path: str | None = None


@dataclass(frozen=True)
class ManifestPackage:
    """One package of ``lake-manifest.json``."""

    name: str
    type: str = "git"
    url: str | None = None
    rev: str | None = None
    input_rev: str | None = None
    scope: str | None = None
    sub_dir: str | None = None
    inherited: bool = False
    path: str | None = None


@dataclass(frozen=True)
class Manifest:
    """``lake-manifest.json``: its version and pinned packages."""

    version: int | str
    packages: tuple[ManifestPackage, ...] = ()
    name: str | None = None

    def package(self, name: str) -> ManifestPackage | None:
        """The package called ``name`` (case-insensitive), or ``None``."""
        for pkg in self.packages:
            if pkg.name.lower() == name.lower():
                return pkg
        return None


@dataclass(frozen=True)
class SourceFile:
    """A ``.lean`` file of the project and its module name."""

    path: Path
    module: str


@dataclass
class LakeProject:
    """A Lake project on disk."""

    path: Path
    name: str
    lakefile: Path
    src_dir: str = "."
    libs: list[LeanLib] = field(default_factory=list)
    exes: list[str] = field(default_factory=list)
    requires: list[Requirement] = field(default_factory=list)
    toolchain: str | None = None
    manifest: Manifest | None = None

    @property
    def mathlib_rev(self) -> str | None:
        """The pinned Mathlib revision from the manifest, if any."""
        if self.manifest is None:
            return None
        pkg = self.manifest.package("mathlib")
        return pkg.rev if pkg is not None else None

    def source_files(self) -> list[SourceFile]:
        """The project's ``.lean`` files (library roots and their subtrees), sorted by module."""
        found: dict[Path, str] = {}
        if self.libs:
            for lib in self.libs:
                base = self.path / (lib.src_dir or self.src_dir)
                for root in lib.roots or (lib.name,):
                    rel = Path(*root.split("."))
                    file = base / rel.with_suffix(".lean")
                    if file.is_file():
                        found.setdefault(file, module_name(file, base))
                    folder = base / rel
                    if folder.is_dir():
                        for sub in _lean_files(folder):
                            found.setdefault(sub, module_name(sub, base))
        else:
            base = self.path / self.src_dir
            for sub in _lean_files(base):
                if sub.name == "lakefile.lean" and sub.parent == self.path:
                    continue
                found.setdefault(sub, module_name(sub, base))
        return sorted((SourceFile(p, m) for p, m in found.items()), key=lambda s: s.module)


def module_name(file: Path, src_dir: Path) -> str:
    """The module name of ``file`` under ``src_dir``: ``lean/Mirror/R.lean`` → ``Mirror.R``."""
    rel = Path(file).relative_to(src_dir).with_suffix("")
    return ".".join(rel.parts)


def _lean_files(folder: Path) -> list[Path]:
    # a walk that ends: symlink loops followed at most once (bridge.fileio.source_files)
    return source_files(folder, ".lean", _SKIPPED_DIRS) if folder.is_dir() else []


def read_project(path: str | Path) -> LakeProject:
    """Read the Lake project at ``path``; raises :class:`ProjectError` when it is missing/malformed."""
    if not isinstance(path, (str, Path)):
        raise ProjectError(f"read_project: path must be a str or Path, got {type(path).__name__}")
    root = Path(path).expanduser()
    if not root.is_dir():
        raise ProjectError(
            f"project path {str(root)!r}: expected a directory containing lakefile.toml or "
            "lakefile.lean, but it does not exist or is not a directory"
        )
    toml_file, lean_file = root / "lakefile.toml", root / "lakefile.lean"
    if toml_file.is_file():
        project = _read_lakefile_toml(root, toml_file)
    elif lean_file.is_file():
        project = _read_lakefile_lean(root, lean_file)
    else:
        raise ProjectError(
            f"project path {str(root)!r}: expected lakefile.toml or lakefile.lean, found neither"
        )
    project.toolchain = read_toolchain(root)
    project.manifest = read_manifest(root / "lake-manifest.json")
    return project


def as_project(project: str | Path | LakeProject) -> LakeProject:
    """``project`` itself when it was read already, else the Lake project read at that path:
    a command reads its project once and passes the :class:`LakeProject` on."""
    return project if isinstance(project, LakeProject) else read_project(project)


def read_toolchain(root: Path) -> str | None:
    """The contents of ``lean-toolchain`` (stripped), or ``None`` when there is none."""
    file = Path(root) / "lean-toolchain"
    if not file.is_file():
        return None
    try:
        text = file.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ProjectError(f"{file}: expected a UTF-8 text file naming a toolchain ({exc})") from None
    if not text or "\n" in text:
        raise ProjectError(
            f"{file}: expected one line such as 'leanprover/lean4:v4.9.0', got {text!r}"
        )
    return text


def read_manifest(file: Path) -> Manifest | None:
    """Read ``lake-manifest.json``; ``None`` when the file does not exist."""
    file = Path(file)
    if not file.is_file():
        return None
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProjectError(f"{file}: expected a JSON lake manifest ({exc})") from None
    if not isinstance(data, dict):
        raise ProjectError(f"{file}: expected a JSON object, got {type(data).__name__}")
    version = data.get("version")
    if isinstance(version, bool) or version not in MANIFEST_VERSIONS:
        raise ProjectError(
            f"{file}: manifest version {version!r} is not supported; expected one of "
            f"{', '.join(repr(v) for v in MANIFEST_VERSIONS)}"
        )
    raw_packages = data.get("packages", [])
    if not isinstance(raw_packages, list):
        raise ProjectError(f"{file}: 'packages' must be a list, got {type(raw_packages).__name__}")
    packages = tuple(_manifest_package(file, i, entry) for i, entry in enumerate(raw_packages))
    name = data.get("name")
    return Manifest(version=version, packages=packages, name=name if isinstance(name, str) else None)


def _manifest_package(file: Path, index: int, entry: Any) -> ManifestPackage:
    if not isinstance(entry, dict):
        raise ProjectError(f"{file}: packages[{index}] must be an object, got {type(entry).__name__}")
    kind = entry.get("type", "git")
    # version 5 wraps each package as {"git": {...}} or {"path": {...}}
    if len(entry) == 1 and next(iter(entry)) in ("git", "path") and isinstance(next(iter(entry.values())), dict):
        kind = next(iter(entry))
        entry = next(iter(entry.values()))
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        raise ProjectError(f"{file}: packages[{index}] has no string 'name' (got {name!r})")

    def text(key: str) -> str | None:
        value = entry.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise ProjectError(
                f"{file}: packages[{index}] ({name}) field {key!r} must be a string, got {value!r}"
            )
        return value

    input_rev = text("inputRev") if "inputRev" in entry else text("inputRev?")
    return ManifestPackage(
        name=name,
        type=str(kind),
        url=text("url"),
        rev=text("rev"),
        input_rev=input_rev,
        scope=text("scope"),
        sub_dir=text("subDir") if "subDir" in entry else text("subDir?"),
        inherited=bool(entry.get("inherited", False)),
        path=text("dir"),
    )


def _read_lakefile_toml(root: Path, file: Path) -> LakeProject:
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ProjectError(f"{file}: expected a valid TOML lakefile ({exc})") from None
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ProjectError(f"{file}: expected a top-level string 'name', got {name!r}")
    src_dir = data.get("srcDir", ".")
    if not isinstance(src_dir, str):
        raise ProjectError(f"{file}: 'srcDir' must be a string, got {src_dir!r}")
    libs = []
    for i, lib in enumerate(_table_list(file, data, "lean_lib")):
        lib_name = lib.get("name")
        if not isinstance(lib_name, str):
            raise ProjectError(f"{file}: lean_lib[{i}] needs a string 'name', got {lib_name!r}")
        roots = lib.get("roots", [lib_name])
        if isinstance(roots, str):
            roots = [roots]
        if not isinstance(roots, list) or not all(isinstance(r, str) for r in roots):
            raise ProjectError(f"{file}: lean_lib {lib_name!r} 'roots' must be a list of strings")
        lib_src = lib.get("srcDir")
        libs.append(LeanLib(lib_name, tuple(roots), lib_src if isinstance(lib_src, str) else None))
    exes = [str(e.get("name")) for e in _table_list(file, data, "lean_exe") if e.get("name")]
    requires = []
    for i, req in enumerate(_table_list(file, data, "require")):
        req_name = req.get("name")
        if not isinstance(req_name, str):
            raise ProjectError(f"{file}: require[{i}] needs a string 'name', got {req_name!r}")
        requires.append(
            Requirement(
                req_name,
                git=_opt_str(req.get("git")),
                rev=_opt_str(req.get("rev")),
                scope=_opt_str(req.get("scope")),
                path=_opt_str(req.get("path")),
            )
        )
    return LakeProject(root, name, file, src_dir, libs, exes, requires)


def _opt_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _table_list(file: Path, data: dict, key: str) -> list[dict]:
    value = data.get(key, [])
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ProjectError(f"{file}: '{key}' must be an array of tables")
    return value


# -- lakefile.lean ---------------------------------------------------------------------


def _read_lakefile_lean(root: Path, file: Path) -> LakeProject:
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ProjectError(f"{file}: expected a UTF-8 lakefile ({exc})") from None
    tokens = [t for t in tokenize(text) if t.kind not in ("doc", "moddoc")]
    name: str | None = None
    src_dir = "."
    libs: list[LeanLib] = []
    exes: list[str] = []
    requires: list[Requirement] = []
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        if tok.kind == "ident" and tok.text in ("package", "lean_lib", "lean_exe") and tok.newline_before:
            if i + 1 >= n or tokens[i + 1].kind != "ident":
                raise ProjectError(
                    f"{file}:{tok.line}:{tok.column}: expected a name after {tok.text!r}"
                )
            target = ".".join(tokens[i + 1].parts)
            j = _block_end(tokens, i + 2)
            fields = _config_fields(tokens[i + 2 : j])
            if tok.text == "package":
                name = target
                if isinstance(fields.get("srcDir"), str):
                    src_dir = fields["srcDir"]
            elif tok.text == "lean_lib":
                roots = fields.get("roots")
                roots_t = tuple(roots) if isinstance(roots, list) else (target,)
                lib_src = fields.get("srcDir")
                libs.append(LeanLib(target, roots_t, lib_src if isinstance(lib_src, str) else None))
            else:
                exes.append(target)
            i = j
            continue
        if tok.kind == "ident" and tok.text == "require" and tok.newline_before:
            j = _block_end(tokens, i + 1)
            requires.append(_requirement(tokens[i + 1 : j]))
            i = j
            continue
        i += 1
    if name is None:
        raise ProjectError(f"{file}: expected a 'package NAME' declaration, found none")
    return LakeProject(root, name, file, src_dir, libs, exes, requires)


def _block_end(tokens: list[Token], i: int) -> int:
    """The index of the next top-level command (a token at column 1 on a new line)."""
    depth = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.text in ("(", "[", "{", "#["):
            depth += 1
        elif tok.text in (")", "]", "}"):
            depth = max(0, depth - 1)
        elif depth == 0 and tok.newline_before and tok.column == 1:
            return i
        i += 1
    return i


def _config_fields(tokens: list[Token]) -> dict[str, Any]:
    """``field := value`` pairs of a ``where``/``{ }`` configuration (strings and name arrays)."""
    fields: dict[str, Any] = {}
    for k in range(len(tokens) - 2):
        if tokens[k].kind == "ident" and tokens[k + 1].text == ":=":
            key = tokens[k].text
            value_tok = tokens[k + 2]
            if value_tok.kind == "str":
                fields[key] = value_tok.value
            elif value_tok.text == "#" and k + 3 < len(tokens) and tokens[k + 3].text == "[":
                names: list[str] = []
                m = k + 4
                while m < len(tokens) and tokens[m].text != "]":
                    if tokens[m].kind == "ident":
                        names.append(".".join(tokens[m].parts))
                    m += 1
                fields[key] = names
    return fields


def _requirement(tokens: list[Token]) -> Requirement:
    """``require NAME from git "url" @ "rev"`` or ``require "scope" / "name" @ git "rev"``."""
    strings = [t for t in tokens]
    name: str | None = None
    scope: str | None = None
    git: str | None = None
    rev: str | None = None
    path: str | None = None
    k = 0
    if strings and strings[0].kind == "str":
        if len(strings) > 2 and strings[1].text == "/" and strings[2].kind == "str":
            scope, name = str(strings[0].value), str(strings[2].value)
            k = 3
        else:
            name = str(strings[0].value)
            k = 1
    elif strings and strings[0].kind == "ident":
        name = ".".join(strings[0].parts)
        k = 1
    while k < len(strings):
        tok = strings[k]
        nxt = strings[k + 1] if k + 1 < len(strings) else None
        if tok.text == "git" and nxt is not None and nxt.kind == "str":
            git = str(nxt.value)
        elif tok.text == "@" and nxt is not None:
            if nxt.kind == "str":
                rev = str(nxt.value)
            elif nxt.text == "git" and k + 2 < len(strings) and strings[k + 2].kind == "str":
                rev = str(strings[k + 2].value)
        elif tok.text == "from" and nxt is not None and nxt.kind == "str":
            path = str(nxt.value)
        k += 1
    return Requirement(name or "?", git=git, rev=rev, scope=scope, path=path)
