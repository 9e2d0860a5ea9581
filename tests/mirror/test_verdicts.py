"""Verdicts are claims: each statement of the verdict-trap fixture gets the right one.

The fixture (`tests/fixtures/projects/verdicts`) holds ordinary statements on which leanmirror
once crashed or answered wrongly; its docstrings say why each verdict is right.
"""

from __future__ import annotations

import pytest

from tests.mirror.conftest import PROJECTS, results_by_name

VERDICTS = PROJECTS / "verdicts"

PROVED_OR_TESTED = ("symbolic", "certified", "tested")  # certified: on a bounded box


@pytest.fixture(scope="module")
def verdicts():
    return results_by_name(VERDICTS)


@pytest.mark.parametrize(
    "name, expected",
    [
        ("gauss_sum", PROVED_OR_TESTED),
        ("exp_sum_pos", PROVED_OR_TESTED),
        ("exp_sum_lt_succ", PROVED_OR_TESTED),
        ("distrib_strict", ("refuted",)),
        ("big_cancel", PROVED_OR_TESTED),
        ("rpow_congr", PROVED_OR_TESTED),
        ("primes_differ", PROVED_OR_TESTED),
        ("nnreal_sub_add", ("refuted",)),
        ("nnreal_nonneg", PROVED_OR_TESTED),
        ("nnreal_sub_eq_zero", PROVED_OR_TESTED),
        ("tan_pi_div_two'", PROVED_OR_TESTED),
        ("exp_mul_exp_neg", PROVED_OR_TESTED),
        ("sin_sq_add_cos_sq_lt", ("refuted",)),
        ("exp_neg_hundred", ("refuted",)),
    ],
)
def test_each_trap_gets_the_right_verdict(verdicts, name, expected):
    result = verdicts[name]
    assert result.mirror_status in expected, (result.mirror_status, result.reason,
                                              result.counterexample, result.method)


def test_every_theorem_has_a_row_and_none_is_an_error(verdicts):
    assert len(verdicts) == 14
    errors = {n: r.reason for n, r in verdicts.items() if r.mirror_status == "error"}
    assert errors == {}


def test_a_strict_relation_that_holds_with_equality_is_refuted_exactly(verdicts):
    result = verdicts["distrib_strict"]
    assert "exact rational arithmetic" in result.reason
    x, y, z = (result.counterexample[k] for k in ("x", "y", "z"))
    assert (x + y) * z == x * z + y * z


def test_counterexamples_are_decided_rigorously_and_certified(verdicts):
    for name in ("sin_sq_add_cos_sq_lt", "exp_neg_hundred", "distrib_strict"):
        result = verdicts[name]
        assert any(method in result.reason for method in (
            "ball arithmetic", "Arb enclosures", "exact rational", "sympy identity",
            "exact evaluation")), \
            result.reason
        # (a refutation of the box search before sampling carries one too)
        assert result.certificate["checked"].startswith("accepted"), result.certificate
