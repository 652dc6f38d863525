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
  screen and not shown); ``standing(state)``, the same numbers read from the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..core import State
from .kinds import EVENT_SPECS
from .view_types import DragonStripesView

if TYPE_CHECKING:
    from .rules import DragonStripesState

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


# where each field of an event kind is among its values, and the kinds a spectator sees
# (in part) even when they are addressed to some seats only
_AT = {kind: {f: i for i, f in enumerate(spec.fields)} for kind, spec in EVENT_SPECS.items()}
_SEEN_IN_PART = frozenset(kind for kind, spec in EVENT_SPECS.items() if spec.public)
# a kind counted once for its seat -> the per-seat feature it counts
_ONCE = {"stop": "stops", "danger": "dangers", "penalty": "penalties"}


def features(state: State) -> dict[str, Any]:
    """Start seat, length in turns and the per-seat features of a finished game, from one
    pass over the events a spectator sees (the event log, without a dict per event)."""
    n = state.game.players
    seats: list[dict[str, Any]] = [dict.fromkeys(SEAT, 0) for _ in range(n)]
    start = None
    turns = 0
    for kind, values, audience in state.event_log():
        at = _AT.get(kind)
        if at is None or (audience is not None and kind not in _SEEN_IN_PART):
            continue  # the engine's own kinds, or unseen by a spectator
        if kind == "turn":
            turns += 1
            start = values[at["seat"]] if start is None else start
            continue
        if kind not in _ONCE and kind not in ("took", "banked", "head", "woke"):
            continue
        row = seats[cast(int, values[at["seat"]])]
        if kind == "took":
            row["takeovers"] += 1
            seats[cast(int, values[at["from_seat"]])]["sold"] += 1
        elif kind == "banked":
            row["banked"] += 1
            row["banked_gems"] += cast(int, values[at["pot"]])
        elif kind in _ONCE:
            row[_ONCE[kind]] += 1
        else:  # head, woke
            row[kind] = 1
    return {"start_seat": start, "length": {"turns": turns}, "seats": seats}


def public_gems(start: int, banked: int, received: int, paid: int) -> float:
    """A seat's publicly known gems: start, banked pots, takeover prices in and out."""
    return float(start + banked + received - paid)


def stage(state: State) -> int:
    """Where the game stands, as a number the simulation takes after every decision: the
    turn under way (see :func:`stage_name`)."""
    return cast("DragonStripesState", state).turn


def stage_name(game: object, value: int) -> str:
    """A :func:`stage` as a designer says it: ``turn 12``."""
    return f"turn {value}"


def position(view: DragonStripesView) -> dict[str, float]:
    """Each seat's publicly known gems (:func:`public_gems`), from its public ledger."""
    start = view["start_gems"]
    return {
        f"score_{s}": public_gems(start, g["banked"], g["received"], g["paid"])
        for s, g in enumerate(view["ledger"])
    }


def standing(state: State) -> list[float]:
    """Each seat's publicly known gems (:func:`public_gems`), read from the state's
    ledger, which the view shows as it is: the same numbers as :func:`position` without
    building a view, so that the simulation takes them after every decision."""
    st = cast("DragonStripesState", state)
    start = st.game.start_gems
    return list(map(public_gems, [start] * len(st.banked), st.banked, st.received, st.paid))
