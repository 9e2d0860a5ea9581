"""Worker processes that the parent can kill: the one pool of ``report``, ``fuzz`` and ``show``.

A task is a function named by ``"module:function"`` and picklable arguments; it runs in a
worker process (*spawn* context), never in the parent, so whatever user code it calls (a
binding that segfaults, calls ``os._exit``, loops in C, or exits while being imported)
can end only that worker. The parent enforces, per task:

- a hard time limit: past it the worker is killed (``SIGKILL``), which bounds C loops and
  import-time loops that ``SIGALRM`` inside the worker cannot interrupt;
- a memory limit: ``RLIMIT_AS`` is set in each worker before it runs anything;
- captured output: the worker's file descriptors 1 and 2 go to a file of its own; what a
  task printed comes back with its outcome, truncated to ``output_limit`` bytes.

A worker's death is the outcome of the task it was running (:attr:`Outcome.death` names the
cause: the exit status, the signal, the time limit), the pool starts a replacement and goes
on. :class:`LocalPool` and :class:`RayPool` have the same interface (``submit``, ``next``,
``close``); :func:`open_pool` picks one.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.connection import wait as wait_ready
from pathlib import Path
from typing import Any

from bridge.errors import LeanMirrorError

#: Default address-space limit of one worker, in bytes (``LEANMIRROR_WORKER_MEMORY``
#: overrides it; 0 disables the limit).
DEFAULT_MEMORY_LIMIT = 8 * 1024**3
#: Bytes of a task's captured output kept with its outcome.
DEFAULT_OUTPUT_LIMIT = 4096


class WorkerError(LeanMirrorError, RuntimeError):
    """The pool cannot run tasks (a worker cannot start, Ray is unavailable, …)."""


@dataclass
class Outcome:
    """What one task came to."""

    key: Any
    #: The task's return value (``None`` when it raised or its worker died).
    value: Any = None
    #: ``"ExcType: message"`` when the task raised inside the worker.
    error: str | None = None
    #: Why the worker died while running the task (exit status, signal, time limit).
    death: str | None = None
    #: What the task wrote to stdout/stderr (truncated).
    output: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None and self.death is None

    def describe(self) -> str:
        """One line: why the task has no value (empty when it has one)."""
        text = self.death or self.error or ""
        tail = self.output.strip().splitlines()[-1:] if self.output.strip() else []
        if tail and self.death:
            text += f"; its last output: {tail[0][:200]!r}"
        return text


def memory_limit_default() -> int:
    """The per-worker memory limit: ``LEANMIRROR_WORKER_MEMORY`` (bytes) or the default."""
    text = os.environ.get("LEANMIRROR_WORKER_MEMORY")
    if text is None:
        return DEFAULT_MEMORY_LIMIT
    try:
        value = int(text)
    except ValueError:
        raise WorkerError(f"LEANMIRROR_WORKER_MEMORY: got {text!r}; expected a number of "
                          "bytes (0: no limit)") from None
    return max(0, value)


def _resolve(target: str) -> Any:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Ask the kernel to SIGKILL this worker when its parent dies (Linux), so a parent killed
    with SIGKILL leaves no worker looping in C behind."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def _serve(conn: Any, memory_limit: int, output: str) -> None:
    """The worker's loop: receive ``(key, target, args)``, send ``(key, kind, value)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    _die_with_parent()
    if memory_limit:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:  # done: nothing is buffered, so skip the interpreter's teardown
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)
        key, target, args = message
        try:
            reply = (key, "ok", _resolve(target)(*args))
        except MemoryError:
            reply = (key, "raise", f"MemoryError: the worker's memory limit "
                                   f"({memory_limit // 1024**2} MiB) was reached")
        except BaseException as exc:  # noqa: BLE001 - reported as the task's outcome
            reply = (key, "raise", f"{type(exc).__name__}: {str(exc).strip()[:500]}")
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            conn.send(reply)
        except Exception as exc:  # noqa: BLE001 - an unpicklable value
            conn.send((key, "raise", f"result cannot be sent back: {type(exc).__name__}: {exc}"))


def death_cause(exitcode: int | None) -> str:
    """A worker's exit code as words: ``killed by signal SIGSEGV``, ``exited with status 3``."""
    if exitcode is None:
        return "the worker disappeared"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        hint = " (out of memory?)" if -exitcode == signal.SIGKILL else ""
        return f"the worker was killed by {name}{hint}"
    return f"the worker exited with status {exitcode}"


class _Worker:
    """One worker process, its pipe and output file, and the task it runs."""

    def __init__(self, context: Any, memory_limit: int, directory: str, index: int) -> None:
        self.output = os.path.join(directory, f"worker-{index}.out")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, memory_limit, self.output),
                                       daemon=True)
        self.process.start()
        child.close()
        self.key: Any = None
        self.started = 0.0
        self.deadline: float | None = None
        self.offset = 0

    @property
    def busy(self) -> bool:
        return self.key is not None

    def give(self, key: Any, target: str, args: tuple, timeout: float | None) -> None:
        self.key, self.started = key, time.monotonic()
        self.deadline = None if timeout is None else self.started + timeout
        self.conn.send((key, target, args))

    def take_output(self, limit: int) -> str:
        """What the worker wrote since its last task (at most ``limit`` bytes, then a mark)."""
        try:
            with open(self.output, "rb") as handle:
                start = handle.seek(self.offset)
                data = handle.read(limit + 1)
                self.offset = handle.seek(0, os.SEEK_END)
        except OSError:
            return ""
        text = data[:limit].decode("utf-8", errors="replace")
        if len(data) <= limit:
            return text
        return text + (f"\n[output truncated: the first {limit} of {self.offset - start} "
                       "bytes are shown]")

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class LocalPool:
    """``jobs`` worker processes on this machine; see the module docstring."""

    def __init__(self, jobs: int, *, memory_limit: int | None = None,
                 output_limit: int = DEFAULT_OUTPUT_LIMIT) -> None:
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs <= 0:
            raise WorkerError(f"jobs: got {jobs!r}; expected a positive integer")
        self.jobs = jobs
        self.memory_limit = memory_limit_default() if memory_limit is None else memory_limit
        self.output_limit = output_limit
        self._context = multiprocessing.get_context("spawn")
        self._directory = tempfile.mkdtemp(prefix="leanmirror-workers-")
        self._workers: list[_Worker] = []
        self._spawned = 0
        self._waiting: list[tuple[Any, str, tuple, float | None]] = []
        self._done: list[Outcome] = []

    def _spawn(self) -> _Worker:
        self._spawned += 1
        return _Worker(self._context, self.memory_limit, self._directory, self._spawned)

    def submit(self, key: Any, target: str, args: tuple = (), timeout: float | None = None) -> None:
        """Queue ``target(*args)`` (``target`` is ``"module:function"``); its outcome comes
        back from :meth:`next` under ``key``. ``timeout``: the hard limit in seconds."""
        self._waiting.append((key, target, tuple(args), timeout))
        self._dispatch()

    @property
    def pending(self) -> int:
        return len(self._waiting) + sum(w.busy for w in self._workers) + len(self._done)

    def _dispatch(self) -> None:
        while self._waiting:
            idle = next((w for w in self._workers if not w.busy), None)
            if idle is None:
                if len(self._workers) >= self.jobs:
                    return
                idle = self._spawn()
                self._workers.append(idle)
            key, target, args, timeout = self._waiting.pop(0)
            try:
                idle.give(key, target, args, timeout)
            except (OSError, ValueError) as exc:  # the worker died before it took the task
                self._retire(idle, f"the worker could not take the task ({exc})")

    def _retire(self, worker: _Worker, death: str) -> None:
        """Record the death of ``worker`` as its task's outcome and replace it."""
        key, started = worker.key, worker.started
        worker.kill()
        output = worker.take_output(self.output_limit)
        self._workers.remove(worker)
        if key is not None:
            self._done.append(Outcome(key, death=death, output=output,
                                      seconds=time.monotonic() - started))

    def next(self, timeout: float | None = None) -> Outcome | None:
        """The next finished task's outcome; ``None`` when none finished within ``timeout``
        seconds (``None``: wait for one) or nothing is pending."""
        end = None if timeout is None else time.monotonic() + timeout
        while not self._done:
            busy = [w for w in self._workers if w.busy]
            if not busy:
                return None
            now = time.monotonic()
            limits = [w.deadline for w in busy if w.deadline is not None]
            if end is not None:
                limits.append(end)
            wait_for = None if not limits else max(0.0, min(limits) - now)
            ready = wait_ready([w.conn for w in busy] + [w.process.sentinel for w in busy],
                               timeout=wait_for)
            for worker in busy:
                self._collect(worker, ready)
            if end is not None and time.monotonic() >= end and not self._done:
                return None
        self._dispatch()
        outcome = self._done.pop(0)
        self._dispatch()
        return outcome

    def _collect(self, worker: _Worker, ready: list) -> None:
        if worker.conn in ready:
            try:
                key, kind, value = worker.conn.recv()
            except (EOFError, OSError):
                self._retire(worker, death_cause(self._exitcode(worker)))
                return
            outcome = Outcome(key, output=worker.take_output(self.output_limit),
                              seconds=time.monotonic() - worker.started)
            if kind == "ok":
                outcome.value = value
            else:
                outcome.error = value
            worker.key = None
            self._done.append(outcome)
        elif worker.process.sentinel in ready:
            self._retire(worker, death_cause(self._exitcode(worker)))
        elif worker.deadline is not None and time.monotonic() >= worker.deadline:
            limit = worker.deadline - worker.started
            self._retire(worker, f"the worker was killed after the hard time limit of "
                                 f"{limit:.3g} s")

    @staticmethod
    def _exitcode(worker: _Worker) -> int | None:
        worker.process.join(5)
        return worker.process.exitcode

    def close(self, finished: bool = True) -> None:
        """Stop every worker (politely when ``finished``, else at once)."""
        for worker in self._workers:  # every idle worker is told first, then awaited
            if finished and not worker.busy:
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
        for worker in list(self._workers):
            if finished and not worker.busy:
                worker.process.join(2)
            worker.kill()
        self._workers.clear()
        for name in os.listdir(self._directory):
            os.unlink(os.path.join(self._directory, name))
        os.rmdir(self._directory)

    def __enter__(self) -> "LocalPool":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close(finished=exc[0] is None)


def _ray_call(target: str, args: tuple) -> Any:
    """A Ray task's body: the target, resolved and called in the Ray worker."""
    return _resolve(target)(*args)


class RayPool:
    """The :class:`LocalPool` interface on a Ray cluster (``address``, or ``"local"``)."""

    def __init__(self, address: str, jobs: int) -> None:
        try:
            import ray
        except ImportError:
            raise WorkerError("--ray needs the optional dependency ray; install it with "
                              "pip install 'leanmirror[ray]'") from None
        self.ray = ray
        self.started_here = False
        if not ray.is_initialized():
            repo_root = str(Path(__file__).resolve().parents[2])
            python_path = os.pathsep.join(p for p in (repo_root, os.environ.get("PYTHONPATH"))
                                          if p)
            runtime_env = {"env_vars": {"PYTHONPATH": python_path}}
            try:
                if address == "local":
                    ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False,
                             runtime_env=runtime_env)
                else:
                    ray.init(address=address, log_to_driver=False, runtime_env=runtime_env)
            except Exception as exc:
                raise WorkerError(
                    f"--ray {address}: cannot connect to a Ray cluster ({exc}); pass the "
                    "address of a running cluster (ray status prints it) or --ray local"
                ) from None
            self.started_here = True
        self.task = ray.remote(num_cpus=1, max_retries=0)(_ray_call)
        self.jobs = jobs
        self.pending: dict[Any, tuple[Any, float, float | None]] = {}
        self._waiting: list[tuple[Any, str, tuple, float | None]] = []

    def submit(self, key: Any, target: str, args: tuple = (), timeout: float | None = None) -> None:
        """As :meth:`LocalPool.submit`; at most ``jobs`` tasks are on the cluster at once, so
        that a task's hard limit counts from its start, not from its wait in Ray's queue."""
        self._waiting.append((key, target, tuple(args), timeout))
        self._dispatch()

    def _dispatch(self) -> None:
        while self._waiting and len(self.pending) < self.jobs:
            key, target, args, timeout = self._waiting.pop(0)
            ref = self.task.remote(target, args)
            now = time.monotonic()
            self.pending[ref] = (key, now, None if timeout is None else now + timeout)

    def next(self, timeout: float | None = None) -> Outcome | None:
        end = None if timeout is None else time.monotonic() + timeout
        while self.pending:
            now = time.monotonic()
            limits = [d for _, _, d in self.pending.values() if d is not None]
            if end is not None:
                limits.append(end)
            wait_for = None if not limits else max(0.0, min(limits) - now)
            done, _ = self.ray.wait(list(self.pending), num_returns=1, timeout=wait_for)
            if done:
                outcome = self._finished(done[0])
                self._dispatch()
                return outcome
            now = time.monotonic()
            for ref, (key, started, deadline) in list(self.pending.items()):
                if deadline is not None and now >= deadline:
                    self.ray.cancel(ref, force=True)
                    del self.pending[ref]
                    self._dispatch()
                    return Outcome(key, death=f"the Ray task was cancelled after the hard "
                                              f"time limit of {deadline - started:.3g} s",
                                   seconds=now - started)
            if end is not None and now >= end:
                return None
        return None

    def _finished(self, ref: Any) -> Outcome:
        key, started, _ = self.pending.pop(ref)
        outcome = Outcome(key, seconds=time.monotonic() - started)
        try:
            outcome.value = self.ray.get(ref)
        except self.ray.exceptions.RayTaskError as exc:
            outcome.error = str(exc).strip().splitlines()[-1][:500]
        except self.ray.exceptions.RayError as exc:  # the Ray worker died
            outcome.death = f"the Ray worker died ({type(exc).__name__})"
        return outcome

    def close(self, finished: bool = True) -> None:
        for ref in self.pending:
            self.ray.cancel(ref, force=True)
        self.pending.clear()
        self._waiting.clear()
        if self.started_here:
            self.ray.shutdown()

    def __enter__(self) -> "RayPool":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close(finished=exc[0] is None)


def open_pool(jobs: int | None = None, ray: str | None = None, *,
              memory_limit: int | None = None) -> LocalPool | RayPool:
    """A pool of ``jobs`` workers (default: all cores), on Ray when ``ray`` is an address."""
    jobs = jobs or os.cpu_count() or 1
    if ray:
        return RayPool(ray, jobs)
    return LocalPool(jobs, memory_limit=memory_limit)


__all__ = [
    "DEFAULT_MEMORY_LIMIT",
    "LocalPool",
    "Outcome",
    "RayPool",
    "WorkerError",
    "death_cause",
    "open_pool",
]
