"""Space Dragons on every surface (see :mod:`dragonlair.core.manifest`)."""

from __future__ import annotations

from typing import Any

from ..core import Game
from ..core.data import public_components
from ..core.manifest import GameManifest
from .archetypes import ARCHETYPES
from .features import position
from .heuristic import Heuristic
from .rules import SpaceDragons


def catalog(game: Game) -> dict[str, Any]:
    """The crew cards and dragons with their labels, and the awards of the scoring cards
    with their signs as this table scores them (``b_sides``), largest first."""
    if not isinstance(game, SpaceDragons):
        raise TypeError(f"not a Space Dragons game: {game!r}")
    out = public_components(game.components)
    for card, label in zip(out["crew"], game.tables.card_labels[1:], strict=True):
        card["label"] = label
    for dragon, label in zip(out["dragons"], game.tables.dragon_labels[1:], strict=True):
        dragon["label"] = label
    out["awards"] = {
        symbol: [[[rank, pts] for rank, pts in side] for side in sides]
        for symbol, sides in zip(("science", "mood", "crime"), game.tables.scoring, strict=True)
    }
    return out


MANIFEST = GameManifest(
    game=SpaceDragons,
    heuristic=Heuristic,
    # The generic ISMCTS defaults (random rollouts, the other seats playing this heuristic
    # in the tree) measured strongest here; docs/bots.md has the comparison.
    ismcts={},
    layout="dragonlair.rl.layouts.space_dragons:LAYOUT",
    terminal="dragonlair.tui.games.space_dragons:TERMINAL",
    browser_board="dragonlair.space_dragons:web/board.js",
    catalog=catalog,
    package=__package__,
    features=position,
    archetypes=ARCHETYPES,
    position="dragonlair.space_dragons.position",
    puzzles="data/puzzles",
    game_data="dragonlair.space_dragons.features",
    tutorial="data/tutorial.toml",
)
