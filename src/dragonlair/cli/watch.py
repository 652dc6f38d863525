"""``dragonlair watch``: bots play a seeded game while you watch as a spectator."""

from __future__ import annotations

import random
import time
from typing import Annotated

import typer
from rich.console import Console

import dragonlair

from ..bots import LEVELS, UnknownBot, make_bot
from ..core import DragonlairError, derive_seed
from .options import parse_options


def watch(
    game: Annotated[str, typer.Argument(help="Game id (see `dragonlair games`).")],
    players: Annotated[int | None, typer.Option("--players", "-n", help="Player count.")] = None,
    bots: Annotated[
        str,
        typer.Option(
            help=f"Comma-separated bot levels per seat ({', '.join(LEVELS)}); "
            "the last one fills the remaining seats."
        ),
    ] = "heuristic",
    seed: Annotated[int, typer.Option(help="Seed of the game.")] = 1,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Game option key=value (repeatable).")
    ] = None,
    delay: Annotated[float, typer.Option(min=0, help="Seconds between moves.")] = 0.0,
) -> None:
    """Watch bots play a seeded game, as a spectator sees it."""
    console = Console()
    try:
        g = dragonlair.make(game, players=players, options=parse_options(option))
        levels = [b.strip() for b in bots.split(",") if b.strip()] or ["random"]
        levels += [levels[-1]] * (g.players - len(levels))
        if len(levels) > g.players:
            raise typer.BadParameter(f"{len(levels)} bots for {g.players} seats")
        seat_bots = [make_bot(level, g) for level in levels]
        state = g.new_game(seed=seed)
    except (DragonlairError, UnknownBot) as e:
        raise typer.BadParameter(str(e)) from None
    names = [f"{i}:{levels[i]}" for i in range(g.players)]
    rngs = [random.Random(derive_seed(seed, 1000 + i)) for i in range(g.players)]
    console.rule(f"{g.spec.name}, {g.players} players, seed {seed}")
    seen = 0
    while not state.is_over:
        for ev in state.events_since(seen, None):
            console.print(f"  {g.event_text(ev, names)}")
        seen = state.event_count
        seat = state.to_act[0]
        view = state.view(seat)
        action = seat_bots[seat].choose(view, state.legal_actions(seat), rngs[seat])
        state.apply(seat, action)
        if delay:
            time.sleep(delay)
    for ev in state.events_since(seen, None):
        console.print(f"  {g.event_text(ev, names)}")
    result = state.result
    assert result is not None
    console.rule("result")
    for s in range(g.players):
        parts = (
            ", ".join(f"{k} {v}" for k, v in result.breakdown[s].items())
            if result.breakdown
            else ""
        )
        mark = " [bold green]wins[/]" if s in result.winners else ""
        console.print(f"{names[s]}: {result.points[s]} points{mark}  [dim]{parts}[/dim]")


def register(app: typer.Typer) -> None:
    app.command()(watch)
