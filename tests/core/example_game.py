"""Pebble Auction: a tiny game that exercises every mechanism of the core.

Not a product game; it lives in the tests so the core is tested before any real game.

Rules. A deck of 16 cards numbered 1 to 16 is shuffled and every player is dealt 3 (hidden).
Each round:
1. Bid (simultaneous, secret): every player with cards lays one face down; all are
   revealed together. The highest card wins the round; a tie for highest wins nothing.
   The bids go to the pot (their values add up).
2. Claim (sequential): the round's winner says ``take`` or ``pass``. Passing leaves the pot
   for the next round.
3. Objections (a window): after a ``take``, every other player in turn order is asked; the
   first to ``object`` (it costs them 1 point, so they need one) stops the take and the pot
   stays. ``allow`` is the default answer.
4. Everyone draws back up to 3 cards while the deck lasts (each sees only their own card).
The game ends when nobody has cards; most points wins, ties share the win.
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
    OptionSpec,
    State,
    make_result,
)
from dragonlair.core.rng import shuffle_with
from dragonlair.core.view_types import BaseView

CARDS = 16
HAND = 3

BID0 = 0  # ids 0..15: "bid 1".."bid 16"
TAKE, PASS, OBJECT, ALLOW = CARDS, CARDS + 1, CARDS + 2, CARDS + 3

Phase = Literal["bid", "claim", "objections", "over"]
PHASES: tuple[Phase, ...] = get_args(Phase)


class PebbleView(BaseView):
    hand: list[int] | None  # the seat's own cards (None: a spectator)
    hand_sizes: list[int]
    deck_size: int
    pot: int
    points: list[int]
    winner: int  # the round's winner, or -1
    discards: list[int]


class PebbleState(State):
    __slots__ = ("deck", "discards", "hands", "points", "pot", "winner")

    game: PebbleAuction
    phase: Phase
    hands: list[tuple[int, ...]]
    deck: list[int]
    pot: int
    points: list[int]
    winner: int
    discards: tuple[int, ...]

    def _setup(self) -> None:
        deck = list(range(1, CARDS + 1))
        self._shuffle(deck)
        n = self.game.players
        self.hands = [tuple(sorted(deck[i * HAND : (i + 1) * HAND])) for i in range(n)]
        self.deck = deck[n * HAND :]
        self.pot = 0
        self.points = [self.game.options["start_points"]] * n  # type: ignore[list-item]
        self.winner = -1
        self.discards = ()
        for s in range(n):
            self._emit("dealt", (s, self.hands[s]), (s,))
        self._start_round()

    def _start_round(self) -> None:
        seats = [s for s, h in enumerate(self.hands) if h]
        if not seats:
            self._end()
            return
        self.phase = "bid"
        self._open_choice(seats)

    def _legal_ids(self, seat: int) -> list[int]:
        if self.phase == "bid":
            return [BID0 + c - 1 for c in self.hands[seat]]
        if self.phase == "claim":
            return [TAKE, PASS]
        if self.points[seat] > 0:
            return [OBJECT, ALLOW]
        return [ALLOW]

    def _step(self, seat: int, aid: int) -> None:
        if self.phase == "bid":
            self._emit("bid", (seat, aid - BID0 + 1), (seat,))
            if self._collect(seat, aid):
                self._reveal(self._close_choice())
        elif self.phase == "claim":
            if aid == TAKE:
                others = [(seat + k) % self.game.players for k in range(1, self.game.players)]
                self.phase = "objections"
                self._open_window(others, ALLOW)
            else:
                self._emit("passed", (seat,))
                self._refill()
        elif aid == OBJECT:
            self.points[seat] -= 1
            self._emit("objected", (seat,))
            self._close_window()
            self._refill()
        elif not self._window_next():
            self.points[self.winner] += self.pot
            self._emit("took", (self.winner, self.pot))
            self.pot = 0
            self._refill()

    def _reveal(self, choices: list[int | None]) -> None:
        bids = {s: c - BID0 + 1 for s, c in enumerate(choices) if c is not None and c >= 0}
        for s, card in bids.items():
            self.hands[s] = tuple(x for x in self.hands[s] if x != card)
        self.discards = self.discards + tuple(sorted(bids.values()))
        self.pot += sum(bids.values())
        self._emit("revealed", (tuple(bids.get(s, 0) for s in range(self.game.players)),))
        top = max(bids.values())
        best = [s for s, c in bids.items() if c == top]
        if len(best) == 1:
            self.winner = best[0]
            self.phase = "claim"
            self._to_act = (self.winner,)
        else:
            self._refill()

    def _refill(self) -> None:
        self.winner = -1
        for s in range(self.game.players):
            while len(self.hands[s]) < HAND and self.deck:
                card = self.deck.pop()
                self.hands[s] = tuple(sorted((*self.hands[s], card)))
                self._emit("drew", (s, card), (s,))
        self._start_round()

    def _end(self) -> None:
        self._finish(
            make_result(
                self.points, breakdown=[{"points": p} for p in self.points], termination="deck"
            )
        )

    def _view(self, seat: int | None, out: dict[str, Any]) -> None:
        out["hand"] = list(self.hands[seat]) if seat is not None else None
        out["hand_sizes"] = [len(h) for h in self.hands]
        out["deck_size"] = len(self.deck)
        out["pot"] = self.pot
        out["points"] = list(self.points)
        out["winner"] = self.winner
        out["discards"] = list(self.discards)

    def _fill_from_view(self, view: dict[str, Any], rng: Any) -> None:
        seat = view["seat"]
        n = self.game.players
        known = set(view["discards"])
        mine: tuple[int, ...] = tuple(view["hand"]) if seat is not None else ()
        known.update(mine)
        hidden = set(self.unknown_choices())
        pool = [c for c in range(1, CARDS + 1) if c not in known]
        shuffle_with(rng, pool)
        hands: list[tuple[int, ...]] = []
        for s in range(n):
            if s == seat:
                hands.append(mine)
                continue
            size = view["hand_sizes"][s]
            hand = tuple(sorted(pool.pop() for _ in range(size)))
            hands.append(hand)
            if s in hidden:
                self.fill_choice(s, BID0 + hand[rng.randrange(len(hand))] - 1)
        self.hands = hands
        self.deck = pool
        self.pot = view["pot"]
        self.points = list(view["points"])
        self.winner = view["winner"]
        self.discards = tuple(view["discards"])

    def check_invariants(self) -> None:
        cards = [c for h in self.hands for c in h] + self.deck + list(self.discards)
        ch = self._choices or []
        assert sorted(cards) == list(range(1, CARDS + 1)), f"cards not conserved: {sorted(cards)}"
        assert all(
            c is None or c < 0 or (c - BID0 + 1) in self.hands[s] for s, c in enumerate(ch)
        ), "a bid card is not in its bidder's hand"


class PebbleAuction(Game):
    spec = GameSpec(
        id="pebble-auction",
        name="Pebble Auction",
        min_players=2,
        max_players=4,
        rules_version=1,
        summary="A tiny test game: sealed bids, a claim, objections.",
        options=(
            OptionSpec(
                "start_points", 1, "points each player starts with", kind="int", min=0, max=5
            ),
        ),
    )
    state_class = PebbleState
    view_type = PebbleView
    phases = PHASES
    terminations = ("deck",)  # the only way it ends: the deck runs out
    action_kinds = (
        ActionKind("bid", ("card",), "lay a card face down as your bid"),
        ActionKind("take", (), "take the pot"),
        ActionKind("pass", (), "leave the pot"),
        ActionKind("object", (), "stop the take (costs 1 point)"),
        ActionKind("allow", (), "let the take stand"),
    )
    event_specs = {
        "dealt": EventSpec(
            ("seat", "cards"),
            "{seat} was dealt {cards}",
            ("seat",),
            "{seat} was dealt 3 cards",
            seat_fields=("seat",),
        ),
        "bid": EventSpec(
            ("seat", "card"), "{seat} bid {card}", ("seat",), "{seat} bid", seat_fields=("seat",)
        ),
        "revealed": EventSpec(("bids",), "bids revealed: {bids}"),
        "passed": EventSpec(("seat",), "{seat} passed", seat_fields=("seat",)),
        "objected": EventSpec(("seat",), "{seat} objected", seat_fields=("seat",)),
        "took": EventSpec(("seat", "pot"), "{seat} took {pot}", seat_fields=("seat",)),
        "drew": EventSpec(
            ("seat", "card"), "{seat} drew {card}", ("seat",), "{seat} drew", seat_fields=("seat",)
        ),
    }

    def _define_actions(self) -> Sequence[Action]:
        bids = [Action("bid", c) for c in range(1, CARDS + 1)]
        return [*bids, Action("take"), Action("pass"), Action("object"), Action("allow")]

    @property
    def max_length(self) -> int:
        return 2 * CARDS + 8
