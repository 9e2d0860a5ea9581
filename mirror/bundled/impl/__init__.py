"""NumPy implementations mirrored against the Lean statements."""
