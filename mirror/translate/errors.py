"""The translator's refusal: a construct it does not handle, said with the reason.

Kept apart from :mod:`mirror.translate.values` so that the lowest modules of the package
(:mod:`mirror.translate.types`) can refuse too.
"""

from __future__ import annotations

from bridge.errors import LeanMirrorError


class Untranslatable(LeanMirrorError, NotImplementedError):
    """A construct the translator does not handle. ``construct`` names it."""

    def __init__(self, construct: str, detail: str = "", verb: str = "translate") -> None:
        self.construct = construct
        message = f"cannot {verb} {construct}"
        if detail:
            message += f": {detail}"
        super().__init__(message)


__all__ = ["Untranslatable"]
