"""Strategies: statement binders and hypotheses → a sampling plan → Hypothesis and NumPy draws.

A *plan* is JSON-able data (it is written into generated mirrors): one entry per variable in
drawing order, with its kind, shape and constraints. Hypotheses are turned into constructive
constraints where their shape allows — bounds (``0 < x``, ``0 ≤ m t ∧ m t ≤ 1``), orderings
between naturals (``j ≤ i``), finite choices (``a = -1 ∨ a = 0 ∨ a = 1``), constant fills
(``∀ t, θ t = 0``) and masked entries (``∀ i j, i ≤ j → A i j = 0``). Every hypothesis is
still evaluated on every draw, so a constraint the planner misreads can only cost rejected
draws, never a wrong verdict.

Implicit dimension binders (``{T Dk Dv : ℕ}``, or any ℕ variable used in a ``Fin``) are drawn
first; arrays take their shapes from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from bridge import term as T
from mirror.codegen import parameter_names
from mirror.translation import Statement
from mirror.types import Ty


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
            _define(defined[label], hyp, statement, entries, order)
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


def _define(definition, hyp: T.Term, statement: Statement, entries: dict,
            order: list[str]) -> None:
    """A variable the translator found defined by a hypothesis: the property recomputes it.

    The draw copies it when the definition is another, earlier drawn variable, or computes
    it from a bound tree over earlier variables where one reads the other side (so that the
    example shown is the one evaluated, up to float rounding of a real tree)."""
    entry = entries[definition.name]
    entry["defined_by"] = definition.label
    source = next((v.name for v in statement.variables if v.symbol == definition.expr), None)
    if (source is not None and entries[source]["kind"] == entry["kind"]
            and order.index(source) < order.index(definition.name)):
        entry["copy"] = source
        return
    sides = [b for a, b in (hyp.args, hyp.args[::-1]) if _bare_var(a) == definition.name]
    tree = _tree(sides[0], entries) if sides else None
    if tree is None or any(order.index(v) >= order.index(definition.name)
                           for v in _tree_vars(tree)):
        return
    if entry["kind"] in _INTEGER_KINDS and not _integral_consts(tree):
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


#: Casts that keep the value (the planner reads through them; the hypothesis itself is still
#: evaluated on every draw, so a cast that does change a value only costs rejected draws).
_VALUE_CASTS = ("Fin.val", "Nat.cast", "Int.cast", "Int.ofNat", "NNReal.toReal", "PNat.val")


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


_INTEGER_KINDS = ("nat", "int", "fin")


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
_NO_BOUND = 1 << 30


def evaluate_tree(tree: dict, values: dict[str, Any]) -> Any:
    """Evaluate a bound tree on drawn values (scalars or batch arrays)."""
    if "const" in tree:
        return tree["const"]
    if "var" in tree:
        return values[tree["var"]]
    a, b = (evaluate_tree(arg, values) for arg in tree["args"])
    op = tree["op"]
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "nat_sub":
        return np.maximum(np.asarray(a) - np.asarray(b), 0)
    if op == "mul":
        return a * b
    if op == "pow":  # ℕ exponent on integers
        return np.asarray(a, dtype=np.int64) ** np.asarray(b, dtype=np.int64)
    if op == "rpow":
        # Real.rpow with its junk values; on integer exponents it is also Monoid.npow/zpow
        from mirror.runtime import NumpyRuntime

        return NumpyRuntime(1, 1).rpow(a, b)
    b_arr = np.asarray(b)
    if op in ("pos_floordiv", "pos_ceildiv"):
        positive = b_arr > 0
        safe = np.where(positive, b_arr, 1)
        quotient = (np.asarray(a) // safe if op == "pos_floordiv"
                    else -((-np.asarray(a)) // safe))
        unbounded = _NO_BOUND if op == "pos_floordiv" else -_NO_BOUND
        return np.where(positive, quotient, unbounded)
    if op == "int_div":
        safe = np.where(b_arr == 0, 1, b_arr)
        return np.where(b_arr == 0, 0, np.asarray(a) // safe)
    safe = np.where(b_arr == 0, 1.0, b_arr)
    return np.where(b_arr == 0, 0.0, np.asarray(a) / safe)


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


# ---- drawing ----------------------------------------------------------------------------------


def _bound_value(bound: dict, values: dict[str, Any]) -> Any:
    if "const" in bound:
        return bound["const"]
    if "expr" in bound:
        return evaluate_tree(bound["expr"], values)
    return values[bound["var"]] + bound["offset"]


def _int_range(entry: dict, values: dict, default_lo: int, default_hi: int):
    """``(lo, hi)`` of an integer draw: ints for scalar ``values``, int64 arrays (one bound per
    draw) for batched ones. One rule for both."""
    lo: Any = default_lo
    hi: Any = default_hi
    for b in entry["lo"]:
        v = np.asarray(_bound_value(b, values))
        lo = np.maximum(lo, np.floor(v).astype(np.int64) + 1 if b["strict"]
                        else np.ceil(v).astype(np.int64))
    for b in entry["hi"]:
        v = np.asarray(_bound_value(b, values))
        hi = np.minimum(hi, np.ceil(v).astype(np.int64) - 1 if b["strict"]
                        else np.floor(v).astype(np.int64))
    if entry["hi"] and not entry["lo"] and default_lo < 0:
        lo = np.minimum(lo, hi)
    if np.ndim(lo) == 0 and np.ndim(hi) == 0:
        return int(lo), int(hi)
    return lo, hi


def _real_range(entry: dict, values: dict, bound: float):
    """``(lo, hi, lo_strict, hi_strict)`` of a real draw (arrays when ``values`` are
    batched): the tightest bound wins; an end with no bound lies ``bound`` beyond the other."""
    lo: Any = -bound
    hi: Any = bound
    lo_strict: Any = False
    hi_strict: Any = False
    for b in entry["lo"]:
        v = np.asarray(_bound_value(b, values), dtype=float)
        lo_strict = np.where(v >= lo, b["strict"], lo_strict)
        lo = np.maximum(lo, v)
    for b in entry["hi"]:
        v = np.asarray(_bound_value(b, values), dtype=float)
        hi_strict = np.where(v <= hi, b["strict"], hi_strict)
        hi = np.minimum(hi, v)
    if entry["lo"] and not entry["hi"]:
        hi = np.maximum(hi, lo + bound)
    if entry["hi"] and not entry["lo"]:
        lo = np.minimum(lo, hi - bound)
    if all(np.ndim(x) == 0 for x in (lo, hi, lo_strict, hi_strict)):
        return float(lo), float(hi), bool(lo_strict), bool(hi_strict)
    return lo, hi, lo_strict, hi_strict


class Unsatisfiable(Exception):
    """The constraints leave no value for a variable (the draw is rejected)."""


def _size(spec: dict, values: dict, settings: dict) -> int:
    if "nat_domain" in spec:
        return settings["nat_domain"]
    if "const" in spec:
        return spec["const"]
    value = evaluate_tree(spec["expr"], values) if "expr" in spec else values[spec["var"]]
    value = np.asarray(value)
    # sizes are dimensions: one value per batch (the sweep draws them once per batch)
    return int(value.reshape(-1)[0]) if value.ndim else int(value)


_RELS = {"lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
         "eq": np.equal, "ne": np.not_equal}


def _apply_set_where(arr: np.ndarray, rules: list[dict], values: dict[str, Any],
                     batched: bool = False) -> np.ndarray:
    """Set (or copy from an earlier array) the entries whose indices satisfy a rule."""
    if not rules:
        return arr
    out = np.array(arr, copy=True)
    lead = 1 if batched else 0
    axes = out.shape[lead:]
    grids = np.indices(axes) if axes else np.zeros((0,), dtype=int)
    for rule in rules:
        when = rule["when"]
        if when["a"] >= len(axes):
            continue
        left = grids[when["a"]]
        if "b" in when:
            right = grids[when["b"]]
        else:
            right = np.asarray(values[when["var"]])
            if batched:
                right = right.reshape((-1,) + (1,) * len(axes))
        mask = _RELS[when["rel"]](left, right)
        value = rule["value"]
        source = np.asarray(values[value["copy"]]) if isinstance(value, dict) else value
        out = np.where(mask, source, out)
    return out


#: Magnitudes below this are drawn as 0 (or as ±TINY where 0 is excluded): under it float64
#: products underflow, and a check would say more about float64 than about the statement.
TINY = 1e-30


def _reals(lo: float, hi: float, exclude_min: bool, exclude_max: bool) -> st.SearchStrategy:
    """Finite floats in ``[lo, hi]`` (ends excluded as asked), tiny magnitudes tamed."""

    def tame(value: float) -> float:
        if value == 0 or abs(value) >= TINY:
            return value
        zero_ok = (lo < 0 or (lo == 0 and not exclude_min)) and (hi > 0 or (hi == 0 and not
                                                                           exclude_max))
        if zero_ok:
            return 0.0
        candidate = TINY if value > 0 else -TINY
        return candidate if lo <= candidate <= hi else value

    return st.floats(lo, hi, exclude_min=exclude_min, exclude_max=exclude_max, allow_nan=False,
                     allow_infinity=False, allow_subnormal=False).map(tame)


@st.composite
def examples(draw, plan: dict[str, Any]) -> dict[str, Any]:
    """A Hypothesis strategy for one example of ``plan`` (name → value)."""
    settings = plan["settings"]
    values: dict[str, Any] = {}
    for entry in plan["variables"]:
        values[entry["name"]] = draw(_entry_strategy(entry, values, settings))
    return values


def _entry_strategy(entry: dict, values: dict, settings: dict) -> st.SearchStrategy:
    kind = entry["kind"]
    if "copy" in entry:
        return st.just(values[entry["copy"]])
    if "value" in entry:
        value = evaluate_tree(entry["value"], values)
        return st.just(value.item() if isinstance(value, np.generic | np.ndarray) else value)
    if "choices" in entry:
        return st.sampled_from(entry["choices"])
    if kind in ("nat", "fin"):
        if entry["dimension"]:
            lo, hi = _int_range(entry, values, settings["dim_min"], settings["dim_max"])
        elif kind == "fin":
            size = _size(entry["size"], values, settings)
            lo, hi = _int_range(entry, values, 0, size - 1)
        else:
            lo, hi = _int_range(entry, values, 0, settings["nat_max"])
        if lo > hi:
            return st.nothing()
        return st.integers(lo, hi)
    if kind == "int":
        lo, hi = _int_range(entry, values, -settings["int_max"], settings["int_max"])
        return st.integers(lo, hi) if lo <= hi else st.nothing()
    if kind in ("real", "ennreal"):
        lo, hi, xlo, xhi = _real_range(entry, values, settings["real_bound"])
        if lo > hi or (lo == hi and (xlo or xhi)):
            return st.nothing()
        return _with_top(_reals(lo, hi, xlo, xhi), kind, entry.get("hi"))
    if kind == "complex":
        bound = settings["real_bound"]
        part = _reals(-bound, bound, False, False)
        return st.builds(complex, part, part)
    if kind == "bool":
        return st.booleans()
    if kind == "array":
        shape = tuple(_size(s, values, settings) for s in entry["shape"])
        elements = _element_strategy(entry, settings, values)
        dtype = {"real": float, "complex": complex, "nat": np.int64, "int": np.int64,
                 "fin": np.int64, "bool": bool, "ennreal": float}[entry["elem"]]
        arr = hnp.arrays(dtype, shape, elements=elements)
        rules = entry.get("set_where", [])
        return arr.map(lambda a: _apply_set_where(a, rules, values))
    raise ValueError(f"no strategy for kind {kind!r}")


def _element_range(entry: dict, settings: dict, values: dict) -> tuple[Any, Any, bool, bool]:
    """``(lo, hi, lo_strict, hi_strict)`` of an array's elements (bounds may be drawn values)."""
    elem = entry["elem"]
    integral = elem in ("nat", "int", "fin")
    bound = settings["real_bound"]
    if elem == "fin":
        lo, hi = 0, _size(entry["elem_size"], values, settings) - 1
    elif elem == "nat":
        lo, hi = 0, settings["nat_max"]
    elif elem == "int":
        lo, hi = -settings["int_max"], settings["int_max"]
    else:
        lo, hi = -bound, bound
    lo_b, hi_b = entry.get("elem_lo"), entry.get("elem_hi")
    lo_strict = hi_strict = False
    if lo_b is not None:
        lo = _bound_value(lo_b, values)
        lo_strict = lo_b["strict"]
        if integral and lo_strict:
            lo, lo_strict = np.floor(lo) + 1, False
    if hi_b is not None:
        hi = _bound_value(hi_b, values)
        hi_strict = hi_b["strict"]
        if integral and hi_strict:
            hi, hi_strict = np.ceil(hi) - 1, False
    if not integral:
        if lo_b is not None and hi_b is None:
            hi = lo + bound
        if hi_b is not None and lo_b is None:
            lo = hi - bound
    return lo, hi, lo_strict, hi_strict


def _element_strategy(entry: dict, settings: dict, values: dict) -> st.SearchStrategy:
    elem = entry["elem"]
    if "fill" in entry:
        return st.just(entry["fill"])
    bound = settings["real_bound"]
    if elem == "complex":
        part = _reals(-bound, bound, False, False)
        return st.builds(complex, part, part)
    if elem == "bool":
        return st.booleans()
    lo, hi, xlo, xhi = _element_range(entry, settings, values)
    if elem in ("nat", "int", "fin"):
        lo, hi = int(lo), int(hi)
        return st.integers(lo, hi) if lo <= hi else st.nothing()
    lo, hi = float(lo), float(hi)
    if lo > hi or (lo == hi and (xlo or xhi)):
        return st.nothing()
    return _with_top(_reals(lo, hi, xlo, xhi), elem, entry.get("elem_hi"))


#: Share of ``ℝ≥0∞`` draws that are ``⊤`` (``inf``).
TOP_SHARE = 0.1


def _with_top(finite: st.SearchStrategy, kind: str, upper) -> st.SearchStrategy:
    """``ℝ≥0∞`` draws include ``⊤`` (unless an upper bound excludes it)."""
    if kind != "ennreal" or upper:
        return finite
    return st.one_of(finite, st.just(float("inf")))


def _mix_top(rng, x: np.ndarray, kind: str, upper) -> np.ndarray:
    if kind != "ennreal" or upper:
        return x
    return np.where(rng.random(x.shape) < TOP_SHARE, np.inf, x)


def sample_batch(plan: dict[str, Any], rng: np.random.Generator, batch: int) -> dict[str, Any]:
    """``batch`` draws of ``plan`` as arrays with a leading batch axis (dimensions shared).

    Values that fail their constraints (an empty range) come back masked in ``"__valid__"``.
    """
    settings = plan["settings"]
    values: dict[str, Any] = {}
    valid = np.ones(batch, dtype=bool)
    for entry in plan["variables"]:
        kind = entry["kind"]
        name = entry["name"]
        if "copy" in entry:
            values[name] = np.array(values[entry["copy"]], copy=True)
            continue
        if "value" in entry:
            values[name] = np.zeros(batch, dtype=float if kind == "real" else np.int64) + \
                evaluate_tree(entry["value"], values)
            continue
        if "choices" in entry:
            values[name] = rng.choice(np.asarray(entry["choices"]), size=batch)
            continue
        if kind in ("nat", "fin", "int"):
            firsts = {k: v[0] if isinstance(v, np.ndarray) else v for k, v in values.items()}
            if entry["dimension"]:
                lo, hi = _int_range(entry, firsts, settings["dim_min"], settings["dim_max"])
                values[name] = np.full(batch, rng.integers(lo, max(lo, hi) + 1), dtype=np.int64)
                if lo > hi:
                    valid[:] = False
                continue
            if kind == "fin":
                default = (0, _size(entry["size"], firsts, settings) - 1)
            elif kind == "int":
                default = (-settings["int_max"], settings["int_max"])
            else:
                default = (0, settings["nat_max"])
            lo_arr, hi_arr = (np.zeros(batch, dtype=np.int64) + bound
                              for bound in _int_range(entry, values, *default))
            valid &= lo_arr <= hi_arr
            span = np.maximum(hi_arr - lo_arr + 1, 1)
            values[name] = lo_arr + (rng.random(batch) * span).astype(np.int64)
            continue
        if kind in ("real", "ennreal"):
            lo, hi, lo_strict, hi_strict = _real_range(entry, values, settings["real_bound"])
            lo_arr = np.zeros(batch) + lo
            hi_arr = np.zeros(batch) + hi
            valid &= lo_arr <= hi_arr
            values[name] = _mix_top(rng, _special_mix(
                rng, lo_arr + rng.random(batch) * (hi_arr - lo_arr), lo_arr, hi_arr,
                lo_strict, hi_strict), kind, entry["hi"])
            continue
        if kind == "complex":
            bound = settings["real_bound"]
            values[name] = rng.uniform(-bound, bound, batch) + 1j * rng.uniform(-bound, bound, batch)
            continue
        if kind == "bool":
            values[name] = rng.random(batch) < 0.5
            continue
        if kind == "array":
            firsts = {k: (v[0] if isinstance(v, np.ndarray) else v) for k, v in values.items()}
            shape = tuple(_size(s, firsts, settings) for s in entry["shape"])
            values[name] = _apply_set_where(_sample_elements(entry, rng, (batch, *shape), settings,
                                                             values),
                                            entry.get("set_where", []), values, batched=True)
            continue
        raise ValueError(f"no sampler for kind {kind!r}")
    values["__valid__"] = valid
    return values


def _special_mix(rng, x, lo, hi, lo_strict: bool = False, hi_strict: bool = False):
    """Mix in 0, ±1 and the bounds now and then: the values junk cases live at (never a
    bound the constraints exclude)."""
    pick = rng.random(x.shape)
    special = np.choose(rng.integers(0, 4, x.shape), [np.zeros_like(x), np.ones_like(x),
                                                      -np.ones_like(x), lo])
    above = np.where(lo_strict, special > lo, special >= lo)
    below = np.where(hi_strict, special < hi, special <= hi)
    out = np.where((pick < 0.1) & above & below, special, x)
    out = np.where(lo_strict & (out <= lo), np.nextafter(lo, np.inf), out)
    return np.where(hi_strict & (out >= hi), np.nextafter(hi, -np.inf), out)


def _sample_elements(entry: dict, rng, shape: tuple, settings: dict, values: dict) -> np.ndarray:
    elem = entry["elem"]
    if "fill" in entry:
        return np.full(shape, entry["fill"], dtype=complex if elem == "complex" else float)
    bound = settings["real_bound"]
    if elem == "complex":
        return rng.uniform(-bound, bound, shape) + 1j * rng.uniform(-bound, bound, shape)
    if elem == "bool":
        return rng.random(shape) < 0.5
    lo, hi, lo_strict, hi_strict = _element_range(entry, settings, values)
    per_draw = (-1,) + (1,) * (len(shape) - 1)
    lo = np.broadcast_to(np.reshape(np.asarray(lo, dtype=float), per_draw) if np.ndim(lo)
                         else np.asarray(lo, dtype=float), shape)
    hi = np.broadcast_to(np.reshape(np.asarray(hi, dtype=float), per_draw) if np.ndim(hi)
                         else np.asarray(hi, dtype=float), shape)
    if elem in ("nat", "int", "fin"):
        span = np.maximum(hi - lo + 1, 1)
        return (lo + np.floor(rng.random(shape) * span)).astype(np.int64)
    return _mix_top(rng, _special_mix(rng, lo + rng.random(shape) * (hi - lo), lo, hi, lo_strict,
                                      hi_strict), elem, entry.get("elem_hi"))


__all__ = ["PlanSettings", "examples", "plan_statement", "sample_batch"]
