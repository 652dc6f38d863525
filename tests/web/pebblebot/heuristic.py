"""A small heuristic for Pebble Auction: bid the highest card, take, object when able."""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from dragonlair.core import Action
from dragonlair.core.bot import Bot


class Heuristic(Bot):
    level = "heuristic"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if Gate.closed:
            Gate.waiting.set()
            Gate.opened.wait(60)
        for kind in ("take", "object"):
            for a in legal:
                if a.kind == kind:
                    return a
        return max(legal, key=lambda a: a.args)


class Gate:
    """While ``closed`` is set, every heuristic decision waits for ``opened`` (a bot that
    thinks for as long as a test wants)."""

    closed = False
    opened: threading.Event = threading.Event()
    waiting: threading.Event = threading.Event()
