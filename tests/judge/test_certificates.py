"""A refutation carries its certificate; the independent checker re-verifies it.

Each false statement is run through the real pipeline; its refuted row's certificate must be
accepted by the checker (which re-evaluates the sympy form with its own ball arithmetic), and
every tampered variant — the draw changed, an enclosure moved, a hypothesis flipped — must be
rejected. The CLI prints accepted/rejected (exit 0/1) and a bad file is a one-line error
(exit 2).
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest

from bridge.scanner import scan_project
from mirror.judge.certificate import FORMAT, VERSION, CertificateError, read
from mirror.product.cli import main
from mirror.product.pipeline import CheckSettings, build_mirrors, check_mirror
from mirror.product.replay import check_certificate
from tests.judge.conftest import planted_project

SOURCE = """
theorem exp_lt_one (x : ℝ) (hx : 0 < x) : Real.exp x < 1 := by sorry
theorem log_le_sub_one (x : ℝ) (hx : 1 < x) (hy : x < 4) : x - 1 ≤ Real.log x := by sorry
theorem distrib_strict (x y z : ℝ) : (x + y) * z < x * z + y * z := by sorry
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return planted_project(tmp_path_factory.mktemp("cert"), SOURCE)


@pytest.fixture(scope="module")
def rows(project):
    mirrors = {m.name.rsplit(".", 1)[-1]: m for m in build_mirrors(scan_project(project))}
    settings = CheckSettings(max_examples=40, sweep=64)
    return {name: (m, check_mirror(m, settings)) for name, m in mirrors.items()}


@pytest.mark.parametrize("name", ["exp_lt_one", "log_le_sub_one", "distrib_strict"])
def test_every_refuted_row_carries_a_certificate_the_checker_accepts(rows, name):
    mirror, row = rows[name]
    assert row.mirror_status == "refuted", row.reason
    certificate = row.certificate
    assert certificate["format"] == FORMAT and certificate["version"] == VERSION
    assert certificate["checked"].startswith("accepted"), certificate["checked"]
    # the draw is exact: rationals as strings, equal to the row's counterexample
    for key, value in row.counterexample.items():
        assert Fraction(certificate["draw"][key]) == Fraction(value)
    assert all(h["decision"] == "true" for h in certificate["hypotheses"])
    assert certificate["conclusion"]["decision"] == "false"
    assert certificate["conclusion"]["relations"][0]["difference"]["rad"] is not None
    assert check_certificate(mirror, certificate).accepted


def _tampered(certificate, change):
    copied = copy.deepcopy(certificate)
    change(copied)
    return copied


def _move_conclusion_enclosure(c):
    difference = c["conclusion"]["relations"][0]["difference"]
    difference["mid"] = str(Fraction(difference["mid"]) + 1000)
    difference["rad"] = "0"


def _flip_hypothesis(c):
    c["hypotheses"][0]["decision"] = "false"


def _change_draw(c):
    c["draw"]["x"] = "-1"  # outside the hypothesis 0 < x


def _move_draw_a_little(c):
    # still refuting, but the stated enclosures no longer contain the values at this draw
    c["draw"]["x"] = str(Fraction(c["draw"]["x"]) * 2)


def _flip_conclusion(c):
    c["conclusion"]["decision"] = "true"


@pytest.mark.parametrize("change", [_move_conclusion_enclosure, _flip_hypothesis, _change_draw,
                                    _move_draw_a_little, _flip_conclusion])
def test_a_tampered_certificate_is_rejected(rows, change):
    mirror, row = rows["exp_lt_one"]
    verdict = check_certificate(mirror, _tampered(row.certificate, change))
    assert not verdict.accepted, verdict.reason


def test_a_certificate_for_another_statement_is_rejected(rows):
    mirror, _ = rows["exp_lt_one"]
    _, other = rows["log_le_sub_one"]
    assert not check_certificate(mirror, other.certificate).accepted


def test_cli_check_certificate(rows, project, tmp_path, capsys):
    mirror, row = rows["exp_lt_one"]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(row.certificate), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_tampered(row.certificate, _flip_hypothesis)), encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    base = ["check", mirror.name, "--project", str(project), "--method", "scanner"]
    assert main([*base, "--certificate", str(good)]) == 0
    assert capsys.readouterr().out.startswith("accepted: ")
    assert main([*base, "--certificate", str(bad)]) == 1
    assert capsys.readouterr().out.startswith("rejected: ")
    assert main([*base, "--certificate", str(broken)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("leanmirror: error: --certificate") and "\n" not in err


def test_reading_a_file_that_is_not_a_certificate_names_what_is_wrong(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"format": FORMAT, "version": 99}), encoding="utf-8")
    with pytest.raises(CertificateError, match="version 99, expected one of 1, 2"):
        read(path)


def test_the_replay_runs_the_checker(rows, project, capsys):
    mirror, row = rows["exp_lt_one"]
    example = json.dumps(row.counterexample)
    base = ["check", mirror.name, "--project", str(project), "--method", "scanner"]
    assert main([*base, "--example", example]) == 1
    out = capsys.readouterr().out
    assert "refuted: " in out and "; certificate accepted: " in out
