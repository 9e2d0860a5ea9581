"""Terms several properties of one generated module repeat, written once as functions.

Unfolding a Lean definition inlines its body into every statement that uses it, so the
properties of one module can repeat the same long term (a recurrence step, a logit) word
for word. :func:`share_terms` writes each such term once, as ``def term_<digest>(rt, …):
return <term>`` over the names it uses freely, and calls it where the term stood. A call
evaluates its arguments (plain names) and then the term, at the same place, so laziness
(``rt.ite`` branches, recursion bodies) and results are those of the inlined term.
"""

from __future__ import annotations

import ast
import textwrap

from mirror.translate.identifiers import digest
from mirror.translate.layout import WIDTH, wrap_assignment

#: Terms shorter than this (in characters, on one line) stay where they are.
MIN_CHARS = 120
_SHAREABLE = (ast.Call, ast.Lambda)


def _free_names(node: ast.AST) -> set[str]:
    """The names ``node`` reads that no lambda inside it binds."""
    if isinstance(node, ast.Lambda):
        bound = {a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs}
        return _free_names(node.body) - bound
    if isinstance(node, ast.Name):
        return {node.id}
    out: set[str] = set()
    for child in ast.iter_child_nodes(node):
        out |= _free_names(child)
    return out


def _canonical(node: ast.AST) -> tuple[str, list[str]]:
    """``ast.dump`` of ``node`` with the names its lambdas bind and the names it reads freely
    (but ``rt``) numbered in order, and those free names in that order: two terms equal up
    to their names have one key, and each is the shared term applied to its own names."""
    counter = [0]
    free: list[str] = []

    def rename(n: ast.AST, scope: dict[str, str]) -> ast.AST:
        if isinstance(n, ast.Lambda):
            inner = dict(scope)
            args = []
            for a in n.args.args:
                inner[a.arg] = f"__bound{counter[0]}"
                counter[0] += 1
                args.append(ast.arg(inner[a.arg]))
            arguments = ast.arguments(posonlyargs=[], args=args, vararg=None, kwonlyargs=[],
                                      kw_defaults=[], kwarg=None, defaults=[])
            return ast.Lambda(arguments, rename(n.body, inner))
        if isinstance(n, ast.Name):
            if n.id in scope or n.id == "rt":
                return ast.Name(scope.get(n.id, n.id), ast.Load())
            if n.id not in free:
                free.append(n.id)
            return ast.Name(f"__free{free.index(n.id)}", ast.Load())
        fields = {}
        for field, value in ast.iter_fields(n):
            if isinstance(value, list):
                fields[field] = [rename(v, scope) if isinstance(v, ast.AST) else v for v in value]
            elif isinstance(value, ast.AST):
                fields[field] = rename(value, scope)
            else:
                fields[field] = value
        return type(n)(**fields)

    return ast.dump(rename(node, {})), free


def _expressions(function: ast.FunctionDef) -> list[ast.AST]:
    return [s.value for s in function.body
            if isinstance(s, (ast.Assign, ast.Return)) and s.value is not None]


def _tops(expr: ast.AST) -> set[int]:
    """The nodes that are a statement's whole value (a hypothesis, the conclusion): they
    stay written out, so every property still reads as its statement."""
    tops = {id(expr)}
    if isinstance(expr, ast.Tuple):
        tops |= {id(e) for e in expr.elts}
    return tops


def _candidates(functions: list[ast.FunctionDef]) -> dict[str, tuple[int, ast.AST]]:
    """Canonical key of a long term → (how often it occurs, its first occurrence)."""
    found: dict[str, tuple[int, ast.AST]] = {}
    for function in functions:
        for expr in _expressions(function):
            tops = _tops(expr)
            for node in ast.walk(expr):
                if (isinstance(node, _SHAREABLE) and id(node) not in tops
                        and len(ast.unparse(node)) >= MIN_CHARS):
                    key = _canonical(node)[0]
                    count, first = found.get(key, (0, node))
                    found[key] = (count + 1, first)
    return found


class _Replace(ast.NodeTransformer):
    """Every occurrence of the term ``key`` → ``name(rt?, its own free names…)``."""

    def __init__(self, key: str, name: str, uses_rt: bool, tops: set[int]) -> None:
        self.key, self.name, self.uses_rt, self.tops, self.count = key, name, uses_rt, tops, 0

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, _SHAREABLE) and id(node) not in self.tops:
            key, free = _canonical(node)
            if key == self.key:
                self.count += 1
                names = (["rt"] if self.uses_rt else []) + free
                return ast.Call(ast.Name(self.name, ast.Load()),
                                [ast.Name(n, ast.Load()) for n in names], [])
        return super().generic_visit(node)


def _relaid(source: str, key: str, name: str, uses_rt: bool) -> str:
    """``source`` (one function) with every occurrence of the term ``key`` replaced."""
    tree = ast.parse(source)
    lines = source.split("\n")
    function = tree.body[0]
    for statement in reversed(function.body):
        if not isinstance(statement, (ast.Assign, ast.Return)) or statement.value is None:
            continue
        replace = _Replace(key, name, uses_rt, _tops(statement.value))
        new = replace.visit(statement)
        if replace.count:
            indent = " " * statement.col_offset
            laid = wrap_assignment(indent + _statement_text(ast.fix_missing_locations(new)))
            lines[statement.lineno - 1:statement.end_lineno] = laid
    return "\n".join(lines)


def _statement_text(statement: ast.stmt) -> str:
    """``statement`` on one line; ``return a, b`` without parentheses, as the printer has it."""
    if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Tuple):
        return "return " + ", ".join(ast.unparse(e) for e in statement.value.elts)
    return ast.unparse(statement)


def share_terms(sources: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """Property name → source, with repeated long terms called instead; and the source of
    the term functions (in the order of their names)."""
    current = {fn: src for fn, src in sources.items() if _one_function(src)}
    shared: dict[str, str] = {}
    while True:
        functions = [ast.parse(s).body[0] for s in current.values()]
        repeated = [(len(ast.unparse(node)), key, node)
                    for key, (count, node) in _candidates(functions).items() if count > 1]
        if not repeated:
            break
        _, key, node = max(repeated, key=lambda item: (item[0], item[1]))
        text = ast.unparse(node)
        name = f"term_{digest(text, 8)}"
        uses_rt = "rt" in _free_names(node)
        params = (["rt"] if uses_rt else []) + _canonical(node)[1]
        replaced = {fn: _relaid(src, key, name, uses_rt) for fn, src in current.items()}
        users = ", ".join(fn for fn in current if replaced[fn] != current[fn])
        current = replaced
        body = wrap_assignment(f"    return {text}")
        used_in = textwrap.wrap(f"in {users}", WIDTH - 2, break_on_hyphens=False)
        shared[name] = "\n".join([*(f"# {line}" for line in used_in),
                                  f"def {name}({', '.join(params)}):", *body])
    return {**sources, **current}, [shared[name] for name in sorted(shared)]


def _one_function(source: str) -> bool:
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return False
    return len(body) == 1 and isinstance(body[0], ast.FunctionDef)


__all__ = ["MIN_CHARS", "share_terms"]
