"""Certificate version 3, conformance: a refuted kernel row ("the kernel returned ``y`` at
``x``, beyond its budget against Lean's definition") carries the exact draw, the dtype, the
kernel's recorded output, the binding's exact budget and Lean's enclosures; the independent
checker evaluates Lean's definition itself and decides the violation for every point of
its enclosure. Tampering with the output, the budget, the draw, the dtype or Lean's
enclosure is rejected."""

from __future__ import annotations

import sys
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from mirror.judge.checker_kernel import largest, representable, ulp, violation
from mirror.product.pipeline import CheckSettings, build_mirrors, extract_project, run
from mirror.product.replay import check_certificate, replay
from tests.judge.test_certificates import _tampered
from tests.mirror.conftest import ROOT

KERNELS = ROOT / "tests" / "fixtures" / "kernels"
NAMES = ["Kernels.geluTanhNaive.conformance", "Kernels.reluBroken.conformance",
         "Kernels.log1pNaive.conformance", "Kernels.softmaxNaive.conformance",
         "Kernels.gateRatioNaive.conformance"]


@pytest.fixture(scope="module")
def kernels():
    sys.path.insert(0, str(KERNELS / "python"))
    try:
        rows = run(KERNELS, method="scanner", settings=CheckSettings(max_examples=60, sweep=128),
                   select=NAMES).results
        mirrors = {m.name: m for m in build_mirrors(extract_project(KERNELS, "scanner"))
                   if m.name in NAMES}
        yield {r.name: (mirrors[r.name], r) for r in rows}
    finally:
        sys.path.remove(str(KERNELS / "python"))


@pytest.mark.parametrize("name", NAMES)
def test_a_refuted_conformance_row_is_certified_and_accepted(kernels, name):
    mirror, row = kernels[name]
    assert row.mirror_status == "refuted", row.reason
    certificate = row.certificate
    assert certificate["kind"] == "conformance" and certificate["version"] == 3
    assert "observed" in certificate["output"]["note"]
    assert certificate["checked"].startswith("accepted"), certificate["checked"]
    assert check_certificate(mirror, certificate).accepted


def _lean_value(c):
    # the output set to Lean's value rounded to float64: within any budget
    mid = Fraction(c["lean"]["enclosures"][0]["mid"])
    c["output"]["values"][0] = str(Fraction(float(mid)))


def _budget(c):
    c["budget"]["ulps"] = str(10 ** 30)


def _measure(c):
    c["budget"]["measure"] = "normwise"


def _dtype(c):
    c["dtype"] = "float32"


def _lean_enclosure(c):
    enclosure = c["lean"]["enclosures"][0]
    enclosure["mid"] = str(Fraction(enclosure["mid"]) + 1)


def _draw(c):
    c["draw"]["x"] = "1/3"  # not a float64 number


def _draw_moved(c):
    c["draw"]["x"] = str(Fraction(2.0))  # Lean's value moves: the stated enclosure is wrong


def _conclusion(c):
    c["conclusion"]["decision"] = "undecided"


def _kind(c):
    del c["kind"]


def _version(c):
    c["version"] = 2


@pytest.mark.parametrize("change, reason", [
    (_lean_value, "does not violate"), (_budget, "not the binding's"),
    (_measure, "not the binding's"), (_dtype, "dtype"), (_lean_enclosure, "enclosure"),
    (_draw, "not a float64 number"), (_draw_moved, "enclosure"), (_conclusion, "stated"),
    (_kind, "conformance row"), (_version, "version 3"),
])
def test_tampering_with_a_conformance_certificate_is_rejected(kernels, change, reason):
    mirror, row = kernels["Kernels.geluTanhNaive.conformance"]
    verdict = check_certificate(mirror, _tampered(row.certificate, change))
    assert not verdict.accepted
    assert reason in verdict.reason, verdict.reason


def test_a_nan_output_changed_to_a_finite_one_is_rejected(kernels):
    mirror, row = kernels["Kernels.reluBroken.conformance"]
    assert row.certificate["output"]["values"] == ["nan"]
    tampered = _tampered(row.certificate, lambda c: c["output"]["values"].__setitem__(0, "0"))
    verdict = check_certificate(mirror, tampered)
    assert not verdict.accepted and "does not violate" in verdict.reason, verdict.reason


def test_a_shrunk_counterexample_stays_inside_the_bindings_domain(kernels):
    """``gateRatio``'s domain is ``0 < g ≤ 1``: the shrinking that zeroes array entries
    must not leave it (the kernel is not asked there, and the checker refuses such a draw)."""
    _, row = kernels["Kernels.gateRatioNaive.conformance"]
    assert all(0 < v <= 1 for v in row.counterexample["g"]), row.counterexample


def test_a_draw_outside_the_bindings_domain_is_rejected(kernels):
    mirror, row = kernels["Kernels.log1pNaive.conformance"]  # domain x > -1
    tampered = _tampered(row.certificate, lambda c: c["draw"].update(x="-2"))
    verdict = check_certificate(mirror, tampered)
    assert not verdict.accepted and "domain" in verdict.reason, verdict.reason


def test_the_replay_checks_the_certificate_of_a_conformance_row(kernels):
    import json

    mirror, row = kernels["Kernels.geluTanhNaive.conformance"]
    sys.path.insert(0, str(KERNELS / "python"))
    try:
        replayed = replay(mirror, json.dumps(row.counterexample))
    finally:
        sys.path.remove(str(KERNELS / "python"))
    assert replayed.verdict == "refuted"
    assert replayed.checked is not None and replayed.checked.startswith("accepted"), \
        replayed.checked


# ---- the checker's rules on their own -------------------------------------------------------

@pytest.mark.parametrize("dtype, np_type", [("float64", np.float64), ("float32", np.float32),
                                            ("float16", np.float16)])
@pytest.mark.parametrize("value", [0.0, 1.0, 1.5, 3e-39, 1e-45, 6e-8, 65504.0, 1e30, 1e300])
def test_ulp_and_representability_are_the_dtypes(dtype, np_type, value):
    with np.errstate(over="ignore"):
        x = np_type(value)
    if not np.isfinite(x):
        return
    from mirror.judge.ulps import CTX, ulp as judge_ulp

    exact = Fraction(float(x))
    judged = judge_ulp(CTX.mpf(float(x)), dtype)
    assert ulp(exact, dtype) == Fraction(int(judged * 2 ** 1200), 2 ** 1200)
    if x != np.finfo(np_type).max:  # (numpy's spacing past the largest float is inf)
        assert ulp(exact, dtype) == Fraction(float(np.spacing(np.abs(x))))
    assert representable(exact, dtype)
    assert not representable(exact + ulp(exact, dtype) / 2, dtype)
    assert largest(dtype) == Fraction(float(np.finfo(np_type).max))


def _plain_statement():
    from types import SimpleNamespace

    from mirror.translate.types import Ty
    from mirror.translate.vocabulary import BoundCall

    x = sp.Symbol("x", real=True)
    conclusion = sp.Eq(BoundCall(sp.Symbol("K"), sp.Tuple(), x), 2 * x)
    variable = SimpleNamespace(name="x", symbol=x, ty=Ty("Real"))
    return SimpleNamespace(variables=[variable], definitions=[], hypotheses=[],
                           conclusion=conclusion)


BUDGET = {"ulps": "4", "rtol": None, "atol": None, "k": "2", "measure": "entrywise",
          "reference": None}
TOP = largest("float64")


@pytest.mark.parametrize("output, lean, expected", [
    ("inf", (TOP * 2, TOP * 2), False),            # Lean's value rounds to +inf: exact
    ("-inf", (TOP * 2, TOP * 2), True),            # the wrong sign
    ("inf", (TOP / 2, TOP / 2), True),             # Lean's value is within the range
    ("inf", (TOP - 1, TOP + 1), None),             # the enclosure straddles the largest float
    ("nan", (Fraction(0), Fraction(0)), True),
])
def test_the_overflow_rule(output, lean, expected):
    value, how = violation(_plain_statement(), {"x": sp.Integer(0)}, "float64", [output],
                           BUDGET, None, [lean])
    assert value is expected, how


def test_a_finite_output_where_lean_is_beyond_the_range_is_not_measured():
    value, how = violation(_plain_statement(), {"x": sp.Integer(0)}, "float64",
                           [Fraction(0)], BUDGET, None, [(TOP * 2, TOP * 2)])
    assert value is False and "beyond" in how


def test_the_budget_counts_the_input_sensitivity_and_atol():
    """Lean's value 2x at x = 1: 4 ulps of 2 are 1.8e-15; the input sensitivity adds
    k · |2 · 1 · 4 eps| ≈ 3.6e-15. An output 4e-15 away is within; 1e-14 away is beyond,
    but not beyond an atol of 1e-13."""
    statement, draw = _plain_statement(), {"x": sp.Integer(1)}
    lean = [(Fraction(2), Fraction(2))]
    near, far = Fraction(2) + Fraction(4, 10 ** 15), Fraction(2) + Fraction(1, 10 ** 14)
    assert violation(statement, draw, "float64", [near], BUDGET, None, lean)[0] is False
    assert violation(statement, draw, "float64", [far], BUDGET, None, lean)[0] is True
    loose = dict(BUDGET, atol=str(Fraction(1e-13)))
    assert violation(statement, draw, "float64", [far], loose, None, lean)[0] is False
    relative = dict(BUDGET, rtol=str(Fraction(1e-14)))
    assert violation(statement, draw, "float64", [far], relative, None, lean)[0] is False


def test_a_reference_within_k_times_its_error_clears_the_kernel():
    statement, draw = _plain_statement(), {"x": sp.Integer(1)}
    lean = [(Fraction(2), Fraction(2))]
    far = Fraction(2) + Fraction(1, 10 ** 14)
    budget = dict(BUDGET, reference="mod:ref")
    assert violation(statement, draw, "float64", [far], budget, [far], lean)[0] is False
    assert violation(statement, draw, "float64", [far], budget, [Fraction(2)], lean)[0] is True
    # a budget naming a reference needs its output: dropping it is not a way past the rule
    assert violation(statement, draw, "float64", [far], budget, None, lean)[0] is False


def test_run_kernel_confirms_the_recorded_output_and_catches_a_changed_one(kernels):
    from mirror.product.replay import rerun_kernel

    sys.path.insert(0, str(KERNELS / "python"))
    try:
        for name in ("Kernels.geluTanhNaive.conformance", "Kernels.softmaxNaive.conformance"):
            mirror, row = kernels[name]
            confirmed, line = rerun_kernel(mirror, row.certificate)
            assert confirmed, line
        changed = _tampered(row.certificate, lambda c: c["output"]["values"].__setitem__(0, "0"))
        confirmed, line = rerun_kernel(mirror, changed)
        assert not confirmed and "not the recorded" in line
    finally:
        sys.path.remove(str(KERNELS / "python"))
