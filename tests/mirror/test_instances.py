"""Type parameters instantiated at carriers, and records drawn field by field (issue 12).

The fixture (`tests/fixtures/projects/classes`) holds statements over `{R : Type*}` with
class constraints and over `Prod`/structures; its docstrings say why each verdict is right.
The table and the two stages (:mod:`mirror.translate.instances`, :mod:`mirror.translate.records`) are also
checked directly.
"""

from __future__ import annotations

import pytest

from bridge import term as T
from bridge.declaration import Declaration
from bridge.parser import parse_term
from mirror.translate.instances import (NoCarrier, default_table, instantiate, read_table,
                              with_value_hypotheses)
from mirror.judge.result import StatementResult, combine
from tests.mirror.conftest import PROJECTS, results_by_name

# a whole project per module (~50 s): in the slow job, so the default run stays under 10 min
pytestmark = pytest.mark.slow

CLASSES = PROJECTS / "classes"
TRUE = ("symbolic", "certified", "tested")
REAL_FIELDS = ["K := ℝ", "K := ℚ"]
RINGS = ["R := ℝ", "R := ℚ", "R := ℤ"]
#: commutative rings: also ZMod 6 (zero divisors, torsion)
COMM_RINGS = RINGS + ["R := ZMod 6"]
MATRICES = ["R := Matrix (Fin 2) (Fin 2) ℝ", "R := Matrix (Fin 3) (Fin 3) ℝ"]


@pytest.fixture(scope="module")
def rows():
    return results_by_name(CLASSES)


@pytest.mark.parametrize(
    "name, expected, carriers",
    [
        ("add_sq'", TRUE, COMM_RINGS),
        ("ring_mul_comm", ("refuted",), RINGS + MATRICES + ["R := ZMod 6"]),
        ("add_zero_ascribed", TRUE, RINGS + MATRICES + ["R := ZMod 6"]),
        ("mul_self_nonneg'", TRUE, REAL_FIELDS),
        ("sq_nonneg'", TRUE, REAL_FIELDS),
        ("div_mul_cancel'", TRUE, REAL_FIELDS),
        ("div_mul_cancel_all", ("refuted",), REAL_FIELDS),
        ("euclid_div_mul", ("refuted",), RINGS),
        ("cast_mul_comm", TRUE, COMM_RINGS),
        ("add_sub_cancel''", TRUE, [c.replace("R :=", "G :=") for c in RINGS + MATRICES]
         + ["G := ZMod 6"]),
        ("add_self_eq_zero", ("refuted",), [c.replace("R :=", "G :=") for c in RINGS + MATRICES]
         + ["G := ZMod 6"]),
        ("sum_nonneg'", TRUE, ["α := ZMod 6", "α := Fin n"]),
        ("le_max_left'", TRUE, ["α := ℝ", "α := ℚ", "α := ℤ", "α := ℕ", "α := Fin n"]),
        ("two_le_of_fact", TRUE, []),
        ("prod_mul_comm", TRUE, COMM_RINGS),
        ("prod_swap_fst", TRUE, []),
        ("prod_eta'", TRUE, []),
        ("prod_swap_eq", ("refuted",), []),
        ("anon_fst", TRUE, []),
        ("triple_comm", TRUE, []),
        ("aff_norm_nonneg", TRUE, []),
        ("aff_add_comm", TRUE, []),
        ("point_sum_nonneg", ("refuted",), []),
        ("point_mk_y", TRUE, []),
        ("half_x_nonneg", TRUE, []),
        ("half_y_nonneg", ("refuted",), []),
        ("two_min_le", TRUE, ["α := ℝ", "α := ℚ", "α := ℤ", "α := ℕ", "α := Fin n"]),
        ("two_int_le", ("refuted",), []),
        ("sigma_snd_lt", TRUE, []),
        ("sigma_snd_lt_pred", ("refuted",), []),
        ("sigma_vec", TRUE, []),
    ],
)
def test_each_statement_gets_the_right_verdict_at_the_right_carriers(rows, name, expected,
                                                                      carriers):
    row = rows[name]
    assert row.mirror_status in expected, (row.mirror_status, row.reason, row.method)
    assert row.carriers == carriers


@pytest.mark.parametrize("name, carrier", [
    ("ring_mul_comm", "R := Matrix (Fin 2) (Fin 2) ℝ"),
    ("euclid_div_mul", "R := ℤ"),
    ("add_self_eq_zero", "G := ZMod 6"),
])
def test_a_statement_false_at_one_carrier_is_refuted_there(rows, name, carrier):
    row = rows[name]
    assert row.reason.startswith(f"at {carrier}: counterexample")
    assert f"[{carrier}]" in row.replay
    others = [c for c in row.carriers if c != carrier and "Matrix" not in c]
    assert all(f"{c}: refuted" not in row.method for c in others)


def test_the_matrix_counterexample_does_not_commute(rows):
    a, b = (rows["ring_mul_comm"].counterexample[k] for k in ("a", "b"))
    ab = [[sum(a[i][k] * b[k][j] for k in range(2)) for j in range(2)] for i in range(2)]
    ba = [[sum(b[i][k] * a[k][j] for k in range(2)) for j in range(2)] for i in range(2)]
    assert ab != ba


def test_a_class_without_carrier_is_untranslatable_naming_it(rows):
    for name, cls in (("measure_refl", "MeasureSpace"), ("topological_refl", "TopologicalSpace")):
        row = rows[name]
        assert row.mirror_status == "untranslatable"
        assert f"with class {cls}" in row.reason


def test_a_structure_counterexample_is_drawn_field_by_field(rows):
    assert set(rows["point_sum_nonneg"].counterexample) == {"p_x", "p_y"}
    example = rows["half_y_nonneg"].counterexample
    assert example["p_x"] >= 0 and example["p_y"] < 0


def test_no_statement_is_an_error(rows):
    assert {n: r.reason for n, r in rows.items() if r.mirror_status == "error"} == {}


# ---- the table -------------------------------------------------------------------------------


def _keys(classes):
    return [c.key for c in default_table().admissible(classes)]


def test_implied_classes_count_and_both_spellings_of_an_ordered_field_agree():
    assert _keys(["Field"]) == ["real", "rat"]
    assert _keys(["Field", "CommRing"]) == _keys(["Field"])
    assert _keys(["LinearOrderedField"]) == _keys(["Field", "LinearOrder", "IsStrictOrderedRing"])
    assert _keys(["CommRing"]) == ["real", "rat", "int", "zmod"]
    assert _keys(["Ring"]) == ["real", "rat", "int", "matrix2", "matrix3", "zmod"]
    assert _keys(["CommRing", "IsDomain"]) == ["real", "rat", "int"]  # ZMod 6 has zero divisors
    assert "zmod" in _keys(["AddCommGroup"]) and "int" in _keys(["AddCommGroup"])
    assert _keys(["Fintype", "DecidableEq"]) == ["zmod", "fin", "bool"]
    assert _keys(["MeasureSpace"]) == []


def test_a_malformed_table_is_rejected_with_the_place():
    with pytest.raises(ValueError, match="max_instances"):
        read_table("max_instances = 0\n")
    with pytest.raises(ValueError, match=r"\[carriers.x\]"):
        read_table("[carriers.x]\nlean = 'X'\n")


# ---- instantiation ---------------------------------------------------------------------------


def _decl(binders: list[T.Binder], statement: str) -> Declaration:
    names = {b.name for b in binders}
    return Declaration("t", "theorem", "M", tuple(binders), parse_term(statement, locals=names))


def _binder(name, ty, info="default", locals_=()):
    return T.Binder(name, parse_term(ty, locals=set(locals_)), info)


R_TYPE = T.Binder("R", T.Sort("u+1"), "implicit")


def test_the_type_variable_is_substituted_everywhere():
    decl = _decl([R_TYPE, _binder("_", "CommRing R", "instImplicit", ["R"]),
                  _binder("n", "ℕ"), _binder("a", "R", locals_=["R"])],
                 "((n : ℕ) : R) * a = a * (n : R) + (0 : R)")
    instances = instantiate(decl)
    assert [i.label for i in instances] == COMM_RINGS
    for instance in instances:
        inst = instance.declaration
        assert [b.name for b in inst.binders] == ["n", "a"]
        assert "R" not in T.free_vars(inst.statement)
        carrier = inst.binders[1].type
        typed = [node.type for node in T.walk(inst.type) if isinstance(node, T.Typed)]
        assert typed and all(t in (carrier, T.Const("Nat")) for t in typed)


def test_fin_gets_a_drawn_size_and_the_hypothesis_its_class_needs():
    decl = _decl([T.Binder("α", T.Sort("u+1"), "implicit"),
                  _binder("_", "Fintype α", "instImplicit", ["α"]),
                  _binder("_", "Nonempty α", "instImplicit", ["α"]),
                  _binder("f", "α → ℝ", locals_=["α"])], "f = f")
    fin = next(i for i in instantiate(decl) if i.label == "α := Fin n").declaration
    size, hyp = fin.binders[0], fin.binders[1]
    assert size.name == "α_card" and size.info == "implicit"
    assert hyp.type == T.app("LT.lt", T.Lit(0), T.Var("α_card"))


def test_a_class_on_a_type_and_a_value_instance():
    decl = _decl([R_TYPE, _binder("_", "Module ℝ R", "instImplicit", ["R"]),
                  _binder("a", "R", locals_=["R"])], "a = a")
    with pytest.raises(NoCarrier, match="Module"):
        instantiate(decl)
    fact = _decl([_binder("p", "ℕ"), _binder("_", "Fact (1 < p)", "instImplicit", ["p"])],
                 "2 ≤ p")
    assert with_value_hypotheses(fact).binders[1].type == parse_term("1 < p", locals={"p"})
    assert instantiate(fact) == []


def _row(status, method=None):
    return StatementResult("t", "M", "theorem", "stated", status, examples=1, method=method,
                           reason=f"{status} reason")


def test_verdicts_combine_soundly():
    base = _row(None)
    assert combine([("a", _row("symbolic")), ("b", _row("symbolic"))], base).mirror_status \
        == "symbolic"
    assert combine([("a", _row("symbolic")), ("b", _row("tested"))], base).mirror_status \
        == "tested"
    refuted = combine([("a", _row("tested")), ("b", _row("refuted")),
                       ("c", _row("error"))], base)
    assert refuted.mirror_status == "refuted" and refuted.reason == "at b: refuted reason"
    weakest = combine([("a", _row("tested")), ("b", _row("inconclusive")),
                       ("c", _row("error"))], base)
    assert weakest.mirror_status == "error" and weakest.carriers == ["a", "b", "c"]
    assert combine([("a", _row("tested")), ("b", _row("inconclusive"))], base).mirror_status \
        == "inconclusive"
    # Mathlib's `nonpos_of_mul_nonneg_left` (round 22's first look): tested at ℝ, ℚ, ℤ and
    # vacuous at ℕ (`b < 0` never holds there) is tested, not vacuous
    mixed = combine([("ℝ", _row("tested")), ("ℕ", _row("vacuous"))], base)
    assert mixed.mirror_status == "tested" and "ℕ: vacuous" in mixed.method
    assert combine([("ℝ", _row("vacuous")), ("ℕ", _row("vacuous"))], base).mirror_status \
        == "vacuous"
    assert combine([("ℝ", _row("inconclusive")), ("ℕ", _row("vacuous"))], base).mirror_status \
        == "inconclusive"


def test_the_report_names_the_carriers(rows, tmp_path):
    from mirror.product.report import write_report

    meta = {"project": str(CLASSES), "method": "scanner"}
    paths = write_report(tmp_path, (meta, list(rows.values()), []), ("md", "html"))
    expected = "R := ℝ; R := ℚ; R := ℤ; R := Matrix (Fin 2) (Fin 2) ℝ"
    assert f"carriers {expected}" in paths["md"].read_text(encoding="utf-8")
    assert f'<dd class="carriers">{expected}' in paths["html"].read_text(encoding="utf-8")


def test_an_unused_type_parameter_is_dropped_with_its_classes_and_variables():
    alpha = T.Binder("α", T.Sort("u+1"), "implicit")
    decl = _decl([alpha, _binder("_", "TopologicalSpace α", "instImplicit", ["α"]),
                  _binder("x", "α", "implicit", ["α"]), _binder("a", "ℝ"),
                  _binder("h", "0 ≤ a", locals_=["a"])], "a = a")
    [instance] = instantiate(decl)
    assert instance.carriers == ()
    assert [b.name for b in instance.declaration.binders] == ["a", "h"]


def test_a_type_parameter_declared_twice_is_one_parameter():
    decl = _decl([R_TYPE, R_TYPE, _binder("_", "CommRing R", "instImplicit", ["R"]),
                  _binder("a", "R", locals_=["R"])], "a = a")
    assert [i.label for i in instantiate(decl)] == COMM_RINGS


def test_a_power_in_zmod_is_reduced_modulo_n():
    """`(a + b) ^ 2` on `ZMod 6` once stayed unreduced, refuting a true ring identity there."""
    from mirror.translate import vocabulary as V
    from mirror.translate.translation import Translator

    decl = _decl([_binder("a", "ZMod 5")], "a ^ 2 = a")
    lhs = Translator({}).translate_statement(decl).conclusion.lhs
    assert isinstance(lhs, V.FinWrap) and lhs.args[1] == 5


def _scanned(src: str) -> Declaration:
    from bridge.scanner import scan_file
    decls, _ = scan_file("U.lean", "U", text=src)
    return decls[0]


def test_a_section_class_keeps_a_carrier_without_it_out():
    # Mathlib's `div_pos`, as written: refuted at ℤ (not a group with zero) before the fix
    decl = _scanned(
        "variable {G₀ : Type*} [GroupWithZero G₀] [PartialOrder G₀] [ZeroLEOneClass G₀]\n"
        "  [PosMulReflectLT G₀] {a b c : G₀}\n"
        "lemma div_pos [PosMulStrictMono G₀] (ha : 0 < a) (hb : 0 < b) : 0 < a / b := by\n"
        "  rw [div_eq_mul_inv]; exact mul_pos ha (inv_pos.2 hb)\n")
    assert [i.label for i in instantiate(decl)] == ["G₀ := ℝ", "G₀ := ℚ"]


def test_a_floor_lemma_is_never_instantiated_at_a_matrix_and_keeps_at_least_two():
    # Mathlib's `Int.floor_add_ofNat`: once instantiated at every carrier (its section classes
    # were dropped), a TypeError at Matrix (Fin 2) (Fin 2) ℝ
    decl = _scanned(
        "variable {α : Type*} [LinearOrderedRing α] [FloorRing α]\n"
        "theorem floor_add_ofNat (a : α) (n : ℕ) [n.AtLeastTwo] :\n"
        "    ⌊a + (no_index (OfNat.ofNat n))⌋ = ⌊a⌋ + OfNat.ofNat n :=\n"
        "  floor_add_natCast a n\n")
    instances = instantiate(decl)
    assert [i.label for i in instances] == ["α := ℝ", "α := ℚ", "α := ℤ"]
    hyp = instances[0].declaration.binders[-1]
    assert hyp.info == "default" and hyp.type == parse_term("2 ≤ n", locals={"n"})
    assert _keys(["FloorSemiring"]) == ["real", "rat", "int", "nat"]
