"""High Card's heuristic bot: it lays the lowest card that beats the best card the
rival may still hold, or else its lowest card (a round it cannot win costs nothing more)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from dragonlair.core import Action
from dragonlair.core.bot import Bot

from .rules import CARDS


class Heuristic(Bot):
    """Win a round as cheaply as possible; throw the lowest card on a lost one."""

    level = "heuristic"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        mine = sorted(legal, key=lambda a: int(a.args[0]))
        seen = set(view["played"]) | set(view["hand"] or ())
        rival_best = max((c for c in range(1, CARDS + 1) if c not in seen), default=0)
        winners = [a for a in mine if int(a.args[0]) > rival_best]
        return winners[0] if winners else mine[0]
