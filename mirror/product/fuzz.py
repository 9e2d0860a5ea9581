"""Property-fuzz sessions: every mirrored statement, on all local cores or on a Ray cluster.

:func:`run_session` builds the mirrors of a project, keeps the selected ones, and checks
each with ``mirror.product.pipeline.check_mirror`` in the worker processes of :mod:`mirror.product.workers` (*spawn*
context) or as Ray tasks. Every result is appended to a JSON-lines log the moment it
arrives (``mirror.judge.fileio.append_jsonl``: one ``fsync``-ed line per record), and
counterexamples go to the Hypothesis example database (``CheckSettings.database``; one
sub-directory per statement, see :func:`database_slot`), so a session killed with SIGKILL
loses nothing it already found and the next session replays the saved counterexamples
first.

Log records (one JSON object per line)::

    {"event": "session-start", "session": ID, "time": ISO, "project": …, "backend": …,
     "statements": N, "settings": {…}}
    {"event": "result", "session": ID, "time": ISO, "round": R,
     "result": StatementResult.to_json()}          (one per round of one statement)
    {"event": "session-end", "session": ID, "time": ISO, "done": K, "examples": E,
     "failures": [names], "stopped": null | "time budget" | "interrupted", "not_run": […]}

A time-budgeted session runs in rounds (:class:`_Campaign`); :func:`read_session_log` and
the session summary merge a statement's rounds (:func:`merge_rounds`).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
import pickle
import time
import uuid
from collections import deque
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from bridge.errors import InvalidArgument, LeanMirrorError
from mirror.judge.fileio import append_jsonl, read_jsonl
from mirror.judge.guard import DEFAULT_STATEMENT_TIMEOUT
from mirror.product.replay import attach_replay
from mirror.judge.result import StatementResult

#: Examples per statement when only a time budget is given (the budget ends the run).
UNBOUNDED_EXAMPLES = 1_000_000
#: Where a session keeps its log and database, relative to the project, by default.
STATE_DIR = ".leanmirror"


class FuzzError(LeanMirrorError, RuntimeError):
    """A fuzz session cannot run (no statements selected, Ray unavailable, …)."""


@dataclass
class SessionSummary:
    """The outcome of one fuzz session."""

    session: str
    backend: str
    log: Path
    database: Path
    #: Statements selected for this session.
    statements: int = 0
    #: Statements whose result arrived.
    done: int = 0
    examples: int = 0
    #: Names of refuted statements.
    failures: list[str] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    results: list[StatementResult] = field(default_factory=list)
    #: ``None`` when every statement ran; ``"time budget"`` or ``"interrupted"`` otherwise.
    stopped: str | None = None
    elapsed: float = 0.0
    #: Problems that did not stop the session (failed example-database writes, …).
    warnings: list[str] = field(default_factory=list)


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def default_paths(project: str | Path) -> tuple[Path, Path]:
    """``(log, database)`` defaults: ``<project>/.leanmirror/fuzz.jsonl`` and ``…/hypothesis``."""
    base = Path(project) / STATE_DIR
    return base / "fuzz.jsonl", base / "hypothesis"


def select_mirrors(mirrors: Sequence[Any], select: Iterable[str] | None) -> list[Any]:
    """The checkable mirrors named by ``select`` (statement names, short names or modules).

    A token matches a statement by its full name, its last name component, or its module
    (``Toy.Ops`` selects ``Toy.Ops`` and ``Toy.Ops.*``). Definitions are never
    selected (they are not statements). A token matching nothing is an error.
    """
    from mirror.product.settings import selects

    candidates = [m for m in mirrors if getattr(m, "status", None) != "definition"]
    if select is None:
        return sorted(candidates, key=lambda m: m.name)
    tokens = [t for t in select if t]
    chosen: dict[str, Any] = {}
    unmatched = []
    for token in tokens:
        hits = [m for m in candidates if selects(token, m)]
        if not hits:
            unmatched.append(token)
        for m in hits:
            chosen[m.name] = m
    if unmatched:
        raise InvalidArgument(
            f"select: {unmatched!r} matches no mirrored statement or module; expected names "
            "such as " + ", ".join(sorted(m.name for m in candidates)[:3] or ["(none found)"])
        )
    return [chosen[name] for name in sorted(chosen)]


def check_task(payload: tuple[Any, str, str, str, Any]) -> dict[str, Any]:
    """Check one statement (worker side); returns ``StatementResult.to_json()``.

    ``payload`` is ``(mirror or None, project, method, name, settings)``; without a mirror
    the worker rebuilds it from the project. Failures become an ``error`` result with the
    exception as the reason, so one broken statement never ends a session.
    """
    mirror, project, method, name, settings = payload
    started = time.perf_counter()
    try:
        from mirror.product.pipeline import check_mirror

        if mirror is None:
            from mirror.product.tasks import built

            mirror = built(project, method, settings.statement_timeout)["mirrors"][name]
        from mirror.product.tasks import with_database_warnings

        result = check_mirror(mirror, settings)
        if result.duration == 0.0:
            result.duration = time.perf_counter() - started
        return with_database_warnings(result.to_json())
    except Exception as exc:  # reported as a result: the session goes on
        declaration = getattr(mirror, "declaration", None)
        failed = StatementResult(
            name=name,
            module=getattr(declaration, "module", ""),
            kind=getattr(declaration, "kind", "theorem"),
            lean_status=getattr(declaration, "lean_status", "unchecked"),
            mirror_status="error",
            reason=f"leanmirror error in check: {type(exc).__name__}: {exc}",
            stage="check",
            statement=getattr(declaration, "statement_text", ""),
            duration=time.perf_counter() - started,
        )
        return failed.to_json()


def database_slot(database: Path, name: str) -> Path:
    """The example-database directory of one statement inside a session database.

    Each statement gets its own directory, so one statement's saved counterexamples can
    never be replayed (and, when they pass there, deleted) by another statement even if
    two properties end up with the same Hypothesis database key.
    """
    return Path(database) / hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]


def _payloads(mirrors: list[Any], project: Path, method: str, settings: Any) -> list[tuple]:
    """Pickled mirrors where possible; otherwise the worker rebuilds them by name."""
    out = []
    for mirror in mirrors:
        carried = None
        if getattr(mirror, "declaration", None) is not None:  # a built mirror, not a survey's
            try:
                pickle.dumps(mirror)
                carried = mirror
            except Exception:  # sympy objects or closures that do not pickle
                carried = None
        own = replace(settings, database=database_slot(settings.database, mirror.name))
        out.append((carried, str(project), method, mirror.name, own))
    return out


def _settings_json(settings: Any) -> dict[str, Any]:
    data = asdict(settings)
    return {k: (str(v) if isinstance(v, Path) else v) for k, v in data.items()}


class _PoolExecutor:
    """Rounds as tasks of the session's pool (:mod:`mirror.product.workers`): a round whose
    worker dies, or runs past the hard limit, is that statement's ``error`` result."""

    def __init__(self, pool: Any, rows: dict[str, dict[str, Any]], limit: float | None,
                 poisoned: tuple = ()) -> None:
        self.pool, self.rows, self.limit, self.poisoned = pool, rows, limit, poisoned

    def submit(self, payload: tuple) -> None:
        mirror, project, method, name, settings = payload
        if mirror is None:  # the worker builds it (the parent never imports bindings)
            target = "mirror.product.tasks:check"
            args: tuple = (project, method, settings.statement_timeout, self.poisoned, name,
                           settings)
        else:
            target, args = "mirror.product.fuzz:check_task", (payload,)
        self.pool.submit(name, target, args, timeout=self.limit)

    def next(self, timeout: float | None) -> dict[str, Any] | None:
        outcome = self.pool.next(timeout)
        if outcome is None:
            return None
        from mirror.product.tasks import death_row, with_output

        row = outcome.value if outcome.ok else death_row(self.rows[outcome.key],
                                                         outcome.describe())
        return with_output(row, outcome)

    def close(self, finished: bool) -> None:
        self.pool.close(finished)


#: Statuses after which more rounds cannot change a statement's verdict.
SETTLED = frozenset({"symbolic", "certified", "vacuous", "refuted", "untranslatable", "unbound", "error"})
#: Longest time one round of one statement takes in a time-budgeted session, in seconds.
ROUND_MAX = 20.0
#: Shortest round worth starting, in seconds.
ROUND_MIN = 0.3
#: Seconds the session waits after its budget for rounds already running (their examples
#: count); each round honours its own slice, so they end within it.
GRACE = 5.0


def merge_rounds(previous: StatementResult | None, new: StatementResult) -> StatementResult:
    """One statement's result over its rounds: examples add up, the largest error is kept,
    a refutation or an error is final, and inconclusiveness is re-judged on the totals."""
    if previous is None:
        return new
    if previous.mirror_status in SETTLED:
        return previous
    merged = replace(new, examples=previous.examples + new.examples,
                     rejected=previous.rejected + new.rejected,
                     undecided=previous.undecided + new.undecided,
                     duration=round(previous.duration + new.duration, 3))
    merged.max_error = max((e for e in (previous.max_error, new.max_error) if e is not None),
                           default=None)
    if new.mirror_status in SETTLED:
        return merged
    # a float-only mismatch, or a float64 failure no precision decided, stays inconclusive
    float_only = [r for r in (previous, new) if r.mirror_status == "inconclusive"
                  and r.reason and ("float64 mismatch" in r.reason
                                    or "undecided by exact and ball" in r.reason)]
    if float_only:
        kept = float_only[-1]
        return replace(merged, mirror_status="inconclusive", reason=kept.reason,
                       counterexample=kept.counterexample)
    from mirror.product.settings import CheckSettings

    not_counted = merged.rejected + merged.undecided
    total = merged.examples + not_counted
    if merged.examples and not_counted <= CheckSettings.max_reject_fraction * total:
        return replace(merged, mirror_status="tested", reason=None)
    return replace(merged, mirror_status="inconclusive", reason=(
        f"{not_counted} of {total} draws not counted: {merged.rejected} rejected by the "
        f"hypotheses or outside the sampled domain, {merged.undecided} undecided"))


@dataclass
class _Campaign:
    """The round-robin schedule of a session: every statement gets a first round before any
    gets a second; settled statements leave the rotation."""

    names: list[str]
    jobs: int
    deadline: float | None
    examples: int | None
    #: Seconds one round of one statement may take (``None``: example budget only).
    slice: float | None
    merged: dict[str, StatementResult] = field(default_factory=dict)
    rounds: dict[str, int] = field(default_factory=dict)
    queue: deque = field(default_factory=deque)

    def __post_init__(self) -> None:
        self.queue.extend(self.names)

    def next_slice(self) -> float | None:
        """The time budget of the next round (``None``: examples only; 0: too late)."""
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        return min(self.slice or left, left) if left >= ROUND_MIN else 0.0

    def wants_more(self, name: str) -> bool:
        result = self.merged.get(name)
        if result is None:
            return True
        if self.deadline is None or result.mirror_status in SETTLED:
            return False
        if self.examples is not None and result.examples >= self.examples:
            return False
        return time.monotonic() < self.deadline - ROUND_MIN

    def examples_left(self, name: str) -> int | None:
        if self.examples is None:
            return None
        done = self.merged.get(name)
        return max(1, self.examples - (done.examples if done else 0))


def _round_slice(time_budget: float | None, jobs: int, statements: int) -> float | None:
    """A round's length: the budget spread so that the first round of every statement takes
    about a third of it, within ``[ROUND_MIN, ROUND_MAX]``."""
    if time_budget is None:
        return None
    return max(ROUND_MIN, min(ROUND_MAX, time_budget * min(jobs, statements) / (3 * statements)))


def _drive(campaign: _Campaign, executor: Any, payloads: dict[str, tuple],
           in_flight: dict[str, int], on_result: Callable, progress_bar: Any,
           seed: int) -> str | None:
    """Keep every worker busy with rounds until the budget ends; why it stopped early."""
    while True:
        while len(in_flight) < campaign.jobs and campaign.queue:
            round_slice = campaign.next_slice()
            if round_slice is not None and round_slice <= 0:
                break
            name = campaign.queue.popleft()
            round_no = campaign.rounds.get(name, 0) + 1
            campaign.rounds[name] = round_no
            mirror, project, method, _, settings = payloads[name]
            # a later round does not repeat the symbolic attempt that left it in the rotation
            own = replace(settings, seed=seed + round_no - 1, time_budget=round_slice,
                          symbolic=round_no == 1)
            left = campaign.examples_left(name)
            if left is not None:
                own = replace(own, max_examples=left)
            executor.submit((mirror, project, method, name, own))
            in_flight[name] = round_no
            if progress_bar is not None:
                progress_bar.working(name)
        if not in_flight:
            break
        wait = None
        if campaign.deadline is not None:
            wait = max(0.0, campaign.deadline + GRACE - time.monotonic())
        data = executor.next(wait)
        if data is None:
            return "time budget"
        name = data["name"]
        on_result(data, name, in_flight.pop(name))
        if campaign.wants_more(name):
            campaign.queue.append(name)
    if any(n not in campaign.merged for n in campaign.names):
        return "time budget"
    return None


class _Progress:
    """The session's progress bar: statements with a first result, examples/s, refutations
    and the statement last sent to a worker."""

    def __init__(self, total: int, start: float) -> None:
        from tqdm import tqdm

        self.start = start
        self.bar = tqdm(total=total, desc="fuzz", unit="stmt", dynamic_ncols=True)
        self.current = ""
        self.examples = 0
        self.refuted = 0

    def working(self, name: str) -> None:
        self.current = name
        self._postfix()

    def update(self, first: bool, examples: int, refuted: int) -> None:
        self.examples, self.refuted = examples, refuted
        if first:
            self.bar.update(1)
        self._postfix()

    def _postfix(self) -> None:
        rate = self.examples / max(time.monotonic() - self.start, 1e-9)
        self.bar.set_postfix_str(f"{rate:,.0f} ex/s, {self.refuted} refuted, "
                                 f"now {self.current[-40:]}")

    def close(self) -> None:
        self.bar.close()


def run_session(
    project: str | Path,
    *,
    select: Iterable[str] | None = None,
    examples: int | None = None,
    time_budget: float | None = None,
    jobs: int | None = None,
    log: str | Path | None = None,
    database: str | Path | None = None,
    ray: str | None = None,
    progress: bool = True,
    method: str = "auto",
    seed: int = 0,
    mirrors: Sequence[Any] | None = None,
    statement_timeout: float | None = DEFAULT_STATEMENT_TIMEOUT,
) -> SessionSummary:
    """Fuzz the mirrored statements of ``project``; see the module docstring.

    ``examples`` is the example budget per statement; ``time_budget`` (seconds) bounds the
    whole session: statements are checked in rounds (every statement gets a first round
    before any gets a second, each round honours its time slice inside the statement's run,
    settled statements leave the rotation) until it runs out. Both may be given; whichever
    ends first ends a statement. ``jobs`` defaults to all local cores. ``ray`` is a cluster
    address or ``"local"``. ``mirrors`` (already built) skips the extraction.
    """
    _check_session_arguments(examples, time_budget, jobs)
    project = Path(project)
    default_log, default_db = default_paths(project)
    log_path = Path(log) if log is not None else default_log
    db_path = Path(database) if database is not None else default_db
    jobs = jobs or os.cpu_count() or 1
    from mirror.product.settings import CheckSettings

    settings = CheckSettings(
        database=db_path, seed=seed, statement_timeout=statement_timeout,
        max_examples=examples if examples is not None else (
            UNBOUNDED_EXAMPLES if time_budget is not None else CheckSettings.max_examples))
    pool = _open_pool(jobs, ray)
    try:
        chosen, executor = _chosen(pool, project, mirrors, select, method, settings)
    except BaseException:
        pool.close(finished=False)
        raise
    db_path.mkdir(parents=True, exist_ok=True)
    summary = SessionSummary(session=uuid.uuid4().hex[:12],
                             backend=f"ray:{ray}" if ray else "local",
                             log=log_path, database=db_path, statements=len(chosen))
    append_jsonl(log_path, {
        "event": "session-start", "session": summary.session, "time": _now(),
        "project": str(project), "backend": summary.backend, "jobs": jobs,
        "statements": len(chosen), "names": [m.name for m in chosen],
        "settings": _settings_json(settings), "time_budget": time_budget, "examples": examples,
    })
    start = time.monotonic()
    campaign = _Campaign(
        names=[m.name for m in chosen],
        jobs=min(jobs, len(chosen)),
        deadline=None if time_budget is None else start + time_budget,
        examples=examples,
        slice=_round_slice(time_budget, jobs, len(chosen)),
    )
    payloads = {payload[3]: payload for payload in _payloads(chosen, project, method, settings)}
    progress_bar = _Progress(len(chosen), start) if progress else None
    on_result = _recorder(summary, campaign, project, progress_bar)
    in_flight: dict[str, int] = {}
    try:
        summary.stopped = _drive(campaign, executor, payloads, in_flight, on_result,
                                 progress_bar, seed)
    except KeyboardInterrupt:
        summary.stopped = "interrupted"
        raise
    finally:
        executor.close(finished=not in_flight)
        summary.elapsed = time.monotonic() - start
        if progress_bar is not None:
            progress_bar.close()
        _close(summary, campaign)
    summary.failures.sort()
    return summary


def _check_session_arguments(examples: Any, time_budget: Any, jobs: Any) -> None:
    if examples is not None and (isinstance(examples, bool) or not isinstance(examples, int)
                                 or examples <= 0):
        raise InvalidArgument(f"examples: got {examples!r}; expected a positive integer")
    if time_budget is not None and not (
        isinstance(time_budget, (int, float)) and time_budget > 0
    ):
        raise InvalidArgument(f"time_budget: got {time_budget!r}; expected seconds > 0")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs <= 0):
        raise InvalidArgument(f"jobs: got {jobs!r}; expected a positive integer")


def _open_pool(jobs: int, ray: str | None) -> Any:
    from mirror.product.workers import WorkerError, open_pool

    try:
        return open_pool(jobs, ray)
    except WorkerError as exc:
        raise FuzzError(str(exc)) from None


def _chosen(pool: Any, project: Path, mirrors: Sequence[Any] | None,
            select: Iterable[str] | None, method: str,
            settings: Any) -> tuple[list[Any], _PoolExecutor]:
    """The selected statements (surveyed in a worker unless ``mirrors`` are given) and the
    executor that runs their rounds in ``pool``."""
    from mirror.product.runner import hard_limit, survey

    poisoned: tuple = ()
    if mirrors is None:
        found, poisoned = survey(pool, project, method, settings)
        from mirror.product.runner import statement_infos

        candidates: list[Any] = statement_infos(found)
        rows = {i.name: i.row for i in candidates}
        build = found["seconds"]
    else:
        from mirror.product.pipeline import base_row

        candidates = list(mirrors)
        rows = {m.name: base_row(m).to_json() for m in candidates
                if getattr(m, "status", None) != "definition"}
        build = 30.0
    chosen = select_mirrors(candidates, select)
    if not chosen:
        raise FuzzError(f"project {str(project)!r} has no mirrored statements to fuzz")
    return chosen, _PoolExecutor(pool, rows, hard_limit(settings, build), poisoned)


def _recorder(summary: SessionSummary, campaign: _Campaign, project: Path,
              progress_bar: _Progress | None) -> Callable[[dict[str, Any], str, int], None]:
    """What to do with each round's result: log it, merge it, count it, show it."""

    def on_result(data: dict[str, Any], name: str, round_no: int) -> None:
        result = StatementResult.from_json(attach_replay(data, project))
        for warning in data.pop("warnings", ()):
            if warning not in summary.warnings:
                summary.warnings.append(warning)
        append_jsonl(summary.log, {"event": "result", "session": summary.session,
                                   "time": _now(), "round": round_no, "result": data})
        first = name not in campaign.merged
        campaign.merged[name] = merge_rounds(campaign.merged.get(name), result)
        summary.examples += result.examples
        summary.done += first
        if progress_bar is not None:
            refuted = sum(r.mirror_status == "refuted" for r in campaign.merged.values())
            progress_bar.update(first, summary.examples, refuted)

    return on_result


def _close(summary: SessionSummary, campaign: _Campaign) -> None:
    """Collect the merged results into ``summary`` and log the session's end."""
    summary.results = [campaign.merged[n] for n in campaign.names if n in campaign.merged]
    for result in summary.results:
        status = result.mirror_status or "none"
        summary.statuses[status] = summary.statuses.get(status, 0) + 1
    summary.failures = [r.name for r in summary.results if r.mirror_status == "refuted"]
    finished = summary.stopped or summary.done == summary.statements
    append_jsonl(summary.log, {
        "event": "session-end", "session": summary.session, "time": _now(),
        "done": summary.done, "examples": summary.examples,
        "failures": sorted(summary.failures),
        "stopped": summary.stopped if finished else "interrupted",
        "elapsed": round(summary.elapsed, 3),
        "warnings": summary.warnings,
        "not_run": [n for n in campaign.names if n not in campaign.merged],
    })


def read_session_log(log: str | Path) -> dict[str, StatementResult]:
    """Per statement, the rounds of its latest session in a log merged (:func:`merge_rounds`).
    A torn last line is skipped and cut off the log."""
    merged: dict[tuple[str, str], StatementResult] = {}
    latest_session: dict[str, str] = {}
    for record in read_jsonl(log, repair=True).records:
        if isinstance(record, dict) and record.get("event") == "result":
            result = StatementResult.from_json(record["result"])
            key = (result.name, str(record.get("session", "")))
            merged[key] = merge_rounds(merged.get(key), result)
            latest_session[result.name] = key[1]
    return {name: merged[(name, session)] for name, session in latest_session.items()}


__all__ = [
    "FuzzError",
    "SessionSummary",
    "check_task",
    "database_slot",
    "default_paths",
    "merge_rounds",
    "read_session_log",
    "run_session",
    "select_mirrors",
]
