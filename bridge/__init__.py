"""bridge: everything that reads Lean.

Toolchain driver, exporter reader, source scanner, Lean term parser and the statement lock.
The public nouns live here; the stages live in their own modules.

Stage 0, bridge: below the whole pipeline (``mirror.translate`` reads its AST). May import:
``bridge`` itself only. Never ``mirror``.
"""

from bridge.declaration import Binder, Declaration, Diagnostic, Extraction, SourceRange
from bridge.errors import LeanMirrorError

__all__ = ["Binder", "Declaration", "Diagnostic", "Extraction", "LeanMirrorError", "SourceRange"]
