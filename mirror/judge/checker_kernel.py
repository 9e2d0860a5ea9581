"""The independent checker of a conformance certificate: "the kernel returned ``y`` at ``x``,
beyond its accuracy budget against Lean's definition" (certificate version 3, kind
``"conformance"``; :mod:`mirror.judge.certificate`).

The kernel's output is an *observation* the search recorded: the checker never runs user
code (``leanmirror check NAME --certificate FILE --run-kernel`` re-runs it through the binding
to confirm it). Everything else it verifies by itself:

- the draw is exact and representable in the certificate's dtype, inside the binding's
  domain; the budget is the binding's (the caller passes what the configuration says);
- Lean's value is the conformance equation's side without the bound call (the definition's
  body, unfolded by the translation), evaluated at the exact draw by the checker's own
  evaluator (:func:`mirror.judge.checker.number`) at 128 → 8192 bits: an enclosure per entry;
- the output violates the budget for *every* point of those enclosures, by the judge's rules
  (:mod:`mirror.judge.accuracy`), all in exact rationals:

  * NaN where Lean's value is a real number is a failure; ``±∞`` is exact only where Lean's
    value lies beyond the dtype's largest finite number with the same sign, a failure where
    it is decided within the range;
  * an all-finite output is judged only where every entry of Lean's value is decided within
    the range; then some entry's distance to its enclosure must exceed
    ``ulps · ulp(v) + k · S`` (``rtol``: ``ulp(v) + rtol · |v| + k · S``), with ``ulp``
    at the enclosure's largest magnitude (normwise: at Lean's largest entry, ``S`` the
    largest over the entries) and ``S`` an upper bound of the input sensitivity — Lean's
    value moved, at the four perturbations the judge makes (every real input times ``1 ± ulps
    · eps`` by the patterns all up, alternating, away from 0, towards 0; normwise plus ``±
    ulps · eps · max |entry|``), each enclosed by the checker;
  * with ``atol`` some entry's distance must also exceed it; with a ``reference`` (its
    output also observed, and required) the kernel's error in ulps must exceed ``k`` times
    the reference's.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp
from flint import acb, ctx

from mirror.judge.checker_complex import complex_violation
from mirror.judge.checker_values import CheckerError, Undecided
from mirror.translate import matrices, vocabulary

#: ``dtype → (significand bits with the implicit one, least normal exponent, greatest
#: exponent)`` of the IEEE formats (bfloat16: float32's exponents, 8 bits).
FORMATS = {"float64": (53, -1022, 1023), "float32": (24, -126, 127),
           "float16": (11, -14, 15), "bfloat16": (8, -126, 127)}
#: Non-finite outputs as the certificate writes them.
NONFINITE = ("nan", "inf", "-inf")
#: Real kinds of drawn values the judge perturbs.
_REAL_KINDS = ("Real", "Rat", "NNReal")
#: The judge's perturbation patterns (its ``Meter.sensitivity``), on a flat list of floats.
_PATTERNS = (lambda a: [1.0] * len(a), lambda a: [(-1.0) ** i for i in range(len(a))],
             lambda a: [float((v > 0) - (v < 0)) for v in a],
             lambda a: [-float((v > 0) - (v < 0)) for v in a])


def _format(dtype: str) -> tuple[int, int, int]:
    if dtype not in FORMATS:
        raise CheckerError(f"dtype {dtype!r} is not one of {', '.join(FORMATS)}")
    return FORMATS[dtype]


def largest(dtype: str) -> Fraction:
    """The dtype's largest finite number."""
    digits, _, top = _format(dtype)
    return (2 - Fraction(1, 1 << (digits - 1))) * Fraction(2) ** top


def _floor_log2(value: Fraction) -> int:
    exponent = value.numerator.bit_length() - value.denominator.bit_length()
    if Fraction(2) ** exponent > value:
        exponent -= 1
    return exponent


def ulp(magnitude: Fraction, dtype: str) -> Fraction:
    """The dtype's spacing at ``|magnitude|`` (the judge's :func:`mirror.judge.ulps.ulp`,
    exactly: the exponent clamped to the normal range, the subnormal spacing at 0)."""
    digits, low, top = _format(dtype)
    exponent = low if magnitude == 0 else min(max(_floor_log2(abs(magnitude)), low), top)
    return Fraction(2) ** (exponent - digits + 1)


def representable(value: Fraction, dtype: str) -> bool:
    """Whether ``value`` is a finite number of ``dtype``."""
    if value == 0:
        return True
    digits, low, _ = _format(dtype)
    if abs(value) > largest(dtype):
        return False
    quantum = ulp(value, dtype)
    return (value / quantum).denominator == 1 and quantum >= Fraction(2) ** (low - digits + 1)


def parse_output(values: Any, what: str) -> list[Fraction | str]:
    """A recorded output's entries: exact rationals, or ``"nan"``/``"inf"``/``"-inf"``."""
    if not isinstance(values, list) or not values:
        raise CheckerError(f"{what}: expected a non-empty list of entries")
    out: list[Any] = []
    for text in values:
        if isinstance(text, dict) and set(text) == {"re", "im"}:  # (version 4) a complex entry
            out.append(tuple(parse_output([text[lane]], what)[0] for lane in ("re", "im")))
            if any(isinstance(lane, tuple) for lane in out[-1]):
                raise CheckerError(f"{what}: a complex entry's lane is not a real number")
            continue
        if text in NONFINITE:
            out.append(text)
            continue
        if not isinstance(text, str):
            raise CheckerError(f"{what}: an entry {text!r} is not a string")
        try:
            out.append(Fraction(text))
        except (ValueError, ZeroDivisionError):
            raise CheckerError(f"{what}: {text!r} is not p/q, nan, inf or -inf") from None
    return out


# ---- Lean's side -------------------------------------------------------------------------------


def lean_side(statement: Any) -> sp.Basic:
    """The side of the conformance equation without the bound call (Lean's definition)."""
    conclusion = statement.conclusion
    if not isinstance(conclusion, (sp.Eq, matrices.ArrayEq)) or statement.hypotheses:
        raise CheckerError("not a conformance equation (impl args = definition args)")
    sides = [s for s in conclusion.args if not s.has(vocabulary.BoundCall)]
    if len(sides) != 1:
        raise CheckerError("a conformance equation needs the bound call on exactly one side")
    return sides[0]


def _flat(value) -> list:
    if isinstance(value, tuple):
        return [entry for item in value for entry in _flat(item)]
    return [value]


def enclosures(statement: Any, draw: dict) -> list[tuple[Fraction, Fraction]]:
    """Lean's value at ``draw``, entry by entry, as exact intervals at the working precision
    (:class:`Undecided` where the balls do not decide a guard)."""
    from mirror.judge.checker import _interval, environment, number

    value = number(lean_side(statement), environment(statement, draw))
    out = []
    for entry in _flat(value):
        if isinstance(entry, acb) and not entry.imag.is_zero():
            out.append((_interval(entry.real), _interval(entry.imag)))  # a complex box
        else:
            out.append(_interval(entry))
    return out


# ---- the draw ------------------------------------------------------------------------------------


def _real_names(statement: Any) -> set[str]:
    return {v.name for v in statement.variables
            if getattr(getattr(v, "ty", None), "codomain", None) is not None
            and v.ty.codomain().kind in _REAL_KINDS}


def _entries(value) -> list:
    return _flat(value) if isinstance(value, tuple) else [value]


def _check_draw(statement: Any, draw: dict, dtype: str, domain: dict) -> str | None:
    """Why the draw is not one the kernel was judged on (``None``: it is)."""
    for name in _real_names(statement):
        for entry in _entries(draw.get(name, ())):
            if not (isinstance(entry, sp.Rational)
                    and representable(Fraction(int(entry.p), int(entry.q)), dtype)):
                return f"the draw {name} = {entry} is not a {dtype} number"
    for name, bound in (domain or {}).items():
        for entry in _entries(draw.get(name, ())):
            if not isinstance(entry, sp.Rational):
                continue
            x = Fraction(int(entry.p), int(entry.q))
            if "lo" in bound and not (x > Fraction(bound["lo"]) if bound.get("strict")
                                      else x >= Fraction(bound["lo"])):
                return f"the draw {name} = {x} is outside the binding's domain"
            if "hi" in bound and not (x < Fraction(bound["hi"]) if bound.get("hi_strict")
                                      else x <= Fraction(bound["hi"])):
                return f"the draw {name} = {x} is outside the binding's domain"
    return None


def _perturbed(statement: Any, draw: dict, dtype: str, budget: dict) -> list[dict]:
    """The judge's four perturbed draws (float64 arithmetic, as it computes them); a pattern
    whose perturbed input is not finite is left out, as the judge leaves it out."""
    digits = _format(dtype)[0]
    step = float(Fraction(budget["ulps"])) * 2.0 ** (1 - digits)
    normwise = budget["measure"] == "normwise"
    real = _real_names(statement)
    draws = []
    for pattern in _PATTERNS:
        shifted, finite = dict(draw), True
        for name in real:
            value = draw[name]
            flat = [float(Fraction(int(v.p), int(v.q))) for v in _entries(value)]
            signs = pattern(flat)
            top = max((abs(v) for v in flat), default=0.0)
            moved = [a + s * step * top if normwise else a * (1 + s * step)
                     for a, s in zip(flat, signs)]
            finite = finite and all(abs(v) != float("inf") for v in moved)
            shifted[name] = _shaped(value, iter(sp.Rational(Fraction(v)) for v in moved))
        if finite:
            draws.append(shifted)
    return draws


def _shaped(like, values):
    if isinstance(like, tuple):
        return tuple(_shaped(item, values) for item in like)
    return next(values)


# ---- the decision -------------------------------------------------------------------------------


def _magnitude(low: Fraction, high: Fraction) -> tuple[Fraction, Fraction]:
    """The least and greatest ``|v|`` over ``[low, high]``."""
    least = Fraction(0) if low <= 0 <= high else min(abs(low), abs(high))
    return least, max(abs(low), abs(high))


def _distance(y: Fraction, low: Fraction, high: Fraction) -> Fraction:
    return Fraction(0) if low <= y <= high else min(abs(y - low), abs(y - high))


def _farthest(y: Fraction, low: Fraction, high: Fraction) -> Fraction:
    return max(abs(y - low), abs(y - high))


def violation(statement: Any, draw: dict, dtype: str, output: list, budget: dict,
              reference: list | None, lean: list) -> tuple[bool | None, str]:
    """Whether ``output`` violates ``budget`` at every point of ``lean`` (its enclosures):
    ``(True, how)``, ``(False, why not)`` or ``(None, what is undecided)``."""
    if len(output) != len(lean):
        return False, f"the output has {len(output)} entries, Lean's value {len(lean)}"
    if any(isinstance(y, tuple) for y in output) or any(_is_box(v) for v in lean):
        return complex_violation(  # (each perturbed value enclosed; Undecided: more bits)
            dtype, output, budget, lean, largest(dtype), ulp,
            lambda: [enclosures(statement, d) for d in _perturbed(statement, draw, dtype,
                                                                    budget)])
    top = largest(dtype)
    for i, (y, (low, high)) in enumerate(zip(output, lean)):
        if y == "nan":
            return True, f"entry {i} is nan where Lean's value is a real number"
        if y in ("inf", "-inf"):
            sign = 1 if y == "inf" else -1
            if (high <= top) if sign > 0 else (low >= -top):
                return True, f"entry {i} is {y} where Lean's value is within the {dtype} range"
            if not ((low > top) if sign > 0 else (high < -top)):
                return None, f"whether Lean's entry {i} lies beyond the {dtype} range"
    finite = [(i, y, low, high) for i, (y, (low, high)) in enumerate(zip(output, lean))
              if y not in NONFINITE]
    if not finite:
        return False, "every entry is an infinity Lean's value rounds to"
    if len(finite) == len(output):
        if any(_magnitude(low, high)[0] > top for _, _, low, high in finite):
            return False, f"Lean's value is beyond the {dtype} range (the judge does not " \
                          "measure a finite output there)"
        if any(_magnitude(low, high)[1] > top for _, _, low, high in finite):
            return None, f"whether Lean's value lies within the {dtype} range"
    atol = budget.get("atol")
    if atol is not None:
        if all(_farthest(y, low, high) <= Fraction(atol) for _, y, low, high in finite):
            return False, f"every entry is within atol {atol}"
        if not any(_distance(y, low, high) > Fraction(atol) for _, y, low, high in finite):
            return None, f"whether an entry is beyond atol {atol}"
    beyond = _beyond(finite, lean, dtype, budget, [Fraction(0)] * len(lean))
    if beyond is None:
        return None, "whether an entry is beyond the plain budget"
    if not beyond:
        return False, "every entry is within the budget"
    moved = _sensitivity(statement, draw, dtype, budget, lean)
    beyond = _beyond(finite, lean, dtype, budget, moved)
    if not beyond:
        return None if beyond is None else False, (
            "whether an entry is beyond the budget with its input sensitivity")
    how = f"entry {beyond[0]} is {float(beyond[1]):.6g} from Lean's value, beyond the " \
          f"allowed {float(beyond[2]):.6g}"
    if budget.get("reference") is not None and reference is None:
        return False, ("the budget names a reference and the certificate records no "
                       "reference output (a kernel within k times its reference's error passes)")
    if budget.get("reference") is not None:
        kernel_ulps, reference_ulps = _ulps_against(finite, lean, dtype, budget, reference)
        if kernel_ulps is None:
            return None, "the reference's error"
        if not kernel_ulps > Fraction(budget["k"]) * reference_ulps:
            return False, (f"the kernel's error ({float(kernel_ulps):.3g} ulps) is within k "
                           f"times the reference's ({float(reference_ulps):.3g} ulps)")
        how += f"; its error is beyond {budget['k']} times the reference's"
    return True, how


def _is_box(enclosure: tuple) -> bool:
    """A complex entry's enclosure ``((re_lo, re_hi), (im_lo, im_hi))``."""
    return isinstance(enclosure[0], tuple)


def _units(lean: list, dtype: str, normwise: bool) -> list[tuple[Fraction, Fraction, Fraction]]:
    """Per entry: the ulp at its greatest magnitude, the greatest magnitude measured
    against (its own, or normwise Lean's largest entry), and the ulp at the least."""
    spans = [_magnitude(low, high) for low, high in lean]
    if normwise:
        least = max((s[0] for s in spans), default=Fraction(0))
        most = max((s[1] for s in spans), default=Fraction(0))
        return [(ulp(most, dtype), most, ulp(least, dtype))] * len(lean)
    return [(ulp(most, dtype), most, ulp(least, dtype)) for least, most in spans]


def _beyond(finite: list, lean: list, dtype: str, budget: dict, moved: list):
    """``(entry, distance, allowed)`` of an entry decided beyond the budget; ``False`` when
    every entry is decided within; ``None`` when undecided."""
    units = _units(lean, dtype, budget["measure"] == "normwise")
    if budget["measure"] == "normwise":
        moved = [max(moved, default=Fraction(0))] * len(moved)
    k = Fraction(budget["k"])
    undecided = False
    for i, y, low, high in finite:
        unit, size, _ = units[i]
        allowed = (Fraction(budget["ulps"]) * unit if budget.get("rtol") is None
                   else unit + Fraction(budget["rtol"]) * size) + k * moved[i]
        distance = _distance(y, low, high)
        if distance > allowed:
            return i, distance, allowed
        undecided = undecided or _farthest(y, low, high) > allowed
    return None if undecided else False


def _sensitivity(statement: Any, draw: dict, dtype: str, budget: dict, lean: list) -> list:
    """An upper bound, per entry, of how far Lean's value moves at the judge's perturbations
    (each perturbed value enclosed at the working precision)."""
    moved = [Fraction(0)] * len(lean)
    for shifted in _perturbed(statement, draw, dtype, budget):
        found = enclosures(statement, shifted)  # (Undecided: the precision rises)
        if len(found) != len(lean):
            raise CheckerError("Lean's value at a perturbed input has another shape")
        moved = [max(m, _farthest_between(a, b)) for m, a, b in zip(moved, found, lean)]
    return moved


def _farthest_between(a: tuple, b: tuple) -> Fraction:
    return max(abs(a[1] - b[0]), abs(b[1] - a[0]))


def _ulps_against(finite: list, lean: list, dtype: str, budget: dict, reference: list):
    """A lower bound of the kernel's error in ulps and an upper bound of the reference's."""
    units = _units(lean, dtype, budget["measure"] == "normwise")
    kernel = max((_distance(y, low, high) / units[i][0] for i, y, low, high in finite),
                 default=Fraction(0))
    worst = Fraction(0)
    for r, (low, high), (_, _, least_unit) in zip(reference, lean, units):
        if r in NONFINITE:
            return None, None
        worst = max(worst, _farthest(r, low, high) / least_unit)
    return kernel, worst


# ---- the certificate ------------------------------------------------------------------------


def decide(statement: Any, draw: dict, dtype: str, output: list, budget: dict,
           reference: list | None) -> tuple[bool | None, str, list, int]:
    """``(violated, how, Lean's enclosures, bits)`` at rising precision (128 → 8192 bits),
    until the violation is decided."""
    from mirror.judge.checker import PRECISIONS

    value, how, lean, bits = None, "", [], PRECISIONS[0]
    for bits in PRECISIONS:
        previous = ctx.prec
        ctx.prec = bits
        try:
            try:
                lean = enclosures(statement, draw)
            except Undecided as exc:
                value, how = None, f"Lean's value: {exc}"
                continue
            except (TypeError, ZeroDivisionError) as exc:
                raise CheckerError(f"{type(exc).__name__}: {exc}"[:200]) from None
            value, how = violation(statement, draw, dtype, output, budget, reference, lean)
        finally:
            ctx.prec = previous
        if value is not None:
            break
    return value, how, lean, bits


def _overlaps(stated: Any, computed: list) -> str | None:
    from mirror.judge.checker import _stated_interval

    if not isinstance(stated, list) or len(stated) != len(computed):
        return f"{len(stated) if isinstance(stated, list) else 'no'} enclosure(s) of Lean's " \
               f"value stated, {len(computed)} evaluated"
    for i, (enclosure, interval) in enumerate(zip(stated, computed)):
        if _is_box(interval):
            if not (isinstance(enclosure, dict) and set(enclosure) == {"re", "im"}):
                return f"entry {i} of Lean's value is complex, not stated as {{re, im}}"
            for lane, part in zip(("re", "im"), interval):
                problem = _overlaps([enclosure[lane]], [part])
                if problem:
                    return f"entry {i} ({lane}): {problem}"
            continue
        low, high = interval
        try:
            stated_low, stated_high = _stated_interval(enclosure)
        except (KeyError, TypeError, ValueError, ZeroDivisionError):
            return f"entry {i} of Lean's value is not stated as {{mid, rad}}"
        if stated_high < low or high < stated_low:
            return (f"the stated enclosure of Lean's entry {i} [{float(stated_low):.17g}, "
                    f"{float(stated_high):.17g}] does not contain its value "
                    f"[{float(low):.17g}, {float(high):.17g}]")
    return None


def check_conformance(statement: Any, certificate: dict, draw: dict, binding: dict):
    """Re-verify a conformance certificate against the statement (its sympy form) and
    ``binding`` — what the project's configuration says: ``{"dtypes": [...], "budgets":
    {dtype: budget}, "domain": {...}}``."""
    from mirror.judge.checker import Verdict

    dtype = certificate.get("dtype")
    if dtype not in binding["dtypes"]:
        return Verdict(False, f"dtype {dtype!r} is not one the binding is judged at "
                       f"({', '.join(binding['dtypes'])})")
    budget = certificate.get("budget")
    if budget != binding["budgets"][dtype]:
        return Verdict(False, f"the certificate's budget {budget} is not the binding's at "
                       f"{dtype} ({binding['budgets'][dtype]})")
    try:
        output = parse_output((certificate.get("output") or {}).get("values"), "output")
        stated_reference = certificate.get("reference_output")
        reference = None if stated_reference is None else parse_output(
            stated_reference.get("values") if isinstance(stated_reference, dict) else None,
            "reference_output")
        if certificate.get("version", 0) < 4 and any(
                isinstance(entry, tuple) for entry in output + (reference or [])):
            return Verdict(False, "complex output entries need certificate version 4")
        problem = _check_draw(statement, draw, dtype, binding.get("domain") or {})
        if problem:
            return Verdict(False, problem)
        value, how, lean, bits = decide(statement, draw, dtype, output, budget, reference)
    except CheckerError as exc:
        return Verdict(False, f"the checker cannot evaluate the statement: {exc}")
    if (certificate.get("conclusion") or {}).get("decision") != "false":
        return Verdict(False, "the conclusion is stated "
                       f"{(certificate.get('conclusion') or {}).get('decision')}")
    if value is not True:
        return Verdict(False, f"the output does not violate the budget: {how}" if value is False
                       else f"undecided: {how}")
    problem = _overlaps((certificate.get("lean") or {}).get("enclosures"), lean)
    if problem:
        return Verdict(False, problem)
    return Verdict(True, f"the kernel's recorded output (an observation) violates the {dtype} "
                   f"budget at every point of Lean's value ({how}; Lean's definition "
                   f"evaluated from the sympy form with balls at {bits} bits)")


__all__ = ["FORMATS", "check_conformance", "decide", "NONFINITE", "enclosures", "largest", "lean_side", "parse_output",
           "representable", "ulp", "violation"]
