"""The example project's NumPy kernels (one of them deliberately wrong)."""
