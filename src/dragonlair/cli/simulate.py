"""``dragonlair simulate``: thousands of seeded bot games over several processes.

Everything is checked before the first game (the game, player count and options, every
bot and its parameters, the number of bots, the output paths), so a bad argument costs
nothing and leaves nothing behind. The run shows a Rich progress bar with games/s and an
ETA on stderr; Ctrl-C stops it cleanly, and the games that finished are summarised and
written as usual (the exit code is then 130). ``dragonlair tournament`` shares this
machinery and rotates the seats.
"""

from __future__ import annotations

from typing import Annotated

import typer

from .simargs import (
    BOTS_HELP,
    FeaturesOpt,
    GameArg,
    JsonOpt,
    OptionOpt,
    OutOpt,
    PlayersOpt,
    PlotOpt,
    QuietOpt,
    RayAddressOpt,
    RayOpt,
    RecordsOpt,
    ResumeOpt,
    SeedOpt,
    WorkersOpt,
    check_game,
)


def simulate(
    game: GameArg,
    players: PlayersOpt = None,
    bots: Annotated[str, typer.Option("--bots", "-b", help=BOTS_HELP)] = "random",
    n: Annotated[int, typer.Option("-n", "--games", min=1, help="Number of games.")] = 100,
    seed: SeedOpt = 1,
    workers: WorkersOpt = 1,
    out: OutOpt = None,
    resume: ResumeOpt = False,
    records: RecordsOpt = None,
    plot: PlotOpt = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
    use_ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    features: FeaturesOpt = True,
) -> None:
    """Play many seeded bot games and summarise them: win share per seat and per bot with
    95% confidence intervals, points, ranks, game length. The same seed gives the same
    games whatever the number of workers. An option with several values (``-o
    damage=-1,-2,-3``) sweeps them: every combination on the same seeds, one table."""
    check_game(game)  # before the imports below
    from .running import check_resume, execute, prepare, print_summary, ray_target, report
    from .sweep import grid, sweep

    settings = grid(option)
    if settings is not None:
        if resume or records is not None or plot is not None:
            raise typer.BadParameter("a sweep writes no --records or --plot, and cannot --resume")
        sweep(game, players, bots, n, seed, workers, settings, out, as_json, quiet, features)
        return
    job = prepare(
        game,
        players,
        bots,
        n,
        seed,
        option,
        out,
        records,
        rotate=False,
        plot=plot,
        features=features,
    )
    check_resume(out, resume)
    played = execute(
        job,
        workers,
        not (quiet or as_json),
        "simulating",
        out,
        records,
        resume,
        plot is not None,
        ray_target(use_ray, ray_address, workers),
    )
    report(played, seed, plot, as_json, lambda s, c: print_summary(s, seed, c))


def register(app: typer.Typer) -> None:
    app.command()(simulate)
