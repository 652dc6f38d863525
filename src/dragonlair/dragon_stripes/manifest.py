"""Dragon Stripes on every surface (see :mod:`dragonlair.core.manifest`)."""

from __future__ import annotations

from typing import Any

from ..core import Game
from ..core.data import public_components
from ..core.manifest import GameManifest
from .archetypes import ARCHETYPES
from .features import position
from .heuristic import Heuristic
from .rules import DragonStripes


def catalog(game: Game) -> dict[str, Any]:
    """The stripes, cards, gems and price bands, and the game's total of gems."""
    if not isinstance(game, DragonStripes):
        raise TypeError(f"not a Dragon Stripes game: {game!r}")
    out = public_components(game.components)
    out["total_gems"] = game.components.total_gems
    return out


MANIFEST = GameManifest(
    game=DragonStripes,
    heuristic=Heuristic,
    # A turn's choices move the outcome only a little against the luck of the draw, so
    # ISMCTS compares its moves on the same sampled deals (paired); docs/bots.md.
    ismcts={"paired": True},
    layout="dragonlair.rl.layouts.dragon_stripes:LAYOUT",
    terminal="dragonlair.tui.games.dragon_stripes:TERMINAL",
    browser_board="dragonlair.dragon_stripes:web/board.js",
    catalog=catalog,
    package=__package__,
    features=position,
    archetypes=ARCHETYPES,
    position="dragonlair.dragon_stripes.position",
    puzzles="data/puzzles",
    game_data="dragonlair.dragon_stripes.features",
    tutorial="data/tutorial.toml",
)
