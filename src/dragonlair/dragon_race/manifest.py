"""The Great Dragon Race on every surface (see :mod:`dragonlair.core.manifest`)."""

from __future__ import annotations

from typing import Any

from ..core import Game
from ..core.data import public_components
from ..core.manifest import GameManifest
from .archetypes import ARCHETYPES
from .features import position
from .heuristic import Heuristic
from .rules import DragonRace


def catalog(game: Game) -> dict[str, Any]:
    """The board, the characters and every card with its name and what it does."""
    if not isinstance(game, DragonRace):
        raise TypeError(f"not a Great Dragon Race game: {game!r}")
    out = public_components(game.components)
    for card in out["cards"]:
        card["name"] = game.card_name[card["id"]]
        card["text"] = game.describe_card(card["id"])
    return out


MANIFEST = GameManifest(
    game=DragonRace,
    heuristic=Heuristic,
    # Rollouts of a race are long and mostly luck: ISMCTS scores the leaves of its tree
    # with the heuristic's evaluate instead (depth 0); docs/bots.md has the measurements.
    ismcts={"depth": 0},
    layout="dragonlair.rl.layouts.dragon_race:LAYOUT",
    terminal="dragonlair.tui.games.dragon_race:TERMINAL",
    browser_board="dragonlair.dragon_race:web/board.js",
    catalog=catalog,
    package=__package__,
    features=position,
    archetypes=ARCHETYPES,
    position="dragonlair.dragon_race.position",
    puzzles="data/puzzles",
    game_data="dragonlair.dragon_race.features",
    tutorial="data/tutorial.toml",
)
