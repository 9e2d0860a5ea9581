"""The polarity table (mirror.evaluate.polarity) against its meaning.

A value is *known* exactly when it is the same whichever values the undecided parts take:
every connective (¬ ∧ ∨ → ↔ and ``if``) and both quantifiers, over a complete range and over
a truncated prefix of ℕ, are checked against that definition by enumerating every
completion, in the runtime that generated properties call. The static side (the polarity of
each argument, what a truncated ∀/∃ decides in a hypothesis and in a conclusion) is checked
against the same enumeration.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mirror.evaluate import polarity as P
from mirror.evaluate.numpy_runtime import NumpyRuntime
from mirror.evaluate.polarity import SamplingBound, truncated
from mirror.evaluate.runtime import MpRuntime
from mirror.evaluate.truth import Truth

#: A three-valued input: (computed value, known).
VALUES = [(False, True), (True, True), (False, False), (True, False)]


def _completions(value: bool, known: bool) -> list[bool]:
    return [value] if known else [False, True]


def _truth(rt, pairs) -> Truth:
    ok = np.array([v for v, _ in pairs])
    return Truth(ok, ok.copy(), np.zeros(len(pairs)), None, np.array([k for _, k in pairs]))


def _batch_of(arity: int):
    """Every combination of ``arity`` three-valued inputs, one draw each."""
    combos = list(itertools.product(VALUES, repeat=arity))
    return combos, NumpyRuntime(len(combos), 16)


OPERATIONS = {
    "¬": (1, lambda rt, a: rt.not_(a), lambda a: not a),
    "∧": (2, lambda rt, a, b: rt.and_(a, b), lambda a, b: a and b),
    "∨": (2, lambda rt, a, b: rt.or_(a, b), lambda a, b: a or b),
    "→": (2, lambda rt, a, b: rt.implies(a, b), lambda a, b: (not a) or b),
    "↔": (2, lambda rt, a, b: rt.iff(a, b), lambda a, b: a == b),
    "ite": (3, lambda rt, c, a, b: rt.prop_ite(c, lambda: a, lambda: b),
            lambda c, a, b: a if c else b),
}


@pytest.mark.parametrize("connective", sorted(OPERATIONS))
def test_each_connective_is_known_exactly_when_every_completion_agrees(connective):
    arity, run, meaning = OPERATIONS[connective]
    combos, rt = _batch_of(arity)
    parts = [_truth(rt, [combo[i] for combo in combos]) for i in range(arity)]
    result = run(rt, *parts)
    for index, combo in enumerate(combos):
        outcomes = {meaning(*c) for c in itertools.product(*(_completions(*x) for x in combo))}
        agreed = len(outcomes) == 1
        if connective == "ite" and not combo[0][1]:
            # an undecided condition: the branch not taken is never read, so agreeing
            # branches do not decide it (sound, not complete)
            assert not result.known[index], combo
        else:
            assert bool(result.known[index]) == agreed, (connective, combo)
        assert bool(result.ok[index]) == meaning(*(v for v, _ in combo)), (connective, combo)


def test_the_table_names_every_connective_the_runtime_combines():
    assert set(P.TABLE) == {"¬", "∧", "∨", "→", "↔", "ite"}
    assert set(P.POLARITY) == {"¬", "∧", "∨", "→", "↔", "∀", "∃"}


def _quantifier(rt, universal, instances, hi):
    """``∀``/``∃`` over ``[0, hi)`` whose instance ``j`` has the (value, known) ``instances[j]``
    in every draw of the batch."""
    def body(j):
        return _truth(rt, [instances[j]] * rt.batch)
    method = rt.forall_range if universal else rt.exists_range
    return method(body, 0, hi)


@pytest.mark.parametrize("universal", [True, False], ids=["∀", "∃"])
@pytest.mark.parametrize("prefix", [False, True], ids=["complete", "prefix of ℕ"])
def test_each_quantifier_is_known_exactly_when_every_completion_agrees(universal, prefix):
    """Over a prefix of ℕ the instances beyond it are unseen: they may take any value."""
    for instances in itertools.product(VALUES, repeat=3):
        rt = NumpyRuntime(1, 3)
        hi = rt.nat_domain if prefix else 3
        result = _quantifier(rt, universal, list(instances), hi)
        combine = all if universal else any
        unseen = [[], [False], [True]] if prefix else [[]]
        outcomes = {combine(list(c) + rest)
                    for c in itertools.product(*(_completions(*x) for x in instances))
                    for rest in unseen}
        assert bool(result.known[0]) == (len(outcomes) == 1), (universal, prefix, instances)
        assert bool(result.ok[0]) == combine(v for v, _ in instances)


def test_the_sampling_bound_marks_the_prefix_and_arithmetic_on_it_does_not():
    rt = NumpyRuntime(2, 16)
    assert truncated(rt.nat_domain) and rt.nat_domain == 16
    assert not truncated(rt.nat_domain + 1) and not truncated(16)
    assert truncated(MpRuntime(16).nat_domain)
    assert repr(SamplingBound(16)) == "SamplingBound(16)"


def test_the_exact_runtime_keeps_the_polarity():
    rt = MpRuntime(16)
    held = rt.forall_range(lambda j: rt.lt(j, 100), 0, rt.nat_domain)
    failed = rt.forall_range(lambda j: rt.lt(j, 10), 0, rt.nat_domain)
    assert bool(held.ok[0]) and not bool(held.known[0])
    assert not bool(failed.ok[0]) and bool(failed.known[0])


# ---- the static table -----------------------------------------------------------------------

@pytest.mark.parametrize("connective, position, outside, inside", [
    ("¬", 0, "+", "-"), ("¬", 0, "-", "+"),
    ("∧", 0, "+", "+"), ("∧", 1, "-", "-"),
    ("∨", 0, "+", "+"), ("∨", 1, "-", "-"),
    ("→", 0, "+", "-"), ("→", 0, "-", "+"), ("→", 1, "+", "+"), ("→", 1, "-", "-"),
    ("↔", 0, "+", "±"), ("↔", 1, "-", "±"),
    ("∀", 0, "+", "+"), ("∃", 0, "-", "-"), ("¬", 0, "±", "±"),
])
def test_the_polarity_of_each_argument(connective, position, outside, inside):
    assert P.argument_polarity(connective, position, outside) == inside


def _statement_value(quantifier: str, sign: str, prefix_value: bool, beyond: bool) -> bool:
    """The draw's verdict (``True``: the statement holds at it) when the quantifier's value on
    the prefix is ``prefix_value`` and the instances beyond add ``beyond``; the statement is
    ``q`` (conclusion, +) or ``q → False`` (hypothesis, −)."""
    value = (prefix_value and beyond) if quantifier == "∀" else (prefix_value or beyond)
    return value if sign == "+" else not value


@pytest.mark.parametrize("quantifier", ["∀", "∃"])
@pytest.mark.parametrize("sign", ["+", "-"])
@pytest.mark.parametrize("prefix_value", [False, True])
def test_what_a_truncated_quantifier_decides_in_each_position(quantifier, sign, prefix_value):
    """A cell of EFFECT that refutes (or rejects, or holds) does so whatever lies beyond the
    prefix; a cell that is undecided or only passes on the part seen does not."""
    text = P.effect(quantifier, sign, prefix_value)
    outcomes = {_statement_value(quantifier, sign, prefix_value, beyond)
                for beyond in (False, True)}
    decided = len(outcomes) == 1
    assert decided == P.known_on_prefix(quantifier, prefix_value)
    assert decided == text.startswith(("refutes", "holds", "rejects")), text
    if text.startswith("refutes"):
        assert outcomes == {False}


def test_both_polarities_decide_only_what_is_known():
    assert P.effect("∀", "±", False).startswith("decided")
    assert P.effect("∀", "±", True).startswith("undecided")
    assert P.effect("∃", "±", True).startswith("decided")


@pytest.mark.parametrize("call, message", [
    (lambda: P.argument_polarity("⊕", 0, "+"), "connective: expected one of"),
    (lambda: P.argument_polarity("¬", 1, "+"), "position: expected 0…0 for ¬, got 1"),
    (lambda: P.known_on_prefix("∑", True), "quantifier: expected ∀ or ∃, got '∑'"),
    (lambda: P.effect("∀", "?", True), "quantifier/polarity: expected"),
])
def test_bad_arguments_say_what_was_expected(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        call()


# ---- the translation marks what it truncates -----------------------------------------------

def test_functions_of_nat_are_equal_as_a_truncated_forall():
    """``f = g`` on ``ℕ → ℝ`` compares the sampled prefix: a ∀ over ℕ, so a hypothesis
    ``f = g`` that holds there is not known to hold."""
    from mirror.translate import vocabulary as V
    from mirror.translate.values import NAT_DOMAIN
    from tests.mirror.test_translation import conclusion

    eq = conclusion("f = g", "f g : ℕ → ℝ")
    assert isinstance(eq, V.FinAll) and eq.args[2] == NAT_DOMAIN
    assert isinstance(conclusion("f = g", "f g : Fin 3 → ℝ"), V.ArrayEq)


@pytest.mark.parametrize("statement, binders, construct", [
    ("‖f‖ ≤ 1", "f : ℕ → ℝ", "‖·‖ of a function on Nat"),
    ("∑ i : ℕ, f i = 0", "f : ℕ → ℝ", "Finset.univ of Nat"),
])
def test_an_infinite_domain_is_never_summed_or_normed_silently(statement, binders, construct):
    from mirror.translate.values import Untranslatable
    from tests.mirror.test_translation import conclusion

    with pytest.raises(Untranslatable, match=construct.replace("(", r"\(")):
        conclusion(statement, binders)
