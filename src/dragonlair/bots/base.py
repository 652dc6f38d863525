"""What the bot modules share: the error for a bot that does not exist, and a game's
declared heuristic (below both :mod:`dragonlair.bots` and :mod:`dragonlair.bots.ismcts`,
which import it; ``dragonlair.bots`` gives both names too)."""

from __future__ import annotations

from collections.abc import Callable

from ..core import Game, manifest
from ..core.bot import Bot
from ..core.errors import DragonlairError


class UnknownBot(DragonlairError, ValueError):
    """A bot level that does not exist, or does not exist for this game, or parameters
    that the bot does not take."""


def heuristic_class(game: Game) -> Callable[..., Bot]:
    """The heuristic bot factory of ``game``, as its manifest declares it."""
    found = manifest(game.spec.id).heuristic
    if found is None:
        raise UnknownBot(f"{game.spec.name} has no heuristic bot")
    return found
