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

**Bounded.** The operator sets the most a bot may think per decision (``--bot-max-seconds``,
``--bot-max-iterations``); tables asking more are refused when they are created. Every
decision also runs under the wall-clock limit: a bot that takes a time budget (ISMCTS) is
given ``time`` = the limit on top of its own budget, so its search stops there and plays
the best action found so far. A table that names no budget gets the bot's own default in
iterations (ISMCTS: 500), with the limit only as a ceiling, so a decision costs what its
iterations cost rather than the whole limit every time. The runner waits at most the
limit plus a grace period before the table plays the seat's default action (or a seeded
random one) instead. No table therefore holds a pool worker much beyond the limit, and
other tables' bots keep their turn.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import random
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..bots import Bot, UnknownBot, make_bot
from ..bots.ismcts import DEFAULT_ITERATIONS
from ..core import Game, make
from ..core.bot import NO_VIEW
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
    time_limit: float = 5.0


class BotTimeout(Exception):
    """A decision ran over its wall-clock limit (and grace); the table plays for it."""


@lru_cache(maxsize=64)
def _bot(
    game: str, players: int, options_json: str, level: str, budget_json: str, limit: float
) -> Bot:
    g = make(game, players=players, options=json.loads(options_json))
    budget = json.loads(budget_json)
    capped = {**budget, "time": min(float(budget.get("time", limit)), limit)}
    if "iterations" not in budget and "time" not in budget:
        # a budget in iterations by default, the wall-clock limit only as a ceiling (the
        # limit alone as its time would have it think the whole limit at every decision)
        capped["iterations"] = DEFAULT_ITERATIONS
    try:
        return make_bot(level, g, **capped)
    except (UnknownBot, TypeError, ValueError):
        # a bot without a time budget (random, heuristic): it is quick by nature
        return make_bot(level, g, **budget)


def decide(job: BotJob) -> str:
    """The bot's action for ``job``, as text (runs in a worker)."""
    bot = _bot(job.game, job.players, job.options_json, job.level, job.budget_json, job.time_limit)
    game = bot.game
    legal = [game.parse_action(t) for t in job.legal]
    view = job.view if bot.reads_view else NO_VIEW
    return str(bot.choose(view, legal, random.Random(job.seed)))


@dataclass(frozen=True)
class HintJob:
    """One hint: the analysis of a seat's decision from its view and legal actions only
    (:func:`dragonlair.analyse`'s ``analyse_view``), within the server's bot limits."""

    game: str
    players: int
    options_json: str
    view: dict[str, Any]
    legal: tuple[str, ...]
    seed: int
    samples: int
    iterations: int
    search_time: float  # the search's own budget; the playouts take the rest
    time_limit: float = 5.0


@lru_cache(maxsize=64)
def _game(game: str, players: int, options_json: str) -> Game:
    return make(game, players=players, options=json.loads(options_json))


def warm_hints(_: object = None) -> None:
    """Import what a hint needs (the analysis), so that the first hint's clock counts
    thinking, not importing."""
    from ..bots import analysis  # noqa: F401


def hint(job: HintJob) -> dict[str, Any]:
    """The analysis for ``job`` as the ``hint`` message's body (runs in a worker)."""
    from ..bots.analysis import analyse_view

    g = _game(job.game, job.players, job.options_json)
    legal = [g.parse_action(t) for t in job.legal]
    a = analyse_view(
        g,
        job.view,
        legal,
        samples=job.samples,
        seed=job.seed,
        iterations=job.iterations,
        time=job.search_time,
    )
    return {
        "pick": str(a.pick),
        "samples": a.samples,
        "iterations": a.iterations,
        "actions": [
            {
                "action": str(v.action),
                "win": v.playouts.win.to_dict(),
                "points": round(v.playouts.points, 2),
                "visits": v.visits,
            }
            for v in a.actions
        ],
    }


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
        self._thread_slots = asyncio.Semaphore(workers)
        self._process_slots = asyncio.Semaphore(workers)
        self.workers = workers
        self._warm: dict[int, asyncio.Future[Any]] = {}  # per pool: the imports hints need

    async def decide(self, job: BotJob) -> str:
        """The chosen action's text; BotTimeout if the bot overran its limit."""
        if self.processes is not None and job.game not in self._thread_only:
            try:
                return str(await self._run(self.processes, self._process_slots, job, decide))
            except UnknownGame:
                log.info("bot workers cannot make %s; its bots run in threads", job.game)
                self._thread_only.add(job.game)
        return str(await self._run(self.threads, self._thread_slots, job, decide))

    async def _warmed(self, pool: Executor) -> None:
        """The first hint in a pool waits for its imports (outside the hint's clock)."""
        key = id(pool)
        if key not in self._warm:
            loop = asyncio.get_running_loop()
            count = self.workers if pool is self.processes else 1
            jobs = [loop.run_in_executor(pool, warm_hints, None) for _ in range(count)]
            self._warm[key] = asyncio.ensure_future(asyncio.gather(*jobs))
        await asyncio.shield(self._warm[key])

    async def hint(self, job: HintJob) -> dict[str, Any]:
        """A hint, worked out in the bots' pool (the same workers and limits as the bots);
        BotTimeout if it overran its limit."""
        if self.processes is not None and job.game not in self._thread_only:
            try:
                await self._warmed(self.processes)
                out = await self._run(self.processes, self._process_slots, job, hint)
            except UnknownGame:
                self._thread_only.add(job.game)
            else:
                return dict(out)
        await self._warmed(self.threads)
        return dict(await self._run(self.threads, self._thread_slots, job, hint))

    @staticmethod
    async def _run(
        pool: Executor,
        slots: asyncio.Semaphore,
        job: Any,
        work: Callable[[Any], Any],
    ) -> Any:
        # A job is handed to the pool only when a worker is free, so its clock counts
        # thinking, not queueing; the slot is freed when the work really ends, so a bot
        # that ignores its limit still counts against the pool until it stops.
        await slots.acquire()
        try:
            running = asyncio.get_running_loop().run_in_executor(pool, work, job)
        except BaseException:
            slots.release()
            raise
        running.add_done_callback(lambda _: slots.release())
        limit = job.time_limit + max(1.0, job.time_limit / 2)
        try:
            return await asyncio.wait_for(asyncio.shield(running), limit)
        except TimeoutError:
            running.add_done_callback(lambda f: f.cancelled() or f.exception())
            raise BotTimeout(f"the bot did not decide within {limit:g} seconds") from None

    def close(self) -> None:
        """Stop the pools (decisions in progress are abandoned)."""
        self.threads.shutdown(wait=False, cancel_futures=True)
        if self.processes is not None:
            self.processes.shutdown(wait=False, cancel_futures=True)
