"""The exporter reader: ``leanmirror-export`` JSON → normalized declarations.

The document format is ``docs/export-format.md`` (format version 1). The reader checks the
format version, names de Bruijn variables from their binders, drops implicit and instance
arguments (keeping the first implicit argument of arithmetic/relation heads as ``App.ty``),
turns ``OfNat.ofNat``/``OfScientific.ofScientific`` into literals and casts into ``Typed``,
and derives ``lean_status`` from the axioms and errors. Malformed input raises
:class:`~bridge.errors.ExportFormatError` naming the file, the place and what was expected.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from bridge import term as T
from bridge.declaration import (
    KINDS,
    Declaration,
    Diagnostic,
    Equation,
    Extraction,
    SourceRange,
    lean_status_from_axioms,
)
from bridge.errors import ExportFormatError
from bridge.term import Binder

#: The exporter format version this reader supports.
FORMAT_VERSION = 1
#: Heads whose first implicit argument (the carrier type) is kept as ``App.ty``.
TYPED_HEADS = frozenset(
    {
        "HAdd.hAdd", "HSub.hSub", "HMul.hMul", "HDiv.hDiv", "HMod.hMod", "HPow.hPow",
        "Neg.neg", "Inv.inv", "LE.le", "LT.lt", "GE.ge", "GT.gt", "Eq", "Ne", "HSMul.hSMul",
        "abs", "max", "min", "Finset.sum", "Finset.prod",
    }
)
#: Casts that become ``Typed(arg, target)``; ``None`` means the target is the first implicit.
CASTS: dict[str, str | None] = {
    "Nat.cast": None,
    "Int.cast": None,
    "Rat.cast": None,
    "NNReal.toReal": "Real",
    "Complex.ofReal": "Complex",
}
_BINDER_INFOS = ("default", "implicit", "strictImplicit", "instImplicit")


class _Reader:
    """Converts EXPR JSON with a location prefix for error messages."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> ExportFormatError:
        return ExportFormatError(f"{self.source}: {where}: {message}")

    def expr(self, data: Any, names: list[str], where: str) -> T.Term:
        if not isinstance(data, dict) or not data:
            raise self.fail(where, f"expected an EXPR object, got {data!r:.80}")
        if "bvar" in data:
            index = data["bvar"]
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(names):
                raise self.fail(where, f"bvar {index!r} out of range (expected 0..{len(names) - 1})")
            return T.Var(names[len(names) - 1 - index])
        if "fvar" in data:
            return T.Var(self._str(data["fvar"], where, "fvar"))
        if "const" in data:
            return T.Const(self._str(data["const"], where, "const"))
        if "app" in data:
            return self._app(data, names, where)
        if "lam" in data or "forall" in data:
            return self._binder(data, names, where)
        if "let" in data:
            spec = data["let"]
            if not isinstance(spec, dict):
                raise self.fail(where, "'let' must be an object with name, type and value")
            name = self._str(spec.get("name"), where, "let.name")
            ty = self.expr(spec.get("type"), names, where + ".let.type")
            value = self.expr(spec.get("value"), names, where + ".let.value")
            body = self.expr(data.get("body"), names + [name], where + ".body")
            return T.Let(name, ty, value, body)
        if "lit" in data:
            lit = data["lit"]
            if isinstance(lit, dict) and "nat" in lit and isinstance(lit["nat"], int):
                return T.Lit(int(lit["nat"]))
            if isinstance(lit, dict) and "str" in lit:
                return T.Str(str(lit["str"]))
            raise self.fail(where, f"expected a literal {{'nat': n}} or {{'str': s}}, got {lit!r:.80}")
        if "sort" in data:
            level = str(data["sort"])
            return T.Sort(int(level) if level.isdigit() else level)
        if "proj" in data:
            spec = data["proj"]
            if not isinstance(spec, dict) or not isinstance(spec.get("idx"), int):
                raise self.fail(where, "'proj' must be an object with struct, idx and e")
            return T.Proj(self.expr(spec.get("e"), names, where + ".proj"), spec["idx"] + 1)
        raise self.fail(where, f"unknown EXPR form with keys {sorted(data)}")

    def _str(self, value: Any, where: str, what: str) -> str:
        if not isinstance(value, str):
            raise self.fail(where, f"{what} must be a string, got {value!r:.80}")
        return value

    def _app(self, data: dict, names: list[str], where: str) -> T.Term:
        fn = self.expr(data["app"], names, where + ".app")
        raw_args = data.get("args")
        if not isinstance(raw_args, list):
            raise self.fail(where, "'args' must be a list of {e, bi}")
        args: list[tuple[T.Term, str]] = []
        for i, arg in enumerate(raw_args):
            if not isinstance(arg, dict) or "e" not in arg:
                raise self.fail(where, f"args[{i}] must be an object {{'e': EXPR, 'bi': …}}")
            bi = arg.get("bi", "default")
            if bi not in _BINDER_INFOS:
                raise self.fail(where, f"args[{i}].bi {bi!r} is not one of {_BINDER_INFOS}")
            args.append((self.expr(arg["e"], names, f"{where}.args[{i}]"), bi))
        explicit = [a for a, bi in args if bi == "default"]
        implicit = [a for a, bi in args if bi in ("implicit", "strictImplicit")]
        head = fn.name if isinstance(fn, T.Const) else None
        if head == "OfNat.ofNat" and explicit:
            lit = explicit[0]
            if isinstance(lit, T.Lit):
                return lit
        if head == "OfScientific.ofScientific" and len(explicit) == 3:
            mantissa, sign, exponent = explicit
            if isinstance(mantissa, T.Lit) and isinstance(exponent, T.Lit) and isinstance(sign, T.Const):
                m, e = int(mantissa.value), int(exponent.value)
                value = Fraction(m, 10**e) if sign.name == "Bool.true" else Fraction(m * 10**e)
                return T.Lit(value)
        if head in CASTS and explicit:
            target = CASTS[head]
            ty: T.Term | None = T.Const(target) if target else (implicit[0] if implicit else None)
            if ty is not None:
                return T.Typed(explicit[-1], ty)
        ty_arg = implicit[0] if head in TYPED_HEADS and implicit else None
        if isinstance(fn, T.App) and fn.ty is None:
            return T.App(fn.fn, fn.args + tuple(explicit), ty_arg)
        if not explicit:
            return fn
        return T.App(fn, tuple(explicit), ty_arg)

    def _binder(self, data: dict, names: list[str], where: str) -> T.Term:
        key = "lam" if "lam" in data else "forall"
        spec = data[key]
        if not isinstance(spec, dict):
            raise self.fail(where, f"'{key}' must be an object with name, bi and type")
        name = self._str(spec.get("name", "_"), where, f"{key}.name")
        info = spec.get("bi", "default")
        if info not in _BINDER_INFOS:
            raise self.fail(where, f"{key}.bi {info!r} is not one of {_BINDER_INFOS}")
        ty = self.expr(spec.get("type"), names, f"{where}.{key}.type")
        body_data = data.get("body")
        uses = _uses_bvar0(body_data)
        shown = name
        if key == "forall" and not uses and ("✝" in name or name in ("", "_", "[anonymous]")):
            shown = "_"
        body = self.expr(body_data, names + [name], where + ".body")
        binder = Binder(shown, ty, info)
        cls = T.Lam if key == "lam" else T.Pi
        if isinstance(body, cls) and shown != "_" and all(b.name != "_" for b in body.binders):
            return cls((binder,) + body.binders, body.body)
        return cls((binder,), body)


def _uses_bvar0(data: Any, depth: int = 0) -> bool:
    """Whether the EXPR ``data`` mentions the variable bound just outside it."""
    if not isinstance(data, dict):
        return False
    if "bvar" in data:
        return data["bvar"] == depth
    if "app" in data:
        return _uses_bvar0(data["app"], depth) or any(
            isinstance(a, dict) and _uses_bvar0(a.get("e"), depth) for a in data.get("args", []) or []
        )
    for key in ("lam", "forall"):
        if key in data and isinstance(data[key], dict):
            return _uses_bvar0(data[key].get("type"), depth) or _uses_bvar0(data.get("body"), depth + 1)
    if "let" in data and isinstance(data["let"], dict):
        spec = data["let"]
        return (
            _uses_bvar0(spec.get("type"), depth)
            or _uses_bvar0(spec.get("value"), depth)
            or _uses_bvar0(data.get("body"), depth + 1)
        )
    if "proj" in data and isinstance(data["proj"], dict):
        return _uses_bvar0(data["proj"].get("e"), depth)
    return False


def read_export(path: str | Path) -> Extraction:
    """Read an exporter JSON file into an :class:`~bridge.declaration.Extraction`."""
    file = Path(path)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ExportFormatError(f"{file}: cannot read exporter output ({exc.strerror})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExportFormatError(f"{file}: expected exporter JSON ({exc})") from None
    return load_export(data, str(file))


def load_export(data: Any, source: str = "<exporter output>") -> Extraction:
    """Convert an already-parsed exporter document (see ``docs/export-format.md``)."""
    reader = _Reader(source)
    if not isinstance(data, dict):
        raise reader.fail("document", f"expected a JSON object, got {type(data).__name__}")
    meta = data.get("meta")
    if not isinstance(meta, dict):
        raise reader.fail("meta", "expected an object with format_version")
    version = meta.get("format_version")
    if version != FORMAT_VERSION or isinstance(version, bool):
        raise ExportFormatError(
            f"{source}: exporter format_version {version!r} is not supported; "
            f"this reader supports format_version {FORMAT_VERSION}"
        )
    raw_decls = data.get("declarations")
    if not isinstance(raw_decls, list):
        raise reader.fail("declarations", "expected a list of DECL objects")
    declarations = [_declaration(reader, d, i) for i, d in enumerate(raw_decls)]
    diagnostics: list[Diagnostic] = []
    raw_errors = data.get("errors", []) or []
    if not isinstance(raw_errors, list):
        raise reader.fail("errors", "expected a list of {module, message, line, column}")
    for i, err in enumerate(raw_errors):
        if not isinstance(err, dict) or not isinstance(err.get("message"), str):
            raise reader.fail(f"errors[{i}]", "expected an object with a string 'message'")
        diagnostics.append(
            Diagnostic(
                str(err.get("file") or err.get("module") or "?"),
                int(err.get("line") or 1),
                int(err.get("column") or 0) + 1,
                err["message"],
            )
        )
    declarations = mark_errors(declarations, raw_errors)
    out_meta = {
        "method": "exporter",
        "kernel": True,
        "lean_version": meta.get("lean_version"),
        "lean_githash": meta.get("lean_githash"),
        "exporter_version": meta.get("exporter_version"),
        "format_version": version,
        "modules": meta.get("modules"),
    }
    return Extraction(declarations, diagnostics, out_meta)


def mark_errors(declarations: list[Declaration], errors: list[dict]) -> list[Declaration]:
    """Set ``lean_status="error"`` on declarations whose range holds a module error line."""
    out = []
    for decl in declarations:
        hits = [
            e["message"]
            for e in errors
            if isinstance(e, dict)
            and e.get("module") == decl.module
            and decl.range is not None
            and isinstance(e.get("line"), int)
            and decl.range.line <= e["line"] <= (decl.range.end_line or decl.range.line)
        ]
        new = tuple(h for h in dict.fromkeys(hits) if h not in decl.errors)
        if hits:
            decl = replace(decl, lean_status="error", errors=decl.errors + new)
        out.append(decl)
    return out


def _declaration(reader: _Reader, data: Any, index: int) -> Declaration:
    where = f"declarations[{index}]"
    if not isinstance(data, dict):
        raise reader.fail(where, f"expected a DECL object, got {type(data).__name__}")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise reader.fail(where, f"expected a string 'name', got {name!r}")
    where = f"{where} ({name})"
    kind = data.get("kind")
    if kind not in KINDS:
        raise reader.fail(where, f"kind {kind!r} is not one of {KINDS}")
    raw_binders = data.get("binders", [])
    if not isinstance(raw_binders, list):
        raise reader.fail(where, "'binders' must be a list")
    names: list[str] = []
    binders: list[Binder] = []
    for i, b in enumerate(raw_binders):
        if not isinstance(b, dict):
            raise reader.fail(where, f"binders[{i}] must be an object")
        bname = reader._str(b.get("name"), where, f"binders[{i}].name")
        info = b.get("info", "default")
        if info not in _BINDER_INFOS:
            raise reader.fail(where, f"binders[{i}].info {info!r} is not one of {_BINDER_INFOS}")
        bty = reader.expr(b.get("type"), names, f"{where}.binders[{i}].type")
        binders.append(Binder(bname, bty, info))
        names.append(bname)
    error = data.get("error")
    ty = None if data.get("type") is None and error else reader.expr(data.get("type"), names, where + ".type")
    value = None
    if data.get("value") is not None:
        value = reader.expr(data["value"], names, where + ".value")
    equations = []
    for i, eq in enumerate(data.get("equations", []) or []):
        if not isinstance(eq, dict) or not isinstance(eq.get("patterns"), list):
            raise reader.fail(where, f"equations[{i}] must be an object with a 'patterns' list and 'rhs'")
        patterns = tuple(
            reader.expr(p, names, f"{where}.equations[{i}].patterns[{j}]") for j, p in enumerate(eq["patterns"])
        )
        equations.append(Equation(patterns, reader.expr(eq.get("rhs"), names, f"{where}.equations[{i}].rhs")))
    axioms = data.get("axioms", [])
    if not isinstance(axioms, list) or not all(isinstance(a, str) for a in axioms):
        raise reader.fail(where, f"'axioms' must be a list of strings, got {axioms!r:.80}")
    if error is not None and not isinstance(error, str):
        raise reader.fail(where, f"'error' must be a string or null, got {error!r:.80}")
    status = lean_status_from_axioms(tuple(axioms), elaborated=error is None)
    rng = data.get("range")
    source_range = None
    if isinstance(rng, dict):
        try:
            source_range = SourceRange(
                str(rng["file"]),
                int(rng["line"]),
                int(rng["column"]) + 1,
                None if rng.get("end_line") is None else int(rng["end_line"]),
                None if rng.get("end_column") is None else int(rng["end_column"]) + 1,
            )
        except (KeyError, TypeError, ValueError):
            raise reader.fail(where, "range must have file, line, column (integers)") from None
    elif rng is not None:
        raise reader.fail(where, "range must be an object or null")
    docstring = data.get("docstring")
    return Declaration(
        name=name,
        kind=kind,
        module=str(data.get("module", "")),
        binders=tuple(binders),
        type=ty,
        value=value,
        equations=tuple(equations),
        docstring=docstring if isinstance(docstring, str) else None,
        range=source_range,
        statement_text=str(data.get("type_pp", "")),
        proof_text=None,
        lean_status=status,
        axioms=tuple(axioms),
        uses_sorry=bool(data.get("uses_sorry", False)),
        errors=(error,) if error else (),
        method="exporter",
    )
