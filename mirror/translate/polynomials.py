"""``Polynomial.eval`` of explicit polynomials, by Mathlib's evaluation lemmas.

A polynomial written out of ``X``, ``C c``, numerals, ``+``, ``-``, ``*`` and ``^ k`` is
evaluated at ``x`` by rewriting it as the same term of its coefficient ring, each lemma the
ring homomorphism ``eval x`` gives:

=========================  ====================  ==========================================
Lean                       rewritten to          Mathlib
=========================  ====================  ==========================================
``eval x X``               ``x``                 ``Polynomial.eval_X``
``eval x (C c)``           ``c``                 ``Polynomial.eval_C``
``eval x n`` (numeral)     ``n``                 ``Polynomial.eval_ofNat``, ``eval_one``…
``eval x (p + q)`` …       ``eval x p + …``      ``eval_add``, ``eval_sub``, ``eval_mul``,
                                                 ``eval_neg``
``eval x (p ^ k)``         ``(eval x p) ^ k``    ``Polynomial.eval_pow``
``p.IsRoot x``             ``p.eval x = 0``      ``Polynomial.IsRoot.def``
=========================  ====================  ==========================================

``(p : Polynomial R)`` ascribes the result to ``R``. A polynomial that is a variable, or
built from anything else (``derivative``, ``comp``, a division), is left as it is; the
translator then names ``Polynomial.eval`` as the constant to bind.
"""

from __future__ import annotations

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.term_rewriter import TermRewriter, rewrite_declaration

#: Ring operations ``eval x`` commutes with (their Lean names).
_OPERATIONS = frozenset({"HAdd.hAdd", "HSub.hSub", "HMul.hMul", "Neg.neg"})
_X = frozenset({"Polynomial.X", "X"})
_C = frozenset({"Polynomial.C", "C"})


def _ring(ty: T.Term) -> T.Term | None:
    """``R`` of ``Polynomial R``."""
    if isinstance(ty, T.App) and ty.fn == T.Const("Polynomial") and len(ty.args) == 1:
        return ty.args[0]
    return None


def evaluate(p: T.Term, x: T.Term) -> T.Term | None:
    """``Polynomial.eval x p`` as a term of the coefficient ring, or ``None``."""
    if isinstance(p, T.Const) and p.name in _X:
        return x
    if isinstance(p, T.Lit):
        return p
    if isinstance(p, T.Typed):
        ring = _ring(p.type)
        inner = evaluate(p.expr, x)
        return None if ring is None or inner is None else T.Typed(inner, ring)
    if not (isinstance(p, T.App) and isinstance(p.fn, T.Const)):
        return None
    name, args = p.fn.name, p.args
    if name in _C and len(args) == 1:
        return args[0]
    if name == "HPow.hPow" and len(args) == 2:
        base = evaluate(args[0], x)
        return None if base is None else T.App(p.fn, (base, args[1]))
    if name in _OPERATIONS:
        parts = [evaluate(a, x) for a in args]
        return None if None in parts else T.App(p.fn, tuple(parts))
    return None


class _Polynomials(TermRewriter):
    def term(self, t: T.Term) -> T.Term:
        if isinstance(t, T.App):
            found = self._read(t)
            if found is not None:
                return found
        return self.structural(t)

    def _read(self, t: T.App) -> T.Term | None:
        head, args = t.fn, t.args
        if isinstance(head, T.Proj) and head.field in ("eval", "IsRoot") and len(args) == 1:
            head, args = T.Const(f"Polynomial.{head.field}"), (args[0], head.expr) \
                if head.field == "eval" else (head.expr, args[0])
        if head == T.Const("Polynomial.eval") and len(args) == 2:
            return evaluate(args[1], self.term(args[0]))
        if head == T.Const("Polynomial.IsRoot") and len(args) == 2:
            value = evaluate(args[0], self.term(args[1]))
            return None if value is None else T.App(T.Const("Eq"), (value, T.Lit(0)))
        return None


def _mentions(t: T.Term) -> bool:
    return any((isinstance(n, T.Const) and n.name in ("Polynomial.eval", "Polynomial.IsRoot"))
               or (isinstance(n, T.Proj) and n.field in ("eval", "IsRoot")) for n in T.walk(t))


def rewrite_polynomials(decl: Declaration) -> Declaration:
    """``decl`` with the evaluations of explicit polynomials computed (unchanged when it has
    none)."""
    return rewrite_declaration(decl, _mentions, _Polynomials)


__all__ = ["evaluate", "rewrite_polynomials"]
