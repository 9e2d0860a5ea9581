"""Line layout of printed properties: a long assignment broken at its calls' arguments.

The printer writes each hypothesis and the conclusion on one line; an unfolded definition
makes that line thousands of characters long, unreadable in review and one huge diff line
for any edit. :func:`wrap_assignment` breaks such a line at the arguments of its calls and
lambdas, packing short arguments together and closing brackets on the last line (a
one-constant edit in the Lean statement changes one short line). The result parses to the
same Python syntax tree as the line it replaces, or the line is kept as it was.
"""

from __future__ import annotations

import ast

#: Lines are broken when longer than this.
WIDTH = 96
_STEP = 4


def _fits(text: str, column: int) -> bool:
    return column + len(text) <= WIDTH


def _arguments(node: ast.Call) -> list[tuple[str, ast.AST]]:
    items: list[tuple[str, ast.AST]] = [("", arg) for arg in node.args]
    items += [(f"{kw.arg}=" if kw.arg else "**", kw.value) for kw in node.keywords]
    return items


def _lay(node: ast.AST, column: int, indent: int) -> list[str]:
    """``node`` as lines: the first continues at ``column`` of a line indented by
    ``indent``, the others carry their own indentation."""
    text = ast.unparse(node)
    if _fits(text, column):
        return [text]
    if isinstance(node, ast.Call) and not any(isinstance(a, ast.Starred) for a in node.args):
        return _bracketed(ast.unparse(node.func) + "(", _arguments(node), ")", indent)
    if isinstance(node, ast.BinOp) and type(node.op) in _PRECEDENCE:
        return _operation(node, column, indent)
    if isinstance(node, ast.Lambda):
        head = f"lambda {ast.unparse(node.args)}: " if node.args.args else "lambda: "
        body = _lay(node.body, column + len(head), indent)
        if isinstance(node.body, (ast.Tuple, ast.NamedExpr)):
            return [text]
        return [head + body[0], *body[1:]]
    return [text]


#: Binding strength of the binary operators the printer writes (higher binds tighter).
_PRECEDENCE = {ast.Add: 1, ast.Sub: 1, ast.Mult: 2, ast.Div: 2, ast.FloorDiv: 2, ast.Mod: 2,
               ast.MatMult: 2, ast.Pow: 4}
_ATOMS = (ast.Call, ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Tuple, ast.List)


def _strength(node: ast.AST) -> int:
    if isinstance(node, ast.BinOp):
        return _PRECEDENCE.get(type(node.op), 0)
    if isinstance(node, ast.UnaryOp):
        return 3
    return 10 if isinstance(node, _ATOMS) else 0


def _operand(node: ast.AST, parent: ast.BinOp, right: bool, column: int,
             indent: int) -> list[str]:
    """An operand of ``parent``, in parentheses where Python's precedence needs them."""
    mine, theirs = _strength(node), _PRECEDENCE[type(parent.op)]
    power = isinstance(parent.op, ast.Pow)
    if mine < theirs or (mine == theirs and right != power):
        inner = _lay(node, column + 1, indent)
        inner[0] = "(" + inner[0]
        inner[-1] = inner[-1] + ")"
        return inner
    return _lay(node, column, indent)


def _operation(node: ast.BinOp, column: int, indent: int) -> list[str]:
    """``left op right`` broken before the operator, the right side one step in."""
    symbol = _SYMBOLS[type(node.op)]
    left = _operand(node.left, node, False, column, indent)
    step = indent + _STEP
    right = _operand(node.right, node, True, step + len(symbol) + 1, step)
    return [*left, " " * step + f"{symbol} {right[0]}", *right[1:]]


_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
            ast.Mod: "%", ast.MatMult: "@", ast.Pow: "**"}


def _bracketed(opening: str, items: list[tuple[str, ast.AST]], closing: str,
               outer: int) -> list[str]:
    indent = outer + _STEP
    pad = " " * indent
    lines = [opening]
    current: str | None = None
    for position, (prefix, value) in enumerate(items):
        last = position == len(items) - 1
        tail = closing if last else ","
        laid = _lay(value, indent + len(prefix), indent)
        piece = [prefix + laid[0], *laid[1:]]
        piece[-1] += tail
        if len(piece) == 1 and current is not None and _fits(current + " " + piece[0], 0):
            current = current + " " + piece[0]
            continue
        if current is not None:
            lines.append(current)
        if len(piece) == 1:
            current = pad + piece[0]
        else:
            lines.append(pad + piece[0])
            lines.extend(piece[1:-1])
            current = piece[-1]
    if current is not None:
        lines.append(current)
    if not items:
        lines[-1] += closing
    return lines


_BREAKABLE = (ast.Call, ast.Lambda)


def _head_and_tail(statement: ast.stmt) -> tuple[str, ast.AST] | None:
    """``name = call``, ``return call`` or ``return a, call`` (a lambda for a call too): the
    text before the call, and the call."""
    if isinstance(statement, ast.Assign) and isinstance(statement.value, _BREAKABLE):
        return " = ".join(ast.unparse(t) for t in statement.targets) + " = ", statement.value
    if isinstance(statement, ast.Return) and isinstance(statement.value, _BREAKABLE):
        return "return ", statement.value
    if (isinstance(statement, ast.Return) and isinstance(statement.value, ast.Tuple)
            and statement.value.elts and isinstance(statement.value.elts[-1], ast.Call)):
        *first, last = statement.value.elts
        return "return " + "".join(ast.unparse(e) + ", " for e in first), last
    return None


def wrap_assignment(line: str) -> list[str]:
    """An indented ``name = call(…)`` or ``return a, call(…)`` line, broken into lines of at
    most :data:`WIDTH` characters where its calls allow; the line itself when it fits or
    cannot be broken."""
    if len(line) <= WIDTH:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    try:
        return _wrapped(line, indent)
    except RecursionError:
        return [line]  # nested deeper than the ast module recurses (a 900-term sum): as it is


def _wrapped(line: str, indent: int) -> list[str]:
    try:
        tree = ast.parse(line.strip())
    except SyntaxError:
        return [line]
    if len(tree.body) != 1:
        return [line]
    split = _head_and_tail(tree.body[0])
    if split is None:
        return [line]
    head, value = " " * indent + split[0], split[1]
    laid = _lay(value, len(head), indent)
    lines = [head + laid[0], *laid[1:]]
    original = ast.dump(tree)
    try:
        same = ast.dump(ast.parse("\n".join(l[indent:] for l in lines))) == original
    except SyntaxError:
        same = False
    return lines if same else [line]


__all__ = ["WIDTH", "wrap_assignment"]
