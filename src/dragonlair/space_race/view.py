"""What each seat may know, and the hidden-state sampler that inverts it.

A seat sees: its own hand; every ship's face-up cards, Damage and counts of Fuel; its own
Fuel cards (face down, so nobody else knows them) and its own spent Fuel; the Crew cards
discarded face up; the Danger cards already revealed; the top Danger card only while its
own Scanner has shown it to it; the sizes of every deck but never their order; bids only
once they are revealed. A spectator sees what every seat sees in common.

Everything scoring needs is public (Fuel counts included), so the view also carries each
seat's running score as the rulebook would count it now.

The sampler redraws exactly the rest: other seats' hands, Fuel and spent Fuel cards, the
Space deck, the order of the Danger deck below a top card the seat has seen, the Damage
deck, and other seats' secret picks and bids (legal ones, in the sampled state).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, TypeAlias

from dragonlair.core.game_views import GameViews, install_views
from dragonlair.core.rng import shuffle_with
from dragonlair.core.views import View, own_keys

from .cards import NSTACK, S_DAMAGE, S_FUEL, STACKS
from .json_view import OPEN as _OPEN
from .json_view import SHIPS as _SHIPS
from .json_view import bidding as _bidding
from .json_view import build_view
from .json_view import public_scores as _public_scores
from .json_view import seen_top as _seen_top
from .json_view import ship as _ship
from .rules import SpaceRace, SpaceRaceState
from .view_types import SpaceRaceView

_ZEROS = tuple((0,) * k for k in range(80))  # an unseen Fuel stack of k cards


def _zeros(k: int) -> tuple[int, ...]:
    """An unseen Fuel stack of ``k`` cards (one of _ZEROS when it has one that long)."""
    return _ZEROS[k] if k < len(_ZEROS) else (0,) * k


# _HIDDEN_FUEL[n][seat]: where in the flat row of stacks of n ships (SpaceRaceState.ships)
# lie the Fuel stacks ``seat`` may not see (every one for a spectator, ``seat`` None)
_HIDDEN_FUEL = tuple(
    {seat: tuple(s * NSTACK + S_FUEL for s in range(n) if s != seat) for seat in (None, *range(n))}
    for n in range(9)
)


# Each figure of the view is worked out in one place, json_view.py, for both forms of the
# view: ``build_view`` (the JSON the wire takes) and ``SpaceRaceSeatView``.


class SpaceRaceSeatView(View[SpaceRace]):
    """A seat's view of Space Race as a typed object (see ``core.views``): its keys are
    those of :class:`SpaceRaceView`, and :meth:`ship_stacks` gives every ship as its
    stacks without parsing them back from the JSON; ``round``, ``pick`` and
    ``danger_top`` are attributes too. It keeps the state's stacks (tuples, shared) with
    every Fuel stack the seat may not see replaced by zeros of its length, the seat's own
    hand and spent Fuel, and counts of everything else it may not see."""

    __slots__ = (
        "_counts",
        "_my_spent",
        "crew_discard",
        "damage_deck",
        "damage_removed",
        "danger",
        "danger_deck",
        "danger_discard",
        "danger_top",
        "direction",
        "hand",
        "last_bids",
        "pick",
        "round",
        "seen_top",
        "space_deck",
        "stacks",
    )
    KEYS = own_keys(SpaceRaceView)

    round: Final[int]
    pick: Final[int]
    direction: Final[int]  # 1: hands pass to the left this round, -1: to the right
    hand: Final[tuple[int, ...] | None]  # the seat's own hand (None: a spectator)
    danger: Final[int]  # the Danger card up (0: none)
    danger_top: Final[int | None]  # the top Danger card, if this seat's Scanner showed it
    seen_top: Final[int]  # bit s set: seat s has seen the top Danger card
    space_deck: Final[int]  # cards left in the Space deck
    crew_discard: Final[tuple[int, ...]]
    danger_deck: Final[int]  # cards left in the Danger deck
    danger_discard: Final[tuple[int, ...]]  # the Danger cards used
    damage_deck: Final[int]  # cards left in the Damage deck
    damage_removed: Final[tuple[int, ...]]
    last_bids: Final[tuple[int, ...]]  # by seat, the last revealed bids (empty before any)
    # every ship's stacks in one flat row, ``stacks[seat * NSTACK + k]`` (cards.STACKS), as
    # the state keeps them, but Fuel the seat may not see is zeros (shared: do not change)
    stacks: list[tuple[int, ...]]

    def __init__(self, state: SpaceRaceState, seat: int | None) -> None:
        View.__init__(self, state, seat)
        self.round = state.round
        self.pick = state.pick
        hands = state.hands
        spent = state.spent_fuel
        deck = state.danger_deck
        self.hand = None if seat is None else hands[seat]
        self._my_spent = None if seat is None else spent[seat]
        knows = seat is not None and state.seen_top >> seat & 1
        self.danger_top = deck[-1] if knows else None
        stacks = state.ships.copy()
        hidden = _HIDDEN_FUEL[len(hands)][seat]
        try:
            for k in hidden:
                stacks[k] = _ZEROS[len(stacks[k])]
        except IndexError:  # a Fuel stack longer than any in the table of zeros
            for k in hidden:
                stacks[k] = (0,) * len(stacks[k])
        self.stacks = stacks
        # every hand's size, then every seat's spent Fuel count: one list (a list made
        # with map costs more than its few items)
        self._counts = list(map(len, hands + spent))
        self.direction = state.direction
        self.space_deck = len(state.space_deck)
        self.crew_discard = state.crew_discard
        self.danger = state.danger
        self.seen_top = state.seen_top
        self.danger_deck = len(deck)
        self.danger_discard = state.danger_discard
        self.damage_deck = len(state.damage_deck)
        self.damage_removed = state.damage_removed
        self.last_bids = state.bids

    @property
    def hand_sizes(self) -> list[int]:
        """By seat, how many cards are in its hand (a fresh list)."""
        return self._counts[: self._game.players]

    @property
    def spent_fuel(self) -> list[int]:
        """By seat, how many Fuel cards it has spent (a fresh list)."""
        return self._counts[self._game.players :]

    def scores(self) -> list[int]:
        """Every seat's running score (the key ``score``; a fresh list, worked out when
        asked for, since the heuristic never asks, and remembered for the ships as they
        are: see ``json_view.public_scores``)."""
        row = self.stacks
        if self.seat is not None:  # its own Fuel as zeros too: the public row
            row = row.copy()
            k = self.seat * NSTACK + S_FUEL
            row[k] = _zeros(len(row[k]))
        # remembered by its stacks' identities (tuples shared with the state and with
        # every view of it), which the view holds anyway
        key = 0
        for stack in row:
            key += id(stack)
        return _public_scores(self._game, key, row)

    def ship_stacks(self) -> list[list[tuple[int, ...]]]:
        """Every ship as a fresh list of its stacks (``cards.STACKS``; the tuples are
        shared, so replace a stack rather than change it); Fuel the seat may not see is
        zeros, one per card. (``stacks`` is the same as one flat row.)"""
        return list(map(self.stacks.__getitem__, _SHIPS[self._game.players]))

    # the JSON value of every key (SpaceRaceView's), worked out when first read

    def _k_round(self) -> int:
        return self.round

    def _k_rounds(self) -> int:
        return self._game.rounds

    def _k_pick(self) -> int:
        return self.pick

    def _k_direction(self) -> str:
        return "left" if self.direction == 1 else "right"

    def _k_hand(self) -> list[int] | None:
        return list(self.hand) if self.hand is not None else None

    def _k_hand_sizes(self) -> list[int]:
        return self._counts[: self._game.players]

    def _k_ships(self) -> list[dict[str, Any]]:
        g = self._game
        ships = self.stacks
        seat = self.seat
        spent = self._counts[g.players :]
        return [
            _ship(g, s, ships, ships[s * NSTACK + S_FUEL], spent[s], self._my_spent)
            if s == seat
            else _ship(g, s, ships, None, spent[s], None)
            for s in range(g.players)
        ]

    def _k_space_deck(self) -> int:
        return self.space_deck

    def _k_crew_discard(self) -> list[int]:
        return list(self.crew_discard)

    def _k_danger(self) -> int | None:
        return self.danger or None

    def _k_bidding(self) -> str | None:
        return _bidding(self._game, self.danger)

    def _k_danger_top(self) -> int | None:
        return self.danger_top

    def _k_seen_top_danger(self) -> list[int]:
        return _seen_top(self._game.players, self.seen_top)

    def _k_danger_deck(self) -> int:
        return self.danger_deck

    def _k_danger_discard(self) -> list[int]:
        return list(self.danger_discard)

    def _k_damage_deck(self) -> int:
        return self.damage_deck

    def _k_damage_removed(self) -> list[int]:
        return list(self.damage_removed)

    def _k_last_bids(self) -> list[int] | None:
        return list(self.last_bids) if self.last_bids else None

    def _k_score(self) -> list[int]:
        return self.scores()


# What a bot is handed as a seat's view: the typed view, its JSON form read back (a dict),
# or a wrapper such as the checks' poisoned view. The TypedDict comes first so that mypy
# checks every key read; the Mapping, because compiled code checks a parameter's type
# and must take every one of them (docs/engine.md, "The compiled build").
AnySpaceRaceView: TypeAlias = SpaceRaceView | SpaceRaceSeatView | Mapping[str, Any]


def sample_from_view(state: SpaceRaceState, view: dict[str, Any], rng: Any) -> None:
    """Set every field of a blank ``state`` so that it shows ``view`` to ``view["seat"]``,
    redrawing with ``rng`` everything that seat cannot see."""
    g = state.game
    t = g.tables
    n = g.players
    seat: int | None = view["seat"]
    state.round = view["round"]
    state.pick = view["pick"]
    state.direction = 1 if view["direction"] == "left" else -1
    known: set[int] = set(view["crew_discard"])
    ships: list[tuple[int, ...]] = [()] * (n * NSTACK)
    for s, ship in enumerate(view["ships"]):
        for k in _OPEN:
            ships[s * NSTACK + k] = tuple(ship[STACKS[k]])
            if k != S_DAMAGE:
                known.update(ship[STACKS[k]])
    if seat is not None:
        mine = view["ships"][seat]
        known.update(view["hand"], mine["fuel_cards"], mine["spent_fuel_cards"])

    pool = [c for c in t.space_ids if c not in known]
    shuffle_with(rng, pool)
    hands: list[tuple[int, ...]] = []
    spent: list[tuple[int, ...]] = []
    for s, ship in enumerate(view["ships"]):
        if s == seat:
            hands.append(tuple(view["hand"]))
            ships[s * NSTACK + S_FUEL] = tuple(ship["fuel_cards"])
            spent.append(tuple(ship["spent_fuel_cards"]))
            continue
        hands.append(tuple(sorted(pool.pop() for _ in range(view["hand_sizes"][s]))))
        ships[s * NSTACK + S_FUEL] = tuple(pool.pop() for _ in range(ship["fuel"]))
        spent.append(tuple(pool.pop() for _ in range(ship["spent_fuel"])))
    if len(pool) != view["space_deck"]:
        raise ValueError(f"view does not add up: {len(pool)} Space cards left for the deck")
    state.hands = hands
    state.ships = ships
    state.spent_fuel = spent
    state.space_deck = pool
    state.crew_discard = tuple(view["crew_discard"])

    state.danger = view["danger"] or 0
    state.danger_discard = tuple(view["danger_discard"])
    top = view["danger_top"]
    gone = {*state.danger_discard, state.danger, top}
    danger = [c for c in t.danger_ids if c not in gone]
    shuffle_with(rng, danger)
    if top is not None:
        danger.append(top)
    state.danger_deck = danger
    state.seen_top = sum(1 << s for s in view["seen_top_danger"])

    state.damage_removed = tuple(view["damage_removed"])
    used = set(state.damage_removed)
    for s in range(n):
        used.update(ships[s * NSTACK + S_DAMAGE])
    damage = [c for c in t.damage_ids if c not in used]
    shuffle_with(rng, damage)
    state.damage_deck = damage
    state.bids = tuple(view["last_bids"] or ())

    for s in state.unknown_choices():
        legal = state.legal_ids_unchecked(s)
        state.fill_choice(s, legal[rng.randrange(len(legal))])


# The views of the game's states: the rules never import this module; the game's package
# does, so they are installed whenever the rules are used.
install_views(SpaceRaceState, GameViews(build_view, sample_from_view, SpaceRaceSeatView))
