#!/usr/bin/env python3
"""The package's import graph and sizes, for docs/architecture.md (a measurement, not a
test; ``tests/core/test_import_graph.py`` and ``lint-imports`` hold the rules).

Prints the circles of the import graph (every import counted, deferred and
``TYPE_CHECKING`` ones included, as grimp reads them), the largest modules by lines and
the functions over 80 lines, each with the lines of its body (a command's signature
declares its options, one ``Annotated`` parameter each, which is not logic to split).

    .venv/bin/python scripts/import_graph.py
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import grimp  # noqa: E402
from tests.core.test_import_graph import circles  # noqa: E402

PACKAGE = ROOT / "src" / "dragonlair"
LONG = 80


def main() -> None:
    graph = grimp.build_graph("dragonlair", cache_dir=None)
    found = sorted(sorted(c) for c in circles(graph))
    print(f"{len(graph.modules)} modules; {len(found)} import circles")
    for c in found:
        print("  circle:", ", ".join(m.removeprefix("dragonlair.") for m in c))
    sizes: list[tuple[int, str]] = []
    long: list[tuple[int, int, str]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(PACKAGE).as_posix()
        sizes.append((text.count("\n"), name))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                body = (node.end_lineno or node.lineno) - node.body[0].lineno + 1
                if lines > LONG:
                    long.append((lines, body, f"{name}:{node.name}"))
    print("largest modules (lines):")
    for lines, name in sorted(sizes, reverse=True)[:8]:
        print(f"  {name} {lines:,}")
    print(f"{len(long)} functions over {LONG} lines, the longest (lines, of them the body):")
    for lines, body, name in sorted(long, reverse=True)[:10]:
        print(f"  {name} {lines} ({body})")
    bodies = sorted(((body, name) for _, body, name in long if body > LONG), reverse=True)
    print(f"{len(bodies)} with a body over {LONG} lines:", ", ".join(f"{n} {b}" for b, n in bodies))


if __name__ == "__main__":
    main()
