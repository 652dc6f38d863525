"""``dragonlair simulate``: thousands of seeded bot games over several processes.

Everything is checked before the first game (the game, player count and options, every
bot and its parameters, the number of bots, the output paths), so a bad argument costs
nothing and leaves nothing behind. The run shows a Rich progress bar with games/s and an
ETA on stderr; Ctrl-C stops it cleanly, and the games that finished are summarised and
written as usual (the exit code is then 130). ``dragonlair tournament`` shares this
machinery and rotates the seats.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from ..bots import LEVELS, UnknownBot, parse_bots
from ..core import DragonlairError, Game, make
from ..sim import (
    Job,
    RunResult,
    Summary,
    check_output_file,
    check_records_dir,
    run,
    summarize,
    write_records,
    write_results,
)
from ..sim.plot import check_plot_file, write_plot
from ..sim.runner import make_bots
from ..sim.stats import check_available
from .options import parse_options

BOTS_HELP = (
    f"Comma-separated bots, one per seat in order ({', '.join(LEVELS)}, with parameters "
    "as level:key=value, e.g. ismcts:time=0.1 or ismcts:iterations=500:rollout=heuristic); "
    "the last one fills the remaining seats."
)
MAX_SEED = 2**63 - 1

GameArg = Annotated[str, typer.Argument(help="Game id (see `dragonlair games`).")]
PlayersOpt = Annotated[
    int | None, typer.Option("--players", "-p", help="Player count (default: 4 where allowed).")
]
SeedOpt = Annotated[int, typer.Option(min=0, max=MAX_SEED, help="Seed of the run.")]
WorkersOpt = Annotated[
    int, typer.Option("--workers", "-w", min=1, help="Processes to spread the games over.")
]
OutOpt = Annotated[
    Path | None, typer.Option("--out", help="Write one CSV row per game to this file.")
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
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]


def prepare(
    game: str,
    players: int | None,
    bots: str,
    n: int,
    seed: int,
    option: list[str] | None,
    out: Path | None,
    records: Path | None,
    rotate: bool,
    plot: Path | None = None,
) -> Job:
    """A checked job: every bad argument raises BadParameter before anything runs."""
    try:
        g: Game = make(game, players=players, options=parse_options(option))
        specs = parse_bots(bots, g.players)
        job = Job(
            game=g.spec.id,
            players=g.players,
            bots=tuple(specs),
            n=n,
            seed=seed,
            options=dict(g.options),
            rotate=rotate,
            records=records is not None,
        )
        make_bots(job, g)
        check_available()
        if out is not None:
            check_output_file(out)
        if records is not None:
            check_records_dir(records)
        if plot is not None:
            check_plot_file(plot)
    except (DragonlairError, UnknownBot) as e:
        raise typer.BadParameter(str(e)) from None
    return job


class _Speed(ProgressColumn):
    """Games per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if speed is None else f"{speed:,.1f} games/s", style="cyan")


def execute(job: Job, workers: int, show_progress: bool, what: str) -> RunResult:
    """Run ``job`` with a progress bar (games/s and ETA) on stderr unless told not to."""
    if not show_progress:
        return run(job, workers=workers)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _Speed(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    )
    with progress:
        task = progress.add_task(what, total=job.n)
        return run(job, workers=workers, progress=lambda k: progress.advance(task, k))


def finish(
    result: RunResult,
    summary: Summary,
    heading: str,
    out: Path | None,
    records: Path | None,
    plot: Path | None,
) -> list[str]:
    """Write the results file, the records and the chart (of ``summary``, headed
    ``heading``); the lines saying what was written."""
    notes = []
    if out is not None:
        write_results(out, result)
        notes.append(f"results: {out} ({len(result.outcomes)} rows)")
    if records is not None:
        count = write_records(records, result.outcomes)
        notes.append(f"records: {records} ({count} games)")
    if plot is not None:
        write_plot(plot, result, summary, heading)
        notes.append(f"chart: {plot}")
    return notes


def title(summary: Summary, seed: int) -> str:
    """The heading of a summary table."""
    g = make(summary.game, players=summary.players, options=summary.options)
    changed = {k: v for k, v in summary.options.items() if v != g.spec.option(k).default}
    opts = ", " + ", ".join(f"{k}={v}" for k, v in changed.items()) if changed else ""
    return f"{g.spec.name}, {summary.players} players{opts}: {summary.games} games, seed {seed}"


def _fmt_rate(x: float) -> str:
    return f"{x:.1%}"


def print_summary(summary: Summary, seed: int, console: Console) -> None:
    """The per-seat and per-bot tables and the game-length line."""
    seats = Table(title=title(summary, seed), title_justify="left")
    for col in ("seat", "win share", "95% CI", "points", "sd", "mean rank"):
        seats.add_column(col, justify="left" if col == "seat" else "right")
    for line in summary.seats:
        seats.add_row(
            line.label,
            _fmt_rate(line.win.value),
            f"{_fmt_rate(line.win.low)}-{_fmt_rate(line.win.high)}",
            f"{line.points_mean:.2f}",
            f"{line.points_sd:.2f}",
            f"{line.rank_mean:.2f}",
        )
    console.print(seats)
    bots = Table(
        title=f"per bot (win share per seat; fair share {_fmt_rate(summary.fair_share)})",
        title_justify="left",
    )
    for col in ("bot", "seats", "win share", "95% CI", "vs fair", "points", "sd", "mean rank"):
        bots.add_column(col, justify="left" if col == "bot" else "right")
    for line in summary.bots:
        bots.add_row(
            line.label,
            str(line.seats),
            _fmt_rate(line.win.value),
            f"{_fmt_rate(line.win.low)}-{_fmt_rate(line.win.high)}",
            line.verdict(summary.fair_share),
            f"{line.points_mean:.2f}",
            f"{line.points_sd:.2f}",
            f"{line.rank_mean:.2f}",
        )
    console.print(bots)
    console.print(
        f"game length: {summary.length_mean:.1f} decisions (sd {summary.length_sd:.1f}, "
        f"{summary.length_min}-{summary.length_max}); shared wins: {summary.shared_wins}; "
        f"{summary.seconds:.1f} s, {summary.games_per_s:,.1f} games/s"
    )


def report(
    result: RunResult,
    seed: int,
    out: Path | None,
    records: Path | None,
    plot: Path | None,
    as_json: bool,
    show: Callable[[Summary, Console], None],
) -> None:
    """Write the files, print the summary with ``show`` (or as JSON) and exit 130 if Ctrl-C
    stopped the run."""
    summary = summarize(result)
    heading = title(summary, seed) + (", seats rotated" if result.job.rotate else "")
    notes = finish(result, summary, heading, out, records, plot)
    console = Console() if Console().is_terminal else Console(width=150)
    if as_json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        show(summary, console)
    if not as_json:
        for note in notes:
            console.print(note)
    if result.interrupted:
        Console(stderr=True).print(
            f"interrupted: {summary.games} of {summary.requested} games finished and kept"
        )
        raise typer.Exit(130)


def simulate(
    game: GameArg,
    players: PlayersOpt = None,
    bots: Annotated[str, typer.Option("--bots", "-b", help=BOTS_HELP)] = "random",
    n: Annotated[int, typer.Option("-n", "--games", min=1, help="Number of games.")] = 100,
    seed: SeedOpt = 1,
    workers: WorkersOpt = 1,
    out: OutOpt = None,
    records: RecordsOpt = None,
    plot: PlotOpt = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Play many seeded bot games and summarise them: win share per seat and per bot with
    95% confidence intervals, points, ranks, game length. The same seed gives the same
    games whatever the number of workers."""
    job = prepare(game, players, bots, n, seed, option, out, records, rotate=False, plot=plot)
    result = execute(job, workers, not (quiet or as_json), "simulating")
    report(result, seed, out, records, plot, as_json, lambda s, c: print_summary(s, seed, c))


def register(app: typer.Typer) -> None:
    app.command()(simulate)
