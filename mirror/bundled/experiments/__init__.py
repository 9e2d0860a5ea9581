"""Experiments: end-to-end runs that train models and write results.json plus PNG plots.

Each experiment module exposes ``run(out_dir, ...) -> dict``; the CLI wires
``leanmirror experiment <name>`` to it. Experiments need the ``experiment`` extra
(torch, scikit-learn, matplotlib) and import it lazily.
"""
