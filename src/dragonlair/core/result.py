"""Final results, the ranking rules the games share, and the reward scale.

**Win share.** A seat that wins alone gets 1, each of k tied winners 1/k, everyone else 0,
so the shares of a game add up to 1 (:meth:`Result.win_share`). Simulation statistics,
tournaments and the research adapters' utility count exactly that.

**Reward** (what search maximises, and what a heuristic's evaluation of an unfinished
game estimates), in [0, 1]: ``0.85 × win share + 0.10 × rank score + 0.05 × points
score``. The rank score, (N − rank) / (N − 1), still tells second place from last when a
game is lost, which is most games at four or more players; the points score, the seat's
points between the table's lowest (0) and highest (1), is a touch of margin that breaks
ties between equal ranks. Rewards in [0, 1] keep a search's exploration constant
meaningful for every game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Result:
    """Points per seat, ranks (1 = best; tied seats share a rank), the winners, each
    seat's scoring breakdown (label → points, in the order the rulebook scores them), and
    how the game ended.

    ``termination`` is one of the values its game declares (``Game.terminations``, from
    the game's ``Termination`` literal type: the dragon woke, the turn cap was reached, a
    tie was broken by dragons); the conformance suite holds every finished game to them.
    ``reason`` is the words a player is shown for it, which the game's table of
    terminations gives ("" where the result needs none)."""

    points: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...] = field(default_factory=tuple)
    reason: str = ""
    termination: str = ""

    def win_share(self, seat: int) -> float:
        """``seat``'s share of the win: 1 for a sole win, 1/k for a win shared by k, else 0."""
        return 1.0 / len(self.winners) if seat in self.winners else 0.0

    def win_shares(self) -> list[float]:
        """Every seat's :meth:`win_share`, by seat."""
        return [self.win_share(s) for s in range(len(self.points))]

    def rewards(self) -> list[float]:
        """Every seat's reward (see the module docstring), by seat."""
        return final_rewards(self.points, self.ranks, self.winners)

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "breakdown": [dict(b) for b in self.breakdown],
            "reason": self.reason,
            "termination": self.termination,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Result:
        return cls(
            points=tuple(d["points"]),
            ranks=tuple(d["ranks"]),
            winners=tuple(d["winners"]),
            breakdown=tuple(dict(b) for b in d.get("breakdown", ())),
            reason=str(d.get("reason", "")),
            # "" in a result saved before games declared their terminations
            termination=str(d.get("termination", "")),
        )


WIN_WEIGHT = 0.85
RANK_WEIGHT = 0.10
POINTS_WEIGHT = 0.05


def reward(win: float, rank: float, points: float) -> float:
    """A seat's reward from its win share, rank score and points score, each in [0, 1]."""
    return WIN_WEIGHT * win + RANK_WEIGHT * rank + POINTS_WEIGHT * points


def final_rewards(
    points: Sequence[float], ranks: Sequence[int], winners: Sequence[int]
) -> list[float]:
    """Each seat's reward from a finished (or estimated) game: its win share (1 for a sole
    win, 1/k for a win shared by k), its rank score (N - rank) / (N - 1) and its points
    between the table's lowest and highest."""
    n = len(points)
    share = 1.0 / len(winners) if winners else 0.0
    lo, hi = min(points), max(points)
    span = hi - lo
    return [
        reward(
            share if s in winners else 0.0,
            (n - ranks[s]) / (n - 1) if n > 1 else 1.0,
            (points[s] - lo) / span if span else 0.5,
        )
        for s in range(n)
    ]


def competition_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """Rank 1 for the greatest key; equal keys share a rank; the next rank skips ("1224")."""
    ranks = []
    for k in keys:
        rank = 1
        for other in keys:
            if other > k:
                rank += 1
        ranks.append(rank)
    return tuple(ranks)


def dense_ranks(values: Sequence[int], highest_first: bool = True) -> tuple[int, ...]:
    """Dense ranking ("1223"): equal values share a rank and the next distinct value takes
    the next rank. Used where a rulebook says "second most" after a tie for most."""
    place = {}
    for i, v in enumerate(sorted(set(values), reverse=highest_first), 1):
        place[v] = i
    return tuple([place[v] for v in values])


def make_result(
    points: Sequence[int],
    tiebreak: Sequence[Any] | None = None,
    breakdown: Sequence[Mapping[str, int]] = (),
    reason: str = "",
    termination: str = "",
) -> Result:
    """A result where the most points win, ties broken by ``tiebreak`` (greater is better);
    seats still tied share the rank, and share the win when they are first. A game passes
    its ``termination`` and the words for it (``reason``) from its table of terminations."""
    if tiebreak is None:
        ranks = competition_ranks(points)
    else:
        ranks = competition_ranks([(p, tiebreak[i]) for i, p in enumerate(points)])
    winners = tuple([i for i, r in enumerate(ranks) if r == 1])
    return Result(tuple(points), ranks, winners, tuple(breakdown), reason, termination)
