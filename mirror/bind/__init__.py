"""Stage 5, bind: implementations for Lean definitions.

Owns the binding of one Lean definition to a Python callable (``binding``), the registry fed
by a project's configuration and the ``binds`` decorator (``registry``), the configuration
reader (``config``) and ``leanmirror init`` (``onboarding``).

May import: ``mirror.translate``, ``mirror.evaluate``, ``mirror.sample``, ``mirror.judge``.
Never ``product``, and never ``mirror.bundled``: the bundled project is bound through its
configuration like any other.
"""
