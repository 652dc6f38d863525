"""What a batch of games says: win shares with 95% confidence intervals, points, ranks and
game lengths, per seat and per bot.

**Win share.** A seat that wins alone scores 1, a win shared by k seats scores 1/k each,
and a loss 0, so the shares of a game add up to 1 and the fair share of a seat is exactly
1/N. A bot that fills m seats of every game is credited with the sum over its seats,
reported per seat (divided by m) so it compares with 1/N directly.

**Interval.** The 95% Wilson score interval (:mod:`dragonlair.bots.interval`, eight lines of
arithmetic held to statsmodels' ``proportion_confint(method="wilson")`` by its tests). We
chose Wilson over the textbook normal (Wald) interval because it stays inside [0, 1] and
keeps close to its nominal coverage for small batches and for rates near 0 or 1 (a strong
bot among weak ones, a seat that rarely wins), which is where tournaments live; it accepts
the fractional counts that shared wins give, and written out it costs no import of
statsmodels (seconds) in commands that fit no model. With shared wins the count is a sum
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
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..bots.interval import wilson_interval
from ..core import DragonlairError, Result
from .runner import Job, Outcome, RunResult

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
    """Raise DragonlairError unless statsmodels (in the ``sim`` extra) is installed: found,
    not imported, since importing it takes seconds that a command refusing a bad argument
    after this check should not spend."""
    import importlib.util

    if importlib.util.find_spec("statsmodels") is None:
        raise DragonlairError(
            "summaries need statsmodels: install dragonlair with the sim extra "
            "(pip install 'dragonlair[sim]')"
        ) from None


def wilson(successes: float, trials: int) -> Rate:
    """The proportion ``successes / trials`` with its 95% Wilson score interval (the one
    written out in :mod:`dragonlair.bots.interval`, which the hint uses too)."""
    if trials <= 0:
        return Rate(0.0, 0.0, 1.0)
    low, high = wilson_interval(successes, trials)
    return Rate(successes / trials, low, high)


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
    # by place in turn order after the start player (games that have one)
    positions: list[Line] = field(default_factory=list)
    seat_test: float | None = None  # chi-squared p-value: wins spread evenly over seats
    position_test: float | None = None  # the same over positions
    units: dict[str, tuple[float, float]] = field(default_factory=dict)  # mean, sd
    length_mean: float = 0.0
    length_sd: float = 0.0
    length_min: int = 0
    length_max: int = 0
    shared_wins: int = 0
    # games played by this run, in ``seconds`` (a resumed run counts the others in
    # ``games`` too); -1: all of them
    played: int = -1

    def __post_init__(self) -> None:
        if self.played < 0:
            self.played = self.games

    @property
    def fair_share(self) -> float:
        return 1.0 / self.players

    @property
    def games_per_s(self) -> float:
        """Games per second of this run: only the games it played, over its time."""
        return self.played / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["fair_share"] = self.fair_share
        d["games_per_s"] = self.games_per_s
        for key in ("seats", "bots", "positions"):
            for line, src in zip(d[key], getattr(self, key), strict=True):
                line["verdict"] = src.verdict(self.fair_share)
        return d


class _Acc:
    """Running sums for one line: win shares over games, points and ranks over seats."""

    __slots__ = ("games", "points", "points_sq", "ranks", "seats", "shares", "values")

    def __init__(self) -> None:
        self.games = 0
        self.seats = 0  # seats per game (the same in every game)
        self.shares: list[float] = []  # kept as partial sums: exact enough, O(1) memory
        self.values = 0
        self.points = 0.0
        self.points_sq = 0.0
        self.ranks = 0.0

    def add(self, share: float, points: Sequence[float], ranks: Sequence[int]) -> None:
        self.games += 1
        self.seats = len(points)
        self.shares.append(share)
        if len(self.shares) >= 4096:
            self.shares[:] = [math.fsum(self.shares)]
        for v in points:
            self.points += v
            self.points_sq += v * v
        self.values += len(points)
        self.ranks += sum(ranks)

    def line(self, label: str, players: int) -> Line:
        if self.seats == players:  # every seat: 1/N exactly, whatever float sums say
            win = Rate(1.0 / players, 1.0 / players, 1.0 / players)
        else:
            win = share_rate(math.fsum(self.shares), self.games, self.seats)
        mean, sd = _mean_sd(self.values, self.points, self.points_sq)
        return Line(
            label=label,
            seats=self.seats,
            games=self.games,
            win=win,
            points_mean=mean,
            points_sd=sd,
            rank_mean=self.ranks / self.values if self.values else 0.0,
        )


def _mean_sd(n: int, total: float, total_sq: float) -> tuple[float, float]:
    """Mean and sample standard deviation from a count, a sum and a sum of squares."""
    if n == 0:
        return 0.0, 0.0
    mean = total / n
    if n == 1:
        return mean, 0.0
    return mean, math.sqrt(max(0.0, (total_sq - n * mean * mean) / (n - 1)))


class Tally:
    """A summary built game by game in constant memory, from outcomes or from the rows of
    a results file (:meth:`add_game`); :meth:`summary` gives the table."""

    def __init__(self, game: str, players: int, options: dict[str, Any], bots: Sequence[str]):
        self.game = game
        self.players = players
        self.options = dict(options)
        self.order = list(dict.fromkeys(bots))  # bot labels in the order of the job
        self.seats = [_Acc() for _ in range(players)]
        self.positions = [_Acc() for _ in range(players)]
        self.bots: dict[str, _Acc] = {}
        self.seat_labels: list[set[str]] = [set() for _ in range(players)]
        self.games = 0
        self.shared = 0
        self.length = [0.0, 0.0]
        self.length_min = 0
        self.length_max = 0
        self.units: dict[str, list[float]] = {}

    def add_game(
        self,
        labels: Sequence[str],
        points: Sequence[float],
        ranks: Sequence[int],
        shares: Sequence[float],
        length: int,
        start_seat: int = -1,
        units: dict[str, int] | None = None,
    ) -> None:
        """Count one game: each seat's bot label, points, rank and share of the win."""
        n = self.players
        self.games += 1
        if sum(1 for v in shares if v > 0) > 1:
            self.shared += 1
        for s in range(n):
            self.seats[s].add(shares[s], (points[s],), (ranks[s],))
            self.seat_labels[s].add(labels[s])
            if start_seat >= 0:
                self.positions[(s - start_seat) % n].add(shares[s], (points[s],), (ranks[s],))
        for label in dict.fromkeys(labels):
            picks = [s for s in range(n) if labels[s] == label]
            acc = self.bots.setdefault(label, _Acc())
            acc.add(
                sum(shares[s] for s in picks),
                [points[s] for s in picks],
                [ranks[s] for s in picks],
            )
        self.length[0] += length
        self.length[1] += length * length
        self.length_min = length if self.games == 1 else min(self.length_min, length)
        self.length_max = max(self.length_max, length)
        for unit, v in (units or {}).items():
            acc_u = self.units.setdefault(unit, [0.0, 0.0])
            acc_u[0] += v
            acc_u[1] += v * v

    def add(self, job: Job, o: Outcome) -> None:
        """Count one outcome of ``job``."""
        units = {k[4:]: v for k, v in o.data.items() if k.startswith("len_")}
        self.add_game(
            job.labels(o.index),
            o.points,
            o.ranks,
            Result(o.points, o.ranks, o.winners).win_shares(),
            o.length,
            int(o.data.get("start_seat", -1)),
            units,
        )

    def summary(
        self,
        requested: int,
        interrupted: bool,
        seconds: float,
        rotate: bool,
        played: int = -1,
    ) -> Summary:
        """The summary of the games counted; ``played`` of them (-1: all) were played in
        ``seconds`` by this run."""
        n = self.players
        out = Summary(
            game=self.game,
            players=n,
            options=self.options,
            requested=requested,
            games=self.games,
            interrupted=interrupted,
            seconds=seconds,
            played=played,
        )
        if not self.games:
            return out
        for s, acc in enumerate(self.seats):
            labels = self.seat_labels[s]
            label = (
                f"seat {s}: {next(iter(labels))}"
                if len(labels) == 1 and not rotate
                else (f"seat {s}")
            )
            out.seats.append(acc.line(label, n))
        if self.positions[0].games:
            for p, acc in enumerate(self.positions):
                name = "start player" if p == 0 else f"{p} after the start"
                out.positions.append(acc.line(f"position {p} ({name})", n))
        order = [b for b in self.order if b in self.bots]
        order += [b for b in self.bots if b not in self.order]
        out.bots = [self.bots[b].line(b, n) for b in order]
        out.length_mean, out.length_sd = _mean_sd(self.games, *self.length)
        out.length_min = self.length_min
        out.length_max = self.length_max
        out.units = {u: _mean_sd(self.games, *acc) for u, acc in self.units.items()}
        out.shared_wins = self.shared
        out.seat_test = uniform_test([line.win.value * line.games for line in out.seats])
        if out.positions:
            out.position_test = uniform_test(
                [line.win.value * line.games for line in out.positions]
            )
        return out


def uniform_test(wins: Sequence[float]) -> float | None:
    """The p-value of Pearson's chi-squared test that wins are spread evenly over the
    groups (seats or positions), or None without scipy or without wins."""
    total = sum(wins)
    if total <= 0 or len(wins) < 2:
        return None
    try:
        from scipy.stats import chisquare
    except ImportError:
        return None
    return float(chisquare(list(wins)).pvalue)


def summarize(result: RunResult) -> Summary:
    """Per-seat, per-position and per-bot win shares (95% Wilson), points, ranks and game
    lengths of the outcomes of ``result``."""
    job = result.job
    tally = Tally(job.game, job.players, dict(job.options), [b.text for b in job.bots])
    for o in result.outcomes:
        tally.add(job, o)
    return tally.summary(job.n, result.interrupted, result.seconds, job.rotate, result.played)


def tally_rows(tally: Tally, path: Path, players: int) -> None:
    """Count every game of a results file into ``tally``, a batch of rows at a time."""
    from .output import iter_batches, read_columns

    columns = read_columns(path)
    units = [c for c in columns if c.startswith("len_")]
    wanted = ["length", *units]
    if "start_seat" in columns:
        wanted.append("start_seat")
    for s in range(players):
        wanted += [f"bot_{s}", f"points_{s}", f"rank_{s}", f"win_{s}"]
    seats = range(players)
    for batch in iter_batches(path, wanted):
        starts = batch.get("start_seat")
        for g in range(len(batch["length"])):
            tally.add_game(
                [batch[f"bot_{s}"][g] for s in seats],
                [batch[f"points_{s}"][g] for s in seats],
                [batch[f"rank_{s}"][g] for s in seats],
                [batch[f"win_{s}"][g] for s in seats],
                batch["length"][g],
                -1 if starts is None else int(starts[g]),
                {u[4:]: batch[u][g] for u in units},
            )
