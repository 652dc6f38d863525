"""Drawing a seat's view with Rich: the renderables the terminal's panes show.

Every function here takes views, events and legal actions, never a state, so a pane can
show nothing its seat may not know. A game's manifest names its terminal parts
(``terminal``, a :class:`dragonlair.tui.parts.TerminalParts`; the four games' are in
``dragonlair.tui.games``): the ``board``, and optionally ``players``, ``hand`` and ``brief``
(what a small screen shows first; each ``(game, view, names[, width]) -> renderable``; the
game object only lends its printed component data). A game whose manifest says ``None``
is shown as a plain table of its view.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..core import Game, Result, manifest
from ..i18n import _, language, words
from .parts import terminal_parts
from .words import seat_name

# Keys every view has; the header shows them, the board does not repeat them.
CORE_KEYS = {
    "game",
    "players",
    "seat",
    "phase",
    "move",
    "to_act",
    "over",
    "result",
    "choosing",
    "my_choice",
    "window",
}


def board(
    game: Game, view: dict[str, Any], names: Sequence[str], width: int = 80
) -> RenderableType:
    """The game's own drawing of the table, or a generic one."""
    draw = terminal_parts(game).board
    if draw is None:
        return generic_board(view, names)
    if "width" in inspect.signature(draw).parameters:
        drawn: RenderableType = draw(game, view, names, width)
    else:  # a board drawn at any width: board(game, view, names)
        drawn = draw(game, view, names)
    return drawn


def brief(
    game: Game, view: dict[str, Any], names: Sequence[str], width: int = 80
) -> RenderableType | None:
    """What a small screen shows first, above the whole board (the parts' ``brief``: the
    leaders and the section of the table in play), or None."""
    draw = terminal_parts(game).brief
    if draw is None:
        return None
    drawn: RenderableType = draw(game, view, names, width)
    return drawn


def players(
    game: Game, view: dict[str, Any], names: Sequence[str], width: int = 80
) -> RenderableType:
    """Every player at the table as the seat sees them (or their names for a generic
    game)."""
    draw = terminal_parts(game).players
    if draw is None:
        return Text(", ".join(names), style="dim")
    drawn: RenderableType = draw(game, view, names, width)
    return drawn


def hand(
    game: Game, view: dict[str, Any], names: Sequence[str], lit: frozenset[int] = frozenset()
) -> RenderableType:
    """The seat's own cards (or what else is secret to it); the cards in ``lit`` (those of
    the highlighted choice) marked ``▸`` in reverse."""
    if view.get("seat") is None:
        return Text(_("(a spectator has no hand)"), style="dim")
    draw = terminal_parts(game).hand
    if draw is not None:
        if "lit" in inspect.signature(draw).parameters:
            drawn: RenderableType = draw(game, view, names, lit)
        else:
            drawn = draw(game, view, names)
        return drawn
    secret = view.get("hand")
    return Text(escape(_show(secret, names)) if secret is not None else "-")


def generic_board(view: dict[str, Any], names: Sequence[str]) -> RenderableType:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    for key, value in view.items():
        if key in CORE_KEYS or key == "hand":
            continue
        table.add_row(key.replace("_", " "), escape(_show(value, names)))
    return table


def _show(value: Any, names: Sequence[str]) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_show(v, names) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v, names)}" for k, v in value.items()) + "}"
    if value is None:
        return "-"
    return str(value)


def header(game: Game, view: dict[str, Any], names: Sequence[str]) -> Text:
    """One line: the game, the move, who you are and who is to act."""
    seat = view.get("seat")
    if not isinstance(seat, int):
        who = _("watching")
    elif names[seat] in ("You", f"Player {seat + 1}", _("Player {n}").format(n=seat + 1)):
        who = _("you are Player {n}").format(n=seat + 1)
    else:
        who = _("you are {name} (Player {n})").format(name=names[seat], n=seat + 1)
    acting = ", ".join(seat_name(names, s) for s in view.get("to_act", []))
    text = Text()
    text.append(f"{game.spec.name}", style="bold magenta")
    text.append(" · " + _("move {move}").format(move=view.get("move", 0)) + f" · {who}")
    if acting:
        label = _("still choosing") if "choosing" in view else _("to act")
        text.append(f" · {label}: {acting}", style="cyan")
    if "my_choice" in view:
        text.append(" · " + _("you have chosen"), style="green")
    return text


def result_table(game: Game, result: Result, names: Sequence[str]) -> RenderableType:
    """The final scores: one row per scoring line, one column per player, so that it fits
    80 columns for every table size."""
    labels: list[str] = []
    for b in result.breakdown:
        for k in b:
            if k not in labels:
                labels.append(k)
    table = Table(title=_("Final scores"), box=None, pad_edge=False, padding=(0, 1))
    table.add_column("")
    for seat in range(game.players):
        mark = " ★" if seat in result.winners else ""
        table.add_column(names[seat] + mark, justify="right", style="bold" if mark else "")
    # the outcome first (a small screen shows the top of it), then how it was scored
    table.add_row(_("total"), *[str(p) for p in result.points], style="bold")
    table.add_row(_("rank"), *[str(r) for r in result.ranks], end_section=True)
    for label in labels:
        table.add_row(
            words(label),
            *[
                str(result.breakdown[s].get(label, "")) if result.breakdown else ""
                for s in range(game.players)
            ],
        )
    winners = _(" and ").join(names[w] for w in result.winners)
    line = (
        _("★ Shared win: {winners}.") if len(result.winners) > 1 else _("★ Winner: {winners}.")
    ).format(winners=winners)
    parts: list[RenderableType] = [Text(line, style="bold green"), table]
    if result.reason:
        parts.append(Text(words(result.reason), style="dim"))
    return Group(*parts)


def player_rules(game: Game) -> str:
    """The game's rules for players, in Markdown (its manifest's ``player_rules``)."""
    return manifest(game.spec.id).player_rules(language())
