"""The LeanDojo backend on a small hand-written trace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bridge.dojo import TRACE_DIR, module_source, read_traces
from bridge.errors import ExportFormatError
from bridge.extraction import extract
from bridge.term import App, Const, Lit, Var, app


def _atom(val: str, leading: str = "", trailing: str = " ") -> dict:
    return {"atom": {"info": {"original": {"leading": leading, "pos": 0, "trailing": trailing, "endPos": 0}}, "val": val}}


def _ident(raw: str, leading: str = "", trailing: str = " ") -> dict:
    return {"ident": {"info": {"original": {"leading": leading, "pos": 0, "trailing": trailing, "endPos": 0}},
                      "rawVal": raw, "val": raw, "preresolved": []}}


def _write_trace(root: Path) -> None:
    decl = {"node": {"kind": "Lean.Parser.Command.declaration", "info": "none", "args": [
        _atom("theorem"), _ident("add_zero'"),
        {"node": {"kind": "Lean.Parser.Command.declSig", "info": "none", "args": [
            _atom("(", trailing=""), _ident("x", trailing=""), _atom(":", leading=" "), _ident("ℕ", trailing=""), _atom(")"),
            _atom(":"), _ident("x"), _atom("+"), _atom("0"), _atom("="), _ident("x"),
        ]}},
        _atom(":="), _ident("rfl", trailing="\n"),
    ]}}
    ns = {"node": {"kind": "Lean.Parser.Command.namespace", "info": "none",
                   "args": [_atom("namespace"), _ident("Demo", trailing="\n\n")]}}
    end = {"node": {"kind": "Lean.Parser.Command.end", "info": "none",
                    "args": [_atom("end", leading="\n"), _ident("Demo", trailing="\n")]}}
    folder = root / TRACE_DIR / "Demo"
    folder.mkdir(parents=True)
    (folder / "Basic.ast.json").write_text(
        json.dumps({"commandASTs": [ns, decl, "missing", end], "tactics": [], "premises": []}), encoding="utf-8"
    )


def test_reads_statements_from_traces(tmp_path: Path) -> None:
    _write_trace(tmp_path)
    source = module_source(tmp_path / TRACE_DIR / "Demo" / "Basic.ast.json")
    assert "theorem add_zero' (x : ℕ) : x + 0 = x := rfl" in source
    extraction = read_traces(tmp_path)
    decl = extraction.by_name()["Demo.add_zero'"]
    assert decl.method == "dojo" and decl.module == "Demo.Basic"
    assert decl.type == app("Eq", app("HAdd.hAdd", Var("x"), Lit(0)), Var("x"))
    assert decl.binders[0].type == Const("Nat")
    assert extraction.meta["method"] == "dojo" and extraction.meta["kernel"] is False
    assert extract(tmp_path, method="dojo").by_name().keys() == extraction.by_name().keys()


def test_missing_or_bad_traces(tmp_path: Path) -> None:
    with pytest.raises(ExportFormatError, match="no LeanDojo trace directory"):
        read_traces(tmp_path)
    _write_trace(tmp_path)
    with pytest.raises(ExportFormatError, match="Nope"):
        read_traces(tmp_path, ["Nope"])
    bad = tmp_path / TRACE_DIR / "Demo" / "Bad.ast.json"
    bad.write_text(json.dumps({"commandASTs": [{"weird": {}}]}), encoding="utf-8")
    with pytest.raises(ExportFormatError, match="unknown Syntax kind"):
        module_source(bad)
