"""The chart of a run (``--plot``): its panels carry the summary's numbers, the commands
write it in the format the file name asks for, and a bad file name is refused before any
game is played."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest
from matplotlib.container import ErrorbarContainer
from matplotlib.patches import Rectangle
from typer.testing import CliRunner

from dragonlair.bots import parse_bots
from dragonlair.cli import app
from dragonlair.sim import Job, run, summarize
from dragonlair.sim.plot import draw, frame_of

runner = CliRunner()


def flat(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


def test_the_panels_show_the_summary() -> None:
    job = Job("pebble-auction", 3, tuple(parse_bots("heuristic,random", 3)), n=60, seed=4)
    result = run(job)
    summary = summarize(result)
    fig = draw(frame_of(result), summary, "a title")
    assert fig.get_suptitle() == "a title"
    by_bot, by_seat, points, length = fig.axes
    for ax, lines in ((by_bot, summary.bots), (by_seat, summary.seats)):
        assert [cast(Rectangle, p).get_height() for p in ax.patches] == pytest.approx(
            [line.win.value for line in lines]
        )
        assert [t.get_text() for t in ax.get_xticklabels()] == [line.label for line in lines]
        fair = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
        assert len(fair) == 1 and cast(Any, fair[0].get_ydata())[0] == pytest.approx(1 / 3)
        # the error bars run from each interval's low end to its high end
        bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
        assert len(bars) == 1
        segments = bars[0].lines[2][0].get_segments()
        ends = [v for s in segments for v in (s[0][1], s[1][1])]
        assert ends == pytest.approx([v for line in lines for v in (line.win.low, line.win.high)])
    assert [t.get_text() for t in points.get_xticklabels()] == [s.label for s in summary.seats]
    medians = [cast(Any, m.get_ydata())[0] for m in points.lines if m.get_color() == "C1"]
    assert len(medians) == 3
    assert sum(cast(Rectangle, p).get_height() for p in length.patches) == len(result.outcomes)


@pytest.mark.parametrize(
    ("command", "suffix", "magic"),
    [
        ("simulate", "png", b"\x89PNG"),
        ("tournament", "svg", b"<?xml"),
        ("simulate", "pdf", b"%PDF"),
    ],
)
def test_the_commands_write_the_chart(
    tmp_path: Path, command: str, suffix: str, magic: bytes
) -> None:
    chart = tmp_path / f"run.{suffix}"
    args = [command, "pebble-auction", "-p", "3", "--bots", "heuristic,random", "-n", "9"]
    result = runner.invoke(app, [*args, "--plot", str(chart), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 9
    assert chart.read_bytes().startswith(magic)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("run.xyz", "the file name must end in one of"),
        ("run", "the file name must end in one of"),
        ("missing/run.png", "there is no folder"),
    ],
)
def test_a_bad_chart_file_is_refused_before_any_game(
    tmp_path: Path, name: str, message: str
) -> None:
    out = tmp_path / "results.csv"
    chart = tmp_path / name
    args = ["simulate", "pebble-auction", "-n", "5", "--out", str(out), "--plot", str(chart)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in flat(result.output)
    assert not out.exists() and not chart.exists()


def test_one_bot_in_every_seat_draws(tmp_path: Path) -> None:
    # Every seat played by the same bot: its interval is the single point 1/N and the
    # chart used to fail on negative error bars there.
    chart = tmp_path / "run.png"
    args = ["simulate", "pebble-auction", "-p", "3", "--bots", "heuristic", "-n", "30"]
    result = runner.invoke(app, [*args, "--plot", str(chart), "--json"])
    assert result.exit_code == 0, result.output
    (bot,) = json.loads(result.stdout)["bots"]
    assert bot["verdict"] == "every seat"
    assert bot["win"]["low"] == bot["win"]["high"] == pytest.approx(1 / 3)
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_the_chart_shows_turn_order_and_leaves_out_a_lone_bot() -> None:
    job = Job("space-dragons", 4, tuple(parse_bots("random", 4)), n=12, seed=2)
    result = run(job)
    summary = summarize(result)
    assert summary.positions and len(summary.bots) == 1
    fig = draw(frame_of(result), summary, "one bot")
    shown = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    assert shown == [
        "win share by turn order (place after the start)",
        "win share per seat",
        "points per seat",
        "game length",
    ]
    order = fig.axes[0]
    assert [cast(Rectangle, p).get_height() for p in order.patches] == pytest.approx(
        [line.win.value for line in summary.positions]
    )
    # with several bots and a start player, all five panels
    mixed = Job("space-dragons", 4, tuple(parse_bots("heuristic,random", 4)), n=8, seed=2)
    several = run(mixed)
    titles = [ax.get_title() for ax in draw(frame_of(several), summarize(several), "x").axes]
    assert titles[:3] == [
        "win share per bot",
        "win share by turn order (place after the start)",
        "win share per seat",
    ]
