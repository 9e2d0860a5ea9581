"""The helpers generated mirrors call, the names they use and the layout of their lines.

``mirror.evaluate.generated`` rebuilds a statement's sampling plan from short helper calls;
``mirror.product.mirror_source`` writes those calls and checks that they rebuild the plan
exactly; ``mirror.translate.identifiers`` makes every generated name injective;
``mirror.translate.layout`` breaks a long line at its calls without changing its syntax tree.
"""

from __future__ import annotations

import ast
import difflib
import itertools
import random

import pytest

from mirror.evaluate import generated as G
from mirror.product.mirror_source import binder, decorator_lines
from mirror.sample.plan import plan_statement
from mirror.translate.identifiers import (binder_identifiers, injective_names,
                                          module_file_stems, property_identifiers, readable)
from mirror.translate.layout import WIDTH, wrap_assignment
from mirror.translate.translation import Translator
from tests.mirror.test_translation import theorem

SETTINGS = {"nat_max": 6, "int_max": 8, "dim_min": 1, "dim_max": 4, "nat_domain": 16,
            "real_bound": 5.0}


# ---- identifiers --------------------------------------------------------------------------


def test_binder_names_are_injective_whatever_the_order():
    names = ["x'", "x_p", "α", "alpha", "add_le₁", "add_le_1", "a.b", "a__b", "a_.b", "x"]
    first = binder_identifiers(names)
    assert len(set(first.values())) == len(names)
    for shuffled in itertools.islice(itertools.permutations(names), 0, 200, 37):
        assert binder_identifiers(shuffled) == first
    # faithful names keep their spelling; the others carry a digest of the Lean name
    assert first["x_p"] == "v_x_p" and first["alpha"] == "v_alpha" and first["x"] == "v_x"
    assert first["x'"].startswith("v_x_p_") and first["α"].startswith("v_alpha_")
    assert first["a.b"] == "v_a__b" and first["a__b"].startswith("v_a__b_")


def test_a_lone_name_keeps_its_readable_spelling():
    assert binder_identifiers(["α", "x'"]) == {"α": "v_alpha", "x'": "v_x_p"}
    assert property_identifiers(["Mirror.Ops.relu_le"]) == {
        "Mirror.Ops.relu_le": "prop_Mirror__Ops__relu_le"}


def test_adversarial_names_never_collide():
    rng = random.Random(5)
    alphabet = ["a", "b", "_", "'", "₁", "1", ".", "α"]
    names = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4))) for _ in range(400)}
    for spell in (binder_identifiers, property_identifiers):
        out = spell(names)
        assert len(set(out.values())) == len(names)
        assert all(ident.isidentifier() for ident in out.values())
    # a faithful name written to equal another's suffixed spelling is still kept apart
    suffixed = binder_identifiers(["t'", "t_p"])["t'"].removeprefix("v_")
    trap = binder_identifiers(["t'", "t_p", suffixed])
    assert len(set(trap.values())) == 3 and trap[suffixed] == "v_" + suffixed


def test_module_files_are_injective_ignoring_case_and_never_bare():
    stems = module_file_stems(["P.Foo", "P.foo", "P_Foo", "Test.P.Foo", "Json", "Mirror"])
    assert len({s.casefold() for s in stems.values()}) == 6
    assert stems["Json"] == "leanmirror_json" and stems["Mirror"] == "leanmirror_mirror"
    assert stems["Test.P.Foo"] == "leanmirror_test_p_foo"
    assert all(s.startswith("leanmirror_p_foo_") for k, s in stems.items()
               if k in ("P.Foo", "P.foo", "P_Foo"))


def test_reserved_names_are_never_given_out():
    out = injective_names(["rt", "x"], readable, reserved=["rt"])
    assert out["x"] == "x" and out["rt"] != "rt" and out["rt"].startswith("rt_")


# ---- binder helpers ---------------------------------------------------------------------------


def test_binder_helpers_build_plan_entries():
    assert G.dim("T") == {"name": "T", "kind": "nat", "dimension": True, "lo": [], "hi": []}
    assert G.nat("C", lo=[G.at_least(1.0)]) == {
        "name": "C", "kind": "nat", "dimension": False,
        "lo": [{"const": 1.0, "strict": False}], "hi": []}
    assert G.fin("i", "T")["size"] == {"var": "T"}
    assert G.fin("i", 3)["size"] == {"const": 3}
    assert G.real("x", hi=[G.below("y", -1)])["hi"] == [{"var": "y", "offset": -1, "strict": True}]
    entry = G.array("q", "real", G.NAT, "d", G.op("add", "d", 1), elem_lo=G.at_least(0))
    assert entry["shape"] == [{"nat_domain": True}, {"var": "d"},
                              {"expr": {"op": "add", "args": [{"var": "d"}, {"const": 1}]}}]
    assert entry["elem"] == "real" and entry["elem_lo"] == {"const": 0, "strict": False}
    assert entry["elem_hi"] is None
    assert G.nat("c", hi=[G.at_most(G.op("pos_floordiv", "T", "C"))])["hi"] == [
        {"expr": {"op": "pos_floordiv", "args": [{"var": "T"}, {"var": "C"}]}, "strict": False}]
    with pytest.raises(G.GeneratedMirrorError, match="bound"):
        G.at_least(True)


def test_the_decorator_names_parameters_and_checks_the_signature():
    primed = binder_identifiers(["x'", "x_p"])["x'"]
    assert primed.startswith("v_x_p_")
    namespace: dict = {"G": G, "SETTINGS": SETTINGS}
    exec('@G.mirror("P.t", settings=SETTINGS, bound=["P.f"], binders=[G.real("x\'"), '
         f'G.real("x_p")])\ndef prop_t(rt, *, v_x_p, {primed}):\n    return None\n', namespace)
    prop_t = namespace["prop_t"]
    assert [v["param"] for v in prop_t.plan["variables"]] == [primed, "v_x_p"]
    assert prop_t.lean_name == "P.t" and prop_t.bound_to == ["P.f"]
    assert prop_t.__doc__ == "Lean: P.t"
    with pytest.raises(G.GeneratedMirrorError, match="regenerate"):
        @G.mirror("P.u", settings=SETTINGS, binders=[G.real("x")])
        def prop_u(rt, *, v_y):  # noqa: ARG001
            return None


def test_properties_lists_a_modules_own_properties_in_order():
    import types

    module = types.ModuleType("leanmirror_probe")
    exec(compile(
        "from mirror.evaluate.generated import mirror, real\n"
        "S = {}\n"
        "@mirror('P.b', settings=S, binders=[real('x')])\n"
        "def prop_b(rt, *, v_x):\n    return None\n"
        "@mirror('P.a', settings=S, binders=[])\n"
        "def prop_a(rt):\n    return None\n", "<probe>", "exec"), module.__dict__)
    assert [p.lean_name for p in G.properties(module)] == ["P.b", "P.a"]


# ---- writing plans back -------------------------------------------------------------------------


def _exec_decorator(lines: list[str], params: list[str]):
    namespace: dict = {"SETTINGS": SETTINGS}
    exec("from mirror.evaluate.generated import *\n"
         "from mirror.evaluate.generated import NAT, integer, variable\n", namespace)
    signature = ", ".join(["rt", "*", *params]) if params else "rt"
    exec("\n".join(lines) + f"\ndef prop({signature}):\n    return None\n", namespace)
    return namespace["prop"]


@pytest.mark.parametrize("statement, binders", [
    ("(h : 0 < x) → (h2 : x < y) → x < y", "x y : ℝ"),
    ("(h : j ≤ i) → (h2 : i < n) → j < n", "n i j : ℕ"),
    ("(h : a = -1 ∨ a = 0 ∨ a = 1) → a * a * a = a", "a : ℤ"),
    ("(h : ∀ t, θ t = 0) → θ 3 = 0", "θ : ℕ → ℝ"),
    ("(h : ∀ i j, i ≤ j → A i j = 0) → A 0 0 = 0", "n : ℕ; A : Fin n → Fin n → ℝ"),
    ("(h2 : a ^ b = c) → c = c", "a b c : ℝ"),
    ("x i ≤ x i + 1", "n : ℕ; x : Fin n → ℝ; i : Fin n"),
])
def test_written_decorators_rebuild_the_planners_plans(statement, binders):
    plan = plan_statement(Translator({}).translate_statement(theorem(statement, binders)))
    plan["domains"] = []
    lines = decorator_lines("P.t", plan, [], SETTINGS)
    prop = _exec_decorator(lines, [v["param"] for v in plan["variables"]])
    assert prop.plan == plan


def test_an_entry_the_short_helpers_cannot_say_is_written_in_full():
    entry = {"name": "z", "kind": "complex", "param": "v_z", "dimension": False, "lo": [],
             "hi": [{"weird": 1}], "extra": {"k": [1, 2]}}
    piece = binder(entry, "v_z")
    assert piece.text.startswith("variable('z', 'complex'")
    assert {"param": "v_z", **piece.value} == entry


# ---- layout ---------------------------------------------------------------------------------------


def test_a_long_line_is_broken_at_its_calls_with_the_same_syntax_tree():
    inner = ", ".join(f"rt.index(v_x, b_{k} * v_C + v_{k})" for k in range(12))
    line = f"    conclusion = rt.eq(rt.sum_range(lambda b_j_1: rt.mat_add({inner}), 0, v_n), 0)"
    lines = wrap_assignment(line)
    assert len(lines) > 1 and all(len(part) <= WIDTH for part in lines)
    assert ast.dump(ast.parse("\n".join(p[4:] for p in lines))) == ast.dump(ast.parse(line[4:]))
    assert wrap_assignment("    short = rt.eq(v_x, 1)") == ["    short = rt.eq(v_x, 1)"]


def test_a_one_constant_edit_changes_few_short_lines(tmp_path):
    from bridge.scanner import scan_project
    from mirror.product.generator import render_modules
    from mirror.product.pipeline import build_mirrors

    def mirror_text(constant: int, where) -> str:
        project = where / "project"
        (project / "lean").mkdir(parents=True)
        (project / "lakefile.toml").write_text('name = "p"\nsrcDir = "lean"\n')
        terms = " + ".join(f"Real.exp (x * {k} + y * z + Real.sin (x + {k}))" for k in range(1, 7))
        (project / "lean" / "P.lean").write_text(
            "import Mathlib\n\n"
            f"theorem t (x y z : ℝ) : {terms} ≤ Real.cos (x + y) * {constant} := by sorry\n",
            encoding="utf-8")
        files = render_modules(build_mirrors(scan_project(project)))
        return files["leanmirror_p.py"]

    before = mirror_text(3, tmp_path / "a").split("\n")
    after = mirror_text(4, tmp_path / "b").split("\n")
    changed = [line for line in difflib.unified_diff(before, after, lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    added = [line[1:] for line in changed if line.startswith("+")]
    # the lock hash, the statement hash, the Lean text and one line of code
    assert len(added) <= 5, added
    code = [line for line in added if not line.lstrip().startswith("#")]
    assert code and all(len(line) <= WIDTH for line in code), code


# ---- shared terms -----------------------------------------------------------------------------


def test_a_repeated_term_is_written_once_and_called_with_each_statements_names():
    import math
    import types

    from mirror.product.shared_terms import share_terms

    def term(var: str, bound: str) -> str:
        inner = " + ".join(f"rt.exp(rt.index({var}, {bound}) * {k})" for k in range(1, 9))
        return f"rt.sum_range(lambda {bound}: rt.div({inner}, rt.sqrt_pos(v_n)), 0, v_n)"

    sources = {
        "prop_a": f"def prop_a(rt, *, v_n, v_x):\n    return rt.truth(True), rt.le(0, {term('v_x', 'b_j_1')})",
        "prop_b": f"def prop_b(rt, *, v_n, v_y):\n    h_h = rt.lt(0, v_n)\n"
                  f"    return rt.and_(h_h), rt.eq({term('v_y', 'b_i_4')}, rt.exp(v_n))",
        "prop_c": "def prop_c(rt, *, v_n):\n    return rt.truth(True), rt.eq(v_n, v_n)",
    }
    shared, terms = share_terms(sources)
    assert len(terms) == 1 and terms[0].startswith("# in prop_a, prop_b\ndef term_"), terms
    assert shared["prop_c"] == sources["prop_c"]
    assert "rt.exp(rt.index" not in shared["prop_a"] + shared["prop_b"]
    rt = types.SimpleNamespace(
        truth=lambda b: b, and_=lambda *a: all(a), le=lambda a, b: (a, b), lt=lambda a, b: a < b,
        eq=lambda a, b: (a, b), exp=math.exp, div=lambda a, b: a / b, sqrt_pos=math.sqrt,
        index=lambda xs, i: xs[i], sum_range=lambda f, lo, hi: sum(f(i) for i in range(lo, hi)))
    inputs = {"prop_a": {"v_n": 3, "v_x": [0.1, -0.2, 0.3]},
              "prop_b": {"v_n": 3, "v_y": [0.5, 0.25, -1.0]}, "prop_c": {"v_n": 2}}
    for fn, source in sources.items():
        before: dict = {}
        exec(source, before)
        after: dict = {}
        exec("\n\n".join(terms + [shared[fn]]), after)
        assert after[fn](rt, **inputs[fn]) == before[fn](rt, **inputs[fn])


def test_a_long_arithmetic_term_is_broken_before_its_operators():
    term = " * ".join(f"rt.exp(rt.index(v_x, b_{k}) - {k})" for k in range(8))
    line = f"    return rt.truth(True), rt.le(({term} + 1) ** 2 - (v_a - v_b), 0)"
    lines = wrap_assignment(line)
    assert len(lines) > 2 and all(len(part) <= WIDTH for part in lines)
    assert any(part.lstrip().startswith("* ") for part in lines)
    assert ast.dump(ast.parse("\n".join(p[4:] for p in lines))) == ast.dump(ast.parse(line[4:]))


def test_a_line_nested_deeper_than_ast_recurses_is_kept_as_it_is():
    # a 900-term sum of calls (FormalMATH's omni_theorem_2843 through a project definition):
    # ast.unparse recursed past Python's limit and the row was an error in "print"
    line = "    h_0 = rt.eq(" + " + ".join(f"f(v_n, {k})" for k in range(900)) + ", 24)"
    assert wrap_assignment(line) == [line]
    compile(line.strip(), "<property>", "exec")  # the kept line still compiles
