"""Refutation certificates: the record a ``refuted`` row carries (versioned JSON).

A certificate states the exact draw (integers and rationals as strings — a float64 draw is
its exact dyadic value), how the search decided it, and for each hypothesis and the
conclusion its decision, the method and the enclosures of its relations (the difference of
the two sides, midpoint and radius as exact rational strings). It is re-verified by the
independent checker (:mod:`mirror.judge.checker`), which never runs the search's code.

Version 2 adds arrays (nested lists of exact numbers: ``List``, ``Finset`` membership,
``Fin n → ℝ``, sampled prefixes of ``ℕ → ℝ``), ``"⊤"`` as a draw value (``⊤ : ℝ≥0∞``,
which no rational is) and relations
with ``⊤`` on a side, whose ``difference`` is ``{"top": "left" | "right" | "both"}`` (the side
that is ``⊤``); a version-1 certificate has neither and is still read.

Version 3 adds algebraic draw values (``{"algebraic": {"polynomial": [...], "interval":
[lo, hi]}}``: an irrational solution of the hypotheses, verified by
:mod:`mirror.judge.checker_algebraic`) and conformance certificates (``"kind":
"conformance"``: a kernel's recorded output against Lean's value, checked by
:mod:`mirror.judge.checker_kernel`; :func:`build_conformance`).

Version 4 adds recurrence certificates (``"kind": "recurrence"``: sequences drawn as exact
prefixes, the recurrence hypotheses named and decided by
:mod:`mirror.judge.checker_recurrence`), complex kernel outputs (entries ``{"re", "im"}``,
:mod:`mirror.judge.checker_complex`) and a theorem refuted by a bound kernel's output
(``"kind": "kernel-output"``, :func:`build_kernel_output`,
:mod:`mirror.judge.checker_kernel_output`). A certificate is written at the least version
that has its forms (:data:`VERSION` for a plain one). Versions 1–3 are still read::

    {"format": "leanmirror-certificate", "version": 2, "statement": "Toy.foo",
     "draw": {"x": "1/1000000000000000000000000000000"},
     "decision": {"method": "ball arithmetic at 128 bits"},
     "hypotheses": [{"name": "hx", "decision": "true", "method": "…",
                     "relations": [{"relation": "<", "difference": {"mid": "…", "rad": "…"},
                                    "decision": "true"}]}],
     "conclusion": {"decision": "false", "method": "…", "relations": […]}}
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import sympy as sp

from bridge.errors import LeanMirrorError
from mirror.judge.checker import CheckerError, evaluate_parts
from mirror.judge.checker_algebraic import AlgebraicPoint

FORMAT = "leanmirror-certificate"
#: The version of a plain certificate and of a real conformance certificate: a certificate is
#: written at the least version that has its forms.
VERSION = 3
#: The version of the forms added last: recurrence certificates, complex kernel outputs and
#: a theorem's kernel observations (``"kind": "recurrence"`` / ``"kernel-output"``).
LATEST = 4
#: The versions :func:`validate` reads (1: no ``⊤``; 2: no algebraic numbers, no kernel
#: observations; 3: no recurrences, no complex outputs, no theorem's kernel observations).
VERSIONS = (1, 2, 3, 4)
#: What a recurrence certificate says of the sequences in its draw.
RECURRENCE_NOTE = ("each sequence is its exact prefix s 0 … s N; the checker decides each "
                   "recurrence named here from the statement itself: the prefix satisfies it "
                   "wherever it reads only the prefix, and it is solvable for its top term, so "
                   "the prefix extends to a sequence satisfying it for every n")
#: ``⊤ : ℝ≥0∞`` as a draw value (from version 2).
TOP_TEXT = "⊤"


class CertificateError(LeanMirrorError, ValueError):
    """A certificate file that cannot be read as a certificate (a bad file, not a rejection)."""


def exact_text(value: Any) -> Any:
    """A draw value as exact text: an integer, a rational ``p/q`` (a float64 exactly), or
    :data:`TOP_TEXT` for ``+∞`` (only ℝ≥0∞ draws ``⊤``; the checker rejects it anywhere
    else); arrays as nested lists."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, sp.Basic):
        if not value.is_Rational:
            return algebraic_text(value)
        return str(Fraction(int(value.p), int(value.q)))
    arr = np.asarray(value)
    if arr.ndim:
        return [exact_text(v) for v in arr]
    item = arr.item()
    if isinstance(item, (bool, np.bool_)):
        return str(int(item))
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):
        if item == float("inf"):
            return TOP_TEXT
        if not np.isfinite(item):
            raise CertificateError(f"a non-finite draw {item} has no exact value")
        return str(Fraction(item))
    raise CertificateError(f"a draw of type {type(item).__name__} has no exact text form")


#: Seconds sympy may take to find an irrational point's minimal polynomial.
ALGEBRAIC_SECONDS = 5.0


def algebraic_text(value: sp.Basic) -> dict[str, Any]:
    """A real algebraic number (a solution of the hypotheses, ``-√2``) as its minimal
    polynomial and an isolating interval with rational endpoints (version 3): the
    checker verifies both itself (:mod:`mirror.judge.checker_algebraic`)."""
    if not (value.is_real and value.is_algebraic):
        raise CertificateError(f"the point {value} is neither rational nor a real algebraic "
                               "number (no exact text form)")
    x = sp.Dummy("x")
    try:
        poly = sp.minimal_polynomial(value, x, polys=True)
    except (NotImplementedError, ValueError, sp.PolynomialError) as exc:
        raise CertificateError(f"the point {value}: no minimal polynomial ({exc})") from None
    poly = poly.clear_denoms(convert=True)[1].primitive()[1]
    approx = sp.N(value, 60)
    for (low, high), _ in poly.intervals(eps=sp.Rational(1, 10 ** 6)):
        if low <= approx <= high and low != high:
            return AlgebraicPoint(tuple(int(c) for c in poly.all_coeffs()),
                                  Fraction(str(low)), Fraction(str(high))).text()
    raise CertificateError(f"the point {value}: no isolating interval of {poly.as_expr()} "
                           "contains it")


def parse_draw(draw: dict[str, Any], version: int = VERSION) -> dict[str, sp.Basic]:
    """The certificate's draw as exact sympy numbers (from version 2 also ``⊤`` as ``oo``, and
    arrays as nested tuples)."""
    return {name: _parse_value(name, text, version) for name, text in draw.items()}


def _parse_value(name: str, text: Any, version: int) -> Any:
    """One drawn value: an exact number, (from version 2) an array as nested lists, or
    (from version 3) an algebraic number ``{"algebraic": {"polynomial", "interval"}}``."""
    if isinstance(text, list) and version >= 2:
        return tuple(_parse_value(name, item, version) for item in text)
    if isinstance(text, dict) and version >= 3 and set(text) == {"algebraic"}:
        try:
            return AlgebraicPoint.parse(name, text["algebraic"])
        except CheckerError as exc:
            raise CertificateError(str(exc)) from None
    if not isinstance(text, str):
        raise CertificateError(f"draw {name}: expected an exact number as a string"
                               + (" or a list of them" if version >= 2 else "")
                               + f", got {type(text).__name__}")
    if text == TOP_TEXT and version >= 2:
        return sp.oo
    try:
        return sp.Rational(Fraction(text))
    except (ValueError, ZeroDivisionError):
        raise CertificateError(f"draw {name}: {text!r} is not an integer or p/q") from None


def _decision_text(value: bool | None) -> str:
    return {True: "true", False: "false", None: "undecided"}[value]


def build(statement: Any, name: str, example: dict[str, Any], method: str,
          recurrences: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """The certificate of a refutation of ``statement`` (its sympy form) at ``example`` (the
    Lean-named draw), decided by ``method``; each part's enclosures are computed from the
    sympy form (what the checker re-verifies). ``recurrences`` (``[{"hypothesis",
    "sequence"}]``): the recurrence hypotheses a reduction used, whose sequences ``example``
    gives as their exact prefixes — a version-4 ``"recurrence"`` certificate
    (:mod:`mirror.judge.checker_recurrence`)."""
    draw = {key: exact_text(value) for key, value in example.items()}
    certificate: dict[str, Any] = {"format": FORMAT, "version": VERSION, "statement": name,
                                   "draw": draw, "decision": {"method": method}}
    context = None
    if recurrences:
        from mirror.judge.checker import RECURRENCE_KEY
        from mirror.judge.checker_recurrence import justified

        certificate["kind"], certificate["version"] = "recurrence", LATEST
        certificate["recurrences"] = [{**r, "note": RECURRENCE_NOTE} for r in recurrences]
    try:
        if recurrences:
            context = {RECURRENCE_KEY: justified(statement, recurrences, parse_draw(draw))}
        parts = evaluate_parts(statement, parse_draw(draw), context)
    except (CheckerError, CertificateError) as exc:
        return _record(certificate, None, str(exc))
    return _record(certificate, parts)


def _record(certificate: dict[str, Any], parts: dict[str, Any] | None, problem: str = "",
            hypotheses: str = "", conclusion: str = "") -> dict[str, Any]:
    """``certificate`` with each part's decision, method and relations (``parts`` from
    :func:`~mirror.judge.checker.evaluate_parts`; ``None``: the conclusion undecided by
    ``problem``); ``hypotheses``/``conclusion`` are added to the parts' method."""
    if parts is None:
        certificate["hypotheses"] = []
        certificate["conclusion"] = {"decision": "undecided", "method": problem}
        return certificate
    certificate["hypotheses"] = [
        {"name": label, "decision": _decision_text(value),
         "method": f"ball arithmetic at {bits} bits{hypotheses}", "relations": trace}
        for label, value, trace, bits in parts["hypotheses"]]
    value, trace, bits = parts["conclusion"]
    certificate["conclusion"] = {"decision": _decision_text(value), "relations": trace,
                                 "method": f"ball arithmetic at {bits} bits{conclusion}"}
    return certificate


#: What a conformance certificate says of the kernel's output.
OBSERVED = ("observed: the kernel's return value at the draw, as the search recorded it; the "
            "checker does not run the kernel (leanmirror check NAME --certificate FILE "
            "--run-kernel re-runs it through the binding)")


def _exact_number(value: float | None) -> str | None:
    return None if value is None else str(Fraction(value))


def budget_of(profile: Any, dtype: str) -> dict[str, Any]:
    """The accuracy budget a binding's profile (:class:`mirror.bind.config.KernelProfile`)
    sets at ``dtype``, exactly: what a conformance certificate states and the checker
    compares with the configuration."""
    return {"ulps": _exact_number(profile.budget_ulps(dtype)),
            "rtol": _exact_number(profile.rtol), "atol": _exact_number(profile.atol),
            "k": _exact_number(profile.k), "measure": profile.measure,
            "reference": profile.reference}


def output_text(value: Any) -> dict[str, Any]:
    """A kernel's output as exact entries (``nan``, ``inf``, ``-inf`` as such), with its
    shape."""
    arr = np.asarray(value)
    if np.iscomplexobj(arr) and np.any(arr.imag != 0):  # (version 4) entries {re, im}
        entries = [{"re": _lane(item.real), "im": _lane(item.imag)}
                   for item in arr.astype(complex).reshape(-1).tolist()]
        return {"note": OBSERVED, "shape": list(arr.shape), "values": entries}
    if np.iscomplexobj(arr):
        arr = arr.real
    entries = [_lane(item) for item in arr.astype(float).reshape(-1).tolist()]
    return {"note": OBSERVED, "shape": list(arr.shape), "values": entries}


def _lane(item: float) -> str:
    """A float exactly: ``p/q``, or ``nan``, ``inf``, ``-inf``."""
    return "nan" if item != item else ("inf" if item == float("inf") else
                                       "-inf" if item == float("-inf") else str(Fraction(item)))


def _enclosure_text(enclosure: tuple) -> dict[str, Any]:
    """An entry of Lean's value as ``{mid, rad}`` (a complex box as ``{re, im}`` of them)."""
    if isinstance(enclosure[0], tuple):
        return {"re": _enclosure_text(enclosure[0]), "im": _enclosure_text(enclosure[1])}
    low, high = enclosure
    return {"mid": str((low + high) / 2), "rad": str((high - low) / 2)}


def build_conformance(statement: Any, name: str, observation: dict[str, Any],
                      budget: dict[str, Any], method: str) -> dict[str, Any]:
    """The certificate of a refuted conformance row: the exact draw, the dtype, the kernel's
    recorded output (and its reference's), the budget, Lean's enclosures and the violation,
    as the checker (:mod:`mirror.judge.checker_kernel`) evaluates them."""
    from mirror.judge.checker_kernel import decide, parse_output

    draw = {key: exact_text(value) for key, value in observation["example"].items()}
    output = output_text(observation["output"])
    reference = (None if observation.get("reference_output") is None
                 else output_text(observation["reference_output"]))
    certificate: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "kind": "conformance", "statement": name,
        "draw": draw, "dtype": observation["dtype"], "output": output,
        "reference_output": reference, "budget": budget,
        "decision": {"method": method}, "hypotheses": []}
    try:
        value, how, lean, bits = decide(
            statement, parse_draw(draw), observation["dtype"],
            parse_output(output["values"], "output"), budget,
            None if reference is None else parse_output(reference["values"], "reference"))
    except (CheckerError, CertificateError) as exc:
        certificate["conclusion"] = {"decision": "undecided", "method": str(exc)}
        return certificate
    certificate["lean"] = {
        "method": f"Lean's definition at the draw, ball arithmetic at {bits} bits",
        "enclosures": [_enclosure_text(enclosure) for enclosure in lean]}
    if any(isinstance(e, tuple) for e in parse_output(output["values"], "output")) \
            or any(isinstance(e[0], tuple) for e in lean):
        certificate["version"] = LATEST  # complex entries
    certificate["conclusion"] = {"decision": _decision_text(None if value is None
                                                            else not value),
                                 "method": f"the output against Lean's value at {bits} bits",
                                 "violation": how}
    return certificate


def finite_text(value: Any, what: str) -> Any:
    """A kernel's argument or output as exact text (nested lists for arrays); a non-finite
    entry is a :class:`CertificateError` (ℝ has no NaN or ∞)."""
    arr = np.asarray(value)
    if arr.dtype.kind == "c" or (arr.dtype.kind == "f" and not np.isfinite(arr).all()):
        raise CertificateError(f"{what}: a complex or non-finite value has no exact real text")
    if arr.dtype.kind not in "biuf":
        raise CertificateError(f"{what}: a value of type {arr.dtype} (not a number or array)")
    return exact_text(arr)


def build_kernel_output(statement: Any, unfolded: Any, name: str, example: dict[str, Any],
                        observations: list[dict[str, Any]], method: str) -> dict[str, Any]:
    """The certificate of a theorem over bound kernels refuted because a kernel is wrong
    (version 4, kind ``"kernel-output"``): the exact draw, each bound call's recorded inputs
    and output (``observations``: ``[{"call", "arguments", "output"}]`` as exact text), and
    the parts as :mod:`mirror.judge.checker_observed` evaluates them."""
    from mirror.judge.checker_observed import (OBSERVED_KEY, TOLERANCE, WIDEN_KEY,
                                               parse_observations)

    draw = {key: exact_text(value) for key, value in example.items()}
    certificate: dict[str, Any] = {
        "format": FORMAT, "version": LATEST, "kind": "kernel-output", "statement": name,
        "draw": draw, "observations": [{**o, "note": OBSERVED} for o in observations],
        "tolerance": TOLERANCE, "decision": {"method": method}}
    try:
        parsed = parse_observations(observations)
        parts = evaluate_parts(statement, parse_draw(draw), {OBSERVED_KEY: parsed},
                               {OBSERVED_KEY: parsed, WIDEN_KEY: Fraction(TOLERANCE)})
        lean = None if unfolded is None else evaluate_parts(unfolded, parse_draw(draw))
    except (CheckerError, CertificateError) as exc:
        return _record(certificate, None, str(exc))
    _record(certificate, parts, hypotheses=", the kernels' outputs as recorded",
            conclusion=", each output moved within the tolerance")
    lean_value = None if lean is None else lean["conclusion"][0]
    certificate["lean"] = {"decision": "true" if lean_value is True else "undecided",
                           "method": "the conclusion over Lean's unfolded definitions at the "
                                     "draw, ball arithmetic"}
    return certificate


def validate(data: Any, where: str = "certificate") -> dict[str, Any]:
    """``data`` if it has a certificate's shape; :class:`CertificateError` otherwise."""
    if not isinstance(data, dict):
        raise CertificateError(f"{where}: expected a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise CertificateError(f"{where}: format {data.get('format')!r}, expected {FORMAT!r}")
    if data.get("version") not in VERSIONS:
        raise CertificateError(f"{where}: version {data.get('version')!r}, expected one of "
                               f"{', '.join(map(str, VERSIONS))}")
    for key, kind in (("statement", str), ("draw", dict), ("hypotheses", list),
                      ("conclusion", dict)):
        if not isinstance(data.get(key), kind):
            raise CertificateError(f"{where}: {key!r} missing or not a {kind.__name__}")
    return data


def read(path: str | Path) -> dict[str, Any]:
    """Read and validate a certificate file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CertificateError(f"--certificate {path}: cannot read it ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise CertificateError(f"--certificate {path}: not JSON ({exc})") from None
    return validate(data, f"--certificate {path}")


__all__ = ["FORMAT", "OBSERVED", "TOP_TEXT", "VERSION", "VERSIONS", "CertificateError",
           "LATEST", "algebraic_text", "budget_of", "build", "build_conformance",
           "build_kernel_output", "exact_text", "finite_text",
           "output_text", "parse_draw", "read", "validate"]
