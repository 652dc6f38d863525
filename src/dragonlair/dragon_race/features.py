"""What a finished game of The Great Dragon Race says beyond its result, for designers'
tables.

Read from the finished state's public events and view only:

- ``start_seat``: the seat that takes the first turn;
- ``length``: ``turns`` taken;
- per seat: ``halts`` (HALT!s called) and ``halted`` (turns cancelled by one), ``steals``
  and ``robbed`` (cards stolen by and from the seat), ``shortcuts`` flown, ``hazards``
  landed on, ``triples`` played, ``bonus`` plays (own insignia), ``plays`` (cards
  played) and ``cards`` (the card ids played, space-separated);
- ``position(view)`` (the manifest's ``features``): ``score_s`` for each seat, the pawns' spots.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..core import Game, State
from .kinds import EVENT_SPECS
from .view_types import DragonRaceView

if TYPE_CHECKING:
    from .rules import DragonRace, DragonRaceState

LENGTH = ("turns",)
COUNTS = (
    "halts",
    "halted",
    "steals",
    "robbed",
    "shortcuts",
    "hazards",
    "triples",
    "bonus",
    "plays",
)
SEAT = (*COUNTS, "cards")

_COUNTED = {
    "halted": (("seat", "halts"), ("target", "halted")),
    "robbed": (("seat", "steals"), ("victim", "robbed")),
    "shortcut": (("seat", "shortcuts"),),
    "hazard": (("seat", "hazards"),),
    "triple": (("seat", "triples"),),
    "bonus": (("seat", "bonus"),),
    "played": (("seat", "plays"),),
    "played_stolen": (("seat", "plays"),),
}


# where each field of an event kind is among its values, and the kinds a spectator sees
# (in part) even when they are addressed to some seats only
_AT = {kind: {f: i for i, f in enumerate(spec.fields)} for kind, spec in EVENT_SPECS.items()}
_SEEN_IN_PART = frozenset(kind for kind, spec in EVENT_SPECS.items() if spec.public)
# what the pass over the events does with each kind it reads, worked out once: whether a
# spectator sees it when it is addressed to some seats, the counts it adds to (where the
# seat is among its values, and the count's name), and where the seat and the card played
# are among its values (-1: it plays no card)
_PLAYS = ("played", "played_stolen")
_READ: dict[str, tuple[bool, tuple[tuple[int, str], ...], int, int]] = {
    kind: (
        kind in _SEEN_IN_PART,
        tuple((_AT[kind][field], name) for field, name in _COUNTED.get(kind, ())),
        _AT[kind]["seat"] if kind in _PLAYS else -1,
        _AT[kind]["card"] if kind in _PLAYS else -1,
    )
    for kind in ("turn", *_COUNTED)
}
_TURN_SEAT = _AT["turn"]["seat"]


def features(state: State) -> dict[str, Any]:
    """Start seat, length in turns and the per-seat features of a finished game, from one
    pass over the events a spectator sees (the event log, without a dict per event)."""
    n = state.game.players
    seats: list[dict[str, Any]] = [dict.fromkeys(COUNTS, 0) for _ in range(n)]
    cards: list[list[str]] = [[] for _ in range(n)]
    start = None
    turns = 0
    for kind, values, audience in state.event_log():
        read = _READ.get(kind)
        if read is None:
            continue  # nothing counted: the engine's own kinds, draws, moves, ...
        public, counted, seat_at, card_at = read
        if audience is not None and not public:
            continue  # unseen by a spectator
        if kind == "turn":
            turns += 1
            start = values[_TURN_SEAT] if start is None else start
        # the seats' fields hold ints (EVENT_SPECS); no cast, which is a call per event
        for at, name in counted:
            seats[values[at]][name] += 1  # type: ignore[index]
        if card_at >= 0:
            cards[values[seat_at]].append(str(values[card_at]))  # type: ignore[index]
    for s in range(n):
        seats[s]["cards"] = " ".join(cards[s])
    return {"start_seat": start, "length": {"turns": turns}, "seats": seats}


def stage(state: State) -> int:
    """Where the game stands, as a number the simulation takes after every decision: the
    turn under way (see :func:`stage_name`)."""
    race: DragonRaceState = state  # type: ignore[assignment]  # (a cast is a call)
    return race.turn


def stage_name(game: object, value: int) -> str:
    """A :func:`stage` as a designer says it: ``turn 12``."""
    return f"turn {value}"


def position(view: DragonRaceView) -> dict[str, float]:
    """Each pawn's spot on the track."""
    return {f"score_{s}": float(p) for s, p in enumerate(view["pawns"])}


def standing(state: State) -> list[float]:
    """Each pawn's spot on the track, as :func:`position` reads it from the view, read
    from the state without building a view, so that the simulation takes it after every
    decision."""
    race: DragonRaceState = state  # type: ignore[assignment]  # (a cast is a call)
    return list(map(float, race.pawns))


def token_names(game: Game) -> dict[str, dict[str, str]]:
    """What the ids of ``cards`` are: each card and what it does, as the game says it
    (``Tornado! move ahead 6, or send a rival back ...``)."""
    race = cast("DragonRace", game)
    return {"cards": {str(c.id): race.describe_card(c.id) for c in race.components.cards}}
