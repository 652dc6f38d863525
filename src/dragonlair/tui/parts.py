"""A game's parts at the terminal: what its manifest's ``terminal`` names.

A game that draws its own table declares one :class:`TerminalParts` (the four games' are
``TERMINAL`` in :mod:`dragonlair.tui.games`), and its manifest names it as
``terminal = "module:TERMINAL"``. Every part is optional: a game that leaves one out gets
the generic one (the view's fields as a table, the engine's own action and event texts).
The panes (:mod:`.render`) and the players' words (:mod:`.words`) read these fields and
nothing else of the game's module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import Action, Game, manifest
from ..core.manifest import BadManifest

Pane = Callable[..., Any]
"""``(game, view, names[, width]) -> Rich renderable``; ``hand`` may take ``lit`` too."""


@dataclass(frozen=True)
class TerminalParts:
    """How one game looks and reads at the terminal."""

    board: Pane | None = None
    """The table: ``board(game, view, names[, width])``; None: the view's fields."""

    players: Pane | None = None
    """Every player as the seat sees them; None: their names."""

    hand: Pane | None = None
    """The seat's own cards: ``hand(game, view, names[, lit])``, the cards in ``lit`` (the
    highlighted choice's) marked; None: the view's ``hand`` as text."""

    brief: Pane | None = None
    """What a small screen shows first, above the whole board; None: nothing."""

    forms: Callable[[Game, Action], list[str]] | None = None
    """The ways a player may type an action, the one to show first; None: the action's
    text with seat arguments counted from 1."""

    label: Callable[[Game, Action, Sequence[str], int | None], str] | None = None
    """The choice as a line of the menu; None: the game's ``describe_action``."""

    cards_of: Callable[[Game, Action], Iterable[int]] | None = None
    """The cards of the hand an action plays (lit in the hand pane); None: none."""

    event_fields: Callable[[Game, dict[str, Any], Sequence[str]], dict[str, Any]] | None = None
    """The event with card ids replaced by printed cards; None: the event as it is."""

    event_text: Mapping[str, str] = field(default_factory=dict)
    """Templates that replace the game's own for some kinds of event."""

    big_events: tuple[str, ...] = ()
    """The kinds of event a player must not miss: marked in the log, and the latest since
    the player's own move repeated on the status line when they are asked."""

    number_kinds: tuple[str, ...] = ()
    """The kinds a bare number stands for, when cards carry printed numbers (``5`` plays
    your 5); in other games a bare number is the number of a choice in the menu."""


GENERIC = TerminalParts()
"""A game whose manifest says ``terminal=None``."""


def terminal_parts(game: Game | str) -> TerminalParts:
    """The terminal parts ``game``'s manifest declares, or :data:`GENERIC`."""
    m = manifest(game if isinstance(game, str) else game.spec.id)
    parts = m.load_terminal()
    if parts is None:
        return GENERIC
    if not isinstance(parts, TerminalParts):
        raise BadManifest(
            f"{m.id} manifest: terminal {m.terminal} is {type(parts).__name__}, "
            "not a dragonlair.tui.parts.TerminalParts"
        )
    return parts
