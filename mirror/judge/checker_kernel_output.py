"""Checking a kernel-output certificate (version 4): a theorem over bound kernels refuted
because a kernel is wrong. The rules are :mod:`mirror.judge.checker_observed`'s; this module
applies them to a certificate, with the checker's evaluator (:mod:`mirror.judge.checker`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from mirror.judge.checker import Verdict, _consistent, evaluate_parts
from mirror.judge.checker_observed import (OBSERVED_KEY, TOLERANCE, WIDEN_KEY,
                                           parse_observations)
from mirror.judge.checker_values import CheckerError


def check_kernel_output(statement: Any, unfolded: Any, certificate: dict, draw: dict):
    """Re-verify a kernel-output certificate against the theorem's sympy form over its bound
    calls (``statement``) and over Lean's unfolded definitions (``unfolded``)."""
    if certificate.get("version", 0) < 4:
        return Verdict(False, "a kernel-output certificate needs version 4")
    if certificate.get("tolerance") != TOLERANCE:
        return Verdict(False, f"the tolerance {certificate.get('tolerance')!r} is not the "
                       f"float tolerance kernels are judged by ({TOLERANCE})")
    try:
        observations = parse_observations(certificate.get("observations"))
        exact = {OBSERVED_KEY: observations}
        widened = {OBSERVED_KEY: observations, WIDEN_KEY: Fraction(TOLERANCE)}
        parts = evaluate_parts(statement, draw, exact, widened)
    except CheckerError as exc:
        return Verdict(False, f"the checker cannot evaluate the statement: {exc}")
    stated = certificate["hypotheses"]
    if [h.get("name") for h in stated] != [label for label, *_ in parts["hypotheses"]]:
        return Verdict(False, "the certificate's hypotheses are not the statement's")
    for mine, (label, value, trace, _bits) in zip(stated, parts["hypotheses"]):
        if mine.get("decision") != "true" or value is not True:
            return Verdict(False, f"hypothesis {label} is stated {mine.get('decision')}, "
                           f"evaluated {_text(value)} with the recorded outputs")
        problem = _consistent(mine.get("relations", []), trace, f"hypothesis {label}")
        if problem:
            return Verdict(False, problem)
    value, trace, bits = parts["conclusion"]
    if certificate["conclusion"].get("decision") != "false" or value is not False:
        return Verdict(False, f"the conclusion is stated "
                       f"{certificate['conclusion'].get('decision')}, evaluated {_text(value)} "
                       "with the recorded outputs moved within the float tolerance")
    problem = _consistent(certificate["conclusion"].get("relations", []), trace,
                          "the conclusion")
    if problem:
        return Verdict(False, problem)
    lean = (certificate.get("lean") or {}).get("decision")
    how = ""
    if lean == "true":
        if unfolded is None:
            return Verdict(False, "Lean's definition is stated to satisfy the statement, and "
                           "there is no unfolded statement to check it on")
        try:
            unfolded_parts = evaluate_parts(unfolded, draw)
        except CheckerError as exc:
            return Verdict(False, f"the checker cannot evaluate Lean's definitions: {exc}")
        if unfolded_parts["conclusion"][0] is not True:
            return Verdict(False, "Lean's definition is stated to satisfy the statement, its "
                           f"conclusion is {_text(unfolded_parts['conclusion'][0])} at the draw")
        how = "; Lean's unfolded definitions satisfy the conclusion there: the kernel is wrong"
    elif lean != "undecided":
        return Verdict(False, f"Lean's side is stated {lean!r} (a false statement is refuted "
                       "by a plain certificate over Lean's definitions)")
    return Verdict(True, "with the kernels' recorded outputs (observations) every hypothesis "
                   "holds and the conclusion fails, for every output within the float tolerance "
                   f"of the recorded one (balls at {bits} bits){how}")


def _text(value: bool | None) -> str:
    return {True: "true", False: "false", None: "undecided"}[value]

__all__ = ["check_kernel_output"]
