"""The conformance checker's rules over ℂ (certificate version 4: a kernel returning complex
values; :mod:`mirror.judge.checker_kernel` for the real rules and the format).

A complex output entry is ``{"re": …, "im": …}`` (each lane an exact rational, ``"nan"``,
``"inf"`` or ``"-inf"``); Lean's entry is enclosed by the checker as a box ``[re] × [im]``
(a real entry is the box with ``im = [0, 0]``). The judge's rules (:mod:`mirror.judge.ulps`),
decided for every point of the box, in exact rationals (a modulus bounded by exact square
roots rounded down or up as the direction requires):

- a NaN lane is a failure; an infinite lane is the correct rounding only where Lean's lane
  lies beyond the dtype's largest finite number with the same sign (decided by the box), a
  failure where it is decided within the range. Such lanes are then dropped from both sides
  and the rest is measured in ulps of the largest finite number;
- an all-finite output is judged only where every Lean entry's modulus is decided within the
  range; then some entry's distance ``|y − v|`` (the modulus of the complex error) must exceed
  ``ulps · ulp(|v|) + k · S`` (``rtol``: ``ulp(|v|) + rtol · |v| + k · S``), ``ulp`` at the
  box's greatest modulus (normwise: Lean's greatest entry), ``S`` the input sensitivity's upper
  bound (the judge's four perturbations, each enclosed);
- with ``atol`` some entry's distance must exceed it too. A budget naming a reference is not
  certified over ℂ (the certificate is rejected).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable

from mirror.judge.checker_values import CheckerError

#: Bits of the square roots' rational bounds.
_ROOT_BITS = 96


def _root(q: Fraction, up: bool) -> Fraction:
    """A rational bound of ``√q`` (``q ≥ 0``): from above with ``up``, else from below."""
    scale = 1 << (2 * _ROOT_BITS)
    scaled = q * scale
    whole = math.isqrt(math.ceil(scaled) if up else math.floor(scaled))
    if up and whole * whole < scaled:
        whole += 1
    return Fraction(whole, 1 << _ROOT_BITS)


def _lane_distance(y: Fraction, low: Fraction, high: Fraction) -> Fraction:
    return Fraction(0) if low <= y <= high else min(abs(y - low), abs(y - high))


def _lane_farthest(y: Fraction, low: Fraction, high: Fraction) -> Fraction:
    return max(abs(y - low), abs(y - high))


def _box(enclosure: tuple) -> tuple:
    """A Lean entry's enclosure as a box (a real interval has ``im = [0, 0]``)."""
    if isinstance(enclosure[0], tuple):
        return enclosure
    return enclosure, (Fraction(0), Fraction(0))


def _pair(y: Any) -> tuple:
    return y if isinstance(y, tuple) else (y, Fraction(0))


def distance(y: tuple, box: tuple) -> tuple[Fraction, Fraction]:
    """Lower and upper bounds of ``|y − v|`` over the box."""
    near = sum(_lane_distance(a, *lane) ** 2 for a, lane in zip(y, box))
    far = sum(_lane_farthest(a, *lane) ** 2 for a, lane in zip(y, box))
    return _root(near, up=False), _root(far, up=True)


def modulus(box: tuple) -> tuple[Fraction, Fraction]:
    """Lower and upper bounds of ``|v|`` over the box."""
    return distance((Fraction(0), Fraction(0)), box)


def _drop_overflowed(y: tuple, box: tuple, top: Fraction, dtype: str):
    """``(y, box, overflowed, problem)``: infinite lanes that round Lean's lane correctly
    dropped (0 on both sides); ``problem`` ``(True, why)`` for a failing lane, ``(None, why)``
    for one the box does not decide."""
    lanes_y, lanes_box, overflowed = [], [], False
    for name, a, (low, high) in zip(("real", "imaginary"), y, box):
        if a == "nan":
            return y, box, False, (True, f"the {name} part is nan where Lean's value is a "
                                         "complex number")
        if a in ("inf", "-inf"):
            sign = 1 if a == "inf" else -1
            if (high <= top) if sign > 0 else (low >= -top):
                return y, box, False, (True, f"the {name} part is {a} where Lean's is within "
                                             f"the {dtype} range")
            if not ((low > top) if sign > 0 else (high < -top)):
                return y, box, False, (None, f"whether Lean's {name} part lies beyond the "
                                             f"{dtype} range")
            lanes_y.append(Fraction(0))
            lanes_box.append((Fraction(0), Fraction(0)))
            overflowed = True
        else:
            lanes_y.append(a)
            lanes_box.append((low, high))
    return tuple(lanes_y), tuple(lanes_box), overflowed, None


def complex_violation(dtype: str, output: list, budget: dict, lean: list, top: Fraction,
                      ulp: Callable, perturbed: Callable) -> tuple[bool | None, str]:
    """:func:`mirror.judge.checker_kernel.violation` over ℂ (see the module's docstring):
    ``top`` the dtype's largest finite number, ``ulp(magnitude, dtype)`` its spacing,
    ``perturbed()`` Lean's enclosures at the judge's perturbed draws."""
    if budget.get("reference") is not None:
        return False, "a budget against a reference is not certified for a complex kernel"
    entries = []
    for i, (y, enclosure) in enumerate(zip(output, lean)):
        y, box, overflowed, problem = _drop_overflowed(_pair(y), _box(enclosure), top, dtype)
        if problem is not None:
            return problem[0], f"entry {i}: {problem[1]}"
        entries.append((i, y, box, overflowed))
    if not any(overflowed for *_, overflowed in entries):
        moduli = [modulus(box) for _, _, box, _ in entries]
        if any(least > top for least, _ in moduli):
            return False, f"Lean's value is beyond the {dtype} range (the judge does not " \
                          "measure a finite output there)"
        if any(most > top for _, most in moduli):
            return None, f"whether Lean's value lies within the {dtype} range"
    atol = budget.get("atol")
    bounds = [distance(y, box) for _, y, box, _ in entries]
    if atol is not None:
        if all(far <= Fraction(atol) for _, far in bounds):
            return False, f"every entry is within atol {atol}"
        if not any(near > Fraction(atol) for near, _ in bounds):
            return None, f"whether an entry is beyond atol {atol}"
    normwise = budget["measure"] == "normwise"
    sizes = [top if overflowed else modulus(box)[1] for _, _, box, overflowed in entries]
    if normwise:
        sizes = [max(sizes, default=Fraction(0))] * len(sizes)
    plain = _beyond(entries, bounds, sizes, dtype, budget, [Fraction(0)] * len(entries), ulp)
    if not plain:
        return plain, "whether an entry is beyond the plain budget" if plain is None \
            else "every entry is within the budget"
    moved = _sensitivity(perturbed(), lean)
    if normwise:
        moved = [max(moved, default=Fraction(0))] * len(moved)
    beyond = _beyond(entries, bounds, sizes, dtype, budget, moved, ulp)
    if not beyond:
        return None if beyond is None else False, (
            "whether an entry is beyond the budget with its input sensitivity")
    i, near, allowed = beyond
    return True, (f"entry {i} is {float(near):.6g} from Lean's complex value (the modulus of "
                  f"the error), beyond the allowed {float(allowed):.6g}")


def _beyond(entries: list, bounds: list, sizes: list, dtype: str, budget: dict, moved: list,
            ulp) -> Any:
    """``(entry, distance, allowed)`` decided beyond; ``False`` all within; ``None``."""
    k = Fraction(budget["k"])
    undecided = False
    for (i, _, _, _), (near, far), size, shift in zip(entries, bounds, sizes, moved):
        unit = ulp(size, dtype)
        allowed = (Fraction(budget["ulps"]) * unit if budget.get("rtol") is None
                   else unit + Fraction(budget["rtol"]) * size) + k * shift
        if near > allowed:
            return i, near, allowed
        undecided = undecided or far > allowed
    return None if undecided else False


def _sensitivity(perturbed: list, lean: list) -> list:
    """Per entry, an upper bound of ``|v(perturbed) − v|`` over the judge's perturbations
    (``perturbed``: Lean's enclosures at each perturbed draw)."""
    moved = [Fraction(0)] * len(lean)
    for found in perturbed:
        if len(found) != len(lean):
            raise CheckerError("Lean's value at a perturbed input has another shape")
        for j, (a, b) in enumerate(zip(found, lean)):
            far = sum(max(abs(x[1] - y[0]), abs(y[1] - x[0])) ** 2
                      for x, y in zip(_box(a), _box(b)))
            moved[j] = max(moved[j], _root(far, up=True))
    return moved


__all__ = ["complex_violation", "distance", "modulus"]
