"""Runtimes that generated properties call: batched float64 NumPy, and 50-digit mpmath.

The names generated code, the judge and the bindings import, in one place:

- :class:`~mirror.evaluate.numpy_runtime.NumpyRuntime`, the float64 fast filter (its arrays and
  reductions in :mod:`mirror.evaluate.reductions`, integrals and matrices in
  :mod:`mirror.evaluate.linear`);
- :class:`~mirror.evaluate.mp_runtime.MpRuntime`, the same operations in mpmath;
- :class:`~mirror.evaluate.truth.Truth`, what a proposition evaluates to: ``ok`` (with
  tolerance), ``exact`` (without), ``err`` (the largest relative deviation of an equation, or
  the violation of an inequality), ``sure`` and ``known`` (:mod:`mirror.evaluate.polarity`);
- :class:`~mirror.evaluate.batch.OutOfDomain` and the shared tables
  (:mod:`mirror.evaluate.batch`).

Overflow, ``0/0`` and the like are values here (junk branches pick the Lean value, and the
checks classify non-finite results), not errors: :func:`mirror.judge.checks.evaluate` runs a whole
property with NumPy's floating-point warnings off, once, instead of each operation.
"""

from __future__ import annotations

from mirror.evaluate.batch import (
    MAX_RANGE,
    UNARY_FUNCTIONS,
    OutOfDomain,
    _de_substitution,
    install_unary,
)
from mirror.evaluate.mp_runtime import MpRuntime
from mirror.evaluate.numpy_runtime import NumpyRuntime
from mirror.evaluate.truth import Truth

__all__ = ["MAX_RANGE", "MpRuntime", "NumpyRuntime", "OutOfDomain", "Truth", "UNARY_FUNCTIONS",
           "_de_substitution", "install_unary"]
