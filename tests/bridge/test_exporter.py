"""The exporter reader on hand-written JSON in the documented format."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from bridge.errors import ExportFormatError
from bridge.exporter import load_export, read_export
from bridge.term import App, Binder, Const, Lam, Lit, Pi, Sort, Var, app

from .conftest import EXPORTS


@pytest.fixture
def extraction():
    return read_export(EXPORTS / "basic.json")


def test_meta(extraction) -> None:
    assert extraction.meta["method"] == "exporter"
    assert extraction.meta["kernel"] is True
    assert extraction.meta["lean_version"] == "4.22.0"
    assert extraction.meta["lean_githash"] == "abc123"


def test_terms_are_normalized(extraction) -> None:
    decls = extraction.by_name()
    exp_pos = decls["Demo.exp_pos'"]
    assert exp_pos.binders == (Binder("x", Const("Real")),)
    assert exp_pos.type == app("LT.lt", Lit(0), App(Const("Real.exp"), (Var("x"),)))
    assert exp_pos.type.ty == Const("Real")  # the carrier type is kept on relations
    assert exp_pos.range is not None and exp_pos.range.column == 1
    half = decls["Demo.half_sum"]
    fin_n = App(Const("Fin"), (Var("n"),))
    assert half.binders[1] == Binder("f", Pi((Binder("a", fin_n),), Const("Real")))
    total = app("Finset.sum", Const("Finset.univ"), Lam((Binder("i", fin_n),), App(Var("f"), (Var("i"),))))
    assert half.type == app("Eq", total, Lit(Fraction(1, 2)))
    assert half.type.args[0].ty == Const("Real")


def test_statuses_from_axioms_and_errors(extraction) -> None:
    decls = extraction.by_name()
    assert decls["Demo.exp_pos'"].lean_status == "proved"
    assert decls["Demo.half_sum"].lean_status == "sorry"
    assert decls["Demo.uses_ext"].lean_status == "proved-extra-axioms"
    assert decls["Demo.uses_ext"].axioms == ("propext", "Demo.myAxiom")
    assert decls["Demo.broken"].lean_status == "error"
    assert decls["Demo.broken"].errors == ("unknown identifier 'foo'",)
    assert all(d.method == "exporter" for d in decls.values())
    assert extraction.diagnostics[0].line == 14


def test_implication_binder_is_anonymous(extraction) -> None:
    uses = extraction.by_name()["Demo.uses_ext"]
    assert uses.binders == (Binder("p", Sort(0)),)
    assert uses.type == Pi((Binder("_", Var("p")),), Var("p"))


def test_equations_with_named_pattern_variables(extraction) -> None:
    double = extraction.by_name()["Demo.double"]
    assert double.equations[0].patterns == (Lit(0),)
    assert double.equations[1].patterns == (app("HAdd.hAdd", Var("n"), Lit(1)),)
    assert double.equations[1].rhs == app("HAdd.hAdd", App(Const("Demo.double"), (Var("n"),)), Lit(2))


def _doc(version: object) -> dict:
    data = json.loads((EXPORTS / "basic.json").read_text(encoding="utf-8"))
    data["meta"]["format_version"] = version
    return data


@pytest.mark.parametrize("version", [2, 0, "1", None])
def test_bad_format_version(version: object) -> None:
    with pytest.raises(ExportFormatError) as info:
        load_export(_doc(version), "x.json")
    message = str(info.value)
    assert repr(version) in message and "supports format_version 1" in message


def test_unreadable_documents(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(ExportFormatError, match="bad.json"):
        read_export(bad)
    with pytest.raises(ExportFormatError):
        read_export(tmp_path / "missing.json")


@pytest.mark.parametrize(("field", "value", "match"), [
    ("type", {"bvar": 7}, "out of range"),
    ("kind", "lemma", "kind"),
    ("type", {"mvar": 1}, "unknown EXPR"),
])
def test_malformed_declarations(field: str, value: object, match: str) -> None:
    data = _doc(1)
    data["declarations"][0][field] = value
    with pytest.raises(ExportFormatError, match=match):
        load_export(data)
