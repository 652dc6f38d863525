"""The rules of High Card.

A deck of 13 cards numbered 1 to 13 is shuffled and each of the two players is dealt 5
(hidden). Each round both players lay a card face down at the same time; both are
revealed together and the higher card wins the round (1 point); equal cards win nothing.
After 5 rounds the player with more points wins; equal points share the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, get_args

from dragonlair.core import (
    Action,
    ActionKind,
    EventSpec,
    Game,
    GameSpec,
    State,
    make_result,
)
from dragonlair.core.rng import shuffle_with
from dragonlair.core.view_types import BaseView

CARDS = 13
HAND = 5

Phase = Literal["play", "over"]
PHASES: tuple[Phase, ...] = get_args(Phase)


class HighCardView(BaseView):
    hand: list[int] | None  # the seat's own cards (None: a spectator)
    hand_sizes: list[int]
    points: list[int]
    last: list[int]  # the cards revealed last round, per seat (0 before the first)
    played: list[int]  # every card revealed so far


class HighCardState(State):
    __slots__ = ("hands", "last", "played", "points")

    game: HighCard
    phase: Phase
    hands: list[tuple[int, ...]]
    points: list[int]
    last: list[int]
    played: tuple[int, ...]

    def _setup(self) -> None:
        deck = list(range(1, CARDS + 1))
        self._shuffle(deck)
        self.hands = [tuple(sorted(deck[s * HAND : (s + 1) * HAND])) for s in range(2)]
        self.points = [0, 0]
        self.last = [0, 0]
        self.played = ()
        for s in range(2):
            self._emit("dealt", (s, self.hands[s]), (s,))
        self._start_round()

    def _start_round(self) -> None:
        if not self.hands[0]:
            self._finish(
                make_result(
                    self.points,
                    breakdown=[{"rounds won": p} for p in self.points],
                    termination="hands",
                )
            )
            return
        self.phase = "play"
        self._open_choice([0, 1])

    def _legal_ids(self, seat: int) -> list[int]:
        return [c - 1 for c in self.hands[seat]]

    def _step(self, seat: int, aid: int) -> None:
        self._emit("laid", (seat, aid + 1), (seat,))
        if self._collect(seat, aid):
            cards = [c + 1 for c in self._close_choice() if c is not None]
            for s, card in enumerate(cards):
                self.hands[s] = tuple(x for x in self.hands[s] if x != card)
            self.last = cards
            self.played = self.played + tuple(cards)
            if cards[0] != cards[1]:
                winner = 0 if cards[0] > cards[1] else 1
                self.points[winner] += 1
                self._emit("won", (winner, cards[winner], cards[1 - winner]))
            else:
                self._emit("tied", (cards[0],))
            self._start_round()

    def _view(self, seat: int | None, out: dict[str, Any]) -> None:
        out["hand"] = list(self.hands[seat]) if seat is not None else None
        out["hand_sizes"] = [len(h) for h in self.hands]
        out["points"] = list(self.points)
        out["last"] = list(self.last)
        out["played"] = list(self.played)

    def _fill_from_view(self, view: dict[str, Any], rng: Any) -> None:
        seat = view["seat"]
        mine: tuple[int, ...] = tuple(view["hand"]) if seat is not None else ()
        known = set(view["played"]) | set(mine)
        pool = [c for c in range(1, CARDS + 1) if c not in known]
        shuffle_with(rng, pool)
        hidden = set(self.unknown_choices())
        hands: list[tuple[int, ...]] = []
        for s in range(2):
            if s == seat:
                hands.append(mine)
                continue
            hand = tuple(sorted(pool.pop() for _ in range(view["hand_sizes"][s])))
            hands.append(hand)
            if s in hidden:
                self.fill_choice(s, hand[rng.randrange(len(hand))] - 1)
        self.hands = hands
        self.points = list(view["points"])
        self.last = list(view["last"])
        self.played = tuple(view["played"])

    def check_invariants(self) -> None:
        held = [c for h in self.hands for c in h] + list(self.played)
        assert len(set(held)) == len(held), f"a card is in two places: {sorted(held)}"
        assert sum(self.points) <= len(self.played) // 2, "more rounds won than played"


class HighCard(Game):
    spec = GameSpec(
        id="high-card",
        name="High Card",
        min_players=2,
        max_players=2,
        rules_version=1,
        summary="Two players lay a card at once for five rounds; the higher card wins each.",
    )
    state_class = HighCardState
    view_type = HighCardView
    phases = PHASES
    terminations = ("hands",)  # the only way it ends: the hands are played out
    action_kinds = (ActionKind("lay", ("card",), "lay a card face down"),)
    event_specs = {
        "dealt": EventSpec(
            ("seat", "cards"),
            "{seat} was dealt {cards}",
            ("seat",),
            "{seat} was dealt 5 cards",
            seat_fields=("seat",),
        ),
        "laid": EventSpec(
            ("seat", "card"),
            "{seat} laid {card}",
            ("seat",),
            "{seat} laid a card",
            seat_fields=("seat",),
        ),
        "won": EventSpec(
            ("seat", "card", "other"),
            "{seat} won the round with {card} over {other}",
            seat_fields=("seat",),
        ),
        "tied": EventSpec(("card",), "both laid {card}: nobody wins the round"),
    }

    def _define_actions(self) -> Sequence[Action]:
        return [Action("lay", c) for c in range(1, CARDS + 1)]

    @property
    def max_length(self) -> int:
        return 2 * HAND
