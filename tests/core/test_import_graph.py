"""The package's import graph has no circles but those named here.

Every import counts: at module level, inside functions (deferred) and under
``TYPE_CHECKING``, as grimp (import-linter's graph, which the dev extra installs) reads
them. The layers themselves are import-linter contracts (``.importlinter``, run by
``make lint``); this test catches what layers cannot, a circle among modules no contract
names.
"""

from __future__ import annotations

import pytest

grimp = pytest.importorskip("grimp")

# The circles that still stand, each named with its modules: none. A new circle fails the
# test; one that must stand for a while is named here with its modules, and why.
KNOWN: frozenset[frozenset[str]] = frozenset()


def circles(graph: object) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative): every set of modules that import each other, directly or not."""
    g: object = graph
    modules = sorted(g.modules)  # type: ignore[attr-defined]
    edges = {m: sorted(g.find_modules_directly_imported_by(m)) for m in modules}  # type: ignore[attr-defined]
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in modules:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = len(index)
                stack.append(v)
                on_stack.add(v)
            for j in range(i, len(edges[v])):
                w = edges[v][j]
                if w not in index:
                    work.append((v, j + 1))
                    work.append((w, 0))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                if low[v] == index[v]:
                    component = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.add(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[v])
    return found


def test_no_import_circles_but_the_known_ones() -> None:
    graph = grimp.build_graph("dragonlair", cache_dir=None)
    new = [sorted(c) for c in circles(graph) if c not in KNOWN]
    assert not new, f"import circles: {new}"


def test_circles_finds_a_circle_through_a_deferred_import() -> None:
    # the finder itself, on a graph with a circle of three and a tail
    graph = grimp.ImportGraph()
    for a, b in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")]:
        graph.add_import(importer=a, imported=b)
    assert circles(graph) == [frozenset({"p.a", "p.b", "p.c"})]


KERNEL = (
    "state",
    "chains",
    "game_views",
    "game",
    "actions",
    "rng",
    "events",
    "record",
    "result",
    "spec",
)


def test_the_kernel_imports_nothing_above_it() -> None:
    graph = grimp.build_graph("dragonlair", cache_dir=None)
    kernel = {f"dragonlair.core.{m}" for m in KERNEL}
    below = kernel | {
        "dragonlair.core.errors",
        "dragonlair.core.clones",
        "dragonlair.core.view_types",
        "dragonlair.errors",
        "dragonlair.i18n",
    }
    for module in kernel:
        reached = graph.find_upstream_modules(module) | {module}
        assert reached <= below, f"{module} reaches {sorted(reached - below)}"
