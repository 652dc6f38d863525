"""What a batch of games says: win shares with 95% confidence intervals, points, ranks and
game lengths, per seat and per bot.

**Win share.** A seat that wins alone scores 1, a win shared by k seats scores 1/k each,
and a loss 0, so the shares of a game add up to 1 and the fair share of a seat is exactly
1/N. A bot that fills m seats of every game is credited with the sum over its seats,
reported per seat (divided by m) so it compares with 1/N directly.

**Interval.** The 95% Wilson score interval, from statsmodels
(``proportion_confint(method="wilson")``). We chose Wilson over the textbook normal (Wald)
interval because it stays inside [0, 1] and keeps close to its nominal coverage for small
batches and for rates near 0 or 1 (a strong bot among weak ones, a seat that rarely
wins), which is where tournaments live; and we take it from statsmodels rather than
writing the formula out because statsmodels is the well-tested reference for it and
accepts the fractional counts that shared wins give. With shared wins the count is a sum
of shares; a [0, 1]-valued outcome with mean p has variance at most p(1 − p), the
binomial's, so the interval is, if anything, conservative there.

**A bot in every seat.** When one bot fills all N seats its share per seat is exactly 1/N
by construction (the shares of a game add up to 1), so its line carries the degenerate
interval [1/N, 1/N] and the verdict ``every seat`` rather than an interval computed from
floating-point sums that can land a hair below 1/N.

**Spread.** Points and game lengths are given as mean and sample standard deviation.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core import DragonlairError
from .runner import Outcome, RunResult

CONFIDENCE = 0.95
# Shares are sums of 1/k in floating point; closer to the fair share than this is equal.
EPSILON = 1e-9


@dataclass(frozen=True)
class Rate:
    """A proportion with its 95% Wilson interval."""

    value: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.value:.1%} [{self.low:.1%}, {self.high:.1%}]"


def check_available() -> None:
    """Raise DragonlairError unless statsmodels (in the ``sim`` extra) can be imported."""
    try:
        import statsmodels.stats.proportion  # noqa: F401
    except ImportError:
        raise DragonlairError(
            "summaries need statsmodels: install dragonlair with the sim extra "
            "(pip install 'dragonlair[sim]')"
        ) from None


def wilson(successes: float, trials: int) -> Rate:
    """The proportion ``successes / trials`` with its 95% Wilson score interval."""
    if trials <= 0:
        return Rate(0.0, 0.0, 1.0)
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(successes, trials, alpha=1 - CONFIDENCE, method="wilson")
    return Rate(successes / trials, float(max(0.0, low)), float(min(1.0, high)))


def share_rate(total: float, games: int, seats: int) -> Rate:
    """The per-seat win share of an entry that fills ``seats`` seats of each of ``games``
    games and took ``total`` wins (a sum of shares), with its 95% Wilson interval; the value
    is kept inside the interval."""
    rate = wilson(min(float(games), max(0.0, total)), games)
    value = min(max(rate.value, rate.low), rate.high)
    return Rate(value / seats, rate.low / seats, rate.high / seats)


@dataclass(frozen=True)
class Line:
    """One row of a summary: a seat, or a bot over every seat it played."""

    label: str
    seats: int
    games: int
    win: Rate
    points_mean: float
    points_sd: float
    rank_mean: float

    def verdict(self, fair: float) -> str:
        """Whether the interval lies above, below or around the fair share ``fair``;
        ``every seat`` for a bot that fills all of them (its share is then 1/N exactly)."""
        if self.seats * fair >= 1.0 - EPSILON:
            return "every seat"
        if self.win.low > fair + EPSILON:
            return "above"
        if self.win.high < fair - EPSILON:
            return "below"
        return "within"


@dataclass
class Summary:
    """The summary table of a run."""

    game: str
    players: int
    options: dict[str, Any]
    requested: int
    games: int
    interrupted: bool
    seconds: float
    seats: list[Line] = field(default_factory=list)
    bots: list[Line] = field(default_factory=list)
    length_mean: float = 0.0
    length_sd: float = 0.0
    length_min: int = 0
    length_max: int = 0
    shared_wins: int = 0

    @property
    def fair_share(self) -> float:
        return 1.0 / self.players

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["fair_share"] = self.fair_share
        for key in ("seats", "bots"):
            for line, src in zip(d[key], getattr(self, key), strict=True):
                line["verdict"] = src.verdict(self.fair_share)
        return d


def _sd(values: Sequence[float]) -> float:
    return statistics.stdev(values) if len(values) > 1 else 0.0


def _line(
    label: str, seats: int, outcomes: Sequence[Outcome], picks: Sequence[Sequence[int]]
) -> Line:
    """A line over ``outcomes``, where ``picks[g]`` are the seats of game g it covers."""
    shares = [sum(o.share(s) for s in ss) for o, ss in zip(outcomes, picks, strict=True)]
    points = [o.points[s] for o, ss in zip(outcomes, picks, strict=True) for s in ss]
    ranks = [o.ranks[s] for o, ss in zip(outcomes, picks, strict=True) for s in ss]
    players = len(outcomes[0].points) if outcomes else seats
    if seats == players:  # every seat: 1/N exactly, whatever the floating-point sums say
        win = Rate(1.0 / players, 1.0 / players, 1.0 / players)
    else:
        win = share_rate(math.fsum(shares), len(outcomes), seats)
    return Line(
        label=label,
        seats=seats,
        games=len(outcomes),
        win=win,
        points_mean=statistics.fmean(points) if points else 0.0,
        points_sd=_sd(points),
        rank_mean=statistics.fmean(ranks) if ranks else 0.0,
    )


def summarize(result: RunResult) -> Summary:
    """Per-seat and per-bot win shares (95% Wilson), points, ranks and game lengths."""
    job = result.job
    outs = result.outcomes
    n = job.players
    summary = Summary(
        game=job.game,
        players=n,
        options=dict(job.options),
        requested=job.n,
        games=len(outs),
        interrupted=result.interrupted,
        seconds=result.seconds,
    )
    if not outs:
        return summary
    for s in range(n):
        label = f"seat {s}" if job.rotate else f"seat {s}: {job.bots[s].text}"
        summary.seats.append(_line(label, 1, outs, [(s,)] * len(outs)))
    labels: list[str] = []
    for spec in job.bots:
        if spec.text not in labels:
            labels.append(spec.text)
    for label in labels:
        picks = [tuple(s for s in range(n) if job.bots[o.lineup[s]].text == label) for o in outs]
        summary.bots.append(_line(label, len(picks[0]), outs, picks))
    lengths = [o.length for o in outs]
    summary.length_mean = statistics.fmean(lengths)
    summary.length_sd = _sd(lengths)
    summary.length_min = min(lengths)
    summary.length_max = max(lengths)
    summary.shared_wins = sum(1 for o in outs if len(o.winners) > 1)
    return summary
