"""dragonlair: four tabletop games, one faithful rules engine each, for players,
designers and researchers.

>>> import dragonlair
>>> game = dragonlair.make("dragon-stripes", players=3)
>>> state = game.new_game(seed=7)
>>> state.to_act
(0,)
"""

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
    position,
    replay,
    spec,
)

__version__ = "0.1.0"

__all__ = [
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
    "games",
    "load",
    "make",
    "position",
    "replay",
    "spec",
]
