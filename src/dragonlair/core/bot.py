"""The one interface every bot has (the heuristic bots live in the game packages, the
generic ones in ``dragonlair.bots``).

A bot is made for a game (the rules, data and action table, never a state) and asked, for
one seat at a time, to choose among that seat's legal actions given only that seat's view
and a generator of its own. It never sees the true state: everything it knows came through
the view, which is the engine's single door for hidden information.

A bot declares whether it reads the view at all (``reads_view``): building a view costs
more than a random bot's whole decision, so every caller asks :func:`view_for` for what
to hand the bot, which is the seat's view for a bot that reads it and :data:`NO_VIEW`,
an empty mapping that refuses to be read, for one that does not.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from .actions import Action
from .errors import DragonlairError
from .game import Game

if TYPE_CHECKING:
    from .state import State


class UnreadView(Mapping[str, Any]):
    """What a bot that declared ``reads_view = False`` is handed instead of a view: no
    keys, and reading one raises, so a bot that reads after all fails loudly."""

    __slots__ = ()

    def __getitem__(self, key: str) -> NoReturn:
        raise DragonlairError(
            f"the bot read view[{key!r}] but declares reads_view = False, so it gets no view"
        )

    def __contains__(self, key: object) -> bool:
        return False

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "NO_VIEW"


NO_VIEW: Mapping[str, Any] = UnreadView()


class Bot:
    """Base class: subclasses set ``level`` and implement :meth:`choose`; one that never
    looks at the view sets ``reads_view = False`` and is handed :data:`NO_VIEW`."""

    level: ClassVar[str] = ""
    reads_view: ClassVar[bool] = True

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
    reads_view = False

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        return legal[rng.randrange(len(legal))]


def view_for(bot: Bot, state: State, seat: int) -> Mapping[str, Any]:
    """What to hand ``bot`` choosing for ``seat`` of ``state``: the seat's typed view
    (``state.seat_view(seat)``) if the bot reads views, else :data:`NO_VIEW` (and no view
    is built)."""
    return state.seat_view(seat) if bot.reads_view else NO_VIEW
