"""Tests of the NumPy Op Spec kernels."""
