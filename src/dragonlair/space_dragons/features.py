"""What a finished game of Space Dragons says beyond its result, for designers' tables.

Read from the finished state's events (each seat's own, so a seat's drafted cards are
known to it) and its public view only:

- ``start_seat``: the seat that drew the highest start card (it starts round 1);
- ``length``: ``rounds`` of the hunt played;
- per seat: ``dragons`` claimed, ``rounds_won``, ``shields`` and ``damage`` at the end,
  ``crosshair_hits`` taken, ``played`` (the crew cards played, as space-separated ids) and
  ``drafted`` (the nine crew cards hired, as ids);
- ``position(view)`` (the manifest's ``features``): ``score_s``, each seat's public score
  during the game (card points shown so far).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..core import Game, State
from .view_types import SpaceDragonsView

if TYPE_CHECKING:
    from .rules import SpaceDragons

LENGTH = ("rounds",)
SEAT = ("dragons", "rounds_won", "shields", "damage", "crosshair_hits", "played", "drafted")


def features(state: State) -> dict[str, Any]:
    """Start seat, length in rounds and the per-seat features of a finished game."""
    n = state.game.players
    events = state.events_since(0, None)
    start = next((e["start_seat"] for e in events if e["type"] == "start_draw"), None)
    seats: list[dict[str, Any]] = [
        {"dragons": 0, "rounds_won": 0, "shields": 0, "damage": 0, "crosshair_hits": 0}
        for _ in range(n)
    ]
    played: list[list[str]] = [[] for _ in range(n)]
    rounds = 0
    for e in events:
        kind = e["type"]
        if kind == "round_start":
            rounds += 1
        elif kind == "claimed":
            seats[e["winner"]]["dragons"] += 1
            seats[e["winner"]]["rounds_won"] += 1
        elif kind == "crosshairs":
            seats[e["winner"]]["crosshair_hits"] += e["hits"]
        elif kind in ("shield", "shield_lost"):
            seats[e["seat"]]["shields"] = e["shields"]
        elif kind in ("damaged", "repaired"):
            seats[e["seat"]]["damage"] = e["damage"]
        elif kind == "played":
            played[e["seat"]].append(str(e["card"]))
    for s in range(n):
        seats[s]["played"] = " ".join(played[s])
        own = state.events_since(0, s)
        hired = [str(e["card"]) for e in own if e["type"] == "hired" and e["seat"] == s]
        seats[s]["drafted"] = " ".join(hired)
    return {"start_seat": start, "length": {"rounds": rounds}, "seats": seats}


def position(view: SpaceDragonsView) -> dict[str, float]:
    """Each seat's public score so far: the points on the cards it has played and claimed."""
    return {f"score_{s}": float(p) for s, p in enumerate(view["card_points"])}


def token_names(game: Game) -> dict[str, dict[str, str]]:
    """What the ids of ``played`` and ``drafted`` are: each crew card's number, effects,
    symbols and points (``57 (crosshair, crosshair; crime 1; -1 pts)``)."""
    sd = cast("SpaceDragons", game)
    names = {str(c.number): c.label() for c in sd.components.crew}
    return {"played": names, "drafted": names}
