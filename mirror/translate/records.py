"""Records: ``Prod``, ``Sigma`` and user structures, drawn field by field.

A stage between extraction and translation, like :mod:`mirror.translate.instances`. A binder
``p : ℝ × ℝ`` (or ``p : Aff`` with ``abbrev Aff := ℝ × ℝ``, or ``p : Point`` for a
``structure Point where x : ℝ  y : ℝ``) becomes one scalar binder per field (``p_1 p_2``,
``p_x p_y``); a structure's ``Prop`` fields (its invariants) become hypotheses on them. In the
statement, field access (``p.1``, ``p.fst``, ``Prod.snd p``, ``p.x``, ``Point.x p``), anonymous
constructors (``⟨a, b⟩``, ``(a, b)``, ``Point.mk a b``), ``Prod.swap`` and equality of records
(``p = q`` is ``p.1 = q.1 ∧ p.2 = q.2``) are rewritten to the fields; a project definition
that takes or returns a record is unfolded where it is applied. What cannot be rewritten keeps
the record variable, which the translator reports as a free variable.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Union

from bridge import term as T
from bridge.declaration import Declaration
from mirror.translate.lean_terms import fresh_name

#: How deep definitions taking or returning records are unfolded inside one another.
MAX_UNFOLD = 16
#: Heads of the type terms a definition without parameters may abbreviate (a type synonym).
TYPE_HEADS = frozenset({"Prod", "Fin", "ZMod", "Matrix", "Real", "Nat", "Int", "Rat", "Complex",
                        "Bool", "NNReal", "ENNReal", "PNat"})
#: Prod's fields: the names ``.1 .fst`` and ``.2 .snd`` reach them.
_PROD_FIELDS = ((1, "fst"), (2, "snd"))


@dataclass(frozen=True)
class Field:
    """One field of a record: its accessor names and its type (a term, or a nested layout)."""

    names: tuple[Union[int, str], ...]
    type: "T.Term | Layout"
    #: A ``Prop`` field (an invariant): no value is drawn, it becomes a hypothesis.
    prop: bool = False


@dataclass(frozen=True)
class Layout:
    """A record type: its constructor and accessor namespace, and its fields in order."""

    namespace: str
    fields: tuple[Field, ...]


#: A record value: one entry per field (a term, a nested record value, or ``None`` for a
#: proof), aligned with its layout's fields.
Record = tuple


def _head(term: T.Term) -> tuple[str | None, tuple[T.Term, ...]]:
    if isinstance(term, T.App) and isinstance(term.fn, T.Const):
        return term.fn.name, term.args
    if isinstance(term, T.Const):
        return term.name, ()
    return None, ()


def _is_prop(term: T.Term | None) -> bool:
    name, _ = _head(term) if term is not None else (None, ())
    return name in ("Eq", "Ne", "LT.lt", "LE.le", "GT.gt", "GE.ge", "And", "Or", "Not", "Iff",
                    "Membership.mem", "True", "False")


class Records:
    """The record types of a project (its structures and type synonyms) and the rewriting."""

    def __init__(self, declarations: dict[str, Declaration],
                 keep: set[str] | frozenset = frozenset()) -> None:
        self.declarations = declarations
        #: Definitions never unfolded here (those bound to an implementation).
        self.keep = set(keep)
        self.structures = {n: d.value for n, d in declarations.items()
                           if d.kind == "structure" and isinstance(d.value, T.Pi)}
        self.synonyms: dict[str, T.Term] = {}
        for name, decl in declarations.items():
            if decl.kind in ("abbrev", "def") and not decl.binders and decl.value is not None \
                    and (decl.type is None or isinstance(decl.type, T.Sort)):
                head, _ = _head(decl.value)
                if head in TYPE_HEADS or head in self.structures:
                    self.synonyms[name] = decl.value
        self._depth = 0

    # ---- layouts -----------------------------------------------------------------------------

    def layout(self, ty: T.Term | None, seen: frozenset[str] = frozenset()) -> Layout | None:
        """The layout of the record type ``ty``, or ``None`` when it is not a record."""
        name, args = _head(ty) if ty is not None else (None, ())
        if name in self.synonyms and name not in seen and not args:
            return self.layout(self.synonyms[name], seen | {name})
        if name == "Prod" and len(args) == 2:
            return Layout("Prod", tuple(Field(names, self.layout(arg, seen) or arg)
                                        for names, arg in zip(_PROD_FIELDS, args)))
        if name == "Sigma" and len(args) == 1 and isinstance(args[0], T.Lam) \
                and len(args[0].binders) == 1 and args[0].binders[0].type is not None:
            # Σ x : A, B x: the second field's type reads the first (by the binder's name)
            (first,), second = args[0].binders, args[0].body
            return Layout("Sigma", (
                Field(_PROD_FIELDS[0] + (first.name,), self.layout(first.type, seen) or first.type),
                Field(_PROD_FIELDS[1], self.layout(second, seen) or second)))
        if name in self.structures:
            params = [b.name for b in self.declarations[name].binders
                      if b.info != "instImplicit"]
            if len(args) != len(params):
                return None
            telescope = T.substitute(self.structures[name], dict(zip(params, args)))
            return Layout(name, tuple(
                Field((b.name,), self.layout(b.type, seen) or b.type, _is_prop(b.type))
                for b in telescope.binders))
        return None

    def unfold_type(self, ty: T.Term | None) -> T.Term | None:
        """``ty`` with a type synonym at its head replaced by what it names."""
        name, args = _head(ty) if ty is not None else (None, ())
        if name in self.synonyms and not args:
            return self.unfold_type(self.synonyms[name])
        return ty

    # ---- declarations ------------------------------------------------------------------------

    def split(self, decl: Declaration) -> Declaration:
        """``decl`` with every record binder split into its fields (``decl`` itself when it
        has no record anywhere)."""
        if decl.type is None or not self._mentions_records(decl):
            return decl
        env: dict[str, tuple[Layout, Record]] = {}
        taken = {b.name for b in decl.binders} | set(T.free_vars(decl.type))
        binders = self._split_binders(decl.binders, env, taken)
        body = self.rewrite(decl.type, env, taken)
        return dataclasses.replace(decl, binders=tuple(binders), type=body)

    def _mentions_records(self, decl: Declaration) -> bool:
        terms = [b.type for b in decl.binders if b.type is not None] + [decl.type]
        names = {"Prod", "Sigma", *self.structures, *self.synonyms}
        for term in terms:
            for node in T.walk(term):
                if isinstance(node, T.Anon) or isinstance(node, T.Const) and (
                        node.name in names or node.name.rpartition(".")[0] in names):
                    return True
        return False

    def _split_binders(self, binders, env: dict, taken: set[str]) -> list[T.Binder]:
        out: list[T.Binder] = []
        for binder in binders:
            ty = None if binder.type is None else self.rewrite(binder.type, env, taken)
            layout = self.layout(ty)
            if layout is None or binder.name == "_":
                out.append(T.Binder(binder.name, self.unfold_type(ty), binder.info))
                env.pop(binder.name, None)
                continue
            record, fields = self._fresh_record(binder.name, layout, taken, binder.info)
            out.extend(fields)
            env[binder.name] = (layout, record)
        return out

    def _fresh_record(self, base: str, layout: Layout, taken: set[str],
                      info: str) -> tuple[Record, list[T.Binder]]:
        """Fresh variables for each field of ``layout`` (``p_1``, ``p_x``), the record value
        they make, and their binders (invariants last, as hypotheses)."""
        values: list = []
        binders: list[T.Binder] = []
        invariants: list[T.Binder] = []
        own: dict[str, T.Term] = {}
        for fld in layout.fields:
            label = f"{base}_{fld.names[0]}"
            if fld.prop:
                hyp = T.substitute(fld.type, own)
                invariants.append(T.Binder(fresh_name(label, taken), hyp, "default"))
                values.append(None)
                continue
            if isinstance(fld.type, Layout):
                record, inner = self._fresh_record(label, fld.type, taken, info)
                values.append(record)
                binders.extend(inner)
                continue
            name = fresh_name(label, taken)
            binders.append(T.Binder(name, T.substitute(fld.type, own), info))
            values.append(T.Var(name))
            own.update((n, T.Var(name)) for n in fld.names if isinstance(n, str))
        return tuple(values), binders + invariants

    # ---- terms -------------------------------------------------------------------------------

    def rewrite(self, term: T.Term, env: dict, taken: set[str]) -> T.Term:
        """``term`` with record operations rewritten to fields."""
        found = self.value(term, env, taken, None)
        if found is not None:
            return self._as_term(found)
        if isinstance(term, T.App):
            name, args = _head(term)
            if name in ("Eq", "Ne") and len(args) == 2:
                equal = self._record_equality(args[0], args[1], env, taken)
                if equal is not None:
                    return equal if name == "Eq" else T.app("Not", equal)
            return T.App(self.rewrite(term.fn, env, taken),
                         tuple(self.rewrite(a, env, taken) for a in term.args), term.ty)
        if isinstance(term, (T.Pi, T.Lam)):
            inner = dict(env)
            binders = self._split_binders(term.binders, inner, taken)
            return type(term)(tuple(binders), self.rewrite(term.body, inner, taken))
        if isinstance(term, T.Let):
            inner = {k: v for k, v in env.items() if k != term.name}
            return T.Let(term.name, term.type, self.rewrite(term.value, env, taken),
                         self.rewrite(term.body, inner, taken))
        plain = T.map_plain(term, lambda t: self.rewrite(t, env, taken),
                            type_of=lambda t: self.unfold_type(self.rewrite(t, env, taken)))
        return term if plain is None else plain

    def _as_term(self, found: tuple[Layout | None, object]) -> T.Term:
        """A field value as a term (a nested record stays an anonymous constructor)."""
        _, value = found
        if isinstance(value, tuple):
            return T.Anon(tuple(T.Hole("proof") if v is None else self._as_term((None, v))
                                for v in value))
        return value

    def _record_equality(self, lhs: T.Term, rhs: T.Term, env: dict, taken: set[str]):
        left = self.value(lhs, env, taken, None)
        right = self.value(rhs, env, taken, left[0] if left else None)
        if left is None and right is not None:
            left = self.value(lhs, env, taken, right[0])
        if left is None or right is None or not isinstance(left[1], tuple) \
                or not isinstance(right[1], tuple) or len(left[1]) != len(right[1]):
            return None
        parts = [T.app("Eq", a, b) for a, b in _leaves(left[1], right[1])]
        if not parts:
            return T.Const("True")
        out = parts[-1]
        for part in reversed(parts[:-1]):
            out = T.app("And", part, out)
        return out

    def value(self, term: T.Term, env: dict, taken: set[str],
              hint: Layout | None) -> tuple[Layout | None, object] | None:
        """``(layout, record value)`` when ``term`` is a record or a field of one (then the
        value is the field's term, or its nested record), else ``None``."""
        if isinstance(term, T.Var) and term.name in env:
            return env[term.name]
        if isinstance(term, T.Typed):
            layout = self.layout(term.type)
            if layout is not None:
                return self.value(term.expr, env, taken, layout)
            return None
        if isinstance(term, T.Anon) and hint is not None:
            return self._construct(hint, term.args, env, taken)
        if isinstance(term, T.Proj):
            return self._field(term.expr, term.field, (), env, taken)
        if isinstance(term, T.App):
            if isinstance(term.fn, T.Proj):
                return self._field(term.fn.expr, term.fn.field, term.args, env, taken)
            name, args = _head(term)
            if name is None:
                return None
            if name == "Prod.mk" and len(args) == 2:
                hint = hint or Layout("Prod", tuple(Field(n, T.Hole()) for n in _PROD_FIELDS))
                return self._construct(hint, args, env, taken)
            if name.endswith(".mk") and name[:-3] in self.structures:
                return self._construct(self.layout(T.Const(name[:-3])), args, env, taken)
            space, _, short = name.rpartition(".")
            if space == "Prod" and args:
                return self._field(args[0], short, args[1:], env, taken)
            if space in self.structures and args:
                return self._field(args[0], short, args[1:], env, taken)
            return self._unfold(name, args, env, taken, hint)
        return None

    def _construct(self, layout: Layout, args, env: dict, taken: set[str]):
        fields = layout.fields
        if len(args) > len(fields) and fields and isinstance(fields[-1].type, Layout):
            args = tuple(args[:len(fields) - 1]) + (T.Anon(tuple(args[len(fields) - 1:])),)
        if len(args) != len(fields):
            return None
        values = []
        for fld, arg in zip(fields, args):
            if fld.prop:
                values.append(None)
            elif isinstance(fld.type, Layout):
                inner = self.value(arg, env, taken, fld.type)
                if inner is None or not isinstance(inner[1], tuple):
                    return None
                values.append(inner[1])
            else:
                values.append(self.rewrite(arg, env, taken))
        return layout, tuple(values)

    def _field(self, record_t: T.Term, name, args, env: dict, taken: set[str]):
        record = self.value(record_t, env, taken, None)
        if record is None or record[0] is None or not isinstance(record[1], tuple):
            return None
        layout, values = record
        if name == "swap" and layout.namespace == "Prod" and not args:
            swapped = tuple(reversed(layout.fields))
            return Layout("Prod", tuple(Field(n, f.type) for n, f in zip(_PROD_FIELDS, swapped))), \
                tuple(reversed(values))
        for fld, value in zip(layout.fields, values):
            if name in fld.names and not args and value is not None:
                return (fld.type if isinstance(fld.type, Layout) else None), value
        return None

    def _unfold(self, name: str, args, env: dict, taken: set[str], hint):
        """A project definition applied to a record or returning one, unfolded."""
        decl = self.declarations.get(name)
        if decl is None or decl.value is None or decl.kind not in ("def", "abbrev") \
                or name in self.keep or self._depth >= MAX_UNFOLD:
            return None
        params = [b for b in decl.binders if b.info == "default"]
        if len(args) != len(params):
            return None
        takes = any(self.layout(b.type) is not None for b in params)
        gives = self.layout(decl.type)
        if not takes and gives is None:
            return None
        body = T.substitute(decl.value, {b.name: a for b, a in zip(params, args)})
        self._depth += 1
        try:
            if gives is not None:
                return self.value(T.Typed(body, decl.type), env, taken, gives)
            return None, self.rewrite(T.Typed(body, decl.type), env, taken)
        finally:
            self._depth -= 1


def _leaves(left: Record, right: Record):
    """Pairs of corresponding scalar fields of two record values (proofs skipped)."""
    for a, b in zip(left, right):
        if a is None or b is None:
            continue
        if isinstance(a, tuple) and isinstance(b, tuple):
            yield from _leaves(a, b)
        elif not isinstance(a, tuple) and not isinstance(b, tuple):
            yield a, b




__all__ = ["Field", "Layout", "Records", "MAX_UNFOLD", "TYPE_HEADS"]
