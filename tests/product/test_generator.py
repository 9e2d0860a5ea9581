"""Generated mirrors: deterministic, independent per statement, safe for hostile text."""

from __future__ import annotations

import ast
import shutil
import types

import pytest

from bridge import term as T
from bridge.declaration import Declaration, Extraction
from bridge.errors import InvalidArgument
from mirror.product.generator import (
    GENERATED_MARK,
    GeneratedFileConflict,
    mirror_tests,
    render_modules,
    sync_files,
)
from mirror.product.pipeline import Mirror, build_mirrors
from tests.product.conftest import REPO

pytest_plugins = ["pytester"]


def _decl(name: str, module: str, text: str, bound: int = 0) -> Declaration:
    body = T.app("LE.le", T.Lit(bound), T.app("Real.exp", T.Var("x")))
    return Declaration(
        name, "theorem", module,
        binders=(T.Binder("x", T.Const("Real")),), type=body, statement_text=text,
    )


def _planned(declaration: Declaration) -> dict:
    """The sampling plan the pipeline's planner makes for ``declaration``."""
    (mirror,) = build_mirrors(Extraction([declaration], [], {}))
    return mirror.plan


def _mirror(name: str, module: str, text: str, bound: int = 0) -> Mirror:
    fn = "prop_" + name.rsplit(".", 1)[-1]
    declaration = _decl(name, module, text, bound)
    return Mirror(
        declaration,
        "ready",
        source=f"def {fn}(rt, *, v_x):\n    return rt.truth(True), rt.le({bound}, rt.exp(v_x))\n",
        function_name=fn,
        plan=_planned(declaration),
    )


def _mirrors(bound_b: int = 0) -> list[Mirror]:
    return [
        _mirror("Mirror.Ops.a", "Mirror.Ops", "theorem a (x : ℝ) : 0 ≤ Real.exp x"),
        _mirror("Mirror.Ops.b", "Mirror.Ops", f"theorem b (x : ℝ) : {bound_b} ≤ Real.exp x", bound_b),
        _mirror("Mirror.Ops.c", "Mirror.Ops", "theorem c (x : ℝ) : 0 ≤ Real.exp x"),
        Mirror(_decl("Mirror.Ops.d", "Mirror.Ops", "theorem d : det"), "untranslatable",
               reason="Matrix.det\nis not in the table"),
        Mirror(_decl("Mirror.Res.r", "Mirror.Res", "theorem r"), "unbound", reason="no impl"),
        Mirror(_decl("Mirror.Res.helper", "Mirror.Res", "def helper"), "definition"),
    ]


def test_output_is_deterministic_and_marked():
    first = render_modules(_mirrors())
    second = render_modules(list(reversed(_mirrors())))
    assert first == second
    assert sorted(first) == ["leanmirror_mirror_ops.py", "leanmirror_mirror_res.py",
                             "test_leanmirror_mirror_ops.py", "test_leanmirror_mirror_res.py"]
    for name, text in first.items():
        head = text.split("\n", 1)[0]
        assert head.startswith(GENERATED_MARK) and "(statement lock " in head and "do not edit" in head
        assert text.endswith("\n") and not text.endswith("\n\n")
        assert all(line == line.rstrip() for line in text.split("\n"))
        ast.parse(text)  # valid Python


def _segments(text: str) -> dict[str, str]:
    """A generated file cut at its ``# --- <name> (statement …) ---`` markers."""
    parts: dict[str, str] = {}
    current = "<header>"
    for line in text.split("\n"):
        if line.startswith("# --- "):
            current = line.split()[2]
        parts[current] = parts.get(current, "") + line + "\n"
    return parts


def test_statement_edit_changes_only_that_block_and_module_header():
    before = render_modules(_mirrors())
    after = render_modules(_mirrors(bound_b=1))
    assert before["leanmirror_mirror_res.py"] == after["leanmirror_mirror_res.py"]
    assert before["test_leanmirror_mirror_res.py"] == after["test_leanmirror_mirror_res.py"]
    for name in ("leanmirror_mirror_ops.py", "test_leanmirror_mirror_ops.py"):
        old, new = _segments(before[name]), _segments(after[name])
        assert old.keys() == new.keys()
        changed = {key for key in old if old[key] != new[key]}
        assert changed == {"<header>", "Mirror.Ops.b"}
        old_head, new_head = old["<header>"].split("\n"), new["<header>"].split("\n")
        assert old_head[1:] == new_head[1:]  # only the first line (the lock hash) differs
        assert old_head[0] != new_head[0]


def test_hostile_statement_text_stays_in_comments():
    text = ('theorem evil : """ + __import__("os").system("echo pwned") + """ \\ "\r'
            'import os\u2028exec(1)\x0cx')
    mirror = _mirror("Mirror.Ops.evil", "Mirror.Ops", text)
    files = render_modules([mirror])
    tree = ast.parse(files["leanmirror_mirror_ops.py"])
    assert 'theorem evil : """ + __import__("os").system("echo pwned")' in files[
        "leanmirror_mirror_ops.py"]
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert {getattr(c.func, "attr", None) for c in calls} == {"truth", "le", "exp", None}
    assert {c.func.id for c in calls if isinstance(c.func, ast.Name)} == {"dict", "mirror", "real"}
    assert not any(isinstance(n, ast.Import) and n.names[0].name == "os" for n in ast.walk(tree))


def test_plan_literal_and_functions_are_importable(tmp_path):
    files = render_modules(_mirrors())
    namespace: dict = {"__name__": "leanmirror_mirror_ops"}
    exec(compile(files["leanmirror_mirror_ops.py"], "leanmirror_mirror_ops.py", "exec"), namespace)
    prop = namespace["prop_Mirror__Ops__a"]
    plan = prop.plan
    assert plan == _planned(_decl("Mirror.Ops.a", "Mirror.Ops", "t"))
    assert prop.lean_name == "Mirror.Ops.a" and prop.bound_to == []
    assert [(v["name"], v["param"], v["kind"]) for v in plan["variables"]] == [("x", "v_x", "real")]
    assert namespace["LEAN_MODULE"] == "Mirror.Ops"
    assert "Matrix.det is not in the table" in files["leanmirror_mirror_ops.py"]
    # statements that cannot run get a comment, never a permanently skipped test
    assert "# no test: unbound: no impl" in files["test_leanmirror_mirror_res.py"]
    assert "skip" not in files["test_leanmirror_mirror_res.py"] + files["test_leanmirror_mirror_ops.py"]
    module = types.ModuleType("leanmirror_mirror_ops")
    module.__file__ = str(tmp_path / "leanmirror_mirror_ops.py")
    exec(compile(files["leanmirror_mirror_ops.py"], module.__file__, "exec"), module.__dict__)
    tests = mirror_tests(module)
    assert list(tests) == ["test_prop_Mirror__Ops__a", "test_prop_Mirror__Ops__b",
                           "test_prop_Mirror__Ops__c"]
    assert all(f"# {name}" in files["test_leanmirror_mirror_ops.py"] for name in tests)


def test_bad_mirrors_are_rejected_with_the_name():
    bad = _mirror("Mirror.Ops.a", "Mirror.Ops", "t")
    bad.function_name = "not an identifier"
    with pytest.raises(InvalidArgument, match="function_name"):
        render_modules([bad])
    broken = _mirror("Mirror.Ops.a", "Mirror.Ops", "t")
    broken.source = "def prop_a(rt, x) return"
    with pytest.raises(InvalidArgument, match="not valid Python"):
        render_modules([broken])


def test_sync_check_write_and_orphans(tmp_path):
    out = tmp_path / "mirrors"
    files = render_modules(_mirrors())
    check = sync_files(files, out, check=True)
    assert len(check.stale) == 4 and not check.written and not out.exists()
    wrote = sync_files(files, out)
    assert sorted(p.name for p in wrote.written) == sorted(files)
    assert not sync_files(files, out, check=True).stale
    edited = render_modules(_mirrors(bound_b=2))
    stale = sync_files(edited, out, check=True).stale
    assert sorted(p.name for p in stale) == ["leanmirror_mirror_ops.py", "test_leanmirror_mirror_ops.py"]
    only_ops = {k: v for k, v in edited.items() if "res" not in k}
    result = sync_files(only_ops, out)
    assert sorted(p.name for p in result.removed) == ["leanmirror_mirror_res.py",
                                                      "test_leanmirror_mirror_res.py"]
    assert sorted(p.name for p in out.iterdir()) == ["leanmirror_mirror_ops.py",
                                                     "test_leanmirror_mirror_ops.py"]


def test_hand_written_file_is_never_overwritten(tmp_path):
    out = tmp_path / "mirrors"
    out.mkdir()
    (out / "leanmirror_mirror_ops.py").write_text("# my own code\n")
    with pytest.raises(GeneratedFileConflict, match="not generated by leanmirror"):
        sync_files(render_modules(_mirrors()), out)
    assert (out / "leanmirror_mirror_ops.py").read_text() == "# my own code\n"


@pytest.mark.slow  # (moved to the slow job: the default run stays under 10 min)
def test_generate_check_fails_until_regenerated_after_a_lean_edit(tmp_path):
    from mirror.product import cli

    project = tmp_path / "project"
    shutil.copytree(REPO / "lean", project / "lean")
    for name in ("lakefile.toml", "lean-toolchain", "lake-manifest.json"):
        if (REPO / name).exists():
            shutil.copy(REPO / name, project / name)
    out = tmp_path / "mirrors"
    from bridge.extraction import extract
    from mirror.product.pipeline import build_mirrors

    mirrors = build_mirrors(extract(project, method="scanner"))
    sync_files(render_modules(mirrors, "../project"), out)  # what `leanmirror generate` writes
    before = {p.name: p.read_text() for p in out.iterdir()}
    # edit one statement: rename one mirrored theorem in its Lean source
    target = next(m for m in mirrors if m.status == "ready" and m.role == "theorem"
                  and m.declaration.range is not None)
    lean_file = project / target.declaration.range.file
    if not lean_file.exists():
        lean_file = project / "lean" / target.declaration.range.file
    lines = lean_file.read_text(encoding="utf-8").split("\n")
    short = target.declaration.short_name
    start = target.declaration.range.line - 1  # may be the docstring's first line
    idx = next(
        i for i in range(start, len(lines))
        if any(f"{kw} {short}" in lines[i] for kw in ("theorem", "lemma"))
    )
    lines[idx] = lines[idx].replace(short, short + "_edited", 1)
    lean_file.write_text("\n".join(lines), encoding="utf-8")
    assert cli.main(["generate", "--project", str(project), "--out", str(out), "--method", "scanner", "--check"]) == 1
    assert cli.main(["generate", "--project", str(project), "--out", str(out), "--method", "scanner"]) == 0
    assert cli.main(["generate", "--project", str(project), "--out", str(out), "--method", "scanner", "--check"]) == 0
    after = {p.name: p.read_text() for p in out.iterdir()}
    changed = sorted(name for name in after if before.get(name) != after[name])
    assert len(changed) == 2  # the module's property file and its test file
    for name in changed:
        old, new = _segments(before[name]), _segments(after[name])
        differing = {k for k in old.keys() | new.keys() if old.get(k) != new.get(k)}
        assert differing == {"<header>", target.name, target.name + "_edited"}


def test_generated_tests_run_under_pytest_with_a_profile(pytester, monkeypatch):
    from importlib.metadata import entry_points

    from mirror.product.generator import generate
    from tests.product.test_fuzz import PLANTED_LEAN

    project = pytester.path / "project"
    (project / "lean").mkdir(parents=True)
    (project / "lakefile.toml").write_text('name = "planted"\nsrcDir = "lean"\n')
    (project / "lean" / "Planted.lean").write_text(PLANTED_LEAN, encoding="utf-8")
    out = pytester.path / "mirrors"
    result = generate(project, out, method="scanner")
    assert sorted(p.name for p in result.written) == ["leanmirror_planted.py",
                                                      "test_leanmirror_planted.py"]
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    load = [] if any(e.value == "mirror.product.pytest_plugin" for e in entry_points(group="pytest11")) else ["-p", "mirror.product.pytest_plugin"]
    run = pytester.runpytest_subprocess(*load, str(out), "--leanmirror-profile", "dev", "-p", "no:cacheprovider")
    run.assert_outcomes(passed=3, failed=1)
    assert any("a_false_square" in line and "FAILED" in line for line in run.outlines)



def test_hostile_names_and_reasons_stay_in_comments():
    module = "Mirror.Evil\nimport os"
    hostile = Mirror(_decl("Mirror.Evil.«x\nimport os»", module, "theorem x"), "untranslatable",
                     reason="cannot translate «y\n__import__('os')»")
    files = render_modules([hostile, _mirror("Mirror.Evil.ok", module, "theorem ok")])
    for text in files.values():
        tree = ast.parse(text)
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                    for alias in node.names}
        assert "os" not in imported
        assert not any(isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__"
                       for node in ast.walk(tree))
