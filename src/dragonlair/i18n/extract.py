"""A Babel extraction method for the games' puzzle files: each puzzle's ``title``,
``notes``, ``question`` and ``source`` are player-facing texts (the lobby, the table and
``dragonlair puzzles`` show them),
so they are messages of the catalog like any marked string (see babel.cfg); so are a
tutorial's title, summary and each step's text (:mod:`dragonlair.tutorial`)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from typing import IO, Any

FIELDS = ("title", "notes", "question", "source")


def puzzles(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """``(line, function, message, comments)`` for each player-facing field of a puzzle."""
    data = fileobj.read()
    doc = tomllib.loads(data.decode("utf-8"))
    lines = data.decode("utf-8").splitlines()
    for field in FIELDS:
        text = doc.get(field)
        if isinstance(text, str) and text:
            line = next((i for i, s in enumerate(lines, 1) if s.startswith(f"{field} =")), 1)
            yield line, None, text, [f"puzzle {field}"]


def tutorials(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """``(line, function, message, comments)`` for a tutorial's title, summary and steps'
    texts (stripped, as the tutorial reads them)."""
    data = fileobj.read().decode("utf-8")
    doc = tomllib.loads(data)
    lines = data.splitlines()

    def line_of(prefix: str, after: int = 0) -> int:
        return next((i for i, s in enumerate(lines, 1) if i > after and s.startswith(prefix)), 1)

    for field in ("title", "summary"):
        text = doc.get(field)
        if isinstance(text, str) and text.strip():
            yield line_of(f"{field} ="), None, text.strip(), [f"tutorial {field}"]
    at = 0
    for n, step in enumerate(doc.get("steps", []), 1):
        at = line_of("[[steps]]", at)
        text = step.get("text") if isinstance(step, dict) else None
        if isinstance(text, str) and text.strip():
            yield at, None, text.strip(), [f"tutorial step {n}"]
