"""The toolchain driver, exercised end to end with fake `lake` scripts (no Lean here)."""

from __future__ import annotations

import os
import shutil
import stat
import sys
import time
from pathlib import Path

import pytest

from bridge.errors import ToolchainFailure, ToolchainNotFound
from bridge.extraction import FallbackWarning, extract
from bridge.project import read_project
from bridge.toolchain import Toolchain, parse_build_output, run_command

from .conftest import EXPORTS


def _script(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"#!{sys.executable}\n{body}", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def test_missing_toolchain_message(tmp_path: Path) -> None:
    with pytest.raises(ToolchainNotFound) as info:
        Toolchain.find(path=str(tmp_path / "empty"), home=tmp_path)
    message = str(info.value)
    assert "lake" in message and "scanner" in message
    assert isinstance(info.value, FileNotFoundError)


def test_finds_in_elan_bin(tmp_path: Path) -> None:
    _script(tmp_path / ".elan" / "bin", "lake", "print('Lake version 5.0.0 (fake)')\n")
    chain = Toolchain.find(path="", home=tmp_path)
    assert chain.lake.parent == tmp_path / ".elan" / "bin"
    assert chain.versions()["lake"] == "Lake version 5.0.0 (fake)"


def test_timeout_kills_the_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    body = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(120)\n"
    )
    lake = _script(tmp_path / "bin", "lake", body)
    start = time.monotonic()
    with pytest.raises(ToolchainFailure) as info:
        run_command([str(lake), "build"], tmp_path, timeout=3)
    assert time.monotonic() - start < 30
    assert "timeout of 3 s" in str(info.value) and "build" in str(info.value)
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _alive(child):
        time.sleep(0.1)
    assert not _alive(child)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (not yet reaped by init) counts as dead
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().split()[2] != "Z"
    except OSError:
        return False


def test_parse_build_output(new_project: Path) -> None:
    project = read_project(new_project)
    output = (
        "✖ [3/5] Building NewSyn.Broken\n"
        "error: ./././Lean/NewSyn/Broken.lean:5:32: unexpected token '='; expected term\n"
        "warning: Lean/NewSyn/Basic.lean:3:0: declaration uses 'sorry'\n"
        "error: Lean/NewSyn/Broken.lean:7:0: unknown identifier 'q'\n"
        "error: build failed\n"
    )
    errors = parse_build_output(output, project)
    assert [(e.module, e.line, e.column) for e in errors] == [("NewSyn.Broken", 5, 33), ("NewSyn.Broken", 7, 1)]
    assert errors[0].message == "unexpected token '='; expected term"


def _copy_project(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def test_exporter_end_to_end_with_fake_lake(tmp_path: Path, new_project: Path) -> None:
    project = _copy_project(new_project, tmp_path / "proj")
    fixture = (EXPORTS / "basic.json").read_text(encoding="utf-8")
    body = (
        "import sys\n"
        "args = sys.argv[1:]\n"
        "if args[0] == 'build':\n"
        "    print('error: Lean/NewSyn/Broken.lean:5:32: unexpected token')\n"
        "    sys.exit(1)\n"
        "if args[:2] == ['exe', 'leanmirror-export']:\n"
        "    out = args[args.index('--out') + 1]\n"
        f"    open(out, 'w', encoding='utf-8').write({fixture!r})\n"
        "    open('modules.txt', 'w').write(' '.join(args[args.index('--out') + 2:]))\n"
        "    sys.exit(0)\n"
        "sys.exit(2)\n"
    )
    lake = _script(tmp_path / "bin", "lake", body)
    chain = Toolchain(lake=lake)
    extraction = extract(project, method="exporter", toolchain=chain, timeout=60)
    decls = extraction.by_name()
    assert decls["Demo.exp_pos'"].lean_status == "proved"
    # the module that failed to build is read by the scanner, its located error → `error`
    assert decls["NewSyn.Broken.broken_one"].lean_status == "error"
    assert decls["NewSyn.Broken.good_one"].lean_status == "unchecked"
    assert extraction.meta["method"] == "exporter" and extraction.meta["failed_modules"] == ["NewSyn.Broken"]
    assert (project / "modules.txt").read_text().split() == ["NewSyn", "NewSyn.Basic"]


def test_exporter_failure_is_reported(tmp_path: Path, new_project: Path) -> None:
    lake = _script(tmp_path / "bin", "lake", "import sys\nprint('boom')\nsys.exit(3)\n")
    with pytest.raises(ToolchainFailure, match="exit code 3"):
        Toolchain(lake=lake).build(read_project(new_project), timeout=60)


def test_auto_falls_back_to_scanner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, new_project: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.warns(FallbackWarning, match="statements read by the source scanner"):
        extraction = extract(new_project)
    assert extraction.meta["method"] == "scanner" and extraction.meta["kernel"] is False
    with pytest.raises(ToolchainNotFound):
        extract(new_project, method="exporter")
