"""What a finished game of Dragon Stripes says beyond its result, for designers' tables.

Read from the finished state's public events and view only:

- ``start_seat``: the seat that takes the first turn;
- ``length``: ``turns`` taken;
- per seat: ``takeovers`` (knights bought from another seat), ``sold`` (its knight
  bought by another), ``banked`` (pots banked) and ``banked_gems``, ``stops`` and
  ``dangers`` drawn, ``penalties`` paid, ``head`` (reached the dragon's head) and
  ``woke`` (woke the dragon);
- ``position(view)`` (the manifest's ``features``): ``score_s``, each seat's public gem
  count (start, banked pots and takeover prices; the penalties are paid from behind the
  screen and not shown).
"""

from __future__ import annotations

from typing import Any

from ..core import State
from .view_types import DragonStripesView

LENGTH = ("turns",)
SEAT = (
    "takeovers",
    "sold",
    "banked",
    "banked_gems",
    "stops",
    "dangers",
    "penalties",
    "head",
    "woke",
)


def features(state: State) -> dict[str, Any]:
    """Start seat, length in turns and the per-seat features of a finished game."""
    n = state.game.players
    events = state.events_since(0, None)
    seats: list[dict[str, Any]] = [dict.fromkeys(SEAT, 0) for _ in range(n)]
    start = None
    turns = 0
    for e in events:
        kind = e["type"]
        if kind == "turn":
            turns += 1
            start = e["seat"] if start is None else start
        elif kind == "took":
            seats[e["seat"]]["takeovers"] += 1
            seats[e["from_seat"]]["sold"] += 1
        elif kind == "banked":
            seats[e["seat"]]["banked"] += 1
            seats[e["seat"]]["banked_gems"] += e["pot"]
        elif kind == "stop":
            seats[e["seat"]]["stops"] += 1
        elif kind == "danger":
            seats[e["seat"]]["dangers"] += 1
        elif kind == "penalty":
            seats[e["seat"]]["penalties"] += 1
        elif kind == "head":
            seats[e["seat"]]["head"] = 1
        elif kind == "woke":
            seats[e["seat"]]["woke"] = 1
    return {"start_seat": start, "length": {"turns": turns}, "seats": seats}


def position(view: DragonStripesView) -> dict[str, float]:
    """Each seat's publicly known gems: start, banked pots, takeover prices in and out."""
    start = view["start_gems"]
    return {
        f"score_{s}": float(start + g["banked"] + g["received"] - g["paid"])
        for s, g in enumerate(view["ledger"])
    }
