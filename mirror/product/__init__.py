"""Stage 6, product: what a user runs.

Owns the command line (``cli``), the pipeline that checks a project's statements
(``pipeline``), replay of a saved example (``replay``), fuzz campaigns (``fuzz``), the
report and its rendering (``report``, ``rendering``, ``templates/``), the mirror generator
(``generator``, writing plans with ``mirror_source`` and repeated terms with
``shared_terms``) and the pytest plugin (``pytest_plugin``).

May import: every lower stage (``translate``, ``evaluate``, ``sample``, ``judge``, ``bind``).
Never ``mirror.bundled``: the bundled demo's own commands (``models``, ``experiment``) reach
the command line through the ``leanmirror.commands`` entry-point group.
"""
