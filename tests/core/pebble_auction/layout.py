"""An observation layout for the core's example game, Pebble Auction: the way any game built
on the core gets its RL interfaces (its manifest names a layout, and the adapters do the
rest)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dragonlair.rl import Feature, Layout
from dragonlair.rl.layout import (
    Context,
    acting_feature,
    choosing_feature,
    one_hot,
    phase_feature,
    ratio,
    seats_feature,
    to_act_feature,
    window_feature,
)
from tests.core.example_game import CARDS, HAND

# The game has no typed view, so its features read its JSON view (state.seat_view(seat)
# gives that for such a game).
View = Mapping[str, Any]

ALL_POINTS = CARDS * (CARDS + 1) // 2 + 5  # every card's value, and the most start points


def _cards(key: str) -> Feature:
    def encode(view: View, ctx: Context) -> list[float]:
        out = [0.0] * CARDS
        for c in view[key]:
            out[c - 1] = 1.0
        return out

    return Feature(key, CARDS, f"1 for each card (1 to {CARDS}) in the view's {key}", encode)


def _my_bid(view: View, ctx: Context) -> list[float]:
    text = view.get("my_choice")
    return one_hot(int(text.split()[1]) - 1, CARDS) if text else [0.0] * CARDS


LAYOUT = Layout(
    "pebble-auction",
    [
        phase_feature(["bid", "claim", "objections", "over"]),
        acting_feature(),
        to_act_feature(),
        seats_feature(),
        choosing_feature(),
        window_feature(),
        _cards("hand"),
        _cards("discards"),
        Feature("my_bid", CARDS, "one-hot of the observer's sealed bid, once made", _my_bid),
        Feature(
            "hand_sizes",
            4,
            "per seat: cards in hand, over 3",
            lambda v, c: c.per_seat([ratio(x, HAND) for x in v["hand_sizes"]]),
        ),
        Feature(
            "deck",
            1,
            "cards left in the deck, over 16",
            lambda v, c: [ratio(v["deck_size"], CARDS)],
        ),
        Feature(
            "pot", 1, "the pot, over every card's value", lambda v, c: [ratio(v["pot"], ALL_POINTS)]
        ),
        Feature(
            "points",
            4,
            "per seat: points, over the most there can be",
            lambda v, c: c.per_seat([ratio(x, ALL_POINTS) for x in v["points"]]),
        ),
        Feature(
            "winner",
            4,
            "per seat: 1 for the round's winner",
            lambda v, c: c.seat_one_hot(v["winner"]),
        ),
    ],
    simultaneous=True,
)
