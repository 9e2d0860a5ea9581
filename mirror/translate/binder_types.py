"""Types of untyped binders in a statement's prefix, from what their uses force.

``∀ f : ℕ → ℝ, ∀ n, …`` leaves ``n`` untyped in the source; Lean elaborates it from its uses.
The evidence read here: an argument of a function binder (its domain), of ``Finset.range``,
``Fin`` and the other functions of naturals, an endpoint of the interval a sum ranges over
(its binder's type), an ascription ``(n : T)``, a relation or an
arithmetic tree with a variable (or an applied function binder) of a known scalar type, and
``n ∈ range m``. One consistent answer types the binder; none or several leave it untyped
(the translator then says so). A binder whose only company is numerals (``∀ n, n = 0``)
is ℕ, by Lean's default instance for numerals (:func:`among_numerals`).
"""

from __future__ import annotations

from typing import Iterator

from bridge import term as T
from mirror.translate.lean_terms import NAT, is_call

#: Functions whose arguments are natural numbers (evidence for an untyped binder).
NAT_ARGUMENTS = frozenset({"Finset.range", "Fin", "Nat.factorial", "Nat.choose", "Nat.succ",
                           "List.range", "Nat.Prime", "Nat.fib"})
SCALARS = frozenset({"Nat", "Int", "Rat", "Real", "Complex"})
#: Homogeneous operations and relations (Lean's ``binop%``/``binrel%``: one type for all leaves).
_ARITH = frozenset({"HAdd.hAdd", "HSub.hSub", "HMul.hMul", "HDiv.hDiv", "HMod.hMod", "Eq", "Ne",
                    "LT.lt", "LE.le", "GT.gt", "GE.ge", "max", "min", "Dvd.dvd"})
REAL = T.Const("Real")
#: Leaves whose type is known: constants, and functions by their value type.
_CONSTANT_TYPES = {"Real.pi": REAL}
_VALUE_TYPES = {**{f: REAL for f in ("Real.sqrt", "Real.exp", "Real.log", "Real.sin", "Real.cos",
                                     "Real.tan", "Real.arctan", "Real.sinh", "Real.cosh")},
                **{f: NAT for f in ("Nat.factorial", "Nat.choose", "Nat.fib", "Nat.log",
                                    "Nat.sqrt", "Nat.succ", "Nat.digits#sum",
                                    "Nat.digits#length", "Nat.digits#get", "Rat.den")},
                "Rat.num": T.Const("Int")}


def _leaves(term: T.Term) -> Iterator[T.Term]:
    if is_call(term, *_ARITH):
        for arg in term.args:
            yield from _leaves(arg)
    else:
        yield term


def _evidence(name: str, terms: list[T.Term], types: dict[str, T.Term]) -> set[T.Term]:
    """The types the uses of ``name`` in ``terms`` force on it: those unification fixes
    (:func:`_unified`) when there are any, else those of the arithmetic it is a leaf of.

    Lean elaborates an application's argument against the function's domain, which assigns
    the binder's type there and then; only after the leaves of a ``binop%`` tree are
    elaborated does it compute their common type and coerce the others into it. So in
    ``∀ n, a n = n`` with ``a : ℕ → ℝ`` the binder is ℕ (the right side is ``↑n``), not ℝ."""
    unified = _unified(name, terms, types)
    return unified if unified else _arithmetic(name, terms, types)


def _unified(name: str, terms: list[T.Term], types: dict[str, T.Term]) -> set[T.Term]:
    """Types fixed by unification: an ascription, the domain of a function binder applied to
    the variable, an argument of a function of naturals, ``n ∈ range m``."""
    var = T.Var(name)
    found: set[T.Term] = set()
    for term in terms:
        for node in T.walk(term):
            if isinstance(node, T.Typed) and node.expr == var:
                found.add(node.type)
            if not isinstance(node, T.App):
                continue
            if isinstance(node.fn, T.Var) and isinstance(types.get(node.fn.name), T.Pi):
                domains = _domains(types[node.fn.name])
                for arg, dom in zip(node.args, domains):
                    if arg == var and T.free_vars(dom) <= set(types):
                        found.add(dom)
            if is_call(node, *NAT_ARGUMENTS) and var in node.args:
                found.add(NAT)
            if is_call(node, "Membership.mem") and len(node.args) == 2 and node.args[1] == var:
                if is_call(node.args[0], "Finset.range"):
                    found.add(NAT)
            found |= _interval_evidence(var, node, types)
    return found


#: Intervals ``α → α → Finset α`` and the operators that range over a finset with a lambda.
INTERVALS = frozenset({"Finset.Icc", "Finset.Ico", "Finset.Ioc", "Finset.Ioo"})
BIG_OPERATORS = frozenset({"Finset.sum", "Finset.prod"})


def _interval_evidence(var: T.Var, node: T.Term, types: dict[str, T.Term]) -> set[T.Term]:
    """An endpoint of the interval a sum or product ranges over (``∑ i ∈ Icc 1 n, a i``) has
    the interval's element type: the other endpoint's, else that of the operator's binder
    (written, or fixed by the body: ``a i`` with ``a : ℕ → ℝ``)."""
    if not (is_call(node, *BIG_OPERATORS) and len(node.args) == 2
            and is_call(node.args[0], *INTERVALS) and var in node.args[0].args
            and isinstance(node.args[1], T.Lam) and len(node.args[1].binders) == 1):
        return set()
    for other in node.args[0].args:
        ty = _leaf_type(other, types) if other != var else None
        if isinstance(ty, T.Const) and ty.name in SCALARS:
            return {ty}
    binder = node.args[1].binders[0]
    if binder.name == var.name:
        return set()
    if binder.type is not None:
        return {binder.type}
    return _unified(binder.name, [node.args[1].body], types)


def _arithmetic(name: str, terms: list[T.Term], types: dict[str, T.Term]) -> set[T.Term]:
    """Types of the other leaves of an arithmetic tree or relation the variable is a leaf of
    (one type for all leaves, when nothing else fixed the variable's)."""
    var = T.Var(name)
    found: set[T.Term] = set()
    for term in terms:
        for node in T.walk(term):
            leaves = list(_leaves(node)) if is_call(node, *_ARITH) else []
            if var in leaves:
                for leaf in leaves:
                    ty = _leaf_type(leaf, types)
                    if leaf != var and isinstance(ty, T.Const) and ty.name in SCALARS:
                        found.add(ty)
    return found


def _leaf_type(leaf: T.Term, types: dict[str, T.Term]) -> T.Term | None:
    """The type of a variable, or of a function binder fully applied (its codomain)."""
    if isinstance(leaf, T.Var):
        return types.get(leaf.name)
    if isinstance(leaf, T.Typed):
        return leaf.type
    if isinstance(leaf, T.Const):
        return _CONSTANT_TYPES.get(leaf.name)
    if isinstance(leaf, T.App) and isinstance(leaf.fn, T.Const):
        return _VALUE_TYPES.get(leaf.fn.name)
    if isinstance(leaf, T.App) and isinstance(leaf.fn, T.Var):
        ty = types.get(leaf.fn.name)
        if isinstance(ty, T.Pi) and len(_domains(ty)) == len(leaf.args):
            while isinstance(ty, T.Pi):
                ty = ty.body
            return ty
    return None


def _domains(ty: T.Term) -> list[T.Term]:
    out: list[T.Term] = []
    while isinstance(ty, T.Pi):
        out.extend(b.type for b in ty.binders)
        ty = ty.body
    return out


def _numeral_company(name: str, body: T.Term) -> tuple[bool, bool]:
    """Whether every use of ``name`` in ``body`` is as a leaf of arithmetic or a relation whose
    other leaves are all numerals, and whether some numeral is among those leaves."""
    var = T.Var(name)
    uses = sum(1 for node in T.walk(body) if node == var)
    placed, numeral = 0, False
    for node in T.walk(body):
        if not (isinstance(node, T.App) and var in node.args):
            continue
        if not is_call(node, *_ARITH):
            return False, False
        leaves = [leaf for leaf in _leaves(node) if leaf != var]
        if any(not isinstance(leaf, T.Lit) for leaf in leaves):
            return False, False
        numeral = numeral or bool(leaves)
        placed += sum(1 for arg in node.args if arg == var)
    return uses > 0 and placed == uses, numeral


def among_numerals(name: str, body: T.Term) -> bool:
    """Whether every use of ``name`` in ``body`` is as a leaf of arithmetic or a relation whose
    other leaves are all numerals, and there is one (``n = 0``, ``n + n = 4``): nothing but
    Lean's default instance for numerals types it, and that makes it ℕ. Without a numeral
    (``n = n``) nothing types it at all: Lean fails to infer the binder's type."""
    placed, numeral = _numeral_company(name, body)
    return placed and numeral


def infer_types(binders: list[T.Binder], body: T.Term) -> list[T.Binder]:
    """Prefix binders with the types their uses force filled in (one consistent answer)."""
    out = list(binders)
    for index, binder in enumerate(out):
        if binder.type is not None or binder.name == "_":
            continue
        types = {b.name: b.type for b in out if b.type is not None}
        later = [b.type for b in out[index + 1:] if b.type is not None] + [body]
        found = _evidence(binder.name, later, types)
        company = [_numeral_company(binder.name, t) for t in later
                   if binder.name in T.free_vars(t)]
        if not found and company and all(placed for placed, _ in company) \
                and any(numeral for _, numeral in company):
            found = {NAT}
        if len(found) == 1:
            out[index] = T.Binder(binder.name, found.pop(), binder.info)
    return out
