"""What a command tells the person (or the CI log) watching it.

A progress bar only on a terminal; in a pipe a plain line every :data:`PLAIN_INTERVAL`
seconds, so a log shows that a long run is alive without carriage-return frames. ``-q``
silences progress and notes; ``-v`` adds each statement's verdict as it arrives. Python
warnings raised by user kernels are counted and summarised once, never printed per call.
"""

from __future__ import annotations

import sys
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, TextIO

#: Seconds between plain progress lines when stderr is not a terminal.
PLAIN_INTERVAL = 5.0


@dataclass
class Console:
    """Verbosity (``-1`` quiet, ``0`` normal, ``1`` verbose) and where messages go."""

    verbosity: int = 0
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    interval: float = PLAIN_INTERVAL
    clock: Callable[[], float] = time.monotonic

    @property
    def is_tty(self) -> bool:
        isatty = getattr(self.stream, "isatty", None)
        return bool(isatty and isatty())

    def say(self, text: str) -> None:
        """A line at normal verbosity (silenced by ``-q``)."""
        if self.verbosity >= 0:
            print(text, file=self.stream, flush=True)

    def detail(self, text: str) -> None:
        """A line shown only with ``-v``."""
        if self.verbosity >= 1:
            print(text, file=self.stream, flush=True)

    def progress(self, desc: str, total: int | None = None) -> "Progress":
        """A progress display fit for this stream: a bar, plain lines, or nothing."""
        if self.verbosity < 0:
            return Progress(self, desc, total, bar=None, plain=False)
        if self.is_tty:
            from tqdm import tqdm

            bar = tqdm(desc=desc, total=total, unit="stmt", file=self.stream,
                       dynamic_ncols=True)
            return Progress(self, desc, total, bar=bar, plain=False)
        return Progress(self, desc, total, bar=None, plain=True)


@dataclass
class Progress:
    """Counts results as they arrive (``advance``) and shows them as its console allows."""

    console: Console
    desc: str
    total: int | None
    bar: Any = None
    plain: bool = False
    done: int = 0
    statuses: Counter = field(default_factory=Counter)
    _last: float | None = None

    def advance(self, result: Any) -> None:
        """One more statement finished (a ``StatementResult`` or its JSON dict)."""
        self.done += 1
        name = _field(result, "name") or ""
        status = _field(result, "mirror_status") or "none"
        self.statuses[status] += 1
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix_str(str(name)[-40:])
        self.console.detail(f"{status:<13} {name}")
        now = self.console.clock()
        if self.plain and self.console.verbosity == 0:
            if self._last is None:
                self._last = now
            elif now - self._last >= self.console.interval:
                self._last = now
                self.console.say(self.line())

    def line(self) -> str:
        """``report: 40/108 statements (3 refuted)``."""
        of = f"/{self.total}" if self.total else ""
        refuted = self.statuses.get("refuted", 0)
        tail = f" ({refuted} refuted)" if refuted else ""
        return f"{self.desc}: {self.done}{of} statements{tail}"

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _field(result: Any, name: str) -> Any:
    if isinstance(result, dict):
        return result.get(name)
    return getattr(result, name, None)


def summarise_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    """One line per distinct warning message, with how often it was raised.

    ``RuntimeWarning: overflow encountered in exp (×19, toyimpl/ops.py:12)``: user kernels
    raise the same warning on every call; a run reports each once, with its count."""
    counts: Counter = Counter()
    where: dict[tuple[str, str], str] = {}
    order: list[tuple[str, str]] = []
    for warning in caught:
        key = (warning.category.__name__, " ".join(str(warning.message).split()))
        if key not in counts:
            order.append(key)
            where[key] = f"{warning.filename}:{warning.lineno}"
        counts[key] += 1
    lines = []
    for key in order:
        category, text = key
        times = f"×{counts[key]}, " if counts[key] > 1 else ""
        if category in ("UserWarning", "FallbackWarning"):
            lines.append(f"{text}" + (f" (×{counts[key]})" if counts[key] > 1 else ""))
        else:
            lines.append(f"{category}: {text} ({times}{where[key]})")
    return lines


__all__ = ["Console", "PLAIN_INTERVAL", "Progress", "summarise_warnings"]
