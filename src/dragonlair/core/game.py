"""A game definition: the spec, the options chosen, the data, and the table of actions.

:class:`Game` is defined next to :class:`~dragonlair.core.state.State` in
:mod:`dragonlair.core.state` (each builds the other: a game makes its states, a state reads
its game's table and spec), and is importable from here under its usual name.
"""

from .state import Game

__all__ = ["Game"]
