"""Sampling plans: statement binders and hypotheses → JSON-able data for the draws.

A *plan* is written into generated mirrors: one entry per variable in drawing order, with its
kind, shape and constraints. The translated hypotheses (sympy, as :mod:`mirror.translate.translation`
decided them) are turned into constructive constraints where their shape allows — bounds
(``0 < x``, ``0 ≤ m t ∧ m t ≤ 1``), orderings (``j ≤ i``), finite choices
(``a = -1 ∨ a = 0 ∨ a = 1``), constant fills (``∀ t, θ t = 0``) and masked entries
(``∀ i j, i ≤ j → A i j = 0``): :mod:`mirror.sample.constraints`. A variable the translator found
defined by a hypothesis is copied or computed; a variable that an exactly solved system of
equation hypotheses pins to finitely many values is drawn among them (:mod:`mirror.sample.solve`;
the plan's ``"solved"`` lists them). Every hypothesis is still evaluated on every
draw, so a constraint the planner misreads can only cost rejected draws, never a wrong verdict.

Implicit dimension binders (``{T Dk Dv : ℕ}``, or any ℕ variable used in a ``Fin``) are drawn
first; arrays take their shapes from them. The draws themselves are in
:mod:`mirror.sample.strategies`, their ranges in :mod:`mirror.sample.ranges`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from mirror.translate.codegen import parameter_names
from mirror.sample.constraints import Constraints, expr_tree, integral_tree, tree_vars
from mirror.sample.ranges import INTEGER_KINDS as _INTEGER_KINDS
from mirror.sample.residues import congruence_solutions
from mirror.sample.solve import linear_parametrization, solve_statement
from mirror.translate.translation import Statement
from mirror.translate.types import Ty


@dataclass(frozen=True)
class PlanSettings:
    """Ranges for drawn values."""

    nat_max: int = 6
    int_max: int = 8
    dim_min: int = 1
    dim_max: int = 4
    #: Length of the sampled prefix of every ``ℕ → α`` array.
    nat_domain: int = 16
    real_bound: float = 5.0


# ---- planning ---------------------------------------------------------------------------------


def _shape_of(ty: Ty, dims: dict[str, str]) -> list[Any]:
    shape: list[Any] = []
    for dom in ty.domains():
        if dom.kind == "Nat":
            shape.append({"nat_domain": True})
        elif dom.kind == "Fin":
            size = dom.args[0]
            if size.is_Integer:
                shape.append({"const": int(size)})
            elif size.is_Symbol and str(size) in dims:
                shape.append({"var": str(size)})
            else:
                tree = _size_tree(size, dims)
                if tree is None:
                    raise ValueError(f"array dimension {size} is not an expression of dimensions")
                shape.append({"expr": tree})
        else:
            raise ValueError(f"arrays indexed by {dom} are not drawn")
    return shape


def _size_tree(size, dims: dict[str, str]) -> dict | None:
    """A dimension such as ``I + I`` (``2*I`` in sympy) as a bound tree over dimensions."""
    if size.is_Integer:
        return {"const": int(size)}
    if size.is_Symbol:
        return {"var": str(size)} if str(size) in dims else None
    if size.is_Add or size.is_Mul:
        parts = [_size_tree(arg, dims) for arg in size.args]
        if any(p is None for p in parts):
            return None
        op = "add" if size.is_Add else "mul"
        out = parts[0]
        for part in parts[1:]:
            out = {"op": op, "args": [out, part]}
        return out
    return None


def _elem_kind(ty: Ty) -> str:
    kind = ty.kind
    return {"Nat": "nat", "Int": "int", "Rat": "real", "Real": "real", "Complex": "complex",
            "Fin": "fin", "Prop": "bool", "Bool": "bool", "PNat": "nat", "NNReal": "real",
            "ENNReal": "ennreal"}.get(kind, "unknown")


#: The least value of the carriers that are subtypes of a drawn kind (``ℕ+``, ``ℝ≥0``, ``ℝ≥0∞``).
_CARRIER_FLOOR = {"PNat": 1, "NNReal": 0, "ENNReal": 0}


def plan_statement(statement: Statement, settings: PlanSettings = PlanSettings()) -> dict[str, Any]:
    """The sampling plan of a translated statement."""
    dims: dict[str, str] = {
        var.name: "dim" for var in statement.variables if var.implicit and var.ty.kind == "Nat"
    }
    for var in statement.variables:
        for dom in var.ty.domains() + ([var.ty] if var.ty.kind == "Fin" else []):
            if dom.kind == "Fin" and dom.args[0].is_Symbol:
                dims[str(dom.args[0])] = "dim"
    entries: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    params = parameter_names(statement)
    for var in statement.variables:
        entry: dict[str, Any] = {"name": var.name, "param": params[var.name]}
        ty = var.ty
        if ty.is_array:
            entry["kind"] = "array"
            entry["shape"] = _shape_of(ty, dims)
            entry["elem"] = _elem_kind(ty.codomain())
            entry["elem_lo"] = None
            entry["elem_hi"] = None
            if entry["elem"] == "fin":  # an array of indices, e.g. tokens : Fin T → Fin V
                entry["elem_size"] = _shape_of(Ty("Fun", (ty.codomain(), ty.codomain())), dims)[0]
        else:
            entry["kind"] = _elem_kind(ty)
            if ty.kind == "Fin":
                entry["size"] = _shape_of(Ty("Fun", (ty, ty)), dims)[0]
        if entry.get("kind") == "unknown" or entry.get("elem") == "unknown":
            raise ValueError(f"variable {var.name} : {ty} has no strategy")
        entry["dimension"] = var.name in dims
        entry["lo"] = []
        entry["hi"] = []
        floor = _CARRIER_FLOOR.get(ty.codomain().kind)
        if floor is not None and ty.is_array:
            entry["elem_lo"] = {"const": floor, "strict": False}
        elif floor is not None:
            entry["lo"].append({"const": floor, "strict": False})
        entries[var.name] = entry
        order.append(var.name)
    # dimensions first, in declaration order
    order = (
        [n for n in order if entries[n]["dimension"]]
        + [n for n in order if not entries[n]["dimension"] and entries[n]["kind"] != "array"]
        + [n for n in order if entries[n]["kind"] == "array"]
    )
    constructive: list[str] = []
    defined = {d.label: d for d in statement.definitions}
    constraints = Constraints(statement, entries, order)
    for label, hyp in statement.hypotheses:
        if label in defined:
            _define(defined[label], statement, entries, order)
            constructive.append(label)
        elif constraints.constrain(hyp):
            constructive.append(label)
    _propagate(entries, order)
    solved = _solved_choices(statement, entries, order)
    solved += _congruence_choices(statement, entries)
    return {
        "version": 1,
        "settings": {
            "nat_max": settings.nat_max,
            "int_max": settings.int_max,
            "dim_min": settings.dim_min,
            "dim_max": settings.dim_max,
            "nat_domain": settings.nat_domain,
            "real_bound": settings.real_bound,
        },
        "variables": [entries[n] for n in order],
        "constructive": constructive,
        "hypotheses": [label for label, _ in statement.hypotheses],
        "solved": solved,
    }


def _exact_choice(value, kind: str) -> int | float | None:
    """A solution value as a draw takes it exactly: an integer, or for a real a dyadic rational
    (exact as a float); ``None`` otherwise."""
    if value.is_Integer:
        return int(value)
    if kind == "real" and value.is_Rational and value.q & (value.q - 1) == 0 and value.q < 2 ** 50:
        return float(value)
    return None


def _parametrized(statement: Statement, entries: dict, order: list[str]) -> list[str]:
    """Variables an under-determined linear system computes from earlier draws (a bound tree,
    as for a definition)."""
    try:
        found = linear_parametrization(statement, order)
    except (ValueError, TypeError, NotImplementedError, sp.polys.polyerrors.BasePolynomialError):
        return []
    names = {v.symbol: v.name for v in statement.variables}
    computed = []
    for name, expr in found.items():
        entry = entries[name]
        # not ℕ: a difference of draws may be negative, which no ℕ value is
        if entry.get("kind") not in ("int", "real") \
                or {"value", "copy", "choices"} & set(entry):
            continue
        tree = expr_tree(expr, names, entries)
        if tree is None or (entry["kind"] in _INTEGER_KINDS and not integral_tree(tree, entries)):
            continue
        entry["value"] = tree
        computed.append(name)
    return computed


def _solved_choices(statement: Statement, entries: dict, order: list[str]) -> list[str]:
    """Variables an exactly solved system of equation hypotheses pins to finitely many values
    (:mod:`mirror.sample.solve`) are drawn among those values (the others as before): the
    draws then satisfy the equations instead of missing them. Returns the variables so drawn."""
    try:
        solutions = solve_statement(statement)
    except (ValueError, TypeError, NotImplementedError, ZeroDivisionError,
            sp.polys.polyerrors.BasePolynomialError):
        return []  # sympy gave up: the draws go on as before
    if solutions is None:
        return _parametrized(statement, entries, order)
    if solutions.vacuous is not None or not solutions.candidates:
        return []
    drawn = []
    for name in solutions.solved:
        entry = entries.get(name)
        if entry is None or entry.get("kind") not in ("nat", "int", "real") \
                or {"value", "copy", "choices"} & set(entry):
            continue
        values = {_exact_choice(c[name], entry["kind"]) for c in solutions.candidates}
        if None in values:
            continue
        entry["choices"] = sorted(values)
        drawn.append(name)
    return drawn


def _congruence_choices(statement: Statement, entries: dict) -> list[str]:
    """Integer variables that hypotheses of their own constrain through remainders only
    (``n % 5 = 3``) are drawn among the least solutions (``3, 8, 13 …``:
    :func:`mirror.sample.residues.congruence_solutions`) instead of being rejected four times
    in five. Returns the variables so drawn."""
    drawn = []
    for var in statement.variables:
        entry = entries.get(var.name)
        if var.ty.is_array or entry is None or entry.get("kind") not in ("nat", "int") \
                or {"value", "copy", "choices"} & set(entry):
            continue
        floor = 0 if var.ty.kind == "Nat" else 1 if var.ty.kind == "PNat" else None
        for lo in entry["lo"]:  # a constant lower bound: the least solutions above it
            if isinstance(lo.get("const"), int) and "var" not in lo:
                bound = lo["const"] + int(lo["strict"])
                floor = bound if floor is None else max(floor, bound)
        found = congruence_solutions(statement, var.symbol, floor)
        if found is not None:
            entry["choices"] = found[0]
            entry["congruence"] = found[1]
            drawn.append(var.name)
    return drawn


def _define(definition, statement: Statement, entries: dict, order: list[str]) -> None:
    """A variable the translator found defined by a hypothesis: the property recomputes it.

    The draw copies it when the definition is another, earlier drawn variable, or computes
    it from the translator's expression of it, as a bound tree over earlier variables (so
    that the example shown is the one evaluated, up to float rounding of a real tree)."""
    entry = entries[definition.name]
    entry["defined_by"] = definition.label
    names = {v.symbol: v.name for v in statement.variables}
    source = names.get(definition.expr)
    if (source is not None and entries[source]["kind"] == entry["kind"]
            and order.index(source) < order.index(definition.name)):
        entry["copy"] = source
        return
    tree = expr_tree(definition.expr, names, entries)
    if tree is None or any(order.index(v) >= order.index(definition.name)
                           for v in tree_vars(tree)):
        return
    if entry["kind"] in _INTEGER_KINDS and not integral_tree(tree, entries):
        return
    entry["value"] = tree


def _propagate(entries: dict, order: list[str]) -> None:
    """``a < x ≤ b`` implies ``a < b``: bound the later of ``a`` and ``b`` so that ``x`` has room.

    One pass over the integer variables, so that draws are rarely rejected for an empty range.
    """
    for entry in entries.values():
        if entry["kind"] not in ("nat", "int", "fin"):
            continue
        size = entry.get("size", {})
        if entry["kind"] == "fin" and "var" in size and size["var"] in entries:
            # a + o ≤ i < n for i : Fin n  ⇒  a ≤ n - 1 - o
            for lo in entry["lo"]:
                a = lo.get("var")
                if a in entries and entries[a]["kind"] in ("nat", "int") and a != size["var"]:
                    bound = {"var": size["var"], "offset": -1 - lo["offset"] - int(lo["strict"]),
                             "strict": False}
                    if bound not in entries[a]["hi"]:
                        entries[a]["hi"].append(bound)
        for lo in entry["lo"]:
            for hi in entry["hi"]:
                _propagate_constant(entries, lo, hi)
                if "var" not in lo or "var" not in hi or lo["var"] == hi["var"]:
                    continue
                a, b = lo["var"], hi["var"]
                if entries[a]["kind"] not in ("nat", "int") or entries[b]["kind"] not in (
                    "nat", "int"
                ):
                    continue
                # a + lo.offset (+1) ≤ x ≤ b + hi.offset (−1)  ⇒  a ≤ b + gap
                gap = hi["offset"] - lo["offset"] - int(lo["strict"]) - int(hi["strict"])
                if order.index(a) > order.index(b):
                    bound = {"var": b, "offset": gap, "strict": False}
                    if bound not in entries[a]["hi"]:
                        entries[a]["hi"].append(bound)
                else:
                    bound = {"var": a, "offset": -gap, "strict": False}
                    if bound not in entries[b]["lo"]:
                        entries[b]["lo"].append(bound)


def _propagate_constant(entries: dict, lo: dict, hi: dict) -> None:
    """``c ≤ x ≤ b + o`` implies ``c - o ≤ b``; ``a + o ≤ x ≤ c`` implies ``a ≤ c - o``
    (integer constants, ``±1`` for each strict end)."""
    slack = int(lo["strict"]) + int(hi["strict"])
    if "const" in lo and "var" in hi:
        target, key, value = hi["var"], "lo", lo["const"] + slack - hi["offset"]
    elif "var" in lo and "const" in hi:
        target, key, value = lo["var"], "hi", hi["const"] - slack - lo["offset"]
    else:
        return
    if entries[target]["kind"] in ("nat", "int") and isinstance(value, int):
        bound = {"const": value, "strict": False}
        if bound not in entries[target][key]:
            entries[target][key].append(bound)


__all__ = ["PlanSettings", "plan_statement"]
