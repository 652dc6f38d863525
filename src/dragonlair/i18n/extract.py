"""A Babel extraction method for the games' puzzle files: each puzzle's ``title``,
``notes``, ``question`` and ``source`` are player-facing texts (the lobby, the table and
``dragonlair puzzles`` show them),
so they are messages of the catalog like any marked string (see babel.cfg)."""

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
