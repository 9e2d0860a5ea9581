"""mirror: everything that runs Python.

Translation of Lean statements to sympy, NumPy code generation, Hypothesis strategies,
property checks, the NumPy implementations, the mirror generator, the report and the CLI.
"""

__version__ = "0.1.0"
