"""The bot interface (defined in the core, so game packages can implement it), and the
reward scale that search bots maximise, so that a game's heuristic can score unfinished
games on the same scale without importing the search."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.bot import Bot, RandomBot

WIN_WEIGHT = 0.85
RANK_WEIGHT = 0.10
POINTS_WEIGHT = 0.05


def reward(win: float, rank: float, points: float) -> float:
    """A seat's reward from its win share, rank score and points score, each in [0, 1]."""
    return WIN_WEIGHT * win + RANK_WEIGHT * rank + POINTS_WEIGHT * points


def final_rewards(
    points: Sequence[float], ranks: Sequence[int], winners: Sequence[int]
) -> list[float]:
    """Each seat's reward from a finished game: its win share (1 for a sole win, 1/k for a
    win shared by k), its rank score (N - rank) / (N - 1) and its points between the
    table's lowest and highest."""
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


__all__ = [
    "POINTS_WEIGHT",
    "RANK_WEIGHT",
    "WIN_WEIGHT",
    "Bot",
    "RandomBot",
    "final_rewards",
    "reward",
]
