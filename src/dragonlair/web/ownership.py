"""Several server processes over one PostgreSQL database: which process owns which table.

``dragonlair serve --shard K/N`` runs process K of N (a process started without ``--shard``
on PostgreSQL is process 1/1). Every unfinished table is owned by at most one process at a
time, and only its owner keeps it in memory, applies its actions, runs its timers and bots,
and serves its WebSockets. Ownership is **a lease in the table's own row**, fenced:

- every process has a row in ``dl_processes`` and renews its *heartbeat* there (the
  database's clock) every ``lease / 5`` seconds; a process whose heartbeat is older than
  ``lease`` seconds is silent (dead, paused by SIGSTOP, cut off from the database);
- a table's row (``dl_tables``) names its ``owner`` and an ``epoch``. A process takes a
  table with one ``UPDATE`` that sets itself as owner and adds one to the epoch, and that
  succeeds only if the table is unfinished and has no owner or a silent one;
- every write about a table checks, in its own transaction, that the row still names this
  process at the epoch it took the table at (``Store.fence``, see
  :mod:`dragonlair.web.store`): a process that lost a table cannot commit anything about
  it, and the new owner, which reads the table only after its ``UPDATE`` committed,
  replays the latest stored move;
- nothing is held while a table waits: no lock, no session, whatever the number of
  tables (PostgreSQL's lock table is not used at all); a process holds a table only by
  renewing its own heartbeat. A table waiting for players is stored with no owner and
  taken by the first process a request for it reaches; one nobody has been connected to
  for a sweep is let go again (``Hub._put_to_sleep``), so waiting tables cost no memory;
- a process that finds, at a heartbeat, that a table it serves has another owner or epoch
  (it was silent too long) drops it at once: its connections are closed with 1012 and the
  clients reconnect through the proxy to the new owner; so does a write refused by a fence.

A process takes a table when a request for it arrives (:meth:`SharedHub.get`) or when it
finds the table orphaned: every ``adopt_interval`` seconds each process lists the
tables in play with no owner or a silent one and takes those whose *home* (a hash of
the id modulo N) is this process, and the others once they are still orphaned at its next
look, so the tables of a dead process spread over the live ones and even a table with only
bots at it plays on within seconds (``lease`` plus about two looks).

A request for a table another process owns is answered ``503 not_owner`` (a WebSocket is
refused the same way, before its upgrade); the reverse proxy then tries the next process
(``proxy_next_upstream http_503`` in ``deploy/nginx/``), so a table always reaches its
owner, whichever process the proxy tried first. The lobby (listing, creating) is answered
by any process from the database. Finished tables need no owner: their records are read
from storage by whichever process is asked.

**One layout at a time.** At its start a process refuses to run beside a live process of
another layout (a process without ``--shard`` beside sharded ones, ``--shard 1/2`` beside
``2/3``) or with the same ``K/N`` as a live one: it waits up to one lease for such a
process to fall silent (a restart after a crash) and otherwise exits saying which process
is in the way.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import time
import uuid
from typing import Any

from sqlalchemy import Float, delete, insert, literal_column, select, update

from .bots import BotRunner
from .config import ServerConfig
from .lobby import Hub
from .metrics import OWNERSHIP
from .protocol import ProtocolError
from .session import Table
from .store import ACTIVE, Store, StoreError, processes_t, tables_t

log = logging.getLogger("dragonlair.web.ownership")

ADOPT_PER_LOOK = 200
ORPHANS_PER_LOOK = 2000
# Rows of processes silent this long are deleted when a process starts (seconds).
FORGET_PROCESSES = 86400.0

# The database's clock, in seconds since the epoch: every heartbeat is judged by one clock.
NOW = literal_column("EXTRACT(EPOCH FROM clock_timestamp())", Float)


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` as (K, N), 1 <= K <= N; ValueError saying what is expected."""
    k, sep, n = text.partition("/")
    if not sep or not k.strip().isdigit() or not n.strip().isdigit():
        raise ValueError(f"a shard is K/N, e.g. 2/3 (process 2 of 3), not {text!r}")
    kk, nn = int(k), int(n)
    if not 1 <= kk <= nn:
        raise ValueError(f"a shard K/N needs 1 <= K <= N, not {text!r}")
    return kk, nn


def home(table_id: str, processes: int) -> int:
    """The process (1..N) that adopts an orphaned table first."""
    h = hashlib.sha256(table_id.encode()).digest()
    return int.from_bytes(h[:4], "big") % processes + 1


class Lease:
    """This process's heartbeat and its claims on tables, in the database.

    Every call blocks (run it in a thread); each is one short transaction."""

    def __init__(self, store: Store, index: int, processes: int, lease: float) -> None:
        self.store = store
        self.engine = store.engine
        self.id = uuid.uuid4().hex
        self.name = f"{index}/{processes}"
        self.processes = processes
        self.lease = lease

    def _live(self) -> Any:
        """The SQL condition: a process row's heartbeat is recent."""
        return processes_t.c.beat >= NOW - self.lease

    def in_the_way(self) -> list[str]:
        """The live processes this one may not run beside (another layout, or the same
        K/N), described."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    processes_t.c.name,
                    processes_t.c.processes,
                    (NOW - processes_t.c.beat).label("ago"),
                ).where(processes_t.c.id != self.id, self._live())
            ).all()
        return [
            f"process {r.name} (heartbeat {float(r.ago):.1f} s ago)"
            for r in rows
            if r.processes != self.processes or r.name == self.name
        ]

    def register(self) -> None:
        """Write this process's row (and forget processes silent for a day)."""
        with self.engine.begin() as conn:
            conn.execute(delete(processes_t).where(processes_t.c.beat < NOW - FORGET_PROCESSES))
            conn.execute(
                insert(processes_t).values(
                    id=self.id, name=self.name, processes=self.processes, started=NOW, beat=NOW
                )
            )

    def beat(self) -> dict[str, int]:
        """Renew the heartbeat; the unfinished tables the database says this process owns,
        with their epochs."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(processes_t).where(processes_t.c.id == self.id).values(beat=NOW)
            )
            if done.rowcount == 0:  # forgotten meanwhile: be known again
                conn.execute(
                    insert(processes_t).values(
                        id=self.id, name=self.name, processes=self.processes, started=NOW, beat=NOW
                    )
                )
            rows = conn.execute(
                select(tables_t.c.id, tables_t.c.epoch).where(
                    tables_t.c.owner == self.id, tables_t.c.status.in_(ACTIVE)
                )
            ).all()
        return {r.id: int(r.epoch) for r in rows}

    def owner_live(self) -> Any:
        """The SQL condition: a table's owner is a live process."""
        return (
            select(processes_t.c.id)
            .where(processes_t.c.id == tables_t.c.owner, self._live())
            .exists()
        )

    def claim(self, table_id: str) -> int | None:
        """Take the table if it is unfinished and has no owner, a silent one or this
        process: its new epoch, or None (another live process owns it, or it is over)."""
        live_owner = self.owner_live()
        with self.engine.begin() as conn:
            row = conn.execute(
                update(tables_t)
                .where(
                    tables_t.c.id == table_id,
                    tables_t.c.status.in_(ACTIVE),
                    tables_t.c.owner.is_(None) | (tables_t.c.owner == self.id) | ~live_owner,
                )
                .values(owner=self.id, epoch=tables_t.c.epoch + 1)
                .returning(tables_t.c.epoch)
            ).first()
        return None if row is None else int(row[0])

    def give_up(self, table_id: str, epoch: int) -> None:
        """Let a table go now (another process may take it at once)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(tables_t)
                .where(
                    tables_t.c.id == table_id,
                    tables_t.c.owner == self.id,
                    tables_t.c.epoch == epoch,
                )
                .values(owner=None)
            )

    def orphans(self) -> list[str]:
        """Tables in play with no owner or a silent one, oldest first (a table waiting for
        players needs no process until someone comes to it, who takes it then)."""
        owner = processes_t.alias("p")
        with self.engine.connect() as conn:
            return [
                r[0]
                for r in conn.execute(
                    select(tables_t.c.id)
                    .select_from(tables_t.outerjoin(owner, owner.c.id == tables_t.c.owner))
                    .where(
                        tables_t.c.status == "playing",
                        owner.c.id.is_(None) | (owner.c.beat < NOW - self.lease),
                    )
                    .order_by(tables_t.c.created)
                    .limit(ORPHANS_PER_LOOK)
                )
            ]

    def retire(self) -> None:
        """A clean stop: let every table go and delete this process's row, so the others
        take its tables at their next look."""
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.owner == self.id).values(owner=None))
            conn.execute(delete(processes_t).where(processes_t.c.id == self.id))


class SharedHub(Hub):
    """The lobby service of one of several processes sharing a PostgreSQL database."""

    shared = True

    def __init__(self, config: ServerConfig, store: Store, bots: BotRunner) -> None:
        super().__init__(config, store, bots)
        if store.sqlite:
            raise ValueError("several server processes need PostgreSQL, not SQLite")
        self.index, self.processes = parse_shard(config.shard or "1/1")
        self.lease = Lease(store, self.index, self.processes, config.lease)
        store.process = self.lease.id
        self._adopter: asyncio.Task[None] | None = None
        self._beater: asyncio.Task[None] | None = None
        self._seen: set[str] = set()
        self._taking: dict[str, asyncio.Task[Table]] = {}
        self._strays: set[str] = set()
        self._background: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.silent_since: float | None = None  # the database has not heard us since

    @property
    def name(self) -> str:
        """This process, as ``K/N``."""
        return f"{self.index}/{self.processes}"

    async def claim(self, table_id: str) -> None:
        """A new table in play is stored with this process as its owner (nobody else can
        know its id yet), a waiting one with none: nothing to take."""

    async def _claim(self, table_id: str) -> int | None:
        try:
            return await asyncio.to_thread(self.lease.claim, table_id)
        except Exception as e:
            log.warning("cannot take table %s: %s", table_id, e)
            raise ProtocolError(
                "storage_error", "the server could not reach the database; try again", 503
            ) from None

    async def get(self, table_id: str) -> Table:
        t = self.tables.get(table_id) or self.finished.get(table_id)
        if t is not None:
            return t
        if not 0 < len(table_id) <= 32 or not all(c.isalnum() or c in "-_" for c in table_id):
            return await super().get(table_id)  # not_found
        pending = self._taking.get(table_id)
        if pending is None:  # one claim at a time per table: its epoch is the fence
            pending = asyncio.get_running_loop().create_task(self._take(table_id))
            self._taking[table_id] = pending
            pending.add_done_callback(lambda _: self._taking.pop(table_id, None))
        return await asyncio.shield(pending)

    async def _take(self, table_id: str) -> Table:
        epoch = await self._claim(table_id)
        if epoch is not None:
            self.store.fence(table_id, epoch)
            try:
                t = await super().get(table_id)
            except BaseException:
                if table_id not in self.tables:
                    self.store.unfence(table_id)
                    with contextlib.suppress(Exception):
                        await asyncio.to_thread(self.lease.give_up, table_id, epoch)
                raise
            if t.id in self.tables:
                OWNERSHIP.labels("taken").inc()
                log.info("table %s: owned by process %s (epoch %d)", t.id, self.name, epoch)
            else:  # finished meanwhile: nothing to own
                self.store.unfence(table_id)
            return t
        status = await asyncio.to_thread(_status, self.store, table_id)
        if status in ACTIVE:  # the usual case, answered without reading the whole table
            raise ProtocolError(
                "not_owner", f"table {table_id} is served by another server process", 503
            )
        stored = await asyncio.to_thread(self.store.load, table_id)
        if stored is None:
            raise ProtocolError("not_found", f"there is no table {table_id!r}", 404)
        if stored.problem is None and stored.status in ACTIVE:
            raise ProtocolError(
                "not_owner", f"table {table_id} is served by another server process", 503
            )
        t = self._build(stored)
        if t.status in ACTIVE:  # only a finished table is served by a non-owner
            raise ProtocolError(
                "not_owner", f"table {table_id} is served by another server process", 503
            )
        self._remember(t)
        return t

    def retire(self, table: Table) -> None:
        super().retire(table)
        if table.id not in self.tables:
            self.store.unfence(table.id)

    async def _expire(self, ids: list[str]) -> None:
        await super()._expire(ids)
        for i in ids:
            if i not in self.tables:
                self.store.unfence(i)

    def _unheld(self) -> Any:
        """A stored table with no owner or a silent one (no live process holds it)."""
        return tables_t.c.owner.is_(None) | ~self.lease.owner_live()

    def _asleep(self, t: Table) -> None:
        """A waiting table nobody is connected to is let go: any process takes it when
        someone comes to it."""
        epoch = self.store.fences().get(t.id)
        super()._asleep(t)
        self.store.unfence(t.id)
        if epoch is not None:
            self._let_go(t.id, epoch)

    async def recover(self) -> int:
        """Register this process (refusing to run beside a process of another layout),
        take the orphaned tables now (all of them at the first start), then keep its
        heartbeat and look for orphans while the server runs; the number taken now."""
        self._loop = asyncio.get_running_loop()
        await self._wait_for_the_way()
        await asyncio.to_thread(self.lease.register)
        self.store.on_fenced = self._fenced_out
        n = await self._adopt(everything=True)
        self._sweeper = self._loop.create_task(self._sweep())
        self._deadlines = self._loop.create_task(self._sweep_deadlines())
        self._beater = self._loop.create_task(self._beat_loop())
        self._adopter = self._loop.create_task(self._adopt_loop())
        return n

    async def _wait_for_the_way(self) -> None:
        end = time.monotonic() + self.config.lease + 1.0
        while True:
            blocking = await asyncio.to_thread(self.lease.in_the_way)
            if not blocking:
                return
            if time.monotonic() > end:
                raise StoreError(
                    f"process {self.name} cannot start beside "
                    + ", ".join(blocking)
                    + ": every process on one database runs with --shard K/N for the same N "
                    "(and a process without --shard runs alone), each K once"
                )
            await asyncio.sleep(0.25)

    # ------------------------------------------------------------------ liveness

    async def _beat_loop(self) -> None:
        every = self.config.lease / 5
        while True:
            await asyncio.sleep(every)
            before = self.store.fences()
            try:
                owned = await asyncio.to_thread(self.lease.beat)
            except Exception as e:
                OWNERSHIP.labels("heartbeat_failures").inc()
                if self.silent_since is None:  # one line per outage, not one per beat
                    self.silent_since = time.monotonic()
                    log.error("process %s cannot renew its heartbeat: %s", self.name, e)
                continue
            if self.silent_since is not None:
                log.warning(
                    "process %s renewed its heartbeat again after %.1f s",
                    self.name,
                    time.monotonic() - self.silent_since,
                )
                self.silent_since = None
            self._check(before, owned)

    def _check(self, before: dict[str, int], owned: dict[str, int]) -> None:
        """Drop every table the database no longer says this process owns at the epoch it
        took it at (only those taken before the heartbeat's look: a table taken meanwhile
        is judged at the next one)."""
        now = self.store.fences()
        for table_id, epoch in before.items():
            if now.get(table_id) == epoch and owned.get(table_id) != epoch:
                t = self.tables.get(table_id)
                if t is not None and t.status in ACTIVE:
                    self._drop(table_id, "another process has taken it")
        # tables stored as ours that we do not serve (a load that failed, a creation whose
        # caller went away): let them go once seen twice, so that they are never stuck
        strays = {i for i in owned if i not in before and i not in now and i not in self._taking}
        for table_id in strays & self._strays:
            self._let_go(table_id, owned[table_id])
        self._strays = strays

    def _let_go(self, table_id: str, epoch: int) -> None:
        async def give_up() -> None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.lease.give_up, table_id, epoch)

        task = asyncio.get_running_loop().create_task(give_up())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _fenced_out(self, table_id: str) -> None:
        """From the store's writer: a write about this table was refused."""
        OWNERSHIP.labels("refused_writes").inc()
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._drop, table_id, "a write was refused")

    def _drop(self, table_id: str, why: str) -> None:
        t = self.tables.pop(table_id, None)
        self.store.unfence(table_id)
        if t is None:
            return
        OWNERSHIP.labels("dropped").inc()
        log.warning("table %s: process %s no longer serves it (%s)", table_id, self.name, why)
        for conn in t.connections():
            conn.close(1012)
        t.close()

    # ------------------------------------------------------------------ adoption

    async def _adopt_loop(self) -> None:
        every = self.config.adopt_interval
        while True:
            await asyncio.sleep(every * random.uniform(0.75, 1.25))
            if self.silent_since is not None:
                continue  # our own tables may be orphans to the others right now
            try:
                await self._adopt()
            except Exception as e:  # the database is away: look again later
                log.debug("process %s could not look for orphaned tables: %s", self.name, e)

    async def _adopt(self, everything: bool = False) -> int:
        orphans = await asyncio.to_thread(self.lease.orphans)
        now = set(orphans)
        take = [
            i
            for i in orphans
            if everything or home(i, self.processes) == self.index or i in self._seen
        ]
        self._seen = now - set(take)
        n = 0
        for i in take[:ADOPT_PER_LOOK]:
            if i in self.tables:
                continue
            try:
                t = await self.get(i)
            except ProtocolError:
                continue  # another process took it first, or it finished meanwhile
            if t.id in self.tables:
                n += 1
        if n:
            log.info("process %s took %d orphaned tables", self.name, n)
        return n

    def owned(self) -> list[str]:
        return sorted(self.tables)

    def close(self) -> None:
        """Stop, let queued writes land, then let every table go (the other processes take
        them at their next look)."""
        for task in (self._adopter, self._beater):
            if task is not None:
                task.cancel()
        super().close()
        self.store.close()
        try:
            self.lease.retire()
        except Exception as e:
            log.warning("process %s could not let its tables go: %s", self.name, e)


def _status(store: Store, table_id: str) -> str | None:
    with store.engine.connect() as conn:
        row = conn.execute(select(tables_t.c.status).where(tables_t.c.id == table_id)).first()
    return None if row is None else str(row[0])
