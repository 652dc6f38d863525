"""What each seat may know of a race, and the inverse: a full state redrawn from a view.

A seat sees its own hand, every pawn, the face-up discard pile, every hand's size, the
size of the draw pile and who draws an extra card; never the other hands or the order of
the draw pile. A card being stolen is seen by the thief and the victim; everyone else sees
only that a card was taken, until it is played. A spectator (seat None) sees no hand.

:func:`sample_from_view` is the hidden-state sampler: it keeps everything in the view and deals
the cards the seat cannot see (other hands, a stolen card it did not see, the draw pile)
at random from those unaccounted for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, TypeAlias

from dragonlair.core.game_views import GameViews, install_views
from dragonlair.core.rng import RandomLike, shuffle_with
from dragonlair.core.views import View, own_keys

from .kinds import PENDING_STEAL
from .rules import DragonRace, DragonRaceState
from .view_types import DragonRaceView


def sees_stolen(state: DragonRaceState, seat: int | None) -> bool:
    """Whether ``seat`` may see the card being stolen now: the thief and the victim may."""
    return seat is not None and (seat == state.active or seat == state.victims[-1])


# Each figure a view shows that is worked out from the state, in one place: build_view
# (the JSON view, filled in one pass) and DragonRaceSeatView (the typed view, each key
# when first read) both call these.


def stolen_for(state: DragonRaceState, seat: int | None) -> int | None:
    """The view's ``stolen``: the card being stolen, if ``seat`` may see it."""
    stolen = state.stolen
    return stolen if stolen >= 0 and sees_stolen(state, seat) else None


def hand_sizes(state: DragonRaceState) -> list[int]:
    """The view's ``hand_sizes``: how many cards each seat holds."""
    return [len(h) for h in state.hands]


def last_play(game: DragonRace, last: int) -> str | None:
    """The view's ``last``: the play or steal with id ``last`` (-1: none)."""
    return None if last < 0 else str(game.table.actions[last])


def build_view(state: DragonRaceState, seat: int | None, out: dict[str, Any]) -> None:
    """Add what ``seat`` may see to the view ``out``."""
    g = state.game
    out["turn"] = state.turn
    out["active"] = state.active
    out["pawns"] = list(state.pawns)
    out["turn_start"] = list(state.start)
    out["hand"] = None if seat is None else list(state.hands[seat])
    out["hand_sizes"] = hand_sizes(state)
    out["draw_size"] = len(state.draw)
    out["discards"] = list(state.discards)
    out["extra_draw"] = list(state.extra)
    out["bonus"] = state.bonus
    out["robbed"] = list(state.victims)
    out["last"] = last_play(g, state.last)
    out["moved"] = list(state.moved)
    out["stolen"] = stolen_for(state, seat)


class DragonRaceSeatView(View[DragonRace]):
    """A seat's view of The Great Dragon Race as a typed object (see ``core.views``): its
    keys are those of :class:`DragonRaceView`, and its attributes are what the heuristic
    and the observation layout read without the mapping, as ints and tuples (read-only:
    ``Final``). It holds the seat's own hand, the stolen card only for the thief and the
    victim, and counts of every other hand and of the draw pile."""

    __slots__ = (
        "active",
        "bonus",
        "discards",
        "draw_size",
        "extra_draw",
        "hand",
        "hand_sizes",
        "last_id",
        "moved",
        "pawns",
        "robbed",
        "stolen",
        "turn",
        "turn_start",
    )
    KEYS = own_keys(DragonRaceView)

    turn: Final[int]
    active: Final[int]  # whose turn it is
    pawns: Final[tuple[int, ...]]  # each seat's spot
    turn_start: Final[tuple[int, ...]]  # the pawns when this turn began
    hand: Final[tuple[int, ...] | None]  # the seat's own cards (None: a spectator)
    hand_sizes: Final[tuple[int, ...]]  # by seat
    draw_size: Final[int]  # cards in the draw pile
    discards: Final[tuple[int, ...]]  # the face-up discard pile
    extra_draw: Final[tuple[bool, ...]]  # by seat: draws an extra card next turn
    bonus: Final[bool]  # the active player has earned another play
    robbed: Final[tuple[int, ...]]  # seats robbed this turn
    last_id: Final[int]  # the action id of the latest play or steal (-1: none)
    moved: Final[tuple[int, ...]]  # the seats whose pawns the latest play moved
    stolen: Final[int | None]  # the card being stolen, if the seat may see it

    def __init__(self, state: DragonRaceState, seat: int | None) -> None:
        View.__init__(self, state, seat)
        self.turn = state.turn
        self.active = state.active
        self.pawns = tuple(state.pawns)
        self.turn_start = state.start
        self.hand = None if seat is None else state.hands[seat]
        self.hand_sizes = tuple(map(len, state.hands))
        self.draw_size = len(state.draw)
        self.discards = state.discards
        self.extra_draw = state.extra
        self.bonus = state.bonus
        self.robbed = state.victims
        self.last_id = state.last
        self.moved = state.moved
        self.stolen = stolen_for(state, seat)

    # the JSON value of every key (DragonRaceView's), worked out when first read

    def _k_turn(self) -> int:
        return self.turn

    def _k_active(self) -> int:
        return self.active

    def _k_pawns(self) -> list[int]:
        return list(self.pawns)

    def _k_turn_start(self) -> list[int]:
        return list(self.turn_start)

    def _k_hand(self) -> list[int] | None:
        return None if self.hand is None else list(self.hand)

    def _k_hand_sizes(self) -> list[int]:
        return list(self.hand_sizes)

    def _k_draw_size(self) -> int:
        return self.draw_size

    def _k_discards(self) -> list[int]:
        return list(self.discards)

    def _k_extra_draw(self) -> list[bool]:
        return list(self.extra_draw)

    def _k_bonus(self) -> bool:
        return self.bonus

    def _k_robbed(self) -> list[int]:
        return list(self.robbed)

    def _k_last(self) -> str | None:
        return last_play(self._game, self.last_id)

    def _k_moved(self) -> list[int]:
        return list(self.moved)

    def _k_stolen(self) -> int | None:
        return self.stolen


# What a bot is handed as a seat's view: the typed view, its JSON form read back (a dict),
# or a wrapper such as the checks' poisoned view. The TypedDict comes first so that mypy
# checks every key read; the Mapping, because compiled code checks a parameter's type
# and must take every one of them (docs/engine.md, "The compiled build").
AnyDragonRaceView: TypeAlias = DragonRaceView | DragonRaceSeatView | Mapping[str, Any]


def sample_from_view(state: DragonRaceState, view: dict[str, Any], rng: RandomLike) -> None:
    """Set every field of a blank ``state`` from ``view``, dealing the unseen cards from
    ``rng``."""
    g = state.game
    seat = view["seat"]
    state.turn = view["turn"]
    state.active = view["active"]
    state.pawns = list(view["pawns"])
    state.start = tuple(view["turn_start"])
    state.discards = tuple(view["discards"])
    state.extra = tuple(view["extra_draw"])
    state.bonus = view["bonus"]
    state.victims = tuple(view["robbed"])
    last = view["last"]
    state.last = -1 if last is None else g.table.ids[g.table.parse(last)]
    state.moved = tuple(view["moved"])
    mine: tuple[int, ...] = () if seat is None else tuple(view["hand"])
    known = set(state.discards) | set(mine)
    pending = state.phase in PENDING_STEAL
    seen = view["stolen"]
    if seen is not None:
        known.add(seen)
    pool = [c for c in range(1, g.num_cards + 1) if c not in known]
    shuffle_with(rng, pool)
    hands: list[tuple[int, ...]] = []
    for s, size in enumerate(view["hand_sizes"]):
        if s == seat:
            hands.append(mine)
        else:
            hands.append(tuple(sorted(pool.pop() for _ in range(size))))
    state.hands = hands
    if not pending:
        state.stolen = -1
    elif seen is not None:
        state.stolen = seen
    else:
        state.stolen = pool.pop()
    if len(pool) != view["draw_size"]:
        raise ValueError(
            f"view accounts for {g.num_cards - len(pool) + view['draw_size']} cards, "
            f"the deck has {g.num_cards}"
        )
    state.draw = tuple(pool)


# The views of the game's states: the rules never import this module; the game's package
# does, so they are installed whenever the rules are used.
install_views(DragonRaceState, GameViews(build_view, sample_from_view, DragonRaceSeatView))
