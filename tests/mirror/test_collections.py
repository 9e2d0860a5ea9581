"""Collections in statements (issue 12, point 3): desugared before translation, right verdicts.

The fixture (`tests/fixtures/projects/collections`) states, for `List`, `Multiset`, `Option`,
`Finset` binders, set-builder membership and untyped binders in a statement's prefix, true
statements (some true only through Lean's conventions: empty sums and products, `getD` past the
end, ℕ subtraction, the empty finset) and false ones; its docstrings say why.
"""

from __future__ import annotations

import pytest

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.binder_types import infer_types
from mirror.translate.collections import desugar
from mirror.translate.translation import Untranslatable
from tests.mirror.conftest import PROJECTS, results_by_name

COLLECTIONS = PROJECTS / "collections"

PROVED_OR_TESTED = ("symbolic", "certified", "tested")  # certified: on a bounded box
TRUE = [
    "list_sum_append", "list_prod_nil_or", "list_prod_eq_zero", "list_countP_le",
    "list_filter_length", "list_count_le", "list_length_map", "list_sum_map_double",
    "list_sum_map_pred", "list_sum_cons", "list_literal_prod", "list_nil_sum",
    "list_replicate_sum", "list_getD_past_end", "list_getD_le_sum", "list_getD_append",
    "list_index_le_sum", "list_mem_le_sum", "list_sum_nonneg_of_pos", "list_index_append",
    "list_mem_hyp_le_sum",
    "multiset_card_map", "multiset_card_add", "multiset_sum_map_succ", "multiset_coe_card",
    "multiset_countP_le",
    "option_getD_le", "option_none_getD", "option_some_getD", "option_map_getD", "option_cases",
    "option_isSome_getD", "finset_card_insert_le",
    "finset_card_le_of_subset", "finset_sum_nonneg", "finset_sum_of_card_zero",
    "finset_prod_const", "finset_mem_filter", "finset_card_union_le", "finset_card_le_three",
    "finset_nonempty_card", "finset_fin_card_le", "finset_fin_mem",
    "set_mem_pos", "set_Icc_sq_le", "set_mem_nat",
    "fun_sum_succ", "fun_sub_eq_zero",
]
FALSE = [
    "list_sum_le_length", "list_prod_one_or", "list_prod_pos", "list_countP_lt",
    "list_sum_map_pred_add", "list_length_cons", "list_getD_one_le_sum", "list_getD_append_zero",
    "list_mem_lt_sum", "list_exists_mem", "list_sum_pos_of_pos",
    "multiset_sum_le_card",
    "option_getD_default", "option_map_getD_zero",
    "finset_card_le_two", "finset_sum_le_card_sq", "finset_inter_empty", "finset_card_le_two'",
    "finset_card_pos", "finset_fin_card_lt", "finset_card_insert", "finset_range_subset_card",
    "set_mem_gt_one", "set_Ioo_lt_one",
    "fun_sum_nonneg",
]


@pytest.fixture(scope="module")
def verdicts():
    return results_by_name(COLLECTIONS)


def test_every_theorem_is_listed_and_none_is_an_error(verdicts):
    assert sorted(verdicts) == sorted(TRUE + FALSE)
    assert {n: r.reason for n, r in verdicts.items() if r.mirror_status == "error"} == {}


@pytest.mark.parametrize("name", TRUE)
def test_true_statements_are_tested_or_proved(verdicts, name):
    result = verdicts[name]
    assert result.mirror_status in PROVED_OR_TESTED, (result.mirror_status, result.reason)


@pytest.mark.parametrize("name", FALSE)
def test_false_statements_are_refuted(verdicts, name):
    result = verdicts[name]
    assert result.mirror_status == "refuted", (result.mirror_status, result.reason)


def test_counterexamples_name_the_drawn_length_and_entries(verdicts):
    # [2] sums to 2 > 1: the list is reported as its length and its entries
    found = verdicts["list_sum_le_length"].counterexample
    assert found["l_len"] == len(found["l"]) and sum(found["l"]) > len(found["l"])


@pytest.mark.parametrize("name", ["list_countP_lt", "list_getD_one_le_sum", "list_exists_mem",
                                  "list_sum_pos_of_pos"])
def test_statements_false_only_at_the_empty_list_are_refuted_there(verdicts, name):
    assert verdicts[name].counterexample["l_len"] == 0


def test_the_empty_finset_refutes_a_positive_cardinality(verdicts):
    found = verdicts["finset_card_pos"].counterexample
    assert not any(found["s"][: found["s_bound"]])


def test_none_refutes_a_map_that_forgets_the_default(verdicts):
    assert verdicts["option_map_getD_zero"].counterexample["o_isSome"] is False


# ---- the desugaring itself ------------------------------------------------------------------

NAT = T.Const("Nat")


def _theorem(binders, body) -> Declaration:
    return Declaration("t", "theorem", "M", binders=tuple(binders), type=body)


def _list(name, elem=NAT):
    return T.Binder(name, T.App(T.Const("List"), (elem,)))


def test_a_statement_without_collections_is_returned_unchanged():
    decl = _theorem([T.Binder("x", T.Const("Real"))],
                    T.app("LE.le", T.Lit(0), T.app("HMul.hMul", T.Var("x"), T.Var("x"))))
    assert desugar(decl) is decl


def test_qualified_operations_read_like_field_notation():
    # the exporter writes `List.sum l` and `List.map f l` (function first)
    double = T.Lam((T.Binder("y", None),), T.app("HMul.hMul", T.Var("y"), T.Lit(2)))
    qualified = _theorem([_list("l")], T.app(
        "Eq", T.app("List.sum", T.app("List.map", double, T.Var("l"))), T.Lit(0)))
    dotted = _theorem([_list("l")], T.app(
        "Eq", T.Proj(T.App(T.Proj(T.Var("l"), "map"), (double,)), "sum"), T.Lit(0)))
    assert desugar(qualified).type == desugar(dotted).type
    assert [b.name for b in desugar(qualified).binders] == ["l_len", "l"]


def test_a_generated_name_never_captures_a_user_name():
    decl = _theorem([_list("l"), T.Binder("l_len", NAT)],
                    T.app("LE.le", T.Proj(T.Var("l"), "length"), T.Var("l_len")))
    names = [b.name for b in desugar(decl).binders]
    assert len(names) == len(set(names)) and "l_len" in names and "l_len1" in names


@pytest.mark.parametrize(
    "binders, body, construct",
    [
        ([_list("l")], T.app("Eq", T.Proj(T.Var("l"), "reverse"), T.Var("l")), "reverse"),
        ([_list("l", T.App(T.Const("List"), (NAT,)))], T.Const("True"), "nested"),
        ([T.Binder("s", T.App(T.Const("Finset"), (T.Const("Int"),)))], T.Const("True"),
         "Finset binder s over ℤ"),
        ([T.Binder("n", NAT)],  # (∀ m : List ℕ, True) → True: a list under a hypothesis
         T.Pi((T.Binder("_", T.Pi((_list("m"),), T.Const("True"))),), T.Const("True")),
         "inside"),
        ([_list("l")], T.app("Eq", T.App(T.Const("foo"), (T.Var("l"),)), T.Lit(0)),
         "the List l used as a value"),
    ],
)
def test_unsupported_uses_are_untranslatable_naming_the_construct(binders, body, construct):
    with pytest.raises(Untranslatable) as info:
        desugar(_theorem(binders, body))
    assert construct in str(info.value)


def test_an_untyped_binder_takes_the_type_its_uses_force():
    f = T.Binder("f", T.Pi((T.Binder("_", NAT),), T.Const("Real")))
    n = T.Binder("n", None)
    body = T.app("LE.le", T.Lit(0), T.App(T.Var("f"), (T.Var("n"),)))
    assert infer_types([f, n], body)[1].type == NAT


def test_conflicting_evidence_leaves_a_binder_untyped():
    f = T.Binder("f", T.Pi((T.Binder("_", NAT),), T.Const("Real")))
    n = T.Binder("n", None)
    body = T.app("Eq", T.App(T.Var("f"), (T.Var("n"),)), T.Typed(T.Var("n"), T.Const("Real")))
    assert infer_types([f, n], body)[1].type is None


@pytest.mark.parametrize(
    "body, expected",
    [
        # `m ! ≤ n !`: arguments of a function of naturals
        (T.app("LE.le", T.app("Nat.factorial", T.Var("x")), T.Lit(1)), "Nat"),
        # `x < π` and `x * y ≤ 1` with `y : ℝ`: one type for a relation's leaves
        (T.app("LT.lt", T.Var("x"), T.Const("Real.pi")), "Real"),
        (T.app("LE.le", T.app("HMul.hMul", T.Var("x"), T.Var("y")), T.Lit(1)), "Real"),
        # `(x : ℝ)`: an ascription
        (T.app("LE.le", T.Lit(0), T.Typed(T.Var("x"), T.Const("Real"))), "Real"),
        # `x ^ 2 = 4` says nothing about x's type here (a literal is not evidence)
        (T.app("Eq", T.app("HPow.hPow", T.Var("x"), T.Lit(2)), T.Lit(4)), None),
    ],
)
def test_evidence_for_an_untyped_binder(body, expected):
    binders = infer_types([T.Binder("y", T.Const("Real")), T.Binder("x", None)], body)
    found = binders[1].type
    assert (found.name if found is not None else None) == expected
