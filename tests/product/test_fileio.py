"""Atomic writes and the append-only JSON-lines log."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis.database import DirectoryBasedExampleDatabase

from bridge import fileio
from mirror.judge.fileio import (
    DurableExampleDatabase,
    FileFormatError,
    append_jsonl,
    read_jsonl,
    write_json_atomic,
    write_text_atomic,
)


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


def test_atomic_write_is_on_disk_when_it_returns(tmp_path, disk_trace):
    """fsync of the temporary file, rename, fsync of the directory: in that order."""
    target = tmp_path / "sub" / "report.json"
    write_json_atomic(target, {"v": 1})
    assert disk_trace.durable(target), disk_trace.events
    write_text_atomic(target, "second")
    assert disk_trace.durable(target), disk_trace.events
    assert target.read_text() == "second"


def test_each_appended_line_is_on_disk_when_append_returns(tmp_path, disk_trace):
    log = tmp_path / "log.jsonl"
    for i in range(3):
        append_jsonl(log, {"i": i})
        assert disk_trace.durable(log), (i, disk_trace.events)
    # the log's directory entry was flushed when the log was created
    assert ("fsync", str(tmp_path.resolve()), "") in disk_trace.events
    assert [r["i"] for r in read_jsonl(log).records] == [0, 1, 2]


def test_the_durability_check_fails_writers_that_do_not_fsync(tmp_path, disk_trace):
    """Control: the check above is not vacuous."""
    plain = tmp_path / "plain.txt"
    fd = os.open(plain, os.O_WRONLY | os.O_CREAT, 0o666)
    os.write(fd, b"x")
    os.close(fd)
    assert not disk_trace.durable(plain)
    renamed = tmp_path / "renamed.txt"
    os.replace(plain, renamed)
    assert not disk_trace.durable(renamed)
    # Hypothesis' own directory database renames into place without any fsync
    database = DirectoryBasedExampleDatabase(tmp_path / "db")
    database.save(b"key", b"value")
    saved = [e[2] for e in disk_trace.events if e[0] == "rename" and "db" in e[2]]
    assert saved and not any(disk_trace.durable(path) for path in saved)


def test_durable_database_saves_are_on_disk_and_readable_by_hypothesis(tmp_path, disk_trace):
    database = DurableExampleDatabase(tmp_path / "db")
    database.save(b"key", b"value")
    values = [p for p in (tmp_path / "db").rglob("*") if p.is_file() and p.read_bytes() == b"value"]
    assert len(values) == 1 and disk_trace.durable(values[0]), disk_trace.events
    database.move(b"key", b"other", b"value")
    assert list(database.fetch(b"other")) == [b"value"] and list(database.fetch(b"key")) == []
    moved = [p for p in (tmp_path / "db").rglob("*") if p.is_file() and p.read_bytes() == b"value"]
    assert len(moved) == 1 and disk_trace.durable(moved[0]), disk_trace.events
    # the same layout as Hypothesis' database: either reads what the other wrote
    assert list(DirectoryBasedExampleDatabase(tmp_path / "db").fetch(b"other")) == [b"value"]
