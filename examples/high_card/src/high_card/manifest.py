"""High Card on every surface of dragonlair: the one object the ``dragonlair.games``
entry point names. The terminal parts and the RL layout are named by reference, so
listing the games imports neither Rich nor NumPy."""

from __future__ import annotations

from typing import Any

from dragonlair.core import Game
from dragonlair.core.manifest import GameManifest

from .heuristic import Heuristic
from .rules import CARDS, HAND, HighCard


def catalog(game: Game) -> dict[str, Any]:
    """The printed cards (their numbers) and the hand size, for the browser."""
    return {"cards": list(range(1, CARDS + 1)), "hand": HAND}


MANIFEST = GameManifest(
    game=HighCard,
    heuristic=Heuristic,
    ismcts={},
    layout="high_card.layout:LAYOUT",
    terminal="high_card.terminal:TERMINAL",
    browser_board="high_card:web/board.js",
    catalog=catalog,
    package=__package__,
)
