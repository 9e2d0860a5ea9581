"""Least and greatest elements of a set, by Mathlib's definitions (Lean-term rewrites).

=============================  ==========================================================
Lean                           rewritten to (Mathlib's definition, ``Mathlib/Order/Bounds``)
=============================  ==========================================================
``IsLeast s a``                ``a ∈ s ∧ a ∈ lowerBounds s``
``IsGreatest s a``             ``a ∈ s ∧ a ∈ upperBounds s``
``a ∈ lowerBounds s``          ``∀ x : α, x ∈ s → a ≤ x``
``a ∈ upperBounds s``          ``∀ x : α, x ∈ s → x ≤ a``
``a ∈ f '' s`` (``Set.image``)  ``∃ x, x ∈ s ∧ f x = a`` (``Set.mem_image``)
=============================  ==========================================================

A bound on a set given as an image, ``{t | ∃ x y, P x y ∧ t = e x y}`` (the equation
``t = e`` or ``e = t`` a conjunct, ``t`` nowhere else), is read by the one-point rule
(``forall_exists_index``, ``forall_eq``): ``∀ t, (∃ x y, P ∧ t = e) → a ≤ t`` is
``∀ x y, P → a ≤ e``, with ``e`` elaborated at ``t``'s type, exactly; the same for
``∀ x ∈ s, a ≤ f x`` of ``f '' s``. The quantifiers over ℝ are then sampled (a failing draw
refutes) or proved over a box (:mod:`mirror.judge.boxes`); nothing is truncated.

On ℕ (a linear order) ``∀ x, x ∈ s → a ≤ x`` is read as its contrapositive
``∀ x : ℕ, x < a → x ∉ s`` (``not_le``), a quantifier the translator bounds exactly by
``x < a``: ``IsLeast {x : ℕ | p x} 39`` is decided at ``x = 0 … 38``, never truncated.

``α`` is the element type of ``s``: a set-builder's binder (``{n : ℕ | …}``), the binder of
``s`` (``(S : Set ℕ)``, ``Finset ℕ``), an ascription, or the binder of ``a``; when none is
written the quantifier's binder is left untyped and typed from its use (or the row is
``cannot infer the type``).
"""

from __future__ import annotations

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.number_theory import DVD
from mirror.translate.term_rewriter import TermRewriter, rewrite_declaration
from mirror.translate.values import binop_leaves

#: Lean constant → the bound it states (``lower``/``upper``).
EXTREMA = {"IsLeast": "lower", "IsGreatest": "upper"}
#: The bound sets: Lean constant → which bound.
BOUNDS = {"lowerBounds": "lower", "upperBounds": "upper"}


def _c(name: str, *args: T.Term) -> T.App:
    return T.App(T.Const(name), tuple(args))


def _is(t: T.Term, name: str, arity: int) -> bool:
    return (isinstance(t, T.App) and isinstance(t.fn, T.Const) and t.fn.name == name
            and len(t.args) == arity)


def _collection_element(ty: T.Term | None) -> T.Term | None:
    """``α`` of ``Set α`` / ``Finset α``."""
    if ty is not None and (_is(ty, "Set", 1) or _is(ty, "Finset", 1)):
        return ty.args[0]
    return None


class _Extrema(TermRewriter):
    def __init__(self, types: dict[str, T.Term], taken: set[str]) -> None:
        super().__init__(taken)
        self.types = types

    def element_type(self, s: T.Term, a: T.Term) -> T.Term | None:
        if _is(s, "setOf", 1) and isinstance(s.args[0], T.Lam) \
                and len(s.args[0].binders) == 1 and s.args[0].binders[0].type is not None:
            return s.args[0].binders[0].type
        if _numeral_default(s, a):
            return T.Const("Nat")
        if isinstance(s, T.Typed):
            return _collection_element(s.type)
        if isinstance(s, T.Var):
            found = _collection_element(self.types.get(s.name))
            if found is not None:
                return found
        if isinstance(a, T.Typed):
            return a.type
        if isinstance(a, T.Var):
            return self.types.get(a.name)
        return None

    def ascribed(self, s: T.Term, a: T.Term) -> T.Term:
        """``a`` elaborated at the element type, as Lean elaborates ``IsLeast s a`` (``a : α``):
        ``2 * a * b - a`` of ℕ variables in a ``Set ℤ`` is an integer subtraction."""
        ty = self.element_type(s, a)
        return a if ty is None or isinstance(a, T.Typed) else T.Typed(a, ty)

    def bound(self, which: str, s: T.Term, a: T.Term) -> T.Term:
        ty = self.element_type(s, a)
        if isinstance(s, T.Typed) and ty is not None:
            s = s.expr  # `({1, 2} : Set ℕ)`: the element type is on the quantifier's binder
        if not (which == "lower" and ty == T.Const("Nat")):
            image = _image_bound(which, s, a, ty, self.types, self.fresh("x_image"))
            if image is not None:
                return image
        x = T.Var(self.fresh("x_bound"))
        if which == "lower" and ty == T.Const("Nat"):
            body = T.Pi((T.Binder("_", _c("LT.lt", x, a)),),
                        _c("Not", _c("Membership.mem", s, x)))
        else:
            rel = _c("LE.le", a, x) if which == "lower" else _c("LE.le", x, a)
            body = T.Pi((T.Binder("_", _c("Membership.mem", s, x)),), rel)
        return T.Pi((T.Binder(x.name, ty),), body)

    def term(self, t: T.Term) -> T.Term:
        if isinstance(t, T.App):
            args = [self.term(a) for a in t.args]
            head = t.fn
            if isinstance(head, T.Const) and head.name in EXTREMA and len(args) == 2:
                s, a = args
                s = _typed_image(s, self.element_type(s, a))
                a = self.ascribed(s, a)
                member = (_image_member(*s.args, a, self.types, self.fresh("x_image")) if _is(s, "Set.image", 2)
                          else _c("Membership.mem", s, a))
                return _c("And", member, self.bound(EXTREMA[head.name], s, a))
            if _is(t, "Membership.mem", 2) and isinstance(args[0], T.App) \
                    and isinstance(args[0].fn, T.Const) and args[0].fn.name in BOUNDS \
                    and len(args[0].args) == 1:
                bounded = _typed_image(args[0].args[0],
                                       self.element_type(args[0].args[0], args[1]))
                return self.bound(BOUNDS[args[0].fn.name], bounded, self.ascribed(bounded, args[1]))
            if _is(t, "Membership.mem", 2) and _is(args[0], "Set.image", 2):
                return _image_member(*args[0].args, args[1], self.types, self.fresh("x_image"))
            return T.App(self.term(head), tuple(args), t.ty)
        return self.structural(t)


#: Constants that leave the type of their operands open (each is generic over the type, and
#: none is a function of a fixed type that unification would read it off).
_GENERIC = frozenset({
    "HAdd.hAdd", "HSub.hSub", "HMul.hMul", "HDiv.hDiv", "HMod.hMod", "HPow.hPow", "Neg.neg",
    "Eq", "Ne", "LT.lt", "LE.le", "GT.gt", "GE.ge", "And", "Or", "Not", "Iff", "Dvd.dvd",
    "Finset.sum", "Finset.prod", "Finset.Icc", "Finset.Ico", "Finset.Ioc", "Finset.Ioo",
    "Membership.mem", "Even", "Odd", "True", "False", DVD})


def _numeral_default(s: T.Term, a: T.Term) -> bool:
    """``IsLeast {n | p n} 24`` with ``n`` untyped: whether nothing but the numeral fixes the
    element type, so that Lean's default instance for numerals makes it ℕ. Only when ``a``
    is a numeral, ``p`` mentions no variable but its own bound ones and no constant outside
    :data:`_GENERIC` (``Real.sqrt n`` would make it ℝ, ``n < k`` with ``k : ℤ`` an integer)."""
    if not (isinstance(a, T.Lit) and isinstance(a.value, int) and _is(s, "setOf", 1)
            and isinstance(s.args[0], T.Lam) and len(s.args[0].binders) == 1):
        return False
    lam = s.args[0]
    if T.free_vars(lam):
        return False
    for node in T.walk(lam.body):
        if isinstance(node, T.Const) and node.name not in _GENERIC:
            return False
        if isinstance(node, (T.Lam, T.Pi)) and any(b.type is not None for b in node.binders):
            return False
        if isinstance(node, (T.Typed, T.Coe, T.Proj, T.Anon, T.Let)):
            return False
        if isinstance(node, T.Lit) and not isinstance(node.value, int):
            return False
    return True


def _conjuncts(t: T.Term) -> list[T.Term]:
    if _is(t, "And", 2):
        return _conjuncts(t.args[0]) + _conjuncts(t.args[1])
    return [t]


def _implies(premises: list[T.Term], conclusion: T.Term) -> T.Term:
    for p in reversed(premises):
        conclusion = T.Pi((T.Binder("_", p),), conclusion)
    return conclusion


def _relation(which: str, a: T.Term, e: T.Term) -> T.Term:
    return _c("LE.le", a, e) if which == "lower" else _c("LE.le", e, a)


def _lam_parts(f: T.Term, types: dict[str, T.Term], name: str,
               avoid: frozenset[str]) -> tuple[T.Binder, T.Term]:
    """``f`` as ``fun x => body``: its own binder, or ``name`` applied (typed by the domain of
    ``f``'s declared type ``α → β`` when it has one) — also where its own binder's name is in
    ``avoid`` (the terms the binder would capture)."""
    if isinstance(f, T.Lam) and len(f.binders) == 1:
        if f.binders[0].name not in avoid:
            return f.binders[0], f.body
        return T.Binder(name, f.binders[0].type), T.App(f, (T.Var(name),))
    domain = None
    declared = types.get(f.name) if isinstance(f, T.Var) else None
    if isinstance(declared, T.Pi) and len(declared.binders) == 1:
        domain = declared.binders[0].type
    return T.Binder(name, domain), T.App(f, (T.Var(name),))


def _image_bound(which: str, s: T.Term, a: T.Term, ty: T.Term | None,
                 types: dict[str, T.Term], name: str) -> T.Term | None:
    """The bound of an image set by the one-point rule (module doc), ``None`` when ``s`` is
    not one in the form read here."""
    if _is(s, "Set.image", 2):
        x, body = _lam_parts(s.args[0], types, name, T.free_vars(a) | T.free_vars(s.args[1]))
        return T.Pi((x,), _implies([_c("Membership.mem", s.args[1], T.Var(x.name))],
                                   _relation(which, a, body)))
    if not (_is(s, "setOf", 1) and isinstance(s.args[0], T.Lam) and len(s.args[0].binders) == 1):
        return None
    t = s.args[0].binders[0].name
    body, binders = s.args[0].body, []
    while _is(body, "Exists", 1) and isinstance(body.args[0], T.Lam):
        binders.extend(body.args[0].binders)
        body = body.args[0].body
    names = [b.name for b in binders]
    if not binders or t in names or len(set(names)) != len(names) \
            or set(names) & (T.free_vars(a) | {t}):
        return None
    conjuncts = _conjuncts(body)
    for k, conj in enumerate(conjuncts):
        if not _is(conj, "Eq", 2):
            continue
        lhs, rhs = conj.args
        e = rhs if lhs == T.Var(t) else lhs if rhs == T.Var(t) else None
        rest = conjuncts[:k] + conjuncts[k + 1:]
        if e is None or t in T.free_vars(e) or any(t in T.free_vars(r) for r in rest):
            continue
        if ty is not None:
            e = T.Typed(e, ty)  # `t = e` elaborates `e` at `t`'s type
        return T.Pi(tuple(binders), _implies(rest, _relation(which, a, e)))
    return None


_ARITH_NODES = frozenset({"HAdd.hAdd", "HSub.hSub", "HMul.hMul", "HDiv.hDiv", "Neg.neg"})


#: The parents an operand unified with the set's element may have.
_UNIFYING = _ARITH_NODES | {"HMod.hMod", "HPow.hPow", "Eq", "Ne", "LT.lt", "LE.le", "GT.gt",
                            "GE.ge"}


def _only_unified(name: str, body: T.Term, company: set[str]) -> bool:
    """Is every use of ``name`` in ``body`` an operand of arithmetic or a relation (never a
    function's argument, an exponent, a membership, an ascription), and is every other operand
    there a numeral or a variable of ``company``? Then nothing but the set's ``t = e`` fixes its
    type, whatever order Lean elaborates the conjuncts in (``x < k ∧ t = x`` with ``k : ℕ`` makes
    ``x`` natural, and is not read here)."""
    var = T.Var(name)
    for node in T.walk(body):
        for position, child in enumerate(T.children(node)):
            if child != var:
                continue
            if not (isinstance(node, T.App) and isinstance(node.fn, T.Const)
                    and node.fn.name in _UNIFYING and position > 0):
                return False
            if node.fn.name == "HPow.hPow" and position == 2:
                return False  # (children: the head first, then the arguments)
            operands = [leaf for arg in node.args for leaf in binop_leaves(arg)]
            if not all(isinstance(leaf, T.Lit) or (isinstance(leaf, T.Var)
                                                   and leaf.name in company)
                       for leaf in operands):
                return False
    return True


def _typed_image(s: T.Term, ty: T.Term | None) -> T.Term:
    """``{t : α | ∃ x y, t = e ∧ …}`` with the untyped ``x, y`` that are operands of ``e`` and
    used nowhere else but in arithmetic and relations typed ``α``: Lean elaborates ``t = e``
    by ``binrel%``, which unifies ``e``'s operands with ``t : α`` (``{u : ℝ | ∃ x y, u = x ^ 2
    + y ^ 2 ∧ …}`` has real ``x, y``). ``s`` unchanged when it is not of that form."""
    if ty is None or not (_is(s, "setOf", 1) and isinstance(s.args[0], T.Lam)
                          and len(s.args[0].binders) == 1):
        return s
    t = T.Var(s.args[0].binders[0].name)
    chain, body = [], s.args[0].body
    while _is(body, "Exists", 1) and isinstance(body.args[0], T.Lam):
        chain.append(body.args[0].binders)
        body = body.args[0].body
    untyped = {b.name for bs in chain for b in bs if b.type is None}
    if not untyped:
        return s
    leaves: set[str] = set()
    for conj in _conjuncts(body):
        if _is(conj, "Eq", 2) and t in conj.args:
            e = conj.args[1] if conj.args[0] == t else conj.args[0]
            leaves |= {leaf.name for leaf in binop_leaves(e) if isinstance(leaf, T.Var)}
    company = untyped | {t.name}
    typed = {n for n in untyped & leaves if _only_unified(n, body, company)}
    if not typed:
        return s
    out = body
    for bs in reversed(chain):
        bs = tuple(T.Binder(b.name, ty, b.info) if b.name in typed else b for b in bs)
        out = _c("Exists", T.Lam(bs, out))
    return T.App(s.fn, (T.Lam(s.args[0].binders, out),), s.ty)


def _image_member(f: T.Term, base: T.Term, a: T.Term, types: dict[str, T.Term],
                  name: str) -> T.Term:
    """``a ∈ f '' base`` as ``∃ x, x ∈ base ∧ f x = a`` (``Set.mem_image``)."""
    x, value = _lam_parts(f, types, name, T.free_vars(a) | T.free_vars(base))
    body = _c("And", _c("Membership.mem", base, T.Var(x.name)), _c("Eq", value, a))
    return _c("Exists", T.Lam((x,), body))


def _mentions(t: T.Term) -> bool:
    return any(isinstance(n, T.Const) and (n.name in EXTREMA or n.name in BOUNDS
                                           or n.name == "Set.image") for n in T.walk(t))


def rewrite_extrema(decl: Declaration) -> Declaration:
    """``decl`` with ``IsLeast``/``IsGreatest``/``lowerBounds``/``upperBounds`` replaced by
    their definitions (unchanged when it names none)."""
    types = {b.name: b.type for b in decl.binders if b.type is not None}
    return rewrite_declaration(decl, _mentions, lambda taken: _Extrema(types, taken))


__all__ = ["BOUNDS", "EXTREMA", "rewrite_extrema"]
