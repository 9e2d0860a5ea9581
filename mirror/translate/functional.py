"""Functional hypotheses that define a function: ``(f : ℝ → ℝ) (h₀ : ∀ x, f x = e)``, or
``(h₀ : f = fun x => e)``.

Such a hypothesis quantifies over the whole domain of ``f`` and fixes its value everywhere, so
``f`` *is* ``fun x => e`` (function extensionality, ``funext``): the statement is rewritten with
``f`` replaced by its definition — each application ``f a`` by ``e[x := (a : α)]``, the
argument ascribed ``f``'s domain type as Lean's unification would, the body its codomain type —
and the binders of ``f`` and of the hypothesis dropped. The rewrite is an equivalence, so it
changes no verdict; it turns a quantifier over ℝ that cannot be drawn into arithmetic that can
(``h₁ : f 2 = 9`` becomes an equation of the other variables, which the solver reads:
:mod:`mirror.sample.solve`).

Only the exact shape is taken: every quantified variable of the hypothesis is an argument of
``f`` in order, untyped or typed as ``f``'s domain, ``e`` does not mention ``f``, and no binder
inside ``e`` captures a variable of an argument. Anything else is left as it was.
"""

from __future__ import annotations

import dataclasses

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.lean_terms import binder_names, theorem_binders


def _domains(ty: T.Term | None) -> tuple[list[T.Term], T.Term] | None:
    """``α₁ → α₂ → … → β`` as ``([α₁, α₂, …], β)`` (``None`` if not an arrow type)."""
    domains: list[T.Term] = []
    while isinstance(ty, T.Pi) and all(b.type is not None and b.name == "_"
                                       for b in ty.binders):
        domains.extend(b.type for b in ty.binders)
        ty = ty.body
    return (domains, ty) if domains else None


def _definition(hyp: T.Term | None, functions: dict[str, tuple[list, T.Term]]):
    """``(f, parameters, body)`` when ``hyp`` is ``∀ x₁ … xₙ, f x₁ … xₙ = body`` or
    ``f = fun x₁ … xₙ => body`` (the same by ``funext``)."""
    if isinstance(hyp, T.App) and hyp.fn == T.Const("Eq") and len(hyp.args) == 2 \
            and isinstance(hyp.args[0], T.Var) and isinstance(hyp.args[1], T.Lam) \
            and hyp.args[0].name in functions:
        lam = hyp.args[1]
        hyp = T.Pi(lam.binders, T.App(T.Const("Eq"), (
            T.App(hyp.args[0], tuple(T.Var(b.name) for b in lam.binders)), lam.body)))
    if not isinstance(hyp, T.Pi):
        return None
    params = [b for b in hyp.binders]
    eq = hyp.body
    if not (isinstance(eq, T.App) and eq.fn == T.Const("Eq") and len(eq.args) == 2):
        return None
    lhs, body = eq.args
    if not (isinstance(lhs, T.App) and isinstance(lhs.fn, T.Var) and lhs.fn.name in functions):
        return None
    name = lhs.fn.name
    domains, _ = functions[name]
    names = [b.name for b in params]
    if len(params) != len(domains) or list(lhs.args) != [T.Var(n) for n in names] \
            or len(set(names)) != len(names):
        return None
    if any(b.type is not None and b.type != dom for b, dom in zip(params, domains)):
        return None
    if name in T.free_vars(body):
        return None
    return name, names, body


class _Inliner:
    """Replaces a defined function's applications (and bare uses) by its body."""

    def __init__(self, name: str, params: list[str], body: T.Term, domains: list[T.Term],
                 codomain: T.Term) -> None:
        self.name, self.params, self.body = name, params, body
        self.domains, self.codomain = domains, codomain
        self.inner = binder_names(body)
        self.failed = False

    def _argument_type(self, name: str, body: T.Term) -> T.Term | None:
        """An untyped binder used as an argument of the function: Lean typed it by the
        function's domain, which the inlined body no longer says (``∀ z, f z = 0 → …`` with
        ``f : ℂ → ℂ`` makes ``z : ℂ``)."""
        for node in T.walk(body):
            if isinstance(node, T.App) and node.fn == T.Var(self.name):
                for arg, dom in zip(node.args, self.domains):
                    if arg == T.Var(name):
                        return dom
        return None

    def apply(self, term: T.Term) -> T.Term:
        if isinstance(term, T.App) and term.fn == T.Var(self.name) \
                and len(term.args) == len(self.params):
            args = [self.apply(a) for a in term.args]
            if any(T.free_vars(a) & self.inner for a in args):
                self.failed = True
                return term
            mapping = {p: T.Typed(a, d) for p, a, d in zip(self.params, args, self.domains)}
            return T.Typed(T.substitute(self.body, mapping), self.codomain)
        if term == T.Var(self.name):
            binders = tuple(T.Binder(p, d) for p, d in zip(self.params, self.domains))
            return T.Lam(binders, T.Typed(self.body, self.codomain))
        if isinstance(term, (T.Lam, T.Pi)):
            if any(b.name == self.name for b in term.binders):
                return term  # shadowed
            binders = tuple(T.Binder(b.name, self.apply(b.type) if b.type is not None
                                     else self._argument_type(b.name, term.body), b.info)
                            for b in term.binders)
            return type(term)(binders, self.apply(term.body))
        plain = T.map_plain(term, self.apply)
        if plain is not None:
            return plain
        if isinstance(term, T.Let):
            self.failed = True
        return term


def define_functions(decl: Declaration) -> Declaration:
    """``decl`` with each function fixed by a hypothesis ``∀ x, f x = e`` inlined (unchanged
    when it has none)."""
    if decl.type is None or decl.kind != "theorem":
        return decl
    binders, body = theorem_binders(decl)
    changed = True
    rewritten = False
    while changed:
        changed = False
        functions = {b.name: d for b in binders if (d := _domains(b.type)) is not None}
        for index, hyp in enumerate(binders):
            found = _definition(hyp.type, functions)
            if found is None:
                continue
            name, params, fbody = found
            domains, codomain = functions[name]
            inliner = _Inliner(name, params, fbody, domains, codomain)
            rest = [b for i, b in enumerate(binders) if i != index and b.name != name]
            new_rest = [T.Binder(b.name, None if b.type is None else inliner.apply(b.type),
                                 b.info) for b in rest]
            new_body = inliner.apply(body)
            if inliner.failed:
                continue
            binders, body = new_rest, new_body
            changed = rewritten = True
            break
    if not rewritten:
        return decl
    return dataclasses.replace(decl, binders=tuple(binders), type=body)


__all__ = ["define_functions"]
