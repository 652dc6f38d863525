"""What the bot modules share: the error for a bot that does not exist, and a game's
declared heuristic (below both :mod:`dragonlair.bots` and :mod:`dragonlair.bots.ismcts`,
which import it; ``dragonlair.bots`` gives both names too)."""

from __future__ import annotations

from collections.abc import Callable

from ..core import Game, manifest
from ..core.bot import Bot
from ..core.errors import DragonlairError
from ..core.rng import derive_seed

TABLE_BOT_STREAM = 0xB07


def table_bot_seed(table_seed: int, seat: int, move: int) -> int:
    """The seed of a table's bot at ``seat`` deciding at ``move``: the same history gives
    the same decisions (the server's bot seats and a tutorial's check both use it)."""
    return derive_seed(table_seed, TABLE_BOT_STREAM, seat, move)


class UnknownBot(DragonlairError, ValueError):
    """A bot level that does not exist, or does not exist for this game, or parameters
    that the bot does not take."""


def heuristic_class(game: Game) -> Callable[..., Bot]:
    """The heuristic bot factory of ``game``, as its manifest declares it."""
    found = manifest(game.spec.id).heuristic
    if found is None:
        raise UnknownBot(f"{game.spec.name} has no heuristic bot")
    return found
