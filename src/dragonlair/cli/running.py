"""What the simulation commands share: :func:`prepare` checks a job's arguments,
:func:`execute` runs it with a progress bar and streams its rows, :func:`report` prints or
draws the summary. Imported by the commands when they run (not when ``dragonlair`` starts).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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

from ..bots import UnknownBot, parse_bots
from ..core import DragonlairError, Game, make
from ..sim import (
    Job,
    RunResult,
    Summary,
    check_records_dir,
    write_records,
)
from ..sim.output import ResultsFile, check_results_file, read_frame
from ..sim.plot import check_plot_file, frame_of, write_plot
from ..sim.runner import Outcome, Ray, SimulationError, make_bots, run
from ..sim.stats import Tally, check_available, tally_rows
from .options import game_options


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
    features: bool = True,
) -> Job:
    """A checked job: every bad argument raises BadParameter before anything runs
    (``features=False``: without the rich per-game data)."""
    try:
        g: Game = make(game, players=players, options=game_options(game, players, option))
        specs = parse_bots(bots, g.players, g.spec.id)
        job = Job(
            game=g.spec.id,
            players=g.players,
            bots=tuple(specs),
            n=n,
            seed=seed,
            options=dict(g.options),
            rotate=rotate,
            records=records is not None,
            data=features,
        )
        make_bots(job, g)
        check_available()
        if out is not None:
            check_results_file(out)
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


@dataclass
class Played:
    """A finished (or interrupted) run as the commands report it."""

    result: RunResult
    summary: Summary
    out: Path | None
    records: Path | None
    written: int  # records written
    source: Path | None  # the file holding every row (None: the rows are in ``result``)


def execute(
    job: Job,
    workers: int,
    show_progress: bool,
    what: str,
    out: Path | None = None,
    records: Path | None = None,
    resume: bool = False,
    keep: bool = True,
    ray: Ray | None = None,
) -> Played:
    """Run ``job`` with a progress bar (games/s and ETA) on stderr unless told not to,
    streaming rows to ``out`` and records to ``records`` as games finish; with ``resume``,
    only the games not yet in ``out``. Outcomes are kept in memory only with ``keep`` and
    no ``out``."""
    try:
        results = ResultsFile(out, job, resume=resume) if out is not None else None
    except DragonlairError as e:
        raise typer.BadParameter(str(e)) from None
    if ray is not None:
        try:
            import ray as _ray  # noqa: F401
        except ImportError:
            raise typer.BadParameter(
                "--ray needs ray: install dragonlair with the sim extra"
            ) from None
    tally = Tally(job.game, job.players, dict(job.options), [b.text for b in job.bots])
    done: set[int] = set()
    if results is not None and results.done:
        done = set(results.done)
        tally_rows(tally, results.readable, job.players)
    written = 0

    def sink(batch: list[Outcome]) -> None:
        nonlocal written
        if results is not None:
            results.add(batch)
        if records is not None:
            written += write_records(records, batch)
        for o in batch:
            tally.add(job, o)

    keep = keep and out is None
    try:
        if not show_progress:
            result = run(job, workers=workers, sink=sink, skip=done, keep=keep, ray=ray)
        else:
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
                task = progress.add_task(what, total=job.n - len(done))
                result = run(
                    job,
                    workers=workers,
                    progress=lambda k: progress.advance(task, k),
                    sink=sink,
                    skip=done,
                    keep=keep,
                    ray=ray,
                )
    except SimulationError as e:
        Console(stderr=True).print(f"[red]error:[/] {e}")
        raise typer.Exit(1) from None
    finally:
        if results is not None:
            results.close()
    summary = tally.summary(job.n, result.interrupted, result.seconds, job.rotate, result.played)
    source = results.readable if results is not None else None
    return Played(result, summary, out, records, written, source)


def finish(played: Played, heading: str, plot: Path | None) -> list[str]:
    """Draw the chart (headed ``heading``); the lines saying what was written."""
    notes = []
    if played.out is not None:
        notes.append(f"results: {played.out} ({played.summary.games} rows)")
    if played.records is not None:
        notes.append(f"records: {played.records} ({played.written} games)")
    if plot is not None:
        n = played.result.job.players
        if played.source is not None:
            cols = ["length", *(f"points_{s}" for s in range(n))]
            frame = read_frame(played.source, cols)
        else:
            frame = frame_of(played.result)
        write_plot(plot, frame, played.summary, heading)
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
    if summary.seat_test is not None:
        console.print(f"wins spread evenly over seats? chi-squared p = {summary.seat_test:.3g}")
    if summary.positions:
        order = Table(title="by turn order (place after the start player)", title_justify="left")
        for col in ("position", "win share", "95% CI", "vs fair", "points", "mean rank"):
            order.add_column(col, justify="left" if col == "position" else "right")
        for line in summary.positions:
            order.add_row(
                line.label,
                _fmt_rate(line.win.value),
                f"{_fmt_rate(line.win.low)}-{_fmt_rate(line.win.high)}",
                line.verdict(summary.fair_share),
                f"{line.points_mean:.2f}",
                f"{line.rank_mean:.2f}",
            )
        console.print(order)
        if summary.position_test is not None:
            console.print(
                f"wins spread evenly over turn order? chi-squared p = {summary.position_test:.3g}"
            )
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
    units = "".join(
        f", {mean:.1f} {unit} (sd {sd:.1f})" for unit, (mean, sd) in summary.units.items()
    )
    resumed = (
        f" ({summary.played:,} games played by this run)" if summary.played != summary.games else ""
    )
    console.print(
        f"game length: {summary.length_mean:.1f} decisions (sd {summary.length_sd:.1f}, "
        f"{summary.length_min}-{summary.length_max}){units}; shared wins: "
        f"{summary.shared_wins}; {summary.seconds:.1f} s, {summary.games_per_s:,.1f} games/s"
        + resumed
    )


def report(
    played: Played,
    seed: int,
    plot: Path | None,
    as_json: bool,
    show: Callable[[Summary, Console], None],
) -> None:
    """Draw the chart, print the summary with ``show`` (or as JSON) and exit 130 if the
    run was stopped before the end."""
    summary = played.summary
    heading = title(summary, seed) + (", seats rotated" if played.result.job.rotate else "")
    notes = finish(played, heading, plot)
    console = Console() if Console().is_terminal else Console(width=150)
    if as_json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        show(summary, console)
    if not as_json:
        for note in notes:
            console.print(note)
    if played.result.interrupted:
        resume = " (run the same command with --resume to play the rest)" if played.out else ""
        Console(stderr=True).print(
            f"interrupted: {summary.games} of {summary.requested} games finished and kept" + resume
        )
        raise typer.Exit(130)


def ray_target(use_ray: bool, address: str | None, workers: int) -> Ray | None:
    """Where --ray / --ray-address run the games (a local cluster gets --workers CPUs)."""
    if address is not None:
        return Ray(address=address)
    if use_ray:
        return Ray(cpus=workers)
    return None


def check_resume(out: Path | None, resume: bool) -> None:
    """--resume needs --out."""
    if resume and out is None:
        raise typer.BadParameter("--resume continues the run in --out: give --out FILE")
