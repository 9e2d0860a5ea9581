"""The ball path's fast paths give what the general paths give: one draw's maps without a
ufunc, the enclosure's text by shifts, one real draw lifted without the loop, the batch of
one draw without ``np.stack``, shared read-only truths of a relation's outcome, and one
stacked draw reused (as copies) by every precision of a decision."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from flint import arb, ctx, fmpq

from mirror.evaluate.ball_runtime import BallRuntime
from mirror.evaluate.balls import DYADIC_EXPONENT_LIMIT, _dyadic, each, working_precision
from mirror.judge.exact import UNDECIDED, as_batch, decide
from mirror.sample.strategies import stack


def _pair(x, y):
    return (x, y)


@pytest.mark.parametrize("a, b", [
    (np.asarray(3, dtype=object), np.asarray(fmpq(1, 2), dtype=object)),
    (np.array([3], dtype=object), np.asarray(fmpq(1, 2), dtype=object)),
    (np.asarray(3, dtype=object), np.array([fmpq(1, 2)], dtype=object)),
    (np.array([3], dtype=object), np.array([4], dtype=object)),
    (np.array([1, 2], dtype=object), np.array([4], dtype=object)),
    (np.array([[1, 2, 3]], dtype=object), np.asarray(5, dtype=object)),
    (2, [7]),
])
def test_each_is_the_ufunc_on_every_shape(a, b):
    fast, slow = each(_pair, a, b), np.frompyfunc(_pair, 2, 1)(np.asarray(a, dtype=object),
                                                             np.asarray(b, dtype=object))
    assert type(fast) is type(slow)  # a scalar for scalars, an array otherwise
    if isinstance(slow, np.ndarray):
        assert fast.shape == slow.shape and fast.dtype == object
        assert list(fast.reshape(-1)) == list(slow.reshape(-1))
    else:
        assert fast == slow


def test_each_keeps_an_array_valued_cell():
    out = each(lambda v: np.array([v, v]), np.array([1], dtype=object))
    assert out.shape == (1,) and np.array_equal(out[0], [1, 1])


def _fraction_text(value: arb) -> str:
    mantissa, exponent = (int(v) for v in value.man_exp())
    if abs(exponent) > DYADIC_EXPONENT_LIMIT:
        return f"{mantissa}*2^{exponent}"
    return str(Fraction(mantissa) * Fraction(2) ** exponent)


def test_the_dyadic_text_is_the_rational_in_lowest_terms():
    rng = random.Random(7)
    values = [arb(0), arb(1), arb(-12), arb(0.375), arb(-0.75), arb(2) ** 4096,
              arb(2) ** 4097, arb(2) ** -4096, arb(2) ** -4097, arb(3) * arb(2) ** -4096]
    for _ in range(3000):
        mantissa = rng.randint(-2 ** 70, 2 ** 70) << rng.randint(0, 12)
        values.append(arb(mantissa) * arb(2) ** rng.randint(-4400, 4400))
    for bits in (53, 200):
        with working_precision(bits):
            for value in values:
                for part in (value.mid(), value.rad(), (value / 3).rad(), (value / 3).mid()):
                    assert _dyadic(part) == _fraction_text(part)


@pytest.mark.parametrize("x", [1.5, -0.1, 0.0, -0.0, 5e-324, 1.7e308, np.inf, -np.inf, np.nan])
def test_one_real_draw_is_lifted_as_in_an_array(x):
    rt = BallRuntime(8)
    one = rt.lift(np.array([x]))[0]
    several = rt.lift(np.array([x, 2.0]))[0]
    assert type(one) is type(several)
    if isinstance(one, fmpq):
        assert one == several == fmpq(*float(x).as_integer_ratio())
    else:
        assert one.is_nan() == several.is_nan() and (one.is_nan() or one == several)


@pytest.mark.parametrize("value", [np.float64(1.5), 3, True, 1 + 2j, np.float32(0.1),
                                   np.array([1.0, 2.0]), [[1, 2], [3, 4]], np.array(5.0)])
def test_the_batch_of_one_draw_is_what_stack_makes(value):
    plan = {"variables": [{"name": "x", "param": "v_x"}]}
    example = {"x": value}
    fast, slow = as_batch(example, plan)["v_x"], stack([example], plan)["v_x"]
    assert fast.dtype == slow.dtype and fast.shape == slow.shape
    assert np.array_equal(fast, slow) and fast.flags.owndata
    if isinstance(value, np.ndarray):
        assert not np.shares_memory(fast, value)


def test_a_relation_outcome_is_shared_and_read_only():
    rt = BallRuntime(8)
    first, second = rt.lt(0, rt.lift(np.array([1.0]))), rt.lt(0, rt.lift(np.array([2.0])))
    assert first is second and bool(first.ok[0]) and bool(first.sure[0])
    for part in ("ok", "exact", "err", "sure", "known"):
        with pytest.raises(ValueError):
            getattr(first, part)[0] = False
    failed = rt.lt(rt.lift(np.array([2.0])), 1)
    assert failed is not first and not failed.ok[0] and failed.err[0] == np.inf
    # the trace stays the runtime's own, one entry per relation
    assert [e["decision"] for e in rt.trace] == ["true", "true", "false"]
    assert BallRuntime(8).trace == []


def test_every_precision_sees_the_draw_not_what_an_earlier_one_wrote():
    """The draw is stacked once per decision; a property that writes into its arguments (a
    boolean one is passed as it is lifted: the array itself) does not change what the next
    precision evaluates."""
    seen = []
    plan = {"settings": {"nat_domain": 8},
            "variables": [{"name": "x", "param": "v_x"}, {"name": "b", "param": "v_b"}]}

    def scribbler(rt, v_x, v_b):
        seen.append((ctx.prec, v_x[0], bool(v_b[0])))
        v_x[0], v_b[0] = 99, False
        # exactly 0 but never by a ball, and sympy has no ℝ≥0∞: undecided at every precision
        return rt.truth(True), rt.eq(rt.enn_to_real(rt.exp(v_x)) - rt.exp(v_x), 0)

    decision = decide(scribbler, plan, {"x": np.float64(0.25), "b": np.bool_(True)})
    assert decision.verdict == UNDECIDED
    assert len({bits for bits, _, _ in seen}) >= 2  # the precision rose
    assert len(seen) >= 3
    assert [(Fraction(str(x)), b) for _, x, b in seen] == [(Fraction(1, 4), True)] * len(seen)


PLAN = {"settings": {"nat_domain": 8}, "variables": [{"name": "x", "param": "v_x"}]}


def test_a_decision_repeated_is_the_same_decision():
    def bound(rt, v_x):
        return rt.lt(0, v_x), rt.le(rt.log(v_x), v_x - 1)

    for x in (0.5, 3.0, -2.0, 1e-300):
        first, second = (decide(bound, PLAN, {"x": np.float64(x)}) for _ in range(2))
        assert first == second and first.trace == second.trace
