"""dragonlair: four tabletop games, one faithful rules engine each, for players,
designers and researchers.

>>> import dragonlair
>>> game = dragonlair.make("dragon-stripes", players=3)
>>> state = game.new_game(seed=7)
>>> state.to_act
(0,)
"""

from importlib.machinery import EXTENSION_SUFFIXES
from typing import Any

from .core import (
    Action,
    BadDataFile,
    BadOptions,
    BadPosition,
    BadRecord,
    BadSeat,
    DragonlairError,
    Game,
    GameSpec,
    IllegalAction,
    Record,
    Result,
    State,
    UnknownAction,
    UnknownGame,
    games,
    load,
    make,
    replay,
    spec,
)
from .core import state as _state
from .core.registry import position  # dragonlair.core.position is the module of the format

__version__ = "0.1.0"

# True in the compiled build (the engine compiled with mypyc), False in pure Python.
COMPILED: bool = (_state.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))


def analyse(state: State, seat: int, **params: Any) -> Any:
    """Each legal action of ``seat`` rated from its view only: win chance with a 95%
    interval, expected points and the ISMCTS pick (``dragonlair.bots.analysis``)."""
    from .bots.analysis import analyse as _analyse

    return _analyse(state, seat, **params)


__all__ = [
    "COMPILED",
    "Action",
    "BadDataFile",
    "BadOptions",
    "BadPosition",
    "BadRecord",
    "BadSeat",
    "DragonlairError",
    "Game",
    "GameSpec",
    "IllegalAction",
    "Record",
    "Result",
    "State",
    "UnknownAction",
    "UnknownGame",
    "__version__",
    "analyse",
    "games",
    "load",
    "make",
    "position",
    "replay",
    "spec",
]
