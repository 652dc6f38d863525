"""The errors every part of dragonlair raises (defined in :mod:`dragonlair.errors`,
below the language catalogs that raise them too).
"""

from ..errors import (
    BadDataFile,
    BadOptions,
    BadRecord,
    BadSeat,
    DragonlairError,
    IllegalAction,
    UnknownAction,
    UnknownGame,
)

__all__ = [
    "BadDataFile",
    "BadOptions",
    "BadRecord",
    "BadSeat",
    "DragonlairError",
    "IllegalAction",
    "UnknownAction",
    "UnknownGame",
]
