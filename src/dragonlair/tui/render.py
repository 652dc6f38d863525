"""Drawing a seat's view at the terminal with Rich.

Every function here takes views, events and legal actions, never a state, so a screen can
show nothing its seat may not know. A game's manifest names its board renderer
(``terminal_board``: ``board(game, view, names) -> renderable``; the game object only
lends its printed component data; the four games' are in ``dragonlair.tui.games``) that
lays the table out the way the game looks; a game whose manifest says ``None`` is shown
as a plain table of its view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..core import Action, Game, State, manifest

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


def board(game: Game, view: dict[str, Any], names: Sequence[str]) -> RenderableType:
    """The game's own drawing of the table, or a generic one."""
    draw = manifest(game.spec.id).load_terminal_board()
    if draw is not None:
        drawn: RenderableType = draw(game, view, names)
        return drawn
    return generic_board(view, names)


def generic_board(view: dict[str, Any], names: Sequence[str]) -> RenderableType:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    for key, value in view.items():
        if key in CORE_KEYS:
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
    seat = view.get("seat")
    who = f"you are {names[seat]}" if isinstance(seat, int) else "spectator"
    acting = ", ".join(names[s] for s in view.get("to_act", []))
    text = Text()
    text.append(f"{game.spec.name}", style="bold magenta")
    text.append(f"  ·  {view.get('phase', '')}  ·  move {view.get('move', 0)}  ·  {who}")
    if acting:
        label = "still choosing" if "choosing" in view else "to act"
        text.append(f"  ·  {label}: {acting}", style="cyan")
    if "my_choice" in view:
        text.append(f"  ·  your choice: {view['my_choice']}", style="green")
    return text


def choices(game: Game, legal: Sequence[Action]) -> Table:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(justify="right", style="bold cyan")
    table.add_column(style="bold")
    table.add_column(style="dim")
    for i, a in enumerate(legal, 1):
        label = game.describe_action(a)
        table.add_row(f"{i})", str(a), "" if label == str(a) else escape(label))
    return table


def render_screen(
    game: Game,
    view: dict[str, Any],
    names: Sequence[str],
    log: Sequence[str],
    legal: Sequence[Action],
) -> RenderableType:
    """The whole screen for one decision: header, table, recent log and the choices."""
    parts: list[RenderableType] = [Text(""), header(game, view, names)]
    parts.append(Panel(board(game, view, names), title=game.spec.name, expand=False))
    if log:
        parts.append(
            Panel(
                "\n".join(escape(line) for line in log[-8:]), title="log", expand=False, style="dim"
            )
        )
    if "window" in view:
        parts.append(
            Text(
                f"You are asked; the default answer is {view['window']['default']}.", style="yellow"
            )
        )
    parts.append(choices(game, legal))
    return Group(*parts)


def render_result(state: State, names: Sequence[str]) -> RenderableType:
    """The final scoring breakdown per player and the winner."""
    result = state.result
    assert result is not None
    labels: list[str] = []
    for b in result.breakdown:
        for k in b:
            if k not in labels:
                labels.append(k)
    table = Table(title="Final scores")
    table.add_column("player", style="bold")
    for label in labels:
        table.add_column(label, justify="right")
    table.add_column("total", justify="right", style="bold")
    table.add_column("rank", justify="right")
    for seat in range(state.game.players):
        b = result.breakdown[seat] if result.breakdown else {}
        style = "bold green" if seat in result.winners else ""
        table.add_row(
            names[seat],
            *[str(b.get(label, "")) for label in labels],
            str(result.points[seat]),
            str(result.ranks[seat]),
            style=style,
        )
    winners = " and ".join(names[w] for w in result.winners)
    line = f"Shared win: {winners}." if len(result.winners) > 1 else f"Winner: {winners}."
    parts: list[RenderableType] = [table, Text(line, style="bold green")]
    if result.reason:
        parts.append(Text(result.reason, style="dim"))
    return Group(*parts)


def rules_summary(game: Game, legal: Sequence[Action]) -> RenderableType:
    """The game's rules for players (its manifest's) and what each choice does."""
    rules = manifest(game.spec.id).player_rules()
    kinds = Table(show_header=False, box=None)
    for k in game.table.kinds:
        kinds.add_row(f"[bold]{escape(k.form)}[/bold]", escape(k.help))
    return Group(
        Panel(Markdown(rules), title=f"{game.spec.name}: the rules in brief", expand=False),
        Panel(kinds, title="actions", expand=False),
        Panel(choices(game, legal), title="your choices now", expand=False),
        Text(
            "At the prompt: a number or an action, ? for this help, log for the whole log, "
            "save FILE, quit.",
            style="dim",
        ),
    )
