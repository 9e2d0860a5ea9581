"""The layout's rules, read from the imports: no cycles, imports only down the pipeline, and
generic code never importing the bundled project.

Stage order (lowest first): ``bridge`` < ``mirror.translate`` < ``mirror.evaluate`` <
``mirror.sample`` < ``mirror.judge`` < ``mirror.bind`` < ``mirror.product``.
``mirror.bundled`` is the bundled project's code: it may import every stage, and no generic
module (anything under ``mirror/`` outside ``mirror/bundled/``, or under ``bridge/``) may
import it. A root package (``bridge``, ``mirror``) is a facade re-exporting its stages' public
names: its rank is the highest rank it imports.

Every import is read with :mod:`ast`: at module level and inside functions, ``import x``,
``from x import y``, relative ``from . import y`` and ``importlib.import_module("literal")``.
The checker is run on the real tree and, as its controls, on planted temporary trees.
"""

from __future__ import annotations

import ast
import functools
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP_PACKAGES = ("bridge", "mirror")

#: Rank of each stage, lowest first.
STAGES = {
    "bridge": 0,
    "mirror.translate": 1,
    "mirror.evaluate": 2,
    "mirror.sample": 3,
    "mirror.judge": 4,
    "mirror.bind": 5,
    "mirror.product": 6,
    "mirror.bundled": 7,
}
BUNDLED = "mirror.bundled"
FACADES = frozenset(TOP_PACKAGES)

# Known cycles, each one strongly connected component, tolerated only as exactly this set of
# modules (a cycle that grows or a new one still fails). Nothing else belongs here: helper
# "types" broke the two that stood here (elaborator ↔ forms, runtime ↔ mp_runtime/recursion).
KNOWN_CYCLES: frozenset[frozenset[str]] = frozenset()


@dataclass(frozen=True)
class Import:
    """One import of an internal module: who imports what, and where."""

    source: str
    target: str
    path: str
    line: int

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def module_files(root: Path) -> dict[str, Path]:
    """Dotted module name → file, for every module under the top packages of ``root``."""
    modules: dict[str, Path] = {}
    for top in TOP_PACKAGES:
        for path in sorted((root / top).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _relative_base(module: str, path: Path, level: int) -> str:
    """The package a ``from`` import with ``level`` dots starts from."""
    parts = module.split(".")
    if not _is_package(path):
        parts.pop()
    return ".".join(parts[: len(parts) - (level - 1)])


def _import_module_literal(node: ast.Call) -> str | None:
    """``importlib.import_module("x")`` / ``import_module("x")`` / ``__import__("x")``."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in ("import_module", "__import__") or not node.args:
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def _named_targets(node: ast.AST, module: str, path: Path, known: set[str]) -> list[str]:
    """The modules one AST node imports (maybe none)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            prefix = _relative_base(module, path, node.level)
            base = f"{prefix}.{base}" if base else prefix
        return [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
    if isinstance(node, ast.Call):
        literal = _import_module_literal(node)
        return [literal] if literal else []
    return []


def _internal(target: str, known: set[str]) -> str | None:
    """The innermost known module ``target`` names (``a.b.c`` of a package ``a.b`` → ``a.b``)."""
    parts = target.split(".")
    while parts:
        name = ".".join(parts)
        if name in known:
            return name
        parts.pop()
    return None


def read_imports(root: Path) -> list[Import]:
    """Every import of an internal module by a module under ``root``'s top packages."""
    files = module_files(root)
    known = set(files)
    found: dict[Import, None] = {}  # in reading order, each once
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(tree):
            for target in _named_targets(node, module, path, known):
                internal = _internal(target, known)
                if internal and internal != module:
                    found.setdefault(Import(module, internal, rel, node.lineno))
    return list(found)


def stage_of(module: str) -> str | None:
    """The stage a module belongs to (the longest stage prefix), or None for a facade."""
    if module in FACADES:
        return None
    best = None
    for stage in STAGES:
        if module == stage or module.startswith(stage + "."):
            if best is None or len(stage) > len(best):
                best = stage
    return best


def is_bundled(module: str) -> bool:
    return module == BUNDLED or module.startswith(BUNDLED + ".")


def ranks(imports: list[Import]) -> dict[str, int]:
    """Rank of every module; a facade ranks as the highest module it imports."""
    rank: dict[str, int] = {}
    for item in imports:
        for module in (item.source, item.target):
            stage = stage_of(module)
            if stage is not None:
                rank[module] = STAGES[stage]
    for facade in FACADES:
        below = [rank.get(i.target, 0) for i in imports if i.source == facade]
        rank[facade] = max(below, default=0)
    return rank


def _strong_components(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components


def _cycle_through(component: set[str], first: dict[tuple[str, str], Import]) -> list[Import]:
    """One concrete cycle inside ``component``, as the imports that form it."""
    start = min(component)
    inside = {(s, t) for (s, t) in first if s in component and t in component}
    path, seen, node = [], {start: 0}, start
    while True:
        nxt = min(t for (s, t) in inside if s == node)
        path.append(first[(node, nxt)])
        if nxt in seen:
            return path[seen[nxt]:]
        seen[nxt] = len(path)
        node = nxt


def _graph(imports) -> tuple[dict[str, set[str]], dict[tuple[str, str], Import]]:
    """Module → the modules it imports, and the first import of each edge."""
    first: dict[tuple[str, str], Import] = {}
    for item in imports:
        first.setdefault((item.source, item.target), item)
    graph: dict[str, set[str]] = {}
    for source, target in first:
        graph.setdefault(source, set()).add(target)
        graph.setdefault(target, set())
    return graph, first


def cycle_failures(imports: list[Import], allowed=frozenset()) -> list[str]:
    graph, first = _graph(imports)
    failures = []
    for component in _strong_components(graph):
        if len(component) < 2 or frozenset(component) in allowed:
            continue
        cycle = _cycle_through(component, first)
        chain = " -> ".join([cycle[0].source] + [i.target for i in cycle])
        edges = "; ".join(f"{i.where} imports {i.target}" for i in cycle)
        failures.append(f"{cycle[0].where}: import cycle {chain} ({edges})")
    return failures


def direction_failures(imports: list[Import]) -> list[str]:
    rank = ranks(imports)
    failures = []
    for item in imports:
        if item.source in FACADES or is_bundled(item.target) or not {
                item.source, item.target} <= set(rank):
            continue
        if rank[item.target] > rank[item.source]:
            failures.append(
                f"{item.where}: upward import: {item.source} ({stage_of(item.source) or 'facade'})"
                f" imports {item.target} ({stage_of(item.target) or 'facade'}), a later stage;"
                " imports point only down the pipeline")
    return failures


def bundled_failures(imports: list[Import]) -> list[str]:
    return [f"{i.where}: generic module {i.source} imports the bundled project {i.target};"
            " the bundled project is bound through its configuration"
            for i in imports if is_bundled(i.target) and not is_bundled(i.source)]


def stage_failures(root: Path) -> list[str]:
    """Every module but a facade belongs to a stage (or to the bundled project)."""
    return [f"{path.relative_to(root).as_posix()}:1: {module} belongs to no stage; move it into one"
            for module, path in module_files(root).items()
            if module not in FACADES and stage_of(module) is None]


def layout_failures(root: Path, allowed=frozenset()) -> list[str]:
    imports = read_imports(root)
    return (stage_failures(root) + cycle_failures(imports, allowed) + direction_failures(imports)
            + bundled_failures(imports))


# --- the real tree ----------------------------------------------------------------------------


@functools.cache
def real_imports() -> tuple[Import, ...]:
    return tuple(read_imports(ROOT))


def test_no_import_cycles():
    failures = cycle_failures(list(real_imports()), KNOWN_CYCLES)
    assert not failures, "\n".join(failures)


def test_imports_point_down_the_pipeline():
    failures = direction_failures(list(real_imports()))
    assert not failures, "\n".join(failures)


def test_every_module_belongs_to_a_stage():
    failures = stage_failures(ROOT)
    assert not failures, "\n".join(failures)


def test_generic_code_never_imports_the_bundled_project():
    failures = bundled_failures(list(real_imports()))
    assert not failures, "\n".join(failures)


def test_known_cycles_are_still_cycles():
    """An allow-list entry that no longer matches a cycle is stale: delete it."""
    graph, _ = _graph(real_imports())
    present = {frozenset(c) for c in _strong_components(graph) if len(c) > 1}
    stale = [sorted(entry) for entry in KNOWN_CYCLES if entry not in present]
    assert not stale, f"KNOWN_CYCLES entries no longer cycles, delete them: {stale}"


def packages(root: Path) -> dict[str, Path]:
    return {m: p for m, p in module_files(root).items() if _is_package(p)}


@pytest.mark.parametrize("package", sorted(packages(ROOT)))
def test_package_docstring_names_its_stage_and_imports(package):
    path = packages(ROOT)[package]
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    stage = stage_of(package) or package
    name = stage.rsplit(".", 1)[-1]
    assert name in doc.lower(), f"{path}: the docstring does not name its stage {name!r}"
    assert "may import" in doc.lower(), f"{path}: the docstring does not say what it may import"


# --- controls: the checker on planted trees ---------------------------------------------------


def plant(root: Path, files: dict[str, str]) -> Path:
    """A tree with the two top packages and ``files`` (relative path → source)."""
    for package in ("bridge", "mirror", "mirror/translate", "mirror/evaluate", "mirror/bind",
                    "mirror/product", "mirror/bundled"):
        (root / package).mkdir(parents=True, exist_ok=True)
        (root / package / "__init__.py").write_text('"""planted."""\n')
    for rel, source in files.items():
        (root / rel).write_text(textwrap.dedent(source))
    return root


def test_control_clean_tree_passes(tmp_path):
    root = plant(tmp_path, {
        "bridge/a.py": "X = 1\n",
        "mirror/translate/t.py": "from bridge.a import X\n",
        "mirror/product/p.py": "from mirror.translate import t\nfrom . import q\n",
        "mirror/product/q.py": "import mirror.translate.t\n",
        "mirror/bundled/b.py": "from mirror.product.p import t\n",
    })
    assert layout_failures(root) == []


def test_control_planted_cycle_is_reported(tmp_path):
    root = plant(tmp_path, {
        "bridge/a.py": "from bridge import b\n",
        "bridge/b.py": "def f():\n    from .a import g\n",
    })
    failures = layout_failures(root)
    assert len(failures) == 1, failures
    assert "import cycle bridge.a -> bridge.b -> bridge.a" in failures[0]
    assert "bridge/a.py:1" in failures[0] and "bridge/b.py:2" in failures[0]


def test_control_planted_cycle_through_import_module_is_reported(tmp_path):
    root = plant(tmp_path, {
        "mirror/translate/x.py": "import mirror.translate.y\n",
        "mirror/translate/y.py": ("import importlib\n\n\ndef load():\n"
                                  "    return importlib.import_module('mirror.translate.x')\n"),
    })
    failures = layout_failures(root)
    assert len(failures) == 1 and "mirror/translate/y.py:5" in failures[0], failures


def test_control_allowed_cycle_is_exactly_the_listed_set(tmp_path):
    root = plant(tmp_path, {
        "bridge/a.py": "import bridge.b\n",
        "bridge/b.py": "import bridge.a\n",
        "bridge/c.py": "import bridge.b\n",
    })
    assert layout_failures(root, frozenset({frozenset({"bridge.a", "bridge.b"})})) == []
    grown = plant(tmp_path, {"bridge/b.py": "import bridge.a\nimport bridge.c\n"})
    assert len(layout_failures(grown, frozenset({frozenset({"bridge.a", "bridge.b"})}))) == 1


def test_control_planted_upward_import_is_reported(tmp_path):
    root = plant(tmp_path, {
        "mirror/product/p.py": "X = 1\n",
        "mirror/translate/t.py": "def f():\n    from mirror.product.p import X\n",
        "bridge/a.py": "from mirror.translate import t\n",
    })
    failures = layout_failures(root)
    assert len(failures) == 2, failures
    assert sorted(f.split(": ")[:2] for f in failures) == [
        ["bridge/a.py:1", "upward import"], ["mirror/translate/t.py:2", "upward import"]]


def test_control_facade_ranks_as_what_it_imports(tmp_path):
    root = plant(tmp_path, {
        "mirror/__init__.py": '"""f."""\ndef __getattr__(n):\n    from mirror.bind.r import b\n',
        "mirror/bind/r.py": "b = 1\n",
        "mirror/product/p.py": "from mirror import b\n",
        "mirror/translate/t.py": "from mirror import b\n",
    })
    failures = layout_failures(root)
    assert len(failures) == 1 and failures[0].startswith("mirror/translate/t.py:1: upward"), \
        failures


def test_control_module_in_no_stage_is_reported(tmp_path):
    root = plant(tmp_path, {
        "mirror/loose.py": "X = 1\n",
    })
    assert layout_failures(root) == [
        "mirror/loose.py:1: mirror.loose belongs to no stage; move it into one"]


def test_control_planted_bundled_import_is_reported(tmp_path):
    root = plant(tmp_path, {
        "mirror/bundled/k.py": "from mirror.bind import r\n",
        "mirror/bind/r.py": "X = 1\n",
        "mirror/product/p.py": "import importlib\nimportlib.import_module('mirror.bundled.k')\n",
    })
    failures = layout_failures(root)
    assert failures == ["mirror/product/p.py:2: generic module mirror.product.p imports the"
                        " bundled project mirror.bundled.k; the bundled project is bound through"
                        " its configuration"]


# --- module sizes and a clean root ------------------------------------------------------------

#: No hand-written module is longer; generated code (``mirrors/``) is not counted.
MAX_LINES = 600
MAINTAINED = ("bridge", "mirror", "tools", "bench", "tests")
# Modules other helpers are splitting (issue 23); the lead deletes each entry after merging
# that split. Nothing else belongs here.
KNOWN_LARGE: frozenset[str] = frozenset()


def module_lengths(root: Path) -> dict[str, int]:
    return {path.relative_to(root).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
            for top in MAINTAINED for path in sorted((root / top).rglob("*.py"))}


def test_no_module_is_over_the_size_limit():
    long = [f"{path}: {n} lines, over {MAX_LINES}; split it by concern"
            for path, n in module_lengths(ROOT).items() if n > MAX_LINES and path not in KNOWN_LARGE]
    assert not long, "\n".join(long)


def test_known_large_modules_are_still_large():
    """An entry whose module was split (or moved) is stale: delete it."""
    lengths = module_lengths(ROOT)
    stale = sorted(p for p in KNOWN_LARGE if lengths.get(p, 0) <= MAX_LINES)
    assert not stale, f"KNOWN_LARGE entries no longer over {MAX_LINES} lines, delete them: {stale}"


def test_the_root_holds_no_scripts():
    scripts = sorted(p.name for p in ROOT.glob("*.py"))
    assert not scripts, f"Python files at the repository root {scripts}: move them to tools/ " \
                        "(maintained, tested) or delete them"


@pytest.mark.parametrize("script", sorted(p.name for p in (ROOT / "tools").glob("*.py")))
def test_every_tool_is_maintained(script):
    """A script in ``tools/`` is run by a test, the Makefile or the README's instructions."""
    name = Path(script).stem
    readers = [ROOT / "Makefile", ROOT / "README.md", *sorted((ROOT / "tests").rglob("*.py"))]
    assert any(f"tools/{script}" in p.read_text(encoding="utf-8") or f"tools.{name}" in
               p.read_text(encoding="utf-8") for p in readers), \
        f"tools/{script}: no test, Makefile rule or README instruction uses it"
