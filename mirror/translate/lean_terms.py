"""Building and reading normalized Lean terms (:mod:`bridge.term`) in desugaring stages.

Small constructors that simplify as they build (``conj(TRUE, p)`` is ``p``), β-reduction
without capture, and the readers the stages share (``is_call``, ``type_head``, ``show``).
"""

from __future__ import annotations

from typing import Iterator

from bridge import term as T

NAT = T.Const("Nat")
BOOL = T.Const("Bool")
TRUE = T.Const("True")
FALSE = T.Const("False")
ZERO = T.Lit(0)
ONE = T.Lit(1)


def app(name: str, *args: T.Term) -> T.App:
    return T.App(T.Const(name), tuple(args))


def _connect(name: str, unit: T.Term, absorbing: T.Term, parts: tuple[T.Term, ...]) -> T.Term:
    parts = tuple(p for p in parts if p != unit)
    if absorbing in parts:
        return absorbing
    if not parts:
        return unit
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = app(name, part, out)
    return out


def conj(*parts: T.Term) -> T.Term:
    """``p ∧ q ∧ …`` (``True`` parts dropped, ``False`` absorbing)."""
    return _connect("And", TRUE, FALSE, parts)


def disj(*parts: T.Term) -> T.Term:
    """``p ∨ q ∨ …`` (``False`` parts dropped, ``True`` absorbing)."""
    return _connect("Or", FALSE, TRUE, parts)


def neg(part: T.Term) -> T.Term:
    return FALSE if part == TRUE else TRUE if part == FALSE else app("Not", part)


def ite(cond: T.Term, then: T.Term, other: T.Term) -> T.Term:
    if cond == TRUE:
        return then
    if cond == FALSE:
        return other
    return app("ite", cond, then, other)


def fold(name: str, terms: list[T.Term], empty: T.Term) -> T.Term:
    if not terms:
        return empty
    out = terms[0]
    for term in terms[1:]:
        out = app(name, out, term)
    return out


def premise(cond: T.Term) -> T.Term:
    """``cond`` as a binder type the translator reads as a premise: a Bool variable or entry
    (``b``, ``s x``) is not one syntactically, ``¬¬b`` is, and means the same."""
    if isinstance(cond, T.Var) or (isinstance(cond, T.App) and isinstance(cond.fn, T.Var)):
        return app("Not", app("Not", cond))
    return cond


def theorem_binders(decl) -> tuple[list[T.Binder], T.Term]:
    """A declaration's binders, its own and those of the ``∀`` prefix of its type, and the body
    after them."""
    binders = list(decl.binders)
    body = decl.type
    while isinstance(body, T.Pi):
        binders.extend(body.binders)
        body = body.body
    return binders, body


def binder_names(term: T.Term) -> set[str]:
    names: set[str] = set()
    for node in T.walk(term):
        if isinstance(node, (T.Lam, T.Pi)):
            names |= {b.name for b in node.binders}
        elif isinstance(node, T.Let):
            names.add(node.name)
    return names


def beta(fn: T.Term, arg: T.Term) -> T.Term:
    """``fn arg``, β-reduced when ``fn`` is a lambda and no capture can happen."""
    if isinstance(fn, T.Lam) and fn.binders:
        first, rest = fn.binders[0], fn.binders[1:]
        body = T.Lam(rest, fn.body) if rest else fn.body
        if not (T.free_vars(arg) & binder_names(body)):
            return T.substitute(body, {first.name: arg})
    return T.App(fn, (arg,))


def is_call(term: T.Term | None, *names: str) -> bool:
    return (isinstance(term, T.App) and isinstance(term.fn, T.Const)
            and term.fn.name in names)


def type_head(ty: T.Term | None) -> tuple[str | None, tuple[T.Term, ...]]:
    if isinstance(ty, T.App) and isinstance(ty.fn, T.Const):
        return ty.fn.name, ty.args
    if isinstance(ty, T.Const):
        return ty.name, ()
    return None, ()


def conjuncts(term: T.Term) -> Iterator[T.Term]:
    if is_call(term, "And") and len(term.args) == 2:
        yield from conjuncts(term.args[0])
        yield from conjuncts(term.args[1])
    else:
        yield term


def pi(binders: list[T.Binder], body: T.Term) -> T.Term:
    return T.Pi(tuple(binders), body) if binders else body


_NOTATION = {"Nat": "ℕ", "Int": "ℤ", "Rat": "ℚ", "Real": "ℝ", "Complex": "ℂ"}


def show(term: T.Term) -> str:
    """A short Lean-like rendering of ``term`` for messages."""
    if isinstance(term, T.Const):
        return _NOTATION.get(term.name, term.name)
    if isinstance(term, T.Var):
        return term.name
    if isinstance(term, T.Lit):
        return str(term.value)
    if isinstance(term, T.Proj):
        return f"{show(term.expr)}.{term.field}"
    if isinstance(term, T.App):
        parts = " ".join(show(a) if isinstance(a, (T.Var, T.Const, T.Lit)) else f"({show(a)})"
                         for a in term.args)
        return f"{show(term.fn)} {parts}".strip()
    if isinstance(term, T.Typed):
        return f"({show(term.expr)} : {show(term.type)})"
    return type(term).__name__


def fresh_name(base: str, taken: set[str]) -> str:
    """``base``, or ``base'``, ``base''``, … : the first not in ``taken`` (which it joins)."""
    name = base
    while name in taken:
        name += "'"
    taken.add(name)
    return name
