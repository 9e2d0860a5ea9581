"""Records: `Prod`, type synonyms and structures split into scalar fields (issue 12).

The verdicts on the fixture are in `test_instances.py`; here the scanner's structure fields
and the rewriting of :mod:`mirror.translate.records` are checked term by term.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge import term as T
from bridge.declaration import Declaration
from bridge.extraction import extract
from bridge.parser import parse_term
from mirror.translate.records import Records

CLASSES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "projects" / "classes"


@pytest.fixture(scope="module")
def declarations():
    return extract(CLASSES, method="scanner").by_name()


def test_the_scanner_reads_a_structures_fields_as_the_constructor_telescope(declarations):
    half = declarations["Classes.Half"].value
    assert [b.name for b in half.binders] == ["x", "y", "hx"]
    assert half.binders[0].type == T.Const("Real")
    assert half.binders[2].type == parse_term("0 ≤ x", locals={"x"})


def test_a_structure_binder_is_split_and_its_invariant_is_a_hypothesis(declarations):
    split = Records(declarations).split(declarations["Classes.half_y_nonneg"])
    assert [(b.name, b.type) for b in split.binders] == [
        ("p_x", T.Const("Real")), ("p_y", T.Const("Real")),
        ("p_hx", parse_term("0 ≤ p_x", locals={"p_x"}))]
    assert split.type == parse_term("0 ≤ p_y", locals={"p_y"})


def _split(declarations, statement: str, binders: str, ty: str) -> Declaration:
    names = set(binders.split())
    decl = Declaration("t", "theorem", "M",
                       tuple(T.Binder(n, parse_term(ty)) for n in binders.split()),
                       parse_term(statement, locals=names))
    return Records(declarations).split(decl)


def test_equality_of_pairs_is_componentwise_and_swap_exchanges(declarations):
    split = _split(declarations, "p.swap = p", "p", "ℝ × ℝ")
    assert [b.name for b in split.binders] == ["p_1", "p_2"]
    assert split.type == parse_term("p_2 = p_1 ∧ p_1 = p_2", locals={"p_1", "p_2"})


def test_nested_pairs_and_anonymous_constructors(declarations):
    split = _split(declarations, "p = ⟨p.1, p.2.1, p.2.2⟩", "p", "ℝ × ℝ × ℝ")
    assert [b.name for b in split.binders] == ["p_1", "p_2_1", "p_2_2"]
    names = {"p_1", "p_2_1", "p_2_2"}
    assert split.type == parse_term("p_1 = p_1 ∧ p_2_1 = p_2_1 ∧ p_2_2 = p_2_2", locals=names)


def test_a_synonym_and_definitions_on_pairs_are_unfolded(declarations):
    split = Records(declarations).split(declarations["Classes.aff_add_comm"])
    assert [b.name for b in split.binders] == ["p_1", "p_2", "q_1", "q_2"]
    assert "Classes.Aff.add" not in T.constants(split.type)
    assert T.free_vars(split.type) == {"p_1", "p_2", "q_1", "q_2"}


def test_a_record_passed_to_an_unknown_function_stays_a_constructor_of_its_fields(declarations):
    split = _split(declarations, "f p = 0", "p", "ℝ × ℝ")
    assert "p" not in {b.name for b in split.binders}
    assert T.Anon((T.Var("p_1"), T.Var("p_2"))) in list(T.walk(split.type))


def test_a_statement_without_records_is_left_alone(declarations):
    decl = declarations["Classes.add_sq'"]
    assert Records(declarations).split(decl) is decl


STRUCTURES = """
structure Box where
  mk' ::
  (lo hi : ℝ)
  width : ℝ := hi - lo
  ordered : lo ≤ hi
  deriving Inhabited

structure Opaque where
  carrier : Type
"""


def test_fields_in_binder_groups_with_defaults_and_a_named_constructor():
    from bridge.scanner import scan_file

    decls, _ = scan_file("Box.lean", "Box", text=STRUCTURES)
    box = {d.name: d for d in decls}["Box"].value
    assert [b.name for b in box.binders] == ["lo", "hi", "width", "ordered"]
    assert box.binders[3].type == parse_term("lo ≤ hi", locals={"lo", "hi"})
    layout = Records({d.name: d for d in decls}).layout(T.Const("Box"))
    assert [f.prop for f in layout.fields] == [False, False, False, True]
