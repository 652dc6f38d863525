"""``dragonlair puzzles``: the positions each game ships, to play or analyse."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..core import DragonlairError
from ..core.puzzles import puzzles as all_puzzles
from ..i18n import N_, _
from .options import LANG_HELP, apply_language


def puzzles(
    game: Annotated[str | None, typer.Argument(help=_("Only this game's puzzles."))] = None,
    lang: Annotated[str | None, typer.Option("--lang", help=_(LANG_HELP))] = None,
) -> None:
    """List the puzzles (the help players read is ``HELP``, in their language)."""
    apply_language(lang)
    console = Console(highlight=False)
    try:
        found = all_puzzles(game)
    except DragonlairError as e:
        raise typer.BadParameter(str(e)) from None
    # The names are what a player types (puzzle:<name>): never cut, whatever the width;
    # the titles wrap, and each puzzle's question and source follow the table.
    table = Table(show_edge=False)
    table.add_column(_("Puzzle"), no_wrap=True)
    table.add_column(_("For"), no_wrap=True)
    table.add_column(_("Title"))
    for p in found:
        who = "" if p.seat is None else _("Player {n}").format(n=p.seat + 1)
        table.add_row(p.name, who, _(p.title))
    console.print(table)
    for p in found:
        if p.question:
            console.print(f"[bold]{p.name}[/bold]: {_(p.question)}")
        if p.source:
            console.print("  " + _("source: {source}").format(source=_(p.source)), style="dim")


HELP = N_(
    "List the puzzles: open one with `dragonlair play --from puzzle:<name>` or "
    "`dragonlair analyse puzzle:<name>`."
)


def register(app: typer.Typer) -> None:
    app.command(help=_(HELP))(puzzles)
