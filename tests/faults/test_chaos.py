"""``tools/chaos.py`` runs a bounded, seeded mix and prints held/broke per fault."""

from __future__ import annotations

import subprocess
import sys

from tests.faults.conftest import REPO, child_env


def test_a_short_seeded_mix_holds_and_prints_the_table():
    done = subprocess.run([sys.executable, str(REPO / "tools" / "chaos.py"), "--count", "4",
                           "--time", "60", "--seed", "3", "--only", "torn", "unterminated",
                           "source"], env=child_env(), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "chaos: seed 3, at most 4 trials in 60 s"
    assert sum(" held (" in line for line in lines) == 4
    assert any(line.startswith("fault") and line.endswith("held  broke") for line in lines)
