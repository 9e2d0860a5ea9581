"""Stage 2, evaluate: the runtimes that execute a translated statement.

Owns the float runtime (``runtime``, NumPy, a fast filter), the exact/high-precision runtime
(``mp_runtime``), three-valued truth (``truth``), the junk-value functions in their NumPy and
exact forms (``functions``), the evaluation of recursive definitions (``recursion``) and the
helpers generated mirrors call to state their binders and plans (``generated``).

May import: ``mirror.translate`` (types and vocabulary helpers). Never ``sample``, ``judge``,
``bind`` or ``product``.
"""
