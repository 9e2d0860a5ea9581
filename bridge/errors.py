"""The exception root of leanmirror.

Every error leanmirror raises on purpose derives from :class:`LeanMirrorError`, mixed with
the builtin that fits (as Hypothesis does with ``InvalidArgument(…, TypeError)``), so that a
caller may catch either. Messages name the argument, the value that came and what was
expected.
"""

from __future__ import annotations


class LeanMirrorError(Exception):
    """Root of every error leanmirror raises on purpose."""


class InvalidArgument(LeanMirrorError, ValueError):
    """An argument has the wrong type, shape or value."""


class ProjectError(LeanMirrorError, ValueError):
    """A Lean/Lake project is missing or malformed (lakefile, manifest, toolchain file)."""


class ToolchainNotFound(LeanMirrorError, FileNotFoundError):
    """No Lean toolchain (lake/lean/elan) could be found on this machine."""


class ToolchainFailure(LeanMirrorError, RuntimeError):
    """A Lean toolchain program ran and failed, or timed out."""


class ExportFormatError(LeanMirrorError, ValueError):
    """Exporter JSON (or LeanDojo traces) is malformed or of an unsupported format version."""


class LockError(LeanMirrorError, ValueError):
    """The statement lock file is missing, unreadable or malformed."""


class LeanParseError(LeanMirrorError, ValueError):
    """Lean text that the statement parser cannot read; carries line, column and what was expected."""

    def __init__(self, message: str, line: int, column: int, expected: str | None = None,
                 construct: str | None = None):
        self.line = line
        self.column = column
        self.expected = expected
        self.reason = message
        #: The token or notation that stopped parsing (stable, for counting unknown notation).
        self.construct = construct
        tail = f"; expected {expected}" if expected else ""
        super().__init__(f"{line}:{column}: {message}{tail}")
