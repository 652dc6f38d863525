"""Styles of play for Space Race: the heuristic (:mod:`.heuristic`) with other weights.

Each is a bot level of its own (``--bots fuel-heavy,heuristic``). The plain heuristic
already scores every pick by what it adds to the end score now; these lean on one of the
game's ways to score beyond that, so a designer can see whether one strategy dominates.
"""

from __future__ import annotations

from ..core.manifest import Archetype
from ..i18n import N_
from .heuristic import Weights

ARCHETYPES = (
    Archetype(
        N_("fuel-heavy"),
        N_("keeps cards face down as Fuel: Flights won and the 5 VP for the most Fuel left"),
        Weights(fuel_per_danger=2.0, seen_danger_bonus=2.0),
    ),
    Archetype(
        N_("robot-heavy"),
        N_("builds robots: a Robot Part its robots lack is worth far more than its points now"),
        Weights(robot_progress=6.0),
    ),
    Archetype(
        N_("crystal-heavy"),
        N_("collects Crystals towards sets of four (9 VP a set)"),
        Weights(set_progress=5.0),
    ),
)
