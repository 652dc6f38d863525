"""Two arms of a rule change compared game by game: what moved, by how much, and whether it
is more than chance.

Both arms play the same seeds, so game ``i`` of arm A and game ``i`` of arm B start from
the same seed; where the change does not alter the deal they start alike, and the
difference between them is the change's effect plus the bots' own variation. The arms are
**paired by game index** (an inner join on ``index``), and every measure is compared
through its per-game differences:

- **win share** per seat and per position after the start player (a sole win 1, a win
  shared by k seats 1/k, a loss 0), the share of **ties** (shared wins);
- **points** per seat, the winning **margin** (the best score minus the next best), the
  **spread** (the best score minus the worst), and the **length** in decisions and in the
  game's own units.

**The test.** For each measure the mean of the per-game differences B − A, its 95%
confidence interval and the two-sided p-value come from the paired t-test
(``scipy.stats.ttest_rel``). Why this test: the pairing removes the variation between
deals (which is most of it), and it is the test of a mean difference on paired data; the
per-game differences are bounded (a win share moves by at most 1), so with the hundreds or
thousands of games of a comparison their mean is close to normal by the central limit
theorem and the t interval holds, including for the 0/1 outcomes of win shares (where it
agrees with McNemar's test in large samples) and for the fractional shares of shared wins,
which McNemar's test cannot take. A measure whose difference is the same in every pair has
no variation to test, and needs none: a difference of 0 everywhere has p-value 1, and any
other constant difference (every game 64 decisions long in A and 28 in B) is certain for
these games, its interval the single value and its p-value 0.

**Games altered, rescored, winner changed.** A pair is *altered* when the game went
differently: anything in its row other than the scores differs between the arms (length,
how it ended, turn order, any per-game feature such as the cards played). A pair is
*rescored* when the game went the same way and only the scoring differs (points, ranks,
wins, the score breakdown and snapshots), as a change of a scoring value does to the games
it does not make the bots play differently. The *winner changed* in a pair when the seats
sharing the win differ. A change the bots rarely exercise alters or rescores few games:
below :data:`FEW_ALTERED` of them the comparison carries a warning, and with none it says
the bots never exercised the change.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core import DragonlairError

FEW_ALTERED = 0.2  # below this share of altered games, the comparison warns
CONFIDENCE = 0.95
# columns that say which run a row is from rather than what happened in the game
_NOT_OUTCOME = {"index", "seed", "game", "options", "players"}


class CompareError(DragonlairError):
    """Two arms that cannot be compared (other games, player counts, no common games)."""


@dataclass(frozen=True)
class Difference:
    """One measure in both arms: their means and the mean paired difference B − A."""

    measure: str
    group: str  # "seat", "position", "game"
    a: float
    b: float
    diff: float
    low: float
    high: float
    p: float
    games: int

    @property
    def significant(self) -> bool:
        return self.p < 1 - CONFIDENCE


@dataclass
class Comparison:
    """The comparison of two arms, paired by game index."""

    game: str
    players: int
    a_label: str
    b_label: str
    games: int
    altered: int  # pairs whose games went differently
    differences: list[Difference] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    rescored: int = 0  # pairs whose games went the same way but scored differently
    winner_changed: int = 0  # pairs whose winning seats differ

    @property
    def altered_share(self) -> float:
        return self.altered / self.games if self.games else 0.0

    @property
    def rescored_share(self) -> float:
        return self.rescored / self.games if self.games else 0.0

    @property
    def winner_changed_share(self) -> float:
        return self.winner_changed / self.games if self.games else 0.0

    def changes(self) -> str:
        """The games altered, rescored and with another winner, as a sentence's words."""
        return (
            f"{self.altered} ({self.altered_share:.1%}) went differently, "
            f"{self.rescored} ({self.rescored_share:.1%}) went the same way but scored "
            f"differently, and in {self.winner_changed} ({self.winner_changed_share:.1%}) "
            "the winner changed"
        )

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["altered_share"] = self.altered_share
        d["rescored_share"] = self.rescored_share
        d["winner_changed_share"] = self.winner_changed_share
        for row, diff in zip(d["differences"], self.differences, strict=True):
            row["significant"] = diff.significant
        return d


def paired(measure: str, group: str, a: Sequence[float], b: Sequence[float]) -> Difference:
    """The paired t-test of ``b - a`` (its mean, 95% interval and two-sided p-value)."""
    import numpy as np
    from scipy.stats import ttest_rel

    xa = np.asarray(a, dtype=float)
    xb = np.asarray(b, dtype=float)
    n = len(xa)
    d = xb - xa
    mean = float(d.mean()) if n else 0.0
    if n < 2:  # one pair: no spread to test against
        return Difference(measure, group, _mean(xa), _mean(xb), mean, mean, mean, 1.0, n)
    if bool((d == d[0]).all()):  # the same difference in every pair: certain, or none
        p = 1.0 if mean == 0.0 else 0.0
        return Difference(measure, group, _mean(xa), _mean(xb), mean, mean, mean, p, n)
    t = ttest_rel(xb, xa)
    ci = t.confidence_interval(CONFIDENCE)
    p = float(t.pvalue)
    return Difference(
        measure,
        group,
        _mean(xa),
        _mean(xb),
        mean,
        float(ci.low),
        float(ci.high),
        p if math.isfinite(p) else 1.0,
        n,
    )


def _mean(x: Any) -> float:
    return float(x.mean()) if len(x) else 0.0


def _measures(frame: Any, players: int) -> dict[tuple[str, str], Any]:
    """Every compared measure of each game of ``frame`` (a results table)."""
    import numpy as np

    out: dict[tuple[str, str], Any] = {}
    points = np.column_stack([frame[f"points_{s}"].to_numpy(float) for s in range(players)])
    wins = np.column_stack([frame[f"win_{s}"].to_numpy(float) for s in range(players)])
    for s in range(players):
        out[(f"win share, seat {s}", "seat")] = wins[:, s]
    if "start_seat" in frame.columns and (frame["start_seat"] >= 0).all():
        start = frame["start_seat"].to_numpy(int)
        rows = np.arange(len(frame))
        for p in range(players):
            name = "start player" if p == 0 else f"{p} after the start"
            out[(f"win share, position {p} ({name})", "position")] = wins[
                rows, (start + p) % players
            ]
    out[("ties (shared wins)", "game")] = ((wins > 0).sum(axis=1) > 1).astype(float)
    for s in range(players):
        out[(f"points, seat {s}", "seat")] = points[:, s]
    ordered = np.sort(points, axis=1)
    out[("points, all seats", "game")] = points.mean(axis=1)
    if players > 1:
        out[("winning margin", "game")] = ordered[:, -1] - ordered[:, -2]
        out[("spread (best - worst)", "game")] = ordered[:, -1] - ordered[:, 0]
    out[("length (decisions)", "game")] = frame["length"].to_numpy(float)
    for col in frame.columns:
        if col.startswith("len_"):
            out[(f"length ({col[4:]})", "game")] = frame[col].to_numpy(float)
    return out


def compare_frames(
    a: Any, b: Any, players: int, game: str, a_label: str = "A", b_label: str = "B"
) -> Comparison:
    """Compare two results tables (pandas DataFrames) of ``game``, paired by index."""
    joined = a.merge(b, on="index", suffixes=("__a", "__b"))
    if not len(joined):
        raise CompareError("the two arms have no game index in common")
    fa = a.set_index("index").loc[joined["index"]].reset_index()
    fb = b.set_index("index").loc[joined["index"]].reset_index()
    cmp = Comparison(game, players, a_label, b_label, len(joined), 0)
    ma, mb = _measures(fa, players), _measures(fb, players)
    for key, values in ma.items():
        if key in mb:
            cmp.differences.append(paired(key[0], key[1], values, mb[key]))
    common = [c for c in fa.columns if c in fb.columns and c not in _NOT_OUTCOME]
    play = [c for c in common if not _is_score(c)]
    scores = [c for c in common if _is_score(c)]
    played_same = _same_rows(fa, fb, play)
    scored_same = _same_rows(fa, fb, scores)
    cmp.altered = int((~played_same).sum())
    cmp.rescored = int((played_same & ~scored_same).sum())
    wins = [f"win_{s}" for s in range(players)]
    winners_a = fa[wins].to_numpy(float) > 0
    winners_b = fb[wins].to_numpy(float) > 0
    cmp.winner_changed = int((winners_a != winners_b).any(axis=1).sum())
    if "seed" in fa.columns and (fa["seed"].to_numpy() != fb["seed"].to_numpy()).any():
        cmp.warnings.append(
            "the arms were not played on the same seeds: games are paired by index only, so "
            "the comparison is less sharp than it could be"
        )
    changed = cmp.altered + cmp.rescored
    if changed == 0:
        cmp.warnings.append(
            f"the bots never exercised the change: all {cmp.games} paired games came out "
            "exactly the same"
        )
    elif changed < FEW_ALTERED * cmp.games:
        cmp.warnings.append(
            f"the bots rarely exercised the change: only {changed} of {cmp.games} paired "
            f"games ({changed / cmp.games:.1%}) came out differently; the rest were identical"
        )
    return cmp


# columns of the scoring: what a change of scoring values alone changes
_SCORE_PREFIXES = ("points_", "rank_", "win_", "score_", "snap", "leader")


def _is_score(column: str) -> bool:
    return column.startswith(_SCORE_PREFIXES) or column == "lead_changes"


def _same_rows(fa: Any, fb: Any, columns: list[str]) -> Any:
    """Per pair, whether ``columns`` hold the same values in both arms."""
    import numpy as np

    if not columns:
        return np.ones(len(fa), dtype=bool)
    return (fa[columns].astype(str).to_numpy() == fb[columns].astype(str).to_numpy()).all(axis=1)
