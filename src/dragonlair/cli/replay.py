"""``dragonlair replay``: step through a finished or saved game as one seat saw it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

import dragonlair

from ..core import DragonlairError, Record
from ..i18n import N_, _
from ..tui.session import SAVE_FORMAT
from .options import LANG_HELP, apply_language


def _record_from(path: Path) -> tuple[Record, list[str] | None]:
    try:
        doc: Any = json.loads(path.read_text())
    except OSError as e:
        raise DragonlairError(
            _("cannot read {path}: {error}").format(path=path, error=e.strerror or e)
        ) from None
    except ValueError as e:
        raise DragonlairError(_("{path} is not JSON: {error}").format(path=path, error=e)) from None
    names = None
    if isinstance(doc, dict) and doc.get("format") == SAVE_FORMAT:
        seats = doc.get("seats") or []
        names = [
            s.get("name", f"Player {i + 1}") for i, s in enumerate(seats) if isinstance(s, dict)
        ]
        doc = doc.get("state")
    state = dragonlair.load(json.dumps(doc))
    return state.record, names


def replay(
    file: Annotated[Path, typer.Argument(help=_("A save file, a saved state or a record (JSON)."))],
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat",
            "-s",
            min=1,
            help=_("See the game as this seat, 1 for Player 1 (default: a spectator)."),
        ),
    ] = None,
    move: Annotated[int, typer.Option("--move", "-m", min=0, help=_("Start at this move."))] = 0,
    all_steps: Annotated[
        bool,
        typer.Option(
            "--all", help=_("No screen: print the log as the seat saw it and the result.")
        ),
    ] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=_(LANG_HELP))] = None,
) -> None:
    """Step through a game (the help players read is ``HELP``, in their language)."""
    apply_language(lang)
    from ..tui.app import ReplayApp
    from ..tui.render import result_table
    from ..tui.words import Words

    try:
        record, names = _record_from(file)
        game = dragonlair.make(record.game, players=record.players, options=record.options)
        if seat is not None and not 1 <= seat <= game.players:
            raise DragonlairError(
                _("seat {seat} is not at this table: use 1 to {n}").format(
                    seat=seat, n=game.players
                )
            )
    except DragonlairError as e:
        raise typer.BadParameter(str(e)) from None
    # a save names its seats; any seat it does not name is "Player n"
    names = [
        names[i] if names and i < len(names) else _("Player {n}").format(n=i + 1)
        for i in range(game.players)
    ]
    index = None if seat is None else seat - 1
    if move > len(record.actions):
        raise typer.BadParameter(
            _("the game has {n} moves, not {move}").format(n=len(record.actions), move=move)
        )
    if not all_steps:
        if not sys.stdout.isatty():
            raise typer.BadParameter(_("the replay screen needs a terminal; --all prints the log"))
        ReplayApp(record, names, index, move).run()
        return
    console = Console(highlight=False)
    state = dragonlair.replay(record)  # from the deal or the position, undos included
    words = Words(game, names, index)
    for event in state.events_since(0, index):
        console.print(f"  {words.event(event)}", markup=False)
    if state.result is not None:
        console.print(result_table(game, state.result, names))
    else:
        console.print(
            _("The game was saved at move {n}; it is not over.").format(n=len(record.actions))
        )


HELP = N_(
    "Step through a game as a seat (or a spectator) saw it, on the full screen: → next move, "
    "← back, Home/End, a number and Enter to go to that move, q to leave."
)


def register(app: typer.Typer) -> None:
    app.command(help=_(HELP))(replay)
