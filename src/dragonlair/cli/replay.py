"""``dragonlair replay``: step through a finished or saved game as one seat saw it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

import dragonlair

from ..core import DragonlairError, Record
from ..core.registry import replay_actions
from ..tui.render import board, header, render_result
from ..tui.session import SAVE_FORMAT


def _record_from(path: Path) -> tuple[Record, list[str] | None]:
    try:
        doc: Any = json.loads(path.read_text())
    except OSError as e:
        raise DragonlairError(f"cannot read {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise DragonlairError(f"{path} is not JSON: {e}") from None
    names = None
    if isinstance(doc, dict) and doc.get("format") == SAVE_FORMAT:
        seats = doc.get("seats") or []
        names = [s.get("name", f"Seat {i}") for i, s in enumerate(seats) if isinstance(s, dict)]
        doc = doc.get("state")
    state = dragonlair.load(json.dumps(doc))
    return state.record, names


def replay(
    file: Annotated[Path, typer.Argument(help="A save file, a saved state or a record (JSON).")],
    seat: Annotated[
        int | None,
        typer.Option("--seat", "-s", help="See the game as this seat (default: a spectator)."),
    ] = None,
    all_steps: Annotated[
        bool, typer.Option("--all", help="Print every step without waiting for Enter.")
    ] = False,
) -> None:
    """Step through a game as a seat (or a spectator) saw it: Enter for the next move,
    a number to jump to that move, q to quit."""
    console = Console(highlight=False)
    try:
        record, names = _record_from(file)
        game = dragonlair.make(record.game, players=record.players, options=record.options)
        if seat is not None and not 0 <= seat < game.players:
            raise DragonlairError(f"seat {seat} is not at this table: use 0..{game.players - 1}")
    except DragonlairError as e:
        raise typer.BadParameter(str(e)) from None
    names = names or [f"Seat {i}" for i in range(game.players)]
    state = dragonlair.replay(replace(record, actions=()))  # the deal, or the position
    total = len(record.actions)
    who = "a spectator" if seat is None else names[seat]
    console.rule(f"{game.spec.name}: {total} moves, seen by {who}")
    seen = 0
    target = 0
    for i in range(total + 1):
        events = state.events_since(seen, seat)
        seen = state.event_count
        for event in events:
            console.print(f"  {escape(game.event_text(event, names))}")
        if i >= target and (not all_steps or i == total):
            console.print(header(game, state.view(seat), names))
            console.print(Panel(board(game, state.view(seat), names), expand=False))
        if i == total:
            break
        if not all_steps and i >= target:
            try:
                answer = console.input(f"move {i + 1}/{total} [Enter, number, q]: ").strip()
            except EOFError:
                return
            if answer.lower() in ("q", "quit"):
                return
            if answer.isdigit():
                target = min(int(answer), total)
        actor, text = record.actions[i]
        replay_actions(state, [(actor, text)], start=i)
        console.print(f"[dim]move {i + 1}: {escape(names[actor])} acted[/dim]")
    if state.is_over:
        console.print(render_result(state, names))
    else:
        console.print(f"[yellow]The game was saved at move {total}; it is not over.[/yellow]")


def register(app: typer.Typer) -> None:
    app.command()(replay)
