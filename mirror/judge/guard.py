"""The guard: one statement's work, isolated and bounded in time.

Every stage leanmirror runs for one statement (translate, unfold, plan, print, symbolic
settle, check) runs inside a :class:`Guard`. Whatever goes wrong there, an exception from
sympy, a ``RecursionError`` from an unfolding that does not terminate, or a stage that runs
past the statement's wall-clock limit, becomes a :class:`Failure` naming the stage, which the
pipeline turns into that statement's ``error`` row. One statement never stops the others.

The time limit is enforced *inside* running Python code (sympy's ``simplify`` included) with
``SIGALRM`` when the guard runs on the main thread of a POSIX process; elsewhere it is checked
between stages only. The alarm raises :class:`StatementTimeout`, a ``BaseException``, so that
no ``except Exception`` on the way (Hypothesis treats exceptions as failing examples) can
mistake it for a result.
"""

from __future__ import annotations

import signal
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

T = TypeVar("T")

#: The default per-statement wall-clock limit (``--statement-timeout``), in seconds.
DEFAULT_STATEMENT_TIMEOUT = 120.0


class StatementTimeout(BaseException):
    """A statement ran past its wall-clock limit (raised asynchronously by the alarm)."""


@dataclass(frozen=True)
class Failure:
    """leanmirror failed on one statement: where, and how."""

    stage: str
    kind: str
    message: str
    timed_out: bool = False

    def describe(self) -> str:
        if self.timed_out:
            return f"leanmirror error: timed out in {self.stage} ({self.message})"
        return f"leanmirror error in {self.stage}: {self.kind}: {self.message}"


def _alarm_usable() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


class Guard:
    """Runs the stages of one statement; the first failure is kept in :attr:`failure`.

    ``timeout`` is the statement's whole budget in seconds (``None``: unlimited); time
    already spent (``spent``) counts against it, so that the stages before checking and the
    check itself share one limit.

    Use::

        guard = Guard(timeout=120)
        statement = guard.call("translate", translator.translate_statement, decl)
        if guard.failed:
            ...  # guard.failure says where and what
    """

    def __init__(self, timeout: float | None = DEFAULT_STATEMENT_TIMEOUT, spent: float = 0.0):
        if timeout is not None and not timeout > 0:
            raise ValueError(f"timeout={timeout!r}: expected a positive number of seconds or None")
        self.timeout = timeout
        self.started = time.monotonic() - spent
        self.failure: Failure | None = None
        self.current: str | None = None

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def remaining(self) -> float | None:
        if self.timeout is None:
            return None
        return self.timeout - self.elapsed

    @property
    def failed(self) -> bool:
        return self.failure is not None

    def call(self, stage: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
        """``fn(*args, **kwargs)`` as the stage ``stage``: its value, or ``None`` with
        :attr:`failure` set when it raised or ran out of time. Nothing runs after a failure."""
        if self.failure is not None:
            return None
        self.current = stage
        remaining = self.remaining()
        if remaining is not None and remaining <= 0:
            self.failure = self._timed_out(stage)
            return None
        armed = remaining is not None and _alarm_usable()
        previous = None
        outer = 0.0
        entered = time.monotonic()
        try:
            if armed:
                # a guard inside another guard's stage: the earlier alarm wins, and is restored
                outer = signal.getitimer(signal.ITIMER_REAL)[0]
                previous = signal.signal(signal.SIGALRM, _raise_timeout)
                signal.setitimer(signal.ITIMER_REAL, min(remaining, outer) if outer else remaining)
            try:
                return fn(*args, **kwargs)
            finally:
                if armed:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                    signal.signal(signal.SIGALRM, previous or signal.SIG_DFL)
                    if outer:
                        left = outer - (time.monotonic() - entered)
                        signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6))
        except StatementTimeout:
            self.failure = self._timed_out(stage)
        except Exception as exc:  # noqa: BLE001 - the point of the guard
            text = str(exc).strip()
            message = text.splitlines()[0][:500] if text else ""
            if armed and self.remaining() <= 0:
                # raised after the limit: the alarm landed where it was swallowed (Hypothesis's
                # gc callback) and left a library mid-operation ("IndexError: pop from empty
                # list"): the stage ran out of time, and what broke is said beside it
                self.failure = Failure(stage, "StatementTimeout",
                                       f"limit {self.timeout:g} s; then {type(exc).__name__}: "
                                       f"{message}", timed_out=True)
            else:
                self.failure = Failure(stage, type(exc).__name__, message)
        return None

    def _timed_out(self, stage: str) -> Failure:
        return Failure(stage, "StatementTimeout", f"limit {self.timeout:g} s", timed_out=True)


#: how soon an expired alarm fires again: the exception can land where it is swallowed (a
#: ``gc`` callback, a ``__del__``, a bare ``except`` in user code), and the stage must still end
_REFIRE_SECONDS = 0.05


def _raise_timeout(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
    # re-armed before raising: if this raise is swallowed the alarm comes back until the guarded
    # call ends (its ``finally`` disarms the timer), so a time limit can never be lost
    signal.setitimer(signal.ITIMER_REAL, _REFIRE_SECONDS)
    if frame is not None and frame.f_code is _GUARD_CALL_CODE:
        return  # the guard's own set-up or clean-up: it disarms, or the stage starts and it fires
    raise StatementTimeout()


_GUARD_CALL_CODE = Guard.call.__code__


__all__ = ["DEFAULT_STATEMENT_TIMEOUT", "Failure", "Guard", "StatementTimeout"]
