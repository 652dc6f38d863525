"""The page's JavaScript modules import each other without a circle: a module in a circle
runs before the modules it imports have finished loading, so a name it uses while loading
(a table of words built with ``N_``, a helper) is not there yet, and which one breaks
depends on which page imported the circle first."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "dragonlair"
STATIC = PACKAGE / "web" / "static"
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'"]*?\bfrom\s+["']([^"']+)["']""", re.M)
PAGE = "/static/js/"  # the page's modules' one address, which every game's board imports


def boards() -> list[Path]:
    """The built-in games' board modules, each in its game's package."""
    return sorted(PACKAGE.glob("*/web/board.js"))


def imports() -> dict[Path, set[Path]]:
    """Each module under static/js and each game's board, and the modules it imports
    statically (the page's by their address under ``/static/``)."""
    graph: dict[Path, set[Path]] = {}
    for path in [*sorted((STATIC / "js").rglob("*.js")), *boards()]:
        text = path.read_text(encoding="utf-8")
        graph[path] = {
            (
                STATIC / m.removeprefix("/static/") if m.startswith("/") else path.parent / m
            ).resolve()
            for m in IMPORT.findall(text)
        }
    return graph


def circles(graph: dict[Path, set[Path]]) -> list[list[str]]:
    """Every import circle found by a depth-first walk, as module names."""
    found: list[list[str]] = []
    state: dict[Path, int] = {}  # 1: on the walk's path, 2: done
    path: list[Path] = []

    def walk(node: Path) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append([p.name for p in path[path.index(nxt) :]] + [nxt.name])
            elif nxt in graph and state.get(nxt) is None:
                walk(nxt)
        path.pop()
        state[node] = 2

    for node in graph:
        if state.get(node) is None:
            walk(node)
    return found


def test_the_graph_is_read() -> None:
    graph = imports()
    names = {p.name: {q.name for q in qs} for p, qs in graph.items()}
    assert {"dom.js", "i18n.js", "table.js"} <= set(names)
    assert {"dom.js", "i18n.js"} <= names["table.js"]
    # every import names a module that exists
    missing = [(p.name, q) for p, qs in graph.items() for q in qs if not q.exists()]
    assert not missing


def test_the_built_in_boards_import_the_page_from_its_one_address() -> None:
    """A board is served from its game's package (``/static/games/<id>/``), as an outside
    game's is, so it imports the page's helpers by their address, never by a relative
    path, and the page and its board share one copy of each module."""
    found = {p.parent.parent.name: IMPORT.findall(p.read_text(encoding="utf-8")) for p in boards()}
    assert set(found) == {"space_dragons", "space_race", "dragon_stripes", "dragon_race"}
    for game, modules in found.items():
        assert modules and all(m.startswith(PAGE) for m in modules), (game, modules)
        assert {"/static/js/dom.js", "/static/js/i18n.js"} & set(modules), game
    assert not (STATIC / "js" / "games" / "space_race.js").exists()


def test_no_module_imports_itself_through_others() -> None:
    assert circles(imports()) == []


def test_a_circle_is_found() -> None:
    a, b, c = Path("/a.js"), Path("/b.js"), Path("/c.js")
    assert circles({a: {b}, b: {c}, c: {a}}) == [["a.js", "b.js", "c.js", "a.js"]]
    assert circles({a: {b}, b: {c}, c: set()}) == []
