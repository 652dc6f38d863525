"""Helpers for Dragon Stripes scenario tests: new games, stacked decks, fixed positions.

Positions are built by stacking the undrawn deck (the same cards, in a chosen order) and
then playing actions through the public surface. Where a test needs a position play
cannot reach quickly, a helper moves gems between places the ledger can account for and
re-checks the invariants.
"""

from __future__ import annotations

from typing import cast

import dragonlair
from dragonlair.dragon_stripes import DragonStripesState
from dragonlair.dragon_stripes.cards import DANGER, STOP

Card = int | str  # a footprint's steps, or "stop" / "danger"


def new(players: int = 4, seed: int = 1, **options: object) -> DragonStripesState:
    game = dragonlair.make("dragon-stripes", players=players, options=options)
    return cast(DragonStripesState, game.new_game(seed=seed))


def _code(card: Card) -> int:
    if card == "stop":
        return STOP
    if card == "danger":
        return DANGER
    assert isinstance(card, int) and card > 0, card
    return card


def stack(state: DragonStripesState, *cards: Card) -> None:
    """Put ``cards`` on top of the undrawn deck, in this order; the rest keep their order."""
    rest = list(state.deck[state.top :])
    front = []
    for c in cards:
        code = _code(c)
        rest.remove(code)  # ValueError if the deck has no such card left
        front.append(code)
    state.deck = state.deck[: state.top] + tuple(front) + tuple(rest)
    refresh(state)


def refresh(state: DragonStripesState) -> None:
    """After changing fields by hand: drop the cached legal actions, re-check invariants."""
    state._legal = None
    state.check_invariants()


def set_pot(state: DragonStripesState, pot: int) -> None:
    """Make the pot ``pot`` (the difference comes from or goes to the lair)."""
    assert state.knight > 0, "a pot needs the knight on a stripe"
    state.lair -= pot - state.pot
    state.pot = pot
    refresh(state)


def bank_from_lair(state: DragonStripesState, seat: int, amount: int) -> None:
    """As if ``seat`` had banked ``amount`` more gems from the lair earlier."""
    state.lair -= amount
    state.gems[seat] += amount
    state.banked[seat] += amount
    refresh(state)


def act(state: DragonStripesState, seat: int, *actions: str) -> None:
    """``seat`` takes ``actions`` one after the other; each time it must be the one asked."""
    for a in actions:
        assert state.to_act == (seat,), f"expected seat {seat} to act, not {state.to_act}"
        state.apply(seat, a)


def everyone_declines(state: DragonStripesState) -> None:
    """Every seat asked about the knight declines, in the order asked."""
    assert state.phase == "offer"
    while state.phase == "offer":
        state.apply(state.to_act[0], "decline")


def events(state: DragonStripesState, since: int = 0, seat: int | None = None) -> list[str]:
    """The types of the events from ``since`` on, as ``seat`` sees them."""
    return [e["type"] for e in state.events_since(since, seat)]
