"""Stage 4, judge: from evaluated draws to verdicts.

Owns the exact decision of a draw (``exact``), the property checks and their tallies
(``checks``), time guards (``guard``), the per-statement result record (``result``) and the
files a check keeps (``fileio``: the example database, append-only logs).

May import: ``mirror.translate``, ``mirror.evaluate``, ``mirror.sample``. Never ``bind`` or
``product``.
"""
