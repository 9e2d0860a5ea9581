"""Model specs as data (``*.json`` beside this file) and their composition from Op Spec kernels.

``spec`` loads :class:`ModelSpec` and computes per-node statuses; ``compose`` runs a NumPy
forward pass of a model family from a state dict, choosing each node's kernel by the Op
Spec its model spec names.

Part of the bundled project (above the pipeline): may import every stage and the rest of
``mirror.bundled``; no generic module imports it.
"""
