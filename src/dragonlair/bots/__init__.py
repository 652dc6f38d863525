"""Bots: ``random``, ``heuristic`` (one per game, in the game's package) and ``ismcts``.

:func:`make_bot` is how every surface (simulate, tournaments, the terminal, the server)
gets a bot by its level name.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..core import Game
from ..core.errors import DragonlairError
from .base import Bot, RandomBot

LEVELS = ("random", "heuristic", "ismcts")


class UnknownBot(DragonlairError, ValueError):
    """A bot level that does not exist, or does not exist for this game."""


def heuristic_class(game: Game) -> type[Bot]:
    """The heuristic bot of ``game``: ``Heuristic`` in its package's ``heuristic`` module."""
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.heuristic")
    except ModuleNotFoundError:
        raise UnknownBot(f"{game.spec.name} has no heuristic bot") from None
    cls: type[Bot] = module.Heuristic
    return cls


def make_bot(level: str, game: Game, **params: Any) -> Bot:
    """A bot of ``level`` (one of LEVELS) for ``game``; ``params`` set its budget."""
    if level == "random":
        return RandomBot(game)
    if level == "heuristic":
        return heuristic_class(game)(game, **params)
    if level == "ismcts":
        try:
            module = importlib.import_module(f"{__name__}.ismcts")
        except ModuleNotFoundError:
            raise UnknownBot("the ismcts bot is not available in this installation") from None
        bot: Bot = module.ISMCTSBot(game, **params)
        return bot
    raise UnknownBot(f"no bot level {level!r}; the levels are: {', '.join(LEVELS)}")


__all__ = ["LEVELS", "Bot", "RandomBot", "UnknownBot", "heuristic_class", "make_bot"]
