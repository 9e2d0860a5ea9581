"""The bundled project: leanmirror's own Lean statements and the Python they mirror.

The repository root is a Lake project (``lakefile.toml``, sources in ``lean/``) and a user of
leanmirror like any other: its definitions are bound to implementations through its own
configuration (``[tool.leanmirror]`` in the root ``pyproject.toml``). Its domain code is

- ``mirror/bundled/impl`` — the NumPy kernels (resolvent operator, positional heads,
  fractional-power layer, the Op Specs in ``mirror/bundled/impl/ops``);
- ``mirror/bundled/adapters.py`` — the calls of those kernels whose signature differs from
  the Lean definition's;
- ``mirror/bundled/models`` — model specifications composed of Op Specs;
- ``mirror/bundled/experiments`` — experiments on the bundled layers;
- ``mirror/bundled/commands.py`` — its own subcommands (``leanmirror models``/``experiment``),
  an entry point of the ``leanmirror.commands`` group.

Stage: none — the bundled project sits above the pipeline, a user of it. May import every
stage (``bridge`` and ``mirror.translate`` … ``mirror.product``); no generic module imports it
(``tests/test_layout.py``), and nothing else in ``mirror`` names its constants.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: The bundled Lake project (the repository root).
ROOT = Path(__file__).resolve().parents[2]


def bundled_registry():
    """The bundled project's registry, resolved against its scanned declarations."""
    from mirror.bind.registry import registry_at

    return registry_at(ROOT)


def bundled_bindings() -> dict:
    """Lean name → :class:`~mirror.bind.binding.Binding` of the bundled project."""
    return bundled_registry().bindings


def op_bindings() -> tuple:
    """The bindings of the Op Specs with a Lean definition (``OP_SPECS`` entries)."""
    from mirror.bundled.impl.ops import OP_SPECS

    table = bundled_bindings()
    return tuple(table[s.lean_name] for s in OP_SPECS.values()
                 if s.lean_defined and s.lean_name in table)


def __getattr__(name: str) -> Any:
    if name == "BINDINGS":
        return bundled_bindings()
    if name == "OP_BINDINGS":
        return op_bindings()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ROOT", "bundled_bindings", "bundled_registry", "op_bindings"]
