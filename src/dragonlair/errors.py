"""The errors every part of dragonlair raises.

A leaf module, below everything else (the language catalogs, :mod:`dragonlair.i18n`,
raise them too, and the core imports those); :mod:`dragonlair.core.errors` gives the same
classes under the name the engine's modules use.

Each message says what was wrong and what was expected. Whenever one of these is raised
by a state method, the state is exactly as it was before the call.
"""

from __future__ import annotations


class DragonlairError(Exception):
    """Base class of every error dragonlair raises on purpose."""


class UnknownGame(DragonlairError, LookupError):
    """A game id that is not registered."""

    def __str__(self) -> str:  # LookupError would quote the message
        return str(self.args[0]) if self.args else ""


class BadOptions(DragonlairError, ValueError):
    """A player count or option value the game does not allow."""


class BadSeat(DragonlairError, ValueError):
    """A seat number outside the table."""


class UnknownAction(DragonlairError, ValueError):
    """Action text that does not parse as any action of the game."""


class IllegalAction(DragonlairError, ValueError):
    """An action that the rules do not allow now, or from a seat not asked to act."""


class BadRecord(DragonlairError, ValueError):
    """A game record or saved state that cannot be read or replayed."""


class BadDataFile(DragonlairError, ValueError):
    """A component data file that is missing, malformed or inconsistent."""
