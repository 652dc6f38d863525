"""High Card's observation layout for OpenSpiel, PettingZoo and Gymnasium (needs
dragonlair's ``rl`` extra; the manifest names it, so only the RL adapters import it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dragonlair.rl import Feature, Layout
from dragonlair.rl.layout import (
    Context,
    choosing_feature,
    phase_feature,
    ratio,
    seats_feature,
    to_act_feature,
)

from .rules import CARDS, HAND, PHASES

View = Mapping[str, Any]


def _cards(key: str) -> Feature:
    def encode(view: View, ctx: Context) -> list[float]:
        out = [0.0] * CARDS
        for c in view[key] or ():
            out[c - 1] = 1.0
        return out

    return Feature(key, CARDS, f"1 for each card (1 to {CARDS}) in the view's {key}", encode)


LAYOUT = Layout(
    "high-card",
    [
        phase_feature(list(PHASES)),
        to_act_feature(),
        seats_feature(),
        choosing_feature(),
        _cards("hand"),
        _cards("played"),
        Feature(
            "points",
            2,
            "per seat: rounds won, over 5",
            lambda v, c: c.per_seat([ratio(x, HAND) for x in v["points"]]),
        ),
    ],
    simultaneous=True,
)
