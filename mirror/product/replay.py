"""Replay: one counterexample, re-run on its own, as a one-line command.

Every refuted row carries :func:`replay_command`, ``leanmirror check NAME --project P
--example '{…}'``; :func:`replay` runs exactly that example again (float64, then the exact
decision a check makes), calling the bound implementations on exactly those inputs, so a user can
debug a kernel in a normal Python session (``python -m pdb -m mirror.product.cli check …``).
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bridge.errors import InvalidArgument
from mirror.judge.outcome import KERNEL_WRONG


def replay_command(project: str | Path | None, name: str, example: dict[str, Any]) -> str:
    """The shell command that replays ``example`` (a JSON-ready counterexample) of ``name``."""
    text = json.dumps(example, ensure_ascii=False, separators=(",", ":"))
    where = f" --project {shlex.quote(str(project))}" if project else ""
    return f"leanmirror check {shlex.quote(name)}{where} --example {shlex.quote(text)}"


def attach_replay(result: Any, project: str | Path | None) -> Any:
    """Give a refuted result (a ``StatementResult`` or its JSON dict) its replay command."""
    data = result if isinstance(result, dict) else vars(result)
    if data.get("mirror_status") == "refuted" and data.get("counterexample") is not None \
            and not data.get("replay"):
        data["replay"] = replay_command(project, data["name"], data["counterexample"])
    return result


def checked_statement(mirror: Any) -> Any:
    """The sympy statement a certificate of ``mirror`` is checked against: over bound
    definitions, the statement with Lean's own definitions unfolded (the checker never runs
    a kernel; a refutation that only the kernel's output supports is not certified by it)."""
    if getattr(mirror, "bound_to", None) and getattr(mirror, "unfolded", None) is not None:
        return mirror.unfolded
    return mirror.statement


def certify(mirror: Any, outcome: Any) -> dict[str, Any] | None:
    """The certificate of a refuted outcome of ``mirror`` (a check's
    :class:`~mirror.judge.outcome.Outcome`, or a refutation before any draw,
    :class:`~mirror.judge.presettle.Presettled`, whose exact ``point`` it records), with the
    independent checker's verdict on it (``"checked"``: ``accepted: …`` or ``rejected: …``)."""
    from mirror.judge.certificate import CertificateError, build, build_conformance

    observation = getattr(outcome, "observation", None)
    if observation is not None:  # a kernel's output against Lean's value
        binding = _binding(mirror)
        if binding is None or mirror.statement is None:
            return {"checked": f"no certificate: {mirror.name} has no binding to judge it by"}
        try:
            certificate = build_conformance(mirror.statement, mirror.name, observation,
                                            binding["budgets"][observation["dtype"]],
                                            observation.get("method", ""))
        except CertificateError as exc:
            return {"checked": f"no certificate: {exc}"}
        certificate["checked"] = check_certificate(mirror, certificate).line(mirror.name)
        return certificate
    if mirror.bound_to and getattr(outcome, "refuted_as", None) in (KERNEL_WRONG, ""):
        # refuted by a kernel's output (Lean's definition not shown to violate it)
        return _certify_kernel_output(mirror, outcome)
    point = getattr(outcome, "point", None) or outcome.counterexample
    statement = checked_statement(mirror)
    if statement is None or point is None:
        return None
    method = getattr(outcome, "decision_method", "") or getattr(outcome, "method", "")
    recurrences = (getattr(outcome, "extra", None) or {}).get("recurrences")
    try:
        certificate = build(statement, mirror.name, point, method, recurrences)
    except CertificateError as exc:  # e.g. an algebraic solution: no exact rational text
        return {"checked": f"no certificate: {exc}"}
    certificate["checked"] = check_certificate(mirror, certificate).line(mirror.name)
    return certificate


def _certify_kernel_output(mirror: Any, outcome: Any) -> dict[str, Any]:
    """A theorem over bound kernels refuted because a kernel is wrong: the draw, each bound
    call's recorded inputs and output, checked by :mod:`mirror.judge.checker_observed`."""
    from mirror.judge.certificate import CertificateError, build_kernel_output

    try:
        example = example_from_json(mirror.plan, json.dumps(outcome.counterexample), mirror.name)
        observations = observe_calls(mirror, example)
        certificate = build_kernel_output(mirror.statement, mirror.unfolded, mirror.name,
                                          example, observations,
                                          getattr(outcome, "decision_method", ""))
    except (CertificateError, InvalidArgument, ValueError, TypeError) as exc:
        return {"checked": f"no certificate: {exc}"}
    certificate["checked"] = check_certificate(mirror, certificate).line(mirror.name)
    return certificate


def observe_calls(mirror: Any, example: dict[str, Any]) -> list[dict[str, Any]]:
    """Every bound call the property makes at ``example`` (float64, one draw), as exact text:
    ``[{"call", "arguments", "output"}]`` — what a kernel-output certificate records and
    ``--run-kernel`` compares."""
    from mirror.bind.binding import runtime_bindings
    from mirror.evaluate.runtime import NumpyRuntime
    from mirror.judge.certificate import CertificateError, finite_text
    from mirror.judge.checks import FLOAT_TOLERANCE, evaluate
    from mirror.judge.exact import as_batch

    seen: list[dict[str, Any]] = []

    def recording(name: str, adapter: Any) -> Any:
        def call(rt: Any, dims: Any, *args: Any) -> Any:
            value = adapter(rt, dims, *args)
            if any(callable(a) for a in args):
                raise CertificateError(f"{name} is called on a function (no exact record)")
            seen.append({"call": name,
                         "arguments": [finite_text(np.asarray(rt.batched(a))[0],
                                                   f"an argument of {name}") for a in args],
                         "output": finite_text(np.asarray(value)[0], f"the output of {name}")})
            return value

        return call

    bindings = runtime_bindings(set(mirror.bound_to), mirror.table or {})
    rt = NumpyRuntime(1, mirror.plan["settings"]["nat_domain"], FLOAT_TOLERANCE,
                      {name: recording(name, adapter) for name, adapter in bindings.items()})
    valid, _, _ = evaluate(mirror.load(), mirror.plan, as_batch(example, mirror.plan), rt)
    if not valid[0] or not seen:
        raise CertificateError("the property made no kernel call at the draw")
    return seen


def _binding(mirror: Any) -> dict[str, Any] | None:
    """What the project's configuration says of the binding whose conformance row ``mirror``
    is: its dtypes, its exact budget at each and its domain (``None``: not such a row)."""
    from mirror.judge.certificate import budget_of

    lean_name = mirror.name.removesuffix(".conformance")
    binding = (mirror.table or {}).get(lean_name) if lean_name != mirror.name else None
    profile = getattr(binding, "profile", None)
    if profile is None:
        return None
    return {"dtypes": list(profile.dtypes),
            "budgets": {d: budget_of(profile, d) for d in profile.dtypes},
            "domain": dict(binding.domain)}


def check_certificate(mirror: Any, certificate: dict[str, Any]):
    """The independent checker's :class:`~mirror.judge.checker.Verdict` on ``certificate``
    for ``mirror`` (its sympy statement; never the generated code or the search; a
    conformance certificate against the binding's configured budget)."""
    from mirror.judge.certificate import CertificateError, parse_draw, validate
    from mirror.judge.checker import Verdict, check

    validate(certificate)
    if certificate["statement"] != mirror.name:
        return Verdict(False, f"the certificate is for {certificate['statement']}, "
                       f"not {mirror.name}")
    if certificate.get("kind") == "kernel-output":
        return _check_kernel_output(mirror, certificate)
    if certificate.get("kind", "statement") not in ("statement", "recurrence") \
            or _binding(mirror) is not None:
        return _check_conformance(mirror, certificate)
    statement = checked_statement(mirror)
    if statement is None:
        return Verdict(False, f"{mirror.name} has no translated statement to check against")
    try:
        draw = parse_draw(certificate["draw"], certificate["version"])
    except CertificateError as exc:
        return Verdict(False, str(exc))
    return check(statement, certificate, draw)


def _check_kernel_output(mirror: Any, certificate: dict[str, Any]):
    from mirror.judge.certificate import CertificateError, parse_draw
    from mirror.judge.checker import Verdict
    from mirror.judge.checker_kernel_output import check_kernel_output

    if not mirror.bound_to or mirror.statement is None or _binding(mirror) is not None:
        return Verdict(False, f"a kernel-output certificate for {mirror.name}, which is not a "
                       "theorem over a bound kernel")
    try:
        draw = parse_draw(certificate["draw"], certificate["version"])
    except CertificateError as exc:
        return Verdict(False, str(exc))
    return check_kernel_output(mirror.statement, mirror.unfolded, certificate, draw)


def _check_conformance(mirror: Any, certificate: dict[str, Any]):
    from mirror.judge.certificate import CertificateError, parse_draw
    from mirror.judge.checker import Verdict
    from mirror.judge.checker_kernel import check_conformance

    binding = _binding(mirror)
    if certificate.get("kind") != "conformance" or binding is None:
        return Verdict(False, f"a {certificate.get('kind', 'statement')} certificate for "
                       f"{mirror.name}, which is " + ("a kernel's conformance row" if binding
                                                      else "not a kernel's conformance row"))
    if certificate["version"] < 3 or mirror.statement is None:
        return Verdict(False, "a conformance certificate needs version 3 and a translation")
    try:
        draw = parse_draw(certificate["draw"], certificate["version"])
    except CertificateError as exc:
        return Verdict(False, str(exc))
    return check_conformance(mirror.statement, certificate, draw, binding)


def rerun_kernel(mirror: Any, certificate: dict[str, Any]) -> tuple[bool, str]:
    """Call the kernel of a conformance certificate (through the project's binding, as the
    search called it) at the certificate's draw and dtype: ``(same output, the line saying
    so)``. The checker never does this; it is the user's confirmation of the observation."""
    from mirror.bind.binding import runtime_bindings
    from mirror.judge.accuracy import Meter, conformance_adapter
    from mirror.judge.certificate import CertificateError, output_text

    if certificate.get("kind") == "kernel-output" and mirror.status == "ready":
        return _rerun_observed(mirror, certificate)
    if certificate.get("kind") != "conformance" or mirror.status != "ready":
        return False, (f"--run-kernel: {mirror.name}'s certificate is not a kernel's "
                       "conformance certificate")
    bindings = runtime_bindings(set(mirror.bound_to), mirror.table or {})
    adapter = conformance_adapter(mirror.name, bindings)
    dtype = certificate.get("dtype")
    if adapter is None or dtype not in adapter.binding.profile.dtypes:
        return False, f"--run-kernel: {mirror.name} has no binding judged at {dtype!r}"
    try:
        draw = json.dumps({k: _floats(v) for k, v in certificate["draw"].items()})
        example = example_from_json(mirror.plan, draw, mirror.name)
    except (ValueError, TypeError, ZeroDivisionError) as exc:
        return False, f"--run-kernel: the draw is not one to call the kernel on ({exc})"
    meter = Meter(mirror.load(), mirror.plan, adapter.binding.lean_name, adapter, bindings,
                  dtype)
    called = meter.kernel(meter.rounded(example), meter.bindings)
    if called is None:
        return False, "--run-kernel: the kernel refused the draw (out of its domain)"
    try:
        values = output_text(called[0])["values"]
    except CertificateError as exc:
        return False, f"--run-kernel: {exc}"
    recorded = (certificate.get("output") or {}).get("values")
    if values != recorded:
        return False, (f"--run-kernel: the kernel now returns {values[:4]}…, not the recorded "
                       f"{(recorded or [])[:4]}…")
    return True, f"--run-kernel: the kernel returns the recorded output at {dtype}"


def _rerun_observed(mirror: Any, certificate: dict[str, Any]) -> tuple[bool, str]:
    """``--run-kernel`` on a kernel-output certificate: the property's bound calls made again
    at the draw, each input and output compared with the record."""
    from mirror.judge.certificate import CertificateError

    try:
        draw = json.dumps({k: _floats(v) for k, v in certificate["draw"].items()})
        example = example_from_json(mirror.plan, draw, mirror.name)
        calls = observe_calls(mirror, example)
    except (CertificateError, InvalidArgument, ValueError, TypeError, ZeroDivisionError) as exc:
        return False, f"--run-kernel: the draw is not one to call the kernels on ({exc})"
    recorded = [{k: o.get(k) for k in ("call", "arguments", "output")}
                for o in certificate.get("observations") or []]
    if calls != recorded:
        return False, (f"--run-kernel: the kernels now make the calls {calls[:2]}…, not the "
                       f"recorded {recorded[:2]}…")
    return True, f"--run-kernel: the kernels return the {len(calls)} recorded output(s)"


def _floats(value: Any) -> Any:
    """A draw's exact text as JSON numbers (exact: every real entry is a float of its dtype)."""
    from fractions import Fraction

    if isinstance(value, list):
        return [_floats(v) for v in value]
    exact = Fraction(value)
    return int(exact) if exact.denominator == 1 else float(exact)


def example_from_json(plan: dict, text: str, name: str) -> dict[str, Any]:
    """The draw ``text`` (a JSON object of the plan's variables) describes, each value checked
    against its Lean type (:func:`mirror.product.examples.parse_example`)."""
    from mirror.product.examples import parse_example

    return parse_example(plan, text, name)


@dataclass
class Replay:
    """What one replayed example shows."""

    name: str
    #: ``refuted`` (its hypotheses hold and its conclusion fails, decided exactly),
    #: ``float-only`` (an implementation fails in float64 only), ``holds``, ``rejected``
    #: (outside the hypotheses or the sampled domain), ``undecided`` (no precision decides).
    verdict: str
    float_error: float | None = None
    #: How the example was decided (``exact rational arithmetic``, ``ball arithmetic at …``).
    method: str | None = None
    #: For a refuted example: the independent checker's verdict on its certificate.
    checked: str | None = None

    def line(self) -> str:
        detail = {
            "refuted": f"fails in float64 (error {self.float_error:.3g}) and when decided by "
                       f"{self.method}",
            "float-only": f"fails in float64 (error {self.float_error:.3g}) but 50-digit mpmath "
                          "does not confirm it",
            "holds": "holds on this example" + (f" (decided by {self.method})"
                                                if self.method else ""),
            "rejected": "this example is outside the hypotheses or the sampled domain",
            "undecided": f"no precision decides this example ({self.method})",
        }[self.verdict]
        checked = f"; certificate {self.checked}" if self.checked else ""
        return f"{self.verdict}: {self.name}: {detail}{checked}"


def replay(mirror: Any, text: str) -> Replay:
    """Run ``mirror`` (a ready :class:`~mirror.product.pipeline.Mirror`) on the example ``text``,
    deciding it exactly as a check does (:class:`mirror.judge.checks.Judge`)."""
    from mirror.bind.binding import runtime_bindings
    from mirror.judge.checks import (FLOAT_ONLY, FLOAT_TOLERANCE, PASS, REFUTED, REJECT, Judge,
                                     Outcome, Tally, conformance_adapter, evaluate, holds)
    from mirror.judge.exact import as_batch
    from mirror.evaluate.runtime import NumpyRuntime

    if mirror.status != "ready":
        raise InvalidArgument(f"check {mirror.name}: its mirror is {mirror.status} "
                              f"({mirror.reason}); nothing to run")
    example = example_from_json(mirror.plan, text, mirror.name)
    function = mirror.load()
    bindings = runtime_bindings(set(mirror.bound_to), mirror.table or {})
    adapter = conformance_adapter(mirror.name, bindings)
    if adapter is not None:  # a kernel's conformance is judged on its accuracy
        from mirror.judge.accuracy import observed_conformance
        from mirror.judge.outcome import Outcome as Observed

        verdict, err, method, observation = observed_conformance(
            function, mirror.plan, adapter, bindings, example)
        checked = None
        if observation is not None:  # the checker on the certificate of what it refuted
            certificate = certify(mirror, Observed(status="refuted", observation=observation))
            checked = certificate["checked"] if certificate else None
        return Replay(mirror.name, verdict, err, method, checked)
    rt = NumpyRuntime(1, mirror.plan["settings"]["nat_domain"], FLOAT_TOLERANCE, bindings)
    valid, hyp, concl = evaluate(function, mirror.plan, as_batch(example, mirror.plan), rt)
    if hyp is None or not valid[0] or rt.impl_nonfinite[0]:
        return Replay(mirror.name, "rejected")
    err = 0.0 if concl.exact[0] else float(concl.err[0])
    judge = Judge(function, mirror.plan, bindings, bool(mirror.bound_to), Tally())
    kind = judge.classify(example, bool(holds(hyp)[0]), bool(holds(concl)[0]),
                          bool(hyp.sure[0]), bool(concl.sure[0]), err)
    method = judge.last_decision.method if judge.last_decision else None
    verdict = {PASS: "holds", REJECT: "rejected", REFUTED: "refuted",
               FLOAT_ONLY: "float-only"}.get(kind, "undecided")
    checked = None
    if verdict == "refuted" and not mirror.bound_to:
        # the replay runs the independent checker on the certificate of what it refuted
        from mirror.judge.checks import readable

        outcome = Outcome(status="refuted", counterexample=readable(example),
                          decision_method=method or "")
        certificate = certify(mirror, outcome)
        checked = certificate["checked"] if certificate else None
    return Replay(mirror.name, verdict, err, method, checked)


__all__ = ["Replay", "attach_replay", "certify", "check_certificate", "checked_statement",
           "example_from_json", "observe_calls", "replay", "replay_command", "rerun_kernel"]
