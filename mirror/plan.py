"""Sampling plans: statement binders and hypotheses → JSON-able data for the draws.

A *plan* is written into generated mirrors: one entry per variable in drawing order, with its
kind, shape and constraints. Hypotheses are turned into constructive constraints where their
shape allows — bounds (``0 < x``, ``0 ≤ m t ∧ m t ≤ 1``), orderings between naturals
(``j ≤ i``), finite choices (``a = -1 ∨ a = 0 ∨ a = 1``), constant fills (``∀ t, θ t = 0``) and
masked entries (``∀ i j, i ≤ j → A i j = 0``). Every hypothesis is still evaluated on every
draw, so a constraint the planner misreads can only cost rejected draws, never a wrong verdict.

Implicit dimension binders (``{T Dk Dv : ℕ}``, or any ℕ variable used in a ``Fin``) are drawn
first; arrays take their shapes from them. The draws themselves are in
:mod:`mirror.strategies`, their ranges in :mod:`mirror.ranges`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import sympy as sp

from bridge import term as T
from mirror.codegen import parameter_names
from mirror.ranges import INTEGER_KINDS as _INTEGER_KINDS
from mirror.translation import Statement
from mirror import vocabulary as V
from mirror.types import Ty
from mirror.vocabulary import FUNCTIONS


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
    for label, hyp in statement.hypothesis_terms:
        if label in defined:
            _define(defined[label], statement, entries, order)
            constructive.append(label)
        elif _constrain(hyp, entries, order):
            constructive.append(label)
    _propagate(entries, order)
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
        "hypotheses": [label for label, _ in statement.hypothesis_terms],
    }


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
    tree = _expr_tree(definition.expr, names, entries)
    if tree is None or any(order.index(v) >= order.index(definition.name)
                           for v in _tree_vars(tree)):
        return
    if entry["kind"] in _INTEGER_KINDS and not _integral_consts(tree):
        return
    entry["value"] = tree


#: Functions of the translator's vocabulary that a bound tree computes alike
#: (:func:`mirror.ranges.evaluate_tree`; ``Int.ediv`` is not floor division: left out).
_TREE_FUNCTIONS = {V.NatSub: "nat_sub", V.LeanDiv: "div", V.NatDiv: "int_div",
                   V.LeanRpow: "rpow"}


def _expr_tree(expr: sp.Basic, names: dict, entries: dict) -> dict | None:
    """A translated expression over drawn scalars as a bound tree (``None`` when it has a
    part a tree does not compute)."""
    if expr in names:
        name = names[expr]
        return {"var": name} if entries[name]["kind"] != "array" else None
    if expr.is_Integer:
        return {"const": int(expr)}
    if expr.is_Rational or expr.is_Float:
        return {"const": float(expr)}
    if expr.is_Add or expr.is_Mul or type(expr) in _TREE_FUNCTIONS:
        args = [_expr_tree(arg, names, entries) for arg in expr.args]
        if any(a is None for a in args):
            return None
        op = "add" if expr.is_Add else "mul" if expr.is_Mul else _TREE_FUNCTIONS[type(expr)]
        return functools.reduce(lambda a, b: {"op": op, "args": [a, b]}, args)
    if expr.is_Pow:
        base, exponent = (_expr_tree(arg, names, entries) for arg in expr.args)
        if base is None or exponent is None:
            return None
        integral = expr.args[1].is_Integer and expr.args[1] >= 0 and all(
            entries[v]["kind"] in _INTEGER_KINDS for v in _tree_vars(base)
        ) and _integral_consts(base)
        return {"op": "pow" if integral else "rpow", "args": [base, exponent]}
    return None


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


_FLIP = {"LT.lt": "GT.gt", "LE.le": "GE.ge", "GT.gt": "LT.lt", "GE.ge": "LE.le"}


def _value_casts() -> frozenset[str]:
    """The one-argument functions the translator translates as the identity (``Nat.cast``,
    ``Fin.val``, ``NNReal.toReal``, …): the planner reads through them as the translator does.
    (The hypothesis itself is still evaluated on every draw, so a misread only costs rejected
    draws.)"""
    probe = sp.Dummy()
    return frozenset(name for name, (params, build, _) in FUNCTIONS.items()
                     if len(params) == 1 and build(probe) is probe)


_VALUE_CASTS = _value_casts()


def _strip_casts(term: T.Term) -> T.Term:
    """``term`` without the coercions, type ascriptions and ``.val`` around it."""
    while True:
        if isinstance(term, (T.Typed, T.Coe)):
            term = term.expr
        elif isinstance(term, T.Proj) and term.field in ("val", 1):
            term = term.expr
        elif (isinstance(term, T.App) and isinstance(term.fn, T.Const) and len(term.args) == 1
              and term.fn.name in _VALUE_CASTS):
            term = term.args[0]
        else:
            return term


def _linear(term: T.Term) -> tuple[str | None, float] | None:
    """``x``, ``c``, ``x + c``, ``x - c`` as ``(var or None, offset)``."""
    term = _strip_casts(term)
    if isinstance(term, T.Var):
        return term.name, 0
    if isinstance(term, T.Lit) and isinstance(term.value, int):
        return None, term.value
    if isinstance(term, T.Lit):
        return None, float(term.value)
    if isinstance(term, T.App) and isinstance(term.fn, T.Const):
        name = term.fn.name
        if name == "Neg.neg" and isinstance(term.args[0], T.Lit):
            return None, -float(term.args[0].value) if not isinstance(term.args[0].value, int) \
                else -term.args[0].value
        if name in ("HAdd.hAdd", "HSub.hSub") and len(term.args) == 2:
            left, right = _linear(term.args[0]), _linear(term.args[1])
            if left and right and right[0] is None and left[0] is not None:
                sign = 1 if name == "HAdd.hAdd" else -1
                return left[0], left[1] + sign * right[1]
    return None


def _atoms(term: T.Term) -> list[T.Term] | None:
    """The conjuncts of ``term`` (``None`` when it is not a conjunction of atoms)."""
    if isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name == "And":
        out: list[T.Term] = []
        for arg in term.args:
            sub = _atoms(arg)
            if sub is None:
                return None
            out.extend(sub)
        return out
    return [term]


def _constrain(hyp: T.Term, entries: dict, order: list[str]) -> bool:
    """Add what ``hyp`` says to the plan entries; ``True`` when fully constructive."""
    atoms = _atoms(hyp)
    if atoms is None:
        return False
    return all([_constrain_atom(atom, entries, order) for atom in atoms])


def _constrain_atom(atom: T.Term, entries: dict, order: list[str]) -> bool:
    if isinstance(atom, T.Pi):
        return _constrain_forall(atom, entries, order)
    if not (isinstance(atom, T.App) and isinstance(atom.fn, T.Const)):
        return False
    name = atom.fn.name
    if name == "Or":
        return _constrain_choices(atom, entries)
    if name not in ("LT.lt", "LE.le", "GT.gt", "GE.ge") or len(atom.args) != 2:
        return False
    lhs_t, rhs_t = atom.args
    if name in ("GT.gt", "GE.ge"):
        lhs_t, rhs_t = rhs_t, lhs_t
        name = _FLIP[name]
    strict = name == "LT.lt"
    left, right = _summands(lhs_t), _summands(rhs_t)
    best = None
    for side, items, other in (("lhs", left, right), ("rhs", right, left)):
        for index, item in enumerate(items):
            target = _bare_var(item)
            factor = None
            if target is None:
                target, factor = _scaled_var(item, entries)
            if target is None or target not in entries:
                continue
            rest = items[:index] + items[index + 1:]
            trees = [_tree(t, entries) for t in rest + other]
            if any(t is None for t in trees):
                continue
            used = set().union(*(_tree_vars(t) for t in trees)) if trees else set()
            if target in used or any(v not in entries or order.index(v) > order.index(target)
                                     for v in used):
                continue
            if factor is not None:
                if entries[target]["kind"] not in _INTEGER_KINDS or target in _tree_vars(factor) \
                        or any(order.index(v) > order.index(target) for v in _tree_vars(factor)):
                    continue
            if best is None or order.index(target) > order.index(best[0]):
                best = (target, side, trees[: len(rest)], trees[len(rest):], factor)
    if best is None:
        return False
    target, side, rest, other, factor = best
    bound_tree = _sum_tree(other)
    if rest:
        bound_tree = {"op": "sub", "args": [bound_tree, _sum_tree(rest)]}
    if factor is not None:
        # target * factor ≤ b  ⇔  target ≤ ⌊b / factor⌋ (factor > 0; no bound otherwise)
        if strict:
            shift = {"const": -1 if side == "lhs" else 1}
            bound_tree = {"op": "add", "args": [bound_tree, shift]}
            strict = False
        op = "pos_floordiv" if side == "lhs" else "pos_ceildiv"
        bound_tree = {"op": op, "args": [bound_tree, factor]}
    bound = _simplify_bound(bound_tree)
    key = "hi" if side == "lhs" else "lo"
    entries[target][key].append({**bound, "strict": strict})
    return entries[target]["kind"] in ("nat", "int", "real", "fin")


def _summands(term: T.Term) -> list[T.Term]:
    if isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name == "HAdd.hAdd" \
            and len(term.args) == 2:
        return _summands(term.args[0]) + _summands(term.args[1])
    return [term]


def _scaled_var(term: T.Term, entries: dict) -> tuple[str | None, dict | None]:
    """``x * e`` or ``e * x``: the variable and the factor's tree."""
    if isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name == "HMul.hMul" \
            and len(term.args) == 2:
        for mine, theirs in ((0, 1), (1, 0)):
            var = _bare_var(term.args[mine])
            factor = _tree(term.args[theirs], entries)
            if var is not None and factor is not None:
                return var, factor
    return None, None


def _bare_var(term: T.Term) -> str | None:
    term = _strip_casts(term)
    return term.name if isinstance(term, T.Var) else None



def _tree(term: T.Term, entries: dict) -> dict | None:
    """A small arithmetic tree over earlier variables (evaluated when a value is drawn)."""
    var = _bare_var(term)
    if var is not None:
        return {"var": var} if var in entries and entries[var]["kind"] != "array" else None
    if isinstance(term, T.Lit):
        value = term.value
        return {"const": value if isinstance(value, int) else float(value)}
    if isinstance(term, (T.Typed, T.Coe)):
        return _tree(term.expr, entries)
    if not (isinstance(term, T.App) and isinstance(term.fn, T.Const)):
        return None
    name = term.fn.name
    if name == "Neg.neg" and len(term.args) == 1:
        inner = _tree(term.args[0], entries)
        return None if inner is None else {"op": "sub", "args": [{"const": 0}, inner]}
    ops = {"HAdd.hAdd": "add", "HMul.hMul": "mul", "HSub.hSub": "sub", "HDiv.hDiv": "div",
           "HPow.hPow": "rpow"}
    if name not in ops or len(term.args) != 2:
        return None
    args = [_tree(a, entries) for a in term.args]
    if any(a is None for a in args):
        return None
    op = ops[name]
    integral = all(
        entries[v]["kind"] in _INTEGER_KINDS for a in args for v in _tree_vars(a)
    ) and all(_integral_consts(a) for a in args)
    if integral and op == "sub":
        op = "nat_sub" if all(entries[v]["kind"] != "int" for a in args for v in _tree_vars(a)) \
            else "sub"
    if integral and op == "div":
        op = "int_div"
    if integral and op == "rpow":
        op = "pow"
    return {"op": op, "args": args}


def _integral_consts(tree: dict) -> bool:
    if "const" in tree:
        return isinstance(tree["const"], int)
    return all(_integral_consts(a) for a in tree.get("args", []))


def _tree_vars(tree: dict) -> set[str]:
    if "var" in tree:
        return {tree["var"]}
    out: set[str] = set()
    for arg in tree.get("args", []):
        out |= _tree_vars(arg)
    return out


def _sum_tree(trees: list[dict]) -> dict:
    if not trees:
        return {"const": 0}
    out = trees[0]
    for tree in trees[1:]:
        out = {"op": "add", "args": [out, tree]}
    return out


def _simplify_bound(tree: dict) -> dict:
    """``{"var", "offset"}`` / ``{"const"}`` when the tree is that simple, else ``{"expr"}``."""
    if "const" in tree:
        return {"const": tree["const"]}
    if "var" in tree:
        return {"var": tree["var"], "offset": 0}
    if tree.get("op") in ("add", "sub"):
        a, b = tree["args"]
        if "var" in a and "const" in b:
            sign = 1 if tree["op"] == "add" else -1
            return {"var": a["var"], "offset": sign * b["const"]}
        if "var" in b and "const" in a and tree["op"] == "add":
            return {"var": b["var"], "offset": a["const"]}
        if "const" in a and "const" in b:
            sign = 1 if tree["op"] == "add" else -1
            return {"const": a["const"] + sign * b["const"]}
    return {"expr": tree}


#: Stands for "no bound" in integer bound arithmetic (far beyond any drawn value).


def _constrain_choices(atom: T.App, entries: dict) -> bool:
    """``a = c₁ ∨ a = c₂ ∨ …`` → a finite choice."""
    values: list[float] = []
    name: str | None = None

    def collect(term: T.Term) -> bool:
        nonlocal name
        if isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name == "Or":
            return all(collect(a) for a in term.args)
        if isinstance(term, T.App) and isinstance(term.fn, T.Const) and term.fn.name == "Eq":
            lhs, rhs = _linear(term.args[0]), _linear(term.args[1])
            if lhs and rhs and lhs[0] is not None and rhs[0] is None and lhs[1] == 0:
                if name not in (None, lhs[0]):
                    return False
                name = lhs[0]
                values.append(rhs[1])
                return True
        return False

    if not collect(atom) or name not in entries:
        return False
    entries[name]["choices"] = values
    return True


def _constrain_forall(pi: T.Pi, entries: dict, order: list[str]) -> bool:
    """``∀ t, bounds on f t`` / ``∀ t, f t = c`` / ``∀ i j, i ≤ j → A i j = c``."""
    names = [b.name for b in pi.binders if not (b.name == "_" and b.type is not None)]
    body = pi.body
    premise = None
    if isinstance(body, T.Pi) and len(body.binders) == 1 and body.binders[0].name == "_":
        premise = body.binders[0].type
        body = body.body
    atoms = _atoms(body)
    if not atoms:
        return False
    ok = True
    for atom in atoms:
        if not (isinstance(atom, T.App) and isinstance(atom.fn, T.Const) and len(atom.args) == 2):
            return False
        rel = atom.fn.name
        lhs, rhs = atom.args
        if rel in ("GT.gt", "GE.ge"):
            lhs, rhs = rhs, lhs
            rel = _FLIP[rel]
        access, const, side = _array_access(lhs, names), _linear(rhs), "lhs"
        other_access = _array_access(rhs, names)
        if rel == "Eq" and access is not None and other_access is not None and premise is not None:
            # ∀ s, cond s → x s = x' s: the later array copies the earlier where cond holds
            first, second = access[0], other_access[0]
            if first not in entries or second not in entries or access[1] != other_access[1]:
                return False
            if order.index(first) > order.index(second):
                first, second = second, first
            mask = _index_mask(premise, access[1], entries)
            if mask is None:
                return False
            entries[second].setdefault("set_where", []).append({"when": mask,
                                                                "value": {"copy": first}})
            continue
        if access is None:
            access, const, side = _array_access(rhs, names), _linear(lhs), "rhs"
        if access is None or const is None:
            return False
        if const[0] is not None and (const[0] not in entries
                                     or entries[const[0]]["kind"] == "array"):
            return False
        array, index_names = access
        if array not in entries or entries[array]["kind"] != "array":
            return False
        entry = entries[array]
        value = const[1]
        element_bound = ({"const": value} if const[0] is None
                         else {"var": const[0], "offset": value})
        if premise is not None:
            if const[0] is not None:
                return False
            mask = _index_mask(premise, index_names, entries)
            if mask is None or rel != "Eq":
                return False
            entry.setdefault("set_where", []).append({"when": mask, "value": value})
            continue
        if rel == "Eq" and const[0] is None:
            entry["fill"] = value
        elif rel in ("LT.lt", "LE.le"):
            key = "elem_hi" if side == "lhs" else "elem_lo"
            entry[key] = {**element_bound, "strict": rel == "LT.lt"}
        else:
            ok = False
    return ok


def _array_access(term: T.Term, names: list[str]) -> tuple[str, list[str]] | None:
    """``f t`` / ``A i j`` with the quantified names as the indices, in order."""
    if isinstance(term, T.App) and isinstance(term.fn, T.Var):
        idx = [a.name for a in term.args if isinstance(a, T.Var)]
        if len(idx) == len(term.args) and idx == names[: len(idx)] and len(idx) == len(names):
            return term.fn.name, idx
    return None


def _index_mask(premise: T.Term, index_names: list[str], entries: dict) -> dict | None:
    """``i ≤ j`` between two indices, or ``s ≤ t`` between an index and a scalar variable."""
    if not (isinstance(premise, T.App) and isinstance(premise.fn, T.Const)
            and len(premise.args) == 2):
        return None
    rel = premise.fn.name
    a, b = (_bare_var(x) for x in premise.args)
    if rel in ("GT.gt", "GE.ge"):
        a, b = b, a
        rel = _FLIP[rel]
    table = {"LT.lt": "lt", "LE.le": "le", "Eq": "eq", "Ne": "ne"}
    if rel not in table or a is None or b is None:
        return None
    if a not in index_names and b in index_names:
        a, b = b, a
        flipped = {"lt": "gt", "le": "ge", "eq": "eq", "ne": "ne"}
        rel_name = flipped[table[rel]]
    else:
        rel_name = table[rel]
    if a not in index_names:
        return None
    if b in index_names:
        return {"rel": rel_name, "a": index_names.index(a), "b": index_names.index(b)}
    if b in entries and entries[b]["kind"] in _INTEGER_KINDS:
        return {"rel": rel_name, "a": index_names.index(a), "var": b}
    return None



__all__ = ["PlanSettings", "plan_statement"]
