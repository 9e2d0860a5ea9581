"""Certificate version 4: the three refutations version 3 could not certify, on the fixture
project ``tests/judge/fixtures/certs`` (false statements planted on purpose).

- a refutation found by unfolding a recurrence (``∀ n, s (n + 2) = s (n + 1) + s n``): the
  checker decides the ``∀ n`` from the drawn prefix and the statement itself
  (:mod:`mirror.judge.checker_recurrence`);
- a complex kernel's conformance row (:mod:`mirror.judge.checker_complex`);
- a theorem over a bound kernel refuted because the kernel is wrong
  (:mod:`mirror.judge.checker_observed`).

Each is accepted as emitted, and rejected once tampered with. On the base code (2c65b97) the
three rows carry no accepted certificate ("stated undecided", "no certificate: a complex
kernel output", "the conclusion is stated true").
"""

from __future__ import annotations

import copy
import sys
from fractions import Fraction

import pytest
import sympy as sp

from mirror.judge.checker import CheckerError
from mirror.judge.checker_complex import distance, modulus
from mirror.judge.checker_recurrence import read_shape
from mirror.product.pipeline import CheckSettings, build_mirrors, extract_project, run
from mirror.product.replay import check_certificate, rerun_kernel
from mirror.translate import big_operators, integers, vocabulary
from mirror.translate.values import NAT_DOMAIN
from tests.mirror.conftest import ROOT

CERTS = ROOT / "tests" / "judge" / "fixtures" / "certs"
RECURRENCES = ["Certs.fib_real_false", "Certs.fib_free_false", "Certs.doubling_nat_false"]
NAMES = RECURRENCES + ["Certs.double_le", "Certs.phase.conformance"]


@pytest.fixture(scope="module")
def rows():
    sys.path.insert(0, str(CERTS / "python"))
    try:
        results = run(CERTS, method="scanner",
                      settings=CheckSettings(max_examples=60, sweep=128), select=NAMES).results
        mirrors = {m.name: m for m in build_mirrors(extract_project(CERTS, "scanner"))
                   if m.name in NAMES}
        yield {r.name: (mirrors[r.name], r) for r in results}
    finally:
        sys.path.remove(str(CERTS / "python"))


def _certified(rows, name: str, kind: str) -> dict:
    """The row's certificate: of ``kind`` at version 4, and accepted (as emitted and again)."""
    mirror, row = rows[name]
    assert row.mirror_status == "refuted", row.reason
    certificate = row.certificate
    assert (certificate.get("kind"), certificate.get("version")) == (kind, 4), certificate
    assert certificate["checked"].startswith("accepted"), certificate["checked"]
    assert check_certificate(mirror, certificate).accepted
    return certificate


def _tampered(mirror, certificate, change) -> str:
    copied = copy.deepcopy(certificate)
    copied.pop("checked", None)
    change(copied)
    verdict = check_certificate(mirror, copied)
    assert not verdict.accepted, (change.__name__, verdict.reason)
    return verdict.reason


# ---- recurrences --------------------------------------------------------------------------


@pytest.mark.parametrize("name", RECURRENCES)
def test_a_recurrence_refutation_is_certified_and_accepted(rows, name):
    certificate = _certified(rows, name, "recurrence")
    assert certificate["recurrences"][0]["hypothesis"] == "h"
    assert "holds for every n" in certificate["checked"]


def test_the_recurrence_certificate_carries_the_exact_prefix(rows):
    assert rows["Certs.fib_real_false"][1].certificate["draw"] == {
        "s": ["1", "1", "2", "3", "5", "8"]}
    # the free first value solved from s 4 = 7: s 1 = 5/3, exactly
    assert rows["Certs.fib_free_false"][1].certificate["draw"] == {
        "s": ["1", "5/3", "8/3", "13/3", "7"]}
    assert rows["Certs.doubling_nat_false"][1].certificate["draw"] == {
        "t": ["2", "5", "11", "23", "47"]}


def _prefix_value(c):
    c["draw"]["s"][3] = "4"  # s 3 ≠ s 2 + s 1: the prefix breaks the recurrence


def _prefix_short(c):
    c["draw"]["s"] = c["draw"]["s"][:-1]  # s 5 is no longer drawn


def _prefix_conclusion(c):
    c["draw"]["s"][5] = "9"  # the conclusion would hold — and the recurrence fails


def _no_recurrences(c):
    del c["recurrences"]


def _plain_kind(c):
    c["kind"] = "statement"  # the ∀ n is then a truncated quantifier: undecided


def _other_hypothesis(c):
    c["recurrences"][0]["hypothesis"] = "h₀"


def _other_sequence(c):
    c["recurrences"][0]["sequence"] = "t"


def _twice(c):
    c["recurrences"].append(dict(c["recurrences"][0]))


def _version_3(c):
    c["version"] = 3


def _moved_enclosure(c):
    c["conclusion"]["relations"][0]["difference"]["mid"] = "5"


@pytest.mark.parametrize("change", [_prefix_value, _prefix_short, _prefix_conclusion,
                                    _no_recurrences, _plain_kind, _other_hypothesis,
                                    _other_sequence, _twice, _version_3, _moved_enclosure])
def test_a_tampered_recurrence_certificate_is_rejected(rows, change):
    mirror, row = rows["Certs.fib_real_false"]
    _tampered(mirror, row.certificate, change)


def test_a_nat_recurrence_with_a_wrong_term_is_rejected(rows):
    mirror, row = rows["Certs.doubling_nat_false"]

    def wrong_term(c):
        c["draw"]["t"][2] = "12"

    assert "is false at the draw" in _tampered(mirror, row.certificate, wrong_term)


N, S = sp.Symbol("n", integer=True, nonnegative=True), sp.Symbol("s")
X = sp.Symbol("x", real=True)


def _forall(body):
    return big_operators.FinAll(sp.Lambda(N, body), 0, NAT_DOMAIN)


def _s(position):
    return vocabulary.Index(S, position)


def test_the_checker_reads_only_recurrences_solvable_for_their_top_term():
    fib = sp.Eq(_s(N + 2), _s(N + 1) + _s(N))
    assert read_shape(_forall(fib), S, "Real", set()).top == 2
    # affine in the top term with a rational coefficient: 3 s (n + 1) - s n = x
    assert read_shape(_forall(sp.Eq(3 * _s(N + 1) - _s(N), X)), S, "Rat", {X}).top == 1
    # with a guard and a truncated read: 2 ≤ n → s n = s (n - 1) + s (n - 2)
    guarded = sp.Implies(sp.Le(2, N), sp.Eq(_s(N), _s(integers.NatSub(N, 1))
                                            + _s(integers.NatSub(N, 2))))
    assert read_shape(_forall(guarded), S, "Real", set()).top == 0
    refused = [
        (sp.Eq(_s(N + 1) ** 2, _s(N)), "Real", set()),  # s (n + 1)² = s n: no real root
        (sp.Eq(X * _s(N + 1), _s(N)), "Real", {X}),  # the coefficient may be 0
        (sp.Eq(_s(N + 1), 2 * _s(N + 1) - _s(N + 1) + _s(N)), "Real", set()),  # coefficient 0
        (sp.Eq(2 * _s(N + 1), _s(N)), "Int", set()),  # over ℤ, s n may be odd
        (sp.Eq(_s(N + 1), _s(N) + X), "Real", set()),  # x is not a drawn scalar
        (sp.Eq(_s(N + 1), _s(2 * N)), "Real", set()),  # a read at 2 n
        (sp.Eq(_s(N + 1), _s(N) + 1), "NNReal", set()),  # a codomain it does not solve in
    ]
    for body, kind, scalars in refused:
        with pytest.raises(CheckerError):
            read_shape(_forall(body), S, kind, scalars)
    premise = sp.Implies(sp.Lt(0, _s(N)), sp.Eq(_s(N + 1), _s(N)))
    with pytest.raises(CheckerError, match="premise"):
        read_shape(_forall(premise), S, "Real", set())


T = sp.Symbol("t")


def _t(position):
    return vocabulary.Index(T, position)


def test_the_checker_reads_another_named_sequence_only_below_the_top():
    # a (n + 1) = a n - t n: t read at n < n + 1, and t's own recurrence is named too
    rotation = sp.Eq(_s(N + 1), _s(N) - _t(N))
    assert read_shape(_forall(rotation), S, "Real", set(), frozenset({S, T})).top == 1
    truncated = sp.Eq(_s(N + 1), _s(N) + _t(integers.NatSub(N, 1)))
    assert read_shape(_forall(truncated), S, "Real", set(), frozenset({S, T})).top == 1
    with pytest.raises(CheckerError, match="not a drawn scalar"):  # t's recurrence not named
        read_shape(_forall(rotation), S, "Real", set())
    with pytest.raises(CheckerError, match="below the top"):  # t (n + 1) is not defined yet
        read_shape(_forall(sp.Eq(_s(N + 1), _s(N) + _t(N + 1))), S, "Real", set(),
                   frozenset({S, T}))
    with pytest.raises(CheckerError, match="is not t \(n \+ j\)"):  # t (2 n)
        read_shape(_forall(sp.Eq(_s(N + 1), _s(N) + _t(2 * N))), S, "Real", set(),
                   frozenset({S, T}))


# ---- a complex kernel's conformance row ---------------------------------------------------


def test_a_complex_kernel_row_is_certified_and_accepted(rows):
    certificate = _certified(rows, "Certs.phase.conformance", "conformance")
    value = certificate["output"]["values"][0]
    assert set(value) == {"re", "im"} and Fraction(value["im"]) < 0  # the conjugate
    assert set(certificate["lean"]["enclosures"][0]) == {"re", "im"}
    assert "complex value" in certificate["checked"]


def _conjugated_back(c):
    value = c["output"]["values"][0]
    value["im"] = str(-Fraction(value["im"]))  # the kernel's output made right


def _nan_lane(c):
    c["output"]["values"][0]["re"] = "nan"


def _lean_im(c):
    c["lean"]["enclosures"][0]["im"]["mid"] = str(-Fraction(c["lean"]["enclosures"][0]["im"]
                                                            ["mid"]))


def _complex_v3(c):
    c["version"] = 3


def _complex_budget(c):
    c["budget"]["ulps"] = str(10 ** 17)


def _inf_lane(c):
    c["output"]["values"][0]["im"] = "inf"


@pytest.mark.parametrize("change", [_conjugated_back, _lean_im, _complex_budget, _complex_v3])
def test_a_tampered_complex_certificate_is_rejected(rows, change):
    mirror, row = rows["Certs.phase.conformance"]
    _tampered(mirror, row.certificate, change)


def test_nonfinite_lanes_of_a_complex_output_follow_the_judges_rules(rows):
    mirror, row = rows["Certs.phase.conformance"]
    for change in (_nan_lane, _inf_lane):
        copied = copy.deepcopy(row.certificate)
        change(copied)
        verdict = check_certificate(mirror, copied)
        # a NaN lane, or ∞ where Lean's lane is within range, is a failure: still refuted
        assert verdict.accepted, verdict.reason
        assert ("nan" if change is _nan_lane else "within the float64 range") in verdict.reason


def test_the_complex_distance_bounds_enclose_the_modulus():
    box = ((Fraction(3), Fraction(3)), (Fraction(4), Fraction(4)))
    low, high = modulus(box)
    assert low <= 5 <= high and high - low < Fraction(1, 10 ** 20)
    near, far = distance((Fraction(0), Fraction(0)),
                         ((Fraction(1), Fraction(2)), (Fraction(-1), Fraction(1))))
    assert near <= 1 <= near + Fraction(1, 10 ** 20)
    assert far * far >= 5 and far - Fraction(2237, 1000) < 0  # √5, from above


# ---- a theorem over a wrong kernel --------------------------------------------------------


def test_a_theorem_refuted_because_the_kernel_is_wrong_is_certified(rows):
    assert "the kernel is wrong" in rows["Certs.double_le"][1].reason
    certificate = _certified(rows, "Certs.double_le", "kernel-output")
    (observation,) = certificate["observations"]
    assert observation["call"] == "Certs.double"
    x = Fraction(certificate["draw"]["x"])
    assert observation["arguments"] == [str(x)] and Fraction(observation["output"]) == 2 * x + 1
    assert certificate["lean"]["decision"] == "true"
    assert "the kernel is wrong" in certificate["checked"]


def _output_right(c):
    x = Fraction(c["draw"]["x"])
    c["observations"][0]["output"] = str(2 * x)


def _output_slightly_off(c):
    # within the tolerance of a value that satisfies the statement: rounding, not a bug
    x = Fraction(c["draw"]["x"])
    c["observations"][0]["output"] = str(2 * x + Fraction(1, 2) + Fraction(1, 10 ** 12))


def _arguments_moved(c):
    c["observations"][0]["arguments"] = [str(Fraction(c["draw"]["x"]) + 1)]


def _call_renamed(c):
    c["observations"][0]["call"] = "Certs.other"


def _nan_output(c):
    c["observations"][0]["output"] = "nan"


def _tolerance(c):
    c["tolerance"] = "1"


def _lean_false(c):
    c["lean"]["decision"] = "false"


def _observed_v3(c):
    c["version"] = 3


@pytest.mark.parametrize("change", [_output_right, _output_slightly_off, _arguments_moved,
                                    _call_renamed, _nan_output, _tolerance, _lean_false,
                                    _observed_v3])
def test_a_tampered_kernel_output_certificate_is_rejected(rows, change):
    mirror, row = rows["Certs.double_le"]
    _tampered(mirror, row.certificate, change)


def test_run_kernel_confirms_the_observations(rows):
    mirror, row = rows["Certs.double_le"]
    sys.path.insert(0, str(CERTS / "python"))
    try:
        confirmed, line = rerun_kernel(mirror, row.certificate)
        assert confirmed, line
        wrong = copy.deepcopy(row.certificate)
        wrong["observations"][0]["output"] = "7"
        confirmed, line = rerun_kernel(mirror, wrong)
        assert not confirmed and "not the recorded" in line
    finally:
        sys.path.remove(str(CERTS / "python"))


def test_a_plain_certificate_does_not_evaluate_a_bound_call(rows):
    mirror, row = rows["Certs.double_le"]
    plain = copy.deepcopy(row.certificate)
    plain["kind"] = "statement"
    assert not check_certificate(mirror, plain).accepted
