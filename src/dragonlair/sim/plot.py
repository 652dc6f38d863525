"""A run's chart for designers: who wins, from which seat, by how much, and how long games
last, in one image (``--plot FILE`` on ``simulate`` and ``tournament``).

Three to five panels, drawn with matplotlib from the same numbers as the summary table:

- **win share per bot** (when the run has more than one bot: one bot in every seat has
  exactly the fair share), with its 95% Wilson interval as error bars and the fair share
  1/N as a dashed line: a bar whose whole interval clears the line is a bot that wins
  more than its share;
- **win share by turn order** (place after the start player, in games that have one), the
  same way: where the start player's advantage shows, which seats can hide when the start
  player changes from game to game;
- **win share per seat**, the same way: the seat advantage a rule change may move
  (in a tournament the seats are rotated, so this panel is about seats, not bots);
- **points per seat**, as box plots (median, quartiles, whiskers at 1.5 IQR): the margin
  and the spread behind the wins;
- **game length**, a histogram of decisions per game.

The figure is a :class:`matplotlib.figure.Figure` built without ``pyplot``, so it touches
no global state and needs no display; the file's suffix picks the format (``.png``,
``.svg``, ``.pdf``, ... whatever matplotlib can write), checked before the run starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import DragonlairError
from .compare import Comparison
from .output import OutputError, check_output_file
from .runner import RunResult
from .stats import Line, Summary

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def formats() -> list[str]:
    """The file suffixes matplotlib can write here (without the dot)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise DragonlairError(
            "charts need matplotlib: install dragonlair with the sim extra "
            "(pip install 'dragonlair[sim]')"
        ) from None
    return sorted(Figure().canvas.get_supported_filetypes())


def check_plot_file(path: Path) -> None:
    """Raise OutputError unless ``path`` can be written and its suffix names a format."""
    kinds = formats()
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in kinds:
        raise OutputError(
            f"cannot draw the chart as {path}: the file name must end in one of "
            f"{', '.join('.' + k for k in kinds)}"
        )
    check_output_file(path)


def _rates(ax: Axes, lines: list[Line], fair: float, title: str) -> None:
    """Bars of win share with 95% interval error bars and the fair share line."""
    x = list(range(len(lines)))
    values = [line.win.value for line in lines]
    # never negative: an interval is never drawn past its own bar (a bot in every seat has
    # the degenerate interval [1/N, 1/N])
    below = [max(0.0, line.win.value - line.win.low) for line in lines]
    above = [max(0.0, line.win.high - line.win.value) for line in lines]
    ax.bar(x, values, yerr=[below, above], capsize=4, color="#4c78a8")
    ax.axhline(fair, linestyle="--", color="#d62728", label=f"fair share {fair:.1%}")
    ax.set_xticks(x, [line.label for line in lines], rotation=15, ha="right")
    ax.set_ylim(0, min(1.0, 1.15 * max([fair, *(line.win.high for line in lines)])))
    ax.yaxis.set_major_formatter(lambda v, _pos: f"{v:.0%}")
    ax.set_title(title)
    ax.set_ylabel("win share (95% CI)")
    ax.legend(loc="upper right")


def frame_of(result: RunResult) -> Any:
    """The rows of ``result``'s outcomes as a pandas DataFrame (what a results file holds)."""
    import pandas as pd

    from .output import row

    return pd.DataFrame([row(result.job, o) for o in result.outcomes])


def draw(frame: Any, summary: Summary, title: str) -> Figure:
    """The four-panel chart of the games in ``frame`` (rows of a results file, with at
    least ``length`` and ``points_s``), whose table is ``summary``."""
    formats()  # says which extra to install when matplotlib is missing
    from matplotlib.figure import Figure

    fair = summary.fair_share
    rates: list[tuple[list[Line], str]] = []
    if len(summary.bots) > 1:
        rates.append((summary.bots, "win share per bot"))
    if summary.positions:
        rates.append((summary.positions, "win share by turn order (place after the start)"))
    rates.append((summary.seats, "win share per seat"))
    wide = len(rates) > 2
    fig = Figure(figsize=(17 if wide else 12, 8), layout="constrained")
    fig.suptitle(title)
    axes = list(fig.subplots(2, 3 if wide else 2).flat)
    for ax, (lines, name) in zip(axes, rates, strict=False):
        _rates(ax, lines, fair, name)
    points, length = axes[len(rates)], axes[len(rates) + 1]
    for spare in axes[len(rates) + 2 :]:
        spare.set_visible(False)
    n = summary.players
    if len(frame):
        points.boxplot(
            [frame[f"points_{s}"].to_numpy() for s in range(n)],
            tick_labels=[line.label for line in summary.seats],
        )
        points.tick_params(axis="x", labelrotation=15)
        length.hist(frame["length"].to_numpy(), bins="auto", color="#72b7b2")
    points.set_title("points per seat")
    points.set_ylabel("points")
    length.set_title("game length")
    length.set_xlabel("decisions per game")
    length.set_ylabel("games")
    return fig


def write_plot(path: Path, frame: Any, summary: Summary, title: str) -> None:
    """Draw the chart of the games in ``frame`` into ``path`` (the format from its suffix)."""
    draw(frame, summary, title).savefig(path)


def draw_comparison(cmp: Comparison, frame_a: Any, frame_b: Any, title: str) -> Figure:
    """Both arms of a comparison and their differences: win share per seat and per
    position in A and B side by side, the paired differences of win share with their 95%
    intervals, and the winning margins of both arms overlaid."""
    formats()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(13, 8.5), layout="constrained")
    fig.suptitle(title)
    by_seat, by_position, forest, margin = fig.subplots(2, 2).flat
    fair = 1.0 / cmp.players
    wins = [d for d in cmp.differences if d.measure.startswith("win share")]
    for ax, group, name in (
        (by_seat, "seat", "per seat"),
        (by_position, "position", "per position"),
    ):
        rows = [d for d in wins if d.group == group]
        x = list(range(len(rows)))
        ax.bar(
            [i - 0.2 for i in x], [d.a for d in rows], width=0.4, label=_legend(f"A: {cmp.a_label}")
        )
        ax.bar(
            [i + 0.2 for i in x], [d.b for d in rows], width=0.4, label=_legend(f"B: {cmp.b_label}")
        )
        ax.axhline(fair, linestyle="--", color="#d62728")
        ax.set_xticks(x, [d.measure.split(", ", 1)[1] for d in rows], rotation=15, ha="right")
        ax.yaxis.set_major_formatter(lambda v, _pos: f"{v:.0%}")
        ax.set_title(f"win share {name}" + ("" if rows else " (the game has no start player)"))
        ax.legend(loc="upper left", fontsize="small")
    y = list(range(len(wins)))
    forest.errorbar(
        [100 * d.diff for d in wins],
        y,
        xerr=[
            [max(0.0, 100 * (d.diff - d.low)) for d in wins],
            [max(0.0, 100 * (d.high - d.diff)) for d in wins],
        ],
        fmt="o",
        capsize=3,
        color="#4c78a8",
    )
    forest.axvline(0, color="#888", linewidth=1)
    forest.set_yticks(y, [d.measure.removeprefix("win share, ") for d in wins])
    forest.invert_yaxis()
    forest.set_xlabel("B - A, percentage points (95% CI)")
    forest.set_title(
        f"difference in win share ({cmp.altered} of {cmp.games} games altered, "
        f"{cmp.winner_changed} with another winner)"
    )
    if cmp.players > 1:
        for frame, name in (
            (frame_a, _legend(f"A: {cmp.a_label}")),
            (frame_b, _legend(f"B: {cmp.b_label}")),
        ):
            pts = frame[[f"points_{s}" for s in range(cmp.players)]].to_numpy(float).copy()
            pts.sort(axis=1)
            margin.hist(pts[:, -1] - pts[:, -2], bins=30, alpha=0.55, label=name)
        margin.legend(fontsize="small")
    margin.set_title("winning margin (best minus next best)")
    margin.set_xlabel("points")
    margin.set_ylabel("games")
    return fig


def write_comparison_plot(
    path: Path, cmp: Comparison, frame_a: Any, frame_b: Any, title: str
) -> None:
    """Draw the comparison chart into ``path`` (the format from its suffix)."""
    draw_comparison(cmp, frame_a, frame_b, title).savefig(path)


def _legend(label: str) -> str:
    """An arm's label as a legend shows it: at most two lines of 40 characters (a results
    file's path and settings can be long enough to squeeze the axes away)."""
    import textwrap

    return "\n".join(textwrap.wrap(label, 40, max_lines=2, placeholder=" ..."))
