"""Bots for bot seats (and for seats taken over when their player is away), off the loop.

A bot decides from exactly what a client of its seat would get: the seat's view and its
legal actions (as text), plus a ``random.Random`` seeded from the table's seed, the seat
and the move number, so a table's bots play the same way every time its history is the
same, after a restart too. Decisions and hints run in a pool of ``--bot-workers``
workers, never on the event loop:

- ``process`` pool (the default): bots and hints think in worker processes, so they take
  neither the event loop nor the server's interpreter lock. The pool is pebble's
  ``ProcessPool`` (chosen over ``concurrent.futures`` because it kills the worker of a job
  that runs over its timeout and starts a new one, where ``ProcessPoolExecutor`` can only
  abandon the job and breaks when a worker is killed). The workers are started fresh
  (``spawn``) and know the built-in games; a job for a game they cannot make (one
  registered only in the server process) falls back to the thread pool.
- ``thread`` pool: cheap, and it sees every game registered in the process, but a
  CPU-bound bot shares the interpreter with the server, and a thread cannot be killed.

**Fair.** Who gets the next free worker is :class:`FairQueue`'s choice: one queue per
table, the table served least recently first, bot decisions before hints, at most one job
per table in flight. Hints from any number of tables therefore delay another table's bot
by at most the one job a worker is busy with; a table (or the one person at a practice
table) asking many hints waits behind its own.

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
random one) instead: in the process pool the job is killed with its worker (a hint cut so
answers ``hint_failed``); a thread runs on to its end, and holds its worker until then.
No table therefore holds a process worker beyond the limit, and other tables' bots keep
their turn.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import random
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pebble

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
    """One hint: the seat's choices ranked from its view and legal actions only
    (:func:`dragonlair.bots.advice.advise`), within the server's bot limits."""

    game: str
    players: int
    options_json: str
    view: dict[str, Any]
    legal: tuple[str, ...]
    seed: int
    budget: float  # the advice's own time: its playouts stop when it has passed
    max_playouts: int  # per choice
    time_limit: float = 5.0


@lru_cache(maxsize=64)
def _game(game: str, players: int, options_json: str) -> Game:
    return make(game, players=players, options=json.loads(options_json))


def warm_hints(_: object = None) -> None:
    """Import what a hint needs (the advice, and each installed game with its heuristic
    bot, which the playouts play), so that the first hint's clock counts thinking, not
    importing."""
    from ..bots import advice  # noqa: F401
    from ..bots.base import heuristic_class
    from ..core.manifest import game_ids

    for game_id in game_ids():
        try:
            heuristic_class(make(game_id))
        except Exception:  # a game that cannot be made or has no heuristic: no hint either
            log.debug("no hint can be got ready for %s", game_id, exc_info=True)


def hint(job: HintJob) -> dict[str, Any]:
    """The advice for ``job`` as the ``hint`` message's body (runs in a worker)."""
    from ..bots.advice import advise

    g = _game(job.game, job.players, job.options_json)
    legal = [g.parse_action(t) for t in job.legal]
    a = advise(g, job.view, legal, seed=job.seed, budget=job.budget, max_playouts=job.max_playouts)
    doc = a.to_dict()
    return {k: doc[k] for k in ("pick", "rounds", "choices", "why")}


BOT, HINT = 0, 1  # priorities: a waiting bot decision is always served before a hint


@dataclass
class _Waiting:
    granted: asyncio.Future[None]
    since: float


class FairQueue:
    """Who gets the next free worker: the jobs waiting, one queue per table, served in
    turn across clients and, within a client, across its tables (the client, then the
    table, served least recently first; one never served before all), bot decisions before
    hints, at most one job per table in flight. A table that asks for many hints therefore
    waits behind its own hints only: another table's bot decision is next as soon as a
    worker is free. And a client that made many tables (the address that created them,
    :meth:`charge_to`) gets one turn among the clients, not one per table: six bot-only
    tables at the largest budget from one address share the turn of one. A table whose
    client is not known (resumed after a restart, a rematch) is a client of its own."""

    REMEMBERED = 4096  # tables whose last turn is kept while they have nothing waiting
    CLIENTS = 100_000  # tables whose client is remembered (the oldest forgotten first)

    def __init__(self, workers: int, on_wait: Callable[[str, float], None] | None = None) -> None:
        self.workers = workers
        self.running: dict[str, int] = {}  # table -> jobs in flight (at most one)
        # per priority, the tables with jobs waiting, in round-robin order
        self.waiting: tuple[dict[str, deque[_Waiting]], ...] = ({}, {})
        self._on_wait = on_wait
        self._turns = 0
        self._last_turn: dict[str, int] = {}  # table -> when it was last served
        self._client_turn: dict[str, int] = {}  # client -> when it was last served
        self._client_of: OrderedDict[str, str] = OrderedDict()  # table -> client

    def charge_to(self, table: str, client: str) -> None:
        """Count ``table``'s jobs against ``client`` (the address that created it)."""
        self._client_of[table] = client
        self._client_of.move_to_end(table)
        while len(self._client_of) > self.CLIENTS:
            self._client_of.popitem(last=False)

    def client_of(self, table: str) -> str:
        """Whose share ``table``'s jobs take: its client's, or its own."""
        return self._client_of.get(table) or f"table:{table}"

    @property
    def queued(self) -> int:
        return sum(len(q) for level in self.waiting for q in level.values())

    @property
    def busy(self) -> int:
        return sum(self.running.values())

    def queued_of(self, priority: int) -> int:
        return sum(len(q) for q in self.waiting[priority].values())

    async def acquire(self, table: str, priority: int) -> None:
        """Wait for this table's turn at a free worker (release it with :meth:`release`)."""
        loop = asyncio.get_running_loop()
        entry = _Waiting(loop.create_future(), loop.time())
        self.waiting[priority].setdefault(table, deque()).append(entry)
        self._dispatch()
        try:
            await entry.granted
        except BaseException:
            if entry.granted.done() and not entry.granted.cancelled():
                self.release(table)  # granted, then cancelled before it ran
            else:
                queue = self.waiting[priority].get(table)
                if queue is not None and entry in queue:
                    queue.remove(entry)
                    if not queue:
                        del self.waiting[priority][table]
            raise
        if self._on_wait is not None:
            self._on_wait("bot" if priority == BOT else "hint", loop.time() - entry.since)

    def release(self, table: str) -> None:
        """The job of ``table`` ended (its worker is free)."""
        left = self.running.get(table, 0) - 1
        if left > 0:
            self.running[table] = left
        else:
            self.running.pop(table, None)
        self._dispatch()

    def _dispatch(self) -> None:
        while self.busy < self.workers:
            picked = self._next()
            if picked is None:
                return
            table, entry = picked
            self.running[table] = self.running.get(table, 0) + 1
            entry.granted.set_result(None)

    def _next(self) -> tuple[str, _Waiting] | None:
        for level in self.waiting:
            while True:
                ready = [t for t in level if t not in self.running]
                if not ready:
                    break
                client = min(
                    (self.client_of(t) for t in ready),
                    key=lambda c: self._client_turn.get(c, -1),
                )
                table = min(
                    (t for t in ready if self.client_of(t) == client),
                    key=lambda t: self._last_turn.get(t, -1),
                )
                queue = level[table]
                entry = queue.popleft()
                if not queue:
                    del level[table]
                if entry.granted.cancelled():
                    continue
                self._turns += 1
                self._last_turn[table] = self._turns
                self._client_turn[client] = self._turns
                if len(self._last_turn) > self.REMEMBERED:
                    self._forget()
                return table, entry
        return None

    def _forget(self) -> None:
        busy = set(self.running).union(*self.waiting)
        self._last_turn = {t: n for t, n in self._last_turn.items() if t in busy}
        clients = {self.client_of(t) for t in busy}
        self._client_turn = {c: n for c, n in self._client_turn.items() if c in clients}


class BotRunner:
    """Runs bot decisions and hints in a process pool (or a thread pool) and awaits them,
    each table getting its fair share of the workers (:class:`FairQueue`) and each job cut
    at its wall-clock bound."""

    def __init__(
        self,
        pool: str = "process",
        workers: int = 2,
        on_wait: Callable[[str, float], None] | None = None,
        on_done: Callable[[str, float], None] | None = None,
    ) -> None:
        # on_wait(kind, seconds): a job's wait for a worker; on_done(kind, seconds): its
        # time from getting one to its answer (the worker's thinking and the round trip to
        # it), whether it answered, failed or was cut; kind is "bot" or "hint"
        if pool not in ("thread", "process"):
            raise ValueError(f"bot pool must be 'thread' or 'process', not {pool!r}")
        if workers < 1:
            raise ValueError(f"bot workers must be at least 1, not {workers}")
        self.threads = ThreadPoolExecutor(workers, thread_name_prefix="dragonlair-bot")
        self.processes: pebble.ProcessPool | None = None
        if pool == "process":
            self.processes = pebble.ProcessPool(
                max_workers=workers, context=multiprocessing.get_context("spawn")
            )
        self._thread_only: set[str] = set()
        self.fair = FairQueue(workers, on_wait)
        self.workers = workers
        self._on_done = on_done
        self._warm: dict[str, asyncio.Future[Any]] = {}  # per pool: the imports hints need

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return self.fair.queued

    @property
    def thinking(self) -> int:
        """Jobs being worked out."""
        return self.fair.busy

    async def decide(self, job: BotJob, table: str = "") -> str:
        """The chosen action's text; BotTimeout if the bot overran its limit."""
        return str(await self._fair(table, BOT, job, decide))

    async def hint(self, job: HintJob, table: str = "") -> dict[str, Any]:
        """A hint, worked out in the bots' pool (the same workers and limits as the bots,
        below them in priority); BotTimeout if it overran its limit."""
        return dict(await self._fair(table, HINT, job, hint))

    async def _fair(self, table: str, priority: int, job: Any, work: Callable[[Any], Any]) -> Any:
        await self.fair.acquire(table, priority)
        began = asyncio.get_running_loop().time()
        # the worker's slot is freed when the work really ends (a process job is killed
        # at its bound; a thread cannot be, so it counts against the pool until it stops)
        done: list[asyncio.Future[Any]] = []
        try:
            if self.processes is not None and job.game not in self._thread_only:
                try:
                    return await self._in_process(job, work, done)
                except UnknownGame:
                    log.info("bot workers cannot make %s; its bots run in threads", job.game)
                    self._thread_only.add(job.game)
                    done.clear()
            return await self._in_thread(job, work, done)
        finally:
            if self._on_done is not None:
                took = asyncio.get_running_loop().time() - began
                self._on_done("bot" if priority == BOT else "hint", took)
            if done and not done[0].done():
                done[0].add_done_callback(lambda _: self.fair.release(table))
            else:
                self.fair.release(table)

    async def warm_hints(self) -> None:
        """Have the workers import what a hint needs now (the server asks this at its
        start, and a table that allows hints when its first person arrives), so that a
        player's first hint does not wait for a fresh pool's imports: 8 to 28 s on a
        loaded 2-core machine (docs/benchmarks/2026-12-04-first-hint.md)."""
        if self.processes is not None:
            pool = self.processes
            await self._warmed("process", lambda: asyncio.wrap_future(pool.schedule(warm_hints)))
        else:
            loop = asyncio.get_running_loop()
            await self._warmed("thread", lambda: loop.run_in_executor(self.threads, warm_hints))

    def _limit(self, job: Any) -> float:
        limit: float = job.time_limit
        return limit + max(1.0, limit / 2)

    async def _warmed(self, key: str, run: Callable[[], asyncio.Future[Any]]) -> None:
        """The first hint in a pool waits for its imports (outside the hint's clock)."""
        if key not in self._warm:
            count = self.workers if key == "process" else 1
            self._warm[key] = asyncio.gather(*(run() for _ in range(count)))
        await asyncio.shield(self._warm[key])

    async def _in_process(
        self, job: Any, work: Callable[[Any], Any], done: list[asyncio.Future[Any]]
    ) -> Any:
        assert self.processes is not None
        pool = self.processes
        if work is hint:
            await self._warmed("process", lambda: asyncio.wrap_future(pool.schedule(warm_hints)))
        limit = self._limit(job)
        # pebble kills the worker of a job that runs over its timeout and starts a new one
        running = asyncio.wrap_future(pool.schedule(work, args=(job,), timeout=limit))
        done.append(running)
        try:
            return await running
        except TimeoutError:
            raise BotTimeout(f"the bot did not decide within {limit:g} seconds") from None

    async def _in_thread(
        self, job: Any, work: Callable[[Any], Any], done: list[asyncio.Future[Any]]
    ) -> Any:
        loop = asyncio.get_running_loop()
        if work is hint:
            await self._warmed("thread", lambda: loop.run_in_executor(self.threads, warm_hints))
        running = loop.run_in_executor(self.threads, work, job)
        done.append(running)
        limit = self._limit(job)
        try:
            return await asyncio.wait_for(asyncio.shield(running), limit)
        except TimeoutError:
            running.add_done_callback(lambda f: f.cancelled() or f.exception())
            raise BotTimeout(f"the bot did not decide within {limit:g} seconds") from None

    def close(self) -> None:
        """Stop the pools (decisions in progress are abandoned)."""
        self.threads.shutdown(wait=False, cancel_futures=True)
        if self.processes is not None:
            self.processes.stop()  # type: ignore[no-untyped-call]
