"""Kernels are judged on what they return, in their own units (issue 20, issue 19 item 5).

The planted suite (``tests/fixtures/kernels``) binds each Lean definition twice: ``f`` to a
correct kernel, ``fNaive`` to the classic bug. Every bug's conformance row is refuted with a
shrunk input and its error in ulps; every twin is ``tested`` with its measured ulps; the true
theorems over correct kernels are not refuted; the false ``clippedRelu c x < c`` is refuted as
a false statement (Lean's own definition violates it).
"""

from __future__ import annotations

import math
import sys

import pytest

from mirror.bind.config import ConfigError, binding_spec
from mirror.judge.ulps import ulp
from mirror.product.pipeline import CheckSettings, run
from tests.mirror.conftest import ROOT

KERNELS = ROOT / "tests" / "fixtures" / "kernels"
SETTINGS = CheckSettings(max_examples=60, sweep=128)

PAIRS = ["softmax", "logsumexp", "variance", "log1p", "normalize", "gateRatio", "total",
         "prefixSum", "causalSoftmax", "rope", "geluTanh", "rmsNorm"]
FAST = ["softmax", "variance", "log1p", "normalize"]
THEOREMS = ["clippedRelu_le", "softmax_nonneg", "softmax_le_one", "variance_nonneg",
            "total_nonneg"]


def _rows(names: list[str]) -> dict:
    sys.path.insert(0, str(KERNELS / "python"))
    try:
        result = run(KERNELS, method="scanner", settings=SETTINGS, select=names)
    finally:
        sys.path.remove(str(KERNELS / "python"))
    return {r.name.removeprefix("Kernels."): r for r in result.results}


def _conformance(pairs: list[str]) -> list[str]:
    return [f"Kernels.{p}{s}.conformance" for p in pairs for s in ("", "Naive")]


@pytest.fixture(scope="module")
def fast_rows():
    return _rows(_conformance(FAST) + ["Kernels.clippedRelu_lt"])


def _check_pair(rows: dict, pair: str) -> None:
    bug, twin = rows[f"{pair}Naive.conformance"], rows[f"{pair}.conformance"]
    assert bug.mirror_status == "refuted", (pair, bug.mirror_status, bug.reason, bug.method)
    assert "ulps" in bug.reason and bug.counterexample is not None
    assert bug.accuracy and bug.accuracy[-1]["worst"] == bug.counterexample
    assert twin.mirror_status == "tested", (pair, twin.reason, twin.counterexample)
    for profile in twin.accuracy:
        assert profile["examples"] > 0
        assert math.isfinite(profile["max_ulps"]) and profile["worst"] is not None
    assert "ulps" in twin.method and "drawn with sizes" in twin.method


@pytest.mark.parametrize("pair", FAST)
def test_bug_refuted_twin_tested(fast_rows, pair):
    _check_pair(fast_rows, pair)


def test_naive_softmax_returns_nan_beside_lean_value(fast_rows):
    row = fast_rows["softmaxNaive.conformance"]
    assert "returned nan where Lean's value is" in row.reason
    # shrunk: one logit past exp's overflow (inf / inf) or underflow (0 / 0)
    x = row.counterexample["x"]
    assert row.counterexample["n"] == 1 and (x[0] > 709.78 or x[0] < -745.13)


def test_log1p_of_tiny_x_is_refuted_no_normwise_comparison(fast_rows):
    """|a − b| / max(1, |a|, |b|) would pass log(1 + 1e-17) = 0: relative error 1 is refuted."""
    row = fast_rows["log1pNaive.conformance"]
    assert abs(row.counterexample["x"]) < 1e-8
    assert "relative 1," in row.reason


def test_false_theorem_over_a_kernel_is_refuted_as_false_statement(fast_rows):
    row = fast_rows["clippedRelu_lt"]
    assert row.mirror_status == "refuted", (row.reason, row.method)
    assert "Lean's own definition violates it" in row.reason
    assert row.counterexample["x"] >= row.counterexample["c"] or row.counterexample["c"] <= 0


def test_true_theorems_over_correct_kernels_are_not_refuted():
    rows = _rows([f"Kernels.{t}" for t in THEOREMS])
    for name in THEOREMS:
        assert rows[name].mirror_status in ("tested", "symbolic"), (name, rows[name].reason)


@pytest.mark.slow
def test_the_whole_planted_suite():
    rows = _rows(_conformance(PAIRS))
    for pair in PAIRS:
        _check_pair(rows, pair)


def test_ulp_in_each_dtype():
    assert ulp(1, "float64") == 2.0 ** -52
    assert ulp(0, "float32") == 2.0 ** -149
    assert ulp(1, "bfloat16") == 2.0 ** -7
    assert ulp(3.0, "float16") == 2.0 ** -9
    assert ulp(1e-310, "float64") == 2.0 ** -1074


@pytest.mark.parametrize("entry, fragment", [
    ({"impl": "m:f", "dtypes": ["float128"]}, "dtypes: got 'float128'; expected one of"),
    ({"impl": "m:f", "ulps": -1}, "ulps: got -1; expected a positive number"),
    ({"impl": "m:f", "sizes": "8..2"}, "sizes: got '8..2'; expected sizes such as"),
    ({"impl": "m:f", "magnitude": "huge"}, "magnitude: got 'huge'; expected one of wide"),
    ({"impl": "m:f", "reference": "torch"}, "reference: got 'torch'; expected"),
])
def test_profile_keys_are_validated(entry, fragment):
    with pytest.raises(ConfigError) as err:
        binding_spec("K.f", entry, "leanmirror.toml")
    assert fragment in str(err.value) and "\n" not in str(err.value)


def test_profile_keys_are_read():
    spec = binding_spec("K.f", {"impl": "m:f", "dtypes": ["float32", "bfloat16"], "ulps": 8,
                                "sizes": "0..64", "reference": "m:g", "k": 3}, "here")
    profile = spec.profile
    assert profile.dtypes == ("float32", "bfloat16") and profile.budget_ulps("float32") == 8
    assert profile.size_range(False) == (0, 64) and profile.reference == "m:g"
    assert profile.k == 3


def test_nan_outputs_are_the_kernels_fault_not_rejections_by_absent_hypotheses():
    rows = _rows(["Kernels.reluBroken.conformance", "Kernels.reluBroken_nonneg"])
    conformance = rows["reluBroken.conformance"]
    assert conformance.mirror_status == "refuted"
    assert "returned nan where Lean's value is" in conformance.reason
    theorem = rows["reluBroken_nonneg"]
    assert theorem.mirror_status == "inconclusive"
    assert "rejected by the hypotheses" not in theorem.reason
    assert "where a bound kernel returned NaN or ±∞" in theorem.reason
