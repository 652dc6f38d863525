"""Puzzles: positions each game ships as data, and opening a game from any file.

A game's puzzles are position files in the folder of its package its manifest names
(``puzzles``, ``data/puzzles`` in the four games), ``<name>.toml``, each a
position (see :mod:`dragonlair.core.position`) with a ``title``, its ``source`` (the
rulebook example or ruling it is built from), ``notes`` for the player, the ``seat`` it
asks about and the ``question``. A puzzle is named ``<game id>/<name>``.

:func:`open_game` is how the command line opens what a player gives it: ``puzzle:<name>``,
a position file (TOML or JSON), a record, a saved state or a terminal save file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import DragonlairError
from .manifest import manifest
from .position import BadPosition, parse
from .registry import games, load, position
from .state import State

PUZZLE_PREFIX = "puzzle:"


@dataclass(frozen=True)
class Puzzle:
    """One shipped position."""

    name: str
    game: str
    title: str
    source: str
    notes: str
    seat: int | None
    question: str
    doc: dict[str, Any]

    def state(self, seed: int | None = None) -> State:
        """The puzzle's position as a game in progress (hidden parts it leaves out are
        dealt from ``seed``)."""
        return position(self.game, self.doc, seed=seed)


def _read(game_id: str, stem: str, text: str) -> Puzzle:
    doc = parse(text)
    seat = doc.get("seat")
    return Puzzle(
        name=f"{game_id}/{stem}",
        game=game_id,
        title=str(doc.get("title", stem)),
        source=str(doc.get("source", "")),
        notes=str(doc.get("notes", "")),
        seat=seat if isinstance(seat, int) and not isinstance(seat, bool) else None,
        question=str(doc.get("question", "")),
        doc=doc,
    )


def puzzles(game_id: str | None = None) -> list[Puzzle]:
    """The puzzles every installed game ships (or only ``game_id``'s), by name."""
    out = []
    for gid in [game_id] if game_id is not None else games():
        m = manifest(gid)
        if m.puzzles is None:
            continue
        folder = m.data(m.puzzles)
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".toml"):
                out.append(_read(gid, entry.name[: -len(".toml")], entry.read_text("utf-8")))
    return out


def puzzle(name: str) -> Puzzle:
    """The puzzle called ``name`` (``<game id>/<name>``, or just ``<name>`` when only one
    game has it); DragonlairError lists the puzzles there are."""
    found = [p for p in puzzles() if name in (p.name, p.name.split("/", 1)[1])]
    if len(found) == 1:
        return found[0]
    names = ", ".join(p.name for p in puzzles())
    if found:
        raise DragonlairError(
            f"{name!r} names several puzzles ({', '.join(p.name for p in found)}): "
            "write <game>/<name>"
        )
    raise DragonlairError(f"no puzzle {name!r}; the puzzles are: {names}")


def open_game(source: str | Path, seed: int | None = None) -> State:
    """A game to play or analyse from ``puzzle:<name>``, a position file, a record, a
    saved state or a terminal save file; positions deal what they leave out from
    ``seed``."""
    text_source = str(source)
    if text_source.startswith(PUZZLE_PREFIX):
        return puzzle(text_source[len(PUZZLE_PREFIX) :]).state(seed)
    path = Path(source)
    try:
        text = path.read_text("utf-8")
    except OSError as e:
        raise DragonlairError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise DragonlairError(f"{path} is not a text file") from None
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    if isinstance(doc, dict):
        fmt = str(doc.get("format", ""))
        if fmt.startswith("dragonlair.save/"):
            doc = doc.get("state")
            return load(json.dumps(doc))
        if fmt.startswith(("dragonlair.state/", "dragonlair.record/")):
            return load(text)
    try:
        parsed = parse(text)
    except BadPosition as e:
        raise DragonlairError(f"{path} is not a position, record or saved game: {e}") from None
    game_id = parsed.get("game")
    if not isinstance(game_id, str):
        raise BadPosition("game", f'{path} does not say which game it is (game = "...")')
    return position(game_id, parsed, seed=seed)
