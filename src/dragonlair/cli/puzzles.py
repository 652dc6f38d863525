"""``dragonlair puzzles``: the positions each game ships, to play or analyse."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..core import DragonlairError
from ..core.puzzles import puzzles as all_puzzles


def puzzles(
    game: Annotated[str | None, typer.Argument(help="Only this game's puzzles.")] = None,
) -> None:
    """List the puzzles: open one with `dragonlair play --from puzzle:<name>` or
    `dragonlair analyse puzzle:<name>`."""
    console = Console(highlight=False)
    try:
        found = all_puzzles(game)
    except DragonlairError as e:
        raise typer.BadParameter(str(e)) from None
    table = Table(show_edge=False)
    table.add_column("name")
    table.add_column("title")
    table.add_column("for", justify="right")
    table.add_column("from")
    for p in found:
        who = "" if p.seat is None else f"Player {p.seat + 1}"
        table.add_row(p.name, p.title, who, p.source)
    console.print(table)
    for p in found:
        if p.question:
            console.print(f"[bold]{p.name}[/bold]: {p.question}")


def register(app: typer.Typer) -> None:
    app.command()(puzzles)
