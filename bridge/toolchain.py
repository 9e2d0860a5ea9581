"""The Lean toolchain driver: find ``lake``/``lean``/``elan``, build, run the exporter.

Every program runs through :func:`run_command`: ``subprocess.Popen`` with a list of
arguments (never a shell), in its own session, with a timeout after which the whole process
group is killed (``os.killpg``) and :class:`~bridge.errors.ToolchainFailure` names the
command and the timeout. ``lake build`` errors (``error: FILE:LINE:COL: message``) are parsed
line by line into per-module :class:`BuildError`s, which the caller turns into ``error``
statuses instead of stopping.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from bridge.errors import ToolchainFailure, ToolchainNotFound
from bridge.project import LakeProject, module_name

#: The exporter executable declared in the project's lakefile.
EXPORTER_EXE = "leanmirror-export"
#: Default timeouts in seconds.
DEFAULT_BUILD_TIMEOUT = 3600.0
DEFAULT_EXPORT_TIMEOUT = 1800.0


@dataclass(frozen=True)
class CommandResult:
    """What a finished command returned."""

    command: tuple[str, ...]
    returncode: int
    output: str


@dataclass(frozen=True)
class BuildError:
    """One ``error:`` line of ``lake build``, located."""

    file: str
    line: int
    column: int
    message: str
    module: str | None = None


@dataclass
class BuildResult:
    """The outcome of ``lake build``: success flag, per-module errors and the raw output."""

    ok: bool
    errors: list[BuildError] = field(default_factory=list)
    output: str = ""

    def failed_modules(self) -> set[str]:
        """Modules with at least one error."""
        return {e.module for e in self.errors if e.module}


def run_command(command: Sequence[str], cwd: str | Path | None, timeout: float) -> CommandResult:
    """Run ``command`` (a list) in its own process group; kill the group on timeout."""
    if isinstance(command, (str, bytes)) or not command:
        raise ToolchainFailure(f"run_command: command must be a non-empty list of arguments, got {command!r}")
    if not isinstance(timeout, (int, float)) or timeout <= 0:
        raise ToolchainFailure(f"run_command: timeout must be a positive number of seconds, got {timeout!r}")
    argv = [str(a) for a in command]
    try:
        proc = subprocess.Popen(
            argv,
            cwd=None if cwd is None else str(cwd),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as exc:
        raise ToolchainFailure(f"command {argv!r} could not start: {exc.strerror or exc}") from None
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        raise ToolchainFailure(
            f"command {argv!r} did not finish within the timeout of {timeout:g} s; "
            "its process group was killed"
        ) from None
    except BaseException:
        _kill_group(proc)
        raise
    return CommandResult(tuple(argv), proc.returncode, out.decode("utf-8", errors="replace"))


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.communicate(timeout=10)
    except (subprocess.TimeoutExpired, ValueError):
        pass


def parse_build_output(output: str, project: LakeProject | None = None) -> list[BuildError]:
    """Parse ``error: FILE:LINE:COL: message`` lines of Lake/Lean output (text, line by line)."""
    errors: list[BuildError] = []
    for raw in output.splitlines():
        line = raw.strip()
        if not line.startswith("error:"):
            continue
        rest = line[len("error:") :].strip()
        marker = rest.find(".lean:")
        if marker == -1:
            continue
        file = rest[: marker + len(".lean")]
        fields = rest[marker + len(".lean:") :].split(":", 2)
        if len(fields) < 3 or not fields[0].strip().isdigit() or not fields[1].strip().isdigit():
            continue
        errors.append(
            BuildError(
                file=file,
                line=int(fields[0]),
                column=int(fields[1]) + 1,
                message=fields[2].strip(),
                module=_module_of(file, project),
            )
        )
    return errors


def _module_of(file: str, project: LakeProject | None) -> str | None:
    path = Path(file)
    if project is None:
        return ".".join(path.with_suffix("").parts).lstrip(".") or None
    if not path.is_absolute():
        path = (project.path / path).resolve()
    for src in project.source_files():
        if src.path.resolve() == path:
            return src.module
    bases = [project.path / (lib.src_dir or project.src_dir) for lib in project.libs] or [project.path / project.src_dir]
    for base in bases:
        try:
            return module_name(path, base.resolve())
        except ValueError:
            continue
    return None


@dataclass
class Toolchain:
    """The Lean programs found on this machine."""

    lake: Path
    lean: Path | None = None
    elan: Path | None = None

    @classmethod
    def find(cls, path: str | None = None, home: str | Path | None = None) -> "Toolchain":
        """Find ``lake`` (required), ``lean`` and ``elan`` on ``path`` (default ``$PATH``)
        and in ``~/.elan/bin``; raises :class:`ToolchainNotFound` with one clear message."""
        search = path if path is not None else os.environ.get("PATH", "")
        home_dir = Path(home) if home is not None else Path.home()
        elan_bin = home_dir / ".elan" / "bin"
        dirs = [d for d in search.split(os.pathsep) if d]
        if elan_bin.is_dir():
            dirs.append(str(elan_bin))
        joined = os.pathsep.join(dirs)

        def which(name: str) -> Path | None:
            found = shutil.which(name, path=joined) if joined else None
            return Path(found) if found else None

        lake = which("lake")
        if lake is None:
            raise ToolchainNotFound(
                "no Lean toolchain found: 'lake' is not on PATH nor in "
                f"{elan_bin}; install elan (https://github.com/leanprover/elan), or pass "
                "--method scanner (source scanner, no kernel check)"
            )
        return cls(lake=lake, lean=which("lean"), elan=which("elan"))

    def versions(self, timeout: float = 60.0) -> dict[str, str | None]:
        """``--version`` output (first line) of each program found."""
        out: dict[str, str | None] = {}
        for name in ("lake", "lean", "elan"):
            exe = getattr(self, name)
            if exe is None:
                out[name] = None
                continue
            try:
                result = run_command([str(exe), "--version"], None, timeout)
                lines = result.output.strip().splitlines()
                out[name] = lines[0] if lines else None
            except ToolchainFailure:
                out[name] = None
        return out

    def build(self, project: LakeProject, timeout: float = DEFAULT_BUILD_TIMEOUT,
              targets: Sequence[str] = ()) -> BuildResult:
        """Run ``lake build [targets]`` in the project; per-module errors are returned, not raised."""
        result = run_command([str(self.lake), "build", *targets], project.path, timeout)
        errors = parse_build_output(result.output, project)
        if result.returncode != 0 and not errors:
            tail = "\n".join(result.output.strip().splitlines()[-20:])
            raise ToolchainFailure(
                f"command {list(result.command)!r} failed with exit code {result.returncode} "
                f"and no located error; last output:\n{tail}"
            )
        return BuildResult(ok=result.returncode == 0, errors=errors, output=result.output)

    def run_exporter(self, project: LakeProject, modules: Sequence[str], out: str | Path,
                     timeout: float = DEFAULT_EXPORT_TIMEOUT) -> Path:
        """Run ``lake exe leanmirror-export --out OUT MODULE…``; returns the output path."""
        if not modules:
            raise ToolchainFailure("run_exporter: expected at least one module to export, got none")
        out_path = Path(out)
        command = [str(self.lake), "exe", EXPORTER_EXE, "--out", str(out_path), *modules]
        result = run_command(command, project.path, timeout)
        if result.returncode != 0 or not out_path.is_file():
            tail = "\n".join(result.output.strip().splitlines()[-20:])
            raise ToolchainFailure(
                f"command {command!r} failed (exit code {result.returncode}"
                f"{', no output file' if not out_path.is_file() else ''}); last output:\n{tail}"
            )
        return out_path
