"""Onboarding: the starting ``[tool.leanmirror]`` section of a project (``leanmirror init``).

:func:`init_section` lists every definition of the project that has a body, with its explicit
parameters and the Python call the default calling convention would make, each as a
commented binding line the user uncomments and points at their function.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from bridge.declaration import Extraction
from bridge.errors import InvalidArgument

_HEADER = """\
# leanmirror: bind Lean definitions to your implementations (README: "Mirror your own
# project"). Uncomment a binding and point it at "package.module:function"; the function
# takes the definition's explicit arguments in Lean's order (ℝ float, ℕ/ℤ int, ℂ complex,
# Bool/Prop bool, ℕ → ℝ the sampled prefix as a 1-D float64 array, Fin n → ℝ an array of
# length n, Fin n → Fin m → ℝ and Matrix 2-D arrays). Table form for the rest:
#   { impl = "pkg.mod:fn", index = ["i"] }      trailing Lean args that select an output entry
#   { impl = "pkg.mod:fn", dims = ["n"] }       size args implied by the arrays (not passed)
#   { impl = "pkg.mod:fn", vectorized = true }  takes a leading batch axis, one call per batch
#   { impl = "pkg.mod:fn", domain = { tau = "> 0" } }   the function's documented domain
#   { impl = "pkg.mod:fn", adapter = "pkg.mod:adapter" } adapter(impl, args, dims) -> value
# Check what loads with `leanmirror bindings`.
[tool.leanmirror]
python-path = ["."]        # directories added to sys.path, relative to this file
# modules = ["yourpkg.ops"]  # modules whose @binds(...) functions are bindings too

[tool.leanmirror.bindings]
"""


def _comment(text: str) -> str:
    """``text`` safe inside a ``#`` comment: no line break or other control character can end
    the comment and turn the rest into live TOML (Lean names may hold any character in «»)."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in str(text))


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string (quotes, backslashes and control characters escaped)."""
    out = []
    for ch in str(text):
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif not ch.isprintable():
            out.append(f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def init_section(extraction: Extraction) -> str:
    """The commented ``[tool.leanmirror]`` section for the project ``extraction`` came from."""
    from mirror.bind.registry import lean_signature

    declarations = extraction.by_name()
    lines = [_HEADER]
    for decl in extraction.declarations:
        if decl.kind not in ("def", "abbrev") or (decl.value is None and not decl.equations):
            continue
        try:
            signature = lean_signature(decl, declarations)
        except Exception:  # noqa: BLE001 - a starting point: the line stays, without types
            signature = None
        where = f"{decl.module}" + (f", {decl.range}" if decl.range is not None else "")
        if signature is None:
            lines.append(_comment(f"# {decl.name}  ({where})"))
        else:
            params = ", ".join(f"{p.name} : {p.lean_type}" for p in signature.params
                               if p.kind != "proof") or "no explicit parameters"
            result = f" : {signature.result}" if signature.result is not None else ""
            lines.append(_comment(f"# {decl.name} ({params}){result}  ({where})"))
            call = ", ".join(p.describe() for p in signature.params if p.kind != "proof")
            lines.append(_comment(f"#   called as function({call})"))
        short = "".join(ch if ch.isidentifier() or ch.isdigit() else "_"
                        for ch in decl.name.rsplit(".", 1)[-1]) or "function"
        lines.append(_comment(f"# {_toml_string(decl.name)} = \"yourpkg.module:{short}\""))
    return "\n".join(lines) + "\n"


def write_init(project: Path, extraction: Extraction) -> Path:
    """Append the section to the project's ``pyproject.toml`` (created when missing)."""
    path = Path(project) / "pyproject.toml"
    existing = path.read_text(encoding="utf-8") if path.is_file() else ""
    try:
        parsed = tomllib.loads(existing)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidArgument(f"{path}: not valid TOML ({exc}); fix it before "
                              "`leanmirror init`") from None
    if "leanmirror" in parsed.get("tool", {}) or (Path(project) / "leanmirror.toml").is_file():
        raise InvalidArgument(f"{path}: the project already has a [tool.leanmirror] "
                              "configuration; edit it, or check it with `leanmirror bindings`")
    section = init_section(extraction)
    text = (existing.rstrip("\n") + "\n\n" if existing.strip() else "") + section
    written = tomllib.loads(text).get("tool", {}).get("leanmirror", {})
    if written != {"python-path": ["."], "bindings": {}}:  # only comments may be added
        raise InvalidArgument(f"{path}: `leanmirror init` would add live settings "
                              f"{sorted(written)}; this is a leanmirror bug, report it")
    path.write_text(text, encoding="utf-8")
    return path


__all__ = ["init_section", "write_init"]
