"""Generated names cannot collide: Lean names → Python identifiers and files, injectively.

Each case here once broke ``leanmirror generate`` (issue 22, item 5; issue 19, item 4): two
legal theorem names with one Python spelling aborted the whole project, a module ``Test.P.Foo``
overwrote the test file of ``P.Foo`` (and ``generate --check`` said up to date), a module
``Json`` or ``Mirror`` wrote a file that shadows an importable Python module, and a binder
``NATDOM : ℕ+`` became the runtime's ℕ bound.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import pytest

from bridge.scanner import scan_project
from mirror.product.generator import generate, render_modules, sync_files
from mirror.product.pipeline import build_mirrors
from tests.mirror.conftest import verdicts_of
from tests.product.conftest import REPO

pytest_plugins = ["pytester"]

_LOAD = ([] if any(e.value == "mirror.product.pytest_plugin"
                   for e in entry_points(group="pytest11"))
         else ["-p", "mirror.product.pytest_plugin"])


def _project(root: Path, modules: dict[str, str]) -> Path:
    """A Lake project under ``root`` with one Lean file per module (its theorems' text)."""
    project = root / "project"
    (project / "lean").mkdir(parents=True)
    (project / "lakefile.toml").write_text('name = "names"\nsrcDir = "lean"\n')
    for module, body in modules.items():
        path = project / "lean" / Path(*module.split(".")).with_suffix(".lean")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"import Mathlib\n\n{body}\n", encoding="utf-8")
    return project


def _theorem(name: str) -> str:
    return f"theorem {name} (x : ℝ) : 0 ≤ x ^ 2 := by sorry"


def _rendered(tmp_path: Path, modules: dict[str, str]) -> dict[str, str]:
    return render_modules(build_mirrors(scan_project(_project(tmp_path, modules))))


def _functions(text: str) -> list[str]:
    return [line.split("(")[0].removeprefix("def ") for line in text.split("\n")
            if line.startswith("def prop_")]


@pytest.mark.parametrize("first, second", [("add_le₁", "add_le_1"), ("t'", "t_p")])
def test_two_theorem_names_with_one_python_spelling_get_two_functions(tmp_path, first, second):
    body = "\n".join(f"theorem {name} (x : ℝ) : x ≤ x + 1 := by sorry" for name in (first, second))
    files = _rendered(tmp_path, {"P": body})
    functions = _functions(files["leanmirror_p.py"])
    assert len(functions) == len(set(functions)) == 2
    # the faithful name keeps its spelling; the other gets a stable suffix
    assert f"prop_{second}" in functions
    assert any(f.startswith(f"prop_{second}_") for f in functions)
    assert files == _rendered(tmp_path / "again", {"P": body})  # stable


def test_a_module_and_its_test_prefixed_namesake_get_their_own_files(tmp_path):
    files = _rendered(tmp_path, {"P.Foo": _theorem("a"), "Test.P.Foo": _theorem("b")})
    assert len(files) == 4
    mirrors = sorted(name for name in files if not name.startswith("test_"))
    assert mirrors == ["leanmirror_p_foo.py", "leanmirror_test_p_foo.py"]
    for name in mirrors:
        assert f"import {name.removesuffix('.py')} as mirrors" in files[f"test_{name}"]


def test_generate_check_compares_every_file_by_content(tmp_path):
    project = _project(tmp_path, {"P.Foo": _theorem("a"), "Test.P.Foo": _theorem("b")})
    out = tmp_path / "mirrors"
    result = generate(project, out, method="scanner")
    assert len(result.written) == 4 == len(result.expected)
    assert not generate(project, out, check=True, method="scanner").stale
    one = out / "test_leanmirror_p_foo.py"
    other = out / "test_leanmirror_test_p_foo.py"
    one.write_text(other.read_text(encoding="utf-8"), encoding="utf-8")
    stale = generate(project, out, check=True, method="scanner").stale
    assert [p.name for p in stale] == [one.name]


def test_two_modules_with_one_slug_get_stable_suffixes(tmp_path):
    files = _rendered(tmp_path, {"P.Foo": _theorem("a"), "P_Foo": _theorem("b")})
    stems = sorted(name for name in files if not name.startswith("test_"))
    assert len(stems) == 2 and all(s.startswith("leanmirror_p_foo_") for s in stems)
    assert len(sync_files(files, tmp_path / "out").written) == 4


@pytest.mark.parametrize("module", ["Json", "Mirror"])
def test_a_module_named_like_a_python_module_collects_and_runs(pytester, monkeypatch, module):
    project = _project(pytester.path, {module: "theorem t (x : ℝ) : 0 ≤ x ^ 2 := by sorry"})
    out = pytester.path / "mirrors"
    written = sorted(p.name for p in generate(project, out, method="scanner").written)
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    run = pytester.runpytest_subprocess(*_LOAD, str(out), "--leanmirror-profile", "dev",
                                        "-p", "no:cacheprovider")
    run.assert_outcomes(passed=1)
    assert written == [f"leanmirror_{module.lower()}.py", f"test_leanmirror_{module.lower()}.py"]


def test_lean_names_that_spell_helper_and_runtime_names_stay_apart(pytester, monkeypatch):
    """Binders and theorems named like the generated code's own names (``rt``, ``call``,
    ``mirror``, ``SETTINGS``, ``NAT``, ``hypotheses``) are namespaced: every test runs."""
    body = "\n".join([
        "theorem mirror (rt call : ℝ) : rt + call = call + rt := by sorry",
        "theorem SETTINGS (SETTINGS NAT : ℝ) (h : 0 < NAT) : SETTINGS * NAT = NAT * SETTINGS"
        " := by sorry",
        "theorem hypotheses (hypotheses conclusion : ℝ) : hypotheses ≤ hypotheses + conclusion"
        " ^ 2 := by sorry",
    ])
    project = _project(pytester.path, {"Names": body})
    out = pytester.path / "mirrors"
    generate(project, out, method="scanner")
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    run = pytester.runpytest_subprocess(*_LOAD, str(out), "--leanmirror-profile", "dev",
                                        "-p", "no:cacheprovider")
    run.assert_outcomes(passed=3)


@pytest.mark.parametrize("source, name", [
    ("theorem natdom_pnat (NATDOM : ℕ+) : (NATDOM : ℕ) = 16 := by sorry", "natdom_pnat"),
    ("theorem natdom (NATDOM : ℕ) : NATDOM = 16 := by sorry", "natdom"),
])
def test_a_binder_named_natdom_is_not_the_runtime_bound(tmp_path, source, name):
    result = verdicts_of(source, tmp_path)[name]
    assert result.mirror_status == "refuted", (result.mirror_status, result.reason)
