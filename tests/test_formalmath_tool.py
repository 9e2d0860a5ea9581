"""tools/formalmath.py: FormalMATH's JSON → one Lean file per entry, deterministically."""

from __future__ import annotations

import json

import pytest

from tools.formalmath import ConversionError, lean_files, main

ENTRIES = [
    {"theorem_names": "omni_theorem_373",
     "autoformalization": "import Mathlib\n\ntheorem omni_theorem_373 (x : ℝ) : x = x := by"},
    {"theorem_names": "aime_all_1983_6",
     "autoformalization": "import Mathlib\n\ntheorem t : 1 = 1 := by\n"},
]


def test_each_entry_becomes_its_file_verbatim_with_sorry(tmp_path):
    source = tmp_path / "lite.json"
    source.write_text(json.dumps(ENTRIES), encoding="utf-8")
    assert main([str(source), str(tmp_path / "a")]) == 0
    assert main([str(source), str(tmp_path / "b")]) == 0
    written = sorted(p.name for p in (tmp_path / "a" / "FormalMATHLite").iterdir())
    assert written == ["aime_all_1983_6.lean", "omni_theorem_373.lean"]
    first = (tmp_path / "a" / "FormalMATHLite" / "omni_theorem_373.lean").read_text(encoding="utf-8")
    assert first == ENTRIES[0]["autoformalization"] + " sorry\n"
    for name in written:  # deterministic: the same JSON gives the same bytes
        assert (tmp_path / "a" / "FormalMATHLite" / name).read_bytes() == \
            (tmp_path / "b" / "FormalMATHLite" / name).read_bytes()
    assert "[[lean_lib]]" in (tmp_path / "a" / "lakefile.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("entries, message", [
    ({"theorem_names": "x"}, "JSON array"),
    ([{"theorem_names": "../x", "autoformalization": "theorem t : True := by"}], "plain id"),
    ([{"theorem_names": "x"}], "no autoformalization"),
    ([ENTRIES[0], ENTRIES[0]], "repeats"),
])
def test_bad_input_is_one_error_naming_the_entry(entries, message):
    with pytest.raises(ConversionError, match=message):
        lean_files(entries)


def test_the_command_reports_bad_json_in_one_line(tmp_path, capsys):
    source = tmp_path / "bad.json"
    source.write_text("{", encoding="utf-8")
    assert main([str(source), str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("formalmath: ") and err.count("\n") == 1
