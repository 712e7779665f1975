"""The layers' import rules, read from the source (docs/architecture.md).

Every module of spades_core/, spades_server/ and ui/ is parsed (ast), with the imports inside
functions and under ``TYPE_CHECKING``; the tests fail on an import loop (a type-only one too)
and on an import against the one-way flow.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("spades_core", "spades_server", "ui", "locales")
# ui/ is one package per screen over one shared package; the entry points and the
# composition root stand at the top (ui/__init__.py and each package's __init__.py say so).
SHARED = "ui.shared"
SCREENS = ("ui.table", "ui.rooms", "ui.lessons", "ui.drills", "ui.progress")
TOP = {"ui", "ui.root", "ui.main", "ui.botworker"}
# Each screen's controller: only the composition root may import one (the lessons screen by
# name, lazily); no other screen, no renderer.
SCREEN_CONTROLLERS = {"ui.table.app", "ui.rooms.rooms", "ui.lessons.lessons_screen",
                      "ui.progress.progress"}
# The table's controllers of one concern each, which its App composes.
TABLE_CONTROLLERS = {"ui.table.flow", "ui.table.moves", "ui.table.coaching", "ui.table.menus",
                     "ui.table.settings", "ui.table.boot"}
# The rooms' controller's parts of one concern each, objects its Rooms owns and composes.
ROOMS_PARTS = {"ui.rooms.waiting_room", "ui.rooms.room_table", "ui.rooms.daily_board"}
SCREEN_CONTROLLERS |= TABLE_CONTROLLERS | ROOMS_PARTS
CONTROLLER = {"ui.table.app", "ui.root", "ui.main", "ui.botworker", "ui.shared.botrunner",
              "ui.rooms.rooms", "ui.progress.progress", *TABLE_CONTROLLERS, *ROOMS_PARTS}
# Modules that draw or describe what is drawn: plain data in, elements (or markup) out.
RENDERERS = {"ui.table.render", "ui.table.dialogs", "ui.shared.cardview", "ui.shared.cardface",
             "ui.shared.models", "ui.table.icons", "ui.shared.dom", "ui.shared.ports",
             "ui.lessons.lessons_screen", "ui.drills.drills_screen", "ui.table.viewer",
             "ui.table.viewer_screen", "ui.rooms.rooms_screen", "ui.lessons.lesson_view",
             "ui.progress.progress_screen", "ui.progress.charts"}
LESSONS = {"spades_core.lessons", "spades_core.lessons.drills", "ui.lessons", "ui.drills"}


def package_of(module: str) -> str:
    """The ui package a module belongs to (``ui.table``...), the module itself at the top
    of ui/, or its first part outside ui/ (``spades_core``, ``locales``...)."""
    parts = module.split(".")
    if parts[0] != "ui":
        return parts[0]
    return ".".join(parts[:2]) if len(parts) > 2 or module in SCREENS + (SHARED,) else module


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


# --- the rules, as functions of the edges (so that the checker itself can be tested) ------


def lessons_modules(modules: set[str]) -> set[str]:
    return {m for m in modules if m in LESSONS or package_of(m) in LESSONS
            or m.startswith("spades_core.lessons.")}


def shared_violations(edges: list[Edge]) -> list[str]:
    """ui.shared imports no screen package and nothing at the top of ui/."""
    return [_where(e) for e in edges if package_of(e.source) == SHARED
            and e.target.startswith("ui") and package_of(e.target) not in (SHARED, "ui")]


def screen_violations(edges: list[Edge]) -> list[str]:
    """A screen package imports no other screen's controller and nothing at the top of ui/
    (the root, the entry points); a lessons or drills module is imported by no other screen."""
    bad = []
    for e in edges:
        source, target = package_of(e.source), package_of(e.target)
        if source not in SCREENS or not e.target.startswith("ui") or target == source:
            continue
        if (target in TOP - {"ui"} or e.target in SCREEN_CONTROLLERS
                or (target in LESSONS and source not in LESSONS)):
            bad.append(_where(e))
    return bad


def controller_importers(edges: list[Edge]) -> list[str]:
    """Only the root imports a screen's controller (the lessons' one by name only)."""
    return [_where(e) for e in edges if e.target in SCREEN_CONTROLLERS
            and package_of(e.target) != package_of(e.source)
            and e.source != "ui.root"]  # the root hands the table the rooms' controller


def homeless(modules: set[str]) -> list[str]:
    """Every module of ui/ is in the shared package, a screen package or at the top."""
    return sorted(m for m in modules if m.startswith("ui") and m not in TOP
                  and package_of(m) not in (SHARED, *SCREENS))


def test_the_walk_sees_every_module_and_the_imports_inside_functions() -> None:
    assert {"ui.table.app", "ui.table.render", "ui.shared.models",
            "spades_core.views"} <= MODULES.keys()
    lazy = [e for e in EDGES
            if e.source == "ui.shared.botrunner" and e.target == "spades_core.hints"]
    assert lazy and not any(e.top_level for e in lazy)


def test_no_import_loop() -> None:
    assert cycles(graph()) == []


def test_every_page_module_lives_in_a_package_by_screen() -> None:
    assert homeless(set(MODULES)) == []
    for package in (SHARED, *SCREENS):
        init = ROOT / Path(*package.split(".")) / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and "May import" in doc, package  # says what it holds and may import


def test_the_shared_package_imports_no_screen() -> None:
    assert shared_violations(EDGES) == []


def test_a_screen_imports_no_other_screens_controller_nor_the_root() -> None:
    assert screen_violations(EDGES) == []


def test_only_the_root_imports_a_screens_controller() -> None:
    assert controller_importers(EDGES) == []


def test_the_engine_never_imports_the_page() -> None:
    bad = [_where(e) for e in EDGES
           if e.source.startswith("spades_core") and e.target.split(".")[0] == "ui"]
    assert bad == []


def test_renderers_never_import_the_controller() -> None:
    bad = [_where(e) for e in EDGES if e.source in RENDERERS
           and e.target in CONTROLLER | SCREEN_CONTROLLERS]
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
    """What main.py imports at import time (and all that follows) holds no lessons or drills
    code: the lessons screen is imported when it opens (ui/root.py)."""
    first = closure("ui.main", graph(top_level_only=True)) | closure(
        "ui.root", graph(top_level_only=True))
    assert "ui.table.app" in first
    assert lessons_modules(first) == set()


def test_only_the_root_knows_both_the_controller_and_the_lessons_screen() -> None:
    text = (ROOT / "ui" / "root.py").read_text(encoding="utf-8")
    assert '"ui.lessons.lessons_screen"' in text
    bad = [_where(e) for e in EDGES if e.target == "ui.lessons.lessons_screen"]
    assert bad == []  # imported by name, lazily, by ui/root.py only
    assert "lessons_screen" not in (ROOT / "ui" / "table" / "app.py").read_text(encoding="utf-8")


def test_the_catalogues_namer_imports_neither_the_engine_nor_the_page() -> None:
    bad = [_where(e) for e in EDGES if e.source.startswith("locales")
           and e.target.split(".")[0] in ("spades_core", "ui")]
    assert bad == []


# --- the checker itself: each rule fails on a violation ---------------------------------------


def _edge(source: str, target: str, top_level: bool = True) -> Edge:
    return Edge(source, target, (), top_level, 1)


def test_the_checker_finds_a_loop() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    assert cycles({"ui.x.m": {"ui.x"}, "ui.x": {"ui.x.m"}}) == []  # a module and its package


def test_the_checker_finds_an_upward_or_sideways_import() -> None:
    assert package_of("ui.table.app") == "ui.table" and package_of("ui.root") == "ui.root"
    assert package_of("ui.shared") == SHARED and package_of("spades_core.game") == "spades_core"
    assert shared_violations([_edge("ui.shared.models", "ui.table.render")])
    assert shared_violations([_edge("ui.shared.dom", "ui.root")])
    assert not shared_violations([_edge("ui.shared.cardview", "ui.shared.models")])
    assert screen_violations([_edge("ui.rooms.rooms_screen", "ui.table.app", False)])
    assert screen_violations([_edge("ui.lessons.lessons_screen", "ui.main")])
    assert screen_violations([_edge("ui.table.render", "ui.drills.drills_run")])
    assert screen_violations([_edge("ui.drills.drills_screen", "ui.lessons.lessons_screen")])
    assert not screen_violations([_edge("ui.rooms.rooms", "ui.table.render")])
    assert not screen_violations([_edge("ui.lessons.lessons_screen", "ui.drills.drills_run")])
    assert controller_importers([_edge("ui.shared.ports", "ui.table.app")])
    assert controller_importers([_edge("ui.main", "ui.lessons.lessons_screen")])
    assert not controller_importers([_edge("ui.root", "ui.table.app")])
    assert homeless({"ui.flat_module", "ui.table.app", "ui.main"}) == ["ui.flat_module"]
    first = closure("ui.main", {"ui.main": {"ui.root"}, "ui.root": {"ui.drills.drills_run"},
                                "ui.drills.drills_run": set()})
    assert lessons_modules(first) == {"ui.drills.drills_run"}


def test_the_checker_sees_an_import_made_only_for_the_types(tmp_path: Path) -> None:
    """An import under ``if TYPE_CHECKING:`` is an edge too: a type-only loop is a loop."""
    path = tmp_path / "flow.py"
    path.write_text("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                    "    from .rooms import Room\n", encoding="utf-8")
    edges = edges_of("spades_server.flow", path)
    assert [(e.target, e.names) for e in edges if e.target.startswith("spades_server")] == [
        ("spades_server.rooms", ("Room",))]
