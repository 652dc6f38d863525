"""Space Race on every surface (see :mod:`dragonlair.core.manifest`)."""

from __future__ import annotations

from typing import Any

from ..core import Game
from ..core.manifest import GameManifest
from .archetypes import ARCHETYPES
from .features import position
from .heuristic import Heuristic
from .rules import SpaceRace


def catalog(game: Game) -> dict[str, Any]:
    """Every card of the game's data (:meth:`SpaceRace.catalog`) and the factions."""
    if not isinstance(game, SpaceRace):
        raise TypeError(f"not a Space Race game: {game!r}")
    out = game.catalog()
    out["cockpits"] = [c.faction for c in game.components.cockpits]
    out["engines"] = [e.faction for e in game.components.engines]
    return out


MANIFEST = GameManifest(
    game=SpaceRace,
    heuristic=Heuristic,
    # The generic ISMCTS defaults (random rollouts, the other seats playing this heuristic
    # in the tree) measured strongest here; docs/bots.md has the tables.
    ismcts={},
    layout="dragonlair.rl.layouts.space_race:LAYOUT",
    terminal="dragonlair.tui.games.space_race:TERMINAL",
    browser_board="dragonlair.space_race:web/board.js",
    catalog=catalog,
    package=__package__,
    features=position,
    archetypes=ARCHETYPES,
    position="dragonlair.space_race.position",
    puzzles="data/puzzles",
    tutorial="data/tutorial.toml",
    game_data="dragonlair.space_race.features",
)
