"""The layers' import rules, read from the source (docs/architecture.md).

Every module of spades_core/ and ui/ is parsed (ast), with the imports inside functions;
the tests fail on an import loop and on an import against the one-way flow.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("spades_core", "ui", "locales")
CONTROLLER = {"ui.app", "ui.root", "ui.main", "ui.botrunner"}
# Modules that draw or describe what is drawn: plain data in, elements (or markup) out.
RENDERERS = {"ui.render", "ui.dialogs", "ui.cardview", "ui.cardface", "ui.models", "ui.icons",
             "ui.dom", "ui.ports", "ui.lessons_screen", "ui.drills_screen", "ui.viewer",
             "ui.viewer_screen"}
LESSONS = {"ui.lessons_screen", "ui.lessons_player", "ui.lessons_progress", "spades_core.lessons",
           "spades_core.lessons.drills", "ui.drills_screen", "ui.drills_run", "ui.drills_progress"}


@dataclass(frozen=True)
class Edge:
    source: str
    target: str  # a module of the project, or an outside module's full name
    names: tuple[str, ...]  # the names imported ``from`` it
    top_level: bool  # at module level (run when the module is imported)
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


MODULES = project_modules()


def _resolve(source: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = source.split(".") if path.name == "__init__.py" else source.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _top_level_nodes(tree: ast.Module) -> set[int]:
    """ids of the import nodes run at import time (not inside a def)."""
    top: set[int] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                top.add(id(child))
            visit(child)

    visit(tree)
    return top


def edges_of(source: str, path: Path) -> list[Edge]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = _top_level_nodes(tree)
    edges = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                edges.append(Edge(source, alias.name, (), id(node) in top, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(source, path, node)
            names = tuple(alias.name for alias in node.names)
            edges.append(Edge(source, base, names, id(node) in top, node.lineno))
            for name in names:  # ``from . import render``: the submodule itself
                if f"{base}.{name}" in MODULES:
                    edges.append(Edge(source, f"{base}.{name}", (), id(node) in top,
                                      node.lineno))
    return edges


EDGES = [edge for name, path in MODULES.items() for edge in edges_of(name, path)]


def _internal(edge: Edge) -> bool:
    return edge.target in MODULES and edge.target != edge.source


def graph(top_level_only: bool = False) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {name: set() for name in MODULES}
    for edge in EDGES:
        if _internal(edge) and (edge.top_level or not top_level_only):
            out[edge.source].add(edge.target)
    return out


def _is_package_parent(source: str, target: str) -> bool:
    """A module importing its own package's ``__init__`` (``from . import x`` where x is a
    name): Python runs the parent first, so this is no loop."""
    return source.startswith(target + ".")


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def strongconnect(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if _is_package_parent(node, target):
                continue
            if target not in index:
                strongconnect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                item = stack.pop()
                on_stack.discard(item)
                component.append(item)
                if item == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in sorted(edges):
        if name not in index:
            strongconnect(name)
    return found


def closure(start: str, edges: dict[str, set[str]]) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        for target in edges[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def _where(edge: Edge) -> str:
    return f"{edge.source} (line {edge.line}) imports {edge.target} {list(edge.names)}"


# --- the rules -----------------------------------------------------------------------------


def test_the_walk_sees_every_module_and_the_imports_inside_functions() -> None:
    assert {"ui.app", "ui.render", "ui.models", "spades_core.views"} <= MODULES.keys()
    lazy = [e for e in EDGES if e.source == "ui.botrunner" and e.target == "spades_core.hints"]
    assert lazy and not any(e.top_level for e in lazy)


def test_no_import_loop() -> None:
    assert cycles(graph()) == []


def test_the_engine_never_imports_the_page() -> None:
    bad = [_where(e) for e in EDGES
           if e.source.startswith("spades_core") and e.target.split(".")[0] == "ui"]
    assert bad == []


def test_renderers_never_import_the_controller() -> None:
    bad = [_where(e) for e in EDGES if e.source in RENDERERS and e.target in CONTROLLER]
    assert bad == []


def test_renderers_never_see_a_game_state() -> None:
    bad = [_where(e) for e in EDGES if e.source in RENDERERS
           and ("GameState" in e.names or (e.target in ("spades_core.game",)
                and not set(e.names) <= {"HandResult", "Phase"}))]
    assert bad == []


def test_the_page_uses_no_private_name_of_the_engine() -> None:
    bad = [_where(e) for e in EDGES if e.source.startswith("ui")
           and e.target.startswith("spades_core")
           and (any(n.startswith("_") for n in e.names)
                or any(part.startswith("_") and part != "__init__"
                       for part in e.target.split(".")))]
    assert bad == []


def test_the_first_screen_loads_no_lesson_module() -> None:
    """What main.py imports at import time (and all that follows) holds no lessons code:
    the lessons screen is imported when it opens (ui/root.py)."""
    first = closure("ui.main", graph(top_level_only=True)) | closure(
        "ui.root", graph(top_level_only=True))
    assert first & LESSONS == set()


def test_only_the_root_knows_both_the_controller_and_the_lessons_screen() -> None:
    text = (ROOT / "ui" / "root.py").read_text(encoding="utf-8")
    assert '"ui.lessons_screen"' in text
    bad = [_where(e) for e in EDGES if e.target == "ui.lessons_screen"]
    assert bad == []  # imported by name, lazily, by ui/root.py only
    assert "lessons_screen" not in (ROOT / "ui" / "app.py").read_text(encoding="utf-8")


def test_the_catalogues_namer_imports_neither_the_engine_nor_the_page() -> None:
    bad = [_where(e) for e in EDGES if e.source.startswith("locales")
           and e.target.split(".")[0] in ("spades_core", "ui")]
    assert bad == []
