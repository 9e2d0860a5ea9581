"""NumPy implementations mirrored against the Lean statements.

Part of the bundled project (above the pipeline): may import every stage and the rest of
``mirror.bundled``; no generic module imports it.
"""
