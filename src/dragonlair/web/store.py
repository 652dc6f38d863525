"""Storage: tables, seats and every accepted action, in SQLite or PostgreSQL.

We use SQLAlchemy Core (not its ORM): one schema and one set of statements serve SQLite
(the default, an embedded file) and PostgreSQL (``postgresql://`` URLs, through psycopg 3)
alike, so both are the same code path and the tests run it against both.

What is stored is what a game needs to be rebuilt, never a snapshot of its state: the
table's game, rules version, player count, options and seed, its seats, and its actions in
order (``[seat, "action text"]`` with the move number as part of the primary key, so an
action can never be stored twice). ``dragonlair.replay`` turns those back into the exact
state after a restart, and a finished table's rows are its record.

**Every write is committed before anyone hears of it.** All writes go through one writer
thread (SQLite allows one writer at a time anyway) that practises *group commit*: it takes
every write waiting in its queue, runs them in one transaction, commits once, and only then
resolves each caller's future. Under load many tables' actions share a commit (and one
fsync), so durability costs little throughput; when the server is quiet a batch is a
single action and is committed at once. If a batch fails, its writes are retried one by
one so that one bad write cannot take others down with it.

SQLite runs in WAL mode (readers never block the writer) with ``synchronous=FULL`` by
default: the log is synced on every commit, so a committed action survives a power cut;
``NORMAL`` survives any crash of the server process, kill -9 included, and is faster.

**Seeds are sealed** until the game ends: an unfinished table's seed and salt are stored
only as a Fernet token (:class:`~dragonlair.web.security.Sealer`, its key outside the
database), and written in clear, with the result, by the commit of the last action.

**A damaged table never stops the server**: a table whose rows cannot be read or do not
fit together (a gap in its moves, options that are not JSON, a seat row missing, a
person's seat without a token, a seed sealed with another key) is loaded as a
:class:`StoredTable` with its ``problem`` set, and the server marks it broken.

**A locked database** (another process holding a write lock) makes a write wait at most
``lock_timeout`` seconds; the batch then fails at once (its writes are not retried one by
one, which would wait again), so the action is refused with ``storage_error`` in bounded
time and nothing is half-stored.
"""

from __future__ import annotations

import hashlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from cryptography.fernet import Fernet
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    inspect,
    select,
    text,
    true,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from .chat import StoredChat
from .logs import storage_outage
from .security import Sealer, SealError

log = logging.getLogger("dragonlair.web.store")

metadata = MetaData()

tables_t = Table(
    "dl_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("rules_version", Integer, nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    # in clear once the game is over; before that only inside ``sealed``
    Column("seed", BigInteger, nullable=True),
    Column("salt", String(32), nullable=True),
    Column("sealed", LargeBinary, nullable=True),
    Column("commitment", String(64), nullable=True),
    Column("settings", JSON, nullable=False),
    Column("watch_hash", LargeBinary(32), nullable=False),
    Column("status", String(16), nullable=False),
    Column("created", Float, nullable=False),
    Column("result", JSON, nullable=True),
    # several processes: the process serving the table and its fencing epoch (ownership.py)
    Column("owner", String(40), nullable=True),
    Column("epoch", Integer, nullable=False, server_default="0"),
    # shown in the lobby's listing (the table's ``listed`` setting, kept here for its index)
    Column("listed", Boolean, nullable=False, server_default=true()),
    # a turn-based table: when the move asked now must have been made (Unix seconds; None:
    # nothing is due), swept by its partial index (dragonlair.web.table.deadlines)
    Column("due", Float, nullable=True),
    # a turn-based table: when it ends as abandoned unless a person makes a move first
    # (Unix seconds), swept by its partial index (dragonlair.web.table.votes)
    Column("abandons", Float, nullable=True),
    # a turn-based table: its players' open vote to end it, or how it ended as abandoned
    # (dragonlair.web.table.votes)
    Column("vote", JSON, nullable=True),
    # a table waiting for players: the keyed digest of the address that created it
    # (Sealer.tag), counted against the per-address cap in the transaction of the insert
    Column("creator", String(32), nullable=True),
    # a finished table's rematch, once one was asked for: {"table": its id, "by": the seat
    # that asked}, so that any process tells a seat reconnecting to it (table/rematch.py)
    Column("rematch", JSON, nullable=True),
)

ACTIVE = ("waiting", "playing")
FINISHED = ("over", "expired", "abandoned")
# The sweeps (orphaned tables, waiting tables to expire, the lobby's listing) look only at
# unfinished tables: a partial index keeps them cheap however many finished tables there are.
active_index = Index(
    "dl_tables_active",
    tables_t.c.status,
    tables_t.c.created,
    postgresql_where=tables_t.c.status.in_(ACTIVE),
    sqlite_where=tables_t.c.status.in_(ACTIVE),
)
# the lobby's listing (several processes): listed unfinished tables in creation order
listed_index = Index(
    "dl_tables_listed",
    tables_t.c.created,
    postgresql_where=and_(tables_t.c.status.in_(ACTIVE), tables_t.c.listed),
    sqlite_where=and_(tables_t.c.status.in_(ACTIVE), tables_t.c.listed),
)
# the deadline sweep: tables in play with a deadline, soonest first
due_index = Index(
    "dl_tables_due",
    tables_t.c.due,
    postgresql_where=and_(tables_t.c.status == "playing", tables_t.c.due.is_not(None)),
    sqlite_where=and_(tables_t.c.status == "playing", tables_t.c.due.is_not(None)),
)
# the idle sweep: turn-based tables in play that end as abandoned when nobody moves
abandons_index = Index(
    "dl_tables_abandons",
    tables_t.c.abandons,
    postgresql_where=and_(tables_t.c.status == "playing", tables_t.c.abandons.is_not(None)),
    sqlite_where=and_(tables_t.c.status == "playing", tables_t.c.abandons.is_not(None)),
)
# the per-address cap: the waiting tables an address created
WAITING_BY_CREATOR = and_(tables_t.c.status == "waiting", tables_t.c.creator.is_not(None))
creator_index = Index(
    "dl_tables_waiting_creator",
    tables_t.c.creator,
    postgresql_where=WAITING_BY_CREATOR,
    sqlite_where=WAITING_BY_CREATOR,
)
# retention: finished tables older than a given time
created_index = Index("dl_tables_created", tables_t.c.created)

# Several processes over PostgreSQL: one row per running process, its heartbeat in the
# database's clock (seconds since the epoch); see dragonlair.web.ownership.
processes_t = Table(
    "dl_processes",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("name", String(32), nullable=False),
    Column("processes", Integer, nullable=False),
    Column("started", Float, nullable=False),
    Column("beat", Float, nullable=False),
)

seats_t = Table(
    "dl_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("dl_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("level", String(32), nullable=True),
    Column("budget", JSON, nullable=True),
    Column("token_hash", LargeBinary(32), nullable=True),
    # the account of the person who plays the seat (None: a guest, a bot, an open seat)
    Column("account_id", String(32), nullable=True),
    # a person's time bank: the seconds they may still be away (None: full, or no bank)
    Column("bank", Float, nullable=True),
    # the move its player conceded at (None: did not concede; dragonlair.web.concede)
    Column("conceded", Integer, nullable=True),
)
seats_account_index = Index("dl_seats_account", seats_t.c.account_id)

actions_t = Table(
    "dl_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("dl_tables.id"), primary_key=True),
    Column("move", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(200), nullable=False),
    Column("at", Float, nullable=False),
)

# Chat at a table (dragonlair.web.chat): text only, in the order it was said.
chat_t = Table(
    "dl_chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("dl_tables.id"), nullable=False),
    Column("seat", Integer, nullable=True),  # None: a spectator
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    # a spectator's message at a table where spectators chat apart: for spectators only
    Column("apart", Boolean, nullable=False),
    Column("at", Float, nullable=False),
    # a quick phrase's id (dragonlair.web.chat.PHRASES; its text is then empty)
    Column("phrase", String(32), nullable=True),
    # hidden by the operator (dragonlair.web.reports): never sent again
    Column("hidden", Boolean, nullable=False, server_default=false()),
)
chat_index = Index("dl_chat_table", chat_t.c.table_id, chat_t.c.id)

# Chat messages reported to the operator (dragonlair.web.reports), one row per report.
reports_t = Table(
    "dl_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("chat_id", Integer, ForeignKey("dl_chat.id"), nullable=False),
    Column("table_id", String(32), ForeignKey("dl_tables.id"), nullable=False),
    Column("seat", Integer, nullable=True),  # who reported it: a seat, or None: a spectator
    Column("name", String(64), nullable=False),
    Column("at", Float, nullable=False),
    # None while open; "hidden" (the operator hid the message) or "dismissed"
    Column("outcome", String(16), nullable=True),
)
reports_open_index = Index("dl_reports_open", reports_t.c.outcome, reports_t.c.id)

# E-mail waiting to be sent, and what was sent (dragonlair.web.mail): one row a message.
# ``kind`` is "verify" (an address's verification link: ``account_id`` and ``address``),
# "turn" (a person's seat is asked at a turn-based table: ``table_id``, ``seat`` and the
# move's deadline ``due``) or "reminder" (that move's deadline is near). A "turn" row is
# written in the same commit as the action (or deadline) that asks the seat, so a restart
# never loses it; one whose seat was asked already is written "quiet" (never sent: it only
# carries the reminder's time, ``remind_at``). ``status``: pending, sent, dropped (nobody
# to send it to: no verified, consenting address), failed (the SMTP server refused it),
# quiet. A process sends a pending row only after claiming it (``claimed_by`` and
# ``claimed_until``) in a transaction of its own, so no two processes send the same row.
outbox_t = Table(
    "dl_outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),
    Column("status", String(8), nullable=False),
    Column("account_id", String(32), nullable=True),
    Column("address", String(254), nullable=True),
    Column("table_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("due", Float, nullable=True),
    Column("remind_at", Float, nullable=True),
    Column("created", Float, nullable=False),
    Column("claimed_by", String(40), nullable=True),
    Column("claimed_until", Float, nullable=True),
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("sent", Float, nullable=True),
    Column("error", String(200), nullable=True),
)
# one message of a kind per seat and deadline, however many processes write it
outbox_once_index = Index(
    "dl_outbox_once",
    outbox_t.c.kind,
    outbox_t.c.table_id,
    outbox_t.c.seat,
    outbox_t.c.due,
    unique=True,
)
# the sender's look: pending rows in order
outbox_pending_index = Index(
    "dl_outbox_pending",
    outbox_t.c.id,
    postgresql_where=outbox_t.c.status == "pending",
    sqlite_where=outbox_t.c.status == "pending",
)
# the reminders' look: deadlines whose reminder time has come
outbox_remind_index = Index(
    "dl_outbox_remind",
    outbox_t.c.remind_at,
    postgresql_where=outbox_t.c.remind_at.is_not(None),
    sqlite_where=outbox_t.c.remind_at.is_not(None),
)


SQLITE_SYNC = ("FULL", "NORMAL", "EXTRA")
BATCH = 512


class StoreError(Exception):
    """Storage could not be opened, or a write could not be committed."""


class TooManyWaiting(StoreError):
    """A new waiting table refused: its creator's address has ``count`` tables waiting,
    the cap given to :meth:`Store.create_table`."""

    def __init__(self, count: int, cap: int) -> None:
        super().__init__(f"{count} waiting tables from this address (at most {cap})")
        self.count = count
        self.cap = cap


class FencedOut(StoreError):
    """A write about a table this process no longer owns: nothing of it was stored."""


@dataclass
class StoredSeat:
    """A seat as stored (the token only as its digest)."""

    seat: int
    kind: str
    name: str
    level: str | None = None
    budget: dict[str, Any] | None = None
    token_hash: bytes | None = None
    account: str | None = None
    bank: float | None = None  # a person's time bank left (None: full)
    conceded: int | None = None  # the move its player conceded at
    # the account's name, for a link to its profile: read with the seat, never written
    profile: str | None = None


def account_names(conn: Connection, ids: Collection[str]) -> dict[str, str]:
    """The names of the accounts ``ids`` that still exist (a deleted one has no name to
    link to), for the links to their profiles."""
    if not ids:
        return {}
    # dragonlair.web.accounts.schema defines it on this module's metadata (imported with
    # the server; named here, not imported, as that module builds on this one)
    accounts_t = metadata.tables["dl_accounts"]
    rows = conn.execute(
        select(accounts_t.c.id, accounts_t.c.name).where(
            accounts_t.c.id.in_(set(ids)), accounts_t.c.deleted.is_(None)
        )
    ).all()
    return {r[0]: r[1] for r in rows}


@dataclass
class StoredTable:
    """A table as stored: enough to rebuild its game by replaying its actions."""

    id: str
    game: str
    rules_version: int
    players: int
    options: dict[str, Any]
    seed: int
    settings: dict[str, Any]
    watch_hash: bytes
    status: str
    created: float
    result: dict[str, Any] | None = None
    seats: list[StoredSeat] = field(default_factory=list)
    actions: list[tuple[int, str]] = field(default_factory=list)
    salt: str | None = None  # None: the creator chose the seed
    commitment: str | None = None
    problem: str | None = None  # why the stored table cannot be rebuilt
    due: float | None = None  # a turn-based table's deadline (Unix seconds)
    abandons: float | None = None  # when a turn-based table ends as abandoned if idle
    vote: dict[str, Any] | None = None  # its open vote to end, or how it ended abandoned
    creator: str | None = None  # a waiting table: its creating address's tag
    rematch: dict[str, Any] | None = None  # a finished table's rematch: {"table", "by"}


DAMAGED_SETTINGS = {"deadline": 15.0, "away": None, "takeover": None, "listed": False}


@dataclass
class _Op:
    future: Future[None]
    row: dict[str, Any] | None = None  # an action row (batched with its neighbours)
    run: Callable[[Connection], None] | None = None  # anything else
    tables: tuple[str, ...] = ()  # the tables it writes about (fenced when owned)
    # taken before any write of the batch: PostgreSQL's advisory locks (in order, for the
    # transaction); on SQLite, any of them takes the database's write lock
    locks: tuple[int, ...] = ()
    refusal: Exception | None = None  # set by ``run``: it stored nothing, and why


def _resolve(future: Future[None], error: Exception | None) -> None:
    """Settle a write's future; one its caller cancelled is left alone (the writer must
    never die of it)."""
    if future.cancelled():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


def normalize_url(url: str) -> str:
    """The SQLAlchemy URL to use: ``postgresql://`` gets the psycopg 3 driver we ship with."""
    try:
        u = make_url(url)
    except Exception as e:
        raise StoreError(
            f"not a database URL: {url!r} ({e}); expected sqlite:///path or postgresql://..."
        ) from None
    if u.drivername == "postgresql":
        u = u.set(drivername="postgresql+psycopg")
    if u.get_backend_name() not in ("sqlite", "postgresql"):
        raise StoreError(
            f"unsupported database {u.get_backend_name()!r}; expected sqlite or postgresql"
        )
    if u.get_backend_name() == "sqlite" and u.database in (None, "", ":memory:"):
        raise StoreError("an SQLite database must be a file (sqlite:///path/to/file.sqlite3)")
    return u.render_as_string(hide_password=False)


class Store:
    """The tables, seats and actions of one server; writes go through the writer thread."""

    def __init__(
        self,
        url: str,
        sqlite_sync: str = "FULL",
        sealer: Sealer | None = None,
        lock_timeout: float = 5.0,
        on_finish: Callable[[Connection, str, Sequence[int]], object] | None = None,
    ) -> None:
        if sqlite_sync.upper() not in SQLITE_SYNC:
            raise StoreError(f"sqlite_sync must be one of {', '.join(SQLITE_SYNC)}")
        if not lock_timeout > 0:
            raise StoreError(f"the lock timeout must be positive, not {lock_timeout}")
        self.url = normalize_url(url)
        self.sqlite = self.url.startswith("sqlite")
        # without a key file the seal lasts as long as this process (tests and tools)
        self.sealer = sealer or Sealer(Fernet.generate_key())
        self.lock_timeout = lock_timeout
        # what else a table's end changes, in the same commit as the result (the server
        # hands in its ratings: dragonlair.web.ratings.rate_finished)
        self.on_finish = on_finish
        kwargs: dict[str, Any] = {}
        ms = max(1, int(lock_timeout * 1000))
        if self.sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": lock_timeout}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.sqlite:
            sync = sqlite_sync.upper()

            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute(f"PRAGMA busy_timeout={ms}")
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute(f"PRAGMA synchronous={sync}")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()

        else:

            @event.listens_for(self.engine, "connect")
            def _timeouts(dbapi_conn: Any, _record: Any) -> None:
                with dbapi_conn.cursor() as cur:
                    cur.execute(f"SET lock_timeout = {ms}")
                    # a transaction left open (its process paused) must not hold a table's
                    # row for long: PostgreSQL ends such a session, and its locks with it
                    cur.execute(f"SET idle_in_transaction_session_timeout = {max(ms, 2000)}")
                dbapi_conn.commit()

        try:
            self._upgrade_legacy()
            self._migrate()
        except Exception as e:
            raise StoreError(f"cannot open the database {self.describe()}: {e}") from None
        # several processes: this process's id, and the epoch of each table it owns
        self.process: str | None = None
        self._fences: dict[str, int] = {}
        self._fence_mutex = threading.Lock()
        self.on_fenced: Callable[[str], None] | None = None
        self._queue: queue.SimpleQueue[_Op | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._writer, name="dragonlair-store", daemon=True)
        self._thread.start()
        self.commits = 0
        self.writes = 0
        self.forgotten = 0  # tables deleted by the last forget_finished
        self.expired = 0  # tables expired by the last expire_waiting

    def _migrate(self) -> None:
        """Create or bring the schema up to date with its migrations
        (:mod:`dragonlair.web.migrations`), once even when several processes start
        together: on PostgreSQL under a transaction-scoped advisory lock, so the others
        wait and then find the schema up to date."""
        from .migrations import migrate

        with self.engine.begin() as conn:
            if not self.sqlite:
                conn.execute(text("SELECT pg_advisory_xact_lock(7361246590812344)"))
            migrate(conn)

    def _upgrade_legacy(self) -> None:
        """Bring a database made before seeds were sealed (and before migrations) to the
        baseline schema: add the columns, let ``seed`` be empty, and seal the seeds of its
        unfinished games (which had no commitment, so they show as chosen seeds)."""
        names = set(inspect(self.engine).get_table_names())
        if "dl_tables" not in names or "alembic_version" in names:
            return
        cols = {c["name"]: c for c in inspect(self.engine).get_columns("dl_tables")}
        if "sealed" not in cols:
            log.warning("upgrading the database: seeds of unfinished games get sealed")
            with self.engine.begin() as conn:
                for column in ("salt", "sealed", "commitment"):
                    kind = tables_t.c[column].type.compile(dialect=self.engine.dialect)
                    conn.execute(text(f"ALTER TABLE dl_tables ADD COLUMN {column} {kind}"))
        if not cols["seed"]["nullable"]:
            if self.sqlite:
                self._rebuild_sqlite_tables()
            else:
                with self.engine.begin() as conn:
                    conn.execute(text("ALTER TABLE dl_tables ALTER COLUMN seed DROP NOT NULL"))
        with self.engine.begin() as conn:
            clear = conn.execute(
                select(tables_t.c.id, tables_t.c.seed).where(
                    tables_t.c.status != "over", tables_t.c.seed.is_not(None)
                )
            ).all()
            for table_id, seed in clear:
                conn.execute(
                    update(tables_t)
                    .where(tables_t.c.id == table_id)
                    .values(seed=None, sealed=self.sealer.seal({"seed": int(seed), "salt": None}))
                )

    def _rebuild_sqlite_tables(self) -> None:
        # SQLite cannot drop a NOT NULL: make the table anew and copy the rows over
        # (the procedure of https://www.sqlite.org/lang_altertable.html)
        baseline = [
            c
            for c in tables_t.columns
            if c.name
            not in ("owner", "epoch", "listed", "due", "abandons", "vote", "creator", "rematch")
        ]
        names = ", ".join(c.name for c in baseline)
        new = Table(
            "dl_tables_new",
            MetaData(),
            *(
                Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable)
                for c in baseline
            ),
        )
        copy = f"INSERT INTO dl_tables_new ({names}) SELECT {names} FROM dl_tables"
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")  # outside any transaction
            conn.commit()
            with conn.begin():
                new.create(conn)
                conn.execute(text(copy))
                conn.execute(text("DROP TABLE dl_tables"))
                conn.execute(text("ALTER TABLE dl_tables_new RENAME TO dl_tables"))
            conn.exec_driver_sql("PRAGMA foreign_keys=ON")
            conn.commit()

    def describe(self) -> str:
        """The database, without its password."""
        return make_url(self.url).render_as_string(hide_password=True)

    def close(self) -> None:
        """Finish the writes already queued, stop the writer and close connections."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        self.engine.dispose()

    # ------------------------------------------------------------------ writes

    def create_table(self, table: StoredTable, per_creator: int | None = None) -> Future[None]:
        """Store a new table and its seats. Several processes: a table in play is stored
        with this process as its owner; a table waiting for players with none (no process
        holds it in memory until someone comes to it, see ``dragonlair.web.ownership``).

        A waiting table with a ``creator`` is stored only while fewer than ``per_creator``
        tables of that creator wait (None: no cap); else nothing is stored and the future
        fails with :class:`TooManyWaiting`. The count and the insert share one transaction,
        and on PostgreSQL a transaction-scoped advisory lock keyed by the creator makes
        them one step for every process of the database: a second creation from the same
        address waits for the first one's commit, then counts it. (Under SERIALIZABLE the
        loser of a race fails at commit and needs a retry loop in the group commit, whose
        batch would carry other tables' writes down with it; the lock touches nothing else
        and is released by the commit. On SQLite the batch takes the database's write lock
        first, with a write that changes nothing, so the count is made under it.)"""
        capped = per_creator is not None and table.creator is not None
        owned = self.process is not None and table.status != "waiting"
        row = {
            "id": table.id,
            "game": table.game,
            "rules_version": table.rules_version,
            "players": table.players,
            "options": table.options,
            "seed": None,
            "salt": None,
            "sealed": self.sealer.seal({"seed": table.seed, "salt": table.salt}),
            "commitment": table.commitment,
            "settings": table.settings,
            "watch_hash": table.watch_hash,
            "status": table.status,
            "created": table.created,
            "result": None,
            "owner": self.process if owned else None,
            "epoch": 1 if owned else 0,
            "listed": table.settings.get("listed", True) is not False,
            "due": table.due,
            "abandons": table.abandons,
            "creator": table.creator,
        }
        seats = [
            {
                "table_id": table.id,
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "level": s.level,
                "budget": s.budget,
                "token_hash": s.token_hash,
                "account_id": s.account,
            }
            for s in table.seats
        ]

        def run(conn: Connection) -> None:
            op.refusal = None  # (a batch that failed runs it again, alone)
            if capped and per_creator is not None:
                waiting = conn.execute(
                    select(func.count())
                    .select_from(tables_t)
                    .where(WAITING_BY_CREATOR, tables_t.c.creator == table.creator)
                ).scalar_one()
                if waiting >= per_creator:
                    op.refusal = TooManyWaiting(int(waiting), per_creator)
                    return
            conn.execute(insert(tables_t), row)
            conn.execute(insert(seats_t), seats)

        locks = (creator_lock(table.creator),) if capped and table.creator else ()
        op = _Op(Future(), run=run, locks=locks)
        if owned:
            # stored with this process as its owner at epoch 1 (nobody else can know the new
            # table's id yet); fenced from the commit on, before anyone hears of the table
            def fence(f: Future[None]) -> None:
                if not f.cancelled() and f.exception() is None:
                    self.fence(table.id, 1)

            op.future.add_done_callback(fence)
        return self._submit(op)

    def seat_taken(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: bytes,
        status: str,
        account: str | None = None,
    ) -> Future[None]:
        """Store that an open seat was taken (by ``account``'s player, if signed in) and
        the table's status after it."""

        def run(conn: Connection) -> None:
            conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(kind="human", name=name, token_hash=token_hash, account_id=account)
            )
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(status=status))

        return self._submit(_Op(Future(), run=run, tables=(table_id,)))

    def rename_seat(self, table_id: str, seat: int, name: str) -> Future[None]:
        """Store a person's new name for their seat."""

        def run(conn: Connection) -> None:
            conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(name=name)
            )

        return self._submit(_Op(Future(), run=run, tables=(table_id,)))

    def append(
        self,
        table_id: str,
        move: int,
        seat: int,
        action: str,
        result: dict[str, Any] | None,
        reveal: tuple[int, str | None] | None = None,
        due: tuple[float | None] | None = None,
        abandons: float | None = None,
        asked: Sequence[Asked] = (),
    ) -> Future[None]:
        """Store action number ``move``; with ``result``, the game ended with it, and its
        seed and salt (``reveal``) are stored in clear in the same commit; with ``due``
        (a turn-based table), the deadline of the move asked next, with ``abandons`` (a
        person's move there) when the table ends as abandoned if nobody moves again, and
        the "your turn" e-mail of each seat in ``asked``, in the same commit."""
        op = _Op(
            Future(),
            row={
                "table_id": table_id,
                "move": move,
                "seat": seat,
                "action": action,
                "at": time.time(),
            },
            tables=(table_id,),
        )
        if result is not None:
            op.run = self._finisher(table_id, result, reveal)
        if due is not None:
            then = op.run

            def set_due(conn: Connection) -> None:
                if then is not None:
                    then(conn)
                values: dict[str, Any] = {"due": due[0]}
                if abandons is not None:
                    values["abandons"] = abandons
                conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))
                _turn_mail(conn, table_id, due[0], asked)

            op.run = set_due
        return self._submit(op)

    def set_due(
        self,
        table_id: str,
        due: float | None,
        abandons: float | None = None,
        asked: Sequence[Asked] = (),
    ) -> Future[None]:
        """Store a turn-based table's deadline (None: nothing is due), with ``abandons``
        when it ends as abandoned if nobody moves, and the "your turn" e-mail of each seat
        in ``asked``."""
        values: dict[str, Any] = {"due": due}
        if abandons is not None:
            values["abandons"] = abandons

        def run(conn: Connection) -> None:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))
            _turn_mail(conn, table_id, due, asked)

        return self._submit(_Op(Future(), run=run, tables=(table_id,)))

    def set_vote(self, table_id: str, vote: dict[str, Any] | None) -> Future[None]:
        """Store a turn-based table's open vote to end it (None: no vote is open)."""

        def run(conn: Connection) -> None:
            conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id, tables_t.c.status == "playing")
                .values(vote=vote)
            )

        return self._submit(_Op(Future(), run=run, tables=(table_id,)))

    def set_rematch(self, table_id: str, rematch: dict[str, Any]) -> Future[None]:
        """Store where a finished table's rematch is (``{"table": id, "by": seat}``); the
        new seats' links are not stored here, only their tokens' digests at the new table."""

        def run(conn: Connection) -> None:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(rematch=rematch))

        return self._submit(_Op(Future(), run=run, tables=(table_id,)))

    def end_abandoned(self, table_id: str, vote: dict[str, Any]) -> Future[None]:
        """End a turn-based table in play as abandoned, without a result (never rated),
        with how it ended (``vote``: its players' vote, or the idle timeout)."""

        def run(conn: Connection) -> None:
            conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id, tables_t.c.status == "playing")
                .values(status="abandoned", vote=vote, due=None)
            )

        return self._submit(_Op(Future(), run=run, tables=(table_id,)))

    def idle_tables(self, now: float, limit: int = 500) -> list[str]:
        """The turn-based tables in play that nobody moved at long enough to end as
        abandoned at ``now``: one query over the partial index ``dl_tables_abandons``."""
        with self.engine.connect() as conn:
            return [
                r.id
                for r in conn.execute(
                    select(tables_t.c.id)
                    .where(
                        tables_t.c.status == "playing",
                        tables_t.c.abandons.is_not(None),
                        tables_t.c.abandons <= now,
                    )
                    .order_by(tables_t.c.abandons)
                    .limit(limit)
                )
            ]

    def due_tables(self, now: float, limit: int = 500) -> list[tuple[str, float]]:
        """The tables in play whose deadline has passed at ``now``, soonest first, with
        their deadlines: one query over the partial index ``dl_tables_due``."""
        with self.engine.connect() as conn:
            return [
                (r.id, float(r.due))
                for r in conn.execute(
                    select(tables_t.c.id, tables_t.c.due)
                    .where(
                        tables_t.c.status == "playing",
                        tables_t.c.due.is_not(None),
                        tables_t.c.due <= now,
                    )
                    .order_by(tables_t.c.due)
                    .limit(limit)
                )
            ]

    def _finisher(
        self, table_id: str, result: dict[str, Any], reveal: tuple[int, str | None] | None
    ) -> Callable[[Connection], None]:
        """The writes of a table's end: its status, result and seed in clear, and what the
        server's hook changes with them (its ratings), in one transaction."""
        values: dict[str, Any] = {"status": "over", "result": result}
        if reveal is not None:
            values.update(seed=reveal[0], salt=reveal[1], sealed=None)
        on_finish = self.on_finish

        def finish(conn: Connection) -> None:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))
            # a rated table's ratings change in the commit that stores its end (not a
            # game its result calls unrated: given up too early, dragonlair.web.concede)
            rated = result.get("ranks") is not None and not result.get("unrated")
            if on_finish is not None and rated:
                on_finish(conn, table_id, result["ranks"])

        return finish

    def concede(
        self,
        table_id: str,
        seat: int,
        move: int,
        result: dict[str, Any] | None,
        reveal: tuple[int, str | None] | None = None,
    ) -> Future[None]:
        """Store that ``seat`` conceded at ``move``; with ``result``, the game ended with
        it (stored as :meth:`append` stores an end, in the same commit)."""
        finish = None if result is None else self._finisher(table_id, result, reveal)

        def run(conn: Connection) -> None:
            conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(conceded=move)
            )
            if finish is not None:
                finish(conn)

        return self._submit(_Op(Future(), run=run, tables=(table_id,)))

    def add_chat(self, table_id: str, said: StoredChat) -> Future[None]:
        """Store a chat message said at a table."""

        def run(conn: Connection) -> None:
            stored = conn.execute(
                insert(chat_t).values(
                    table_id=table_id,
                    seat=said.seat,
                    name=said.name,
                    text=said.text,
                    apart=said.apart,
                    at=said.at,
                    phrase=said.phrase,
                )
            )
            key = stored.inserted_primary_key
            assert key is not None  # an insert of one row
            said.id = int(key[0])

        return self._submit(_Op(Future(), run=run, tables=(table_id,)))

    def load_chat(self, table_id: str, limit: int) -> list[StoredChat]:
        """The last ``limit`` chat messages of a table the operator has not hidden, oldest
        first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(chat_t)
                .where(chat_t.c.table_id == table_id, chat_t.c.hidden == false())
                .order_by(chat_t.c.id.desc())
                .limit(limit)
            ).all()
        return [
            StoredChat(r.seat, r.name, r.text, bool(r.apart), r.at, r.phrase, r.id)
            for r in reversed(rows)
        ]

    def chat_reports(self, table_id: str) -> list[tuple[int, int | None]]:
        """Every report of a table's chat: the message and the reporting seat (None: the
        spectators)."""
        with self.engine.connect() as conn:
            return [
                (int(r.chat_id), None if r.seat is None else int(r.seat))
                for r in conn.execute(
                    select(reports_t.c.chat_id, reports_t.c.seat).where(
                        reports_t.c.table_id == table_id
                    )
                )
            ]

    def hidden_chat(self, table_id: str, ids: Collection[int]) -> list[int]:
        """Which of these chat messages of a table the operator has hidden."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(chat_t.c.id).where(
                        chat_t.c.table_id == table_id,
                        chat_t.c.id.in_(list(ids)),
                        chat_t.c.hidden == true(),
                    )
                ).scalars()
            )

    def add_report(
        self, table_id: str, said: StoredChat, seat: int | None, name: str
    ) -> Future[None]:
        """Store that ``seat`` (None: a spectator), shown as ``name``, reported a chat
        message of the table to the operator."""

        def run(conn: Connection) -> None:
            conn.execute(
                insert(reports_t).values(
                    chat_id=said.id, table_id=table_id, seat=seat, name=name, at=time.time()
                )
            )

        return self._submit(_Op(Future(), run=run, tables=(table_id,)))

    def bind_seat(self, table_id: str, seat: int, account: str) -> Future[None]:
        """Store that a guest's seat now belongs to ``account`` (claimed by signing in)."""

        def run(conn: Connection) -> None:
            conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(account_id=account)
            )

        return self._submit(_Op(Future(), run=run, tables=(table_id,)))

    def set_bank(self, table_id: str, seat: int, bank: float | None) -> Future[None]:
        """Store what is left of a person's time bank (a restart does not refill it)."""

        def run(conn: Connection) -> None:
            conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(bank=bank)
            )

        return self._submit(_Op(Future(), run=run, tables=(table_id,)))

    def set_token(self, table_id: str, seat: int, token_hash: bytes) -> Future[None]:
        """Store a seat's new token (its digest): the old one opens nothing from then on."""

        def run(conn: Connection) -> None:
            conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(token_hash=token_hash)
            )

        return self._submit(_Op(Future(), run=run, tables=(table_id,)))

    def expire(self, table_ids: Sequence[str]) -> Future[None]:
        """Mark tables that waited too long for players as expired (never resumed)."""
        ids = list(table_ids)

        def run(conn: Connection) -> None:
            conn.execute(
                update(tables_t)
                .where(tables_t.c.id.in_(ids), tables_t.c.status == "waiting")
                .values(status="expired")
            )

        return self._submit(_Op(Future(), run=run, tables=tuple(ids)))

    def expire_waiting(self, before: float, unheld: Any = None) -> Future[None]:
        """Mark every table still waiting for players that was created before ``before``
        as expired, those no process holds in memory (``unheld``: the SQL condition that
        says so; None: all of them). How many expired is in ``self.expired``."""

        def run(conn: Connection) -> None:
            where = [tables_t.c.status == "waiting", tables_t.c.created < before]
            if unheld is not None:
                where.append(unheld)
            self.expired = conn.execute(
                update(tables_t).where(*where).values(status="expired")
            ).rowcount

        return self._submit(_Op(Future(), run=run))

    def waiting_total(self) -> int:
        """How many tables wait for players (counted on the partial index of unfinished
        tables)."""
        with self.engine.connect() as conn:
            total = conn.execute(
                select(func.count()).select_from(tables_t).where(tables_t.c.status == "waiting")
            ).scalar_one()
        return int(total)

    def abandon(self, table_ids: Sequence[str]) -> Future[None]:
        """Mark tables in play that every person left long ago as abandoned: they end
        without a result (never resumed, never rated)."""
        ids = list(table_ids)

        def run(conn: Connection) -> None:
            conn.execute(
                update(tables_t)
                .where(tables_t.c.id.in_(ids), tables_t.c.status == "playing")
                .values(status="abandoned")
            )

        return self._submit(_Op(Future(), run=run, tables=tuple(ids)))

    # ------------------------------------------------------------------ fences

    def fence(self, table_id: str, epoch: int) -> None:
        """From now on, writes about ``table_id`` commit only while its row names this
        process as owner at ``epoch``."""
        with self._fence_mutex:
            self._fences[table_id] = epoch

    def unfence(self, table_id: str) -> None:
        """This process no longer serves the table: its writes are refused from now on."""
        with self._fence_mutex:
            self._fences.pop(table_id, None)

    def fences(self) -> dict[str, int]:
        """The tables this process owns, with their epochs."""
        with self._fence_mutex:
            return dict(self._fences)

    def _check_fences(self, conn: Connection, batch: Sequence[_Op]) -> set[str]:
        """Within the batch's transaction: the tables this process may no longer write
        (their rows locked FOR SHARE until the commit, so no process can take them
        meanwhile)."""
        ids = sorted({t for op in batch for t in op.tables})
        if self.process is None or not ids:
            return set()
        with self._fence_mutex:
            mine = {t: self._fences.get(t) for t in ids}
        stored = {
            r.id: (r.owner, r.epoch)
            for r in conn.execute(
                select(tables_t.c.id, tables_t.c.owner, tables_t.c.epoch)
                .where(tables_t.c.id.in_(ids))
                .order_by(tables_t.c.id)
                .with_for_update(read=True)
            )
        }
        return {t for t in ids if mine[t] is None or stored.get(t) != (self.process, mine[t])}

    def forget_finished(self, before: float, limit: int = 500) -> Future[None]:
        """Delete up to ``limit`` finished or expired tables created before ``before``
        (seconds since the epoch), with their seats and actions (retention); how many
        were deleted is in ``self.forgotten``."""

        def run(conn: Connection) -> None:
            ids = [
                r[0]
                for r in conn.execute(
                    select(tables_t.c.id)
                    .where(tables_t.c.created < before, tables_t.c.status.in_(FINISHED))
                    .order_by(tables_t.c.created)
                    .limit(limit)
                )
            ]
            if ids:
                conn.execute(delete(reports_t).where(reports_t.c.table_id.in_(ids)))
                conn.execute(delete(outbox_t).where(outbox_t.c.table_id.in_(ids)))
                conn.execute(delete(chat_t).where(chat_t.c.table_id.in_(ids)))
                conn.execute(delete(actions_t).where(actions_t.c.table_id.in_(ids)))
                conn.execute(delete(seats_t).where(seats_t.c.table_id.in_(ids)))
                conn.execute(
                    delete(tables_t).where(tables_t.c.id.in_(ids), tables_t.c.status.in_(FINISHED))
                )
            self.forgotten = len(ids)

        return self._submit(_Op(Future(), run=run))

    def _submit(self, op: _Op) -> Future[None]:
        if not self._thread.is_alive():
            op.future.set_exception(StoreError("storage is closed"))
        else:
            self._queue.put(op)
        return op.future

    def _writer(self) -> None:
        q = self._queue
        stop = False
        while not stop:
            first = q.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < BATCH:
                try:
                    nxt = q.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            try:
                refused = self._commit(batch)
            except Exception as e:
                if _locked(e):
                    # every write would wait for the lock again: fail them all now
                    storage_outage.failed("the database is locked by another process", e)
                    for op in batch:
                        _resolve(op.future, StoreError(f"the database is locked: {e}"))
                    continue
                storage_outage.failed(f"a batch of {len(batch)} writes, retried one by one", e)
                refused = set()
                for op in batch:
                    try:
                        refused |= self._commit([op])
                    except Exception as e:
                        _resolve(op.future, StoreError(f"could not store: {e}"))
                    else:
                        storage_outage.ok()
                        self._settle(op, refused)
            else:
                storage_outage.ok()
                for op in batch:
                    self._settle(op, refused)
            for table_id in refused:
                self._fenced_out(table_id)
        # fail whatever arrived after the stop
        while True:
            try:
                late = q.get_nowait()
            except queue.Empty:
                break
            if late is not None:
                _resolve(late.future, StoreError("storage is closed"))

    def _settle(self, op: _Op, refused: set[str]) -> None:
        lost = [t for t in op.tables if t in refused]
        if op.refusal is not None:
            _resolve(op.future, op.refusal)
        elif lost:
            _resolve(
                op.future,
                FencedOut(f"table {lost[0]} is now served by another process; nothing stored"),
            )
        else:
            _resolve(op.future, None)

    def _fenced_out(self, table_id: str) -> None:
        log.warning("table %s: another process has taken it; its writes here are refused", table_id)
        self.unfence(table_id)
        if self.on_fenced is not None:
            try:
                self.on_fenced(table_id)
            except Exception:  # the writer must never die of a listener
                log.exception("table %s: the fenced-out listener failed", table_id)

    def _commit(self, batch: Sequence[_Op]) -> set[str]:
        """Commit the batch in one transaction, except the writes about tables this
        process no longer owns: those tables (nothing of their writes is stored)."""
        with self.engine.begin() as conn:
            refused = self._check_fences(conn, batch)
            if refused:
                batch = [op for op in batch if not any(t in refused for t in op.tables)]
            keys = sorted({k for op in batch for k in op.locks})
            if keys and self.sqlite:
                # SQLite: the database's write lock, taken by a write that changes nothing,
                # before anything is counted (a read before the first write of a
                # transaction sees no lock, and another process may insert meanwhile)
                conn.execute(update(tables_t).where(false()).values(creator=tables_t.c.creator))
            else:
                # in one order in every process, so two batches never wait for each other
                for key in keys:
                    conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})
            rows: list[dict[str, Any]] = []
            for op in batch:
                if op.row is not None:
                    rows.append(op.row)
                    if op.run is None:
                        continue
                if rows:
                    conn.execute(insert(actions_t), rows)
                    rows = []
                if op.run is not None:
                    op.run(conn)
            if rows:
                conn.execute(insert(actions_t), rows)
        self.commits += 1
        self.writes += len(batch)
        return refused

    # ------------------------------------------------------------------ reads (blocking)

    def load_active(self, statuses: Sequence[str] = ACTIVE) -> list[StoredTable]:
        """Every table waiting for players or in play (or of ``statuses``), with its seats
        and actions, to resume them (a damaged one with its ``problem``)."""
        with self.engine.connect() as conn:
            ids = [
                r[0]
                for r in conn.execute(
                    select(tables_t.c.id)
                    .where(tables_t.c.status.in_(tuple(statuses)))
                    .order_by(tables_t.c.created)
                )
            ]
            return [t for t in (self._load(conn, i) for i in ids) if t is not None]

    def load(self, table_id: str) -> StoredTable | None:
        """One table, or None if there is none by that id."""
        with self.engine.connect() as conn:
            return self._load(conn, table_id)

    def _load(self, conn: Connection, table_id: str) -> StoredTable | None:
        """One table; a damaged one comes back with its ``problem`` (logged)."""
        base = (
            conn.execute(
                select(
                    tables_t.c.id,
                    tables_t.c.game,
                    tables_t.c.rules_version,
                    tables_t.c.players,
                    tables_t.c.status,
                    tables_t.c.created,
                ).where(tables_t.c.id == table_id)
            )
            .mappings()
            .first()
        )
        if base is None:
            return None
        try:
            return self._load_whole(conn, table_id)
        except (StoreError, SealError) as e:
            problem = str(e)
        except Exception as e:
            problem = f"its stored row cannot be read ({type(e).__name__}: {e})"
        log.error("table %s is damaged and cannot be resumed: %s", table_id, problem)
        return StoredTable(
            id=base["id"],
            game=base["game"],
            rules_version=base["rules_version"],
            players=base["players"],
            options={},
            seed=0,
            settings=dict(DAMAGED_SETTINGS),
            watch_hash=b"",
            status=base["status"],
            created=base["created"],
            problem=problem,
        )

    def _load_whole(self, conn: Connection, table_id: str) -> StoredTable:
        r = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().one()
        options, settings = r["options"], r["settings"]
        if not isinstance(options, dict):
            raise StoreError(f"its options are not a JSON object: {options!r}")
        if not isinstance(settings, dict) or not isinstance(settings.get("deadline"), int | float):
            raise StoreError(f"its settings are not a JSON object with a deadline: {settings!r}")
        if r["seed"] is not None:
            seed, salt = int(r["seed"]), r["salt"]
        elif r["sealed"] is not None:
            opened = self.sealer.unseal(bytes(r["sealed"]))
            seed, salt = int(opened["seed"]), opened.get("salt")
        else:
            raise StoreError("it has neither a seed nor a sealed seed")
        t = StoredTable(
            id=r["id"],
            game=r["game"],
            rules_version=r["rules_version"],
            players=r["players"],
            options=dict(options),
            seed=seed,
            settings=dict(settings),
            watch_hash=bytes(r["watch_hash"]),
            status=r["status"],
            created=r["created"],
            result=r["result"],
            salt=salt,
            commitment=r["commitment"],
            due=r["due"],
            abandons=r["abandons"],
            vote=r["vote"] if isinstance(r["vote"], dict) else None,
            rematch=r["rematch"] if isinstance(r["rematch"], dict) else None,
        )
        for s in conn.execute(
            select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
        ).mappings():
            t.seats.append(
                StoredSeat(
                    seat=s["seat"],
                    kind=s["kind"],
                    name=s["name"],
                    level=s["level"],
                    budget=s["budget"],
                    token_hash=None if s["token_hash"] is None else bytes(s["token_hash"]),
                    account=s["account_id"],
                    bank=s["bank"],
                    conceded=s["conceded"],
                )
            )
        names = account_names(conn, [s.account for s in t.seats if s.account is not None])
        for st in t.seats:
            st.profile = None if st.account is None else names.get(st.account)
        rows = conn.execute(
            select(actions_t.c.move, actions_t.c.seat, actions_t.c.action)
            .where(actions_t.c.table_id == table_id)
            .order_by(actions_t.c.move)
        )
        for expected, a in enumerate(rows):
            if a.move != expected:
                raise StoreError(f"its stored moves jump from {expected} to {a.move}")
            t.actions.append((a.seat, a.action))
        have = [st.seat for st in t.seats]
        if have != list(range(t.players)):
            missing = sorted(set(range(t.players)) - set(have))
            raise StoreError(
                f"it has seat rows {have} for {t.players} players"
                + (f" (seat {', '.join(map(str, missing))} missing)" if missing else "")
            )
        for seat in t.seats:
            if seat.kind == "human" and seat.token_hash is None:
                raise StoreError(f"seat {seat.seat} is a person's seat without a token")
        return t

    def action_count(self, table_id: str) -> int:
        """How many actions are stored for a table (tests and checks)."""
        with self.engine.connect() as conn:
            return len(
                conn.execute(select(actions_t.c.move).where(actions_t.c.table_id == table_id)).all()
            )


# A person's seat asked at a turn-based table, for its e-mail (dragonlair.web.mail):
# (seat, quiet, remind_at); quiet when it was asked already (no new "your turn": the row only
# carries the reminder's time for the new deadline).
Asked = tuple[int, bool, float | None]


def insert_once(conn: Connection, table: Table, rows: Sequence[dict[str, Any]]) -> None:
    """Insert ``rows``, leaving out each one that a unique index already holds (another
    process wrote it first): one statement on either database."""
    if not rows:
        return
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        conn.execute(pg_insert(table).on_conflict_do_nothing(), list(rows))
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        conn.execute(sqlite_insert(table).on_conflict_do_nothing(), list(rows))


def _turn_mail(conn: Connection, table_id: str, due: float | None, asked: Sequence[Asked]) -> None:
    if due is None or not asked:
        return
    now = time.time()
    insert_once(
        conn,
        outbox_t,
        [
            {
                "kind": "turn",
                "status": "quiet" if quiet else "pending",
                "table_id": table_id,
                "seat": seat,
                "due": due,
                "remind_at": remind_at,
                "created": now,
            }
            for seat, quiet, remind_at in asked
        ],
    )


def creator_lock(creator: str) -> int:
    """The advisory lock key (a signed bigint) of a creating address's tag."""
    digest = hashlib.sha256(b"dl_tables.creator:" + creator.encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _locked(e: Exception) -> bool:
    """Whether a failed write failed because another process holds the database's lock."""
    if not isinstance(e, DBAPIError):
        return False
    text = str(e.orig).lower()
    code = getattr(e.orig, "sqlstate", None)
    return "database is locked" in text or "database is busy" in text or code == "55P03"
