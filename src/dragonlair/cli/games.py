"""``dragonlair games``: the games, their player counts and options."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

import dragonlair


def games(
    as_json: Annotated[bool, typer.Option("--json", help="Print the specs as JSON.")] = False,
) -> None:
    """List the games with their player counts and options."""
    specs = [dragonlair.spec(g) for g in dragonlair.games()]
    if as_json:
        print(json.dumps([s.to_dict() for s in specs], indent=2))
        return
    table = Table(title="dragonlair games")
    table.add_column("id", style="bold cyan")
    table.add_column("name")
    table.add_column("players", justify="center")
    table.add_column("options")
    for s in specs:
        opts = "\n".join(f"{o.name}={o.default}: {o.help}" for o in s.options) or "-"
        table.add_row(s.id, s.name, f"{s.min_players}-{s.max_players}", opts)
    Console().print(table)


def register(app: typer.Typer) -> None:
    app.command()(games)
