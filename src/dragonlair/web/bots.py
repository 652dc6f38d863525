"""Bots for bot seats (and for seats taken over when their player is away), off the loop.

A bot decides from exactly what a client of its seat would get: the seat's view and its
legal actions (as text), plus a ``random.Random`` seeded from the table's seed, the seat
and the move number, so a table's bots play the same way every time its history is the
same, after a restart too. The decision runs in an executor, never on the event loop, so
a slow bot (ISMCTS with a time budget) delays only its own table:

- ``thread`` pool (the default): cheap, and it sees every game registered in the process;
  a CPU-bound bot still shares the interpreter with the server.
- ``process`` pool: bots run truly in parallel with the server. The workers are started
  fresh (``spawn``) and know the built-in games; a job for a game they cannot make (one
  registered only in the server process) falls back to the thread pool.

Each worker keeps its bots in a small cache keyed by game, options, level and budget, so a
bot is built once, not once per move.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import random
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..bots import Bot, make_bot
from ..core import make
from ..core.errors import UnknownGame

log = logging.getLogger("dragonlair.web.bots")


@dataclass(frozen=True)
class BotJob:
    """One decision: which bot, for which game, from which view, with which seed."""

    game: str
    players: int
    options_json: str
    level: str
    budget_json: str
    view: dict[str, Any]
    legal: tuple[str, ...]
    seed: int


@lru_cache(maxsize=64)
def _bot(game: str, players: int, options_json: str, level: str, budget_json: str) -> Bot:
    g = make(game, players=players, options=json.loads(options_json))
    return make_bot(level, g, **json.loads(budget_json))


def decide(job: BotJob) -> str:
    """The bot's action for ``job``, as text (runs in a worker)."""
    bot = _bot(job.game, job.players, job.options_json, job.level, job.budget_json)
    game = bot.game
    legal = [game.parse_action(t) for t in job.legal]
    return str(bot.choose(job.view, legal, random.Random(job.seed)))


class BotRunner:
    """Runs bot decisions in a thread or process pool and awaits them."""

    def __init__(self, pool: str = "thread", workers: int = 2) -> None:
        if pool not in ("thread", "process"):
            raise ValueError(f"bot pool must be 'thread' or 'process', not {pool!r}")
        if workers < 1:
            raise ValueError(f"bot workers must be at least 1, not {workers}")
        self.threads = ThreadPoolExecutor(workers, thread_name_prefix="dragonlair-bot")
        self.processes: Executor | None = None
        if pool == "process":
            self.processes = ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn")
            )
        self._thread_only: set[str] = set()

    async def decide(self, job: BotJob) -> str:
        """The chosen action's text."""
        loop = asyncio.get_running_loop()
        if self.processes is not None and job.game not in self._thread_only:
            try:
                return await loop.run_in_executor(self.processes, decide, job)
            except UnknownGame:
                log.info("bot workers cannot make %s; its bots run in threads", job.game)
                self._thread_only.add(job.game)
        return await loop.run_in_executor(self.threads, decide, job)

    def close(self) -> None:
        """Stop the pools (decisions in progress are abandoned)."""
        self.threads.shutdown(wait=False, cancel_futures=True)
        if self.processes is not None:
            self.processes.shutdown(wait=False, cancel_futures=True)
