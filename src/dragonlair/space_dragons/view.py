"""What each seat may know in Space Dragons, and the hidden-state sampler (its inverse).

A seat sees its own hand and its own face-down picks; everything played; each ship's
shields and damage (counts only: the tucked crew cards are face down); the claimed
dragons and the face-up dragon; the start-player draw; how many cards are in every hand,
every pick pile, the draw pile and the lair; and the scoring cards' sides. It never sees
other hands or picks, the draw pile's cards, the lair's dragons, or the dragon sides of
the spaceships (nobody does). A spectator (seat None) sees only what is public.

The sampler redraws exactly that hidden part: the crew cards the seat cannot account for
(all 80 minus its own hand and picks, everything played and the start-player draw) are
dealt at random to other hands, other picks and the draw pile; the dragons it has not
seen to the lair, the ships and the box. A pick another seat has made but not revealed
is redrawn from that seat's sampled hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, TypeAlias

from dragonlair.core.game_views import GameViews, install_views
from dragonlair.core.rng import shuffle_with
from dragonlair.core.views import View, own_keys

from .cards import CREW_CARDS, DRAGONS, SIDES, SYMBOLS
from .json_view import Tallies, build_view, round_cards, scoring_sides, table_tallies
from .kinds import HIRE, HIRE_BASE, HUNT, PHASE_NAMES
from .rules import SpaceDragons, SpaceDragonsState
from .view_types import SpaceDragonsView

# The figures a view derives from what the state holds are worked out in json_view.py
# only, for the JSON view (build_view) and the typed view alike.


class SpaceDragonsSeatView(View[SpaceDragons]):
    """A seat's view of Space Dragons as a typed object (see ``core.views``): its keys
    are those of :class:`SpaceDragonsView`, and its attributes hold what the state holds
    (tuples, shared; read-only: ``Final``, which ``mypy`` holds every reader to): the
    seat's hand, the cards played, the ships' shields and damage, the hand sizes, the
    start-player draw, the face-up dragon, the rounds played, the round's starting seat
    and the scoring sides. It keeps the seat's own hand and picks, and only counts of
    everyone else's."""

    __slots__ = (
        "_counts",
        "claimed",
        "damage",
        "face_up",
        "hand",
        "hand_sizes",
        "lair",
        "picks",
        "pile",
        "played",
        "rounds_played",
        "shields",
        "sides",
        "start_cards",
        "starter",
    )
    KEYS = own_keys(SpaceDragonsView)

    hand: Final[tuple[int, ...] | None]  # the seat's own hand, sorted (None: a spectator)
    picks: Final[tuple[int, ...] | None]  # the seat's own face-down picks (None: a spectator)
    hand_sizes: Final[tuple[int, ...]]  # by seat, how many cards are in its hand
    played: Final[tuple[tuple[int, ...], ...]]  # by seat, the crew cards it played, in order
    shields: Final[tuple[int, ...]]  # by seat, the shields under its ship
    damage: Final[tuple[int, ...]]  # by seat, the damage under its ship
    start_cards: Final[tuple[int, ...]]  # the start-player draw, by seat
    claimed: Final[tuple[tuple[int, ...], ...]]  # by seat, the dragons it claimed
    face_up: Final[int]  # the dragon on display; 0 once the lair is empty
    lair: Final[int]  # dragons left in the lair
    pile: Final[int]  # cards left in the draw pile
    rounds_played: Final[int]  # rounds of the Dragon Hunt completed (0..rounds of the data file)
    starter: Final[int]  # the current round's starting seat
    sides: Final[tuple[int, ...]]
    """By symbol (``cards.SYMBOLS``), the scoring card's face-up side: 0 A, 1 B."""

    def __init__(self, state: SpaceDragonsState, seat: int | None) -> None:
        View.__init__(self, state, seat)
        self.hand = None if seat is None else state.hands[seat]
        self.picks = None if seat is None else state.picks[seat]
        # every hand's size, then every seat's count of picks: one tuple (a tuple made
        # with map costs more than its few items)
        counts = self._counts = tuple(map(len, state.hands + state.picks))
        self.hand_sizes = counts[: len(state.hands)]
        self.rounds_played = state.round
        self.starter = state.lead
        self.played = tuple(state.played)
        self.shields = tuple(state.shields)
        self.damage = tuple(state.damage)
        self.claimed = tuple(state.claimed)
        self.face_up = state.face_up
        self.lair = len(state.lair)
        self.pile = len(state.pile) - state.taken
        self.start_cards = state.start_cards
        self.sides = state.sides

    @property
    def pick_counts(self) -> tuple[int, ...]:
        """By seat, how many cards it has picked."""
        return self._counts[self._game.players :]

    def tallies(self) -> Tallies:
        """By symbol (``cards.SYMBOLS``), each seat's count on its crew and dragons, and
        each seat's points on them (the keys ``symbols`` and ``card_points``), remembered
        for the cards on the table (``json_view.table_tallies``: shared lists, never to
        be changed)."""
        return table_tallies(self._game, self.played, self.claimed)

    def round_cards(self) -> list[tuple[int, int]]:
        """The cards played in the current round as ``(seat, card)``, in play order."""
        if self.phase != HUNT:
            return []
        return round_cards(self.played, self.starter, self.rounds_played)

    # the JSON value of every key (SpaceDragonsView's), worked out when first read

    def _k_phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def _k_hand(self) -> list[int] | None:
        return None if self.hand is None else list(self.hand)

    def _k_picks(self) -> list[int] | None:
        return None if self.picks is None else list(self.picks)

    def _k_hand_sizes(self) -> list[int]:
        return list(self.hand_sizes)

    def _k_pick_counts(self) -> list[int]:
        return list(self._counts[self._game.players :])

    def _k_pick(self) -> int | None:
        return self._counts[self._game.players] + 1 if self.phase == HIRE else None

    def _k_round(self) -> int | None:
        return self.rounds_played + 1 if self.phase == HUNT else None

    def _k_rounds_played(self) -> int:
        return self.rounds_played

    def _k_starter(self) -> int:
        return self.starter

    def _k_this_round(self) -> list[list[int]]:
        return [[s, c] for s, c in self.round_cards()]

    def _k_played(self) -> list[list[int]]:
        return [list(p) for p in self.played]

    def _k_shields(self) -> list[int]:
        return list(self.shields)

    def _k_damage(self) -> list[int]:
        return list(self.damage)

    def _k_claimed(self) -> list[list[int]]:
        return [list(c) for c in self.claimed]

    def _k_face_up(self) -> int | None:
        return self.face_up or None

    def _k_lair(self) -> int:
        return self.lair

    def _k_pile(self) -> int:
        return self.pile

    def _k_start_cards(self) -> list[int]:
        return list(self.start_cards)

    def _k_scoring_cards(self) -> dict[str, str]:
        return scoring_sides(self.sides)

    def _k_symbols(self) -> dict[str, list[int]]:
        science, mood, crime = self.tallies()[0]
        return {SYMBOLS[0]: list(science), SYMBOLS[1]: list(mood), SYMBOLS[2]: list(crime)}

    def _k_card_points(self) -> list[int]:
        return list(self.tallies()[1])


# What a bot is handed as a seat's view: the typed view, its JSON form read back (a dict),
# or a wrapper such as the checks' poisoned view. The TypedDict comes first so that mypy
# checks every key read; the Mapping, because compiled code checks a parameter's type
# and must take every one of them (docs/engine.md, "The compiled build").
AnySpaceDragonsView: TypeAlias = SpaceDragonsView | SpaceDragonsSeatView | Mapping[str, Any]


def sample_from_view(state: SpaceDragonsState, view: dict[str, Any], rng: Any) -> None:
    """Set every field of a blank ``state`` so that it shows ``view`` to ``view["seat"]``,
    drawing everything that seat cannot see from ``rng``."""
    n = state.game.players
    seat = view["seat"]
    played = [tuple(p) for p in view["played"]]
    start_cards = tuple(view["start_cards"])
    mine: tuple[int, ...] = () if seat is None else tuple(view["hand"])
    my_picks: tuple[int, ...] = () if seat is None else tuple(view["picks"])
    known = {*start_cards, *mine, *my_picks, *(c for p in played for c in p)}
    pool = [c for c in range(1, CREW_CARDS + 1) if c not in known]
    shuffle_with(rng, pool)
    hands: list[tuple[int, ...]] = []
    picks: list[tuple[int, ...]] = []
    for s in range(n):
        if s == seat:
            hands.append(mine)
            picks.append(my_picks)
            continue
        size = view["hand_sizes"][s]
        hands.append(tuple(sorted(pool[len(pool) - size :])))
        del pool[len(pool) - size :]
        count = view["pick_counts"][s]
        picks.append(tuple(pool[len(pool) - count :]))
        del pool[len(pool) - count :]
    for s in state.unknown_choices():
        state.fill_choice(s, HIRE_BASE + hands[s][rng.randrange(len(hands[s]))])
    state.hands = hands
    state.picks = picks
    state.played = [tuple(p) for p in played]
    state.start_cards = start_cards
    state.pile = tuple(pool)
    state.taken = len(pool) - view["pile"]
    state.shields = list(view["shields"])
    state.damage = list(view["damage"])
    claimed = [tuple(c) for c in view["claimed"]]
    face_up = view["face_up"] or 0
    seen = {face_up, *(d for c in claimed for d in c)}
    unseen = [d for d in range(1, DRAGONS + 1) if d not in seen]
    shuffle_with(rng, unseen)
    lair = view["lair"]
    state.lair = tuple(unseen[:lair])
    state.ships = tuple(unseen[lair : lair + n])
    state.box = tuple(unseen[lair + n :])
    state.face_up = face_up
    state.claimed = claimed
    state.round = view["rounds_played"]
    state.lead = view["starter"]
    sides = view["scoring_cards"]
    state.sides = tuple(SIDES.index(sides[s]) for s in SYMBOLS)


# The views of the game's states: the rules never import this module; the game's package
# does, so they are installed whenever the rules are used.
install_views(SpaceDragonsState, GameViews(build_view, sample_from_view, SpaceDragonsSeatView))
