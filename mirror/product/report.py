"""The proved-vs-tested coverage report: ``report.json``, ``report.md`` and ``report.html``.

:func:`build_report` turns a run (``RunResult`` or ``(meta, results, diagnostics)``) into
one JSON-ready document; the Markdown and HTML renderings are produced from that document
with the jinja2 templates in ``mirror/templates/`` (HTML with autoescape on: statement text
is untrusted). :func:`write_report` writes the requested formats atomically.

The report never overstates evidence: Lean statuses are shown exactly as extracted, and
when no Lean kernel ran the header says that Lean statuses are unchecked.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, is_dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import jinja2

from bridge.declaration import LEAN_STATUSES, Diagnostic
from bridge.errors import InvalidArgument
from mirror.product.publish import ReportWriteError, publish_report
from mirror.product.rendering import template_environment
from mirror.judge.result import MIRROR_STATUSES, StatementResult

#: The formats :func:`write_report` knows, and their file names.
REPORT_FILES = {"html": "report.html", "md": "report.md", "json": "report.json"}
#: Column key for statements without a mirror status (definitions, not mirrored).
NO_MIRROR = "none"
#: Report document format version (bump on incompatible changes of report.json).
REPORT_FORMAT_VERSION = 1

_KERNEL_METHODS = ("exporter", "dojo")
_MIRROR_COLORS = {
    "symbolic": "#2b8a3e",
    "certified": "#40c057",
    "tested": "#69db7c",
    "refuted": "#e03131",
    "vacuous": "#fab005",
    "inconclusive": "#f59f00",
    "untranslatable": "#868e96",
    "unbound": "#c0c6cc",
    "error": "#862e9c",
    NO_MIRROR: "#e9ecef",
}
_LEAN_COLORS = {
    "proved": "#1c7ed6",
    "proved-extra-axioms": "#74c0fc",
    "sorry": "#f76707",
    "error": "#c92a2a",
    "unchecked": "#ced4da",
    "stated": "#ffd43b",
}


def _jsonable(value: Any) -> Any:
    """A JSON-ready copy of ``value`` (NumPy scalars, fractions, non-finite floats …)."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
        if isinstance(value, (set, frozenset)):
            items = sorted(items, key=repr)
        return [_jsonable(v) for v in items]
    if is_dataclass(value) and not isinstance(value, type):
        return _jsonable(asdict(value))
    tolist = getattr(value, "tolist", None)  # NumPy arrays and scalars
    if callable(tolist):
        return _jsonable(tolist())
    return repr(value)


def _coerce_result(item: Any, index: int) -> StatementResult:
    """A :class:`StatementResult` from a result or its JSON form."""
    if isinstance(item, StatementResult):
        return item
    if isinstance(item, Mapping):
        try:
            return StatementResult.from_json(dict(item))
        except (TypeError, ValueError) as exc:
            raise InvalidArgument(
                f"results[{index}]: {exc}; expected a StatementResult or its to_json() dict"
            ) from None
    raise InvalidArgument(
        f"results[{index}]: got {type(item).__name__}; expected a StatementResult or dict"
    )


def _coerce_diagnostic(item: Any) -> dict[str, Any]:
    """A JSON-ready dict for a diagnostic (a ``Diagnostic``, a dict or a string)."""
    if isinstance(item, Diagnostic):
        return {
            "file": item.file,
            "line": item.line,
            "column": item.column,
            "severity": item.severity,
            "message": item.message,
            "expected": item.expected,
            "construct": item.construct,
            "text": str(item),
        }
    if isinstance(item, Mapping):
        data = _jsonable(dict(item))
        data.setdefault("text", str(data.get("message", "")))
        return data
    return {"message": str(item), "text": str(item)}


def _unpack(run: Any) -> tuple[dict[str, Any], list[StatementResult], list[Any], dict[str, str]]:
    """``(meta, results, diagnostics, code_by_name)`` from a RunResult or a 3-tuple."""
    mirrors: Iterable[Any] = ()
    if all(hasattr(run, attr) for attr in ("meta", "results", "diagnostics")):
        meta, results, diagnostics = run.meta, run.results, run.diagnostics
        mirrors = getattr(run, "mirrors", None) or ()
    elif isinstance(run, (tuple, list)) and len(run) == 3:
        meta, results, diagnostics = run
    else:
        raise InvalidArgument(
            f"run: got {type(run).__name__}; expected a pipeline RunResult or a tuple "
            "(meta, results, diagnostics)"
        )
    if not isinstance(meta, Mapping):
        raise InvalidArgument(f"meta: got {type(meta).__name__}; expected a dict")
    code_by_name: dict[str, str] = {}
    for mirror in mirrors:
        source = getattr(mirror, "source", None)
        name = getattr(mirror, "name", None)
        if isinstance(source, str) and isinstance(name, str):
            code_by_name[name] = source
    coerced = [_coerce_result(item, i) for i, item in enumerate(results or ())]
    return dict(meta), coerced, list(diagnostics or ()), code_by_name


def _ordered(present: Iterable[str], canonical: Sequence[str]) -> list[str]:
    """``present`` in canonical order, unknown values appended sorted."""
    seen = set(present)
    return [s for s in canonical if s in seen] + sorted(seen - set(canonical))


def _mirror_key(result: StatementResult) -> str:
    return result.mirror_status or NO_MIRROR


def _module_row(module: str, results: list[StatementResult]) -> dict[str, Any]:
    lean = Counter(r.lean_status for r in results)
    mirror = Counter(_mirror_key(r) for r in results)
    checked = mirror["symbolic"] + mirror["certified"] + mirror["tested"]
    kernel = lean["proved"] + lean["proved-extra-axioms"]
    return {
        "module": module,
        "statements": len(results),
        "lean": dict(sorted(lean.items())),
        "mirror": dict(sorted(mirror.items())),
        "kernel_checked": kernel,
        "mirror_checked": checked,
        "refuted": mirror["refuted"],
        "examples": sum(r.examples for r in results),
        "mirror_coverage": round(checked / len(results), 4) if results else 0.0,
        # no statement of the module got a verdict (tested, symbolic or refuted)
        "fully_uncovered": checked + mirror["refuted"] == 0,
    }


#: Statuses whose reason says what kept a statement from being checked.
BLOCKED_STATUSES = ("untranslatable", "unbound", "error")
#: Reason heads (after ``cannot translate ``) that name the blocker themselves, and the key
#: they become: ``constant Foo.bar`` is ``unknown constant Foo.bar``.
_NAMED_HEADS = {
    "constant ": "unknown constant ",
    "recursive definition ": "recursive definition ",
    "definition ": "definition without a body ",
    "a quantifier over ": "quantifier over ",
    "coercion from ": "coercion from ",
    "projection ": "projection ",
    "named argument ": "named argument ",
}
#: Details (after ``: ``) that name the blocker better than the construct they follow.
_DETAIL_KEYS = {
    "type parameters are not drawn": "type parameter (no carrier to draw)",
    "its type is not written": "binder without a written type",
}


def _class_named(text: str) -> str | None:
    """The class a reason names (``… class MeasureSpace …``), if any."""
    words = text.replace(",", " ").replace(";", " ").split()
    for before, word in zip(words, words[1:]):
        if before == "class" and word[:1].isupper():
            return word.strip("`'\".()")
    return None


def _term_head(text: str) -> str:
    """The head name of a printed term: ``MeasureSpace Ω`` (as messages show terms) or, in
    reports written before that, ``App(fn=Const(name='MeasureSpace'), …)``."""
    if "name='" not in text:
        return text if text.startswith("(") else text.split(" ", 1)[0]
    return text.split("name='", 1)[1].split("'", 1)[0]


def blocker_key(status: str | None, reason: str | None, notation: str | None = None) -> str:
    """What blocked a statement, normalized so equal causes group together.

    ``unknown constant Foo.bar``, ``type class MeasureSpace``, ``notation ≃ᵐ`` (the token that
    stopped the parser, given as ``notation``), ``recursive definition f``, ``leanmirror error
    in check: KeyError`` …; otherwise the reason's construct, shortened.
    """
    text = " ".join((reason or "no reason given").split())
    if status == "error":
        head, _, rest = text.partition(": ")
        kind = rest.split(":", 1)[0].strip()
        return f"{head}: {kind}" if kind and len(kind) < 40 else head
    if notation:
        return f"notation {notation}"
    named = _class_named(text)
    if named:
        return f"type class {named}"
    text = text.removeprefix("cannot translate ")
    construct = text.partition(": ")[0]
    for head, key in _NAMED_HEADS.items():
        if construct.startswith(head):
            return key + _term_head(construct[len(head):])
    for phrase, key in _DETAIL_KEYS.items():
        if f": {phrase}" in text:
            return key
    if construct.startswith("type "):
        return "type " + _term_head(construct[len("type "):])
    if construct == "statement":
        return "statement did not parse"
    return construct if len(construct) <= 80 else construct[:77] + "..."


def _parse_constructs(diagnostics: Iterable[Any]) -> dict[str, str]:
    """Declaration name → the token that stopped parsing its statement (from the scanner's
    ``cannot parse the statement of NAME: …`` diagnostics)."""
    found: dict[str, str] = {}
    for item in diagnostics:
        construct = getattr(item, "construct", None)
        message = getattr(item, "message", "")
        if isinstance(item, Mapping):
            construct, message = item.get("construct"), str(item.get("message", ""))
        prefix = "cannot parse the statement of "
        if construct and message.startswith(prefix):
            found.setdefault(message[len(prefix):].split(":", 1)[0], str(construct))
    return found


def _blockers(statements: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per blocker: ``{key, anchor, count, statuses, statements: [{name, anchor}]}``,
    most frequent first. Sets each blocked statement's ``blocker`` (its row's anchor)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for statement in statements:
        if statement.get("mirror_status") in BLOCKED_STATUSES:
            groups.setdefault(statement["blocker_key"], []).append(statement)
    ordered = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
    rows = []
    for index, (key, members) in enumerate(ordered, start=1):
        anchor = f"blocker-{index}"
        for member in members:
            member["blocker"] = anchor
        rows.append({
            "key": key,
            "anchor": anchor,
            "count": len(members),
            "statuses": dict(sorted(Counter(m["mirror_status"] for m in members).items())),
            "statements": [{"name": m["name"], "anchor": m["anchor"]} for m in members],
        })
    return rows


def _catalog(meta: Mapping[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """The entries of the project's catalog (``[tool.leanmirror] catalog``), else one per
    binding: ``(title, [{op, lean_name, lean_defined, kernel, description}])``."""
    catalog = meta.get("catalog")
    if isinstance(catalog, Mapping) and isinstance(catalog.get("rows"), list):
        return str(catalog.get("title") or "Catalog"), list(catalog["rows"])
    rows = [{"op": b.get("lean_name"), "lean_name": b.get("lean_name"), "lean_defined": True,
             "kernel": b.get("implementation"), "description": b.get("description", "")}
            for b in meta.get("bindings") or () if isinstance(b, Mapping)]
    return "Bindings", rows


def _op_specs(results: list[StatementResult], meta: Mapping[str, Any]
              ) -> tuple[str, list[dict[str, Any]]]:
    """Per catalog entry (or binding): its Lean definition, its implementation and the
    implementation's conformance result. An entry without a Lean definition is UNKNOWN on
    the Lean side."""
    title, entries = _catalog(meta)
    by_name = {r.name: r for r in results}
    rows = []
    for entry in entries:
        defined = bool(entry.get("lean_defined", True))
        conformance = by_name.get(f"{entry.get('lean_name')}.conformance")
        rows.append({
            "op": entry.get("op"),
            "lean_name": entry.get("lean_name") if defined else None,
            "lean": (conformance.lean_status if conformance else "—") if defined else "UNKNOWN",
            "kernel": entry.get("kernel"),
            "conformance": conformance.mirror_status if conformance else None,
            "examples": conformance.examples if conformance else 0,
            "max_error": _jsonable(conformance.max_error) if conformance else None,
            "error_unit": conformance.error_unit if conformance else None,
            "description": entry.get("description", ""),
            "replay": conformance.replay if conformance else None,
        })
    return title, rows


def build_report(run: Any, previous: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The report document (what ``report.json`` holds) for a run.

    ``run`` is a ``mirror.product.pipeline.RunResult`` or a tuple ``(meta, results, diagnostics)``
    where results are :class:`StatementResult` objects (or their JSON dicts). With
    ``previous`` (an earlier report document) it also says what changed since
    (:func:`mirror.product.review.compare`).
    """
    meta, results, diagnostics, code_by_name = _unpack(run)
    results = sorted(results, key=lambda r: (r.module, r.name))
    for result in results:
        if result.code is None and result.name in code_by_name:
            result.code = code_by_name[result.name]
    meta = _jsonable(meta)
    for result in results:
        if result.mirror_status == "refuted" and result.counterexample and not result.replay:
            from mirror.product.replay import replay_command

            result.replay = replay_command(meta.get("project"), result.name,
                                           _jsonable(result.counterexample))
    meta.setdefault("tool", "leanmirror")
    meta.setdefault("method", "unknown")
    for key in ("version", "project", "lean_toolchain", "mathlib_rev", "generated_at"):
        meta.setdefault(key, None)
    meta["kernel"] = bool(meta.get("kernel", False))
    meta["report_format_version"] = REPORT_FORMAT_VERSION

    lean_statuses = _ordered((r.lean_status for r in results), LEAN_STATUSES)
    mirror_statuses = list(MIRROR_STATUSES) + [
        s for s in _ordered((_mirror_key(r) for r in results), ()) if s not in MIRROR_STATUSES
    ]
    if NO_MIRROR in mirror_statuses:
        mirror_statuses.remove(NO_MIRROR)
    mirror_statuses.append(NO_MIRROR)
    pairs = Counter((r.lean_status, _mirror_key(r)) for r in results)
    counts = {ls: {ms: pairs[(ls, ms)] for ms in mirror_statuses} for ls in lean_statuses}
    totals = {
        "statements": len(results),
        "lean": {ls: sum(counts[ls].values()) for ls in lean_statuses},
        "mirror": {ms: sum(counts[ls][ms] for ls in lean_statuses) for ms in mirror_statuses},
        "examples": sum(r.examples for r in results),
    }
    by_module: dict[str, list[StatementResult]] = {}
    for result in results:
        by_module.setdefault(result.module, []).append(result)
    modules = [_module_row(name, rows) for name, rows in sorted(by_module.items())]
    catalog_title, op_specs = _op_specs(results, meta)
    statements = [_jsonable(r.to_json()) for r in results]
    constructs = _parse_constructs(diagnostics)
    for index, (result, statement) in enumerate(zip(results, statements), start=1):
        statement.update(anchor=f"stmt-{index}", blocker=None, blocker_key=None)
        if result.mirror_status in BLOCKED_STATUSES:
            notation = constructs.get(result.name) if result.reason and "did not parse" in result.reason else None
            statement["blocker_key"] = blocker_key(result.mirror_status, result.reason, notation)
    document = {
        "meta": meta,
        "summary": {
            "lean_statuses": lean_statuses,
            "mirror_statuses": mirror_statuses,
            "counts": counts,
            "totals": totals,
        },
        "modules": modules,
        "op_specs": op_specs,
        "op_specs_title": catalog_title,
        "blockers": _blockers(statements),
        "statements": statements,
        "diagnostics": [_coerce_diagnostic(d) for d in diagnostics],
    }
    if previous is not None:
        from mirror.product.review import compare

        document["changes"] = compare(previous, statements)
    return document


def _format_number(value: Any) -> str:
    """Compact display of a float (or ``—`` for none)."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def _sort_value(value: Any) -> str:
    """A numeric sort key for ``data-value`` attributes (missing sorts first)."""
    if value is None:
        return "-1e308"
    if isinstance(value, str):
        return {"nan": "1e308", "inf": "1e308", "-inf": "-1e308"}.get(value, "0")
    return repr(float(value))


def _md_text(value: Any) -> str:
    """Escape text for a Markdown table cell or line (no HTML, no table breaks)."""
    text = " ".join(str(value).split())
    for char in "\\`*_[]<>|#":
        text = text.replace(char, "\\" + char)
    return text.replace("&", "&amp;")


def _md_fence(text: Any) -> str:
    """A fence longer than any backtick run in ``text`` (so untrusted text cannot escape)."""
    longest = run = 0
    for char in str(text):
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    return "`" * max(3, longest + 1)


def _method_label(meta: Mapping[str, Any]) -> str:
    method = meta.get("method", "unknown")
    if method == "exporter":
        return "Lean exporter (elaborated, kernel checked)" if meta.get("kernel") else "Lean exporter"
    if method == "dojo":
        return "LeanDojo traces"
    if method == "scanner":
        return "source scanner (no Lean toolchain)"
    return str(method)


def _svg_bar(module: Mapping[str, Any], order: Sequence[str], width: int = 220) -> list[dict]:
    """Segments ``{status, x, width, count, color}`` of a module's coverage bar."""
    total = module["statements"] or 1
    x = 0.0
    segments = []
    for status in order:
        count = module["mirror"].get(status, 0)
        if not count:
            continue
        w = width * count / total
        segments.append(
            {
                "status": status,
                "x": round(x, 2),
                "width": round(w, 2),
                "count": count,
                "color": _MIRROR_COLORS.get(status, "#999999"),
            }
        )
        x += w
    return segments


def _environment() -> jinja2.Environment:
    env = template_environment(jinja2.select_autoescape(enabled_extensions=("html", "html.j2")))
    env.filters["num"] = _format_number
    env.filters["sortval"] = _sort_value
    env.filters["md"] = _md_text
    env.filters["fence"] = _md_fence
    env.globals["mirror_colors"] = _MIRROR_COLORS
    env.globals["lean_colors"] = _LEAN_COLORS
    env.globals["svg_bar"] = _svg_bar
    return env


def _context(report: Mapping[str, Any]) -> dict[str, Any]:
    from mirror.product.review import CHANGE_KINDS, review_order, source_href

    meta = report["meta"]
    statements = review_order(report["statements"])
    links = {s["name"]: source_href(s.get("location"), meta.get("project"),
                                    meta.get("source_url")) for s in statements}
    return {
        "review_statements": statements,
        "source_links": links,
        "changes": report.get("changes"),
        "change_kinds": CHANGE_KINDS,
        "report": report,
        "meta": meta,
        "summary": report["summary"],
        "modules": [m for m in report["modules"] if not m.get("fully_uncovered")],
        "uncovered_modules": [m for m in report["modules"] if m.get("fully_uncovered")],
        "all_modules": report["modules"],
        "blockers": report.get("blockers", []),
        "op_specs": report.get("op_specs", []),
        "op_specs_title": report.get("op_specs_title", "Catalog"),
        "statements": report["statements"],
        "diagnostics": report["diagnostics"],
        "method_label": _method_label(meta),
        "kernel": bool(meta.get("kernel")),
        "no_mirror": NO_MIRROR,
    }


def render_markdown(report: Mapping[str, Any]) -> str:
    """``report.md`` text for a report document from :func:`build_report`."""
    return _environment().get_template("report.md.j2").render(_context(report))


def render_html(report: Mapping[str, Any]) -> str:
    """``report.html`` text (one self-contained page) for a report document."""
    return _environment().get_template("report.html.j2").render(_context(report))


def write_report(
    out_dir: str | Path,
    run: Any,
    formats: Sequence[str] = ("html", "md", "json"),
    previous: Mapping[str, Any] | None = None,
) -> dict[str, Path]:
    """Write the report of ``run`` into ``out_dir``; returns ``{format: path}``.

    ``run`` is a ``RunResult`` or ``(meta, results, diagnostics)``. Every file is rendered
    completely, written into a fresh directory and the set swapped in whole
    (:func:`mirror.product.publish.publish_report`), so an error, a full disk or a kill
    leaves the previous report set intact, never a mix of the two.
    """
    if isinstance(formats, str):
        formats = (formats,)
    unknown = [f for f in formats if f not in REPORT_FILES]
    if unknown:
        raise InvalidArgument(
            f"formats: got {unknown!r}; expected a subset of {sorted(REPORT_FILES)}"
        )
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InvalidArgument(f"out_dir: {str(out)!r} exists and is not a directory")
    report = build_report(run, previous)
    rendered: dict[str, str | dict] = {}
    for fmt in formats:
        if fmt == "json":
            rendered[fmt] = report
        elif fmt == "md":
            rendered[fmt] = render_markdown(report)
        else:
            rendered[fmt] = render_html(report)
    paths = publish_report(out, {REPORT_FILES[fmt]: content for fmt, content in rendered.items()},
                           family=REPORT_FILES.values())
    return {fmt: paths[REPORT_FILES[fmt]] for fmt in rendered}


__all__ = [
    "BLOCKED_STATUSES",
    "NO_MIRROR",
    "REPORT_FILES",
    "REPORT_FORMAT_VERSION",
    "ReportWriteError",
    "blocker_key",
    "build_report",
    "publish_report",
    "render_html",
    "render_markdown",
    "write_report",
]
