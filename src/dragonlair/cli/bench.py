"""``dragonlair bench``: how fast the engines run, next to OpenSpiel in the same process."""

from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..core import games as game_ids

if TYPE_CHECKING:  # the bench itself is imported when the command runs, not for --help
    from .. import bench as benchmark


def bench(
    quick: Annotated[
        bool, typer.Option("--quick", help="Short slices, fewer repetitions.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    game: Annotated[
        list[str] | None, typer.Option("--game", "-g", help="Only this game (repeatable).")
    ] = None,
    players: Annotated[
        list[int] | None,
        typer.Option("--players", "-p", help="Only this player count (repeatable)."),
    ] = None,
    reps: Annotated[
        int | None, typer.Option(min=1, help="Repetitions per figure (median).")
    ] = None,
    slice_s: Annotated[
        float | None, typer.Option("--slice", min=0.01, help="Seconds per repetition.")
    ] = None,
    references: Annotated[
        bool, typer.Option(help="Also measure OpenSpiel's hearts and liar's poker if installed.")
    ] = True,
    ismcts: Annotated[
        bool,
        typer.Option(help="Also measure ISMCTS simulations/s (and OpenSpiel's ISMCTS on hearts)."),
    ] = True,
    simulate: Annotated[
        bool, typer.Option(help="Also measure simulate's games/s with 1 and 2 workers.")
    ] = True,
    other_build: Annotated[
        str | None,
        typer.Option(
            "--other-build",
            metavar="PYTHON",
            help="An interpreter with the other build of dragonlair (pure or compiled, e.g. "
            ".venv-compiled/bin/python): its playout, clone, bot-loop and RL rows are "
            "measured too, in a subprocess.",
        ),
    ] = None,
    bots: Annotated[
        bool,
        typer.Option(
            help="Also measure simulate's loop with random and heuristic bots against the raw "
            "loop, and one state.view(seat)."
        ),
    ] = True,
    throughput: Annotated[
        bool,
        typer.Option(
            help="Also time heuristic games of each game played as 'simulate --bots "
            "heuristic -w 2 --out F.parquet' plays them, carried over to 100,000 (some "
            "minutes a game; make bench turns it on)."
        ),
    ] = False,
    throughput_games: Annotated[
        int | None,
        typer.Option(
            "--throughput-games",
            min=1,
            metavar="N",
            help="How many games --throughput plays of each game (default: 100,000; 2,000 "
            "with --quick).",
        ),
    ] = None,
    rl: Annotated[
        bool,
        typer.Option(
            help="Also measure the RL interfaces (PettingZoo AEC and vector environments "
            "next to PettingZoo's connect_four_v3, OpenSpiel information-state strings)."
        ),
    ] = True,
    accel: Annotated[
        bool,
        typer.Option(
            help="Also measure the batched engines on JAX (with the accel extra) at 1 to 4,096 "
            "tables, next to connect_four_v3 and Pgx's connect_four and leduc_holdem (some "
            "minutes; make bench turns it on)."
        ),
    ] = False,
) -> None:
    """Random-playout games/s and decisions/s, clones/s and bytes per state for every game
    and player count; with OpenSpiel installed, the same loop on its C++ hearts and Python
    liar's poker, and our ratio to each. Then ISMCTS simulations/s at a mid-game position
    of each game (next to OpenSpiel's Python ISMCTS on hearts) and simulate's speed-up with
    2 workers over 1. Then, with the rl extra, the RL interfaces' steps/s next to
    PettingZoo's connect_four_v3 and the cost of OpenSpiel information-state strings."""
    for g in game or []:
        if g not in game_ids():
            raise typer.BadParameter(f"no game {g!r}; the games are: {', '.join(game_ids())}")
    if other_build is not None and shutil.which(other_build) is None:
        raise typer.BadParameter(f"{other_build!r} is not an interpreter that can be run")
    from .. import bench as benchmark

    s = benchmark.Settings.quick() if quick else benchmark.Settings()
    if reps is not None:
        s.reps = reps
    if slice_s is not None:
        s.slice_s = slice_s
    s.games = game or None
    s.players = players or None
    s.references = references
    s.ismcts = ismcts
    s.simulate = simulate
    s.other_python = other_build
    s.bot_loops = bots
    s.throughput = throughput
    if throughput_games is not None:
        s.throughput_games = throughput_games
    s.rl = rl
    s.accel = accel
    err = Console(stderr=True)
    try:
        report = benchmark.run(
            s, progress=None if as_json else lambda what: err.log(f"measuring {what}")
        )
    except benchmark.OtherBuildFailed as e:
        err.print(f"error: {e}")
        raise typer.Exit(1) from None
    if as_json:
        print(json.dumps(report.to_dict(), indent=2))
        return
    out = Console()
    if not out.is_terminal:
        out = Console(width=150)
    _print_report(out, report, s.reps)


def _print_report(out: Console, report: benchmark.Report, reps: int) -> None:
    """The bench's tables: the playouts (and the other build's beside them), ISMCTS,
    simulate's workers, the bots' loops, the throughput, the RL interfaces and the batched
    engines, each that was measured."""
    out.print(_playouts_table(report, reps))
    if report.other_build is not None:
        out.print(builds_table(report))
    if report.searches:
        out.print(_searches_table(report.searches))
    if report.simulations:
        out.print(_simulations_table(report.simulations))
    if report.bot_loops:
        _print_bot_loops(out, report.bot_loops, f"{report.build} build, this process")
    if report.other_build is not None and report.other_build.bot_loops:
        other = report.other_build
        _print_bot_loops(out, other.bot_loops, f"{other.build} build, {other.python}")
    if report.throughput:
        print_throughput(out, report.throughput, report.build)
    if report.rl:
        print_rl(out, report)
    if report.accel:
        from ..accel.bench import print_table

        print_table(out, report.accel)


def _ratio(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _playouts_table(report: benchmark.Report, reps: int) -> Table:
    """Random playouts of each game and player count, and the references beside them."""
    table = Table(
        title=f"dragonlair bench (Python {report.python}, {report.build} build, "
        f"{report.references_text()}; medians of {reps})"
    )
    for col in (
        "game",
        "players",
        "games/s",
        "decisions/s",
        "decisions/game",
        "clones/s",
        "bytes/state",
        "bytes/clone",
        "× hearts",
        "clone × hearts",
        "× liar's poker",
    ):
        table.add_column(col, justify="left" if col == "game" else "right")
    for m in report.measures:
        table.add_row(
            f"[dim]{m.name}[/dim]" if m.reference else m.name,
            str(m.players),
            f"{m.games_per_s:,.0f}",
            f"{m.decisions_per_s:,.0f}",
            f"{m.decisions_per_game:.1f}",
            f"{m.clones_per_s:,.0f}",
            f"{m.state_bytes:,}" if not m.reference else "-",
            f"{m.clone_bytes:,}" if not m.reference else "-",
            _ratio(m.ratio_hearts),
            _ratio(m.clone_ratio_hearts),
            _ratio(m.ratio_liars_poker),
        )
    return table


def _searches_table(rows: list[benchmark.SearchMeasure]) -> Table:
    """ISMCTS simulations per second, and OpenSpiel's on hearts."""
    search = Table(title="ISMCTS simulations per second at a mid-game position")
    for col in ("game", "players", "search", "move", "actions", "sims/s", "× OpenSpiel"):
        search.add_column(col, justify="left" if col in ("game", "search") else "right")
    for sm in rows:
        search.add_row(
            f"[dim]{sm.name}[/dim]" if sm.reference else sm.name,
            str(sm.players),
            sm.config,
            str(sm.move),
            str(sm.actions),
            f"{sm.sims_per_s:,.0f}",
            _ratio(sm.ratio_openspiel),
        )
    return search


def _simulations_table(rows: list[benchmark.SimulateMeasure]) -> Table:
    """simulate's games per second with 1 and 2 workers."""
    sims = Table(title="simulate: games per second with 1 and 2 workers (random bots)")
    for col in ("game", "players", "games", "1 worker", "2 workers", "speed-up", "CPU eff."):
        sims.add_column(col, justify="left" if col == "game" else "right")
    for sim in rows:
        sims.add_row(
            sim.name,
            str(sim.players),
            f"{sim.games:,}",
            f"{sim.one_worker_games_per_s:,.0f}",
            f"{sim.two_workers_games_per_s:,.0f}",
            f"{sim.speedup:.2f}×",
            "-" if sim.cpu_efficiency is None else f"{sim.cpu_efficiency:.0%}",
        )
    return sims


def _print_bot_loops(out: Console, rows: list[benchmark.BotLoopMeasure], build: str) -> None:
    table = Table(
        title="simulate's loop with bots: decisions/s, and × slower than the raw loop "
        f"(same run); one state.view(seat) ({build})"
    )
    cols = ("game", "players", "raw loop", "random", "× slower", "heuristic", "× slower")
    for col in (*cols, "+ data and row", "× slower", "raw, heuristic bots", "× (data and row)"):
        table.add_column(col, justify="left" if col == "game" else "right")
    table.add_column("view µs", justify="right")
    for m in rows:
        heuristic = m.heuristic_decisions_per_s > 0
        table.add_row(
            m.name,
            str(m.players),
            f"{m.raw_decisions_per_s:,.0f}",
            f"{m.random_decisions_per_s:,.0f}",
            f"{m.random_slower:.2f}",
            f"{m.heuristic_decisions_per_s:,.0f}" if heuristic else "-",
            f"{m.heuristic_slower:.2f}" if heuristic else "-",
            f"{m.features_decisions_per_s:,.0f}" if heuristic else "-",
            f"{m.features_slower:.2f}" if heuristic else "-",
            f"{m.raw_heuristic_decisions_per_s:,.0f}" if heuristic else "-",
            f"{m.features_over_raw_heuristic:.2f}" if heuristic else "-",
            f"{m.view_us:.1f}",
        )
    out.print(table)
    if any(m.heuristic_decisions_per_s > 0 for m in rows):
        out.print(
            "The raw loop picks at random; 'raw, heuristic bots' is the same loop with the "
            "heuristic choosing in every seat, and the last ratio is the heuristic game with "
            "its per-game data and results row against it (the bots' cost on both sides)."
        )


def print_throughput(out: Console, rows: list[benchmark.ThroughputMeasure], build: str) -> None:
    from ..bench import THROUGHPUT_SECONDS

    target = rows[0].target_games
    minutes = THROUGHPUT_SECONDS / 60
    table = Table(
        title=f"{target:,} heuristic games with {rows[0].workers} workers, per-game data and "
        f"Parquet, as simulate plays them (target: under {minutes:.0f} minutes; {build} build)"
    )
    cols = ("game", "players", "games", "wall s", "CPU s", "load", f"{target:,}: wall")
    for col in (*cols, "on idle cores"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for m in rows:
        idle = m.target_idle_s
        table.add_row(
            m.name,
            str(m.players),
            f"{m.games:,}",
            f"{m.seconds:.1f}",
            "-" if m.cpu_s is None else f"{m.cpu_s:.1f}",
            "-" if m.load is None else f"{m.load:.1f}",
            f"{m.target_s:.0f} s",
            "-" if idle is None else f"{idle:.0f} s",
        )
    out.print(table)
    if any(m.extrapolated for m in rows):
        out.print(
            f"Extrapolated: fewer than {target:,} games were played, and the last two columns "
            f"carry their times over to {target:,}."
        )
    out.print(
        "'on idle cores' is the CPU time of this process and its workers over the workers' "
        "cores, what the run would take with nothing else running; 'wall' is what this "
        "run got of the machine."
    )


def print_rl(out: Console, report: benchmark.Report) -> None:
    """The RL rows: steps per CPU second next to connect_four_v3, and information states;
    with the other build's RL rows, both builds side by side (pure first)."""
    other = report.other_build
    if other is not None and other.rl:
        out.print(_rl_builds_table(report, other))
        return
    rl = Table(
        title="RL interfaces: steps per CPU second (random legal actions), "
        "information-state strings"
    )
    for col in ("game", "players", "interface", "steps/s", "× connect_four_v3", "µs", "chars"):
        rl.add_column(col, justify="left" if col in ("game", "interface") else "right")
    for m in report.rl:
        rl.add_row(
            f"[dim]{m.name}[/dim]" if m.reference else m.name,
            str(m.players),
            m.interface,
            _steps(m),
            _connect_four(m),
            _micros(m),
            "-" if m.size is None else str(m.size),
        )
    out.print(rl)


def _steps(m: benchmark.RLMeasure | None) -> str:
    return f"{m.steps_per_s:,.0f}" if m is not None and m.steps_per_s else "-"


def _connect_four(m: benchmark.RLMeasure | None) -> str:
    return "-" if m is None or m.ratio_connect_four is None else f"{m.ratio_connect_four:.2f}"


def _micros(m: benchmark.RLMeasure | None) -> str:
    return "-" if m is None or m.micros is None else f"{m.micros:,.1f}"


def _rl_builds_table(report: benchmark.Report, other: benchmark.OtherBuild) -> Table:
    """The RL rows of both builds, each measured beside connect_four_v3 in its own process:
    a row per game and interface with each build's steps/s (or µs per information-state
    string) and ratio, and the compiled build's speed-up over pure."""
    table = Table(
        title="RL interfaces in both builds: steps per CPU second (random legal actions) and "
        "× c4, the ratio to connect_four_v3 beside it; µs per information-state string "
        f"({report.build}: this process; {other.build}: {other.python})"
    )
    table.add_column("game", no_wrap=True)
    table.add_column("players", justify="right", no_wrap=True)
    table.add_column("interface")  # the column that wraps in a narrow terminal
    for col in ("pure", "× c4", "compiled", "× c4", "compiled / pure"):
        table.add_column(col, justify="right", no_wrap=True)
    table.add_column("chars", justify="right", no_wrap=True)
    theirs = {(m.name, m.players, m.interface): m for m in other.rl}
    rows: list[tuple[benchmark.RLMeasure | None, benchmark.RLMeasure | None]]
    rows = [(m, theirs.pop((m.name, m.players, m.interface), None)) for m in report.rl]
    rows += [(None, m) for m in theirs.values()]  # measured by the other build only
    for mine, found in rows:
        either = mine or found
        assert either is not None
        pure, compiled = (mine, found) if report.build == "pure" else (found, mine)
        sizes = {m.size for m in (mine, found) if m is not None and m.size is not None}
        table.add_row(
            f"[dim]{either.name}[/dim]" if either.reference else either.name,
            str(either.players),
            either.interface,
            _figure(pure),
            _connect_four(pure),
            _figure(compiled),
            _connect_four(compiled),
            _speedup(pure, compiled),
            "/".join(str(n) for n in sorted(sizes)) or "-",
        )
    return table


def _figure(m: benchmark.RLMeasure | None) -> str:
    """Steps per second, or µs per information-state string."""
    if m is not None and m.steps_per_s:
        return f"{m.steps_per_s:,.0f}"
    return f"{m.micros:,.1f} µs" if m is not None and m.micros is not None else "-"


def _speedup(pure: benchmark.RLMeasure | None, compiled: benchmark.RLMeasure | None) -> str:
    """The compiled build's speed-up: the ratio of the two ratios to connect_four_v3, or
    of the two times per information-state string."""
    if pure is None or compiled is None:
        return "-"
    if pure.ratio_connect_four and compiled.ratio_connect_four:
        return f"{compiled.ratio_connect_four / pure.ratio_connect_four:.2f}"
    if pure.micros and compiled.micros:
        return f"{pure.micros / compiled.micros:.2f}"
    return "-"


def builds_table(report: benchmark.Report) -> Table:
    """Each game in both builds, as ratios to hearts measured beside it, and the speed-up
    of the compiled build over pure (the ratio of those ratios)."""
    other = report.other_build
    assert other is not None
    table = Table(
        title=f"pure and compiled builds next to OpenSpiel's hearts ({report.build}: this "
        f"process, Python {report.python}; {other.build}: {other.python}, Python {other.version})"
    )
    for col in (
        "game",
        "players",
        "pure decisions/s",
        "compiled decisions/s",
        "pure × hearts",
        "compiled × hearts",
        "compiled / pure",
        "pure clones × hearts",
        "compiled clones × hearts",
    ):
        table.add_column(col, justify="left" if col == "game" else "right")
    theirs = {(m.name, m.players): m for m in other.measures}

    def fmt(x: float | None, spec: str = ".2f") -> str:
        return "-" if x is None else format(x, spec)

    for mine in report.measures:
        found = theirs.get((mine.name, mine.players))
        if mine.reference or found is None:
            continue
        pure, compiled = (mine, found) if report.build == "pure" else (found, mine)
        speedup = None
        if pure.ratio_hearts and compiled.ratio_hearts:
            speedup = compiled.ratio_hearts / pure.ratio_hearts
        table.add_row(
            mine.name,
            str(mine.players),
            fmt(pure.decisions_per_s, ",.0f"),
            fmt(compiled.decisions_per_s, ",.0f"),
            fmt(pure.ratio_hearts),
            fmt(compiled.ratio_hearts),
            fmt(speedup),
            fmt(pure.clone_ratio_hearts),
            fmt(compiled.clone_ratio_hearts),
        )
    return table


def register(app: typer.Typer) -> None:
    app.command()(bench)
