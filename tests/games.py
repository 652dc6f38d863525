"""Which games the tests see: dragonlair's own four, and any other installed distribution's
(an outside game such as examples/high_card, which every surface must play too).

Tests over every game take ``dragonlair.games()``; tests that hold facts about the four
built-in games (a table of their id fields, their seeds) take :data:`OWN_GAMES`, and use
the spec and the manifest for anything else (player counts, simultaneous turns)."""

from __future__ import annotations

from importlib import metadata

import dragonlair
from dragonlair.core.manifest import ENTRY_POINT_GROUP

OWN_GAMES: tuple[str, ...] = tuple(
    sorted(
        ep.name
        for ep in metadata.distribution("dragonlair").entry_points
        if ep.group == ENTRY_POINT_GROUP
    )
)
"""The games dragonlair's own distribution registers."""


def table_size(game_id: str, wanted: int = 3) -> int:
    """``wanted`` players, or the nearest count ``game_id``'s spec allows."""
    spec = dragonlair.spec(game_id)
    return min(max(wanted, spec.min_players), spec.max_players)
