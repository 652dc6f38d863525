"""Building Space Race positions for scenario tests.

``build`` makes a game, then sets the state's fields directly to the position asked for
(hands, ships, the top Danger card, the Damage deck's order) and checks the state's
conservation invariants, so every scenario starts from a legal position and is then played
through the public surface only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import dragonlair
from dragonlair.space_race.cards import NSTACK, STACKS
from dragonlair.space_race.rules import SpaceRace, SpaceRaceState

Ship = Mapping[str, Sequence[int]]


def build(
    players: int = 4,
    *,
    round: int = 1,
    pick: int = 1,
    hands: Mapping[int, Sequence[int]] | None = None,
    ships: Mapping[int, Ship] | None = None,
    danger_top: int = 1,
    damage_deck: Sequence[int] | None = None,
    options: Mapping[str, object] | None = None,
    direction: int = 1,
) -> SpaceRaceState:
    """An Upgrade-phase position at ``round``/``pick``: the given hands and ships; other
    hands are filled with the lowest free card ids; the rest of the Space cards form the
    deck. ``damage_deck`` lists the Damage deck with its top card last."""
    game = dragonlair.make("space-race", players=players, options=options)
    assert isinstance(game, SpaceRace)
    s = game.new_game(seed=0)
    assert isinstance(s, SpaceRaceState)
    t = game.tables
    hands = dict(hands or {})
    ships = dict(ships or {})
    s.ships = [()] * (players * NSTACK)
    used: set[int] = set()
    in_ships: set[int] = set()
    for seat, stacks in ships.items():
        for name, cards in stacks.items():
            s.ships[seat * NSTACK + STACKS.index(name)] = tuple(cards)
            if name == "damage":
                in_ships.update(cards)
            else:
                used.update(cards)
    for cards in hands.values():
        used.update(cards)
    pool = [c for c in t.space_ids if c not in used]
    size = s.game.hand_size + 1 - pick
    s.hands = []
    for seat in range(players):
        hand = hands.get(seat)
        if hand is None:
            hand, pool = pool[:size], pool[size:]
        assert len(hand) == size, f"seat {seat} needs {size} cards at pick {pick}"
        s.hands.append(tuple(sorted(hand)))
    s.space_deck = pool
    s.spent_fuel = [()] * players
    s.crew_discard = ()
    others = [d for d in t.danger_ids if d != danger_top]
    s.danger_discard = tuple(others[: round - 1])
    s.danger_deck = [*others[round - 1 :], danger_top]
    s.danger = 0
    rest = [d for d in t.damage_ids if d not in in_ships]
    s.damage_deck = list(damage_deck) if damage_deck is not None else rest
    s.damage_removed = tuple(d for d in rest if d not in s.damage_deck)
    s.round = round
    s.pick = pick
    s.direction = direction
    s.seen_top = 0
    s.bids = ()
    s.phase = "upgrade"
    s._result = None
    s._open_choice(game.seats)
    s._legal = None
    s.check_invariants()
    return s


def play(state: dragonlair.State, *moves: tuple[int, str]) -> None:
    """Apply (seat, action text) moves in order through the public surface."""
    for seat, text in moves:
        state.apply(seat, text)


def ship(state: dragonlair.State, seat: int, viewer: int | None = None) -> dict[str, Any]:
    """Seat ``seat``'s ship as ``viewer`` (default: the seat itself) sees it."""
    shown: dict[str, Any] = state.view(seat if viewer is None else viewer)["ships"][seat]
    return shown


def events(state: dragonlair.State, kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    """The events of one kind, as ``seat`` (None: a spectator) sees them."""
    return [e for e in state.events_since(0, seat) if e["type"] == kind]


def finish(
    players: int, ships: Mapping[int, Ship], options: Mapping[str, object] | None = None
) -> dragonlair.State:
    """A game played to its end from round 3's last pick: the given ships; every seat
    plays its last card face down as Fuel (so each has one Fuel more than given); the last
    Danger is a Fight whose first rank is an x, and everyone bids 0, so all rank first and
    nothing else changes. The result then scores exactly these ships."""
    game = dragonlair.make("space-race", players=players, options=dict(options or {}))
    assert isinstance(game, SpaceRace)
    last = game.hand_size
    s = build(players, round=3, pick=last, ships=ships, danger_top=7, options=options)
    for seat in range(players):
        play(s, (seat, f"fuel {s.view(seat)['hand'][0]}"))
    while not s.is_over:
        s.apply(s.to_act[0], "bid 0")
    assert s.view(None)["danger_discard"][-1] == 7
    return s
