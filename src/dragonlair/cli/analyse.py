"""``dragonlair analyse``: rate every legal action of one seat, from its view only."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..bots import UnknownBot, parse_bot
from ..core import DragonlairError
from ..core.puzzles import PUZZLE_PREFIX, open_game, puzzle


def analyse(
    file: Annotated[
        str,
        typer.Argument(
            help="A position file (TOML or JSON), a record, a saved game, or puzzle:<name>."
        ),
    ],
    player: Annotated[
        int | None,
        typer.Option(
            "--seat",
            "-s",
            min=1,
            help="The player to advise, 1 is Player 1 (default: the puzzle's, or the one to act).",
        ),
    ] = None,
    samples: Annotated[
        int, typer.Option(min=1, help="Determinizations played out per action.")
    ] = 100,
    games: Annotated[
        int, typer.Option(min=0, help="Also play this many seeded continuations per action.")
    ] = 0,
    bots: Annotated[
        str, typer.Option(help="Bots for the continuations, one per seat (last fills the rest).")
    ] = "heuristic",
    ismcts: Annotated[
        str, typer.Option(help="The search, as a bot spec (ismcts:iterations=500).")
    ] = "ismcts",
    seed: Annotated[int, typer.Option(min=0, help="Seed of the analysis and of the position.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
) -> None:
    """Rate each legal action of a seat with ISMCTS from that seat's view only (never the
    true position): win chance with a 95% interval, expected points, and the bot's pick."""
    console = Console(highlight=False)
    seat = None if player is None else player - 1
    try:
        from ..bots.analysis import analyse as run

        state = open_game(file, seed=seed)
        if seat is None and file.startswith(PUZZLE_PREFIX):
            seat = puzzle(file[len(PUZZLE_PREFIX) :]).seat
        if seat is None:
            if len(state.to_act) != 1:
                players = ", ".join(f"Player {s + 1}" for s in state.to_act)
                raise DragonlairError(f"{players} are to act: choose one with --seat")
            seat = state.to_act[0]
        if not 0 <= seat < state.game.players:
            raise DragonlairError(
                f"there is no Player {seat + 1} at a table of {state.game.players}"
            )
        if seat not in state.to_act:
            waiting = ", ".join(f"Player {s + 1}" for s in state.to_act) or "nobody (it is over)"
            raise DragonlairError(
                f"Player {seat + 1} is not asked to act now; waiting for {waiting}"
            )
        spec = parse_bot(ismcts)
        if spec.level != "ismcts":
            raise DragonlairError(f"--ismcts takes an ismcts spec, not {ismcts!r}")
        result = run(state, seat, samples=samples, games=games, bots=bots, seed=seed, **spec.params)
    except (DragonlairError, UnknownBot) as e:
        raise typer.BadParameter(str(e)) from None
    except ImportError as e:  # an install without the library the analysis needs
        Console(stderr=True, highlight=False).print(
            f"dragonlair analyse cannot run in this install: it needs {e.name or e}, "
            "which is not installed (pip install 'dragonlair[sim]' adds it)",
            markup=False,
        )
        raise typer.Exit(1) from None
    if as_json:
        print(json.dumps(result.to_dict(), indent=2))
        return
    game = state.game
    console.rule(f"{game.spec.name}: Player {seat + 1} at move {state.move} ({state.phase})")
    table = Table(show_edge=False)
    table.add_column("action")
    table.add_column(f"win chance (95%, {samples} playouts)", justify="right")
    table.add_column("points", justify="right")
    table.add_column("ismcts visits", justify="right")
    table.add_column("ismcts value", justify="right")
    if games:
        table.add_column(f"{games} games with bots", justify="right")
        table.add_column("their points", justify="right")
    for a in result.actions:
        mark = " ← pick" if a.action == result.pick else ""
        row = [
            f"{a.action}{mark}",
            str(a.playouts.win),
            f"{a.playouts.points:.1f}",
            str(a.visits),
            f"{a.value:.3f}",
        ]
        if a.continuations is not None:
            row += [str(a.continuations.win), f"{a.continuations.points:.1f}"]
        table.add_row(*row)
    console.print(table)
    console.print(
        f"ISMCTS ({result.iterations} iterations) picks [bold]{result.pick}[/bold]. "
        "Seen from the seat's view only: what it cannot see was redrawn for every playout."
    )


def register(app: typer.Typer) -> None:
    app.command()(analyse)
