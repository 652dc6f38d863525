"""``dragonlair tournament``: bots against each other with the seats rotated.

The bots are entries (``--bots heuristic,random`` at 4 players is one heuristic and three
random seats); game ``i`` seats entry ``(s + i) mod N`` at seat ``s``, so every entry
plays every seat equally often (the number of games is rounded up to a multiple of N).
Each game has its own seed derived from the run's seed. The standings give each bot's win
share per seat with a 95% Wilson interval against the fair share 1/N, and say whether the
interval lies above it, below it, or around it. ``--markdown`` prints the standings as a
Markdown table headed by the command that produced it, ready for ``docs/bots.md``.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

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

if TYPE_CHECKING:
    from ..bots import BotSpec
    from ..sim import Summary
    from ..sim.runner import Job
    from ..sim.skill import Rating
    from ..sim.stats import Rate


def command_line(
    game: str, players: int, bots: str, n: int, seed: int, option: list[str] | None
) -> str:
    """The command that reproduces a tournament (the number of workers does not matter)."""
    args = ["dragonlair", "tournament", game, "--players", str(players), "--bots", bots]
    args += ["-n", str(n), "--seed", str(seed)]
    for o in option or []:
        args += ["--option", o]
    return shlex.join(args)


def markdown(summary: Summary, command: str) -> str:
    """The standings as a Markdown table, with the command above it."""
    fair = summary.fair_share
    out = [
        f"`{command}`",
        "",
        "| bot | seats | games | win share per seat | 95% CI | fair share | verdict |",
        "|---|---:|---:|---:|---|---:|---|",
    ]
    for line in summary.bots:
        out.append(
            f"| {line.label} | {line.seats} | {line.games} | {line.win.value:.1%} | "
            f"{line.win.low:.1%} to {line.win.high:.1%} | {fair:.1%} | {line.verdict(fair)} |"
        )
    seats = ", ".join(f"{line.win.value:.1%}" for line in summary.seats)
    out += [
        "",
        f"Seat win shares (seats rotated): {seats}. Game length {summary.length_mean:.1f} "
        f"decisions; {summary.shared_wins} shared wins; {summary.seconds:.0f} s.",
    ]
    return "\n".join(out)


def print_standings(summary: Summary, seed: int, console: Console) -> None:
    """The standings table and the per-seat shares."""
    fair = summary.fair_share
    from .running import title

    table = Table(title=f"{title(summary, seed)}, seats rotated", title_justify="left")
    for col in ("bot", "seats", "games", "win share", "95% CI", "fair", "× fair", "verdict"):
        table.add_column(col, justify="left" if col in ("bot", "verdict") else "right")
    for line in summary.bots:
        verdict = line.verdict(fair)
        style = {"above": "green", "below": "red"}.get(verdict, "")
        table.add_row(
            line.label,
            str(line.seats),
            str(line.games),
            f"{line.win.value:.1%}",
            f"{line.win.low:.1%}-{line.win.high:.1%}",
            f"{fair:.1%}",
            f"{line.win.value / fair:.2f}",
            f"[{style}]{verdict}[/]" if style else verdict,
        )
    console.print(table)
    seats = ", ".join(f"{line.label} {line.win}" for line in summary.seats)
    console.print(f"seats: {seats}")
    console.print(
        f"game length: {summary.length_mean:.1f} decisions; shared wins: "
        f"{summary.shared_wins}; {summary.seconds:.1f} s, {summary.games_per_s:,.2f} games/s"
    )


def tournament(
    game: GameArg,
    players: PlayersOpt = None,
    bots: Annotated[str, typer.Option("--bots", "-b", help=BOTS_HELP)] = "heuristic,random",
    n: Annotated[
        int,
        typer.Option(
            "-n", "--games", min=1, help="Number of games (rounded up to a multiple of N)."
        ),
    ] = 200,
    seed: SeedOpt = 1,
    workers: WorkersOpt = 1,
    out: OutOpt = None,
    resume: ResumeOpt = False,
    records: RecordsOpt = None,
    plot: PlotOpt = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    as_markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the standings as a Markdown table.")
    ] = False,
    quiet: QuietOpt = False,
    matrix: Annotated[
        bool,
        typer.Option(
            "--matrix",
            help="Round robin: every pair of the bots plays -n games of its own; prints the "
            "pairwise win matrix and Bradley-Terry ratings.",
        ),
    ] = False,
    use_ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    features: FeaturesOpt = True,
) -> None:
    """Play the bots against each other with seats rotated; report each bot's win share
    per seat with a 95% confidence interval against the fair share 1/N (with --matrix:
    pairwise win probabilities and ratings)."""
    check_game(game)  # before the imports below
    from .running import check_resume, execute, prepare, ray_target, report

    if matrix:
        if out is not None or records is not None or plot is not None or resume:
            raise typer.BadParameter(
                "--matrix plays many small tournaments: it writes no --out, --records or --plot"
            )
        round_robin(game, players, bots, n, seed, workers, option, as_json, quiet)
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
        rotate=True,
        plot=plot,
        features=features,
    )
    err = Console(stderr=True)
    rounded = -(-n // job.players) * job.players
    if rounded != n:
        err.print(f"playing {rounded} games, a multiple of {job.players}, so seats rotate evenly")
        job = dataclasses.replace(job, n=rounded)
    check_resume(out, resume)
    played = execute(
        job,
        workers,
        not (quiet or as_json),
        "tournament",
        out,
        records,
        resume,
        plot is not None,
        ray_target(use_ray, ray_address, workers),
    )

    def show(summary: Summary, console: Console) -> None:
        if as_markdown:
            print(markdown(summary, command_line(game, job.players, bots, rounded, seed, option)))
        else:
            print_standings(summary, seed, console)

    report(played, seed, plot, as_json, show)


def register(app: typer.Typer) -> None:
    app.command()(tournament)


def round_robin(
    game: str,
    players: int | None,
    bots: str,
    n: int,
    seed: int,
    workers: int,
    option: list[str] | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Every pair of bots in games of its own (alternating round the table, seats
    rotated): the pairwise win matrix and Bradley-Terry ratings."""
    from ..sim.output import data_files
    from ..sim.report import skill_matrix
    from ..sim.skill import bradley_terry
    from ..sim.stats import wilson
    from .running import prepare

    items = [t.strip() for t in bots.split(",")]
    base = prepare(game, players, items[0], n, seed, option, None, None, rotate=True)
    specs = []
    for item in items:
        specs.append(prepare(game, players, item, n, seed, option, None, None, True).bots[0])
    labels = list(dict.fromkeys(spec.text for spec in specs))
    if len(labels) < 2:
        raise typer.BadParameter("--matrix needs at least two different bots")
    by_label = {spec.text: spec for spec in specs}
    seats = base.players
    rounded = -(-n // seats) * seats
    everything = _play_pairs(base, labels, by_label, rounded, workers, not (quiet or as_json))
    names, shares = skill_matrix(everything, seats)
    standing = bot_standing(everything, seats, names)
    k = len(names)
    cells = [
        [
            None if i == j or not shares[i][j][1] else wilson(*_won_met(shares[i][j]))
            for j in range(k)
        ]
        for i in range(k)
    ]
    won = [
        [shares[i][j][0] * shares[i][j][1] if i != j else 0.0 for j in range(k)] for i in range(k)
    ]
    met = [[shares[i][j][1] if i != j else 0 for j in range(k)] for i in range(k)]
    ratings = bradley_terry(names, won, met)
    if as_json:
        print(
            json.dumps(
                {
                    "game": base.game,
                    "players": seats,
                    "options": dict(base.options),
                    "data_files": data_files(base.game, base.options),
                    "seed": seed,
                    "games_per_pair": rounded,
                    "bots": names,
                    "matrix": [
                        [None if i == j else shares[i][j][0] for j in range(k)] for i in range(k)
                    ],
                    "matrix_ci": [
                        [None if c is None else [c.low, c.high] for c in row] for row in cells
                    ],
                    "meetings": met,
                    "standing": standing,
                    "ratings": [dataclasses.asdict(r) for r in ratings],
                },
                indent=2,
            )
        )
        return
    _print_round_robin(
        f"{base.game}, {seats} players: {rounded} games per pair, seed {seed}",
        names,
        shares,
        cells,
        standing,
        ratings,
    )


def _play_pairs(
    base: Job,
    labels: list[str],
    by_label: dict[str, BotSpec],
    rounded: int,
    workers: int,
    show: bool,
) -> Any:
    """The games of every pair of bots (``rounded`` each, the two alternating round the
    table, each pair from a seed of its own derived from ``base``'s) as one pandas
    DataFrame; typer.Exit(130) when a pair's run is interrupted."""
    import pandas as pd

    from ..core import derive_seed
    from ..sim.plot import frame_of
    from .running import execute

    seats = base.players
    pairs = [(a, b) for i, a in enumerate(labels) for b in labels[i + 1 :]]
    frames = []
    for pair, (a, b) in enumerate(pairs):
        lineup = tuple(by_label[a] if s % 2 == 0 else by_label[b] for s in range(seats))
        job = dataclasses.replace(
            base, bots=lineup, n=rounded, seed=derive_seed(base.seed, 1_000_000 + pair)
        )
        played = execute(job, workers, show, f"{a} vs {b}")
        frames.append(frame_of(played.result))
        if played.result.interrupted:
            raise typer.Exit(130)
    return pd.concat(frames, ignore_index=True)


def _print_round_robin(
    title: str,
    names: list[str],
    shares: list[list[tuple[float, int]]],
    cells: list[list[Rate | None]],
    standing: list[dict[str, Any]],
    ratings: list[Rating],
) -> None:
    """The round robin's tables: the pairwise matrix (each cell's share with its 95%
    interval and meetings), each bot over all its games, and the Bradley-Terry ladder."""
    console = Console() if Console().is_terminal else Console(width=150)
    table = Table(
        title=title,
        title_justify="left",
    )
    table.add_column("row beats column")
    for name in names:
        table.add_column(name, justify="right")
    for i, name in enumerate(names):
        shown = []
        for j in range(len(names)):
            c = cells[i][j]
            shown.append(
                "-"
                if c is None
                else f"{c.value:.1%} ({c.low:.0%}-{c.high:.0%}, {shares[i][j][1]:,})"
            )
        table.add_row(name, *shown)
    console.print(table)
    console.print(
        "cells: share of meetings the row bot finished above the column bot (95% CI, meetings)"
    )
    per_bot = Table(
        title="per bot over all its games: win share per seat, and where it finished",
        title_justify="left",
    )
    for col in ("bot", "seats", "win share", "95% CI", "mean rank", "rank sd", "first"):
        per_bot.add_column(col, justify="left" if col == "bot" else "right")
    for row in standing:
        per_bot.add_row(
            row["bot"],
            f"{row['seats']:,}",
            f"{row['win_share']:.1%}",
            f"{row['win_low']:.1%}-{row['win_high']:.1%}",
            f"{row['rank_mean']:.2f}",
            f"{row['rank_sd']:.2f}",
            f"{row['rank_shares'][0]:.1%}",
        )
    console.print(per_bot)
    console.print(
        "the matrix counts finishes above one other bot; win shares count outright wins, "
        "so a bot that wins often but also finishes last often can lead one and trail the "
        "other (its rank sd is large)"
    )
    ladder = Table(title="Bradley-Terry ratings (Elo scale, mean 0)", title_justify="left")
    for col in ("bot", "rating", "± se"):
        ladder.add_column(col, justify="left" if col == "bot" else "right")
    for r in sorted(ratings, key=lambda r: -r.rating):
        ladder.add_row(r.label, f"{r.rating:+.0f}", f"{r.se:.0f}")
    console.print(ladder)
    console.print(
        "a meeting is a pair of seats of one game held by the two bots; the higher finish "
        "wins it, a tie counts half"
    )


def _won_met(cell: tuple[float, int]) -> tuple[float, int]:
    share, meetings = cell
    return share * meetings, meetings


def bot_standing(frame: Any, players: int, names: list[str]) -> list[dict[str, Any]]:
    """Per bot over every seat it held: seats, win share (a sole win 1, a shared one 1/k)
    with its 95% Wilson interval, mean rank and its standard deviation, and the share of
    its seats finishing 1st, 2nd, ... (ranks as the results give them, ties sharing)."""
    import numpy as np

    from ..sim.stats import wilson

    bots = np.concatenate([frame[f"bot_{s}"].astype(str).to_numpy() for s in range(players)])
    wins = np.concatenate([frame[f"win_{s}"].to_numpy(float) for s in range(players)])
    ranks = np.concatenate([frame[f"rank_{s}"].to_numpy(int) for s in range(players)])
    out = []
    for name in names:
        mine = bots == name
        n = int(mine.sum())
        rate = wilson(float(wins[mine].sum()), n)
        r = ranks[mine]
        out.append(
            {
                "bot": name,
                "seats": n,
                "win_share": rate.value,
                "win_low": rate.low,
                "win_high": rate.high,
                "rank_mean": float(r.mean()) if n else 0.0,
                "rank_sd": float(r.std(ddof=1)) if n > 1 else 0.0,
                "rank_shares": [
                    float((r == k).mean()) if n else 0.0 for k in range(1, players + 1)
                ],
            }
        )
    return out
