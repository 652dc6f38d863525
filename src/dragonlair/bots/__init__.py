"""Bots: random, a heuristic per game, and information-set MCTS."""

from .base import Bot, RandomBot

__all__ = ["Bot", "RandomBot"]
