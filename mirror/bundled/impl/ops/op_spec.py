"""An Op Spec entry: its Lean name, NumPy kernel and description (the table is
``mirror.bundled.impl.ops.OP_SPECS``).

The Lean definitions live in namespace ``Mirror.Ops`` (``lean/Mirror/Ops/``); an entry with
``lean_defined=False`` has no Lean definition in spec 1.0 (``slidingDecodeGQA``), so any
statement about its kernel is UNKNOWN on the Lean side.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

#: The Lean namespace the Op Spec definitions live in.
LEAN_NAMESPACE = "Mirror.Ops"


@dataclass(frozen=True)
class OpSpec:
    """One Op Spec: its Lean name, the NumPy kernel bound to it and what it computes."""

    name: str
    kernel: Callable
    description: str
    #: Argument order of the kernel (Lean order where the spec gives the definition).
    signature: str
    #: False when spec 1.0 gives the Op Spec no Lean definition (its status is UNKNOWN).
    lean_defined: bool = True

    @property
    def lean_name(self) -> str:
        """The fully qualified Lean constant, or the bare label when none is defined."""
        return f"{LEAN_NAMESPACE}.{self.name}" if self.lean_defined else self.name
