"""Styles of play for Dragon Stripes: the heuristic (:mod:`.heuristic`) with other weights.

Each is a bot level of its own (``--bots daring,cautious``): how far to push one's luck
up the dragon's back, and how readily to take the knight over.
"""

from __future__ import annotations

from ..core.manifest import Archetype
from ..i18n import N_
from .heuristic import Weights

ARCHETYPES = (
    Archetype(
        N_("daring"),
        N_("pushes its luck: a Stop or a Danger worries it half as much"),
        Weights(risk=0.5),
    ),
    Archetype(
        N_("cautious"),
        N_("holds early: draws only while one more card is worth 2 gems or more"),
        Weights(risk=1.5, draw_margin=2.0),
    ),
    Archetype(
        N_("raider"),
        N_("takes the knight over readily, even at a loss of up to 5 gems"),
        Weights(take_margin=-5.0),
    ),
)
