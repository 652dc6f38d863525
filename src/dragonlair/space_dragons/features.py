"""What a finished game of Space Dragons says beyond its result, for designers' tables.

Read from the finished state's events (each seat's own, so a seat's drafted cards are
known to it) and its public view only:

- ``start_seat``: the seat that drew the highest start card (it starts round 1);
- ``length``: ``rounds`` of the hunt played;
- per seat: ``dragons`` claimed, ``rounds_won``, ``shields`` and ``damage`` at the end,
  ``crosshair_hits`` taken, ``played`` (the crew cards played, as space-separated ids) and
  ``drafted`` (the crew cards hired, as ids);
- ``position(view)`` (the manifest's ``features``): ``score_s``, each seat's public score
  during the game (card points shown so far);
- ``standing(state)``: the score the results' checkpoints track, which is the public score
  from the Dragon Hunt on and, through Hiring Crew, where nothing that scores is public
  yet, the points printed on the cards each seat has hired so far.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..core import Game, State
from .kinds import EVENT_SPECS, HIRE
from .view_types import SpaceDragonsView

if TYPE_CHECKING:
    from .rules import SpaceDragons, SpaceDragonsState

LENGTH = ("rounds",)
SEAT = ("dragons", "rounds_won", "shields", "damage", "crosshair_hits", "played", "drafted")


# where each field of an event kind is among its values, and the kinds a spectator sees
# (in part) even when they are addressed to some seats only
_AT = {kind: {f: i for i, f in enumerate(spec.fields)} for kind, spec in EVENT_SPECS.items()}
_SEEN_IN_PART = frozenset(kind for kind, spec in EVENT_SPECS.items() if spec.public)


def features(state: State) -> dict[str, Any]:
    """Start seat, length in rounds and the per-seat features of a finished game, from one
    pass over the event log (without a dict per event): what a spectator sees, and each
    seat's own hires."""
    n = state.game.players
    seats: list[dict[str, Any]] = [
        {"dragons": 0, "rounds_won": 0, "shields": 0, "damage": 0, "crosshair_hits": 0}
        for _ in range(n)
    ]
    played: list[list[str]] = [[] for _ in range(n)]
    hired: list[list[str]] = [[] for _ in range(n)]
    start = None
    rounds = 0
    for kind, values, audience in state.event_log():
        at = _AT.get(kind)
        if at is None:  # the engine's own kinds
            continue
        if kind == "hired":  # seen whole by the seat that hires
            seat = cast(int, values[at["seat"]])
            if audience is None or seat in audience:
                hired[seat].append(str(values[at["card"]]))
            continue
        if audience is not None and kind not in _SEEN_IN_PART:
            continue
        if kind == "start_draw":
            start = values[at["start_seat"]] if start is None else start
        elif kind == "round_start":
            rounds += 1
        elif kind == "claimed":
            row = seats[cast(int, values[at["winner"]])]
            row["dragons"] += 1
            row["rounds_won"] += 1
        elif kind == "crosshairs":
            seats[cast(int, values[at["winner"]])]["crosshair_hits"] += values[at["hits"]]
        elif kind in ("shield", "shield_lost"):
            seats[cast(int, values[at["seat"]])]["shields"] = values[at["shields"]]
        elif kind in ("damaged", "repaired"):
            seats[cast(int, values[at["seat"]])]["damage"] = values[at["damage"]]
        elif kind == "played":
            played[cast(int, values[at["seat"]])].append(str(values[at["card"]]))
    for s in range(n):
        seats[s]["played"] = " ".join(played[s])
        seats[s]["drafted"] = " ".join(hired[s])
    return {"start_seat": start, "length": {"rounds": rounds}, "seats": seats}


def position(view: SpaceDragonsView) -> dict[str, float]:
    """Each seat's public score so far: the points on the cards it has played and claimed."""
    return {f"score_{s}": float(p) for s, p in enumerate(view["card_points"])}


def standing(state: State) -> list[float]:
    """Each seat's score at a checkpoint of the results (``snap25_s``, ``leader25``, ...).

    From the Dragon Hunt on, the public score of :func:`position`: the points on the crew
    cards a seat has played and the dragons it has claimed. Through Hiring Crew nothing
    that scores is public (picks are face down, nothing is played, so the public score is
    0 for everyone and a checkpoint there would never have a sole leader): the score there
    is the points printed on the crew cards the seat has hired so far, which only the seat
    knows while the game is played and a finished game's record shows. At the start of
    the hunt every seat is back to 0 and the public score takes over."""
    sd = cast("SpaceDragonsState", state)
    t = sd.game.tables
    cards = sd.picks if sd.phase == HIRE else sd.played
    return [float(p) for p in t.card_points(cards, sd.claimed)]


def stage(state: State) -> int:
    """Where the game stands, as a number the simulation takes after every decision (see
    :func:`stage_name`): in Hiring Crew the pick under way (1 to the hand size), in the
    Dragon Hunt 100 plus the round under way."""
    sd = cast("SpaceDragonsState", state)
    if sd.phase == HIRE:
        return min(len(p) for p in sd.picks) + 1
    return 100 + min(sd.round + 1, sd.game.rounds)


def stage_name(game: Game, value: int) -> str:
    """A :func:`stage` as a designer says it: ``pick 3 of 9``, ``round 2 of 7``."""
    sd = cast("SpaceDragons", game)
    if value < 100:
        return f"pick {min(value, sd.hand_size)} of {sd.hand_size}"
    return f"round {value - 100} of {sd.rounds}"


def token_names(game: Game) -> dict[str, dict[str, str]]:
    """What the ids of ``played`` and ``drafted`` are: each crew card's number, effects,
    symbols and points (``57 (crosshair, crosshair; crime 1; -1 pts)``)."""
    sd = cast("SpaceDragons", game)
    names = {str(c.number): c.label() for c in sd.components.crew}
    return {"played": names, "drafted": names}
