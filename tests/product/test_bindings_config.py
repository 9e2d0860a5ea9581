"""The project's own bindings: ``[tool.leanmirror]`` / ``leanmirror.toml``, ``@binds``, the
calling convention, and one exact one-line error per way a binding can fail."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from bridge.scanner import scan_project
from mirror.bind.binding import BindingError, batched_call
from mirror.bind.config import ConfigError, read_config
from mirror.product.pipeline import CheckSettings, build_mirrors, check_mirror, run
from mirror.bind.registry import load_registry
from mirror.evaluate.runtime import NumpyRuntime

SMALL = CheckSettings(max_examples=20, sweep=32)


@pytest.fixture(autouse=True)
def _own_sys_path(monkeypatch):
    """Each project's python-path goes on sys.path for its test only."""
    monkeypatch.setattr(sys, "path", list(sys.path))

LEAN = """\
import Mathlib

open Finset

namespace Cfg

def relu (x : ℝ) : ℝ := max x 0

def prefixSum (a : ℕ → ℝ) (i : ℕ) : ℝ := ∑ j ∈ range (i + 1), a j

def logsumexp (n : ℕ) (x : Fin n → ℝ) : ℝ := Real.log (∑ i, Real.exp (x i))

def scale {n : ℕ} (c : ℝ) (v : Fin n → ℝ) : Fin n → ℝ := fun i => c * v i

theorem relu_nonneg (x : ℝ) : 0 ≤ relu x := le_max_right x 0

theorem scale_zero {n : ℕ} (v : Fin n → ℝ) (i : Fin n) : scale 0 v i = 0 := by simp [scale]

end Cfg
"""

OPS = """\
import numpy as np


def relu(x):
    return max(x, 0.0)


def prefix_sum(a):
    return np.cumsum(a)


def logsumexp(x):
    if x.size == 0:
        return 0.0
    top = np.max(x)
    return float(top + np.log(np.sum(np.exp(x - top))))


def scale(c, v):
    return c * v


def scale_batch(c, v):
    return c[:, None] * v


def scale_flat(c, v):
    return np.outer(v, v)


def two(x, y):
    return x
"""


def make_project(root: Path, bindings: str, *, package: str, ops: str = OPS,
                 config_file: str = "pyproject.toml", extra: str = "") -> Path:
    """A Lake project with a Lean file, a Python package ``package`` and a configuration."""
    (root / "lean").mkdir(parents=True)
    (root / "lakefile.toml").write_text('name = "cfg"\nsrcDir = "lean"\n\n[[lean_lib]]\n'
                                        'name = "Cfg"\n', encoding="utf-8")
    (root / "lean" / "Cfg.lean").write_text(LEAN, encoding="utf-8")
    pkg = root / "python" / package
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "ops.py").write_text(ops, encoding="utf-8")
    prefix = "tool.leanmirror." if config_file == "pyproject.toml" else ""
    top = "[tool.leanmirror]\n" if config_file == "pyproject.toml" else ""
    text = (f'{top}python-path = ["python"]\n{extra}\n[{prefix}bindings]\n'
            + textwrap.dedent(bindings).replace("PKG", package))
    (root / config_file).write_text(text, encoding="utf-8")
    return root


def registry_of(project: Path):
    return load_registry(project, scan_project(project).by_name())


def test_the_four_binding_forms_of_the_issue_read_exactly_as_written(tmp_path):
    project = make_project(tmp_path / "p", """\
        "Toy.relu" = "toyimpl.ops:relu"                                   # explicit args, Lean order
        "Toy.prefixSum" = { impl = "toyimpl.ops:prefix_sum", index = ["i"] }
        "Toy.logsumexp" = { impl = "toyimpl.ops:logsumexp", dims = ["n"] }
        "Toy.attn" = { impl = "toyimpl.ops:attn", vectorized = true, domain = { tau = "> 0" } }
        """, package="cfgforms")
    config = read_config(project)
    assert config.python_path == ((project / "python").resolve(),)
    specs = {s.lean_name: s for s in config.bindings}
    assert specs["Toy.relu"].impl == "toyimpl.ops:relu"
    assert specs["Toy.relu"].index == () and not specs["Toy.relu"].vectorized
    assert specs["Toy.prefixSum"].index == ("i",)
    assert specs["Toy.logsumexp"].dims == ("n",)
    assert specs["Toy.attn"].vectorized
    assert specs["Toy.attn"].domain == {"tau": {"lo": 0.0, "strict": True}}


def test_leanmirror_toml_has_the_same_tables_without_the_prefix(tmp_path):
    project = make_project(tmp_path / "p", """\
        "Cfg.relu" = "PKG.ops:relu"
        """, package="cfgtoml", config_file="leanmirror.toml")
    registry = registry_of(project)
    assert registry.errors == {}
    assert registry.bindings["Cfg.relu"].convention.startswith("cfgtoml.ops:relu(x: float)")


def test_default_convention_index_dims_and_vectorized_check_tested(tmp_path):
    project = make_project(tmp_path / "p", """\
        "Cfg.relu" = "PKG.ops:relu"
        "Cfg.prefixSum" = { impl = "PKG.ops:prefix_sum", index = ["i"] }
        "Cfg.logsumexp" = { impl = "PKG.ops:logsumexp", dims = ["n"] }
        "Cfg.scale" = { impl = "PKG.ops:scale_batch", vectorized = true }
        """, package="cfgconv")
    registry = registry_of(project)
    assert registry.errors == {}
    assert registry.bindings["Cfg.scale"].vectorized
    results = {r.name: r for r in run(project, method="scanner", settings=SMALL).results}
    for name in ("Cfg.relu", "Cfg.prefixSum", "Cfg.logsumexp", "Cfg.scale"):
        row = results[f"{name}.conformance"]
        assert row.mirror_status == "tested", (name, row.reason)
        assert row.kind == "conformance"
    assert results["Cfg.scale_zero"].bound_to == ["cfgconv.ops:scale_batch"]


def _runtime_call(binding, batch: int, args: tuple) -> np.ndarray:
    rt = NumpyRuntime(batch, 8, 1e-9, {})
    return batched_call(rt, binding, (), args)


def test_vectorized_binding_is_called_once_per_batch(tmp_path):
    ops = OPS + textwrap.dedent("""
        CALLS = []


        def counted(c, v):
            CALLS.append(len(c))
            return c[:, None] * v
        """)
    project = make_project(tmp_path / "p", """\
        "Cfg.scale" = { impl = "PKG.ops:counted", vectorized = true }
        """, package="cfgvec", ops=ops)
    binding = registry_of(project).bindings["Cfg.scale"]
    c, v = np.arange(5.0), np.ones((5, 3))
    out = _runtime_call(binding, 5, (c, v))
    np.testing.assert_array_equal(out, c[:, None] * v)
    assert binding.load().__globals__["CALLS"] == [5]


def test_a_torch_tensor_result_is_accepted(tmp_path):
    import torch
    ops = OPS + "\n\ndef scale_torch(c, v):\n    import torch\n" \
        "    return torch.as_tensor(v, dtype=torch.float64) * c\n"
    project = make_project(tmp_path / "p", """\
        "Cfg.scale" = "PKG.ops:scale_torch"
        """, package="cfgtorch", ops=ops)
    binding = registry_of(project).bindings["Cfg.scale"]
    out = _runtime_call(binding, 2, (np.array([2.0, 3.0]), np.ones((2, 3))))
    assert isinstance(out, np.ndarray) and torch is not None
    np.testing.assert_array_equal(out, [[2.0] * 3, [3.0] * 3])


def test_binds_decorator_through_modules(tmp_path):
    ops = "from mirror import binds\n\n\n@binds(\"Cfg.relu\")\n" \
          "def relu(x):\n    return max(x, 0.0)\n"
    project = make_project(tmp_path / "p", "", package="cfgdeco", ops=ops,
                           extra='modules = ["cfgdeco.ops"]\n')
    registry = registry_of(project)
    assert registry.errors == {} and registry.problems == []
    binding = registry.bindings["Cfg.relu"]
    assert binding.implementation == "cfgdeco.ops:relu"
    assert binding.source == "@binds in cfgdeco.ops"
    (mirror,) = [m for m in build_mirrors(scan_project(project))
                 if m.name == "Cfg.relu.conformance"]
    assert check_mirror(mirror, SMALL).mirror_status == "tested"


def test_binds_decorator_through_an_entry_point(tmp_path):
    ops = "from mirror.bind.registry import binds\n\n\n@binds(\"Cfg.relu\")\n" \
          "def relu(x):\n    return max(x, 0.0)\n\n\n@binds(\"Other.thing\")\n" \
          "def other(x):\n    return x\n"
    project = make_project(tmp_path / "p", "", package="cfgentry", ops=ops)
    info = project / "python" / "cfgentry-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cfgentry\nVersion: 0.1\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text("[leanmirror.bindings]\ncfg = cfgentry.ops\n",
                                           encoding="utf-8")
    registry = registry_of(project)
    assert registry.problems == [] and registry.errors == {}
    # the installed package's binding for another project's definition is not this one's
    assert set(registry.bindings) == {"Cfg.relu"}
    assert registry.bindings["Cfg.relu"].source == "@binds in cfgentry.ops"


# ---- errors: one line naming the binding, the file and the fix ------------------------------


#: (binding line, package, binding name, the exact message; {path} is the configuration file)
ERRORS = {
    "unknown Lean definition": (
        '"Cfg.relux" = "PKG.ops:relu"', "cfgerr1", "Cfg.relux",
        "binding Cfg.relux ({path}): no Lean definition named Cfg.relux in the project (did you "
        "mean Cfg.relu?); fix the name, or remove the binding"),
    "module that does not import": (
        '"Cfg.relu" = "PKG.opz:relu"', "cfgerr2", "Cfg.relu",
        "binding Cfg.relu ({path}): cannot import module 'cfgerr2.opz' of impl 'cfgerr2.opz:relu' "
        "(ModuleNotFoundError: No module named 'cfgerr2.opz'); fix the module name, or add its "
        "directory to python-path"),
    "function missing from its module": (
        '"Cfg.relu" = "PKG.ops:rellu"', "cfgerr3", "Cfg.relu",
        "binding Cfg.relu ({path}): module 'cfgerr3.ops' has no attribute 'rellu' (impl "
        "'cfgerr3.ops:rellu'); fix the name after ':' in impl"),
    "wrong arity": (
        '"Cfg.relu" = "PKG.ops:two"', "cfgerr4", "Cfg.relu",
        "binding Cfg.relu ({path}): cfgerr4.ops:two takes 2 positional argument(s), but Cfg.relu "
        "passes 1 (x); fix the function's parameters, or name size arguments in dims and output "
        "selectors in index"),
    "index that is not a parameter": (
        '"Cfg.prefixSum" = { impl = "PKG.ops:prefix_sum", index = ["j"] }', "cfgerr5",
        "Cfg.prefixSum",
        "binding Cfg.prefixSum ({path}): index names 'j', which is not an explicit parameter of "
        "Cfg.prefixSum (a, i); fix index"),
    "dims that is not a parameter": (
        '"Cfg.logsumexp" = { impl = "PKG.ops:logsumexp", dims = ["m"] }', "cfgerr6",
        "Cfg.logsumexp",
        "binding Cfg.logsumexp ({path}): dims names 'm', which is not an explicit parameter of "
        "Cfg.logsumexp (n, x); fix dims"),
    "a theorem bound": (
        '"Cfg.relu_nonneg" = "PKG.ops:relu"', "cfgerr13", "Cfg.relu_nonneg",
        "binding Cfg.relu_nonneg ({path}): Cfg.relu_nonneg is a theorem, not a definition; bind a "
        "def or abbrev"),
    "adapter that does not import": (
        '"Cfg.relu" = { impl = "PKG.ops:relu", adapter = "PKG.adapt:relu" }', "cfgerr14",
        "Cfg.relu",
        "binding Cfg.relu ({path}): cannot import module 'cfgerr14.adapt' of adapter "
        "'cfgerr14.adapt:relu' (ModuleNotFoundError: No module named 'cfgerr14.adapt'); fix the "
        "module name, or add its directory to python-path"),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_error_one_line_naming_the_binding_file_and_fix(tmp_path, case):
    line, package, name, expected = ERRORS[case]
    project = make_project(tmp_path / "p", line + "\n", package=package)
    message = registry_of(project).errors[name]
    assert message == expected.format(path=project / "pyproject.toml")


def test_error_result_of_the_wrong_shape_is_the_rows_error(tmp_path):
    project = make_project(tmp_path / "p", '"Cfg.scale" = "PKG.ops:scale_flat"\n',
                           package="cfgerr7")
    rows = {r.name: r for r in run(project, method="scanner", settings=SMALL).results}
    row = rows["Cfg.scale.conformance"]
    assert row.mirror_status == "error"
    path = project / "pyproject.toml"
    prefix = f"binding Cfg.scale ({path}): cfgerr7.ops:scale_flat returned shape ("
    assert row.reason.startswith(prefix)
    assert row.reason.endswith(
        ") for one example, expected 1 axes (cfgerr7.ops:scale_flat(c: float, v: float64[n]) "
        "→ 1-axis value for Lean's (Fin n → Real)); fix the function's result, or its "
        "index/dims/vectorized settings")
    assert "\n" not in row.reason


def test_a_failing_binding_is_an_error_row_for_it_and_its_theorems_not_a_crash(tmp_path):
    project = make_project(tmp_path / "p", """\
        "Cfg.relu" = "PKG.ops:two"
        "Cfg.scale" = "PKG.ops:scale"
        """, package="cfgerr8")
    rows = {r.name: r for r in run(project, method="scanner", settings=SMALL).results}
    assert rows["Cfg.relu.conformance"].mirror_status == "error"
    assert rows["Cfg.relu_nonneg"].mirror_status == "error"
    assert rows["Cfg.relu_nonneg"].reason == rows["Cfg.relu.conformance"].reason
    assert "takes 2 positional argument(s)" in rows["Cfg.relu_nonneg"].reason
    # the other binding is checked as usual
    assert rows["Cfg.scale.conformance"].mirror_status == "tested"


def test_a_module_entry_that_does_not_import_is_a_diagnostic(tmp_path):
    project = make_project(tmp_path / "p", "", package="cfgerr9",
                           extra='modules = ["cfgerr9.nothere"]\n')
    result = run(project, method="scanner", settings=SMALL)
    path = project / "pyproject.toml"
    assert (f"modules entry 'cfgerr9.nothere' ({path}): cannot import it "
            "(ModuleNotFoundError: No module named 'cfgerr9.nothere'); fix the module name, "
            "or add its directory to python-path") in result.diagnostics


@pytest.mark.parametrize("entry, message", [
    ('"Cfg.relu" = 3', "binding Cfg.relu ({path}): got 3; expected \"module:function\" or a "
                       "table with impl = \"module:function\""),
    ('"Cfg.relu" = "PKG.ops.relu"', "binding Cfg.relu ({path}): got 'cfgbad.ops.relu'; "
                                    "expected \"package.module:function\""),
    ('"Cfg.relu" = { impl = "PKG.ops:relu", indx = ["i"] }',
     "binding Cfg.relu ({path}): unknown key 'indx'; expected one of impl, index, dims, "
     "vectorized, domain, adapter, description, dtypes, ulps, rtol, atol, reference, k, sizes, "
     "magnitude, measure"),
    ('"Cfg.relu" = { impl = "PKG.ops:relu", domain = { x = "positive" } }',
     "binding Cfg.relu ({path}) domain x: got 'positive'; expected bounds such as \"> 0\" or "
     "\">= 0, < 1\""),
])
def test_malformed_configuration_entries(tmp_path, entry, message):
    project = make_project(tmp_path / "p", entry + "\n", package="cfgbad")
    with pytest.raises(ConfigError) as caught:
        read_config(project)
    assert str(caught.value) == message.format(path=project / "pyproject.toml")


def test_binding_error_is_not_a_refusal(tmp_path):
    """A shape error must stop the statement (error row), never mark draws out of domain."""
    project = make_project(tmp_path / "p", '"Cfg.scale" = "PKG.ops:scale_flat"\n',
                           package="cfgerr10")
    binding = registry_of(project).bindings["Cfg.scale"]
    with pytest.raises(BindingError):
        _runtime_call(binding, 2, (np.array([2.0, 3.0]), np.ones((2, 3))))


def test_the_bundled_project_binds_through_its_own_configuration():
    """The repository root is a Lake project configured like any other: every Op Spec with
    a Lean definition is bound there, and its catalog lists the Lean-less one as UNKNOWN."""
    from mirror.bundled.impl.ops import OP_SPECS
    from mirror.bind.registry import catalog_rows
    from mirror.product.report import build_report

    root = Path(__file__).resolve().parents[2]
    config = read_config(root)
    assert config.path == root / "pyproject.toml"
    bound = {spec.lean_name for spec in config.bindings}
    assert {s.lean_name for s in OP_SPECS.values() if s.lean_defined} <= bound
    catalog = catalog_rows(config)
    assert catalog["title"] == "Op Specs"
    assert [r["op"] for r in catalog["rows"]] == list(OP_SPECS)
    report = build_report(({"catalog": catalog}, [], []))
    assert report["op_specs_title"] == "Op Specs"
    rows = {r["op"]: r for r in report["op_specs"]}
    assert rows["slidingDecodeGQA"]["lean"] == "UNKNOWN"
    assert rows["sigmoid"]["kernel"] == "mirror.bundled.impl.ops.scalar:sigmoid"


def test_a_function_that_raises_is_the_rows_error_naming_the_binding(tmp_path):
    ops = OPS + "\n\ndef broken(x):\n    raise TypeError('cannot handle\\n this')\n"
    project = make_project(tmp_path / "p", '"Cfg.relu" = "PKG.ops:broken"\n',
                           package="cfgerr11", ops=ops)
    rows = {r.name: r for r in run(project, method="scanner", settings=SMALL).results}
    path = project / "pyproject.toml"
    assert rows["Cfg.relu.conformance"].mirror_status == "error"
    assert rows["Cfg.relu.conformance"].reason == (
        f"binding Cfg.relu ({path}): cfgerr11.ops:broken raised TypeError: cannot handle this; "
        "fix the function, or refuse inputs outside its domain with ValueError")


def test_error_result_of_the_wrong_shape_exact_message(tmp_path):
    """Per example and per batch: the exact one-line message, shape included."""
    ops = OPS + "\n\ndef flat_batch(x):\n    return x.reshape(-1)\n"
    project = make_project(tmp_path / "p", """\
        "Cfg.scale" = "PKG.ops:scale_flat"
        "Cfg.logsumexp" = { impl = "PKG.ops:flat_batch", dims = ["n"], vectorized = true }
        """, package="cfgerr12", ops=ops)
    registry = registry_of(project)
    path = project / "pyproject.toml"
    cases = [
        ("Cfg.scale", (np.array([2.0, 3.0]), np.ones((2, 3))),
         f"binding Cfg.scale ({path}): cfgerr12.ops:scale_flat returned shape (3, 3) for one "
         "example, expected 1 axes (cfgerr12.ops:scale_flat(c: float, v: float64[n]) → 1-axis "
         "value for Lean's (Fin n → Real)); fix the function's result, or its "
         "index/dims/vectorized settings"),
        ("Cfg.logsumexp", (np.array([3, 3]), np.ones((2, 3))),
         f"binding Cfg.logsumexp ({path}): cfgerr12.ops:flat_batch returned shape (6,) for a "
         "batch of 2, expected 1 axes, the first the batch's 2 draws (cfgerr12.ops:flat_batch("
         "x: float64[B, n]) → 0-axis value for Lean's Real (vectorized: one call per batch)); "
         "fix the function's result, or its index/dims/vectorized settings"),
    ]
    for name, args, message in cases:
        with pytest.raises(BindingError) as caught:
            _runtime_call(registry.bindings[name], 2, args)
        assert str(caught.value) == message


def test_error_of_a_decorated_function_names_its_module(tmp_path):
    ops = "from mirror.bind.registry import binds\n\n\n@binds(\"Cfg.relu\")\n" \
          "def relu(x, y):\n    return max(x, 0.0)\n"
    project = make_project(tmp_path / "p", "", package="cfgerr15", ops=ops,
                           extra='modules = ["cfgerr15.ops"]\n')
    assert registry_of(project).errors["Cfg.relu"] == (
        "binding Cfg.relu (@binds in cfgerr15.ops): cfgerr15.ops:relu takes 2 positional "
        "argument(s), but Cfg.relu passes 1 (x); fix the function's parameters, or name size "
        "arguments in dims and output selectors in index")


def test_error_bound_twice_by_configuration_and_decorator(tmp_path):
    ops = OPS + "\n\nfrom mirror.bind.registry import binds\n\n\n@binds(\"Cfg.relu\")\n" \
                "def relu2(x):\n    return max(x, 0.0)\n"
    project = make_project(tmp_path / "p", '"Cfg.relu" = "PKG.ops:relu"\n', package="cfgerr16",
                           ops=ops, extra='modules = ["cfgerr16.ops"]\n')
    path = project / "pyproject.toml"
    assert registry_of(project).errors["Cfg.relu"] == (
        f"binding Cfg.relu (@binds in cfgerr16.ops): Cfg.relu is also bound in {path}; keep "
        "one of the two bindings")


def test_a_vectorized_function_may_refuse_some_draws_of_a_batch(tmp_path):
    """``RefusedDraws`` marks the refused draws out of domain; the rest keep their values
    from one more call."""
    ops = OPS + textwrap.dedent("""
        from mirror.bind.binding import RefusedDraws

        CALLS = []


        def picky(c, v):
            CALLS.append(len(c))
            if (c < 0).any():
                raise RefusedDraws(c < 0, "c < 0")
            return c[:, None] * v
        """)
    project = make_project(tmp_path / "p", """\
        "Cfg.scale" = { impl = "PKG.ops:picky", vectorized = true }
        """, package="cfgrefuse", ops=ops)
    binding = registry_of(project).bindings["Cfg.scale"]
    rt = NumpyRuntime(4, 8, 1e-9, {})
    c = np.array([1.0, -1.0, 2.0, -3.0])
    out = batched_call(rt, binding, (), (c, np.ones((4, 2))))
    assert rt.invalid.tolist() == [False, True, False, True]
    np.testing.assert_array_equal(out[[0, 2]], [[1.0, 1.0], [2.0, 2.0]])
    assert binding.load().__globals__["CALLS"] == [4, 2]
