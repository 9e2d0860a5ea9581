"""The resolvent fractional-power layer against scipy/eigh, the Lean facts it mirrors, refusals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.linalg import fractional_matrix_power

from bridge.errors import InvalidArgument, LeanMirrorError
from mirror.bundled.impl.fractional import (
    AccretiveParams,
    BoundsScheduler,
    SolveFailure,
    batched_gmres,
    eigh_fractional_power,
    estimate_bounds,
    fractional_apply,
    fractional_power_reference,
    linear_block,
    matched_ranks,
    symmetric_block,
)
from mirror.bundled.impl.quadrature import build_rule, scalar_error


def _rule(params: AccretiveParams, r: float, m: int = 16, placement: str = "rational"):
    low, high = estimate_bounds(params.S, skew=params.K)
    return build_rule(placement, r, m, low, high)


def _error_bound(A: np.ndarray, rule) -> float:
    """‖R(A) − A^r‖₂ ≤ cond(V) · max_μ |R(μ) − μ^r| for diagonalizable A = V diag(μ) V⁻¹."""
    mu, vecs = np.linalg.eig(A)
    scalar = np.max(np.abs(rule.evaluate(mu) - mu.astype(complex) ** rule.r))
    return float(np.linalg.cond(vecs) * scalar)


# ----------------------------------------------------------------------------- Lean facts


@settings(max_examples=25, deadline=None)
@given(
    d=st.integers(1, 12),
    q=st.integers(0, 12),
    delta=st.floats(1e-3, 10.0),
    seed=st.integers(0, 2**16),
)
def test_accretive_structure(d: int, q: int, delta: float, seed: int) -> None:
    """S = LLᵀ + δI is positive definite; K is skew; sym(A) = S; xᵀAx = xᵀSx > 0."""
    params = AccretiveParams.random(d, q, delta=delta, skew=2.0, seed=seed)
    S, K, A = params.S, params.K, params.A
    assert np.array_equal(K, -K.T)
    assert np.allclose((A + A.T) / 2, S, rtol=1e-12, atol=1e-12)
    assert np.linalg.eigvalsh(S)[0] >= delta * (1 - 1e-9)
    x = np.random.default_rng(seed).standard_normal((5, d))
    quad_a = np.einsum("bi,ij,bj->b", x, A, x)
    quad_s = np.einsum("bi,ij,bj->b", x, S, x)
    assert np.allclose(quad_a, quad_s, rtol=1e-10, atol=1e-12)
    assert np.all(quad_s > 0)
    # spectral facts: every eigenvalue μ of A has Re μ in [λmin S, λmax S], |Im μ| ≤ ‖K‖
    mu = np.linalg.eigvals(A)
    s = np.linalg.eigvalsh(S)
    tol = 1e-9 * max(1.0, s[-1])
    assert np.all(mu.real >= s[0] - tol) and np.all(mu.real <= s[-1] + tol)
    assert np.all(np.abs(mu.imag) <= np.linalg.norm(K, 2) + tol)


@pytest.mark.parametrize("r", [0.25, 0.5, 0.75])
@pytest.mark.parametrize("d", [8, 48])
def test_layer_matches_scipy_fractional_power(r: float, d: int) -> None:
    params = AccretiveParams.random(d, d // 2, delta=0.2, skew=0.5, seed=d)
    X = np.random.default_rng(1).standard_normal((7, d))
    rule = _rule(params, r)
    Y = fractional_apply(X, params, r, rule)
    ref = X @ fractional_power_reference(params.A, r).T
    bound = _error_bound(params.A, rule) * np.linalg.norm(X, 2)
    err = np.linalg.norm(Y - ref, 2)
    assert err <= 2.0 * bound + 1e-10 * np.linalg.norm(ref, 2)
    assert err <= 1e-5 * np.linalg.norm(ref, 2)


@pytest.mark.parametrize("r", [0.3, 0.5])
def test_symmetric_a_matches_eigh(r: float) -> None:
    """With U = 0, A = S and the mixture equals eigh's S^r up to the scalar error on spec(S)."""
    d = 24
    lower = np.random.default_rng(3).standard_normal((d, 6))
    params = AccretiveParams(lower, 0.05, np.zeros((d, d)))
    rule = build_rule("elliptic-fitted", r, 10, *estimate_bounds(params.S))
    X = np.random.default_rng(4).standard_normal((5, d))
    Y = fractional_apply(X, params, r, rule)
    exact = X @ eigh_fractional_power(params.S, r)
    s = np.linalg.eigvalsh(params.S)
    scalar = np.max(np.abs(rule.evaluate(s) - s**r))
    assert np.linalg.norm(Y - exact, 2) <= 1.01 * scalar * np.linalg.norm(X, 2) + 1e-12
    # and the scalar error here is what the held-out table promises
    assert np.max(rule.relative_error(s)) <= 2 * scalar_error(rule)


def test_power_composes() -> None:
    """(A^r) = (A^{r/2})² for accretive A (principal powers)."""
    d, r = 20, 0.6
    params = AccretiveParams.random(d, 10, delta=0.3, skew=0.4, seed=7)
    eye = np.eye(d)
    rule_full, rule_half = _rule(params, r), _rule(params, r / 2)
    full = fractional_apply(eye, params, r, rule_full).T
    half = fractional_apply(eye, params, r / 2, rule_half).T
    # ‖R_r − R_{r/2}²‖ ≤ e_r + 2‖A^{r/2}‖ e_{r/2} + e_{r/2}², e from the eigenvalue bound
    e_full, e_half = _error_bound(params.A, rule_full), _error_bound(params.A, rule_half)
    bound = e_full + 2 * np.linalg.norm(half, 2) * e_half + e_half**2
    assert np.linalg.norm(full - half @ half, 2) <= 1.5 * bound + 1e-12
    assert np.linalg.norm(full - half @ half, 2) <= 1e-5 * np.linalg.norm(full, 2)


def test_operator_form_equals_column_form() -> None:
    d = 16
    params = AccretiveParams.random(d, 8, seed=2)
    rule = _rule(params, 0.5, 12)
    X = np.random.default_rng(0).standard_normal((40, d))  # B > d: operator form
    wide = fractional_apply(X, params, 0.5, rule)
    narrow = np.vstack([fractional_apply(X[i: i + 8], params, 0.5, rule) for i in range(0, 40, 8)])
    assert np.allclose(wide, narrow, rtol=1e-10, atol=1e-12)


def test_eps_shift_equals_shifted_matrix() -> None:
    d = 12
    params = AccretiveParams.random(d, 4, seed=5)
    X = np.random.default_rng(0).standard_normal((3, d))
    low, high = estimate_bounds(params.S)
    rule = build_rule("rational", 0.5, 14, low, high + 1.0)
    shifted = fractional_apply(X, params.A + 0.5 * np.eye(d), 0.5, rule)
    assert np.allclose(fractional_apply(X, params, 0.5, rule, eps=0.5), shifted, atol=1e-12)


# ----------------------------------------------------------------------------- GMRES


def test_batched_gmres_equals_scipy_gmres() -> None:
    """The batched GMRES produces scipy.sparse.linalg.gmres's iterate (same left preconditioner)."""
    d = 30
    params = AccretiveParams.random(d, 10, delta=0.1, skew=1.0, seed=11)
    rule = _rule(params, 0.5, 6)
    X = np.random.default_rng(2).standard_normal((4, d))
    kwargs = dict(method="gmres", gmres_iterations=7, gmres_restarts=2)
    ours = fractional_apply(X, params, 0.5, rule, solver="batched", **kwargs)
    theirs = fractional_apply(X, params, 0.5, rule, solver="scipy", **kwargs)
    assert np.allclose(ours, theirs, rtol=1e-9, atol=1e-11 * np.abs(theirs).max())


def test_gmres_exact_in_one_step_when_symmetric() -> None:
    """With K = 0 the preconditioner is exact: GMRES(1) solves every shift."""
    d = 140
    params = AccretiveParams(np.random.default_rng(0).standard_normal((d, 5)) / 5, 0.2, np.zeros((d, d)))
    X = np.random.default_rng(1).standard_normal((3, d))
    rule = _rule(params, 0.5, 8)
    Y, info = fractional_apply(X, params, 0.5, rule, method="gmres", gmres_iterations=1, return_info=True)
    assert info.residual < 1e-12
    assert np.allclose(Y, fractional_apply(X, params, 0.5, rule, method="direct"), atol=1e-12)


def test_gmres_path_matches_direct_at_d160() -> None:
    d = 160
    params = AccretiveParams.random(d, 40, delta=0.2, skew=0.05, seed=3)
    X = np.random.default_rng(6).standard_normal((6, d))
    rule = _rule(params, 0.5, 12)
    Yg, info = fractional_apply(X, params, 0.5, rule, return_info=True)  # auto → gmres at d > 128
    Yd = fractional_apply(X, params, 0.5, rule, method="direct")
    assert info.method == "gmres" and info.iterations > 0
    assert info.residual < 1e-8
    assert np.linalg.norm(Yg - Yd) <= 1e-6 * np.linalg.norm(Yd)


def test_gmres_residual_report_is_honest() -> None:
    """Too few iterations for a strongly skew A: the reported residual says so."""
    d = 150
    params = AccretiveParams.random(d, 20, delta=0.05, skew=2.0, seed=4)
    X = np.random.default_rng(0).standard_normal((2, d))
    rule = _rule(params, 0.5, 8)
    Yg, info = fractional_apply(X, params, 0.5, rule, method="gmres", gmres_iterations=3, return_info=True)
    Yd = fractional_apply(X, params, 0.5, rule, method="direct")
    assert info.residual > 1e-3
    assert np.linalg.norm(Yg - Yd) > 1e-6 * np.linalg.norm(Yd)


def test_batched_gmres_on_plain_system() -> None:
    rng = np.random.default_rng(0)
    n = 12
    A = np.eye(n) * 3 + rng.standard_normal((n, n)) * 0.3
    b = rng.standard_normal((n, 4))
    x = batched_gmres(lambda z: A @ z, lambda z: z, b, iterations=n)
    assert np.allclose(A @ x, b, atol=1e-10)


# ----------------------------------------------------------------------------- bounds and baselines


def test_estimate_bounds_and_scheduler() -> None:
    params = AccretiveParams.random(10, 3, delta=0.5, seed=0)
    s = np.linalg.eigvalsh(params.S)
    assert estimate_bounds(params.S) == pytest.approx((s[0], s[-1]))
    low, high = estimate_bounds(params.S, margin=2.0, skew=params.K)
    assert low == pytest.approx(s[0] / 2) and high == pytest.approx(2 * (s[-1] + np.linalg.norm(params.K, 2)))
    scheduler = BoundsScheduler(every=3)
    seen = [scheduler.bounds(step, params.S * (1 + step)) for step in range(7)]
    assert scheduler.refreshes == 3  # steps 0, 3, 6
    assert seen[1] == seen[0] and seen[3] != seen[2] and seen[6] != seen[5]


def test_baselines_and_matched_sizes() -> None:
    d = 8
    rng = np.random.default_rng(0)
    X, L = rng.standard_normal((3, d)), rng.standard_normal((d, d))
    S = L @ L.T + 0.1 * np.eye(d)
    P = eigh_fractional_power(S, 0.5)
    assert np.allclose(P @ P, S, atol=1e-10)
    # against an independent matrix power (scipy's Schur-Padé), not our eigh
    for r in (0.5, 0.3):
        power = np.real(fractional_matrix_power(S, r))
        assert np.allclose(symmetric_block(X, L, 0.1, r), X + X @ power, rtol=1e-10, atol=1e-10)
    W = rng.standard_normal((d, d))
    assert np.allclose(linear_block(X, W, np.ones(d)), X + X @ W.T + 1)
    sizes = matched_ranks(64)
    accretive = 64 * sizes["accretive_q"] + 64 * 63 // 2
    assert abs(accretive - sizes["linear"]) <= 32 and sizes["symmetric_q"] * 64 == sizes["linear"]


# ----------------------------------------------------------------------------- refusals


def _good():
    return AccretiveParams.random(6, 3, seed=0)


@pytest.mark.parametrize(
    "call",
    [
        lambda: AccretiveParams(np.full((3, 2), np.nan), 0.1, np.zeros((3, 3))),
        lambda: AccretiveParams(np.ones((3, 2)), 0.1, np.array([[0, np.inf, 0]] * 3)),
        lambda: AccretiveParams(np.ones((3, 2)), 0.0, np.zeros((3, 3))),
        lambda: AccretiveParams(np.ones((3, 2)), float("nan"), np.zeros((3, 3))),
        lambda: AccretiveParams(np.ones((3, 2)), 0.1, np.zeros((4, 4))),
        lambda: fractional_apply(np.ones((2, 6)), _good(), 0.0, "rational"),
        lambda: fractional_apply(np.ones((2, 6)), _good(), 1.0, "rational"),
        lambda: fractional_apply(np.ones((2, 6)), _good(), -0.5, "rational"),
        lambda: fractional_apply(np.ones((2, 6)), _good(), float("nan"), "rational"),
        lambda: fractional_apply(np.ones((2, 5)), _good(), 0.5, "rational"),
        lambda: fractional_apply(np.full((2, 6), np.nan), _good(), 0.5, "rational"),
        lambda: fractional_apply(np.ones((2, 6)), _good(), 0.5, "nope"),
        lambda: fractional_apply(np.ones((2, 6)), _good(), 0.5, build_rule("log", 0.3, 6, 1, 10)),
        lambda: fractional_apply(np.ones((2, 6)), _good(), 0.5, "rational", method="cg"),
        lambda: fractional_apply(np.ones((2, 6)), _good(), 0.5, "rational", eps=-1.0),
        lambda: fractional_apply(np.ones((2, 3)), -np.eye(3), 0.5, "rational"),
        lambda: eigh_fractional_power(np.array([[1.0, 2.0], [0.0, 1.0]]), 0.5),
        lambda: eigh_fractional_power(-np.eye(2), 0.5),
        lambda: estimate_bounds(np.diag([1.0, -1.0])),
    ],
)
def test_refusals(call) -> None:
    with pytest.raises(InvalidArgument):
        call()


def test_non_finite_solve_is_refused_not_returned() -> None:
    """Finite but enormous input whose value overflows: SolveFailure, never NaN out. (At
    X = 1e300 the value, ≈ Σ c_j X = 2.3e301, is finite: the small-shift form solves for X,
    not for A X = 1e600, and returns it.)"""
    d = 4
    A = np.eye(d) * 1e300 + np.diag(np.ones(d - 1), 1) * 1e300 - np.diag(np.ones(d - 1), -1) * 1e300
    rule = build_rule("elliptic", 0.5, 6, 1.0, 10.0)
    finite = fractional_apply(np.full((2, d), 1e300), A, 0.5, rule)
    assert np.allclose(finite, rule.coefficients.sum() * 1e300, rtol=1e-6)
    with pytest.raises(SolveFailure) as caught:
        fractional_apply(np.full((2, d), 1e308), A, 0.5, rule)
    assert isinstance(caught.value, LeanMirrorError) and isinstance(caught.value, ArithmeticError)
    with pytest.raises(SolveFailure):
        fractional_apply(np.full((2, d), 1e300), A, 0.5, rule, method="gmres", gmres_iterations=2)
