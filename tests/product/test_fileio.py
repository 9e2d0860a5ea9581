"""Atomic writes and the append-only JSON-lines log."""

from __future__ import annotations

import json
import os
import signal
import subprocess

import pytest

from mirror import fileio
from mirror.fileio import (
    FileFormatError,
    append_jsonl,
    read_jsonl,
    write_json_atomic,
    write_text_atomic,
)
from tests.product.conftest import PYTHON, subprocess_env


def test_write_text_atomic_replaces_and_leaves_no_temp(tmp_path):
    target = tmp_path / "sub" / "out.txt"
    write_text_atomic(target, "first\n")
    write_text_atomic(target, "second ∀\n")
    assert target.read_text(encoding="utf-8") == "second ∀\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["out.txt"]


def test_failed_replace_keeps_previous_content(tmp_path, monkeypatch):
    target = tmp_path / "report.json"
    write_json_atomic(target, {"v": 1})

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fileio.os, "replace", broken_replace)
    with pytest.raises(OSError):
        write_json_atomic(target, {"v": 2})
    assert json.loads(target.read_text()) == {"v": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_interrupt_during_write_keeps_previous_content(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    write_text_atomic(target, "old")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(fileio.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_text_atomic(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_write_json_refuses_nan(tmp_path):
    with pytest.raises(ValueError):
        write_json_atomic(tmp_path / "x.json", {"a": float("nan")})
    assert not (tmp_path / "x.json").exists()


def test_jsonl_roundtrip_and_torn_last_line(tmp_path):
    log = tmp_path / "log.jsonl"
    records = [{"i": i, "s": "∑ x ∈ s"} for i in range(5)]
    for record in records:
        append_jsonl(log, record)
    with log.open("ab") as handle:
        handle.write(b'{"i": 5, "s": "tor')
    read = read_jsonl(log)
    assert read.records == records
    assert read.torn and read.torn_line == 6
    assert read.torn_text.startswith('{"i": 5')


def test_jsonl_complete_file_is_not_torn(tmp_path):
    log = tmp_path / "log.jsonl"
    append_jsonl(log, {"a": 1})
    read = read_jsonl(log)
    assert read.records == [{"a": 1}] and not read.torn


def test_jsonl_malformed_middle_line_names_file_and_line(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"a": 1}\nnot json\n{"a": 2}\n')
    with pytest.raises(FileFormatError, match=r"line 2"):
        read_jsonl(log)


def test_append_survives_sigkill(tmp_path):
    """A writer killed with SIGKILL right after appending has lost nothing it appended."""
    log = tmp_path / "log.jsonl"
    code = (
        "import os, signal, sys\n"
        "from mirror.fileio import append_jsonl\n"
        "for i in range(20):\n"
        "    append_jsonl(sys.argv[1], {'i': i})\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    proc = subprocess.run(
        [PYTHON, "-c", code, str(log)], env=subprocess_env(), capture_output=True, timeout=60
    )
    assert proc.returncode == -signal.SIGKILL
    assert [r["i"] for r in read_jsonl(log).records] == list(range(20))
    assert os.path.getsize(log) > 0
