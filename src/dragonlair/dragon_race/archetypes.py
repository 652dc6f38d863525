"""Styles of play for The Great Dragon Race: the heuristic (:mod:`.heuristic`) with other
weights.

Each is a bot level of its own (``--bots halt-keeper,heuristic``). The rulebook's hint is
to keep HALT! cards to cancel other players' special cards and, near the Finish, their
moves; these styles take it further, or ignore it.
"""

from __future__ import annotations

from ..core.manifest import Archetype
from ..i18n import N_
from .heuristic import Weights

ARCHETYPES = (
    Archetype(
        N_("halt-keeper"),
        N_("keeps its HALT! cards for cancelling: moves with one only if nothing else comes close"),
        Weights(halt_as_number=12.0),
    ),
    Archetype(
        N_("spoiler"),
        N_("halts and hinders: cancels what costs it 2 spots or puts a rival 5 ahead"),
        Weights(halt_loss=2, halt_lead=5, harm_ahead=1.0, harm_behind=0.5),
    ),
    Archetype(
        N_("racer"),
        N_("just races: moves with HALT! cards as numbers, ignores the rivals' pawns"),
        Weights(halt_as_number=0.0, harm_ahead=0.0, harm_behind=0.0, halt_loss=6, halt_lead=12),
    ),
)
