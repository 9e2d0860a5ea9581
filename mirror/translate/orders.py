"""Order vocabulary on functions, by Mathlib's definitions (Lean-term rewrites).

==========================  =============================================================
Lean                        rewritten to (Mathlib's definition)
==========================  =============================================================
``Monotone f``              ``∀ a b : α, a ≤ b → f a ≤ f b``
``Antitone f``              ``∀ a b : α, a ≤ b → f b ≤ f a``
``StrictMono f``            ``∀ a b : α, a < b → f a < f b``
``StrictAnti f``            ``∀ a b : α, a < b → f b < f a``
``MonotoneOn f s``          ``∀ a : α, a ∈ s → ∀ b : α, b ∈ s → a ≤ b → f a ≤ f b``
(and ``AntitoneOn``, ``StrictMonoOn``, ``StrictAntiOn`` alike)
==========================  =============================================================

``α`` is the domain of ``f``, read from its binder (``(f : ℕ → ℝ)``); a function whose type is
not written there is left for the translator. The quantifiers are then translated like any
other: over ``Fin n`` exactly, over ℕ on the sampled prefix (truncated: a failing instance
refutes only where the ``∀`` is in the conclusion), over ℝ lifted out of a conclusion and
sampled (:mod:`mirror.translate.prenex`).
"""

from __future__ import annotations

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.term_rewriter import TermRewriter, rewrite_declaration

#: Lean constant → (order of the premise, whether ``f``'s values are compared reversed, on a set).
ORDERS: dict[str, tuple[str, bool, bool]] = {
    "Monotone": ("LE.le", False, False),
    "Antitone": ("LE.le", True, False),
    "StrictMono": ("LT.lt", False, False),
    "StrictAnti": ("LT.lt", True, False),
    "MonotoneOn": ("LE.le", False, True),
    "AntitoneOn": ("LE.le", True, True),
    "StrictMonoOn": ("LT.lt", False, True),
    "StrictAntiOn": ("LT.lt", True, True),
}


def _c(name: str, *args: T.Term) -> T.App:
    return T.App(T.Const(name), tuple(args))


def _implies(premise: T.Term, body: T.Term) -> T.Pi:
    return T.Pi((T.Binder("_", premise),), body)


class _Orders(TermRewriter):
    def __init__(self, domains: dict[str, T.Term], taken: set[str]) -> None:
        super().__init__(taken)
        self.domains = domains

    def definition(self, name: str, f: T.Term, on: T.Term | None) -> T.Term | None:
        if not (isinstance(f, T.Var) and f.name in self.domains):
            return None
        rel, reversed_, _ = ORDERS[name]
        dom = self.domains[f.name]
        a, b = T.Var(self.fresh("a_ord")), T.Var(self.fresh("b_ord"))
        fa, fb = T.App(f, (a,)), T.App(f, (b,))
        body = _implies(_c(rel, a, b), _c(rel, fb, fa) if reversed_ else _c(rel, fa, fb))
        if on is not None:
            body = _implies(_c("Membership.mem", on, b), body)
        inner = T.Pi((T.Binder(b.name, dom),), body)
        if on is not None:
            inner = _implies(_c("Membership.mem", on, a), inner)
        return T.Pi((T.Binder(a.name, dom),), inner)

    def term(self, t: T.Term) -> T.Term:
        if isinstance(t, T.App):
            args = [self.term(a) for a in t.args]
            if isinstance(t.fn, T.Const) and t.fn.name in ORDERS:
                on_set = ORDERS[t.fn.name][2]
                arity = 2 if on_set else 1
                if len(args) == arity:
                    out = self.definition(t.fn.name, args[0], args[1] if on_set else None)
                    if out is not None:
                        return out
            return T.App(self.term(t.fn), tuple(args), t.ty)
        return self.structural(t)


def rewrite_orders(decl: Declaration) -> Declaration:
    """``decl`` with ``Monotone f`` & co. replaced by their definitions (unchanged when it names
    none, or names them of functions whose type is not written in a binder)."""
    domains = {}
    for b in decl.binders:
        if isinstance(b.type, T.Pi) and len(b.type.binders) == 1 and b.type.binders[0].name == "_":
            domains[b.name] = b.type.binders[0].type
    return rewrite_declaration(decl, _mentions, lambda taken: _Orders(domains, taken))


def _mentions(t: T.Term) -> bool:
    return any(isinstance(n, T.Const) and n.name in ORDERS for n in T.walk(t))


__all__ = ["ORDERS", "rewrite_orders"]
