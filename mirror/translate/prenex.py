"""Quantifiers inside a conclusion, lifted to the statement's binders where a sample decides.

A ``∀ x : ℝ`` nested in the conclusion — under a conjunction, a disjunction, or the consequent
of an implication — is equivalent to the same ``∀`` over the whole conclusion (the other parts
do not mention ``x``; ℝ and the other carriers are non-empty): ``A ∧ ∀ x, P x`` is
``∀ x, A ∧ P x``, ``H → ∀ x, P x`` is ``∀ x, H → P x``, ``A ∨ ∀ x, P x`` is ``∀ x, A ∨ P x``.
Lifted, it is a binder of the statement, drawn like the others: a failing draw refutes (the
``∀`` is in the conclusion, where a counterexample decides), and bounded forms
(``∀ x ∈ Set.Icc a b, P x``, ``∀ x, a ≤ x → x ≤ b → P x``) become hypotheses that bound the
draw — and a box for :mod:`mirror.judge.boxes`. A ``∀`` under a negation, an ``↔`` or an
``∃`` is left where it is (there a sample does not decide), and so is one over ℕ or ``Fin n``
(the translator expands those exactly). Binders that are not propositions are
lifted (an untyped one is typed from its uses, :mod:`mirror.translate.binder_types`); a lifted
binder that would capture a name is renamed. The statement's own untyped binders (``∀ x ∈
Set.Icc 0 1, …``, ``(n)``) are typed the same way.

A hypothesis ``(h : ∃ x, p x)`` is opened the same way round: ``(∃ x, p x) → C`` is
``∀ x, p x → C``, so ``x`` becomes a binder of the statement and ``h : p x`` a hypothesis
(:func:`_open_hypotheses`); the solver can then solve ``x`` from ``p`` instead of searching
candidate witnesses.
"""

from __future__ import annotations

import dataclasses

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.binder_types import infer_types
from mirror.translate.lean_terms import is_call
from mirror.translate.values import is_prop_type

#: Connectives a ``∀`` is lifted out of (both sides are in the conclusion's polarity).
_POSITIVE = ("And", "Or")


#: Carriers whose quantifiers the translator cannot expand (ℕ and ``Fin n`` ones it can, and
#: exactly: they stay where they are).
_LIFTED = frozenset({"Real", "Complex", "Rat", "NNReal", "Int"})


def _lifted_type(binder: T.Binder, body: T.Term) -> T.Term | None:
    """The type of a ``∀`` binder to lift (written, or typed from its uses in ``body``), or
    ``None`` when it is not one: an implication, or a quantifier over ℕ / ``Fin n``."""
    if binder.name == "_" or is_prop_type(binder.type):
        return None
    ty = binder.type
    if ty is None:
        ty = infer_types([binder], body)[0].type
    return ty if isinstance(ty, T.Const) and ty.name in _LIFTED else None


class _Lifter:
    def __init__(self, taken: set[str]) -> None:
        self.taken = taken
        self.lifted: list[T.Binder] = []

    def fresh(self, name: str) -> str:
        out = name
        while out in self.taken:
            out += "'"
        self.taken.add(out)
        return out

    def lift(self, t: T.Term, nested: bool) -> T.Term:
        """``t`` with its liftable quantifiers removed (collected in :attr:`lifted`);
        ``nested``: below a connective (the statement's own leading binders stay)."""
        if isinstance(t, T.Pi) and len(t.binders) > 1:  # ∀ x (_ : x ∈ s), … one at a time
            t = T.Pi(t.binders[:1], T.Pi(t.binders[1:], t.body))
        if isinstance(t, T.Pi) and len(t.binders) == 1:
            (binder,) = t.binders
            ty = _lifted_type(binder, t.body) if nested else None
            if ty is not None:
                name = self.fresh(binder.name)
                body = T.substitute(t.body, {binder.name: T.Var(name)}) \
                    if name != binder.name else t.body
                self.lifted.append(T.Binder(name, ty, binder.info))
                return self.lift(body, nested)
            if binder.type is not None and is_prop_type(binder.type):  # an implication
                return T.Pi(t.binders, self.lift(t.body, nested))
            return t
        if isinstance(t, T.App) and isinstance(t.fn, T.Const) and t.fn.name in _POSITIVE \
                and len(t.args) == 2:
            return T.App(t.fn, tuple(self.lift(a, True) for a in t.args), t.ty)
        return t


def _exists(t: T.Term | None) -> T.Lam | None:
    """The predicate of ``∃ x, p x`` (``Exists (fun x => p x)``), else ``None``."""
    if is_call(t, "Exists") and len(t.args) == 1 and isinstance(t.args[0], T.Lam) \
            and t.args[0].binders:
        return t.args[0]
    return None


def _with_equation(t: T.Term) -> bool:
    """Whether the body of an ``∃`` states an equation among its conjuncts (below further
    ``∃``): what the solver can use. An ``∃`` of inequalities only (``∃ x, f x ≤ 0``) is
    better served by the candidate witnesses (:mod:`mirror.translate.witnesses`) than by
    draws that rarely satisfy it."""
    lam = _exists(t)
    if lam is not None:
        return _with_equation(lam.body)
    if is_call(t, "And") and len(t.args) == 2:
        return any(_with_equation(a) for a in t.args)
    return is_call(t, "Eq")


def _open_hypotheses(binders: list[T.Binder], body: T.Term, lifter: _Lifter,
                     closed: frozenset[str] = frozenset()
                     ) -> tuple[list[T.Binder], dict[str, str]]:
    """Hypotheses ``(h : ∃ x, p x)`` opened into a binder ``x`` and ``(h : p x)``:
    ``(∃ x, p x) → C`` is ``∀ x, p x → C`` (``x`` renamed when taken, so nothing else can
    mention it), and ``x`` is then a variable of the statement, solved or drawn like the
    others instead of searched among candidate witnesses. Opened only when ``p`` states an
    equation (:func:`_with_equation`); a hypothesis whose proof is used by name elsewhere, or
    named in ``closed``, is kept as it is. Returns the binders and, per opened variable, the
    hypothesis it came from."""
    out: list[T.Binder] = []
    origin: dict[str, str] = {}
    for index, binder in enumerate(binders):
        others = [b.type for b in binders[index + 1:] if b.type is not None] + [body]
        used = binder.name != "_" and any(binder.name in T.free_vars(t) for t in others)
        if used or binder.name in closed or not _with_equation(binder.type):
            out.append(binder)
            continue
        hyp = binder
        while (lam := _exists(hyp.type)) is not None:
            mapping: dict[str, T.Term] = {}
            for inner in lam.binders:
                name = lifter.fresh(inner.name)
                ty = T.substitute(inner.type, mapping) if inner.type is not None else None
                out.append(T.Binder(name, ty))
                origin[name] = binder.name
                if name != inner.name:
                    mapping[inner.name] = T.Var(name)
            hyp = T.Binder(hyp.name, T.substitute(lam.body, mapping) if mapping else lam.body,
                           hyp.info)
        out.append(hyp)
    return out, origin


def lift_quantifiers(decl: Declaration) -> Declaration:
    """``decl`` with the ``∀`` binders nested in its conclusion lifted (unchanged when none)."""
    if decl.type is None or decl.kind != "theorem":
        return decl
    body = decl.type
    prefix: list[T.Binder] = []
    while isinstance(body, T.Pi):
        prefix.extend(body.binders)
        body = body.body
    # a free identifier is a constant of the term (an auto-bound implicit until the translator
    # binds it): a lifted or opened binder of that name would capture it
    terms = [b.type for b in (*decl.binders, *prefix) if b.type is not None] + [body]
    taken = ({b.name for b in decl.binders} | {b.name for b in prefix} | T.free_vars(body)
             | {name for t in terms for name in T.constants(t)})
    lifter = _Lifter(taken)
    new_body = lifter.lift(body, False)
    given = list(decl.binders) + prefix
    taken_before = set(lifter.taken)
    hypotheses, origin = _open_hypotheses(given, new_body, lifter)
    binders = infer_types(hypotheses + lifter.lifted, new_body)
    untypeable = {origin[b.name] for b in binders if b.type is None and b.name in origin}
    if untypeable:  # an opened variable no use types: that hypothesis stays an ∃ (as Lean has it)
        lifter.taken = taken_before
        hypotheses, _ = _open_hypotheses(given, new_body, lifter, frozenset(untypeable))
        binders = infer_types(hypotheses + lifter.lifted, new_body)
    untyped = any(b.type is None and b.name != "_" for b in given)
    if not lifter.lifted and not untyped and hypotheses == given:
        return decl
    return dataclasses.replace(decl, binders=tuple(binders), type=new_body)


__all__ = ["lift_quantifiers"]
