"""Isolation: one statement's failure or runaway is that statement's `error` row."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest
import sympy as sp

from mirror.product import pipeline
from mirror.judge.guard import Guard
from mirror.product.pipeline import CheckSettings, build_mirrors, run
from mirror.product.report import write_report
from mirror.translate.translation import Translator

ROOT = Path(__file__).resolve().parents[2]
PLANTED = ROOT / "tests" / "fixtures" / "projects" / "planted"
FAST = CheckSettings(max_examples=20, sweep=32)


def _spin() -> None:
    x = sp.Symbol("x")
    while True:  # pure-Python sympy work that never ends
        sp.expand((x + 1) ** 30)


def test_an_exception_becomes_a_failure_naming_stage_type_and_message():
    guard = Guard(timeout=None)
    assert guard.call("translate", lambda: 1 / 0) is None
    assert guard.failure.stage == "translate"
    assert guard.failure.kind == "ZeroDivisionError"
    assert "division by zero" in guard.failure.message
    assert guard.call("plan", lambda: 1) is None  # nothing runs after a failure


def test_the_time_limit_is_enforced_inside_sympy_work():
    guard = Guard(timeout=0.3)
    started = time.monotonic()
    assert guard.call("symbolic settle", _spin) is None
    assert time.monotonic() - started < 5
    assert guard.failure.timed_out
    assert guard.failure.describe() == "leanmirror error: timed out in symbolic settle (limit 0.3 s)"
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0  # no alarm left behind


def test_a_guard_inside_a_stage_keeps_the_outer_alarm():
    outer = Guard(timeout=30)

    def stage() -> float:
        inner = Guard(timeout=0.2)
        inner.call("simplify", _spin)
        assert inner.failure.timed_out
        return signal.getitimer(signal.ITIMER_REAL)[0]

    left = outer.call("symbolic settle", stage)
    assert outer.failure is None
    assert 25 < left <= 30


def test_a_statement_that_raises_is_an_error_row_and_the_run_goes_on(monkeypatch, tmp_path):
    real = Translator.translate_statement

    def broken(self, decl):
        if decl.name.endswith("sq_eq_self"):
            raise IndexError("tuple index out of range")
        return real(self, decl)

    monkeypatch.setattr(Translator, "translate_statement", broken)
    result = run(PLANTED, method="scanner", settings=FAST)
    rows = {r.name.rsplit(".", 1)[-1]: r for r in result.results}
    assert len(rows) == 12
    failed = rows["sq_eq_self"]
    assert failed.mirror_status == "error"
    assert failed.stage == "translate"
    assert failed.reason == "leanmirror error in translate: IndexError: tuple index out of range"
    assert rows["natPred_succ"].mirror_status == "refuted"  # the others are still decided

    written = write_report(tmp_path, result)
    data = json.loads(Path(written["json"]).read_text(encoding="utf-8"))
    assert data["summary"]["totals"]["mirror"]["error"] == 1
    markdown = Path(written["md"]).read_text(encoding="utf-8")
    assert "leanmirror error in translate: IndexError" in markdown
    html = Path(written["html"]).read_text(encoding="utf-8")
    assert "leanmirror failed in translate" in html


def test_a_runaway_symbolic_attempt_is_inconclusive_by_the_time_budget(monkeypatch):
    """A symbolic attempt that never ends is a search that did not finish, not a failure:
    the row is ``inconclusive`` (time budget), and the draws do not run after it."""
    mirrors = {m.name: m for m in build_mirrors(pipeline.extract_project(PLANTED, "scanner"))}
    monkeypatch.setattr(pipeline, "settle_symbolically", lambda statement, limit: _spin())
    settings = CheckSettings(max_examples=5, sweep=0, statement_timeout=0.5)
    result = pipeline.check_mirror(mirrors["Planted.sq_nonneg'"], settings)
    assert result.mirror_status == "inconclusive", result.reason
    assert result.reason.startswith("stopped by the time budget: symbolic settle ran past the "
                                    "statement's limit (limit 0.5 s)")


def test_a_plan_stage_past_the_limit_is_an_inconclusive_row_not_an_error(monkeypatch):
    """FormalMATH ``omni_theorem_2589`` / ``omni_theorem_3562`` were ``error`` rows: planning
    the draws (three polynomial equations in three unknowns) ran past the statement's limit.
    The mirror records the time-out; its row is ``inconclusive`` by the time budget, as a
    presettle or check time-out is, naming the stage."""
    monkeypatch.setattr(pipeline, "plan_statement", lambda statement, settings: _spin())
    extraction = pipeline.extract_project(PLANTED, "scanner")
    mirrors = {m.name: m for m in build_mirrors(extraction, statement_timeout=0.3)}
    mirror = mirrors["Planted.sq_nonneg'"]
    assert mirror.status == "error" and mirror.failure.stage == "plan"
    result = pipeline.check_mirror(mirror, CheckSettings(max_examples=5, sweep=0,
                                                         statement_timeout=0.3))
    assert result.mirror_status == "inconclusive", result.reason
    assert result.reason.startswith("stopped by the time budget: building the mirror (plan) ran "
                                    "past the statement's limit (limit 0.3 s)")


def test_a_build_stage_that_raises_stays_an_error_row(monkeypatch):
    def broken(statement, settings):
        raise IndexError("tuple index out of range")

    monkeypatch.setattr(pipeline, "plan_statement", broken)
    extraction = pipeline.extract_project(PLANTED, "scanner")
    mirror = {m.name: m for m in build_mirrors(extraction)}["Planted.sq_nonneg'"]
    result = pipeline.check_mirror(mirror, FAST)
    assert result.mirror_status == "error"
    assert result.reason == "leanmirror error in plan: IndexError: tuple index out of range"


def test_a_translation_that_never_ends_times_out_while_building(monkeypatch):
    monkeypatch.setattr(Translator, "translate_statement", lambda self, decl: _spin())
    extraction = pipeline.extract_project(PLANTED, "scanner")
    started = time.monotonic()
    mirrors = build_mirrors(extraction, statement_timeout=0.1)
    assert time.monotonic() - started < 30
    theorems = [m for m in mirrors if m.role == "theorem"]
    assert theorems and all(m.status == "error" for m in theorems)
    assert theorems[0].reason == "leanmirror error: timed out in translate (limit 0.1 s)"


def test_guard_rejects_a_nonpositive_timeout():
    with pytest.raises(ValueError, match="timeout=0: expected a positive number"):
        Guard(timeout=0)


def test_a_time_limit_swallowed_where_it_landed_fires_again():
    # Hypothesis's gc callback, a __del__ or a bare except in a binding can swallow the timeout;
    # the stage must still end (it ran to its own end before the alarm was re-armed)
    from mirror.judge.guard import StatementTimeout

    reached_the_end = []

    def swallowing_stage() -> str:
        deadline = time.monotonic() + 5
        try:
            while time.monotonic() < deadline:
                pass
        except StatementTimeout:
            pass  # swallowed, as an "Exception ignored in gc callback" is
        while time.monotonic() < deadline:
            pass
        reached_the_end.append(True)
        return "finished"

    guard = Guard(timeout=0.2)
    assert guard.call("check", swallowing_stage) is None
    assert guard.failure.timed_out
    assert reached_the_end == []
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0  # no alarm left behind


def test_an_exception_after_a_swallowed_time_limit_is_a_time_out():
    # round 22's extreme pass of `Finset.sum_Ico_Ico_comm'` at Matrix (Fin 3) (Fin 3) ℝ: the
    # alarm was swallowed inside Hypothesis, which then failed with "IndexError: pop from empty
    # list" — an error row for a statement that was only slow
    from mirror.judge.guard import StatementTimeout

    def broken_by_the_interrupt() -> None:
        try:
            while True:
                pass
        except StatementTimeout:
            pass  # swallowed where it landed
        raise IndexError("pop from empty list")

    guard = Guard(timeout=0.2)
    assert guard.call("check", broken_by_the_interrupt) is None
    assert guard.failure.timed_out, guard.failure
    assert "IndexError: pop from empty list" in guard.failure.message
    # the same exception before the limit stays an error
    early = Guard(timeout=30)
    assert early.call("check", lambda: [].pop()) is None
    assert not early.failure.timed_out and early.failure.kind == "IndexError"


def test_a_property_run_past_the_hard_limit_is_inconclusive_not_an_error(monkeypatch):
    """``Finset.sum_Ico_Ico_comm'`` at ``M := Matrix (Fin 2) (Fin 2) ℝ`` (round-2026-12-01) was
    an ``error`` row: drawing its table ``ℕ → ℕ → M`` (1,024 floats a draw) outlasted the margin
    the property run keeps before the statement's hard limit. A check that was slow, not wrong,
    is ``inconclusive`` (time budget)."""
    from dataclasses import replace

    mirrors = {m.name: m for m in build_mirrors(pipeline.extract_project(PLANTED, "scanner"))}
    monkeypatch.setattr(pipeline, "run_property", lambda *args, **kwargs: _spin())
    settings = CheckSettings(max_examples=5, sweep=0, statement_timeout=0.5, symbolic=False)
    mirror = replace(mirrors["Planted.sq_nonneg'"], build_seconds=0.0)
    result = pipeline.check_mirror(mirror, settings)
    assert result.mirror_status == "inconclusive", result.reason
    assert result.reason.startswith("stopped by the time budget: the check ran past the "
                                    "statement's limit (limit 0.5 s)")


def test_solving_the_hypotheses_past_the_hard_limit_is_inconclusive_and_draws_nothing(
        monkeypatch):
    """miniF2F ``mathd_numbertheory_427`` was an ``error`` row: solving its hypotheses
    (presettle) ran past the limit. An unfinished search decides nothing, so the row is
    ``inconclusive`` — and the draws do not run in its place (they would read a membership
    condition on the sampled prefix only)."""
    from dataclasses import replace

    mirrors = {m.name: m for m in build_mirrors(pipeline.extract_project(PLANTED, "scanner"))}
    monkeypatch.setattr(pipeline, "presettle", lambda *args, **kwargs: _spin())
    drawn = []
    monkeypatch.setattr(pipeline, "run_property", lambda *args, **kwargs: drawn.append(1))
    settings = CheckSettings(max_examples=5, sweep=0, statement_timeout=0.5)
    mirror = replace(mirrors["Planted.sq_nonneg'"], build_seconds=0.0)
    result = pipeline.check_mirror(mirror, settings)
    assert result.mirror_status == "inconclusive", result.reason
    assert result.reason.startswith("stopped by the time budget: solving the hypotheses ran "
                                    "past the statement's limit (limit 0.5 s)")
    assert drawn == []
