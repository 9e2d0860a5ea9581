"""Accuracy: a bound kernel against its Lean definition, in the kernel's own units.

A conformance row (``impl args = unfolded definition args``) is judged here, once per dtype of
the binding's profile (:class:`mirror.bind.config.KernelProfile`):

1. the draws are wide (:mod:`mirror.sample.wide`) and rounded to the dtype; the kernel is called
   on them cast to the dtype;
2. Lean's value at those inputs is enclosed in balls (python-flint, exact numbers where the
   definition is rational) at rising precision until every ball is narrower than a millionth
   of an ulp of the dtype: the error measured is the kernel's, not the measurement's;
3. the error is measured in ulps of the dtype at Lean's value, and as a relative error;
4. the kernel passes a draw when its error is within the budget: ``ulps`` (or ``rtol``) plus
   ``k`` times the *input sensitivity* — how far Lean's own value moves when the inputs move by
   the budget's ulps (four perturbations, enclosed the same way). A kernel is asked to be as accurate
   as its inputs' rounding allows, not more: softmax at logits near 700 is ill-conditioned,
   ``log(1 + 1e-17)`` is not. With a ``reference`` the kernel also passes when its error is at
   most ``k`` times the reference's at the same input.

ℝ has no NaN or ∞: a NaN or infinite output where Lean's value is a real number within the
dtype's range is a failure, reported with Lean's value beside the kernel's. Hypothesis
searches for the worst error (``target``); a local search around the worst input found
follows, so the reported maximum is a search result. A failure is shrunk by Hypothesis; some
twenty small seeded examples at the places kernels break (:func:`mirror.sample.wide.seeds`)
are tried when the search (given half the time) found none.
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings as hsettings, target
from hypothesis.errors import Flaky, Unsatisfiable as HypothesisUnsatisfiable
from hypothesis.reporting import with_reporter

from mirror.evaluate.runtime import NumpyRuntime, OutOfDomain
from mirror.evaluate.ball_runtime import BallRuntime
from mirror.evaluate.balls import working_precision
from mirror.judge.exact import start_bits
from mirror.judge.fileio import open_example_database
from mirror.judge.outcome import Outcome, readable
from mirror.judge.ulps import (CTX as _CTX, errors as _errors, norm_scale, radius as _radius,
                               to_mpf as _mp, ulp)
from mirror.sample.strategies import examples, stack
from mirror.sample.wide import dtype_range, round_to, seeds, widened

#: Bits beyond :func:`mirror.judge.exact.start_bits` at which Lean's value is first enclosed.
EXTRA_BITS = 64
#: A value is measured when its ball's radius is below this share of an ulp of the dtype.
RADIUS_ULPS = 1e-6
#: Inputs tried by the local search around the worst input.
LOCAL_STEPS = 24
#: The most bits Lean's value is enclosed at; a draw needing more is not measured.
MAX_MEASURE_BITS = 4096



class _Recorder:
    """Mixed into a runtime: remembers the operands of the last equation (the conformance
    row's conclusion is its outermost, hence last, equation) and, in ``placeholder`` mode,
    answers the bound call with the kernel output already computed."""

    recorded: tuple[Any, Any] | None = None
    placeholder: Any = None
    called: Any = None

    def eq(self, a, b):  # noqa: D102
        self.recorded = (a, b)
        return super().eq(a, b)

    def array_eq(self, a, b):  # noqa: D102
        self.recorded = (a, b)
        return super().array_eq(a, b)

    def call(self, name: str, dims: tuple, *args):  # noqa: D102
        if self.placeholder is not None:
            # the kernel's output stands in for the call (the row reads Lean's side only)
            return self.lift(np.nan_to_num(np.asarray(self.placeholder)))
        self.called = super().call(name, dims, *args)
        return self.called


def _recording(base: type) -> type:
    return type(f"Recording{base.__name__}", (_Recorder, base), {})


_NumpyRecorder = _recording(NumpyRuntime)
_BallRecorder = _recording(BallRuntime)


def _within_atol(kernel: np.ndarray, lean: list, atol: float | None) -> bool:
    """Every entry within ``atol`` of Lean's value (finite outputs only: ℝ has no NaN)."""
    out = np.asarray(kernel).reshape(-1)
    if atol is None or out.size != len(lean) or not np.isfinite(out).all():
        return False
    return all(float(abs(_CTX.mpc(complex(x)) - v)) <= atol for x, v in zip(out, lean))


@dataclass
class Measurement:
    """One draw measured: the kernel's value, Lean's, and the error in the dtype's units."""

    example: dict[str, Any]
    ulps: float
    rel: float
    kernel: np.ndarray
    lean: list
    passed: bool
    budget: float = 0.0
    reason: str = ""
    method: str = ""
    #: The reference's output at the same input, where the judge asked it (a failure only).
    reference_output: Any = None

    def observation(self, dtype: str) -> dict[str, Any]:
        """What a conformance certificate records of this (failing) draw."""
        return {"dtype": dtype, "example": self.example, "output": self.kernel,
                "reference_output": self.reference_output, "method": self.method}


@dataclass
class Profile:
    """The accuracy profile of one dtype."""

    dtype: str
    ulps: list[float] = field(default_factory=list)
    rels: list[float] = field(default_factory=list)
    worst: Measurement | None = None
    failure: Measurement | None = None
    skipped: dict[str, int] = field(default_factory=dict)
    methods: dict[str, int] = field(default_factory=dict)

    def add(self, m: Measurement) -> None:
        self.ulps.append(m.ulps)
        self.rels.append(m.rel)
        self.methods[m.method] = self.methods.get(m.method, 0) + 1
        if self.worst is None or m.ulps > self.worst.ulps:
            self.worst = m

    def skip(self, why: str) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + 1

    def summary(self, budget: str) -> dict[str, Any]:
        ulps = np.asarray(self.ulps or [0.0])
        rels = np.asarray(self.rels or [0.0])
        worst = self.failure or self.worst
        return {
            "dtype": self.dtype,
            "examples": len(self.ulps),
            "max_ulps": float(ulps.max()),
            "p99_ulps": float(np.percentile(ulps, 99)),
            "max_rel": float(rels.max()),
            "p99_rel": float(np.percentile(rels, 99)),
            "budget": budget,
            "worst": None if worst is None else readable(worst.example),
            "skipped": dict(self.skipped),
        }


# ---- one draw ------------------------------------------------------------------------------------


class Meter:
    """Measures draws of one conformance row at one dtype."""

    def __init__(self, function: Callable, plan: dict, name: str, adapter, bindings: dict,
                 dtype: str) -> None:
        self.function, self.plan, self.name, self.dtype = function, plan, name, dtype
        binding = dataclasses.replace(adapter.binding, dtype=dtype)
        self.binding = binding
        self.profile = binding.profile
        self.bindings = dict(bindings, **{name: type(adapter)(binding)})
        reference = self.profile.reference
        self.reference = None
        if reference is not None:
            ref = dataclasses.replace(binding, implementation=reference, function=None)
            self.reference = dict(bindings, **{name: type(adapter)(ref)})
        self.budget_ulps = self.profile.budget_ulps(dtype)
        self.nat_domain = plan["settings"]["nat_domain"]
        #: ``time.monotonic()`` past which no further evaluation starts (``None``: none).
        self.deadline: float | None = None

    def rounded(self, example: dict[str, Any]) -> dict[str, Any]:
        return {k: round_to(v, self.dtype) for k, v in example.items()}

    def kernel(self, example: dict[str, Any], bindings: dict
               ) -> tuple[np.ndarray, np.ndarray] | None:
        """The kernel's value at ``example`` as the row compares it, and its whole output
        (``None``: it refused the draw)."""
        rt = _NumpyRecorder(1, self.nat_domain, 0.0, bindings)
        try:
            with np.errstate(all="ignore"):
                self.function(rt, **stack([example], self.plan))
        except OutOfDomain:
            return None
        if rt.recorded is None or rt.invalid[0] or rt.called is None:
            return None
        value = np.asarray(rt.recorded[0])
        return value.astype(complex if np.iscomplexobj(value) else float), np.asarray(rt.called)

    def lean(self, example: dict[str, Any], placeholder: np.ndarray,
             scale: int = 1) -> tuple[list, str] | None:
        """Lean's value at ``example``, enclosed in balls (python-flint) at rising precision
        until every ball is narrower than a millionth of an ulp of the dtype, and how.
        ``None``: no precision up to :data:`MAX_MEASURE_BITS` gets there, or a guard stays
        undecided."""
        values = stack([example], self.plan)
        bits = (start_bits(example) + EXTRA_BITS) * scale
        while bits <= MAX_MEASURE_BITS:
            rt = _BallRecorder(self.nat_domain, self.bindings)
            rt.placeholder = placeholder
            try:
                with working_precision(bits):
                    self.function(rt, **{k: rt.lift(v) for k, v in values.items()})
            except OutOfDomain:
                return None
            except (ArithmeticError, ValueError, TypeError):
                break  # an operation the balls do not take: mpmath below
            if rt.recorded is None or rt.invalid[0]:
                return None
            spec = list(np.asarray(rt.recorded[1], dtype=object).reshape(-1))
            if not rt.undecided:
                mids = [_mp(v) for v in spec]
                if not all(_CTX.isfinite(abs(m)) for m in mids):
                    return None
                narrow = all(_radius(v) <= ulp(abs(m), self.dtype) * _CTX.mpf(RADIUS_ULPS)
                             for v, m in zip(spec, mids))
                if narrow:
                    exact = all(_radius(v) == 0 for v in spec)
                    return mids, ("exact arithmetic" if exact else f"ball arithmetic at {bits} bits")
            bits *= 2
        return self._mpmath(example, placeholder)

    def _mpmath(self, example: dict[str, Any], placeholder: np.ndarray) -> tuple[list, str] | None:
        """Lean's value in mpmath at 60 digits plus the draws' span (no zero band), where
        the balls do not narrow (long recurrences): said in the method, not rigorous."""
        from mirror.evaluate.mp_runtime import MpRuntime

        digits = 60 + start_bits(example) // 3
        rt = _recording(MpRuntime)(self.nat_domain, digits=digits, tolerance=0.0,
                                   bindings=self.bindings)
        rt.placeholder = placeholder
        values = stack([example], self.plan)
        try:
            self.function(rt, **{k: rt.lift(v) for k, v in values.items()})
        except (ArithmeticError, ValueError, TypeError, OutOfDomain):
            return None
        if rt.recorded is None or rt.invalid[0]:
            return None
        mids = [_mp(v) for v in np.asarray(rt.recorded[1], dtype=object).reshape(-1)]
        if not all(_CTX.isfinite(abs(m)) for m in mids):
            return None
        return mids, f"mpmath at {digits} digits (the balls did not narrow)"

    def sensitivity(self, example: dict[str, Any], lean: list, placeholder) -> list:
        """How far Lean's value moves (absolute, per entry) when every real input moves by
        the budget's ulps of the dtype (normwise: every entry of an input array by the
        budget's ulps of the array's largest entry, zeros included, as a backward-stable
        solve perturbs it): four perturbations (all up; alternating; every input
        away from 0, and towards it — the worst case of a function increasing, or
        decreasing, in every input, such as a sum or a log-sum-exp over mixed signs)."""
        step = self.budget_ulps * dtype_range(self.dtype)["eps"]
        normwise = getattr(self.profile, "measure", "entrywise") == "normwise"
        real = {e["name"] for e in self.plan["variables"]
                if e["kind"] == "real" or (e["kind"] == "array" and e.get("elem") == "real")}
        moved = [_CTX.mpf(0)] * len(lean)
        patterns = (lambda a: np.ones(a.shape), lambda a: (-1.0) ** np.arange(a.size),
                    np.sign, lambda a: -np.sign(a))
        for pattern in patterns:
            shifted = {}
            for key, value in example.items():
                arr = np.asarray(value, dtype=float) if key in real else None
                if arr is None:
                    shifted[key] = value
                    continue
                signs = np.reshape(pattern(arr), arr.shape)
                with np.errstate(all="ignore"):
                    shifted[key] = (arr * (1 + signs * step) if not normwise else
                                    arr + signs * step * np.max(np.abs(arr), initial=0.0))
            found = self.lean(shifted, placeholder)
            if found is None:
                continue
            moved = [max(m, abs(a - b)) for m, a, b in zip(moved, found[0], lean)]
        return moved

    def measure(self, example: dict[str, Any]) -> Measurement | str:
        """One draw: its :class:`Measurement`, or why it was not measured (past
        :attr:`deadline` a draw beyond the plain budget is not judged further)."""
        example = self.rounded(example)
        called = self.kernel(example, self.bindings)
        if called is None:
            return "refused by the kernel (out of its domain)"
        kernel, whole = called
        found = self.lean(example, whole)
        if found is None:
            return "Lean's value not computed (outside the reals, or no precision reached it)"
        lean, method = found
        top = dtype_range(self.dtype)["max"]
        if any(abs(v) > top for v in lean) and np.isfinite(kernel).all():
            return "Lean's value beyond the dtype's range"
        ulps, rel, reason = _errors(kernel, lean, self.dtype, self.scale(lean))
        m = Measurement(example, ulps, rel, kernel, lean, True, self.budget_ulps, reason, method)
        if not (self._within(m, self.budget_ulps, self.profile.rtol)
                or _within_atol(kernel, lean, getattr(self.profile, "atol", None))):
            if (math.isfinite(m.ulps) and self.deadline is not None
                    and time.monotonic() > self.deadline):
                return "not judged: the time budget ended before its input sensitivity"
            self._judge_slowly(m, kernel, whole)
        return m

    def scale(self, lean: list):
        """The normwise scale of Lean's value (``None``: errors are entrywise)."""
        return norm_scale(lean, getattr(self.profile, "measure", "entrywise"))

    @staticmethod
    def _within(m: Measurement, ulps: float, rtol: float | None) -> bool:
        if not math.isfinite(m.ulps):
            return False
        return m.rel <= rtol if rtol is not None else m.ulps <= ulps

    def _judge_slowly(self, m: Measurement, kernel: np.ndarray, whole: np.ndarray) -> None:
        """A draw beyond the plain budget: allowed the input sensitivity, and the reference.
        An ``rtol`` budget always allows one ulp (the rounding of the result itself, which
        no relative tolerance can ask less of in the subnormal range)."""
        if not math.isfinite(m.ulps):
            m.passed = False
            return
        k = self.profile.k
        moved = self.sensitivity(m.example, m.lean, whole)
        scale = self.scale(m.lean)
        units = [ulp(abs(v) if scale is None else scale, self.dtype) for v in m.lean]
        if scale is not None:  # normwise: the sensitivity of the whole value
            moved = [max(moved, default=_CTX.mpf(0))] * len(moved)
        allowed = [(self.budget_ulps if self.profile.rtol is None else
                    1 + self.profile.rtol * float((abs(v) if scale is None else scale) / u))
                   + k * float(d / u) for v, d, u in zip(m.lean, moved, units)]
        errors = [float(abs(_CTX.mpc(complex(x)) - v) / u)
                  for x, v, u in zip(kernel.reshape(-1), m.lean, units)]
        m.budget = max(allowed) if allowed else self.budget_ulps
        m.passed = all(e <= a for e, a in zip(errors, allowed))
        if not m.passed and self.reference is not None:
            ref = self.kernel(m.example, self.reference)
            if ref is not None:
                m.reference_output = ref[0]
                ref_ulps, _, _ = _errors(ref[0], m.lean, self.dtype, scale)
                m.passed = m.ulps <= k * ref_ulps
                m.reason += f"; the reference's error is {ref_ulps:.3g} ulps"


# ---- the run -------------------------------------------------------------------------------------


class _Failed(Exception):
    def __init__(self, m: Measurement) -> None:
        super().__init__("beyond the accuracy budget")
        self.measurement = m


class _Stop(BaseException):
    """The time budget or the example count is spent."""


def _seeded(meter: Meter, plan: dict, profile: Profile) -> None:
    """The small examples of :func:`mirror.sample.wide.seeds` (after the search, which
    shrinks what it finds): a failing one has its array entries zeroed one by one while it
    still fails."""
    for example in seeds(plan, meter.dtype):
        if meter.deadline is not None and time.monotonic() > meter.deadline:
            return
        m = meter.measure(example)
        if isinstance(m, str):
            profile.skip(m)
        elif not m.passed:
            profile.failure = _zeroed(meter, m)
            return
        else:
            profile.add(m)


def _zeroed(meter: Meter, failure: Measurement) -> Measurement:
    """``failure`` with as many array entries set to 0 as keep it failing (greedy), inside
    the binding's domain."""
    best = failure
    for name, value in failure.example.items():
        arr = np.asarray(value)
        if arr.dtype.kind != "f" or arr.ndim == 0:
            continue
        for index in np.ndindex(arr.shape):
            current = np.array(best.example[name], dtype=float, copy=True)
            if current[index] == 0:
                continue
            if meter.deadline is not None and time.monotonic() > meter.deadline:
                return best
            current[index] = 0.0
            if not _in_range(meter.plan, name, current):
                continue  # (0 outside the binding's domain: the kernel is not asked there)
            m = meter.measure(dict(best.example, **{name: current}))
            if not isinstance(m, str) and not m.passed:
                best = m
    return best


def _search(meter: Meter, plan: dict, profile: Profile, max_examples: int, database,
            deadline: float | None, key: bytes) -> None:
    """Hypothesis with ``target`` on the error; a failure is shrunk and kept."""

    def check(example: dict[str, Any]) -> None:
        if deadline is not None and time.monotonic() > deadline:
            raise _Stop()
        m = meter.measure(example)
        if isinstance(m, str):
            profile.skip(m)
            return
        target(min(math.log2(1 + m.ulps), 1e6), label=f"log2 ulps ({meter.dtype})")
        if not m.passed:
            if profile.failure is None:  # kept should the time end the shrinking
                profile.failure = m
            raise _Failed(m)
        profile.add(m)

    check._hypothesis_internal_add_digest = key
    configured = hsettings(
        max_examples=max_examples, database=open_example_database(database), deadline=None,
        derandomize=database is None, suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
        report_multiple_bugs=False,
    )(given(examples(plan))(check))
    try:
        with with_reporter(lambda _: None):
            configured()
    except _Failed as shrunk:
        profile.failure = shrunk.measurement
    except (_Stop, HypothesisUnsatisfiable, Flaky):
        pass


def _local(meter: Meter, profile: Profile, deadline: float | None) -> None:
    """Hill-climb from the worst input: nudge each real input by a few ulps and by small
    relative steps, keep what is worse."""
    rng = np.random.default_rng(0)
    best = profile.worst
    if best is None:
        return
    real = [e["name"] for e in meter.plan["variables"]
            if e["kind"] == "real" or (e["kind"] == "array" and e.get("elem") == "real")]
    if not real:
        return
    eps = dtype_range(meter.dtype)["eps"]
    for _ in range(LOCAL_STEPS):
        if deadline is not None and time.monotonic() > deadline:
            return
        trial = dict(best.example)
        name = real[rng.integers(len(real))]
        arr = np.array(trial[name], dtype=float, copy=True)
        scale = eps * float(rng.choice([1, 4, 64, 2 ** 20]))
        with np.errstate(all="ignore"):
            arr = arr * (1 + scale * rng.choice([-1.0, 1.0], arr.shape))
        trial[name] = arr if arr.ndim else float(arr)
        if not _in_range(meter.plan, name, arr):
            continue
        m = meter.measure(trial)
        if isinstance(m, str):
            continue
        if not m.passed:
            profile.failure = m
            return
        profile.add(m)
        if m.ulps > best.ulps:
            best = m


def _in_range(plan: dict, name: str, arr: np.ndarray) -> bool:
    """Constant bounds of the entry ``name`` hold for ``arr`` (bounds on draws: kept)."""
    entry = next(e for e in plan["variables"] if e["name"] == name)
    bounds = ([entry.get("elem_lo")], [entry.get("elem_hi")]) if entry["kind"] == "array" \
        else (entry["lo"], entry["hi"])
    ok = np.isfinite(arr).all()
    for b in bounds[0]:
        if b and "const" in b:
            ok &= bool(np.all(arr > b["const"] if b["strict"] else arr >= b["const"]))
    for b in bounds[1]:
        if b and "const" in b:
            ok &= bool(np.all(arr < b["const"] if b["strict"] else arr <= b["const"]))
    return bool(ok)


def run_conformance(function: Callable, plan: dict, *, name: str, lean_name: str, adapter,
                    bindings: dict, max_examples: int, database=None,
                    time_budget: float | None = None, digest: str = ""):
    """The conformance row of the binding ``adapter`` (``lean_name``): one :class:`Profile`
    per dtype; an :class:`~mirror.judge.checks.Outcome`."""
    binding = adapter.binding
    profile_cfg = binding.profile
    # 60 % of the budget for starting evaluations: one in flight (a long vector at high
    # precision) must still end within the statement's limit
    deadline = None if time_budget is None else time.monotonic() + 0.6 * time_budget
    share = None if time_budget is None else 0.6 * time_budget / len(profile_cfg.dtypes)
    profiles = []
    for dtype in profile_cfg.dtypes:
        wide = widened(plan, dtype, profile_cfg.size_range(binding.vectorized),
                       profile_cfg.magnitude)
        meter = Meter(function, wide, lean_name, adapter, bindings, dtype)
        profile = Profile(dtype)
        until = None if share is None else min(deadline, time.monotonic() + share)
        meter.deadline = until
        # the search first (it shrinks what it finds), in half the time; then the seeds
        half = None if until is None else time.monotonic() + (until - time.monotonic()) / 2
        _search(meter, wide, profile, max_examples, database, half,
                f"{name}|{digest}|{dtype}".encode())
        if profile.failure is None and profile_cfg.magnitude == "wide":
            _seeded(meter, wide, profile)
        elif profile.failure is not None:
            # (Hypothesis does not always shrink from a structured vector to a plain one)
            profile.failure = _zeroed(meter, profile.failure)
        if profile.failure is None:
            _local(meter, profile, until)
        profiles.append(profile)
        if profile.failure is not None:
            break
    budget = (f"rtol {profile_cfg.rtol:g}" if profile_cfg.rtol is not None else
              "{} ulps".format(", ".join(f"{d} {profile_cfg.budget_ulps(d):g}"
                                         for d in profile_cfg.dtypes)))
    if getattr(profile_cfg, "measure", "entrywise") == "normwise":
        budget += " of Lean's largest entry (normwise)"
    allowance = f" + {profile_cfg.k:g} × input sensitivity" + (
        f", or ≤ {profile_cfg.k:g} × the error of {profile_cfg.reference}"
        if profile_cfg.reference else "")
    summaries = [p.summary(budget + allowance) for p in profiles]
    drawn = profile_cfg.describe(binding.vectorized)
    measured = "; ".join(
        f"{s['dtype']}: max {s['max_ulps']:.3g} ulps (p99 {s['p99_ulps']:.3g}), "
        f"rel {s['max_rel']:.3g}" for s in summaries)
    methods = sorted({m for p in profiles for m in p.methods})
    outcome = Outcome(status="tested", examples=sum(s["examples"] for s in summaries),
                      rejected=sum(sum(p.skipped.values()) for p in profiles),
                      max_error=max(s["max_ulps"] for s in summaries), tolerance=0.0)
    outcome.method = (f"accuracy against Lean's value ({', '.join(methods) or 'none'}), "
                      f"hypothesis with target on the ulps error + local search; {drawn}; "
                      f"budget {budget}{allowance}; {measured}")
    outcome.accuracy = summaries
    failed = next((p for p in profiles if p.failure is not None), None)
    if failed is not None:
        m = failed.failure
        outcome.status = "refuted"
        outcome.counterexample = readable(m.example)
        outcome.observation = m.observation(failed.dtype)
        outcome.max_error = m.ulps
        outcome.reason = (f"at {failed.dtype}: the kernel {m.reason} (Lean's value by "
                          f"{m.method}): error {m.ulps:.3g} ulps, relative {m.rel:.3g}, "
                          f"beyond the budget of {m.budget:.3g} ulps")
    elif outcome.examples == 0:
        outcome.status = "inconclusive"
        skipped = {k: v for p in profiles for k, v in p.skipped.items()}
        outcome.reason = "no draw was measured" + (
            f" ({'; '.join(f'{v} {k}' for k, v in skipped.items())})" if skipped else "")
    return outcome


def conformance_adapter(name: str, bindings: dict[str, Callable]):
    """The adapter of the binding whose conformance row ``name`` is (``None``: no such row,
    or an adapter that carries no binding profile)."""
    lean_name = name.removesuffix(".conformance")
    adapter = bindings.get(lean_name) if lean_name != name else None
    return adapter if getattr(adapter, "binding", None) is not None else None


def replay_conformance(function: Callable, plan: dict, adapter, bindings: dict,
                       example: dict[str, Any]) -> tuple[str, float, str]:
    """``(verdict, ulps, method)`` of :func:`observed_conformance`."""
    return observed_conformance(function, plan, adapter, bindings, example)[:3]


def observed_conformance(function: Callable, plan: dict, adapter, bindings: dict,
                         example: dict[str, Any]) -> tuple[str, float, str, dict | None]:
    """``(verdict, ulps, method, observation)`` of one conformance input, at each dtype of the
    binding's profile in turn: ``"refuted"`` at the first dtype beyond its budget (with what
    its certificate records, :meth:`Measurement.observation`), ``"rejected"`` when it cannot
    be measured, else ``"holds"`` with the largest error."""
    worst, methods = 0.0, []
    for dtype in adapter.binding.profile.dtypes:
        meter = Meter(function, plan, adapter.binding.lean_name, adapter, bindings, dtype)
        m = meter.measure(example)
        if isinstance(m, str):
            return "rejected", math.nan, f"{dtype}: {m}", None
        methods.append(f"{dtype}: {m.ulps:.3g} ulps by {m.method}")
        if not m.passed:
            return ("refuted", m.ulps, f"{dtype}: the kernel {m.reason} ({m.method})",
                    m.observation(dtype))
        worst = max(worst, m.ulps)
    return "holds", worst, "; ".join(methods), None


__all__ = ["Measurement", "Meter", "Profile", "conformance_adapter", "observed_conformance", "replay_conformance", "run_conformance", "ulp"]
