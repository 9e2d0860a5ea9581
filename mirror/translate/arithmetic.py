"""Arithmetic trees as Lean's ``binop%`` elaborates them: one type for every leaf.

A mixin of :class:`mirror.translate.elaborator.Elaborator`. The type of ``a + b * c`` is the
largest type among its leaves and the expected type (so ``i - j`` on ℕ truncates while
``(i - j : ℝ)`` does not); each operation then emits the :mod:`mirror.translate.vocabulary`
node that keeps Lean's meaning at that type (``LeanDiv`` for ``x / 0 = 0``, ``NatSub`` for
truncation, ``ENNMul`` for ``0 * ⊤ = 0``, matrix nodes for matrices).
"""

from __future__ import annotations

from typing import Callable

import sympy as sp

from bridge import term as T
from mirror.translate import vocabulary as V
from mirror.translate.types import NAT, Ty, numeric_max
from mirror.translate.values import (
    ARITH, ArrayFn, Env, Untranslatable, Value, binop_leaves, is_arith, matrix_ty)

#: ``a - b`` on the ordered carriers where it truncates (``tsub``): the floor it stops at.
TRUNCATED_SUB = {"NNReal": sp.Integer(0), "PNat": sp.Integer(1)}

#: ``ℝ≥0∞`` arithmetic: ``⊤`` absorbs, ``0 * ⊤ = 0``, ``a / 0 = ⊤`` for ``a ≠ 0``.
ENNREAL_OPS: dict[str, Callable] = {
    "add": V.ENNAdd,
    "sub": V.ENNSub,
    "mul": V.ENNMul,
    "div": lambda a, b: V.ENNMul(a, V.ENNInv(b)),
}


class Arithmetic:
    """``binop%`` trees; ``elab``, ``coerce`` and ``materialize`` come from the elaborator."""

    def _leaves(self, term: T.Term) -> list[T.Term]:
        return binop_leaves(term)

    def _synth(self, term: T.Term, env: Env) -> Ty | None:
        """The type of a leaf when elaborated without an expected type (``None`` for numerals)."""
        if isinstance(term, T.Lit):
            return None
        if isinstance(term, T.Typed):
            return self.try_type(term.type, env)
        if isinstance(term, T.Coe):
            return None
        if isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name == "ite":
            if len(term.args) == 3:
                return numeric_max(self._synth(term.args[1], env), self._synth(term.args[2], env))
        try:
            value = self.elab(term, env, None)
        except Untranslatable:
            return None
        if value.numeral:
            return None
        return value.ty

    def tree_type(self, terms: list[T.Term], env: Env, expected: Ty | None) -> Ty:
        result: Ty | None = expected if expected is not None and (
            expected.is_numeric or expected.kind in ("Matrix", "Fin")
        ) else None
        for leaf in terms:
            ty = self._synth(leaf, env)
            if ty is not None and (ty.is_numeric or ty.kind in ("Fin", "Matrix")):
                result = numeric_max(result, ty)
        return result if result is not None else NAT

    def arith_tree(
        self, term: T.App, env: Env, expected: Ty | None, annotated: T.Term | None = None
    ) -> Value:
        ty = self.try_type(annotated, env) if annotated is not None else None
        if ty is None:
            ty = self.tree_type(self._leaves(term), env, expected)
        return self.arith(term, env, ty)

    def arith(self, term: T.Term, env: Env, ty: Ty) -> Value:
        if not is_arith(term):
            value = self.elab(term, env, ty)
            if value.is_fn and ty.kind == "Matrix":
                return value
            return self.coerce(value, ty)
        kind = ARITH[term.fn.name]
        args = term.args
        if kind == "pow":
            return self._pow(args[0], args[1], env, ty)
        if kind == "smul":
            scalar = self.elab(args[0], env, None)
            target = self.arith(args[1], env, ty)
            if ty.kind == "Matrix" or target.is_fn:
                return Value(V.LMatSMul(scalar.expr, self.as_matrix(target)), ty)
            if ty.kind == "Fin":  # `n • a` in ZMod n / Fin n: reduced like `n * a` (zsmul_eq_mul)
                return Value(V.FinWrap(scalar.expr * target.expr, ty.args[0]), ty)
            return Value(scalar.expr * target.expr, ty)
        if kind in ("neg", "inv"):
            (arg,) = args
            inner = self.arith(arg, env, ty)
            if kind == "inv":
                if ty.kind == "Matrix":
                    return Value(V.LMatInv(self.as_matrix(inner)), ty)
                if ty.kind in ("Real", "Rat", "Complex", "NNReal"):
                    return Value(V.LeanDiv(sp.Integer(1), inner.expr), ty)
                if ty.kind == "ENNReal":
                    return Value(V.ENNInv(inner.expr), ty)
                raise Untranslatable(f"⁻¹ on {ty}")
            if ty.kind == "Matrix":
                return Value(V.LMatNeg(self.as_matrix(inner)), ty)
            if ty.kind in ("Nat", "Fin", "PNat", "NNReal", "ENNReal"):
                raise Untranslatable(f"negation on {ty}")
            return Value(-inner.expr, ty)
        if ty.kind == "Matrix" and kind == "mul":
            # a matrix product changes shapes: each factor is its own tree
            a = self.arith_tree(args[0], env, None) if is_arith(args[0]) else self.elab(
                args[0], env, None)
            b = self.arith_tree(args[1], env, None) if is_arith(args[1]) else self.elab(
                args[1], env, None)
            ta, tb = matrix_ty(a.ty), matrix_ty(b.ty)
            out_ty = Ty("Matrix", (ta.args[0], tb.args[1], ta.args[2]))
            return Value(V.LMatMul(self.as_matrix(a), self.as_matrix(b)), out_ty)
        a = self.arith(args[0], env, ty)
        b = self.arith(args[1], env, ty)
        if ty.kind == "Matrix":
            ma, mb = self.as_matrix(a), self.as_matrix(b)
            table = {"add": V.LMatAdd, "sub": V.LMatSub, "mul": V.LMatMul}
            if kind not in table:
                raise Untranslatable(f"matrix operation {term.fn.name}")
            return Value(table[kind](ma, mb), ty)
        x, y = a.expr, b.expr
        wrong = [v for v in (a, b) if v.expr is None or (v.ty is not None and v.ty.kind == "Prop")]
        if wrong:
            # a matrix, function or proposition operand in a tree typed as a scalar
            shown = wrong[0].ty
            raise Untranslatable(f"{term.fn.name} of a value of type {shown} at type {ty}",
                                 "the operand's type and the tree's type disagree")
        if ty.kind == "ENNReal":
            if kind not in ENNREAL_OPS:
                raise Untranslatable(f"{term.fn.name} on {ty}")
            return Value(ENNREAL_OPS[kind](x, y), ty)
        if ty.kind == "PNat" and kind in ("div", "mod"):
            raise Untranslatable(f"{term.fn.name} on {ty}")
        if kind == "sub" and ty.kind in TRUNCATED_SUB:
            return Value(sp.Max(x - y, TRUNCATED_SUB[ty.kind]), ty)
        if kind == "add":
            out = x + y
        elif kind == "mul":
            out = x * y
        elif kind == "sub":
            out = V.NatSub(x, y) if ty.kind == "Nat" else x - y
        elif kind == "div":
            out = {"Nat": V.NatDiv, "Int": V.IntDiv, "Fin": V.NatDiv}.get(ty.kind, V.LeanDiv)(x, y)
        elif kind == "mod":
            if ty.kind not in ("Nat", "Int", "Fin"):
                raise Untranslatable(f"% on {ty}")
            out = V.NatMod(x, y)
        else:  # pragma: no cover - table is closed
            raise Untranslatable(term.fn.name)
        if ty.kind == "Fin":
            out = V.FinWrap(out, ty.args[0])
        return Value(out, ty)

    def _pow(self, base_t: T.Term, exp_t: T.Term, env: Env, ty: Ty) -> Value:
        base = self.arith(base_t, env, ty)
        if base.expr is None and ty.kind != "Matrix":
            # `(log (a / b)) ^ 2` under `open Nat Real`: the scanner read `log` as `Nat.log`,
            # whose one argument leaves a function (Lean picks `Real.log` by the types)
            what = getattr(base.fn, "name", None) or "a function"
            raise Untranslatable(f"power of a function value ({what} partly applied)",
                                 "a partially applied function is not a number (an "
                                 "overloaded name read in the wrong namespace?)")
        exp_ty = self._synth(exp_t, env) or NAT
        exponent = self.scalar(exp_t, env, exp_ty)
        if ty.kind == "Matrix":
            return Value(V.LMatPow(self.as_matrix(base), exponent), ty)
        if exp_ty.kind in ("Nat", "Fin", "PNat"):
            if ty.kind == "Fin":  # Fin n and ZMod n: the power is reduced modulo n
                return Value(V.FinWrap(sp.Pow(base.expr, exponent), ty.args[0]), ty)
            return Value(sp.Pow(base.expr, exponent), ty)
        if exp_ty.kind == "Int":
            if ty.kind == "ENNReal":
                raise Untranslatable("power of ℝ≥0∞ with an integer exponent")
            return Value(
                V.LeanIte(
                    sp.Ge(exponent, 0),
                    sp.Pow(base.expr, exponent),
                    V.LeanDiv(sp.Integer(1), sp.Pow(base.expr, -exponent)),
                ),
                ty,
            )
        if exp_ty.kind in ("Real", "Rat", "NNReal"):
            if ty.kind in ("Complex", "ENNReal"):
                raise Untranslatable(f"power of {ty} with a real exponent")
            return Value(V.LeanRpow(base.expr, exponent), ty)
        raise Untranslatable(f"power with exponent of type {exp_ty}")

    def as_matrix(self, value: Value) -> sp.Basic:
        if value.is_fn:
            return self.materialize(value) if not isinstance(value.fn, ArrayFn) else (
                value.fn.array if not value.fn.indices else V.Index(value.fn.array, *value.fn.indices)
            )
        return value.expr
