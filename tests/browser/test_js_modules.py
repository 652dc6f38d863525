"""The page's JavaScript modules import each other without a circle: a module in a circle
runs before the modules it imports have finished loading, so a name it uses while loading
(a table of words built with ``N_``, a helper) is not there yet, and which one breaks
depends on which page imported the circle first."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "dragonlair" / "web" / "static"
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'"]*?\bfrom\s+["'](\.{1,2}/[^"']+)["']""", re.M)


def imports() -> dict[Path, set[Path]]:
    """Each module under static/js and the modules it imports statically."""
    graph: dict[Path, set[Path]] = {}
    for path in sorted((STATIC / "js").rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        graph[path] = {(path.parent / m).resolve() for m in IMPORT.findall(text)}
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


def test_no_module_imports_itself_through_others() -> None:
    assert circles(imports()) == []


def test_a_circle_is_found() -> None:
    a, b, c = Path("/a.js"), Path("/b.js"), Path("/c.js")
    assert circles({a: {b}, b: {c}, c: {a}}) == [["a.js", "b.js", "c.js", "a.js"]]
    assert circles({a: {b}, b: {c}, c: set()}) == []
