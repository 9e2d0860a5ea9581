"""tools/coverage.py: how parse diagnostics and blocking reasons are grouped, and the page."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bridge.declaration import Diagnostic
from mirror.judge.result import StatementResult


def _parse_error(text: str) -> Diagnostic:
    return Diagnostic("A.lean", 3, 7, f"cannot parse the statement of Foo.bar: {text}")


@pytest.mark.parametrize(
    "message, token",
    [
        ("unexpected sym '≃'", "≃"),
        ("unexpected sym \"'\"", "'"),
        ("unexpected keyword 'at'", "at"),
        ("unexpected end of input", "end of input"),
    ],
)
def test_parse_diagnostics_group_by_the_token_that_stopped_the_parser(coverage_tool, message, token):
    assert coverage_tool.stopping_token(_parse_error(message)) == token


def test_a_structured_construct_wins_and_other_diagnostics_are_not_notation(coverage_tool):
    @dataclass(frozen=True)
    class WithConstruct:
        message: str
        construct: str

    assert coverage_tool.stopping_token(WithConstruct("cannot parse …: unexpected sym '⟪'", "⟪ ⟫")) == "⟪ ⟫"
    assert coverage_tool.stopping_token(Diagnostic("A.lean", 1, 1, "unknown namespace Foo")) is None
    counted = coverage_tool.unknown_notation(
        [_parse_error("unexpected sym '≃'"), _parse_error("unexpected sym '≃'"),
         _parse_error("unexpected end of input")])
    assert counted.most_common() == [("≃", 2), ("end of input", 1)]


@pytest.mark.parametrize(
    "reason, group",
    [
        ("cannot translate constant OrderIso.symm: it is not in mirror.translate.translation's table",
         "unknown constant OrderIso.symm"),
        ("cannot translate recursive definition Nat.log: only structural recursion on ℕ",
         "recursive definition Nat.log"),
        ("cannot translate binder α : Sort: type parameters are not drawn",
         "type parameter (no carrier to draw)"),
        ("cannot translate finset: App(fn=Const(name='Finset.antidiagonal'), args=())", "finset"),
        ("cannot translate statement: the statement did not parse", "statement did not parse"),
    ],
)
def test_blocking_reasons_group_by_what_they_name(coverage_tool, reason, group):
    row = StatementResult("Foo.bar", "Foo", "theorem", "unchecked", "untranslatable", reason=reason)
    assert coverage_tool.blocker(row, {}) == group


def test_an_unparsed_statement_is_keyed_by_the_notation_that_stopped_it(coverage_tool):
    diagnostics = [_parse_error("unexpected sym '≃'"), Diagnostic("A.lean", 1, 1, "unknown namespace Foo")]
    constructs = coverage_tool.statement_constructs(diagnostics)
    assert constructs == {"Foo.bar": "≃"}
    row = StatementResult("Foo.bar", "Foo", "theorem", "unchecked", "untranslatable",
                          reason="cannot translate statement: the statement did not parse")
    assert coverage_tool.blocker(row, constructs) == "notation ≃"


def test_the_page_has_the_figures_the_notation_and_the_blockers(coverage_tool):
    figures = coverage_tool.Figures("demo", theorems=4, parsed=3, translated=2, checked=1,
                                    refuted=1, refuted_names=["Demo.bad"])
    figures.notation["≃"] = 1
    figures.blockers["constant Foo.bar"] = 1
    failed = coverage_tool.Figures("broken", failed="IndexError: tuple index out of range")
    page = coverage_tool.render([figures, failed], ["elsewhere: not found here, skipped"],
                                "python tools/coverage.py elsewhere", {"demo": "owner/demo @ abc"})
    assert "| demo | 4 | 3 (75 %) | 2 (50 %) | 1 (25 %) | 1 (25 %) | 0 (0 %) |" in page
    assert "| broken | run failed |" in page and "IndexError" in page
    assert "refuted: Demo.bad" in page
    assert "| `≃` | 1 |" in page and "| `constant Foo.bar` | 1 |" in page
    notation = page.split("## Unknown notation", 1)[1].split("## What blocks coverage", 1)[0]
    assert "**demo** (1 diagnostics, 1 of 4 theorem statements unparsed)" in notation
    assert "broken" not in notation  # a failed run has no parse figures
    assert "owner/demo @ abc" in page and "elsewhere: not found here" in page
