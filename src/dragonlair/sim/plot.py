"""A run's chart for designers: who wins, from which seat, by how much, and how long games
last, in one image (``--plot FILE`` on ``simulate`` and ``tournament``).

Four panels, drawn with matplotlib from the same numbers as the summary table:

- **win share per bot**, with its 95% Wilson interval as error bars and the fair share
  1/N as a dashed line: a bar whose whole interval clears the line is a bot that wins
  more than its share;
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
from typing import TYPE_CHECKING

from ..core import DragonlairError
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


def draw(result: RunResult, summary: Summary, title: str) -> Figure:
    """The four-panel chart of ``result`` (whose table is ``summary``)."""
    formats()  # says which extra to install when matplotlib is missing
    from matplotlib.figure import Figure

    fig = Figure(figsize=(12, 8), layout="constrained")
    fig.suptitle(title)
    by_bot, by_seat, points, length = fig.subplots(2, 2).flat
    fair = summary.fair_share
    _rates(by_bot, summary.bots, fair, "win share per bot")
    _rates(by_seat, summary.seats, fair, "win share per seat")
    outcomes = result.outcomes
    n = result.job.players
    if outcomes:
        points.boxplot(
            [[o.points[s] for o in outcomes] for s in range(n)],
            tick_labels=[line.label for line in summary.seats],
        )
        points.tick_params(axis="x", labelrotation=15)
        length.hist([o.length for o in outcomes], bins="auto", color="#72b7b2")
    points.set_title("points per seat")
    points.set_ylabel("points")
    length.set_title("game length")
    length.set_xlabel("decisions per game")
    length.set_ylabel("games")
    return fig


def write_plot(path: Path, result: RunResult, summary: Summary, title: str) -> None:
    """Draw the chart of ``result`` into ``path`` (the format from its suffix)."""
    draw(result, summary, title).savefig(path)
