"""The bot interface (defined in the core, so game packages can implement it), and the
reward scale that search bots maximise, so that a game's heuristic can score unfinished
games on the same scale without importing the search."""

from __future__ import annotations

from ..core.bot import Bot, RandomBot

WIN_WEIGHT = 0.85
RANK_WEIGHT = 0.10
POINTS_WEIGHT = 0.05


def reward(win: float, rank: float, points: float) -> float:
    """A seat's reward from its win share, rank score and points score, each in [0, 1]."""
    return WIN_WEIGHT * win + RANK_WEIGHT * rank + POINTS_WEIGHT * points


__all__ = ["POINTS_WEIGHT", "RANK_WEIGHT", "WIN_WEIGHT", "Bot", "RandomBot", "reward"]
