"""Styles of play for Dragon Stripes: the heuristic (:mod:`.heuristic`) with other weights.

Each is a bot level of its own (``--bots daring,cautious``): how far to push one's luck
up the dragon's back, and how readily to take the knight over.
"""

from __future__ import annotations

from ..core.manifest import Archetype
from .heuristic import Weights

ARCHETYPES = (
    Archetype(
        "daring",
        "pushes its luck: a Stop or a Danger worries it half as much",
        Weights(risk=0.5),
    ),
    Archetype(
        "cautious",
        "holds early: draws only while one more card is worth 2 gems or more",
        Weights(risk=1.5, draw_margin=2.0),
    ),
    Archetype(
        "raider",
        "takes the knight over readily, even at a loss of up to 5 gems",
        Weights(take_margin=-5.0),
    ),
)
