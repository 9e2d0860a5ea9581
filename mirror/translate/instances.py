"""Instances: a statement over type parameters, instantiated at concrete carriers.

``theorem t {R : Type*} [CommRing R] (a b : R) : …`` says something of every commutative
ring; leanmirror checks it at the carriers of :data:`CARRIERS_FILE` (``mirror/data/
carriers.toml``) that have every class the statement asks of ``R`` (ℤ, ℚ, ℝ here; 2×2 and
3×3 real matrices for a ``Ring``). Instantiation is a stage between extraction and
translation: each :class:`Instance` is an ordinary :class:`~bridge.declaration.Declaration`
with the type variable substituted everywhere (binders, ascriptions ``(0 : R)``, coercions
``((n : ℕ) : R)``) and its class binders removed, so the translator sees only concrete types.

A class constraint that no carrier satisfies (``MeasureSpace X``) raises :class:`NoCarrier`,
naming the class; a constraint on a value rather than a type (``[Fact (1 < p)]``,
``[NeZero n]``) becomes the hypothesis it states. The verdicts of the instances are combined
into the statement's by the judge (:func:`mirror.judge.result.combine`).
"""

from __future__ import annotations

import dataclasses
import itertools
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bridge import term as T
from bridge.declaration import Declaration
from bridge.parser import parse_term
from mirror.translate.lean_terms import fresh_name
from mirror.translate.translation import Untranslatable
from mirror.translate.values import is_prop_type

#: The carrier table (classes → carriers), shipped with leanmirror.
CARRIERS_FILE = Path(__file__).resolve().parent / "data" / "carriers.toml"


class NoCarrier(Untranslatable):
    """A type parameter whose class constraints no carrier of the table satisfies."""

    def __init__(self, variable: str, classes: list[str]) -> None:
        self.classes = tuple(classes)
        names = ", ".join(classes)
        super().__init__(
            f"type parameter {variable} with class {names}",
            f"no carrier in mirror/data/carriers.toml is an instance of {names}",
        )


@dataclass(frozen=True)
class Carrier:
    """A concrete type and the Mathlib classes it is an instance of (closed under implication)."""

    key: str
    #: How the report names it (``Matrix (Fin 2) (Fin 2) ℝ``).
    lean: str
    type: T.Term
    classes: frozenset[str]
    #: A variable of ``type`` drawn as a dimension (``n`` of ``Fin n``), or ``None``.
    dimension: str | None = None
    #: Class → hypothesis on the dimension it needs (``Nonempty`` → ``0 < n``).
    when: tuple[tuple[str, T.Term], ...] = ()


@dataclass(frozen=True)
class CarrierTable:
    """The carriers, in the order they are tried, and the instance budget of a statement."""

    carriers: tuple[Carrier, ...]
    max_instances: int

    def admissible(self, classes: list[str]) -> list[Carrier]:
        """The carriers that are instances of every class in ``classes``."""
        return [c for c in self.carriers if all(name in c.classes for name in classes)]


def _closure(classes: list[str], implies: dict[str, list[str]]) -> frozenset[str]:
    seen: set[str] = set()
    stack = list(classes)
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            stack.extend(implies.get(name, ()))
    return frozenset(seen)


def _table_error(where: str, got: object, expected: str) -> ValueError:
    return ValueError(f"{CARRIERS_FILE}: {where}: got {got!r}; expected {expected}")


def read_table(text: str) -> CarrierTable:
    """The :class:`CarrierTable` that the TOML ``text`` describes."""
    data = tomllib.loads(text)
    implies = data.get("implies", {})
    if not isinstance(implies, dict):
        raise _table_error("[implies]", implies, "a table of class → list of classes")
    carriers = []
    for key, spec in data.get("carriers", {}).items():
        if not isinstance(spec, dict) or not isinstance(spec.get("type"), str):
            raise _table_error(f"[carriers.{key}]", spec, "a table with type = \"<Lean type>\"")
        dimension = spec.get("dimension")
        locals_ = {dimension} if dimension else set()
        when = tuple((cls, parse_term(hyp, locals=locals_))
                     for cls, hyp in spec.get("when", {}).items())
        carriers.append(Carrier(key, spec.get("lean", spec["type"]),
                                parse_term(spec["type"], locals=locals_),
                                _closure(list(spec.get("classes", ())), implies),
                                dimension, when))
    limit = data.get("max_instances", 6)
    if not isinstance(limit, int) or limit < 1:
        raise _table_error("max_instances", limit, "a positive integer")
    return CarrierTable(tuple(carriers), limit)


@lru_cache(maxsize=1)
def default_table() -> CarrierTable:
    """The shipped table (:data:`CARRIERS_FILE`), read once."""
    return read_table(CARRIERS_FILE.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Instance:
    """One instantiation of a declaration: the carrier chosen for each type parameter."""

    declaration: Declaration
    #: ``(type variable, carrier as Lean text)`` pairs, in binder order.
    carriers: tuple[tuple[str, str], ...]

    @property
    def label(self) -> str:
        """``R := ℝ`` (``R := ℝ, ι := Fin n`` for several parameters)."""
        return ", ".join(f"{var} := {lean}" for var, lean in self.carriers)


#: Classes the trivial type ``PUnit`` (one point, every operation constant) is an instance of
#: whatever their other arguments are (``Module R PUnit`` for every ring ``R``). A type
#: parameter whose classes are all here can be dropped even where a class ties it to a value
#: that stays: ``PUnit`` satisfies them at every value. ``Nontrivial``, fields, characteristic
#: classes and the like are deliberately absent.
TRIVIAL_CLASSES = frozenset({
    "Zero", "One", "Add", "Mul", "Neg", "Sub", "SMul", "VAdd",
    "AddSemigroup", "AddZeroClass", "AddMonoid", "AddCommMonoid", "AddGroup", "AddCommGroup",
    "Semigroup", "MulOneClass", "Monoid", "CommMonoid", "Group", "CommGroup",
    "Semiring", "CommSemiring", "Ring", "CommRing", "NonUnitalRing", "NonUnitalSemiring",
    "Module", "MulAction", "DistribMulAction", "MulActionWithZero", "SMulWithZero", "Algebra",
    "IsScalarTower", "SMulCommClass", "Module.Finite", "Module.Free", "FiniteDimensional",
    "TopologicalSpace", "UniformSpace", "PseudoMetricSpace", "MetricSpace", "PseudoEMetricSpace",
    "EMetricSpace", "SeminormedAddCommGroup", "NormedAddCommGroup", "NormedSpace",
    "InnerProductSpace", "CompleteSpace", "T2Space", "ContinuousAdd", "ContinuousSMul",
    "TopologicalAddGroup", "MeasurableSpace", "Fintype", "Finite", "Countable", "DecidableEq",
    "Inhabited", "Nonempty", "Unique", "Subsingleton",
})


def _is_type_parameter(binder: T.Binder) -> bool:
    return isinstance(binder.type, T.Sort) and binder.type.level != 0


def _class_of(binder: T.Binder) -> tuple[str, tuple[T.Term, ...]] | None:
    """``(class name, arguments)`` of an instance binder ``[C a b]``."""
    head, args = binder.type, ()
    if isinstance(head, T.Proj) and head.field == "AtLeastTwo":
        # `[n.AtLeastTwo]`: field notation on `n : ℕ`
        return "Nat.AtLeastTwo", (head.expr,)
    if isinstance(head, T.App):
        head, args = head.fn, head.args
    if isinstance(head, T.Const):
        return head.name, tuple(args)
    return None


def _value_hypothesis(name: str, args: tuple[T.Term, ...]) -> T.Term | None:
    """The proposition an instance on values states: ``Fact p`` is ``p``, ``NeZero n`` is
    ``n ≠ 0``, ``Nat.AtLeastTwo n`` is ``2 ≤ n``; ``None`` for any other class."""
    if name == "Fact" and len(args) == 1:
        return args[0]
    if name == "NeZero" and len(args) == 1:
        return T.app("Ne", args[0], T.Lit(0))
    if name == "Nat.AtLeastTwo" and len(args) == 1:
        return T.app("LE.le", T.Lit(2), args[0])
    return None


def _requirements(decl: Declaration,
                  params: list[str]) -> tuple[dict[str, list[str]], list[T.Binder]]:
    """The classes each type parameter must have, and the binders that remain (class
    binders on type parameters removed; value instances turned into hypotheses)."""
    needs: dict[str, list[str]] = {p: [] for p in params}
    kept: list[T.Binder] = []
    for binder in decl.binders:
        if binder.name in needs and _is_type_parameter(binder):
            continue
        if binder.info != "instImplicit":
            kept.append(binder)
            continue
        found = _class_of(binder)
        mentioned = set(T.free_vars(binder.type)) & set(needs) if binder.type else set()
        if not mentioned:
            hyp = None if found is None else _value_hypothesis(*found)
            kept.append(binder if hyp is None else T.Binder(binder.name, hyp, "default"))
            continue
        if found is None or len(found[1]) != 1 or not isinstance(found[1][0], T.Var):
            var = sorted(mentioned)[0]
            shown = found[0] if found is not None else str(binder.type)
            raise NoCarrier(var, [shown])
        needs[found[1][0].name].append(found[0])
    return needs, kept




def _instance(decl: Declaration, kept: list[T.Binder], choice: dict[str, Carrier],
              needs: dict[str, list[str]]) -> Instance:
    taken = {b.name for b in decl.binders} | set(T.free_vars(decl.type) if decl.type else ())
    mapping: dict[str, T.Term] = {}
    extra: list[T.Binder] = []
    for var, carrier in choice.items():
        ty = carrier.type
        if carrier.dimension is not None:
            size = fresh_name(f"{var}_card", taken)
            rename = {carrier.dimension: T.Var(size)}
            ty = T.substitute(ty, rename)
            extra.append(T.Binder(size, T.Const("Nat"), "implicit"))
            for cls, hyp in carrier.when:
                if cls in needs[var]:
                    extra.append(T.Binder("_", T.substitute(hyp, rename), "default"))
        mapping[var] = ty
    binders = tuple(extra) + tuple(
        T.Binder(b.name, None if b.type is None else T.substitute(b.type, mapping), b.info)
        for b in kept)
    carriers = tuple((var, c.lean) for var, c in choice.items())
    label = Instance(decl, carriers).label
    instantiated = dataclasses.replace(
        decl, name=f"{decl.name}[{label}]", binders=binders,
        type=None if decl.type is None else T.substitute(decl.type, mapping))
    return Instance(instantiated, carriers)


def with_value_hypotheses(decl: Declaration) -> Declaration:
    """``decl`` with each instance binder on values (``[Fact (1 < p)]``, ``[NeZero n]``) made
    the hypothesis it states (the translator skips instance binders, so dropped, they would
    make the statement stronger than Lean's)."""
    binders = []
    for binder in decl.binders:
        found = _class_of(binder) if binder.info == "instImplicit" else None
        hyp = None if found is None else _value_hypothesis(*found)
        binders.append(binder if hyp is None else T.Binder(binder.name, hyp, "default"))
    if all(a is b for a, b in zip(binders, decl.binders)):
        return decl
    return dataclasses.replace(decl, binders=tuple(binders))


def _without_unused(decl: Declaration, params: list[str]) -> Declaration:
    """``decl`` without the type parameters its statement does not use, with their class
    binders and the variables of those types that nothing mentions (the scanner includes
    section variables generously: ``variable {α} [TopologicalSpace α] {x : α}``).

    Dropping a parameter ``G`` is sound when its class binders say nothing of what stays: a
    class on ``G`` alone (or with constants) has some instance, so the statement does not
    depend on it. A class binder that ties ``G`` to a variable that stays (``[Module (ZMod n)
    G]``) may constrain that variable together with the other classes on ``G`` (with
    ``[Nontrivial G]`` it forces ``n ≠ 1``: Mathlib's ``ZModModule.char_ne_one``), so ``G`` is
    then dropped only when the trivial type ``PUnit`` is an instance of every class on ``G``
    (:data:`TRIVIAL_CLASSES`) whatever the other arguments are; otherwise ``G`` is kept, and a
    parameter without a carrier makes the statement untranslatable."""
    relevant = set(T.free_vars(decl.type)) if decl.type is not None else set()
    while True:
        unused = _unused_parameters(decl, params, relevant)
        tied = _tied_parameters(decl, unused, relevant)
        if not tied:
            break
        relevant |= tied
    if not unused:
        return decl
    last = {b.name: i for i, b in enumerate(decl.binders)}
    kept = tuple(b for i, b in enumerate(decl.binders)
                 if not (b.name in unused or (b.type is not None and set(T.free_vars(b.type))
                                               & unused and (b.name not in relevant
                                                             or last[b.name] != i))))
    return dataclasses.replace(decl, binders=kept)


def _tied_parameters(decl: Declaration, unused: set[str], relevant: set[str]) -> set[str]:
    """The parameters of ``unused`` that a class binder ties to a variable of ``relevant``,
    and that some class on them may make a constraint on that variable (a class outside
    :data:`TRIVIAL_CLASSES`)."""
    tied: set[str] = set()
    for param in unused:
        classes = []
        ties = False
        for binder in decl.binders:
            if binder.info != "instImplicit" or binder.type is None:
                continue
            mentions = set(T.free_vars(binder.type))
            if param not in mentions:
                continue
            found = _class_of(binder)
            classes.append(None if found is None else found[0])
            ties = ties or bool((mentions - unused) & relevant)
        if ties and not all(name in TRIVIAL_CLASSES for name in classes):
            tied.add(param)
    return tied


def _unused_parameters(decl: Declaration, params: list[str], relevant: set[str]) -> set[str]:
    """The parameters of ``params`` nothing relevant mentions; ``relevant`` grows in place
    with the variables the relevant binders mention."""
    last = {b.name: i for i, b in enumerate(decl.binders)}  # a later binder shadows
    typed = []
    for index, binder in enumerate(decl.binders):
        if binder.info == "instImplicit" or binder.type is None or _is_type_parameter(binder):
            continue
        if set(T.free_vars(binder.type)) & set(params):
            typed.append((index, binder))
        else:
            relevant |= set(T.free_vars(binder.type))
    changed = True
    while changed:
        changed = False
        for index, binder in typed:
            mentions = set(T.free_vars(binder.type))
            # a hypothesis about a relevant variable is relevant itself: dropping it would make
            # the statement stronger than Lean's (a refutation of it would be unsound)
            used = binder.name in relevant or (is_prop_type(binder.type) and mentions & relevant)
            if last[binder.name] == index and used and not mentions <= relevant:
                relevant |= mentions
                changed = True
    return set(params) - relevant


def instantiate(decl: Declaration, table: CarrierTable | None = None) -> list[Instance]:
    """Every instance of ``decl`` at the carriers of ``table`` (the shipped one by default).

    ``[]`` when ``decl`` has no type parameters (it is checked as it is). Raises
    :class:`NoCarrier` when a type parameter's classes have no carrier in common. The
    instances are all combinations of admissible carriers, in table order; the caller keeps
    at most ``table.max_instances`` of those it can translate."""
    params = list(dict.fromkeys(b.name for b in decl.binders if _is_type_parameter(b)))
    if not params:
        return []
    decl = _without_unused(decl, params)
    params = [p for p in params if any(b.name == p for b in decl.binders)]
    if not params:
        return [Instance(decl, ())]
    table = table or default_table()
    needs, kept = _requirements(decl, params)
    options = []
    for var in params:
        admissible = table.admissible(needs[var])
        if not admissible:
            missing = [c for c in needs[var] if not table.admissible([c])] or needs[var]
            raise NoCarrier(var, missing)
        options.append(admissible)
    return [_instance(decl, kept, dict(zip(params, combo)), needs)
            for combo in itertools.product(*options)]


__all__ = ["CARRIERS_FILE", "Carrier", "CarrierTable", "Instance", "NoCarrier", "default_table", "instantiate", "read_table", "with_value_hypotheses"]
