"""The Jinja environment over ``mirror/templates`` shared by the generated mirrors
(:mod:`mirror.product.generator`) and the report (:mod:`mirror.product.report`)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import jinja2

#: The templates of the generated modules and of the report.
TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"


def template_environment(autoescape: bool | Callable[[str | None], bool]) -> jinja2.Environment:
    """A strict environment over :data:`TEMPLATE_DIR` (an undefined name is an error, block
    tags leave no blank lines, a trailing newline is kept); ``autoescape`` as Jinja takes it."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
