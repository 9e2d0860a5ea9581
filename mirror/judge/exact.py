"""Exact decisions: what a statement says at one example, beyond float64's word.

Floating point is only the fast filter (:mod:`mirror.judge.checks`). A draw whose float64 value
fails, or holds only within the tolerance of a relation's boundary, is decided here, rigorously:

1. with **ball arithmetic** (:class:`~mirror.evaluate.ball_runtime.BallRuntime`, python-flint's
   ``arb``/``acb``) on the draw's exact values at rising precision, from the bits the draws'
   magnitudes need up to :data:`MAX_BITS`. Rational operations stay exact (``fmpq``), so a
   statement rational in its draws is decided by exact arithmetic. ``a < b`` is decided when
   the ball of ``b − a`` lies above 0 (or not), ``a ≠ b`` when it excludes 0, ``a = b`` only
   exactly; a junk branch is taken only when its guard is decided;
2. an equation the balls leave open (both sides irrational: ``tan x = sin x / cos x``) is
   proved at the draw by sympy within a time bound (:mod:`mirror.judge.identity`).

What neither decides is ``undecided``: such a draw supports no verdict. There is no tolerance,
no zero band and no "two precisions agree" rule. A decision covers the hypotheses too: a
counterexample is one where the hypotheses are decided true and the conclusion decided false.
A statement with a bound float64 implementation is instead compared with its Lean definition
within the float tolerance (``tolerance=``, 50-digit mpmath): that comparison is the only place
a tolerance belongs.
"""

from __future__ import annotations

import math
import time
import weakref
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

import numpy as np
import sympy as sp

from mirror.evaluate.ball_runtime import BallRuntime
from mirror.evaluate.balls import working_precision
from mirror.evaluate.runtime import MpRuntime, OutOfDomain
from mirror.judge.guard import Guard
from mirror.judge.identity import (EVALUATION_SECONDS, SymbolicRuntime, SympyRuntime,
                                   symbolic_draw)

#: Working precisions, in bits: from :func:`start_bits` (doubling) up to this one.
MAX_BITS = 8192
START_BITS = 128
#: A precision whose evaluation took longer than this (seconds) is not doubled again: the
#: draw stays undecided rather than stall the statement (an integral at thousands of bits …).
DECIDE_SECONDS = 2.0
#: Digits of the mpmath comparison of a bound implementation with its Lean definition.
TOLERANCE_DIGITS = 50

HOLDS = "holds"
FAILS = "fails"
VACUOUS = "vacuous"  # the hypotheses are false: the example says nothing
UNDECIDED = "undecided"
#: The method of a draw whose rigorous evaluation left the sampled domain (not counted).
OUTSIDE = "outside the sampled domain"

#: The method of a decision made with exact numbers only (every relation exactly decided).
EXACT_METHOD = "exact rational arithmetic"


@dataclass(frozen=True)
class Decision:
    """The rigorous truth of a statement at one example."""

    verdict: str
    #: How it was decided: :data:`EXACT_METHOD`, ``"ball arithmetic at N bits"``, or with
    #: ``"sympy identity at the draw"`` for an equation the balls leave open.
    method: str
    #: The conclusion's deviation (0 when it holds; ``inf`` for a decided failure).
    error: float = 0.0
    #: The working precision of the deciding ball evaluation (bits; ``None``: none ran).
    bits: int | None = None
    #: Every relation of the deciding ball evaluation: its kind, the enclosure of the
    #: difference of its sides (exact midpoint and radius) and its decision.
    trace: tuple = field(default=(), compare=False)
    #: Why a draw stayed undecided (the guards and relations no precision decided).
    reasons: tuple = ()
    #: For an undecided draw: the part no enclosure decided (``"hypotheses"`` or
    #: ``"conclusion"``).
    undecided_in: str = ""

    @property
    def kind(self) -> str:
        """The method without its precision: what a run's tally counts decisions by."""
        if self.verdict == UNDECIDED:
            return "undecided"
        return self.method.split(" at ")[0].split(",")[0]


#: A part of the statement: decided true, decided false, or ``None`` (undecided).
State = "bool | None"


#: A part no evaluation decided.
UNKNOWN = (None, False)


def as_batch(example: dict[str, Any], plan: dict) -> dict[str, Any]:
    """One example as a batch of one, keyed by parameter name: what
    :func:`~mirror.sample.strategies.stack` makes of one draw (a new array with a leading axis
    of length 1), without its general stacking."""
    return {entry["param"]: np.asarray(example[entry["name"]])[None].copy()
            for entry in plan["variables"]}


def _part(truth) -> tuple[bool | None, bool]:
    """``(value, known)`` of a part: ``value`` ``None`` when no enclosure decides it;
    ``known`` false when it was seen on a finite part of an infinite domain only
    (:mod:`mirror.evaluate.polarity`)."""
    known = _first(truth.known)
    if not _first(truth.sure):
        return None, known
    return _first(truth.ok), known


def _first(values) -> bool:
    """The first (the draw's) entry of a truth's part, as a bool."""
    if type(values) is np.ndarray and values.shape == (1,):
        return bool(values[0])
    return bool(np.asarray(values).reshape(-1)[0])


def _evaluate(function: Callable, plan: dict, example: dict[str, Any], rt,
              batch: dict[str, Any] | None = None) -> tuple:
    """``(hypotheses, conclusion)`` states of one rigorous evaluation (``None`` undecided);
    an evaluation that leaves the sampled domain is ``("out", "out")``. ``batch`` is
    :func:`as_batch` of the example when the caller has it already (each evaluation lifts
    its own copy: a property never sees another evaluation's arrays)."""
    try:
        if batch is None:
            batch = as_batch(example, plan)
        else:
            batch = {k: v.copy() for k, v in batch.items()}
        values = {k: rt.lift(v) for k, v in batch.items()}
        hyp, concl = function(rt, **values)
    except OutOfDomain:
        return "out", "out"
    except (ArithmeticError, ValueError, TypeError, ZeroDivisionError) as exc:
        rt.undecided = True
        rt.reasons.append(f"{type(exc).__name__}: {str(exc)[:120]}")
        return UNKNOWN, UNKNOWN
    if rt.invalid[0] or rt.impl_nonfinite[0]:
        return "out", "out"
    if rt.undecided:
        return UNKNOWN, UNKNOWN
    return _part(hyp), _part(concl)


def _verdict(hyp: tuple, concl: tuple) -> str:
    """The verdict of decided parts, in the polarity truncation allows: false hypotheses
    make a draw vacuous only when known; a failing conclusion refutes only when the
    hypotheses and the conclusion are both known."""
    (hyp_value, hyp_known), (concl_value, concl_known) = hyp, concl
    if hyp_value is False:
        return VACUOUS if hyp_known else UNDECIDED
    if hyp_value is True and concl_value is True:
        return HOLDS
    if hyp_value is True and concl_value is False and hyp_known and concl_known:
        return FAILS
    return UNDECIDED


def _combine(first: tuple, second: tuple | None) -> tuple:
    """Two sound decisions of one part: either decides; they cannot disagree. The part is
    known only where both runs know it (they evaluate the same truncations)."""
    if second is None or second[0] is None:
        return first
    (a, a_known), (b, b_known) = first, second
    if a is not None and b is not None and a != b:
        raise ArithmeticError("ball arithmetic and sympy decide a part differently")
    return (a if a is not None else b), a_known and b_known


#: Scalar float types a draw comes as (``start_bits`` reads them without an array).
_FLOAT_SCALARS = frozenset({float, np.float64})


def start_bits(example: dict[str, Any]) -> int:
    """The starting precision: :data:`START_BITS` plus the binary orders of magnitude the
    draws span, so that ``x + 1e300 - 1e300`` keeps ``x`` at the first precision."""
    magnitudes = []
    for value in example.values():
        if type(value) in _FLOAT_SCALARS:  # one float draw (the common case), without arrays
            size = abs(float(value))
            if size > 0 and math.isfinite(size):
                magnitudes.extend([math.log2(size)] * 2)
            continue
        arr = np.asarray(value)
        if arr.dtype.kind not in "fc" or arr.size == 0:
            continue
        finite = np.abs(arr[np.isfinite(arr)])
        finite = finite[finite > 0]
        if finite.size:
            magnitudes.extend([math.log2(finite.max()), math.log2(finite.min())])
    if not magnitudes:
        return START_BITS
    span = max(0.0, max(magnitudes)) - min(0.0, min(magnitudes))
    return int(min(MAX_BITS, START_BITS + math.ceil(span)))


def _ball_method(trace: list[dict], bits: int) -> str:
    if not trace:
        return "exact evaluation (no relation left to decide)"
    exact = all(entry["difference"]["rad"] == "0" for entry in trace)
    return EXACT_METHOD if exact else f"ball arithmetic at {bits} bits"


def decide(
    function: Callable,
    plan: dict,
    example: dict[str, Any],
    bindings: dict[str, Callable] | None = None,
    tolerance: float | None = None,
) -> Decision:
    """Decide the statement ``function`` at ``example`` (Lean-named draw values).

    With ``tolerance`` (a bound implementation is involved) one 50-digit mpmath evaluation
    compares within it. Without, ball arithmetic at rising precision, and sympy for the
    equations the balls leave open; what neither decides is :data:`UNDECIDED`."""
    nat_domain = plan["settings"]["nat_domain"]
    if tolerance is not None:
        return _within_tolerance(function, plan, example, bindings, tolerance)
    bits = start_bits(example)
    try:  # once: every precision lifts the same values (a failure is _evaluate's to report)
        batch = as_batch(example, plan)
    except (ArithmeticError, ValueError, TypeError):
        batch = None
    identity: tuple | None = None
    reasons: list[str] = []
    previous: list[float] | None = None
    while True:
        rt = BallRuntime(nat_domain, bindings)
        started = time.monotonic()
        with working_precision(bits):
            hyp, concl = _evaluate(function, plan, example, rt, batch)
        seconds = time.monotonic() - started
        if hyp == "out":
            return Decision(UNDECIDED, OUTSIDE, math.nan, bits)
        verdict = _verdict(hyp, concl)
        trace = tuple(rt.trace)
        if verdict != UNDECIDED:
            return Decision(verdict, _ball_method(rt.trace, bits),
                            math.inf if verdict == FAILS else 0.0, bits, trace)
        reasons = rt.reasons or [entry["relation"] + " not decided by its enclosure"
                                 for entry in rt.trace if entry["decision"] == "undecided"][:3]
        if identity is None:
            identity = _sympy_states(function, plan, example, bindings, batch)
        try:
            verdict = _verdict(_combine(hyp, identity[0]), _combine(concl, identity[1]))
        except ArithmeticError as exc:
            return Decision(UNDECIDED, str(exc), math.nan, bits, trace, tuple(reasons),
                            _open_part(hyp))
        if verdict != UNDECIDED:
            return Decision(verdict, f"sympy identity at the draw, ball arithmetic at {bits} bits",
                            math.inf if verdict == FAILS else 0.0, bits, trace)
        radii = None if rt.reasons else _open_radii(trace)
        if bits >= MAX_BITS or seconds > DECIDE_SECONDS or _converged(previous, radii, bits):
            break
        previous = radii
        bits = min(MAX_BITS, bits * 2)
    return Decision(UNDECIDED, f"no enclosure decides it up to {bits} bits "
                    f"({'; '.join(dict.fromkeys(reasons)) or 'undecided relations'})",
                    math.nan, bits, trace, tuple(reasons), _open_part(hyp))


def _log2_size(text: str) -> float:
    """``log2 |x|`` (roughly) of an enclosure's exact text (``p/q`` or ``m*2^e``)."""
    if "*2^" in text:
        mantissa, exponent = text.split("*2^")
        return abs(int(mantissa)).bit_length() + int(exponent)
    numerator, slash, denominator = text.partition("/")
    digits = numerator[1:] if numerator[:1] == "-" else numerator
    if (digits.isascii() and digits.isdigit() and (not slash or (denominator.isascii()
                                                                and denominator.isdigit()))):
        # an enclosure's own text (``p`` or ``p/q`` in lowest terms): read without Fraction
        p, q = int(numerator), int(denominator) if slash else 1
        if q and math.gcd(p, q) == 1:
            return -math.inf if p == 0 else abs(p).bit_length() - q.bit_length()
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return math.inf
    if value == 0:
        return -math.inf
    return abs(value.numerator).bit_length() - value.denominator.bit_length()


def _open_radii(trace: tuple) -> list[float] | None:
    """``log2`` of the radius of each relation no enclosure decided (they all contain 0)."""
    radii = [_log2_size(entry["difference"]["rad"]) for entry in trace
             if entry["decision"] == "undecided"]
    return radii or None


def _converged(previous: list[float] | None, radii: list[float] | None, bits: int) -> bool:
    """Stop raising the precision: every open relation's ball still contains 0 although its
    radius shrank by at least half the bits added — the difference converges to 0, which no
    ball ever excludes (only an identity, already tried, decides it). Stopping only ever
    leaves a draw undecided."""
    if previous is None or radii is None or len(previous) != len(radii):
        return False
    return all(now <= before - bits // 4 for before, now in zip(previous, radii))


def _open_part(hyp: tuple) -> str:
    """The part an undecided draw leaves open: the hypotheses unless they were decided
    (and known), else the conclusion."""
    value, known = hyp
    return "conclusion" if value is True and known else "hypotheses"


#: Identities proved once per statement and draw signature (:class:`SymbolicRuntime`):
#: function → {signature: (symbols by parameter, proven differences)}.
_IDENTITIES: "weakref.WeakKeyDictionary[Callable, dict]" = weakref.WeakKeyDictionary()


def _identities(function: Callable, plan: dict, example: dict[str, Any],
                bindings: dict[str, Callable] | None,
                batch: dict[str, Any] | None = None) -> frozenset:
    """The statement's identities (proved on symbols once per draw signature) instantiated at
    ``example``: differences the draw's sympy evaluation need not prove again. ``batch``:
    :func:`as_batch` of the example, when the caller has it (only read here)."""
    if batch is None:
        batch = as_batch(example, plan)
    signature = tuple((k, np.asarray(v).dtype.kind, np.asarray(v).shape)
                      for k, v in sorted(batch.items()))
    per_function = _IDENTITIES.setdefault(function, {})
    if signature not in per_function:
        per_function[signature] = _prove_identities(function, plan, batch, bindings)
    symbols, proven = per_function[signature]
    if not proven:
        return frozenset()
    substitution = {}
    for name, symbol in symbols.items():
        value = np.asarray(batch[name]).reshape(-1)[0]
        substitution[symbol] = (sp.Integer(int(value)) if np.asarray(value).dtype.kind in "iu"
                                else sp.Rational(Fraction(float(value))))
    return frozenset(d.xreplace(substitution) for d in proven)


def _prove_identities(function: Callable, plan: dict, batch: dict[str, Any],
                      bindings: dict[str, Callable] | None) -> tuple:
    """``(symbols, differences proved 0)`` of one symbolic evaluation (within the bound)."""
    values = symbolic_draw(batch)
    if values is None or any(not np.isfinite(np.asarray(v, dtype=float)).all()
                             for v in batch.values() if np.asarray(v).dtype.kind == "f"):
        return {}, ()
    rt = SymbolicRuntime(plan["settings"]["nat_domain"], bindings)

    def run():
        try:
            function(rt, **values)
        except (ArithmeticError, ValueError, TypeError, OutOfDomain):
            pass  # what was proved before the failure stays proved

    Guard(EVALUATION_SECONDS).call("identities on symbols", run)
    symbols = {name: cell.reshape(-1)[0] for name, cell in values.items()}
    return symbols, tuple(rt.proven)


def _sympy_states(function: Callable, plan: dict, example: dict[str, Any],
                  bindings: dict[str, Callable] | None,
                  batch: dict[str, Any] | None = None) -> tuple:
    """The parts the sympy runtime decides at the draw (``(None, None)`` when it cannot);
    ``batch``: :func:`as_batch` of the example, when the caller has it."""
    rt = SympyRuntime(plan["settings"]["nat_domain"], bindings,
                      known_zero=_identities(function, plan, example, bindings, batch))
    states = Guard(EVALUATION_SECONDS).call("sympy at the draw", _evaluate, function, plan,
                                            example, rt, batch)
    return (None, None) if states is None or states[0] == "out" else states


def _within_tolerance(function: Callable, plan: dict, example: dict[str, Any],
                      bindings: dict[str, Callable] | None, tolerance: float) -> Decision:
    """A bound implementation against its Lean definition, within ``tolerance`` (mpmath)."""
    rt = MpRuntime(plan["settings"]["nat_domain"], digits=TOLERANCE_DIGITS,
                   tolerance=tolerance, bindings=bindings)
    values = {k: rt.lift(v) for k, v in as_batch(example, plan).items()}
    try:
        hyp, concl = function(rt, **values)
    except OutOfDomain:
        return Decision(UNDECIDED, "outside the sampled domain", math.nan)
    except (ArithmeticError, ValueError, TypeError) as exc:
        return Decision(UNDECIDED, f"{type(exc).__name__}: {exc}", math.nan)
    method = f"mpmath at {TOLERANCE_DIGITS} digits within {tolerance:g}"
    if rt.invalid[0] or rt.impl_nonfinite[0]:
        return Decision(UNDECIDED, method, math.nan)
    hyp_known, concl_known = bool(np.asarray(hyp.known)[0]), bool(np.asarray(concl.known)[0])
    if not bool(np.asarray(hyp.ok)[0]):
        return Decision(VACUOUS if hyp_known else UNDECIDED, method)
    error = float(np.asarray(concl.err)[0])
    if bool(np.asarray(concl.ok)[0]):
        return Decision(HOLDS, method, error)
    # a value seen on a prefix of ℕ only is no refutation (mirror.evaluate.polarity)
    return Decision(FAILS if hyp_known and concl_known else UNDECIDED, method, error)


__all__ = ["Decision", "EXACT_METHOD", "OUTSIDE", "FAILS", "HOLDS", "MAX_BITS", "UNDECIDED", "VACUOUS",
           "as_batch", "decide", "start_bits"]
