"""Styles of play for Space Dragons: the heuristic (:mod:`.heuristic`) with other weights.

Each is a bot level of its own (``--bots dragon-hunter,heuristic``): the rulebook's two
ways to score, the dragons won in the hunt and the symbols on the crew and dragons, and
a careful captain who protects the ship.
"""

from __future__ import annotations

from ..core.manifest import Archetype
from ..i18n import N_
from .heuristic import Weights

ARCHETYPES = (
    Archetype(
        N_("dragon-hunter"),
        N_("hires high cards and spends them on dragons"),
        Weights(dragon_prize=1.5, dragon_hope=16.0),
    ),
    Archetype(
        N_("symbol-hunter"),
        N_("plays for the science, mood and crime awards: every symbol counts double"),
        Weights(symbol_scale=3.0),
    ),
    Archetype(
        N_("shield-builder"),
        N_("hires shields and tools to keep its ship whole"),
        Weights(hire_shield=2.0, hire_tool=1.5, hire_damage=1.5),
    ),
)
