"""Stage 6, product: what a user runs.

Owns the command line (``cli``), the pipeline that checks a project's statements
(``pipeline``), replay of a saved example (``replay``), fuzz campaigns (``fuzz``), the
report and its rendering (``report``, ``rendering``, ``templates/``), the mirror generator
(``generator``, writing plans with ``mirror_source`` and repeated terms with
``shared_terms``) and the pytest plugin (``pytest_plugin``).

May import: every lower stage (``translate``, ``evaluate``, ``sample``, ``judge``, ``bind``)
and ``mirror.bundled`` only where a command belongs to the bundled demo.
"""
