"""The resolvent fractional-power layer (NumPy, float64).

Parameterization (``spec/fractional-power-layer.txt``)::

    A = S + K,   S = L Lᵀ + δ I  (L: d×q, δ > 0),   K = (U − Uᵀ)/2  (U: d×d)

so the symmetric part of ``A`` is ``S`` (positive definite) and ``A`` is accretive:
``xᵀ A x = xᵀ S x > 0``; every eigenvalue ``μ`` of ``A`` has ``Re μ ∈ [λ_min(S), λ_max(S)]``
and ``|Im μ| ≤ ‖K‖₂``. The layer returns ``Y = X (A_ε^r)ᵀ`` (``A_ε = A + ε I``) through the
resolvent mixture of a :class:`~mirror.bundled.impl.quadrature.QuadratureRule`::

    A_ε^r Xᵀ ≈ Σ_j c_j (λ_j I + A_ε)^{-1} A_ε Xᵀ,   c_j = (sin πr/π) w_j λ_j^{r−1}.

Solves:

* ``d ≤ 128`` (``method="direct"``): one batched LU solve over the stacked ``(m, d, d)`` shifted
  matrices. The right-hand side is ``A_ε Xᵀ`` (``B`` columns) or, when ``B > d``, ``A_ε``
  itself (``d`` columns: the same mixture forms ``A_ε^r``, then ``Y = X (A_ε^r)ᵀ``; cheaper).
* ``d > 128`` (``method="gmres"``): a *fixed* number of left-preconditioned GMRES iterations
  per shift. Preconditioner: ``C_j = λ_j I + S_ε`` inverted through one ``eigh`` of ``S``
  shared by all shifts (``S = V diag(s) Vᵀ`` ⇒ ``C_j^{-1} = V diag(1/(λ_j+s+ε)) Vᵀ``; in the
  eigenbasis of ``S`` it is diagonal). Why: ``C_j^{-1}(λ_j I + A_ε) = C_j^{-1/2}(I + N_j)C_j^{1/2}``
  with ``N_j = C_j^{-1/2} K̃ C_j^{-1/2}`` *skew-symmetric*, so the preconditioned operator is
  similar to ``I + N_j``: normal, eigenvalues on the segment ``1 + i[−ρ_j, ρ_j]`` with
  ``ρ_j ≤ ‖K‖₂/(λ_j + δ)`` (the symmetric part dominates; the skew part is a bounded
  perturbation). GMRES then reduces the preconditioned residual at least like
  ``(ρ/(1+√(1+ρ²)))^k`` times the similarity's condition ``√((λ_j+Λ)/(λ_j+δ))``. The batched
  GMRES here is verified iterate-for-iterate against ``scipy.sparse.linalg.gmres`` (same left
  preconditioning, ``restart=k``, ``maxiter=1``) in the tests; ``solver="scipy"`` runs SciPy's
  ``gmres`` column by column instead (slow; reference).

Bad input is refused with :class:`~bridge.errors.InvalidArgument`; a solve that fails or
produces a non-finite value raises :class:`SolveFailure`. No NaN is ever returned.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import scipy.linalg
from scipy.sparse.linalg import LinearOperator, gmres

from bridge.errors import InvalidArgument, LeanMirrorError
from mirror.bundled.impl.quadrature import PLACEMENTS, QuadratureRule, build_rule, check_exponent

#: Largest width solved directly by ``method="auto"``.
DIRECT_MAX_WIDTH = 128
#: Default number of GMRES iterations per shift (one restart cycle).
GMRES_ITERATIONS = 24


class SolveFailure(LeanMirrorError, ArithmeticError):
    """A shifted solve failed (singular matrix) or produced a non-finite value."""


# ----------------------------------------------------------------------------- validation


def _finite_matrix(name: str, value: Any, shape: tuple[int | None, int | None] | None = None) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise InvalidArgument(f"{name}: got {type(value).__name__}, expected a real 2-D array") from None
    if array.ndim != 2:
        raise InvalidArgument(f"{name}: got an array of shape {array.shape}, expected a 2-D array")
    if shape is not None:
        for axis, want in enumerate(shape):
            if want is not None and array.shape[axis] != want:
                raise InvalidArgument(
                    f"{name}: got shape {array.shape}, expected size {want} on axis {axis}"
                )
    if not np.all(np.isfinite(array)):
        bad = int(np.size(array) - np.count_nonzero(np.isfinite(array)))
        raise InvalidArgument(f"{name}: got {bad} non-finite entries, expected finite values")
    return array


def _positive(name: str, value: Any, allow_zero: bool = False) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InvalidArgument(f"{name}: got {value!r}, expected a finite real number") from None
    ok = number >= 0 if allow_zero else number > 0
    if not (math.isfinite(number) and ok):
        expected = ">= 0" if allow_zero else "> 0"
        raise InvalidArgument(f"{name}: got {value!r}, expected a finite real number {expected}")
    return number


# ----------------------------------------------------------------------------- parameters


@dataclass(frozen=True)
class AccretiveParams:
    """``L`` (d×q), ``delta`` > 0 and ``U`` (d×d): ``A = S + K``, ``S = L Lᵀ + δI``, ``K = (U − Uᵀ)/2``."""

    L: np.ndarray
    delta: float
    U: np.ndarray

    def __post_init__(self) -> None:
        lower = _finite_matrix("L", self.L)
        d = lower.shape[0]
        if d < 1:
            raise InvalidArgument(f"L: got shape {lower.shape}, expected at least one row")
        upper = _finite_matrix("U", self.U, (d, d))
        object.__setattr__(self, "L", lower)
        object.__setattr__(self, "U", upper)
        object.__setattr__(self, "delta", _positive("delta", self.delta))

    @classmethod
    def random(
        cls, d: int, q: int, *, delta: float = 0.1, skew: float = 0.5, seed: int | None = 0
    ) -> "AccretiveParams":
        """Random parameters: ``L`` with N(0, 1/d) entries, ``U`` scaled so ``‖K‖₂ ≈ skew · λ_max(S)``."""
        if not isinstance(d, int) or d < 1 or not isinstance(q, int) or q < 0:
            raise InvalidArgument(f"d, q: got {d!r}, {q!r}, expected integers d >= 1, q >= 0")
        rng = np.random.default_rng(seed)
        lower = rng.standard_normal((d, q)) / math.sqrt(d)
        raw = rng.standard_normal((d, d))
        sym = lower @ lower.T + delta * np.eye(d)
        kraw = (raw - raw.T) / 2
        knorm = float(np.linalg.norm(kraw, 2)) or 1.0
        scale = skew * float(np.linalg.eigvalsh(sym)[-1]) / knorm
        return cls(lower, delta, raw * scale)

    @property
    def d(self) -> int:
        """The width."""
        return int(self.L.shape[0])

    @property
    def S(self) -> np.ndarray:
        """``L Lᵀ + δ I`` (symmetric positive definite)."""
        return self.L @ self.L.T + self.delta * np.eye(self.d)

    @property
    def K(self) -> np.ndarray:
        """``(U − Uᵀ)/2`` (skew-symmetric)."""
        return 0.5 * (self.U - self.U.T)

    @property
    def A(self) -> np.ndarray:
        """``S + K``."""
        return self.S + self.K

    @property
    def parameter_count(self) -> int:
        """Entries of ``L`` and ``U`` (``δ`` is a fixed hyperparameter)."""
        return int(self.L.size + self.U.size)


# ----------------------------------------------------------------------------- spectral bounds


class SpectralBounds(NamedTuple):
    """``(delta, Lambda)``: the interval the quadrature is designed for."""

    delta: float
    Lambda: float


def estimate_bounds(S: Any, *, margin: float = 1.0, skew: Any = None) -> SpectralBounds:
    """``(λ_min(S)/margin, λ_max(S)·margin)`` from ``eigvalsh`` of a copy of ``S`` (nothing
    is differentiated or modified). With ``skew`` (the matrix ``K``), ``Λ`` is raised to
    ``λ_max(S) + ‖K‖₂``, a bound on ``|μ|`` for every eigenvalue ``μ`` of ``S + K``."""
    sym = _finite_matrix("S", np.array(S, dtype=float, copy=True))
    if sym.shape[0] != sym.shape[1]:
        raise InvalidArgument(f"S: got shape {sym.shape}, expected a square matrix")
    if not np.allclose(sym, sym.T, rtol=1e-10, atol=1e-12 * max(1.0, float(np.abs(sym).max()))):
        raise InvalidArgument("S: got a non-symmetric matrix, expected the symmetric part of A")
    factor = _positive("margin", margin)
    if factor < 1.0:
        raise InvalidArgument(f"margin: got {margin!r}, expected a number >= 1")
    values = np.linalg.eigvalsh(0.5 * (sym + sym.T))
    low, high = float(values[0]), float(values[-1])
    if not low > 0:
        raise InvalidArgument(f"S: got smallest eigenvalue {low!r}, expected a positive definite matrix")
    if skew is not None:
        kmat = _finite_matrix("skew", skew, sym.shape)
        high += float(np.linalg.norm(kmat, 2))
    high = max(high, low * (1.0 + 1e-9))
    return SpectralBounds(low / factor, high * factor)


@dataclass
class BoundsScheduler:
    """Re-estimates ``(δ, Λ)`` from a detached ``S`` every ``every`` steps (and on first use)."""

    every: int = 200
    margin: float = 2.0
    current: SpectralBounds | None = None
    refreshes: int = 0
    _last_step: int | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.every, bool) or not isinstance(self.every, int) or self.every < 1:
            raise InvalidArgument(f"every: got {self.every!r}, expected an integer >= 1")
        _positive("margin", self.margin)

    def due(self, step: int) -> bool:
        """Whether :meth:`bounds` at ``step`` re-estimates."""
        return self.current is None or self._last_step is None or step - self._last_step >= self.every

    def bounds(self, step: int, S: Any, skew: Any = None) -> SpectralBounds:
        """The current bounds, refreshed from ``S`` when :meth:`due`."""
        if self.due(step):
            self.current = estimate_bounds(S, margin=self.margin, skew=skew)
            self._last_step = step
            self.refreshes += 1
        return self.current  # type: ignore[return-value]


# ----------------------------------------------------------------------------- the layer


@dataclass
class SolveInfo:
    """What a :func:`fractional_apply` call did."""

    method: str
    shifts: int
    right_hand_sides: int
    #: Max over shifts of the relative residual ``‖b − (λ_j I + A_ε) z‖/‖b‖`` (max over columns).
    residual: float
    iterations: int = 0


def _as_operator(A: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(A, S, K)`` from an :class:`AccretiveParams` or a square array."""
    if isinstance(A, AccretiveParams):
        return A.A, A.S, A.K
    mat = _finite_matrix("A", A)
    if mat.shape[0] != mat.shape[1]:
        raise InvalidArgument(f"A: got shape {mat.shape}, expected a square matrix")
    return mat, 0.5 * (mat + mat.T), 0.5 * (mat - mat.T)


def _resolve_rule(quadrature: Any, r: float, S: np.ndarray, shifts: int) -> QuadratureRule:
    if isinstance(quadrature, QuadratureRule):
        if abs(quadrature.r - r) > 1e-12:
            raise InvalidArgument(
                f"quadrature: got a rule for r={quadrature.r!r}, expected one for r={r!r}"
            )
        if not (np.all(np.isfinite(quadrature.nodes)) and np.all(quadrature.nodes > 0)
                and np.all(np.isfinite(quadrature.weights))):
            raise InvalidArgument("quadrature: got non-finite or non-positive shifts/weights")
        return quadrature
    if isinstance(quadrature, str):
        if quadrature not in PLACEMENTS:
            raise InvalidArgument(
                f"quadrature: got {quadrature!r}, expected a QuadratureRule or one of {', '.join(PLACEMENTS)}"
            )
        low, high = estimate_bounds(S)
        return build_rule(quadrature, r, shifts, low, high)
    raise InvalidArgument(
        f"quadrature: got {type(quadrature).__name__}, expected a QuadratureRule or a placement name"
    )


def fractional_apply(
    X: Any,
    A: Any,
    r: float,
    quadrature: QuadratureRule | str = "rational",
    eps: float = 0.0,
    method: str = "auto",
    *,
    shifts: int = 12,
    gmres_iterations: int = GMRES_ITERATIONS,
    gmres_restarts: int = 1,
    solver: str = "batched",
    return_info: bool = False,
) -> np.ndarray | tuple[np.ndarray, SolveInfo]:
    """``Y = X (A_ε^r)ᵀ`` through the resolvent mixture of ``quadrature``.

    ``X``: (B, d); ``A``: an :class:`AccretiveParams` or a (d, d) array whose symmetric part is
    positive definite; ``r`` in (0, 1); ``quadrature``: a rule for ``r`` or a placement name
    (then built with ``shifts`` shifts on the bounds of ``S``); ``method``: ``"auto"``
    (direct for ``d ≤ 128``), ``"direct"`` or ``"gmres"`` (``gmres_iterations`` per restart
    cycle, ``gmres_restarts`` cycles; ``solver="batched"`` or ``"scipy"``)."""
    r = check_exponent(r)
    amat, smat, kmat = _as_operator(A)
    d = amat.shape[0]
    xmat = _finite_matrix("X", X, (None, d))
    epsilon = _positive("eps", eps, allow_zero=True)
    if method not in ("auto", "direct", "gmres"):
        raise InvalidArgument(f"method: got {method!r}, expected 'auto', 'direct' or 'gmres'")
    if solver not in ("batched", "scipy"):
        raise InvalidArgument(f"solver: got {solver!r}, expected 'batched' or 'scipy'")
    for name, value in (("shifts", shifts), ("gmres_iterations", gmres_iterations), ("gmres_restarts", gmres_restarts)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise InvalidArgument(f"{name}: got {value!r}, expected an integer >= 1")
    s_eps = smat + epsilon * np.eye(d)
    evals, evecs = np.linalg.eigh(s_eps)
    if not evals[0] > 0:
        raise InvalidArgument(
            f"A: symmetric part has smallest eigenvalue {float(evals[0])!r}, expected positive definite (accretive A)"
        )
    rule = _resolve_rule(quadrature, r, s_eps, int(shifts))
    a_eps = amat + epsilon * np.eye(d)
    chosen = method if method != "auto" else ("direct" if d <= DIRECT_MAX_WIDTH else "gmres")
    batch = xmat.shape[0]
    operator_form = batch > d
    coeffs = rule.coefficients
    with np.errstate(all="ignore"):
        plain = np.eye(d) if operator_form else xmat.T
        rhs = a_eps if operator_form else a_eps @ plain
        if chosen == "direct":
            mixture, residual = _direct(a_eps, plain, rule.nodes, coeffs)
            iterations = 0
        else:
            mixture, residual = _gmres_path(
                a_eps, kmat, evals, evecs, rhs, rule.nodes, coeffs,
                int(gmres_iterations), int(gmres_restarts), solver,
            )
            iterations = int(gmres_iterations) * int(gmres_restarts)
        result = xmat @ mixture.T if operator_form else mixture.T
    if not np.all(np.isfinite(result)):
        raise SolveFailure(
            f"fractional_apply: the {chosen} solve produced non-finite values "
            f"(d={d}, shifts={rule.m}, r={r}); expected finite output"
        )
    info = SolveInfo(chosen, rule.m, int(rhs.shape[1]), float(residual), iterations)
    return (result, info) if return_info else result


def _direct(a_eps: np.ndarray, plain: np.ndarray, nodes: np.ndarray, coeffs: np.ndarray) -> tuple[np.ndarray, float]:
    """``Σ_j c_j (λ_j I + A)⁻¹ A P`` (``P = plain``: ``Xᵀ``, or ``I`` for the operator) by one
    batched LU solve per shift, in the form that does not cancel:

    * ``λ_j ≤ ‖A‖₂``: ``(λ_j I + A)⁻¹ A P = P − λ_j (λ_j I + A)⁻¹ P``. Here the term is close
      to ``P`` and solving for ``A P`` directly would give its small entries (``≈ −λ_j [A⁻¹]_ik``)
      an error of an ulp of ``P``'s large ones (normwise backward stable, entrywise not: tens
      of ulps at ``λ_j = 1/64``); ``λ_j (λ_j I + A)⁻¹`` has norm ``≤ λ_j/(λ_j + λ_min(S)) < 1``
      for an accretive ``A``, so ``P − …`` only subtracts what is smaller than ``P``.
    * ``λ_j > ‖A‖₂``: the term is ``≈ A P/λ_j`` and the direct solve is the accurate one (the
      difference above would cancel)."""
    d = a_eps.shape[0]
    stacked = a_eps[None, :, :] + nodes[:, None, None] * np.eye(d)[None, :, :]
    small = nodes <= np.linalg.norm(a_eps, 2)
    rhs = np.where(small[:, None, None], plain[None], (a_eps @ plain)[None])
    try:
        solutions = np.linalg.solve(stacked, rhs)
    except np.linalg.LinAlgError as exc:
        raise SolveFailure(f"fractional_apply: a shifted matrix is singular ({exc}); expected an accretive A") from None
    if not np.all(np.isfinite(solutions)):
        bad = int(np.argmax(~np.all(np.isfinite(solutions), axis=(1, 2))))
        raise SolveFailure(
            f"fractional_apply: direct solve for shift {bad} (lambda={float(nodes[bad])!r}) produced non-finite values"
        )
    residual = stacked @ solutions - rhs
    rel = float(np.max(np.linalg.norm(residual, axis=1)
                       / np.maximum(np.linalg.norm(rhs, axis=1), 1e-300)))
    terms = np.where(small[:, None, None], plain[None] - nodes[:, None, None] * solutions, solutions)
    return np.einsum("j,jdb->db", coeffs, terms), rel


def batched_gmres(
    matvec: Any, precondition: Any, b: np.ndarray, iterations: int, restarts: int = 1
) -> np.ndarray:
    """Left-preconditioned GMRES(``iterations``) with ``restarts`` cycles, run for a fixed number
    of iterations on every column of ``b`` (n, cols) at once, from ``x0 = 0``: each column's
    iterate minimizes ``‖M(b − A x)‖₂`` over its Krylov space, as ``scipy.sparse.linalg.gmres``
    does column by column. ``matvec``/``precondition`` map (n, cols) arrays to (n, cols)."""
    n, cols = b.shape
    x = np.zeros_like(b)
    tiny = np.finfo(float).tiny
    for _ in range(restarts):
        r0 = precondition(b - matvec(x)) if x.any() else precondition(b)
        beta = np.linalg.norm(r0, axis=0)
        basis = np.zeros((iterations + 1, n, cols))
        hess = np.zeros((cols, iterations + 1, iterations))
        live = beta > tiny
        basis[0] = np.where(live, r0 / np.where(live, beta, 1.0), 0.0)
        steps = min(iterations, n)
        for k in range(steps):
            w = precondition(matvec(basis[k]))
            h0 = np.linalg.norm(w, axis=0)
            for i in range(k + 1):
                hik = np.einsum("nc,nc->c", basis[i], w)
                hess[:, i, k] = hik
                w -= basis[i] * hik
            h1 = np.linalg.norm(w, axis=0)
            ok = h1 > np.finfo(float).eps * np.maximum(h0, tiny)
            hess[:, k + 1, k] = np.where(ok, h1, 0.0)
            basis[k + 1] = np.where(ok, w / np.where(ok, h1, 1.0), 0.0)
        target = np.zeros((cols, steps + 1))
        target[:, 0] = beta
        coeff = np.einsum("cji,ci->cj", np.linalg.pinv(hess[:, : steps + 1, :steps]), target)
        x = x + np.einsum("knc,ck->nc", basis[:steps], coeff)
    return x


def _gmres_path(
    a_eps: np.ndarray,
    kmat: np.ndarray,
    evals: np.ndarray,
    evecs: np.ndarray,
    rhs: np.ndarray,
    nodes: np.ndarray,
    coeffs: np.ndarray,
    iterations: int,
    restarts: int,
    solver: str,
) -> tuple[np.ndarray, float]:
    # Work in the eigenbasis of S_ε: A_ε ↦ diag(s) + K̃ (K̃ = Vᵀ K V skew), preconditioner diagonal.
    k_tilde = evecs.T @ kmat @ evecs
    b_tilde = evecs.T @ rhs
    total = np.zeros_like(b_tilde)
    worst = 0.0
    bnorm = np.maximum(np.linalg.norm(b_tilde, axis=0), 1e-300)
    for lam, coeff in zip(nodes, coeffs):
        diag = evals + lam
        inv = 1.0 / diag

        def matvec(z: np.ndarray, diag: np.ndarray = diag) -> np.ndarray:
            return diag[:, None] * z + k_tilde @ z

        def precondition(z: np.ndarray, inv: np.ndarray = inv) -> np.ndarray:
            return inv[:, None] * z

        if solver == "batched":
            z = batched_gmres(matvec, precondition, b_tilde, iterations, restarts)
        else:
            z = _scipy_columns(matvec, precondition, b_tilde, iterations, restarts)
        if not np.all(np.isfinite(z)):
            raise SolveFailure(
                f"fractional_apply: GMRES for shift lambda={float(lam)!r} produced non-finite values"
            )
        res = np.linalg.norm(b_tilde - matvec(z), axis=0) / bnorm
        worst = max(worst, float(np.max(res)))
        total += coeff * z
    return evecs @ total, worst


def _scipy_columns(matvec: Any, precondition: Any, b: np.ndarray, iterations: int, restarts: int) -> np.ndarray:
    n = b.shape[0]
    op = LinearOperator((n, n), matvec=lambda v: matvec(v.reshape(n, 1)).ravel(), dtype=float)
    pre = LinearOperator((n, n), matvec=lambda v: precondition(v.reshape(n, 1)).ravel(), dtype=float)
    out = np.zeros_like(b)
    for col in range(b.shape[1]):
        out[:, col], _ = gmres(op, b[:, col], rtol=1e-300, atol=0.0, restart=iterations, maxiter=restarts, M=pre)
    return out


# ----------------------------------------------------------------------------- baselines


def eigh_fractional_power(S: Any, r: float) -> np.ndarray:
    """``S^r`` for symmetric positive semidefinite ``S`` through ``eigh`` (eigenvalues below
    zero by rounding, ``≥ −1e-12·‖S‖``, are clipped to 0)."""
    r = check_exponent(r)
    sym = _finite_matrix("S", S)
    if sym.shape[0] != sym.shape[1] or not np.allclose(sym, sym.T, rtol=1e-10, atol=1e-12 * max(1.0, float(np.abs(sym).max(initial=0.0)))):
        raise InvalidArgument(f"S: got a {sym.shape} matrix that is not symmetric, expected a symmetric PSD matrix")
    values, vectors = np.linalg.eigh(0.5 * (sym + sym.T))
    floor = -1e-12 * max(1.0, float(np.abs(values).max(initial=0.0)))
    if values[0] < floor:
        raise InvalidArgument(f"S: got smallest eigenvalue {float(values[0])!r}, expected a positive semidefinite matrix")
    return (vectors * np.clip(values, 0.0, None) ** r) @ vectors.T


def fractional_power_reference(A: Any, r: float) -> np.ndarray:
    """``Re scipy.linalg.fractional_matrix_power(A, r)`` (Schur–Padé), the reference for tests."""
    amat, _, _ = _as_operator(A)
    return np.real(scipy.linalg.fractional_matrix_power(amat, check_exponent(r)))


def symmetric_block(X: Any, L: Any, delta: float, r: float) -> np.ndarray:
    """The symmetric PSD baseline: ``X + X (L Lᵀ + δI)^r`` (``S^r`` symmetric), via ``eigh``."""
    lower = _finite_matrix("L", L)
    xmat = _finite_matrix("X", X, (None, lower.shape[0]))
    sym = lower @ lower.T + _positive("delta", delta) * np.eye(lower.shape[0])
    return xmat + xmat @ eigh_fractional_power(sym, r)


def linear_block(X: Any, W: Any, bias: Any = None) -> np.ndarray:
    """The plain linear residual block: ``X + X Wᵀ (+ bias)``."""
    wmat = _finite_matrix("W", W)
    xmat = _finite_matrix("X", X, (None, wmat.shape[1]))
    out = xmat + xmat @ wmat.T
    if bias is not None:
        vec = np.asarray(bias, dtype=float)
        if vec.shape != (wmat.shape[0],) or not np.all(np.isfinite(vec)):
            raise InvalidArgument(f"bias: got shape {vec.shape}, expected finite ({wmat.shape[0]},)")
        out = out + vec
    return out


def accretive_block(X: Any, params: AccretiveParams, r: float, quadrature: QuadratureRule | str = "rational", **kwargs: Any) -> np.ndarray:
    """The accretive resolvent block: ``X + fractional_apply(X, A, r, quadrature)``."""
    xmat = _finite_matrix("X", X, (None, params.d))
    return xmat + fractional_apply(xmat, params, r, quadrature, **kwargs)  # type: ignore[operator]


def matched_ranks(d: int) -> dict[str, int]:
    """Parameter-matched sizes at width ``d``: linear ``d²``; symmetric ``L: d×d`` (``d²``);
    accretive ``L: d×q`` with the skew part stored as its ``d(d−1)/2`` free entries,
    ``q = round((d² − d(d−1)/2)/d)`` (within ``d/2`` of ``d²``)."""
    if isinstance(d, bool) or not isinstance(d, int) or d < 2:
        raise InvalidArgument(f"d: got {d!r}, expected an integer >= 2")
    skew_free = d * (d - 1) // 2
    return {"linear": d * d, "symmetric_q": d, "accretive_q": max(1, round((d * d - skew_free) / d))}


__all__ = [
    "AccretiveParams",
    "BoundsScheduler",
    "DIRECT_MAX_WIDTH",
    "GMRES_ITERATIONS",
    "SolveFailure",
    "SolveInfo",
    "SpectralBounds",
    "accretive_block",
    "batched_gmres",
    "eigh_fractional_power",
    "estimate_bounds",
    "fractional_apply",
    "fractional_power_reference",
    "linear_block",
    "matched_ranks",
    "symmetric_block",
]
