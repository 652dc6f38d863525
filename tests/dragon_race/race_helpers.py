"""Building race positions for scenario tests, and the ids of the built-in cards.

Built-in deck: number cards of value v are ids 6(v-1)+1 .. 6(v-1)+6, the first four with
insignias A, B, C, D (seats 0, 1, 2, 3), the last two plain; HALT! 1, 1, 2, 2, 3, 3, 4, 4
are 37..44; then Bolts! 45, 46, Balls! 47, 48, Updraft! 49, 50, Downdraft! 51, 52,
Passing Wind! 53, 54, Tornado! 55, 56.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import dragonlair
from dragonlair.dragon_race.rules import DragonRaceState

BOLTS = (45, 46)
BALLS = (47, 48)
UPDRAFT = (49, 50)
DOWNDRAFT = (51, 52)
PASSING_WIND = (53, 54)
TORNADO = (55, 56)
INSIGNIA_SEAT = {"A": 0, "B": 1, "C": 2, "D": 3}


def num(value: int, insignia: str | None = None, second: bool = False) -> int:
    """The id of a number card: ``num(3, "A")`` is the 3 with insignia A, ``num(3)`` the
    first plain 3 and ``num(3, second=True)`` the other plain 3."""
    base = 6 * (value - 1)
    if insignia is not None:
        return base + 1 + "ABCD".index(insignia)
    return base + (6 if second else 5)


def halt(value: int, second: bool = False) -> int:
    """The id of a HALT! card of the given number (1 to 4)."""
    return 37 + 2 * (value - 1) + (1 if second else 0)


def table(
    players: int = 4,
    *,
    pawns: Sequence[int] | None = None,
    hands: Sequence[Sequence[int]] | None = None,
    active: int = 0,
    draw: Sequence[int] | None = None,
    discards: Sequence[int] = (),
    extra: Sequence[bool] | None = None,
    options: Mapping[str, Any] | None = None,
    turn: int = 1,
    seed: int = 0,
) -> DragonRaceState:
    """A race in the middle of ``active``'s turn, ready for their play: pawns and hands as
    given (empty hands by default), the rest of the deck in the draw pile (its top last)
    unless ``draw`` is given (then the other cards are discards). The turn's draw has
    already happened."""
    game = dragonlair.make("dragon-race", players=players, options=dict(options or {}))
    s = game.new_game(seed)
    assert isinstance(s, DragonRaceState)
    hs: list[tuple[int, ...]] = (
        [tuple(sorted(h)) for h in hands] if hands is not None else [()] * players
    )
    hs += [()] * (players - len(hs))
    used = {c for h in hs for c in h} | set(discards)
    rest = [c for c in range(1, game.num_cards + 1) if c not in used]  # type: ignore[attr-defined]
    if draw is None:
        draw = rest
    else:  # the cards placed nowhere else are in the discard pile
        discards = [*discards, *[c for c in rest if c not in set(draw)]]
    s.hands = hs
    s.draw = tuple(draw)
    s.discards = tuple(discards)
    s.pawns = list(pawns) if pawns is not None else [0] * players
    s.start = tuple(s.pawns)
    s.extra = tuple(extra) if extra is not None else (False,) * players
    s.turn = turn
    s.active = active
    s.bonus = False
    s.victims = ()
    s.stolen = -1
    s.last = -1
    s.moved = ()
    s.phase = "play"
    s._to_act = (active,)
    s._window = ()
    s._window_default = -1
    s._legal = None
    s.check_invariants()
    return s


def legal(s: DragonRaceState, seat: int | None = None) -> list[str]:
    """The legal actions of ``seat`` (default: the one seat asked) as text."""
    if seat is None:
        (seat,) = s.to_act
    return [str(a) for a in s.legal_actions(seat)]


def act(s: DragonRaceState, text: str) -> None:
    """The one seat asked takes the action ``text``."""
    (seat,) = s.to_act
    s.apply(seat, text)


def pass_window(s: DragonRaceState) -> list[int]:
    """Everyone asked in the current HALT! window passes; returns who was asked, in order."""
    assert s.phase in ("halt-play", "halt-steal"), f"no HALT! window in phase {s.phase}"
    phase = s.phase
    asked = []
    while s.phase == phase:
        (seat,) = s.to_act
        asked.append(seat)
        s.apply(seat, "pass")
    s.check_invariants()
    return asked


def events(s: DragonRaceState, since: int, seat: int | None = None) -> list[dict[str, Any]]:
    return s.events_since(since, seat)


def kinds(s: DragonRaceState, since: int, seat: int | None = None) -> list[str]:
    return [e["type"] for e in s.events_since(since, seat)]
