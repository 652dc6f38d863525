"""The one interface every bot has (the heuristic bots live in the game packages, the
generic ones in ``dragonlair.bots``).

A bot is made for a game (the rules, data and action table, never a state) and asked, for
one seat at a time, to choose among that seat's legal actions given only that seat's view
and a generator of its own. It never sees the true state: everything it knows came through
the view, which is the engine's single door for hidden information.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .actions import Action
from .game import Game


class Bot:
    """Base class: subclasses set ``level`` and implement :meth:`choose`."""

    level: ClassVar[str] = ""

    def __init__(self, game: Game) -> None:
        self.game = game

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """One of ``legal``, chosen from ``view`` (the acting seat's view) and ``rng``."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.level} for {self.game.spec.id}>"


class RandomBot(Bot):
    """Uniformly random among the legal actions."""

    level = "random"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        return legal[rng.randrange(len(legal))]
