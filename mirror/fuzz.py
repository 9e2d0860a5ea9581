"""Property-fuzz sessions: every mirrored statement, on all local cores or on a Ray cluster.

:func:`run_session` builds the mirrors of a project, keeps the selected ones, and checks
each with ``mirror.pipeline.check_mirror`` in worker processes (multiprocessing, *spawn*
context) or as Ray tasks. Every result is appended to a JSON-lines log the moment it
arrives (``mirror.fileio.append_jsonl``: one ``fsync``-ed line per record), and
counterexamples go to the Hypothesis example database (``CheckSettings.database``; one
sub-directory per statement, see :func:`database_slot`), so a session killed with SIGKILL
loses nothing it already found and the next session replays the saved counterexamples
first.

Log records (one JSON object per line)::

    {"event": "session-start", "session": ID, "time": ISO, "project": …, "backend": …,
     "statements": N, "settings": {…}}
    {"event": "result", "session": ID, "time": ISO, "result": StatementResult.to_json()}
    {"event": "session-end", "session": ID, "time": ISO, "done": K, "examples": E,
     "failures": [names], "stopped": null | "time budget" | "interrupted"}
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import multiprocessing
import os
import pickle
import signal
import time
import uuid
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from bridge.errors import InvalidArgument, LeanMirrorError
from mirror.fileio import append_jsonl, read_jsonl
from mirror.result import StatementResult

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
    candidates = [m for m in mirrors if getattr(m, "status", None) != "definition"]
    if select is None:
        return sorted(candidates, key=lambda m: m.name)
    tokens = [t for t in select if t]
    chosen: dict[str, Any] = {}
    unmatched = []
    for token in tokens:
        hits = [
            m
            for m in candidates
            if m.name == token
            or m.name.endswith("." + token)
            or m.declaration.module == token
            or m.declaration.module.startswith(token + ".")
        ]
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


def _ignore_sigint() -> None:
    """Worker initializer: the parent handles Ctrl-C and terminates the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


_REBUILT: dict[tuple[str, str], dict[str, Any]] = {}


def _rebuild(project: str, method: str, name: str) -> Any:
    """The mirror ``name`` of ``project``, rebuilt in this worker (cached per process)."""
    key = (project, method)
    if key not in _REBUILT:
        from bridge.extraction import extract
        from mirror.pipeline import build_mirrors

        _REBUILT[key] = {m.name: m for m in build_mirrors(extract(Path(project), method=method))}
    return _REBUILT[key][name]


def check_task(payload: tuple[Any, str, str, str, Any]) -> dict[str, Any]:
    """Check one statement (worker side); returns ``StatementResult.to_json()``.

    ``payload`` is ``(mirror or None, project, method, name, settings)``; without a mirror
    the worker rebuilds it from the project. Failures become an ``inconclusive`` result
    with the error as the reason, so one broken statement never ends a session.
    """
    mirror, project, method, name, settings = payload
    started = time.perf_counter()
    try:
        from mirror.pipeline import check_mirror

        if mirror is None:
            mirror = _rebuild(project, method, name)
        result = check_mirror(mirror, settings)
        if result.duration == 0.0:
            result.duration = time.perf_counter() - started
        return result.to_json()
    except Exception as exc:  # reported as a result: the session goes on
        declaration = getattr(mirror, "declaration", None)
        failed = StatementResult(
            name=name,
            module=getattr(declaration, "module", ""),
            kind=getattr(declaration, "kind", "theorem"),
            lean_status=getattr(declaration, "lean_status", "unchecked"),
            mirror_status="inconclusive",
            reason=f"check failed: {type(exc).__name__}: {exc}",
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


def _run_local(
    payloads: list[tuple],
    jobs: int,
    on_result: Callable[[dict[str, Any]], None],
    deadline: float | None,
) -> str | None:
    """Run the payloads on a spawn-context process pool; returns why it stopped early."""
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(processes=jobs, initializer=_ignore_sigint)
    stopped: str | None = None
    try:
        iterator = pool.imap_unordered(check_task, payloads)
        remaining = len(payloads)
        while remaining:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                data = iterator.next(timeout=timeout)
            except multiprocessing.TimeoutError:
                stopped = "time budget"
                break
            remaining -= 1
            on_result(data)
        pool.close()
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    if stopped:
        pool.terminate()
    pool.join()
    return stopped


def _run_ray(
    payloads: list[tuple],
    address: str,
    jobs: int,
    on_result: Callable[[dict[str, Any]], None],
    deadline: float | None,
) -> str | None:
    """Run the payloads as Ray tasks (``address`` or ``"local"``); results as they finish."""
    try:
        import ray
    except ImportError:
        raise FuzzError(
            "--ray needs the optional dependency ray; install it with "
            "pip install 'leanmirror[ray]'"
        ) from None
    started_here = False
    if not ray.is_initialized():
        repo_root = str(Path(__file__).resolve().parent.parent)
        python_path = os.pathsep.join(p for p in (repo_root, os.environ.get("PYTHONPATH")) if p)
        runtime_env = {"env_vars": {"PYTHONPATH": python_path}}
        try:
            if address == "local":
                ray.init(
                    num_cpus=jobs,
                    include_dashboard=False,
                    log_to_driver=False,
                    runtime_env=runtime_env,
                )
            else:
                ray.init(address=address, log_to_driver=False, runtime_env=runtime_env)
        except Exception as exc:
            raise FuzzError(
                f"--ray {address}: cannot connect to a Ray cluster ({exc}); pass the address "
                "of a running cluster (ray status prints it) or --ray local"
            ) from None
        started_here = True
    stopped: str | None = None
    try:
        task = ray.remote(num_cpus=1, max_retries=1)(check_task)
        pending = [task.remote(payload) for payload in payloads]
        while pending:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            done, pending = ray.wait(pending, num_returns=1, timeout=timeout)
            for ref in done:
                on_result(ray.get(ref))
            if deadline is not None and time.monotonic() >= deadline and pending:
                stopped = "time budget"
                for ref in pending:
                    ray.cancel(ref, force=True)
                break
    finally:
        if started_here:
            ray.shutdown()
    return stopped


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
) -> SessionSummary:
    """Fuzz the mirrored statements of ``project``; see the module docstring.

    ``examples`` is the Hypothesis budget per statement; ``time_budget`` (seconds) bounds
    the whole session (each statement gets its share, and statements not started when it
    runs out are reported as not run). ``jobs`` defaults to all local cores. ``ray`` is a
    cluster address or ``"local"``. ``mirrors`` (already built) skips the extraction.
    """
    if examples is not None and (isinstance(examples, bool) or not isinstance(examples, int) or examples <= 0):
        raise InvalidArgument(f"examples: got {examples!r}; expected a positive integer")
    if time_budget is not None and not (
        isinstance(time_budget, (int, float)) and time_budget > 0
    ):
        raise InvalidArgument(f"time_budget: got {time_budget!r}; expected seconds > 0")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs <= 0):
        raise InvalidArgument(f"jobs: got {jobs!r}; expected a positive integer")
    project = Path(project)
    default_log, default_db = default_paths(project)
    log_path = Path(log) if log is not None else default_log
    db_path = Path(database) if database is not None else default_db
    jobs = jobs or os.cpu_count() or 1

    from mirror.pipeline import CheckSettings

    if mirrors is None:
        from bridge.extraction import extract
        from mirror.pipeline import build_mirrors

        mirrors = build_mirrors(extract(project, method=method))
    chosen = select_mirrors(list(mirrors), select)
    if not chosen:
        raise FuzzError(f"project {str(project)!r} has no mirrored statements to fuzz")

    settings = CheckSettings(database=db_path, seed=seed)
    if examples is not None:
        settings = replace(settings, max_examples=examples)
    elif time_budget is not None:
        settings = replace(settings, max_examples=UNBOUNDED_EXAMPLES)
    if time_budget is not None:
        share = time_budget * min(jobs, len(chosen)) / len(chosen)
        settings = replace(settings, time_budget=max(share, 0.5))
    db_path.mkdir(parents=True, exist_ok=True)

    backend = "ray" if ray else "local"
    summary = SessionSummary(
        session=uuid.uuid4().hex[:12],
        backend=backend if not ray else f"ray:{ray}",
        log=log_path,
        database=db_path,
        statements=len(chosen),
    )
    append_jsonl(
        log_path,
        {
            "event": "session-start",
            "session": summary.session,
            "time": _now(),
            "project": str(project),
            "backend": summary.backend,
            "jobs": jobs,
            "statements": len(chosen),
            "names": [m.name for m in chosen],
            "settings": _settings_json(settings),
        },
    )
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(chosen), desc="fuzz", unit="stmt", dynamic_ncols=True)
        bar.set_postfix(examples=0, failures=0)

    def on_result(data: dict[str, Any]) -> None:
        from mirror.replay import attach_replay

        result = StatementResult.from_json(attach_replay(data, project))
        append_jsonl(
            log_path,
            {"event": "result", "session": summary.session, "time": _now(), "result": data},
        )
        summary.results.append(result)
        summary.done += 1
        summary.examples += result.examples
        status = result.mirror_status or "none"
        summary.statuses[status] = summary.statuses.get(status, 0) + 1
        if result.mirror_status == "refuted":
            summary.failures.append(result.name)
        if bar is not None:
            bar.update(1)
            bar.set_postfix(examples=summary.examples, failures=len(summary.failures))

    start = time.monotonic()
    deadline = None if time_budget is None else start + time_budget
    payloads = _payloads(chosen, project, method, settings)
    try:
        if ray:
            summary.stopped = _run_ray(payloads, ray, jobs, on_result, deadline)
        else:
            summary.stopped = _run_local(payloads, min(jobs, len(payloads)), on_result, deadline)
    except KeyboardInterrupt:
        summary.stopped = "interrupted"
        raise
    finally:
        summary.elapsed = time.monotonic() - start
        if bar is not None:
            bar.close()
        append_jsonl(
            log_path,
            {
                "event": "session-end",
                "session": summary.session,
                "time": _now(),
                "done": summary.done,
                "examples": summary.examples,
                "failures": sorted(summary.failures),
                "stopped": summary.stopped
                if summary.stopped or summary.done == summary.statements
                else "interrupted",
                "elapsed": round(summary.elapsed, 3),
            },
        )
    summary.failures.sort()
    return summary


def read_session_log(log: str | Path) -> dict[str, StatementResult]:
    """The latest result per statement in a session log (a torn last line is ignored)."""
    latest: dict[str, StatementResult] = {}
    for record in read_jsonl(log).records:
        if isinstance(record, dict) and record.get("event") == "result":
            result = StatementResult.from_json(record["result"])
            latest[result.name] = result
    return latest


__all__ = [
    "FuzzError",
    "SessionSummary",
    "check_task",
    "database_slot",
    "default_paths",
    "read_session_log",
    "run_session",
    "select_mirrors",
]
