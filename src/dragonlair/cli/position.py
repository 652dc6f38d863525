"""``dragonlair position``: write the position of a game, to edit, share or set up again."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

import dragonlair

from ..core import DragonlairError
from ..core.position import to_toml
from ..core.puzzles import open_game


def position(
    source: Annotated[
        str,
        typer.Argument(
            help="A record, a saved game, a position file (TOML or JSON) or puzzle:<name>."
        ),
    ],
    move: Annotated[
        int | None,
        typer.Option(
            min=0, help="The position after this many record entries (default: the last)."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Write JSON instead of TOML.")] = False,
    out: Annotated[
        Path | None, typer.Option(help="Write to this file instead of the screen.")
    ] = None,
    seed: Annotated[
        int, typer.Option(min=0, help="Seed for the hidden parts a position leaves out.")
    ] = 0,
) -> None:
    """Write the position of a game (every seat's cards, the decks top first, the table,
    the phase and whose turn) as TOML or JSON, to edit and open again with
    `dragonlair play --from` or `dragonlair analyse`."""
    try:
        state = open_game(source, seed=seed)
        if move is not None:
            record = state.record
            if move > len(record.actions):
                raise DragonlairError(
                    f"the game has {len(record.actions)} record entries, not {move}"
                )
            state = dragonlair.replay(replace(record, actions=record.actions[:move]))
        doc = state.to_position()
    except DragonlairError as e:
        raise typer.BadParameter(str(e)) from None
    text = json.dumps(doc, indent=2) + "\n" if as_json else to_toml(doc)
    if out is None:
        print(text, end="")
    else:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as e:
            raise typer.BadParameter(f"cannot write {out}: {e.strerror or e}") from None


def register(app: typer.Typer) -> None:
    app.command()(position)
