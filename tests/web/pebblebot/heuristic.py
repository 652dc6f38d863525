"""A small heuristic for Pebble Auction: bid the highest card, take, object when able."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from dragonlair.bots import Bot
from dragonlair.core import Action


class Heuristic(Bot):
    level = "heuristic"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        for kind in ("take", "object"):
            for a in legal:
                if a.kind == kind:
                    return a
        return max(legal, key=lambda a: a.args)
