"""A tiny heuristic for the example game, Pebble Auction, so the bot machinery can be
tested before the real games (whose heuristics live in their own packages).

What it values: the pot. It bids its highest card when the pot is worth fighting for
(at least 12 with its bid) and its lowest otherwise, so it saves high cards for rich
rounds; it always takes a pot it won; it objects to a rival's take of 15 or more while
it can afford the point.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from dragonlair.core import Action
from dragonlair.core.bot import Bot


class PebbleHeuristic(Bot):
    """Bid high for a rich pot, take what you win, object to big takes."""

    level = "heuristic"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        phase = view["phase"]
        if phase == "bid":
            bids = sorted(legal, key=lambda a: int(a.args[0]))
            return bids[-1] if view["pot"] + int(bids[-1].args[0]) >= 12 else bids[0]
        names = {a.kind: a for a in legal}
        if phase == "claim":
            return names["take"]
        if "object" in names and view["pot"] >= 15 and view["points"][view["seat"]] >= 2:
            return names["object"]
        return names["allow"]
