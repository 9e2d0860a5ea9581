"""The statement lock and the declarations JSON."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bridge.errors import LockError
from bridge.extraction import read_declarations, write_declarations
from bridge.lock import LOCK_FILE, compare, read_lock, statement_hash, write_lock
from bridge.scanner import scan_project


@pytest.fixture
def project(tmp_path: Path, new_project: Path) -> Path:
    return Path(shutil.copytree(new_project, tmp_path / "proj"))


BASIC = Path("Lean") / "NewSyn" / "Basic.lean"


def _edit(project: Path, old: str, new: str) -> None:
    file = project / BASIC
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_write_read_roundtrip(project: Path) -> None:
    extraction = scan_project(project)
    path = write_lock(extraction, project)
    assert path == project / LOCK_FILE
    lock = read_lock(project)
    assert set(lock.entries) == {d.name for d in extraction.declarations}
    entry = lock.entries["NewSyn.exp_pos'"]
    assert entry.kind == "theorem" and entry.method == "scanner"
    assert entry.toolchain == "leanprover/lean4:v4.15.0"
    assert entry.mathlib_rev == "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"
    assert not compare(lock, extraction).is_stale


def test_editing_a_statement_changes_exactly_that_declaration(project: Path) -> None:
    write_lock(scan_project(project), project)
    _edit(project, "lemma sq_nonneg' (x : ℝ) : 0 ≤ x ^ 2", "lemma sq_nonneg' (x : ℝ) : 0 ≤ x ^ 4")
    diff = compare(read_lock(project), scan_project(project))
    assert diff.changed == ["NewSyn.sq_nonneg'"]
    assert diff.new == [] and diff.removed == [] and diff.is_stale


def test_whitespace_and_comment_edits_change_no_statement_hash(project: Path) -> None:
    write_lock(scan_project(project), project)
    _edit(project, "theorem exp_pos' (x : ℝ) : 0 < exp x", "theorem exp_pos'\n    (x : ℝ) :   0 < exp   x -- note\n")
    _edit(project, "lemma sq_nonneg' (x : ℝ) : 0 ≤ x ^ 2 := by positivity", "lemma sq_nonneg' (x : ℝ) : 0 ≤ x ^ 2 := by\n  nlinarith [sq_nonneg x]")
    diff = compare(read_lock(project), scan_project(project))
    assert not diff.is_stale
    assert diff.source_changed == ["NewSyn.exp_pos'", "NewSyn.sq_nonneg'"]


def test_new_and_removed(project: Path) -> None:
    write_lock(scan_project(project), project)
    _edit(project, "theorem softplus_pos", "theorem softplus_pos_renamed")
    diff = compare(read_lock(project), scan_project(project))
    assert diff.new == ["NewSyn.softplus_pos_renamed"]
    assert diff.removed == ["NewSyn.softplus_pos"]
    assert diff.changed == []


def test_unparsed_statement_hash_ignores_whitespace(tmp_path: Path) -> None:
    from bridge.scanner import scan_file

    a, _ = scan_file("A.lean", "A", text="theorem t (x : ℕ) : x + = x := rfl\n")
    b, _ = scan_file("A.lean", "A", text="theorem t (x : ℕ) :\n    x +   = x := rfl\n")
    c, _ = scan_file("A.lean", "A", text="theorem t (x : ℕ) : x * = x := rfl\n")
    assert a[0].type is None
    assert statement_hash(a[0]) == statement_hash(b[0]) != statement_hash(c[0])


def test_malformed_lock(tmp_path: Path) -> None:
    with pytest.raises(LockError, match="no lock file"):
        read_lock(tmp_path)
    path = tmp_path / LOCK_FILE
    path.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(LockError, match=LOCK_FILE):
        read_lock(path)
    path.write_text(json.dumps({"meta": {"format_version": 9}, "declarations": {}}), encoding="utf-8")
    with pytest.raises(LockError, match="format_version 9"):
        read_lock(path)
    path.write_text(json.dumps({"meta": {"format_version": 1}, "declarations": {"x": {"kind": "theorem"}}}), encoding="utf-8")
    with pytest.raises(LockError, match="'x' lacks"):
        read_lock(path)


def test_declarations_json_roundtrip(tmp_path: Path, new_project: Path) -> None:
    extraction = scan_project(new_project)
    out = write_declarations(extraction, tmp_path / "out" / "decls.json")
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["meta"]["method"] == "scanner" and data["meta"]["kernel"] is False
    assert data["meta"]["format_version"] == 1 and data["meta"]["tool_version"]
    assert data["meta"]["toolchain"] == "leanprover/lean4:v4.15.0"
    assert data["meta"]["mathlib_rev"] == "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"
    assert len(data["diagnostics"]) == len(extraction.diagnostics)
    back = read_declarations(out)
    assert [d.name for d in back.declarations] == [d.name for d in extraction.declarations]
    assert back.by_name()["NewSyn.fib"].equations == extraction.by_name()["NewSyn.fib"].equations
    assert not list(out.parent.glob("*.tmp"))
