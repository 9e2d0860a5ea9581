"""The independent checker's bound calls: a theorem refuted because a bound kernel is wrong
(certificate version 4, kind ``"kernel-output"``; :mod:`mirror.judge.certificate`;
:func:`mirror.judge.checker_kernel_output.check_kernel_output` checks the certificate).

The row says: at this draw the kernel returned ``y`` (an *observation*: the checker never runs
user code; ``leanmirror check NAME --certificate FILE --run-kernel`` calls the kernels again and
confirms every recorded output), the statement about the implementation fails there, and
Lean's own definition satisfies it. The checker verifies, from the statement's sympy form:

- every bound call the statement evaluates at the draw is one the certificate observed — its
  arguments, evaluated by the checker, are *exactly* the recorded ones (a call whose
  arguments are not exact numbers equal to the recorded inputs is undecided) — and takes the
  recorded output as its value;
- every hypothesis is decided true with the outputs as recorded;
- the conclusion is decided false with every output moved anywhere within the float
  tolerance (each entry ``y`` replaced by the ball ``y ± tolerance · max(1, |y|)``): the
  violation is not a matter of rounding the output (the search's "beyond the float
  tolerance");
- with ``lean.decision`` ``"true"``: the statement over Lean's unfolded definitions, at the
  same draw, has its conclusion decided true (the kernel, not the statement, is wrong).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp
from flint import arb, fmpq

from mirror.judge.checker_values import CheckerError, Undecided

#: The environment's keys: the observed calls, and the radius factor applied to outputs.
OBSERVED_KEY, WIDEN_KEY = "observed", "widen"
#: The float tolerance the search judges a kernel's statement by, 1e-9 as an exact decimal
#: rational (the certificate states it; the checker requires this one).
TOLERANCE = "1/1000000000"


def _exact(text: Any, what: str) -> Any:
    """A recorded value: an exact rational (``fmpq``/``int``), or nested tuples of them."""
    if isinstance(text, list):
        return tuple(_exact(item, what) for item in text)
    if not isinstance(text, str):
        raise CheckerError(f"{what}: {text!r} is not an exact number as a string")
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise CheckerError(f"{what}: {text!r} is not an integer or p/q (a finite output; "
                           "ℝ has no NaN or ∞)") from None
    return int(value) if value.denominator == 1 else fmpq(value.numerator, value.denominator)


def parse_observations(stated: Any) -> list[tuple[str, tuple, Any]]:
    """``[(call, arguments, output)]`` from the certificate's ``observations``."""
    if not isinstance(stated, list) or not stated:
        raise CheckerError("a kernel-output certificate records no observation")
    out = []
    for i, entry in enumerate(stated):
        if not isinstance(entry, dict) or not isinstance(entry.get("call"), str) \
                or not isinstance(entry.get("arguments"), list):
            raise CheckerError(f"observation {i}: expected {{call, arguments, output}}")
        out.append((entry["call"], _exact(entry["arguments"], f"observation {i}"),
                    _exact(entry.get("output"), f"observation {i}")))
    return out


def _same(a: Any, b: Any) -> bool:
    """Two evaluated values are the same exact number or array (a ball never is)."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) \
            and all(_same(x, y) for x, y in zip(a, b))
    if not (isinstance(a, (int, fmpq)) and isinstance(b, (int, fmpq))):
        return False
    return fmpq(a) == fmpq(b)


def _widened(value: Any, factor: Fraction) -> Any:
    if isinstance(value, tuple):
        return tuple(_widened(v, factor) for v in value)
    if factor == 0:
        return value
    exact = Fraction(int(fmpq(value).p), int(fmpq(value).q))
    radius = factor * max(Fraction(1), abs(exact))
    return arb(fmpq(exact.numerator, exact.denominator),
               fmpq(radius.numerator, radius.denominator))


def observed_call(expr: sp.Basic, env: dict, number) -> Any:
    """A bound call's value: the recorded output of the observation with its name and exactly
    its arguments (``number``: the checker's evaluator)."""
    observations = env.get(OBSERVED_KEY)
    if observations is None:
        raise CheckerError(f"the checker does not run kernels ({expr.args[0]}): a bound call "
                           "is evaluated only from a kernel-output certificate's observations")
    name = str(expr.args[0])
    arguments = tuple(number(a, env) for a in expr.args[2:])
    for call, recorded, output in observations:
        if call == name and _same(arguments, recorded):
            return _widened(output, env.get(WIDEN_KEY, Fraction(0)))
    raise Undecided(f"no observation of {name} at the arguments the statement evaluates")


__all__ = ["OBSERVED_KEY", "TOLERANCE", "WIDEN_KEY", "observed_call", "parse_observations"]
