"""The resolvent operator's fast path divides only where no ``exp`` can overflow.

At ``beta = 1`` the default path skips the max shift and divides ``e^{s_ij} / Z_i`` when a
bound on every logit is at most 300 (``_resolvent_eval``). Logits near 760 are past ``exp``'s
overflow at 709.78: the operator must still return the softmax there — finite, against
the values computed in mpmath at 50 digits (to the few ``T · eps`` that rounding a logit of
magnitude ``T`` costs). Raising the bound to 3000 makes the fast path
return NaN for these inputs; this test is the one that notices.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from mirror.bundled.impl.resolvent import SOFTMAX, operator


def _softmax_rows(logits: np.ndarray) -> np.ndarray:
    """Causal row softmax of ``logits`` in mpmath (50 digits), rounded to float64."""
    ctx = mpmath.mp.clone()
    ctx.dps = 50
    n = logits.shape[0]
    out = np.zeros((n, n))
    for i in range(n):
        row = [ctx.exp(ctx.mpf(float(v))) for v in logits[i, : i + 1]]
        total = ctx.fsum(row)
        out[i, : i + 1] = [float(v / total) for v in row]
    return out


@pytest.mark.parametrize("top", [709.0, 712.0, 760.0, 1500.0, 2999.0])
@pytest.mark.parametrize("exact_order", [False, True])
def test_logits_past_exp_overflow_still_give_the_softmax(top, exact_order):
    n = 6
    q = (top - 0.25 * np.arange(n))[:, None]  # logits q_i k_j / sqrt(1), k_j = 1
    k = np.ones((n, 1))
    w = operator(q, k, np.ones(n), np.zeros(n), SOFTMAX, exact_order=exact_order)
    assert np.isfinite(w.real).all() and np.isfinite(w.imag).all()
    expected = _softmax_rows(q @ k.T)
    # the log-domain path rounds M_i - log Z_i at the logits' magnitude: T eps relative
    assert np.allclose(w.real, expected, rtol=4 * top * np.finfo(float).eps, atol=0)
    assert np.all(w.imag == 0)
