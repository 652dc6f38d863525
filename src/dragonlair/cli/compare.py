"""``dragonlair compare``: two arms of a rule change (options and/or data files) played on
the same seeds, or two results files, compared game by game.

Arm A plays the game with ``--option`` and ``-A`` options, arm B with ``--option`` and
``-B`` options; both play the same ``-n`` games from the same ``--seed`` with the same
bots, so game ``i`` of each starts from the same seed. The table gives each measure in
both arms, the mean paired difference B − A with its 95% interval and the paired t-test's
p-value (see :mod:`dragonlair.sim.compare`), the share of games the change altered, and a
warning when the bots rarely or never exercised it. ``--files A B`` compares two results
files instead (of the same game and player count). ``--plot`` draws both arms and their
differences; ``--json`` prints everything as JSON.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..core import DragonlairError
from .simargs import (
    BOTS_HELP,
    FeaturesOpt,
    JsonOpt,
    OptionOpt,
    PlayersOpt,
    PlotOpt,
    QuietOpt,
    SeedOpt,
    WorkersOpt,
)

if TYPE_CHECKING:
    from ..sim.compare import Comparison

ArmOpt = Annotated[list[str] | None, typer.Option(help="An option of this arm only (key=value).")]


def label(options: list[str] | None) -> str:
    """An arm's name: its own settings (bots, options, data values), or ``as is``."""
    return ", ".join(options) if options else "as is"


def arm_bots(items: list[str] | None, bots: str) -> tuple[str, list[str]]:
    """An arm's bots (its own ``bots=...`` item, else ``--bots``) and its other items:
    ``-B bots=cautious`` gives arm B its own bots, as ``-B key=value`` its own options."""
    own = [i for i in items or [] if i.partition("=")[0].strip() == "bots"]
    if len(own) > 1:
        raise typer.BadParameter("an arm takes bots=... once")
    rest = [i for i in items or [] if i not in own]
    return (own[0].partition("=")[2].strip() or bots) if own else bots, rest


def settings(meta: dict[str, Any]) -> str:
    """What a results file's run played: bots, and the options it set."""
    options: dict[str, Any] = dict(meta.get("options") or {})
    shown = ", ".join(f"{k}={v}" for k, v in options.items() if v is not None)
    bots = ", ".join(str(b) for b in meta.get("bots") or [])
    return f"bots {bots}; {shown or 'default options'}"


def _pct(group: str, measure: str) -> bool:
    return measure.startswith(("win share", "ties"))


def print_comparison(cmp: Comparison, console: Console, heading: str) -> None:
    """The table of differences, the games altered and the warnings."""
    table = Table(title=heading, title_justify="left")
    for col in ("measure", "A", "B", "B - A", "95% CI", "p", ""):
        table.add_column(col, justify="left" if col == "measure" else "right")
    for d in cmp.differences:
        pct = _pct(d.group, d.measure)

        def fmt(x: float, signed: bool = False, pct: bool = pct) -> str:
            if pct:
                return f"{100 * x:+.1f} pt" if signed else f"{x:.1%}"
            return f"{x:+.2f}" if signed else f"{x:.2f}"

        star = "[bold]*[/]" if d.significant else ""
        table.add_row(
            d.measure,
            fmt(d.a),
            fmt(d.b),
            fmt(d.diff, True),
            f"{fmt(d.low, True)} to {fmt(d.high, True)}",
            f"{d.p:.2g}",
            star,
        )
    console.print(table)
    console.print(
        f"A: {cmp.a_label}; B: {cmp.b_label}. {cmp.games} games paired by index: "
        f"{cmp.changes()}. "
        "* p < 0.05 (paired t-test; differences of win shares in percentage points)."
    )
    for w in cmp.warnings:
        Console(stderr=True).print(f"[yellow]warning:[/] {w}")


def compare(
    game: Annotated[
        str | None, typer.Argument(help="Game id (not with --files).", show_default=False)
    ] = None,
    players: PlayersOpt = None,
    bots: Annotated[str, typer.Option("--bots", "-b", help=BOTS_HELP)] = "heuristic",
    n: Annotated[int, typer.Option("-n", "--games", min=1, help="Games per arm.")] = 1000,
    seed: SeedOpt = 1,
    workers: WorkersOpt = 1,
    option: OptionOpt = None,
    a: Annotated[
        list[str] | None,
        typer.Option(
            "-A",
            "--a-option",
            help="A setting of arm A only: key=value, data:PATH=value, or bots=LIST.",
        ),
    ] = None,
    b: Annotated[
        list[str] | None,
        typer.Option(
            "-B",
            "--b-option",
            help="A setting of arm B only: key=value, data:PATH=value, or bots=LIST.",
        ),
    ] = None,
    out_a: Annotated[Path | None, typer.Option(help="Keep arm A's results file.")] = None,
    out_b: Annotated[Path | None, typer.Option(help="Keep arm B's results file.")] = None,
    files: Annotated[
        tuple[Path, Path] | None,
        typer.Option(
            "--files", help="Compare two results files instead of playing.", show_default=False
        ),
    ] = None,
    plot: PlotOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
    features: FeaturesOpt = True,
) -> None:
    """Compare two arms of a rule change on the same seeds, game by game: win share per seat
    and per position, points, margin, spread, ties and length, with 95% intervals and
    p-values, and how many games the change altered."""
    from ..sim.compare import CompareError, compare_frames
    from ..sim.output import OutputError
    from ..sim.plot import check_plot_file, write_comparison_plot

    try:
        if plot is not None:
            check_plot_file(plot)
        if files is not None:
            if game is not None:
                raise typer.BadParameter("give a game or --files, not both")
            arms = _read_arms(*files)
        else:
            if game is None:
                raise typer.BadParameter("give a game (or --files A B)")
            show = not (quiet or as_json)
            arms = _play_arms(
                game, players, bots, n, seed, workers, option, a, b, out_a, out_b, features, show
            )
        cmp = compare_frames(
            arms.frame_a, arms.frame_b, arms.players, arms.game, arms.a_name, arms.b_name
        )
    except (CompareError, OutputError) as e:
        raise typer.BadParameter(str(e)) from None
    except DragonlairError as e:
        raise typer.BadParameter(str(e)) from None
    if plot is not None:
        write_comparison_plot(plot, cmp, arms.frame_a, arms.frame_b, arms.heading)
    if as_json:
        print(json.dumps(cmp.to_dict(), indent=2))
    else:
        console = Console() if Console().is_terminal else Console(width=150)
        print_comparison(cmp, console, arms.heading)
        if plot is not None:
            console.print(f"chart: {plot}")
    if arms.interrupted:
        Console(stderr=True).print("interrupted: the comparison covers the games that finished")
        raise typer.Exit(130)


@dataclass
class _Arms:
    """The two arms' results (pandas DataFrames), their game, and how they are named."""

    frame_a: Any
    frame_b: Any
    game: str
    players: int
    a_name: str
    b_name: str
    heading: str
    interrupted: bool = False


def _read_arms(fa_path: Path, fb_path: Path) -> _Arms:
    """Two results files as the arms, named by their paths and settings; CompareError
    unless they are runs of the same game and player count."""
    from ..sim.compare import CompareError
    from ..sim.output import read_frame, read_metadata, results_source

    ma, mb = read_metadata(results_source(fa_path)), read_metadata(results_source(fb_path))
    if (ma["game"], ma["players"]) != (mb["game"], mb["players"]):
        raise CompareError(
            f"{fa_path} is {ma['game']} with {ma['players']} players and {fb_path} "
            f"is {mb['game']} with {mb['players']}: only runs of the same game and "
            "player count compare"
        )
    a_name = f"{fa_path} ({settings(ma)})"
    b_name = f"{fb_path} ({settings(mb)})"
    return _Arms(
        read_frame(fa_path),
        read_frame(fb_path),
        str(ma["game"]),
        int(ma["players"]),
        a_name,
        b_name,
        f"{a_name} vs {b_name}",
    )


def _play_arms(
    game: str,
    players: int | None,
    bots: str,
    n: int,
    seed: int,
    workers: int,
    option: list[str] | None,
    a: list[str] | None,
    b: list[str] | None,
    out_a: Path | None,
    out_b: Path | None,
    features: bool,
    show: bool,
) -> _Arms:
    """Play both arms on the same seeds (each results file kept where ``out_a`` and
    ``out_b`` say, else in a temporary folder); typer.BadParameter when the two arms would
    play the same rules with the same bots."""
    from ..sim.output import read_frame
    from .running import execute, prepare

    bots_a, items_a = arm_bots(a, bots)
    bots_b, items_b = arm_bots(b, bots)
    job_a = prepare(
        game,
        players,
        bots_a,
        n,
        seed,
        [*(option or []), *items_a],
        out_a,
        None,
        rotate=False,
        features=features,
    )
    job_b = prepare(
        game,
        players,
        bots_b,
        n,
        seed,
        [*(option or []), *items_b],
        out_b,
        None,
        rotate=False,
        features=features,
    )
    if (job_a.options, job_a.bots) == (job_b.options, job_b.bots):
        raise typer.BadParameter(
            "the two arms play the same rules with the same bots: give arm B (or A) "
            "its own option with -B key=value, or its own bots with -B bots=LIST"
        )
    with tempfile.TemporaryDirectory(prefix="dragonlair-compare-") as tmp:
        runs = []
        for arm, job, out in (("arm A", job_a, out_a), ("arm B", job_b, out_b)):
            target = out if out is not None else Path(tmp) / f"{arm[-1]}.csv"
            runs.append(execute(job, workers, show, arm, target))
        interrupted = any(r.result.interrupted for r in runs)
        frame_a, frame_b = (read_frame(r.source) for r in runs if r.source is not None)
    game_id, count = job_a.game, job_a.players
    base = f" with {', '.join(option)}" if option else ""
    shown_bots = bots if bots_a == bots_b == bots else f"bots A {bots_a}, B {bots_b}"
    heading = f"{game_id}, {count} players{base}, {shown_bots}: {n} games each, seed {seed}"
    return _Arms(
        frame_a, frame_b, game_id, count, label(a), label(b), heading, interrupted=interrupted
    )


def register(app: typer.Typer) -> None:
    app.command()(compare)
