"""The bot interface (defined in the core, so game packages can implement it)."""

from ..core.bot import Bot, RandomBot

__all__ = ["Bot", "RandomBot"]
