"""Stage 3, sample: where examples come from.

Owns the sampling plan of a statement (``plan``), the constraints read from its hypotheses
(``constraints``), value ranges (``ranges``) and the Hypothesis strategies (``strategies``).

May import: ``mirror.translate`` and ``mirror.evaluate``. Never ``judge``, ``bind`` or
``product``.
"""
