"""Sampling within a bound implementation's documented domain (part of building a mirror).

A binding may state the domain of its implementation per Lean parameter; the variables that
feed it are drawn inside that domain, and the report says so next to the examples. A statement
may state its own (``[tool.leanmirror.statements."NAME"]``: ``domain`` per variable, ``sizes``),
which wins over its binding's.
"""

from __future__ import annotations

from typing import Any

from bridge import term as T
from bridge.declaration import Declaration
from mirror.bind.config import ConfigError, StatementSettings
from mirror.bind.registry import statement_table
from mirror.translate.translation import Translator


def apply_domains(plan: dict, decl: Declaration, role: str, translator: Translator) -> list[str]:
    """Draw the variables that feed a bound implementation within its documented domain.

    Returns one note per restriction (the report states it next to the examples)."""
    table = translator.table
    entries = {e["name"]: e for e in plan["variables"]}
    notes: list[str] = []

    def restrict(var: str, spec: dict, where: str) -> None:
        entry = entries.get(var)
        if entry is None:
            return
        if entry["kind"] == "array" and entry.get("elem") in ("real", "nat", "int"):
            if "lo" in spec:
                entry["elem_lo"] = {"const": spec["lo"], "strict": bool(spec.get("strict"))}
            if "hi" in spec:
                entry["elem_hi"] = {"const": spec["hi"], "strict": bool(spec.get("hi_strict"))}
            note = f"drawn with every entry of {var} in the domain of {where}"
            if note not in notes:
                notes.append(note)
            return
        if entry["kind"] not in ("real", "nat", "int"):
            return
        parts = []
        if "lo" in spec:
            entry["lo"].append({"const": spec["lo"], "strict": bool(spec.get("strict"))})
            parts.append(f"{var} {'>' if spec.get('strict') else '≥'} {spec['lo']}")
        if "hi" in spec:
            entry["hi"].append({"const": spec["hi"], "strict": bool(spec.get("hi_strict"))})
            parts.append(f"{var} {'<' if spec.get('hi_strict') else '≤'} {spec['hi']}")
        note = f"drawn with {' and '.join(parts)}, the domain of {where}"
        if parts and note not in notes:
            notes.append(note)

    name = f"{decl.name}.conformance" if role == "conformance" else decl.name
    own = statement_table(table).get(name)
    if role == "conformance":
        binding = table.get(decl.name)
        for param, spec in (binding.domain if binding else {}).items():
            if own is None or param not in own.domain:
                restrict(param, spec, binding.implementation)
    else:
        _binding_domains(decl, translator, restrict)
    if own is not None:
        notes.extend(_own_settings(plan, own, entries, restrict))
    return notes


def _own_settings(plan: dict, own: StatementSettings, entries: dict, restrict) -> list[str]:
    """A statement's own ``domain`` (per variable; for a conformance row it replaces the
    binding's for that parameter, for a theorem it narrows the draws further) and, for a
    theorem, its ``sizes`` (a conformance row's sizes are its kernel profile's)."""
    for var, spec in own.domain.items():
        if var not in entries:
            raise ConfigError(f"{own.where} domain: {var!r} is not a variable of the "
                              f"statement; expected one of {', '.join(entries) or '(none)'}")
        restrict(var, spec, f"statement {own.name} (its own setting)")
    if own.sizes is not None and not own.conformance:
        lo, hi = own.sizes
        plan["settings"] = dict(plan["settings"], dim_min=lo, dim_max=hi)
        return [f"drawn with sizes {lo}..{hi} (statement {own.name}'s own setting)"]
    return []


def _binding_domains(decl: Declaration, translator: Translator, restrict) -> None:
    """A theorem's variables that feed a bound implementation, drawn in its domain."""
    table = translator.table
    terms = [b.type for b in decl.binders if b.type is not None]
    if decl.type is not None:
        terms.append(decl.type)
    for term in terms:
        for node in T.walk(term):
            if not (isinstance(node, T.App) and isinstance(node.fn, T.Const)):
                continue
            binding = table.get(node.fn.name)
            target = translator.declarations.get(node.fn.name)
            if binding is None or not binding.domain or target is None:
                continue
            params = [b.name for b in target.binders if b.info == "default"]
            for param, arg in zip(params, node.args):
                if param in binding.domain and isinstance(arg, T.Var):
                    restrict(arg.name, binding.domain[param], binding.implementation)


def drawn_on(plan: dict | None, role: str, binding: Any = None) -> str | None:
    """What a row's draws range over, as the report states it: ``"sizes 0..256, magnitude
    wide, dtypes float64/float32; δ > 0.0, the domain of …"`` (a conformance row: its
    kernel profile) or ``"sizes 1..4, reals in [-5, 5]"`` (a theorem: its plan)."""
    if not isinstance(plan, dict) or "settings" not in plan:
        return None
    variables = plan.get("variables", [])
    sized = any(v.get("dimension") for v in variables)
    reals = any(v.get("kind") == "real" or v.get("elem") == "real" for v in variables)
    profile = getattr(binding, "profile", None)
    if role == "conformance" and profile is not None:
        lo, hi = profile.size_range(binding.vectorized)
        parts = [f"sizes {lo}..{hi}", f"magnitude {profile.magnitude}",
                 f"dtypes {'/'.join(profile.dtypes)}"]
    else:
        settings = plan["settings"]
        bound = settings.get("real_bound", 5.0)
        parts = [f"sizes {settings.get('dim_min')}..{settings.get('dim_max')}"] \
            if sized else []
        if reals:
            parts.append(f"reals in [-{bound:g}, {bound:g}]")
    notes = [n.removeprefix("drawn with ") for n in plan.get("domains") or ()]
    text = ", ".join(parts)
    return "; ".join(([text] if text else []) + notes) or None


__all__ = ["apply_domains", "drawn_on"]
