"""Several server processes over one PostgreSQL database: which process owns which table.

``dragonlair serve --shard K/N`` runs process K of N. Every table in play (or waiting for
players) is owned by exactly one process at a time, and only its owner keeps it in memory,
applies its actions, runs its timers and bots, and serves its WebSockets. Ownership is a
PostgreSQL **session advisory lock** on a 64-bit key derived from the table id, held on
one connection of the owning process (:class:`Owner`):

- a lock is held by one session at most, so two processes can never own a table at once;
- a process that dies (SIGKILL, a crash, a lost machine) loses its session and with it
  every lock at once: nothing has to expire, and the tables are free the moment
  PostgreSQL sees the connection close;
- a lock is taken *before* the table is read from storage, so the new owner replays every
  action its previous owner committed (and nothing was acknowledged before it was
  committed).

A process takes a table when a request for it arrives (:meth:`SharedHub.get`) or when it
finds the table orphaned: every ``adopt_interval`` seconds each process lists the
unfinished tables whose lock nobody holds (one query on ``pg_locks``) and takes them,
those whose *home* (a hash of the id modulo N) is this process at once and the others when
they are still orphaned at the next look, so the tables of a dead process spread over the
live ones and even a table with only bots at it plays on within seconds.

A request for a table another process owns is answered ``503 not_owner`` (a WebSocket is
refused the same way, before its upgrade); the reverse proxy then tries the next process
(``proxy_next_upstream http_503`` in ``deploy/nginx/``), so a table always reaches its
owner, whichever process the proxy tried first. The lobby (listing, creating) is answered
by any process from the database. Finished tables need no owner: their records are read
from storage by whichever process is asked.

If this process loses its own lock session (PostgreSQL restarted, the connection cut),
it drops every table it held at the next look (their connections are closed with 1012,
and clients reconnect through the proxy to the new owner).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import threading
from typing import Any

import psycopg
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from ..core import DragonlairError
from ..core import spec as game_spec
from .bots import BotRunner
from .config import ServerConfig
from .lobby import Hub
from .protocol import (
    Fairness,
    ProtocolError,
    SeatInfo,
    TableInfo,
    TableSettings,
)
from .session import Table
from .store import Store, actions_t, seats_t, tables_t

log = logging.getLogger("dragonlair.web.ownership")

ACTIVE = ("waiting", "playing")
ADOPT_PER_LOOK = 200


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` as (K, N), 1 <= K <= N; ValueError saying what is expected."""
    k, sep, n = text.partition("/")
    if not sep or not k.strip().isdigit() or not n.strip().isdigit():
        raise ValueError(f"a shard is K/N, e.g. 2/3 (process 2 of 3), not {text!r}")
    kk, nn = int(k), int(n)
    if not 1 <= kk <= nn:
        raise ValueError(f"a shard K/N needs 1 <= K <= N, not {text!r}")
    return kk, nn


def lock_key(table_id: str) -> int:
    """The advisory lock key of a table: 64 bits of SHA-256, as PostgreSQL's signed bigint."""
    h = hashlib.sha256(f"dragonlair-table:{table_id}".encode()).digest()[:8]
    return int.from_bytes(h, "big", signed=True)


def home(table_id: str, processes: int) -> int:
    """The process (1..N) that adopts an orphaned table first."""
    h = hashlib.sha256(table_id.encode()).digest()
    return int.from_bytes(h[:4], "big") % processes + 1


class Owner:
    """The advisory locks this process holds, on its own PostgreSQL session.

    Every call blocks (run it in a thread); calls are serialized on one connection."""

    def __init__(self, url: str) -> None:
        u = make_url(url)
        self.url = u.set(drivername="postgresql").render_as_string(hide_password=False)
        self._conn: psycopg.Connection[Any] | None = None
        self._mutex = threading.Lock()
        self.held: set[str] = set()

    def _session(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed:
            if self.held:
                raise OwnershipLost("the lock session was lost with its locks")
            self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=5)
        return self._conn

    def _fail(self) -> None:
        """After an error: forget the session only if it is gone (an error inside a live
        session, such as PostgreSQL's lock table being full, keeps every lock held)."""
        if self._conn is not None and not self._conn.closed and not self._conn.broken:
            return
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def try_acquire(self, table_id: str) -> bool:
        """Take the table if nobody holds it (True also if this process already does)."""
        with self._mutex:
            if table_id in self.held:
                return True
            try:
                row = (
                    self._session()
                    .execute("SELECT pg_try_advisory_lock(%s)", (lock_key(table_id),))
                    .fetchone()
                )
            except psycopg.Error:
                self._fail()
                raise
            if row is not None and row[0]:
                self.held.add(table_id)
                return True
            return False

    def release(self, table_id: str) -> None:
        """Let the table go (its game is over, or it expired)."""
        with self._mutex:
            if table_id not in self.held:
                return
            self.held.discard(table_id)
            try:
                self._session().execute("SELECT pg_advisory_unlock(%s)", (lock_key(table_id),))
            except psycopg.Error:
                self._fail()

    def orphans(self) -> list[str]:
        """Unfinished tables whose lock nobody holds (a dead process's, or never taken);
        OwnershipLost if this process's own session was lost."""
        with self._mutex:
            try:
                conn = self._session()
                ids = [
                    r[0]
                    for r in conn.execute(
                        "SELECT id FROM dl_tables WHERE status IN ('waiting', 'playing') "
                        "ORDER BY created"
                    )
                ]
                locked = {
                    (int(c) << 32) | int(o)
                    for c, o in conn.execute(
                        "SELECT classid::int8, objid::int8 FROM pg_locks "
                        "WHERE locktype = 'advisory' AND objsubid = 1 AND granted "
                        "AND database = (SELECT oid FROM pg_database "
                        "WHERE datname = current_database())"
                    )
                }
            except psycopg.Error as e:
                self._fail()
                if self._conn is None and self.held:
                    raise OwnershipLost(f"the lock session failed: {e}") from None
                raise
        return [i for i in ids if lock_key(i) & 0xFFFF_FFFF_FFFF_FFFF not in locked]

    def reset(self) -> None:
        """Forget every lock and close the session (which releases them all)."""
        with self._mutex:
            self.held.clear()
            conn, self._conn = self._conn, None
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()

    def close(self) -> None:
        """Close the session: PostgreSQL releases every lock it held."""
        self.reset()


class OwnershipLost(Exception):
    """This process's lock session ended, and with it every table it owned."""


class SharedHub(Hub):
    """The lobby service of one of several processes sharing a PostgreSQL database."""

    shared = True

    def __init__(self, config: ServerConfig, store: Store, bots: BotRunner) -> None:
        super().__init__(config, store, bots)
        if store.sqlite:
            raise ValueError("several server processes need PostgreSQL, not SQLite")
        assert config.shard is not None
        self.index, self.processes = parse_shard(config.shard)
        self.owner = Owner(store.url)
        self._adopter: asyncio.Task[None] | None = None
        self._seen: set[str] = set()
        self._releases: set[asyncio.Task[None]] = set()

    @property
    def name(self) -> str:
        """This process, as ``K/N``."""
        return f"{self.index}/{self.processes}"

    async def claim(self, table_id: str) -> None:
        """Own a new table before it is stored (nobody else can know its id yet)."""
        if not await self._try_acquire(table_id):
            raise ProtocolError("storage_error", "the server could not take the new table", 503)

    async def _try_acquire(self, table_id: str) -> bool:
        try:
            return await asyncio.to_thread(self.owner.try_acquire, table_id)
        except (psycopg.Error, OwnershipLost) as e:
            log.error("cannot take table %s: %s", table_id, e)
            raise ProtocolError(
                "storage_error", "the server could not reach the database; try again", 503
            ) from None

    async def get(self, table_id: str) -> Table:
        t = self.tables.get(table_id) or self.finished.get(table_id)
        if t is not None:
            return t
        if not 0 < len(table_id) <= 32 or not all(c.isalnum() or c in "-_" for c in table_id):
            return await super().get(table_id)  # not_found
        if await self._try_acquire(table_id):
            try:
                t = await super().get(table_id)
            except BaseException:
                if table_id not in self.tables:
                    await asyncio.to_thread(self.owner.release, table_id)
                raise
            if t.id in self.tables:
                log.info("table %s: owned by process %s", t.id, self.name)
            else:  # finished: nothing to own
                await asyncio.to_thread(self.owner.release, table_id)
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
            self._let_go([table.id])

    async def _expire(self, ids: list[str]) -> None:
        await super()._expire(ids)
        self._let_go([i for i in ids if i not in self.tables])

    def _let_go(self, ids: list[str]) -> None:
        async def release() -> None:
            for i in ids:
                await asyncio.to_thread(self.owner.release, i)

        task = asyncio.get_running_loop().create_task(release())
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    async def recover(self) -> int:
        """Take the orphaned tables now (all of them at the first start), then keep looking
        for orphans while the server runs; the number taken now."""
        n = await self._adopt(everything=True)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self._adopter = asyncio.get_running_loop().create_task(self._adopt_loop())
        return n

    async def _adopt_loop(self) -> None:
        every = self.config.adopt_interval
        while True:
            await asyncio.sleep(every * random.uniform(0.75, 1.25))
            try:
                await self._adopt()
            except OwnershipLost as e:
                self._drop_all(str(e))
            except Exception as e:  # the database is away: look again later
                log.warning("process %s could not look for orphaned tables: %s", self.name, e)

    async def _adopt(self, everything: bool = False) -> int:
        orphans = await asyncio.to_thread(self.owner.orphans)
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

    def _drop_all(self, why: str) -> None:
        """This process no longer owns anything: stop serving every table it held."""
        log.error("process %s lost its tables (%s); dropping %d", self.name, why, len(self.tables))
        for t in list(self.tables.values()):
            for conn in t.connections():
                conn.close(1012)
            t.close()
        self.tables.clear()
        self.owner.reset()

    async def listing(
        self, status: str | None, game: str | None, limit: int, offset: int = 0
    ) -> tuple[list[TableInfo], int]:
        """The lobby's listing from the database: every process's tables."""
        rows, total, seats, moves = await asyncio.to_thread(
            _listed_rows, self.store, status, game, limit, offset
        )
        out = []
        for r in rows:
            local = self.tables.get(r["id"])
            out.append(
                local.info()
                if local is not None
                else _info(r, seats.get(r["id"], []), moves.get(r["id"], 0), self.config)
            )
        return out, total

    def owned(self) -> list[str]:
        return sorted(self.tables)

    def close(self) -> None:
        """Stop, let queued writes land, then close the lock session (releasing every
        table only once its last action is stored)."""
        if self._adopter is not None:
            self._adopter.cancel()
        super().close()
        self.store.close()
        self.owner.close()


def _status(store: Store, table_id: str) -> str | None:
    with store.engine.connect() as conn:
        row = conn.execute(select(tables_t.c.status).where(tables_t.c.id == table_id)).first()
    return None if row is None else str(row[0])


def _listed_rows(
    store: Store, status: str | None, game: str | None, limit: int, offset: int
) -> tuple[list[dict[str, Any]], int, dict[str, list[dict[str, Any]]], dict[str, int]]:
    q = select(tables_t).where(tables_t.c.status.in_(ACTIVE)).order_by(tables_t.c.created)
    if status is not None:
        q = q.where(tables_t.c.status == status)
    if game is not None:
        q = q.where(tables_t.c.game == game)
    with store.engine.connect() as conn:
        found = [
            dict(r)
            for r in conn.execute(q).mappings()
            if isinstance(r["settings"], dict) and r["settings"].get("listed", True)
        ]
        page = found[offset : offset + limit]
        ids = [r["id"] for r in page]
        seats: dict[str, list[dict[str, Any]]] = {}
        moves: dict[str, int] = {}
        if ids:
            for s in conn.execute(
                select(seats_t).where(seats_t.c.table_id.in_(ids)).order_by(seats_t.c.seat)
            ).mappings():
                seats.setdefault(s["table_id"], []).append(dict(s))
            for tid, count in conn.execute(
                select(actions_t.c.table_id, func.count())
                .where(actions_t.c.table_id.in_(ids))
                .group_by(actions_t.c.table_id)
            ):
                moves[tid] = int(count)
    return page, len(found), seats, moves


def _info(
    r: dict[str, Any], seats: list[dict[str, Any]], move: int, config: ServerConfig
) -> TableInfo:
    """A listed table another process owns, as the database describes it (who is
    connected and who is asked are known to its owner only)."""
    st = r["settings"]
    try:
        name = game_spec(r["game"]).name
    except DragonlairError:
        name = r["game"]
    return TableInfo(
        id=r["id"],
        game=r["game"],
        name=name,
        players=r["players"],
        options=dict(r["options"] or {}),
        status=r["status"],
        move=move,
        to_act=[],
        seats=[
            SeatInfo(
                seat=s["seat"],
                kind=s["kind"],
                name=s["name"],
                level=s["level"],
                connected=False,
                connections=0,
                bot_playing=False,
            )
            for s in seats
        ],
        settings=TableSettings(
            deadline=float(st.get("deadline", config.deadline)),
            away=None if st.get("away") is None else float(st["away"]),
            takeover=st.get("takeover"),
            listed=bool(st.get("listed", True)),
            hints=bool(st.get("hints", False)),
            undo=bool(st.get("undo", False)),
            position=st.get("title") if st.get("position") is not None else None,
        ),
        created=r["created"],
        fairness=Fairness(
            commitment=r["commitment"], revealed=None, chosen_seed=r["commitment"] is None
        ),
        expires=r["created"] + config.waiting_ttl if r["status"] == "waiting" else None,
        problem=None,
    )
