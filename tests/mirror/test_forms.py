"""The translator's parts: the table of special forms, the already-translated node, the depth
guard, and the statement-level entry points behaving as before the split."""

from __future__ import annotations

import pytest
import sympy as sp

from bridge import term as T
from mirror.translate import forms
from mirror.translate import vocabulary as V
from mirror.translate.forms import FORMS, form
from mirror.translate.translation import Env, Translator, Untranslatable, Value
from mirror.translate.types import NAT, REAL, fin, fun
from mirror.translate.values import Known, KnownType, RecursiveStep
from tests.mirror.test_translation import conclusion, definition, evaluate


def test_each_special_form_is_one_entry_keyed_by_its_lean_name():
    for name in ("Finset.sum", "Finset.prod", "Exists", "ite", "dite", "Max.max", "max",
                 "Matrix.det", "MeasureTheory.integral", "Membership.mem", "Norm.norm"):
        assert name in FORMS, name
    # aliases share one function; nothing is found by mangling a method name any more
    assert FORMS["max"] is FORMS["Max.max"]
    assert not [n for n in dir(Translator) if n.startswith("_special_")]


def test_a_second_form_for_a_constant_is_refused():
    with pytest.raises(ValueError, match="Finset.sum"):
        form("Finset.sum")(lambda tr, args, env, expected: Value(sp.Integer(0), NAT))


def test_a_new_constant_is_one_table_entry():
    """``Test.twice x = 2 * x`` registered as a form is used by the translator, with the
    elaborator's typing (an ℕ argument stays ℕ)."""

    @form("Test.twice")
    def _twice(tr, args, env, expected):
        ty = tr.tree_type([args[0]], env, expected)
        value = tr.arith(args[0], env, ty)
        return Value(2 * value.expr, ty)

    try:
        assert evaluate("Test.twice n = n + n", "n : ℕ", {"n": 7})
        assert not evaluate("Test.twice x = x", "x : ℝ", {"x": 1.5})
    finally:
        del FORMS["Test.twice"]
    with pytest.raises(Untranslatable, match="Test.twice"):
        conclusion("Test.twice x = x", "x : ℝ")


def test_an_already_translated_term_elaborates_to_itself():
    tr = Translator({})
    i = sp.Dummy("i", integer=True, nonnegative=True)
    assert tr.elab(Known(i, NAT), Env(), None) == Value(i, NAT)
    # an ℕ index met where a Fin n is expected takes that type
    assert tr.elab(Known(i, NAT), Env(), fin(sp.Integer(3))).ty == fin(sp.Integer(3))
    # untyped: the symbol's assumptions decide
    assert tr.elab(Known(sp.Dummy("x", real=True)), Env(), None).ty == REAL
    assert tr.type_of(KnownType(fun(NAT, REAL)), Env()) == fun(NAT, REAL)
    with pytest.raises(Untranslatable, match="type used as a value"):
        tr.elab(KnownType(REAL), Env(), None)
    # they are ordinary immutable terms: structural equality, no hidden state
    assert Known(i, NAT) == Known(i, NAT) and hash(Known(i, NAT)) == hash(Known(i, NAT))
    assert not isinstance(Known(i), T.Hole)


def test_the_recursive_step_is_inherited_by_child_environments_only():
    step = RecursiveStep("f", Value(sp.Symbol("p"), NAT), ("x",), 0)
    env = Env(x=Value(sp.Symbol("x"), NAT))
    env.recursion = step
    assert Env(env).recursion is step and env.extend(y=1).recursion is step
    assert Env().recursion is None and "recursion" not in env


def test_the_depth_guards_leave_their_counters_at_zero():
    """Definitions unfolded inside each other past the limit make a statement untranslatable;
    the guards' counters are back at 0 afterwards (the old one ended negative and let the
    next statement nest deeper)."""
    from mirror.translate.unfolding import MAX_UNFOLDING
    from tests.mirror.test_translation import theorem

    chain = [definition("d0", "x : ℝ", "ℝ", "x + 1")]
    for i in range(1, MAX_UNFOLDING + 5):
        chain.append(definition(f"d{i}", "x : ℝ", "ℝ", f"d{i - 1} x + 1"))
    tr = Translator({d.name: d for d in chain})
    deepest = chain[-1].name
    for _ in range(2):
        with pytest.raises(Untranslatable, match="deeply nested"):
            tr.translate_statement(theorem(f"{deepest} x = 0", "x : ℝ"))
        assert tr._depth == 0 and tr._unfolding == 0 and not tr._too_deep
    shallow = tr.translate_statement(theorem("d3 x = x + 4", "x : ℝ"))
    assert shallow.conclusion is sp.true


def test_forms_use_the_elaborators_public_methods_only():
    source = open(forms.__file__, encoding="utf-8").read()
    assert "tr._" not in source


def test_coercion_between_carriers_is_checked_once():
    # ℝ into ℕ is no coercion; ℕ into ℝ is
    with pytest.raises(Untranslatable, match="coercion from ℝ to ℕ|coercion from Real"):
        Translator({}).coerce(Value(sp.Symbol("x", real=True), REAL), NAT)
    assert conclusion("((n : ℕ) : ℝ) = n", "n : ℕ") is sp.true
    assert conclusion("x / 0 = 0", "x : ℝ") is sp.true
    assert V.NatSub in {type(a) for a in sp.preorder_traversal(conclusion("i - j = 0", "i j : ℕ"))}
