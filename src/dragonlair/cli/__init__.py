"""The ``dragonlair`` command.

Built with Typer: the commands are typed Python functions, so ``--help`` on every command
and clear errors for bad arguments come from the signatures, and Rich draws the output.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

import dragonlair

app = typer.Typer(
    name="dragonlair",
    help="Four tabletop games: play them, simulate them, study them.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()


def _version(value: bool) -> None:
    if value:
        print(f"dragonlair {dragonlair.__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Four tabletop games: play them, simulate them, study them."""


@app.command()
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
        opts = ", ".join(f"{o.name}={o.default}" for o in s.options) or "-"
        table.add_row(s.id, s.name, f"{s.min_players}-{s.max_players}", opts)
    console.print(table)


def main() -> None:
    app()
