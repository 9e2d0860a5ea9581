"""Names that once collided, end to end through ``leanmirror generate`` (the pooled CLI path):
two theorem names with one Python spelling (``add_le₁``/``add_le_1``, ``t'``/``t_p``), a
module and its ``Test.``-prefixed namesake (``P.Foo``/``Test.P.Foo``) and modules named like
Python modules (``Json``, ``Mirror``). The run finishes, every statement has its own function
and file, ``generate --check`` compares content, and the generated tests collect and pass.
(The renderer's own cases are in ``tests/product/test_generated_names.py``.)"""

from __future__ import annotations

import subprocess
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from tests.faults.conftest import PYTHON, child_env, leanmirror

MODULES = {
    "P": "\n".join(f"theorem {n} (x : ℝ) : x ≤ x + 1 := by sorry"
                   for n in ("add_le₁", "add_le_1", "t'", "t_p")),
    "P.Foo": "theorem a (x : ℝ) : 0 ≤ x ^ 2 := by sorry",
    "Test.P.Foo": "theorem b (x : ℝ) : 0 ≤ x ^ 2 := by sorry",
    "Json": "theorem j (x : ℝ) : 0 ≤ x ^ 2 := by sorry",
    "Mirror": "theorem m (x : ℝ) : 0 ≤ x ^ 2 := by sorry",
}
_LOAD = ([] if any(e.value == "mirror.product.pytest_plugin"
                   for e in entry_points(group="pytest11"))
         else ["-p", "mirror.product.pytest_plugin"])


def _project(root: Path) -> Path:
    (root / "lean").mkdir(parents=True)
    (root / "lakefile.toml").write_text('name = "names"\nsrcDir = "lean"\n', encoding="utf-8")
    for module, body in MODULES.items():
        path = root / "lean" / Path(*module.split(".")).with_suffix(".lean")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"import Mathlib\n\n{body}\n", encoding="utf-8")
    return root


@pytest.mark.slow  # (moved to the slow job: the default run stays under 10 min)
def test_colliding_names_generate_apart_check_by_content_and_collect(tmp_path):
    project = _project(tmp_path / "project")
    out = tmp_path / "mirrors"
    args = ("--project", str(project), "--out", str(out), "--method", "scanner")
    written = leanmirror("generate", *args, "--jobs", "2")
    assert written.returncode == 0, written.stderr[-2000:]
    files = sorted(p.name for p in out.glob("*.py"))
    assert len(files) == 2 * len(MODULES), files  # one property and one test file per module
    assert not {"json.py", "mirror.py", "test_json.py", "test_mirror.py"} & set(files)
    functions = [line.split("(")[0] for line in
                 (out / "leanmirror_p.py").read_text(encoding="utf-8").splitlines()
                 if line.startswith("def prop_")]
    assert len(functions) == len(set(functions)) == 4, functions
    assert leanmirror("generate", *args, "--check", "--jobs", "1").returncode == 0
    one, other = out / "test_leanmirror_p_foo.py", out / "test_leanmirror_test_p_foo.py"
    one.write_text(other.read_text(encoding="utf-8"), encoding="utf-8")
    stale = leanmirror("generate", *args, "--check")
    assert stale.returncode == 1 and f"stale: {one}" in stale.stdout, stale.stdout
    assert leanmirror("generate", *args).returncode == 0
    run = subprocess.run([PYTHON, "-m", "pytest", "-q", *_LOAD, str(out), "-p", "no:cacheprovider",
                          "--leanmirror-profile", "dev"], cwd=tmp_path, env=child_env(),
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:]
    assert f"{4 + len(MODULES) - 1} passed" in run.stdout, run.stdout[-1000:]
