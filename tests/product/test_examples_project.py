"""Mirror your own project: the ``examples/toy`` walk-through, a fresh Lake project outside
the repository configured exactly as the README says, replay commands that reproduce each
refuted row, ``leanmirror init``/``bindings``, and a generic code base free of the bundled
project's constants."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from mirror.product.cli import main
from mirror.product.fuzz import read_session_log, run_session

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "toy"
FAST = ["--method", "scanner", "--examples", "40"]


@pytest.fixture(autouse=True)
def _own_sys_path(monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))


def _replay(command: str, capsys) -> tuple[int, str]:
    """Run a replay command line (``leanmirror check …``) through the CLI."""
    argv = shlex.split(command)
    assert argv[:2] == ["leanmirror", "check"]
    capsys.readouterr()
    status = main(argv[1:] + ["--method", "scanner"])
    return status, capsys.readouterr().out


@pytest.fixture(scope="module")
def example_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    assert main(["report", "--project", str(EXAMPLE), "--out", str(out), *FAST]) == 1  # refuted rows
    return out, json.loads((out / "report.json").read_text(encoding="utf-8"))


def test_example_wrong_kernel_and_its_theorem_are_refuted_the_rest_tested(example_report):
    _, report = example_report
    rows = {s["name"]: s for s in report["statements"]}
    for name in ("Toy.prefixSum.conformance", "Toy.prefixSum_succ"):
        assert rows[name]["mirror_status"] == "refuted", rows[name]["reason"]
        example = rows[name]["counterexample"]
        # shrunk: the smallest index and one non-zero entry
        assert example["i"] == 0
        assert sum(1 for v in example["a"] if v != 0) == 1
    for name in ("Toy.relu.conformance", "Toy.logsumexp.conformance", "Toy.attn.conformance",
                 "Toy.relu_of_nonneg", "Toy.attn_nonneg"):
        assert rows[name]["mirror_status"] == "tested", (name, rows[name]["reason"])
    assert rows["Toy.relu_nonneg"]["mirror_status"] in ("tested", "symbolic")
    table = {o["op"]: o["conformance"] for o in report["op_specs"]}
    assert report["op_specs_title"] == "Bindings"
    assert table == {"Toy.relu": "tested", "Toy.prefixSum": "refuted",
                     "Toy.logsumexp": "tested", "Toy.attn": "tested"}


def _verdict(printed: str) -> str:
    """The verdict line of ``check``'s explanation (its last line, after ``verdict: ``)."""
    last = printed.strip().splitlines()[-1]
    assert last.startswith("verdict: "), printed
    return last[len("verdict: "):]


def test_every_refuted_row_replays_exactly_its_counterexample(example_report, capsys):
    out, report = example_report
    html = (out / "report.html").read_text(encoding="utf-8")
    markdown = (out / "report.md").read_text(encoding="utf-8")
    refuted = [s for s in report["statements"] if s["mirror_status"] == "refuted"]
    assert refuted
    for row in refuted:
        command = row["replay"]
        assert "\n" not in command
        assert command in markdown
        assert command.replace("&", "&amp;").replace("'", "&#39;").replace('"', "&#34;") in html
        argv = shlex.split(command)
        assert json.loads(argv[argv.index("--example") + 1]) == row["counterexample"]
        status, printed = _replay(command, capsys)
        assert status == 1
        assert _verdict(printed).startswith(f"refuted: {row['name']}: fails in float64")


def test_a_passing_example_replays_as_holding(example_report, capsys):
    _, report = example_report
    (row,) = [s for s in report["statements"] if s["name"] == "Toy.prefixSum_succ"]
    zeros = dict(row["counterexample"], a=[0.0] * len(row["counterexample"]["a"]))
    command = row["replay"].replace(shlex.quote(json.dumps(row["counterexample"],
                                                           separators=(",", ":"))),
                                    shlex.quote(json.dumps(zeros)))
    status, printed = _replay(command, capsys)
    assert (status, _verdict(printed)) == (0, "holds: Toy.prefixSum_succ: holds on this example")


def test_the_fuzz_log_carries_the_replay_command(tmp_path, capsys):
    log = tmp_path / "fuzz.jsonl"
    summary = run_session(EXAMPLE, select=["Toy.prefixSum_succ"], examples=30, jobs=1, log=log,
                          database=tmp_path / "db", progress=False, method="scanner")
    assert summary.failures == ["Toy.prefixSum_succ"]
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    (result,) = [e["result"] for e in events if e["event"] == "result"]
    assert result["replay"].startswith("leanmirror check Toy.prefixSum_succ --project ")
    assert read_session_log(log)["Toy.prefixSum_succ"].replay == result["replay"]
    status, printed = _replay(result["replay"], capsys)
    assert status == 1 and _verdict(printed).startswith("refuted: Toy.prefixSum_succ")


# ---- a fresh project outside the repository, configured as the README says --------------

README_CONFIG = """\
[tool.leanmirror]
python-path = ["python"]          # added to sys.path, relative to that file

[tool.leanmirror.bindings]
"Toy.relu" = "toyimpl.ops:relu"                                   # explicit args, Lean order
"Toy.prefixSum" = { impl = "toyimpl.ops:prefix_sum", index = ["i"] }
"Toy.logsumexp" = { impl = "toyimpl.ops:logsumexp", dims = ["n"] }
"Toy.attn" = { impl = "toyimpl.ops:attn", vectorized = true, domain = { tau = "> 0" } }
"""


@pytest.fixture(scope="module")
def fresh_project(tmp_path_factory):
    root = tmp_path_factory.mktemp("fresh") / "toyproject"
    (root / "lean" / "Toy").mkdir(parents=True)
    shutil.copy(EXAMPLE / "lakefile.toml", root / "lakefile.toml")
    shutil.copy(EXAMPLE / "lean" / "Toy.lean", root / "lean" / "Toy.lean")
    shutil.copy(EXAMPLE / "lean" / "Toy" / "Basic.lean", root / "lean" / "Toy" / "Basic.lean")
    package = root / "python" / "toyimpl"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "ops.py").write_text(
        (EXAMPLE / "python" / "toyimpl" / "ops.py").read_text(encoding="utf-8"),
        encoding="utf-8")
    (root / "pyproject.toml").write_text(README_CONFIG, encoding="utf-8")
    return root


def test_report_on_a_fresh_project_outside_the_repository(fresh_project, tmp_path):
    assert not fresh_project.resolve().is_relative_to(REPO)
    out = tmp_path / "report"
    assert main(["report", "--project", str(fresh_project), "--out", str(out), *FAST]) == 1  # refuted rows
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    rows = {s["name"]: s for s in report["statements"]}
    conformance = {n for n, s in rows.items() if s["kind"] == "conformance"}
    assert conformance == {"Toy.relu.conformance", "Toy.prefixSum.conformance",
                           "Toy.logsumexp.conformance", "Toy.attn.conformance"}
    theorems = {n for n, s in rows.items() if s["kind"] == "theorem"}
    assert theorems == {"Toy.relu_nonneg", "Toy.relu_of_nonneg", "Toy.prefixSum_succ",
                        "Toy.prefixSum_zero", "Toy.attn_nonneg"}
    assert rows["Toy.prefixSum.conformance"]["mirror_status"] == "refuted"
    assert rows["Toy.prefixSum.conformance"]["counterexample"]["i"] == 0
    assert rows["Toy.relu.conformance"]["mirror_status"] == "tested"
    # the stable softmax kernel at τ → 0⁺: s / τ overflows to ∞ and ∞ − ∞ is NaN, where
    # Lean's value (computed exactly) is a real number: ℝ has no NaN, the row is refuted
    attn = rows["Toy.attn.conformance"]
    assert attn["mirror_status"] == "refuted", attn["reason"]
    assert "the kernel returned nan where Lean's value is" in attn["reason"]
    assert "drawn with tau > 0.0, the domain of toyimpl.ops:attn" in attn["method"]
    assert all(s["mirror_status"] != "error" for s in rows.values())


def test_bindings_lists_each_binding_and_its_convention(fresh_project, capsys):
    assert main(["bindings", "--project", str(fresh_project), "--method", "scanner"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"4 binding(s) in {fresh_project.resolve() / 'pyproject.toml'}"
    assert out[1:] == [
        "ok     Toy.relu: toyimpl.ops:relu(x: float) → 0-axis value for Lean's Real",
        "ok     Toy.prefixSum: toyimpl.ops:prefix_sum(a: float64[N] (sampled prefix))[i] → "
        "0-axis value for Lean's Real",
        "ok     Toy.logsumexp: toyimpl.ops:logsumexp(x: float64[n]) → 0-axis value for Lean's "
        "Real",
        "ok     Toy.attn: toyimpl.ops:attn(tau: float64[B], s: float64[B, n]) → 1-axis value "
        "for Lean's (Fin n → Real) (vectorized: one call per batch)",
    ]


def test_bindings_exit_1_and_name_the_error(fresh_project, tmp_path, capsys):
    broken = tmp_path / "broken"
    shutil.copytree(fresh_project, broken)
    config = broken / "pyproject.toml"
    config.write_text(README_CONFIG.replace("toyimpl.ops:relu", "toyimpl.ops:relux"),
                      encoding="utf-8")
    assert main(["bindings", "--project", str(broken), "--method", "scanner"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert (f"error  Toy.relu: binding Toy.relu ({config.resolve()}): module 'toyimpl.ops' has "
            "no attribute 'relux' (impl 'toyimpl.ops:relux'); fix the name after ':' in impl"
            ) in lines


def test_init_writes_a_commented_section_listing_every_definition(fresh_project, tmp_path,
                                                                   capsys):
    project = tmp_path / "new"
    shutil.copytree(fresh_project, project, ignore=shutil.ignore_patterns("pyproject.toml"))
    assert main(["init", "--project", str(project), "--method", "scanner"]) == 0
    text = (project / "pyproject.toml").read_text(encoding="utf-8")
    import tomllib

    assert tomllib.loads(text)["tool"]["leanmirror"] == {"python-path": ["."], "bindings": {}}
    for line in ("# Toy.relu (x : Real) : Real",
                 "# Toy.prefixSum (a : (Nat → Real), i : Nat) : Real",
                 "# Toy.logsumexp (n : Nat, x : (Fin n → Real)) : Real",
                 "# Toy.attn (tau : Real, s : (Fin n → Real)) : (Fin n → Real)",
                 '# "Toy.attn" = "yourpkg.module:attn"',
                 "#   called as function(a: float64[N] (sampled prefix), i: int)"):
        assert line in text
    assert "relu_nonneg" not in text  # theorems are not bindings
    # a second init refuses to overwrite the section
    assert main(["init", "--project", str(project), "--method", "scanner"]) == 2
    assert "already has a [tool.leanmirror] configuration" in capsys.readouterr().err


def _run_generated(pytester, monkeypatch, project: Path | None):
    """``leanmirror generate`` for ``project`` (``None``: already generated) into a directory
    of its own, then ``pytest`` on the generated mirrors in a fresh process."""
    from importlib.metadata import entry_points

    from mirror.product.generator import generate

    out = pytester.path / "mirrors"
    if project is not None:
        generate(project, out, method="scanner")
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    load = [] if any(e.value == "mirror.product.pytest_plugin"
                     for e in entry_points(group="pytest11")) else ["-p", "mirror.product.pytest_plugin"]
    return pytester.runpytest_subprocess(*load, str(out), "--leanmirror-profile", "dev",
                                         "-p", "no:cacheprovider")


def test_generated_mirrors_check_the_projects_own_kernels(fresh_project, pytester,
                                                           monkeypatch):
    """The pytest modules ``leanmirror generate`` writes call the user's functions (the
    project's configuration), not the bundled ones: the wrong kernel fails with its replay
    command, the right ones pass (the softmax kernel, drawn at τ → 0⁺ under the README's
    ``tau > 0``, returns NaN there)."""
    run = _run_generated(pytester, monkeypatch, fresh_project)
    run.assert_outcomes(passed=5, failed=4)
    failed = sorted(line.split("::")[1].split(" ")[0] for line in run.outlines
                    if line.startswith("FAILED"))
    assert failed == ["test_prop_Toy__attn__conformance",
                      "test_prop_Toy__prefixSum__conformance", "test_prop_Toy__prefixSum_succ",
                      "test_prop_Toy__prefixSum_zero"]
    replay = f"replay: leanmirror check Toy.prefixSum_succ --project {fresh_project.resolve()} "
    assert any(replay in line for line in run.outlines)


def test_a_generated_mirror_whose_binding_fails_names_the_binding(fresh_project, tmp_path,
                                                                   pytester, monkeypatch):
    project = tmp_path / "later"
    shutil.copytree(fresh_project, project)
    from mirror.product.generator import generate

    generate(project, pytester.path / "mirrors", method="scanner")
    config = project / "pyproject.toml"
    config.write_text(README_CONFIG.replace("toyimpl.ops:relu", "toyimpl.ops:relux"),
                      encoding="utf-8")
    run = _run_generated(pytester, monkeypatch, None)
    message = (f"BindingError: binding Toy.relu ({config.resolve()}): module 'toyimpl.ops' has "
               "no attribute 'relux' (impl 'toyimpl.ops:relux'); fix the name after ':' in impl")
    assert any(message in line for line in run.outlines)
    failed = [line for line in run.outlines if line.startswith("FAILED")]
    assert sum("Toy__relu" in line for line in failed) == 3


def test_generic_code_names_no_bundled_constant():
    """Only the bundled project's domain code (mirror/bundled/impl, models, experiments, bundled) and
    its configuration name ``Mirror.*`` constants."""
    offenders = []
    for path in sorted((REPO / "mirror").glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bMirror\.[A-Z]", line):
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == []


@pytest.mark.parametrize("example, message", [
    ("{", "leanmirror: error: --example '{' is not JSON (Expecting property name enclosed in "
          "double quotes: line 1 column 2 (char 1)); expected an object such as '{\"x\": 1.5}'"),
    ('{"a": [0.0]}', "leanmirror: error: --example for Toy.prefixSum_succ: missing ['i'], "
                     "unknown []; expected exactly the variables ['i', 'a']"),
])
def test_check_rejects_a_malformed_example_in_one_line(example, message, capsys):
    status = main(["check", "Toy.prefixSum_succ", "--project", str(EXAMPLE), "--method",
                   "scanner", "--example", example])
    assert status == 2
    assert capsys.readouterr().err.strip() == message


def test_check_names_an_ambiguous_or_unknown_statement(capsys):
    status = main(["check", "nothing_here", "--project", str(EXAMPLE), "--method", "scanner",
                   "--example", "{}"])
    assert status == 2
    assert capsys.readouterr().err.strip() == (
        "leanmirror: error: check: 'nothing_here' names 0 mirrored statements (none); pass one "
        "full name as the report shows it")
