"""mirror: everything that runs Python, one package per stage of the pipeline.

``translate`` (Lean AST → sympy → NumPy source) → ``evaluate`` (the runtimes) → ``sample``
(plans and strategies) → ``judge`` (decisions and verdicts) → ``bind`` (implementations of
Lean definitions) → ``product`` (CLI, pipeline, report, generator, fuzz, pytest plugin).
A stage imports only the stages before it. ``bundled`` is leanmirror's own Lean project's
Python, bound through its configuration like any user's.

Public names: ``binds`` (the decorator that binds a Python function to a Lean definition).
This package is a facade, in no stage of its own: it may import the stages' public names
(lazily, on first use), never ``mirror.bundled``; a module importing it ranks as high as the
stages it re-exports (``tests/test_layout.py``).
"""

__version__ = "0.1.0"

__all__ = ["binds", "__version__"]


def __getattr__(name: str):
    """Public names, imported on first use (importing ``mirror`` loads no stage)."""
    if name == "binds":
        from mirror.bind.registry import binds

        return binds
    raise AttributeError(f"module 'mirror' has no attribute {name!r}")
