"""The options ``simulate``, ``tournament``, ``compare`` and ``tune`` share, as typed
annotations Typer reads: importing this module costs only Typer, so that every command
starts quickly and a bad argument is refused before anything heavy is imported."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..bots import LEVELS

BOTS_HELP = (
    f"Comma-separated bots, one per seat in order ({', '.join(LEVELS)}, or one of the "
    "game's archetypes listed by `dragonlair games`, with parameters as level:key=value, "
    "e.g. ismcts:time=0.1 or ismcts:iterations=500:rollout=heuristic); "
    "the last one fills the remaining seats."
)
MAX_SEED = 2**63 - 1

GameArg = Annotated[str, typer.Argument(help="Game id (see `dragonlair games`).")]


def check_game(game: str) -> None:
    """Refuse a game id that names no game, as ``running.prepare`` would, but before a
    command imports what running one needs (the simulation, Rich's progress bars)."""
    from ..core import DragonlairError, spec

    try:
        spec(game)
    except DragonlairError as e:
        raise typer.BadParameter(str(e)) from None


PlayersOpt = Annotated[
    int | None, typer.Option("--players", "-p", help="Player count (default: 4 where allowed).")
]
SeedOpt = Annotated[int, typer.Option(min=0, max=MAX_SEED, help="Seed of the run.")]
WorkersOpt = Annotated[
    int, typer.Option("--workers", "-w", min=1, help="Processes to spread the games over.")
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Write one row per game to this file (.csv, or .parquet), streamed as games finish.",
    ),
]
RayOpt = Annotated[
    bool,
    typer.Option(
        "--ray",
        help="Run the games as Ray tasks on a local Ray cluster started for the run "
        "(same results as without).",
    ),
]
RayAddressOpt = Annotated[
    str | None,
    typer.Option(
        "--ray-address",
        help="Run the games as Ray tasks on this running Ray cluster ('auto', or host:port).",
    ),
]
ResumeOpt = Annotated[
    bool,
    typer.Option(
        "--resume",
        help="Continue the interrupted run in --out: play only the games not there yet.",
    ),
]
PlotOpt = Annotated[
    Path | None,
    typer.Option(
        "--plot",
        help="Draw a chart of the run into this file (.png, .svg, .pdf, ...): win share per "
        "bot and per seat with 95% CIs, points per seat, game length.",
    ),
]
RecordsOpt = Annotated[
    Path | None,
    typer.Option("--records", help="Keep every game's record (for `dragonlair replay`) here."),
]
OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Game option key=value (repeatable).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")]
FeaturesOpt = Annotated[
    bool,
    typer.Option(
        "--features/--no-features",
        help="Keep the rich per-game data (start player and turn order, score breakdown, "
        "the game's features, score snapshots); --no-features plays faster and writes the "
        "basic columns only.",
    ),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
