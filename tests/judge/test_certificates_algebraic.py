"""Certificate version 3, algebraic points: a refutation at an irrational solution of the
hypotheses (``x = -√2``) carries the point exactly — an integer polynomial and an isolating
interval — and the checker verifies the root itself (squarefree, Sturm's count), decides
the equation hypothesis exactly (never from a ball containing 0) and the conclusion with
balls; tampering with the polynomial or the interval is rejected."""

from __future__ import annotations

import copy

import pytest

from mirror.judge.certificate import VERSION
from mirror.product.replay import check_certificate
from tests.judge.conftest import checked_rows

SOURCE = """
theorem irrational_false (x : ℝ) (h : x ^ 2 = 2) : 0 < x := by sorry
theorem cubic_false (x : ℝ) (h : x ^ 3 = 2) : x < 1 := by sorry
"""


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    return checked_rows(tmp_path_factory.mktemp("cert3"), SOURCE)


@pytest.mark.parametrize("name", ["irrational_false", "cubic_false"])
def test_an_irrational_solution_is_certified_and_accepted(rows, name):
    mirror, row = rows[name]
    assert row.mirror_status == "refuted", row.reason
    assert row.certificate["version"] == VERSION
    assert "algebraic" in row.certificate["draw"]["x"], row.certificate["draw"]
    assert row.certificate["checked"].startswith("accepted"), row.certificate["checked"]
    assert check_certificate(mirror, row.certificate).accepted


def test_the_point_is_written_as_its_minimal_polynomial(rows):
    _, row = rows["irrational_false"]
    point = row.certificate["draw"]["x"]["algebraic"]
    assert point["polynomial"] == ["1", "0", "-2"]
    low, high = (float(eval_fraction(e)) for e in point["interval"])
    assert low < -2 ** 0.5 < high < 0
    equation = row.certificate["hypotheses"][0]["relations"][0]
    assert equation["difference"] == {"mid": "0", "rad": "0"}  # exactly, not a ball


def eval_fraction(text):
    from fractions import Fraction

    return Fraction(text)


def _with_point(certificate, polynomial=None, interval=None, version=None):
    copied = copy.deepcopy(certificate)
    point = copied["draw"]["x"]["algebraic"]
    if polynomial is not None:
        point["polynomial"] = polynomial
    if interval is not None:
        point["interval"] = interval
    if version is not None:
        copied["version"] = version
    return copied


@pytest.mark.parametrize("change, reason", [
    (dict(interval=["-2", "2"]), "2 roots"),                       # both roots of x² − 2
    (dict(interval=["1", "2"]), "conclusion is true"),             # the positive root
    (dict(interval=["-1", "0"]), "0 roots"),                       # no root at all
    (dict(polynomial=["1", "0", "-4", "0", "4"]), "not squarefree"),  # (x² − 2)²
    (dict(polynomial=["1", "0", "-3"], interval=["-2", "-3/2"]), "hypothesis h is false"),  # −√3
    (dict(polynomial=["1", "1", "-2"], interval=["-2", "0"]), "an end of the interval"),
    (dict(polynomial=["1/2", "0", "-1"]), "integers"),
    (dict(version=2), "draw x"),                                   # version 2 has no such form
])
def test_tampering_with_the_algebraic_point_is_rejected(rows, change, reason):
    mirror, row = rows["irrational_false"]
    verdict = check_certificate(mirror, _with_point(row.certificate, **change))
    assert not verdict.accepted
    assert reason in verdict.reason, verdict.reason


def test_an_equation_is_never_decided_by_a_ball_containing_zero(rows):
    """A root of ``10⁴⁰ x² − 2·10⁴⁰ − 1`` differs from ``-√2`` by about 10⁻⁴¹: at 128 bits
    the ball of ``x² − 2`` contains 0, and only an exact argument may call it 0. The
    remainder modulo that polynomial is not 0, so the balls rise until they exclude 0 and
    the hypothesis is false."""
    mirror, row = rows["irrational_false"]
    scale = 10 ** 40
    tampered = _with_point(row.certificate, polynomial=[str(scale), "0", str(-2 * scale - 1)],
                           interval=["-3/2", "-1"])
    verdict = check_certificate(mirror, tampered)
    assert not verdict.accepted and "hypothesis h is false" in verdict.reason, verdict.reason
