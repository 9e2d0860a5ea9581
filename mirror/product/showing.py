"""``leanmirror show``'s text: a declaration's statement, sympy form and generated source."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bridge.errors import InvalidArgument


def show_mirrors(project: str | Path, name: str, mirrors: list[Any]) -> str:
    """The statement, its sympy form and the generated NumPy source of the mirrors named
    ``name`` among ``mirrors``."""
    mirrors = list(mirrors) + [i for m in mirrors for i in m.instances]
    matches = [m for m in mirrors if m.name == name or m.name.endswith("." + name)]
    if not matches:
        raise InvalidArgument(
            f"show: no theorem or bound definition named {name!r} in {project}; "
            f"try one of: {', '.join(sorted(m.name for m in mirrors)[:8])} …"
        )
    return "\n".join(line for mirror in matches for line in _shown(mirror))


def _shown(mirror: Any) -> list[str]:
    decl = mirror.declaration
    parts = [f"# {mirror.name}  ({decl.module}, {decl.range})",
             f"lean status:   {decl.lean_status}",
             f"mirror status: {mirror.status}" + (f" — {mirror.reason}" if mirror.reason else "")]
    if mirror.instances:
        parts.append("carriers:      " + "; ".join(m.carrier or "" for m in mirror.instances))
    parts += ["", "Lean:", "    " + (decl.statement_text or decl.name).replace("\n", "\n    ")]
    if mirror.sympy_text:
        parts += ["", "sympy:", "    " + mirror.sympy_text]
    if mirror.bound_to:
        parts += ["", "bound to: " + ", ".join(mirror.table[n].implementation
                                               for n in mirror.bound_to)]
    if mirror.source:
        parts += ["", "NumPy property:", mirror.source.rstrip()]
    parts.append("")
    return parts


__all__ = ["show_mirrors"]
