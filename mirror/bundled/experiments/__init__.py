"""Experiments: end-to-end runs that train models and write results.json plus PNG plots.

Each experiment module exposes ``run(out_dir, ...) -> dict``; the CLI wires
``leanmirror experiment <name>`` to it. Experiments need the ``experiment`` extra
(torch, scikit-learn, matplotlib) and import it lazily.

Part of the bundled project (above the pipeline): may import every stage and the rest of
``mirror.bundled``; no generic module imports it.
"""
