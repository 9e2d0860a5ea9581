"""Per-statement draw settings: `[tool.leanmirror.statements."NAME"]` (issue 20).

A statement's own `sizes`, `domain` (and, for a kernel's conformance row, every accuracy and
draw key) win over its binding's, which win over `[tool.leanmirror.draws]`. The effect is
shown on a planted bug each reaches only with its own setting.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from mirror.bind.config import ConfigError, read_config
from mirror.product.pipeline import CheckSettings, run

LEAN = """\
import Mathlib

namespace Tiny

noncomputable def total {n : ℕ} (x : Fin n → ℝ) : ℝ := ∑ i, x i

noncomputable def twice (x : ℝ) : ℝ := 2 * x

theorem twice_small (x : ℝ) : x < 8 := by
  sorry

theorem total_short {n : ℕ} (x : Fin n → ℝ) (h : n ≤ 5) : total x = total x := by
  rfl

end Tiny
"""

KERNELS = """\
import math


def total_chunked(x):
    # a chunked sum that drops the tail when n is not a multiple of the chunk (8): right for
    # every n <= 8, wrong beyond
    n = len(x)
    full = n if n <= 8 else n - n % 8
    return math.fsum(float(v) for v in x[:full])


def twice(x):
    return 2 * x if abs(x) < 100 else 2.5 * x
"""

BINDINGS = """\
[tool.leanmirror.bindings]
"Tiny.total" = { impl = "tinyimpl:total_chunked", sizes = "1..4" }
"Tiny.twice" = { impl = "tinyimpl:twice" }
"""


def _project(root: Path, statements: str = "") -> Path:
    (root / "lean" / "Tiny").mkdir(parents=True)
    (root / "lean" / "Tiny.lean").write_text("import Tiny.Basic\n", encoding="utf-8")
    (root / "lean" / "Tiny" / "Basic.lean").write_text(LEAN, encoding="utf-8")
    (root / "lakefile.toml").write_text(
        'name = "tiny"\nsrcDir = "lean"\ndefaultTargets = ["Tiny"]\n\n'
        '[[lean_lib]]\nname = "Tiny"\n', encoding="utf-8")
    (root / "lean-toolchain").write_text("leanprover/lean4:v4.34.0\n", encoding="utf-8")
    (root / "python").mkdir()
    (root / "python" / "tinyimpl.py").write_text(KERNELS, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.leanmirror]\npython-path = ["python"]\n\n'
        '[tool.leanmirror.draws]\nmagnitude = "narrow"\nsizes = "1..4"\n\n'
        + BINDINGS + "\n" + textwrap.dedent(statements), encoding="utf-8")
    return root


def _rows(root: Path) -> dict:
    sys.path.insert(0, str(root / "python"))
    try:
        result = run(root, method="scanner", settings=CheckSettings(max_examples=40, sweep=64))
    finally:
        sys.path.remove(str(root / "python"))
        sys.modules.pop("tinyimpl", None)
    return {r.name.removeprefix("Tiny."): r for r in result.results}


def test_without_own_settings_the_planted_bugs_are_out_of_reach(tmp_path):
    rows = _rows(_project(tmp_path))
    assert rows["total.conformance"].mirror_status == "tested"
    assert "sizes 1..4" in rows["total.conformance"].method
    assert rows["twice.conformance"].mirror_status == "tested"
    assert rows["twice_small"].mirror_status != "refuted"


def test_own_settings_win_and_reach_the_bugs(tmp_path):
    rows = _rows(_project(tmp_path, """\
        [tool.leanmirror.statements."Tiny.total.conformance"]
        sizes = "0..64"

        [tool.leanmirror.statements."Tiny.twice.conformance"]
        magnitude = "wide"
        domain = { x = ">= 50" }

        [tool.leanmirror.statements."Tiny.twice_small"]
        domain = { x = ">= 4, <= 5" }

        [tool.leanmirror.statements."Tiny.total_short"]
        sizes = "6..9"
        """))
    total = rows["total.conformance"]
    assert total.mirror_status == "refuted", (total.reason, total.method)
    assert len(total.counterexample["x"]) > 8
    assert "sizes 0..64" in total.method
    twice = rows["twice.conformance"]
    assert twice.mirror_status == "refuted", (twice.reason, twice.method)
    assert abs(twice.counterexample["x"]) >= 100
    # a theorem's own domain narrows its draws (theorems draw inside [-5, 5]): x < 8 holds
    small = rows["twice_small"]
    assert small.mirror_status == "tested", (small.reason, small.method)
    assert "drawn with x ≥ 4.0 and x ≤ 5.0, the domain of statement Tiny.twice_small" in small.method
    # a theorem's own sizes: every draw has n ≥ 6, so its hypothesis n ≤ 5 rejects them all
    short = rows["total_short"]
    assert "drawn with sizes 6..9" in short.method
    assert short.mirror_status != "tested" and "rejected by the hypotheses" in short.reason


@pytest.mark.parametrize("table, message", [
    ('[tool.leanmirror.statements."Tiny.total.conformance"]\nsizes = "9..2"\n',
     "statement Tiny.total.conformance"),
    ('[tool.leanmirror.statements."Tiny.total.conformance"]\nspeed = 3\n',
     "unknown key 'speed'; expected one of sizes, domain"),
    ('[tool.leanmirror.statements."Tiny.twice_small"]\nulps = 8\n',
     "ulps applies to a kernel's conformance row only"),
    ('[tool.leanmirror.statements."Tiny.total.conformance"]\nmagnitude = "huge"\n',
     "magnitude: got 'huge'; expected one of wide, narrow"),
    ('[tool.leanmirror.statements."Tiny.total.conformance"]\ndomain = { x = "> nan" }\n',
     "domain x"),
    ('[tool.leanmirror.statements."Tiny.total.conformance"]\nmeasure = "maxwise"\n',
     "measure: got 'maxwise'; expected one of entrywise, normwise"),
    ('[tool.leanmirror.statements]\n"Tiny.total.conformance" = 3\n',
     "expected a table"),
])
def test_malformed_statement_settings_are_one_line_errors(tmp_path, table, message):
    root = _project(tmp_path, table)
    with pytest.raises(ConfigError) as caught:
        read_config(root)
    text = str(caught.value)
    assert message in text and "\n" not in text, text


def test_an_unknown_statement_name_is_reported_with_the_closest(tmp_path):
    root = _project(tmp_path, '[tool.leanmirror.statements."Tiny.twice_smal"]\nsizes = "1..2"\n')
    with pytest.raises(ConfigError) as caught:
        _rows(root)
    text = str(caught.value)
    assert "no statement named Tiny.twice_smal" in text
    assert "did you mean Tiny.twice_small?" in text and "\n" not in text


def test_a_domain_key_that_is_no_variable_is_reported(tmp_path):
    rows = _rows(_project(tmp_path, """\
        [tool.leanmirror.statements."Tiny.twice_small"]
        domain = { y = "> 0" }
        """))
    row = rows["twice_small"]
    assert row.mirror_status == "error"
    assert "'y' is not a variable of the statement; expected one of x" in row.reason


def test_a_changed_accuracy_setting_is_not_answered_from_the_cache(tmp_path):
    # the result cache's key holds the binding's accuracy profile (7478b2e: it did not, so a
    # new `ulps` re-used the row computed under the old budget)
    from mirror.product.cache import statement_key
    from mirror.product.pipeline import build_mirrors, extract_project

    root = _project(tmp_path)
    config = root / "pyproject.toml"
    plain = config.read_text(encoding="utf-8")
    keys = []
    for ulps in (4, 8):
        config.write_text(plain.replace('impl = "tinyimpl:twice"',
                                        f'impl = "tinyimpl:twice", ulps = {ulps}'),
                          encoding="utf-8")
        sys.path.insert(0, str(root / "python"))
        try:
            extraction = extract_project(root, "scanner")
            mirror = next(m for m in build_mirrors(extraction)
                          if m.name == "Tiny.twice.conformance")
        finally:
            sys.path.remove(str(root / "python"))
            sys.modules.pop("tinyimpl", None)
        assert mirror.table["Tiny.twice"].profile.ulps == ulps
        keys.append(statement_key(mirror, extraction.by_name(), CheckSettings()))
    assert keys[0] != keys[1]
