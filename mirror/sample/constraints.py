"""Constraints: the translator's hypotheses (sympy) → bounds, choices and rules of a plan.

The planner reads each hypothesis as :mod:`mirror.translate.translation` produced it — casts already
read through, definitions unfolded, ``k ∈ Finset.Icc a b`` split into its bounds, a ``∀`` over a
finite domain as :class:`~mirror.translate.vocabulary.FinAll` (or, over a small numeral domain, already
expanded into its instances) — and never re-reads Lean syntax. What it understands:

- a bound on one drawn scalar by the earlier ones (and on array entries, ``∀ k, |a k| ≤ 1``
  drawn inside ``[-1, 1]``): ``lhs < rhs`` / ``lhs ≤ rhs`` solved for the
  latest-drawn variable that occurs linearly (``a + 1 ≤ b``, ``2 * k ≤ m``, ``x * e ≤ n``),
  ``|e| ≤ c`` as ``-c ≤ e ≤ c``, and an equation that is not a definition (``n = a + b`` over
  dimensions) as both bounds;
- a finite choice ``a = c₁ ∨ a = c₂ ∨ …``;
- over array entries ``∀ i j, …``: element bounds, constant fills, and — where a range or a
  premise restricts the indices to one relation (``i ≤ j``, ``s ≤ t``) — a masked fill or a
  masked copy of an earlier array (``∀ s ≤ t, x s = x' s``); the same for the instances of an
  expanded ``∀``, when they cover the whole array or one such mask.

Every hypothesis is still evaluated on every draw: a constraint read too tightly costs
coverage, one read too loosely costs rejected draws, neither changes a verdict.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, Callable

import sympy as sp
from sympy.core.relational import Relational

from mirror.translate.digits import DigitLength
from mirror.translate import vocabulary as V
from mirror.sample.ranges import INTEGER_KINDS
from mirror.translate.values import NAT_DOMAIN, Statement

#: ``lhs rel rhs`` read as ``(lhs, rhs, strict)`` of ``lhs < rhs`` / ``lhs ≤ rhs``.
_ORDERS: dict[type, Callable[[Relational], tuple[sp.Basic, sp.Basic, bool]]] = {
    sp.StrictLessThan: lambda r: (r.lhs, r.rhs, True),
    sp.LessThan: lambda r: (r.lhs, r.rhs, False),
    sp.StrictGreaterThan: lambda r: (r.rhs, r.lhs, True),
    sp.GreaterThan: lambda r: (r.rhs, r.lhs, False),
}
#: Index relations of a mask (:func:`mirror.sample.strategies._apply_set_where`), and their mirror.
_MASK_RELS = {sp.StrictLessThan: "lt", sp.LessThan: "le", sp.StrictGreaterThan: "gt",
              sp.GreaterThan: "ge", sp.Eq: "eq", sp.Ne: "ne"}
_REVERSED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}
#: ``i rel (b + offset)`` as ``i rel' b`` on integers.
_SHIFTED = {("lt", 1): "le", ("ge", 1): "gt", ("le", -1): "lt", ("gt", -1): "ge"}
#: Functions of the translator's vocabulary that a bound tree computes alike
#: (:func:`mirror.sample.ranges.evaluate_tree`).
_TREE_FUNCTIONS = {V.NatSub: "nat_sub", V.LeanDiv: "div", V.NatDiv: "int_div",
                   V.IntDiv: "int_ediv", V.LeanRpow: "rpow", DigitLength: "digit_length"}
#: Scalar kinds whose draws read bounds (:mod:`mirror.sample.ranges`).
_BOUNDED_KINDS = ("nat", "int", "real", "fin", "ennreal")
_MASK_TESTS = {"lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b,
               "ge": lambda a, b: a >= b, "eq": lambda a, b: a == b, "ne": lambda a, b: a != b}


# ---- bound trees ------------------------------------------------------------------------------


def expr_tree(expr: sp.Basic, names: dict, entries: dict) -> dict | None:
    """A translated expression over drawn scalars as a bound tree (``None`` when it has a
    part a tree does not compute)."""
    if expr in names:
        name = names[expr]
        return {"var": name} if entries[name]["kind"] != "array" else None
    if expr.is_Integer:
        return {"const": int(expr)}
    if expr.is_Rational or expr.is_Float or (expr.is_number and expr.is_extended_real
                                             and expr.is_finite):  # π / 2, √2
        return {"const": float(expr)}
    if expr.is_Add:  # a - b rather than a + (-1) · b
        terms = sorted(expr.args, key=_negated)
        trees = [expr_tree(-t if _negated(t) and i else t, names, entries)
                 for i, t in enumerate(terms)]
        if any(t is None for t in trees):
            return None
        out = trees[0]
        for term, tree in zip(terms[1:], trees[1:]):
            out = {"op": "sub" if _negated(term) else "add", "args": [out, tree]}
        return out
    if expr.is_Mul or type(expr) in _TREE_FUNCTIONS:
        args = [expr_tree(arg, names, entries) for arg in expr.args]
        if any(a is None for a in args):
            return None
        op = "mul" if expr.is_Mul else _TREE_FUNCTIONS[type(expr)]
        return functools.reduce(lambda a, b: {"op": op, "args": [a, b]}, args)
    if expr.is_Pow:
        base, exponent = (expr_tree(arg, names, entries) for arg in expr.args)
        if base is None or exponent is None:
            return None
        integral = (expr.args[1].is_nonnegative and integral_tree(base, entries)
                    and integral_tree(exponent, entries))
        return {"op": "pow" if integral else "rpow", "args": [base, exponent]}
    return None


def _negated(term: sp.Basic) -> bool:
    """A term written with a minus sign (``-b``, ``-2·x``, ``-3``)."""
    return term.as_coeff_Mul()[0].is_negative is True


def integral_tree(tree: dict, entries: dict) -> bool:
    """Whether a tree computes an integer: integer constants and integer-drawn variables."""
    if "const" in tree:
        return isinstance(tree["const"], int)
    if "var" in tree:
        return entries[tree["var"]]["kind"] in INTEGER_KINDS
    return tree["op"] not in ("div", "rpow") and all(integral_tree(a, entries)
                                                     for a in tree["args"])


def tree_vars(tree: dict) -> set[str]:
    """The variables a bound tree reads."""
    if "var" in tree:
        return {tree["var"]}
    out: set[str] = set()
    for arg in tree.get("args", []):
        out |= tree_vars(arg)
    return out


def _number(value: sp.Basic) -> int | float:
    return int(value) if value.is_Integer else float(value)


# ---- the reader ---------------------------------------------------------------------------


class Constraints:
    """Adds what the translated hypotheses say to the plan's ``entries`` (drawn in ``order``)."""

    def __init__(self, statement: Statement, entries: dict, order: list[str]) -> None:
        self.entries = entries
        self.order = order
        self.names = {v.symbol: v.name for v in statement.variables}
        self.symbols = {v.name: v.symbol for v in statement.variables}
        #: Stands for the one entry an instance of an expanded ``∀`` is about.
        self.probe = sp.Dummy("entry")
        self.domains = {v.name: v.ty.domains() for v in statement.variables if v.ty.is_array}
        #: Defined variables are recomputed by the property: read hypotheses through them.
        self.unfold = [(d.symbol, d.expr) for d in reversed(statement.definitions)]

    # -- dispatch

    def constrain(self, hyp: sp.Basic) -> bool:
        """Add what ``hyp`` says; ``True`` when every draw then satisfies it by construction."""
        for symbol, expr in self.unfold:
            hyp = hyp.xreplace({symbol: expr})
        atoms = sorted(sp.And.make_args(hyp), key=sp.default_sort_key)  # a stable plan
        groups: dict[tuple, set] = {}
        done = [self._entry_instance(atom, groups) or self._atom(atom) for atom in atoms]
        return all(done) and self._instances(groups)

    def _atom(self, atom: sp.Basic) -> bool:
        """One conjunct, by its sympy class (``_constrain_<Class>``, as sympy's printers)."""
        method = getattr(self, f"_constrain_{type(atom).__name__}", None)
        return method(atom) if method is not None else False

    def _constrain_BooleanTrue(self, atom: sp.Basic) -> bool:
        return True

    def _constrain_Or(self, atom: sp.Or) -> bool:
        return self._choices(atom)

    def _constrain_FinAll(self, atom: V.FinAll) -> bool:
        return self._forall(atom)

    def _constrain_order(self, atom: Relational) -> bool:
        lhs, rhs, strict = _ORDERS[type(atom)](atom)
        if isinstance(lhs, sp.Abs):  # |e| ≤ c  ⇔  e ≤ c ∧ -e ≤ c
            return all([self._bound(lhs.args[0], rhs, strict),
                        self._bound(-lhs.args[0], rhs, strict)])
        return self._bound(lhs, rhs, strict)

    _constrain_StrictLessThan = _constrain_LessThan = _constrain_order
    _constrain_StrictGreaterThan = _constrain_GreaterThan = _constrain_order

    def _constrain_Equality(self, atom: sp.Eq) -> bool:
        """An equation the translator did not take as a definition: both bounds."""
        return all([self._bound(atom.lhs, atom.rhs, False),
                    self._bound(atom.rhs, atom.lhs, False)])

    # -- scalars

    def position(self, name: str) -> int:
        return self.order.index(name)

    def _drawn_before(self, expr: sp.Basic, limit: int) -> bool:
        """``expr`` reads only scalars drawn before position ``limit``."""
        return all(s in self.names and self.entries[self.names[s]]["kind"] != "array"
                   and self.position(self.names[s]) < limit for s in expr.free_symbols)

    def _bound(self, lhs: sp.Basic, rhs: sp.Basic, strict: bool) -> bool:
        """``lhs < rhs`` (or ``≤``) as a bound on its latest-drawn linear scalar."""
        best = None
        for target, upper, bound, scale in _solutions(lhs, rhs, self._scalar_target):
            at = self.position(self.names[target])
            if not (self._drawn_before(bound, at) and self._drawn_before(scale, at)):
                continue
            if best is None or at > best[0]:
                best = (at, target, upper, bound, scale)
        if best is None:
            return False
        _, target, upper, bound, scale = best
        entry = self.entries[self.names[target]]
        made = self._bound_dicts(bound, scale, upper, strict, entry["kind"])
        for side, bound_dict in made:
            entry["hi" if side else "lo"].append(bound_dict)
        return bool(made) and entry["kind"] in ("nat", "int", "real", "fin")

    def _scalar_target(self, atom: sp.Basic) -> bool:
        name = self.names.get(atom)
        return name is not None and self.entries[name]["kind"] in _BOUNDED_KINDS

    def _bound_dicts(self, bound: sp.Basic, scale: sp.Basic, upper: bool, strict: bool,
                     kind: str) -> list[tuple[bool, dict]]:
        """``scale · target ≤ bound`` (``≥`` unless ``upper``; strict as said) as plan bounds
        on ``target``, each ``(upper, {"const"} / {"var", "offset"} / {"expr"} with "strict")``
        (``[]`` when a tree cannot compute it). A factor of unknown sign gives two bounds, each
        in force for one sign (:data:`mirror.sample.ranges.FACTOR_DIVISIONS`)."""
        tree = expr_tree(bound, self.names, self.entries)
        factor = expr_tree(scale, self.names, self.entries)
        if tree is None or factor is None:
            return []
        if scale == 1:
            if "const" in tree:
                return [(upper, {"const": tree["const"], "strict": strict})]
            offset, rest = bound.as_coeff_Add()
            if rest in self.names:
                made = {"var": self.names[rest], "offset": _number(offset), "strict": strict}
                return [(upper, made)]
            return [(upper, {"expr": tree, "strict": strict})]
        if scale.is_number:  # a positive numeral
            if not (kind in INTEGER_KINDS and scale.is_Integer
                    and integral_tree(tree, self.entries)):
                return [(upper, {"expr": {"op": "div", "args": [tree, factor]},
                                 "strict": strict})]
            signs = ("pos",)
        else:  # the signs the factor can have
            signs = tuple(sign for sign, excluded in (("pos", scale.is_nonpositive),
                                                      ("neg", scale.is_nonnegative))
                          if not excluded)
        rounded = kind in INTEGER_KINDS
        if rounded and strict:  # scale · target < b  ⇔  scale · target ≤ b - 1 on integers
            tree = {"op": "add", "args": [tree, {"const": -1 if upper else 1}]}
        out = []
        for sign in signs:
            side = upper if sign == "pos" else not upper  # dividing by a negative flips
            rounding = ("floordiv" if side else "ceildiv") if rounded else (
                "upper_div" if side else "lower_div")
            out.append((side, {"expr": {"op": f"{sign}_{rounding}", "args": [tree, factor]},
                               "strict": strict and not rounded}))
        return out

    def _choices(self, atom: sp.Or) -> bool:
        """``a = c₁ ∨ a = c₂ ∨ …`` → a finite choice."""
        values: list[int | float] = []
        chosen = set()
        for case in atom.args:
            if not isinstance(case, sp.Eq):
                return False
            sides = [(v, c) for v, c in (case.args, case.args[::-1])
                     if self._scalar_target(v) and c.is_number and c.is_real]
            if not sides:
                return False
            chosen.add(sides[0][0])
            values.append(_number(sides[0][1]))
        if len(chosen) != 1:
            return False
        self.entries[self.names[chosen.pop()]]["choices"] = values
        return True

    # -- array entries

    def _forall(self, hyp: V.FinAll) -> bool:
        """``∀ i j, [premise →] atoms``: element bounds, fills, masked fills and copies."""
        axes: list[tuple[sp.Basic, sp.Basic, sp.Basic]] = []
        body = hyp
        while isinstance(body, V.FinAll):
            lam, lo, hi = body.args
            if not isinstance(lam, sp.Lambda):
                return False
            axes.append((lam.variables[0], lo, hi))
            body = lam.expr
        premise = None
        if isinstance(body, sp.Implies):
            premise, body = body.args
        dummies = tuple(d for d, _, _ in axes)
        ok = True
        for atom in sp.And.make_args(body):
            array = self._quantified_array(atom, dummies)
            if array is None:
                ok = False
                continue
            ok = self._entry_rule(atom, dummies, self._mask(array, axes, premise)) and ok
        return ok

    def _quantified_array(self, atom: sp.Basic, dummies: tuple) -> str | None:
        """An array ``atom`` reads at exactly the quantified indices."""
        for read in sorted(atom.atoms(V.Index), key=sp.default_sort_key):
            name = self.names.get(read.args[0])
            if read.args[1:] == dummies and name is not None \
                    and self.entries[name]["kind"] == "array":
                return name
        return None

    def _mask(self, array: str, axes: list, premise: sp.Basic | None) -> list[dict] | None:
        """The index conditions of a quantifier over ``array``'s entries (or its rows, the
        quantified indices being its first): ``[]`` for all of them, ``[rule]`` for one
        relation, ``None`` when they are not one relation."""
        domains = self.domains[array]
        if len(domains) < len(axes):
            return None
        dummies = [d for d, _, _ in axes]
        conditions = []
        for (dummy, lo, hi), dom in zip(axes, domains):
            size = dom.args[0] if dom.kind == "Fin" else NAT_DOMAIN
            if lo != 0:
                conditions.append(("ge", dummy, lo))
            if hi != size:
                conditions.append(("lt", dummy, hi))
        if premise is not None:
            if type(premise) not in _MASK_RELS:
                return None
            conditions.append((_MASK_RELS[type(premise)], premise.lhs, premise.rhs))
        if len(conditions) > 1:
            return None
        rules = [self._index_rule(rel, a, b, dummies) for rel, a, b in conditions]
        return None if None in rules else rules

    def _index_rule(self, rel: str, left: sp.Basic, right: sp.Basic,
                    dummies: list) -> dict | None:
        """``left rel right`` between an index and an index or an integer scalar (``± 1``)."""
        if left not in dummies:
            left, right, rel = right, left, _REVERSED[rel]
        if left not in dummies:
            return None
        offset, base = right.as_coeff_Add()
        if offset != 0:
            rel = _SHIFTED.get((rel, offset))
            if rel is None:
                return None
        rule = {"rel": rel, "a": dummies.index(left)}
        if base in dummies:
            return {**rule, "b": dummies.index(base)}
        name = self.names.get(base)
        if name is not None and self.entries[name]["kind"] in INTEGER_KINDS:
            return {**rule, "var": name}
        return None

    def _entry_rule(self, atom: sp.Basic, dummies: tuple, mask: list[dict] | None) -> bool:
        """One atom over the entries ``mask`` selects (``[]``: all; ``None``: a set that is
        not one index relation). An equality fills or copies the selected entries; a bound
        holds for all of the array's entries (so that it holds for the selected ones: the
        draws are not rejected one entry in two, at the cost of the unselected entries)."""
        if isinstance(atom, (sp.Eq, V.ArrayEq)):  # entries, or rows x s = x' s
            return mask is not None and self._entry_equality(atom, dummies, mask)
        if type(atom) not in _ORDERS:
            return False
        lhs, rhs, strict = _ORDERS[type(atom)](atom)
        if isinstance(lhs, sp.Abs):  # |a i| ≤ c  ⇔  a i ≤ c ∧ -c ≤ a i: drawn inside
            return all([self._entry_bound(lhs.args[0], rhs, strict, dummies),
                        self._entry_bound(-lhs.args[0], rhs, strict, dummies)])
        return self._entry_bound(lhs, rhs, strict, dummies)

    def _entry_bound(self, lhs: sp.Basic, rhs: sp.Basic, strict: bool, dummies: tuple) -> bool:
        """``lhs < rhs`` (or ``≤``) as a bound on the entries of the array it reads at the
        quantified indices."""
        target = lambda a: isinstance(a, V.Index) and a.args[1:] == dummies  # noqa: E731
        for array_at, upper, bound, scale in _solutions(lhs, rhs, target):
            entry = self.entries.get(self.names.get(array_at.args[0]), {})
            if entry.get("kind") != "array" or not scale.is_number:
                continue
            if not self._drawn_before(bound, len(self.order)):
                continue
            made = self._bound_dicts(bound, scale, upper, strict, entry["elem"])
            for side, bound_dict in made:  # a numeral scale: one bound
                entry["elem_hi" if side else "elem_lo"] = bound_dict
            if made:
                return True
        return False

    def _entry_equality(self, atom: sp.Basic, dummies: tuple, mask: list[dict]) -> bool:
        reads = [self.names.get(side.args[0]) for side in atom.args
                 if isinstance(side, V.Index) and side.args[1:] == dummies]
        if len(reads) == 2 and None not in reads and reads[0] != reads[1]:
            first, second = sorted(reads, key=self.position)
            if self.entries[first]["kind"] != "array":
                return False
            if not mask:
                self.entries[second]["copy"] = first
            else:
                self.entries[second].setdefault("set_where", []).append(
                    {"when": mask[0], "value": {"copy": first}})
            return True
        values = [side for side in atom.args if side.is_number and side.is_real]
        if len(reads) != 1 or reads[0] is None or len(values) != 1:
            return False
        entry = self.entries[reads[0]]
        if not mask:
            entry["fill"] = _number(values[0])
        else:
            entry.setdefault("set_where", []).append({"when": mask[0],
                                                      "value": _number(values[0])})
        return True

    # -- an expanded ∀: its instances, one per entry

    def _entry_instance(self, atom: sp.Basic, groups: dict) -> bool:
        """Record ``atom`` when it is a fact about one entry ``A[2, 0]`` of an array (an
        instance of a ``∀`` the translator expanded over a numeral domain)."""
        if not (type(atom) in _ORDERS or isinstance(atom, sp.Eq)):
            return False
        found = [s for s in atom.args if isinstance(s, V.Index)
                 and all(i.is_Integer for i in s.args[1:])]
        if len(found) != 1 or found[0].args[0] not in self.names:
            return False
        at = found[0]
        name = self.names[at.args[0]]
        fact = atom.xreplace({at: self.probe})
        if self.entries[name]["kind"] != "array" or fact.has(V.Index):
            return False
        groups.setdefault((name, fact), set()).add(tuple(int(i) for i in at.args[1:]))
        return True

    def _instances(self, groups: dict) -> bool:
        """Each recorded fact as one rule over the entries it is about (all of the array's,
        those of one index relation, or another set: :meth:`_entry_rule`)."""
        ok = True
        for (name, fact), where in groups.items():
            sizes = [d.args[0] if d.kind == "Fin" else None for d in self.domains[name]]
            if not all(isinstance(s, sp.Integer) for s in sizes):
                ok = False
                continue
            grid = set(itertools.product(*(range(int(s)) for s in sizes)))
            dummies = tuple(sp.Dummy(f"i{k}") for k in range(len(sizes)))
            atom = fact.xreplace({self.probe: V.Index(self.symbols[name], *dummies)})
            masks = [[]] if where == grid else [
                [{"rel": rel, "a": a, "b": b}] for rel, test in _MASK_TESTS.items()
                for a, b in itertools.permutations(range(len(sizes)), 2)
                if where == {i for i in grid if test(i[a], i[b])}]
            ok = self._entry_rule(atom, dummies, masks[0] if masks else None) and ok
        return ok


def _solutions(lhs: sp.Basic, rhs: sp.Basic, is_target: Callable[[sp.Basic], bool]):
    """Each way to read ``lhs ≤ rhs`` as ``scale · target ≤ bound`` (``upper``) or ``≥``:
    ``(target, upper, bound, scale)``, ``scale`` with a positive numeral coefficient."""
    for side, other, on_left in ((lhs, rhs, True), (rhs, lhs, False)):
        terms = sp.Add.make_args(side)
        for index, term in enumerate(terms):
            for target, coefficient in _factorings(term, is_target):
                rest = sp.Add(*terms[:index], *terms[index + 1:])
                bound = other - rest
                if bound.has(target) or coefficient.has(target):
                    continue
                sign, scale = coefficient.as_coeff_Mul()
                if scale.is_number:  # 1 - √2: the whole numeral is the sign's to say
                    sign, scale = coefficient, sp.Integer(1)
                if not sign.is_extended_real or sign.is_zero is not False:
                    continue  # a complex (or zero) coefficient orders nothing
                upper = on_left
                if sign.is_negative:
                    sign, bound, upper = -sign, -bound, not upper
                yield target, upper, bound, sign * scale


def _factorings(term: sp.Basic, is_target: Callable[[sp.Basic], bool]):
    """``term`` as ``coefficient · target`` for each target factor of it."""
    if is_target(term):
        yield term, sp.Integer(1)
    elif isinstance(term, sp.Mul):
        for index, factor in enumerate(term.args):
            if is_target(factor):
                yield factor, sp.Mul(*term.args[:index], *term.args[index + 1:])


__all__ = ["Constraints", "expr_tree", "integral_tree", "tree_vars"]
