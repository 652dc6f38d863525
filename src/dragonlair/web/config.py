"""Server settings: one frozen dataclass, filled from ``dragonlair serve``'s options or by
tests, so every limit the server enforces is written down in one place."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.engine import make_url

from ..core.autoplay import WINDOW_SECONDS
from ..core.confirm import CONFIRM_SECONDS

DEFAULT_DB = "sqlite:///dragonlair.sqlite3"
KEY_ENV = "DRAGONLAIR_SEAL_KEY"
DEFAULT_KEY = "dragonlair-seal.key"
SMTP_PASSWORD_ENV = "DRAGONLAIR_SMTP_PASSWORD"
SMTP_SECURITY = ("starttls", "tls", "none")


@dataclass(frozen=True)
class MailSettings:
    """The operator's SMTP server, through which turn-based tables' players get e-mail
    (dragonlair.web.mail): where it is, how the connection is secured ("starttls": plain
    then upgraded, usually port 587; "tls": TLS from the start, usually 465; "none": no
    encryption, for a relay on this machine only), the account to log in with (none:
    no login) and the address the messages come from."""

    host: str
    sender: str
    port: int = 587
    security: str = "starttls"
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    timeout: float = 30.0

    def check(self, public_url: str) -> None:
        """ValueError, with what to change, for settings that cannot work."""
        from email.errors import HeaderParseError
        from email.headerregistry import Address

        if not self.host.strip() or any(c.isspace() for c in self.host):
            raise ValueError(f"--smtp-host: a host name or address, not {self.host!r}")
        if not 1 <= self.port <= 65535:
            raise ValueError(f"--smtp-port: 1 to 65535, not {self.port}")
        if self.security not in SMTP_SECURITY:
            raise ValueError(
                f"--smtp-security: one of {', '.join(SMTP_SECURITY)}, not {self.security!r}"
            )
        if (self.user is None) != (self.password is None):
            raise ValueError(
                "--smtp-user and the SMTP password (--smtp-password or "
                f"{SMTP_PASSWORD_ENV}) go together: give both or neither"
            )
        try:
            ok = "@" in Address(addr_spec=self.sender).addr_spec
        except (HeaderParseError, ValueError, IndexError):
            ok = False
        if not ok or any(c in self.sender for c in "\r\n<>"):
            raise ValueError(
                f"--mail-from: an address such as games@example.org, not {self.sender!r}"
            )
        if not public_url.startswith(("https://", "http://")):
            raise ValueError(
                "e-mail needs --public-url (e.g. https://games.example.org): every message "
                "links back to the server"
            )


@dataclass(frozen=True)
class ServerConfig:
    """Everything the server can be told; the defaults suit a server among friends."""

    db: str = DEFAULT_DB
    # SQLite only: FULL syncs the write-ahead log on every commit (durable through a power
    # cut); NORMAL is durable through a crash of the server process (kill -9 included).
    sqlite_sync: str = "FULL"
    # How long a write waits for a database locked by another process before the action
    # is refused with storage_error (seconds).
    db_lock_timeout: float = 5.0
    # The file holding the key that seals unfinished games' seeds (None: the environment
    # variable DRAGONLAIR_SEAL_KEY, else next to an SQLite file, else ./dragonlair-seal.key).
    seal_key: str | None = None
    # Per table, unless the table says otherwise (seconds): the time to answer an offer
    # or window, and each player's time bank (how long in all they may be away while
    # the game is played before the table's chosen bot plays for them; see
    # dragonlair.web.table.clocks).
    deadline: float = 15.0
    away: float | None = 60.0
    # A table every person has left is paused (nothing is played); paused this long, it
    # ends as abandoned, without a result (seconds; None: never).
    abandon_after: float | None = 7 * 86400.0
    # A turn-based table in play that nobody has opened for this long and that waits for
    # its people is dropped from memory and read again from storage when it is opened or
    # its deadline is due (seconds; None: every table stays in memory). One process only.
    park_after: float | None = 60.0
    # How long every seat asked in a reaction window or offer takes to pass, whatever it
    # holds (seconds; see dragonlair.web.table.windows).
    window: float = WINDOW_SECONDS
    # How long a person's decision at a table with undo is held for confirmation, unless
    # the table says otherwise (seconds; see dragonlair.core.confirm).
    confirm: float = CONFIRM_SECONDS
    # A table still waiting for players this long after its creation expires (seconds).
    waiting_ttl: float = 86400.0
    # Tables waiting for players at once: created from one address, and in all (every
    # process together); beyond, a new table that would wait is refused (see
    # dragonlair.web.lobby.Hub.create). A rematch is not counted against its players.
    max_waiting_per_address: int = 20
    max_waiting: int = 10000
    # Limits on clients.
    max_message_bytes: int = 4096
    max_body_bytes: int = 16384
    ws_rate: str = "20/second"
    http_rate: str = "120/minute"
    max_queue: int = 1000
    max_queue_bytes: int = 1 << 20
    max_connections_per_address: int = 64
    # Open WebSocket connections per process, every address together (None: three
    # quarters of limit_concurrency, so a quarter always stays for lobby requests); at the
    # cap, a newcomer takes the place of an idle connection of the address holding the
    # most, or is refused (1013). See dragonlair.web.connection.Limits.
    max_websockets: int | None = None
    # A WebSocket that sends nothing (not even a ping; the browser pings after 2 s without
    # a message) for this long is closed with 4408 (seconds).
    ws_idle_timeout: float = 120.0
    # The server pings every WebSocket this often (seconds; WebSocket ping frames, which
    # clients answer by themselves): a proxy in front sees bytes from a live process at
    # least this often, so a short read time-out tells a hung process (deploy/nginx/: 4 s,
    # three pings missed).
    ws_ping_interval: float = 1.0
    # Open connections per table: each seat's (a person's tabs and devices) and its
    # spectators', all addresses together; beyond, a newcomer is refused (table_full).
    max_connections_per_seat: int = 8
    max_spectators: int = 200
    hello_timeout: float = 10.0
    # HTTP: seconds for a request's headers, for its body, and an idle keep-alive
    # connection may take; connections and WebSockets served at once (beyond: 503).
    header_timeout: float = 10.0
    body_timeout: float = 10.0
    idle_timeout: float = 5.0
    limit_concurrency: int = 1000
    # Proxies whose X-Forwarded-For is believed (comma-separated addresses or networks;
    # empty: none, every client is the address it connects from).
    forwarded_allow_ips: str = ""
    # GET /api/tables: tables per page by default, and at most.
    page_size: int = 50
    max_page_size: int = 200
    # Bots: "thread" or "process" pool, how many workers, and the most a bot may think
    # per decision (a table asking more is refused; a decision running over is cut).
    bot_pool: str = "process"
    bot_workers: int = 2
    bot_max_iterations: int = 5000
    bot_max_seconds: float = 5.0
    # Hints (where a table allows them): how many a seat may ask for, the time one may
    # take (dragonlair.bots.advice: the playouts stop when it has passed, the one under
    # way finished) and the most playouts per choice; one hint at a time per seat, in the
    # bots' pool, cut at bot_max_seconds.
    hint_rate: str = "6/minute"
    hint_seconds: float = 2.0
    hint_max_playouts: int = 4000
    # Links handed out to players start with this (empty: relative links).
    public_url: str = ""
    # The operator's token for the admin page (/admin: reported chat messages; sent as
    # "Authorization: Bearer <token>"); None: the admin page is off.
    admin_token: str | None = None
    # Account passwords: Argon2id's memory (KiB) and passes (RFC 9106's low-memory profile;
    # tests lower them to run fast).
    argon2_memory: int = 65536
    argon2_time: int = 3
    # Seconds a process trusts a session it looked up (and between its rechecks of the
    # sessions of live seat connections): a sign-out on another process counts after it.
    session_recheck: float = 30.0
    # Finished tables leave memory once nobody is connected (their records stay stored).
    evict_finished: bool = True
    # Finished, expired and abandoned tables created more than this many days ago are deleted from
    # storage, records and all (None: kept forever); checked hourly by one process.
    keep_finished_days: float | None = None
    # Several processes over one PostgreSQL database: this process as "K/N" (None: the
    # only process, 1/1), and how often it looks for tables nobody owns (seconds); see
    # dragonlair.web.ownership.
    shard: str | None = None
    adopt_interval: float = 1.0
    # PostgreSQL: a process silent (no heartbeat) this long loses its tables to the others,
    # and it cannot write about them after that (seconds; see dragonlair.web.ownership).
    lease: float = 5.0
    # Turn-based tables (dragonlair.web.table.deadlines): how often the database is asked
    # for the moves whose deadline has passed (seconds), and the clock deadlines are read
    # from (Unix seconds; tests hand in a clock they move on themselves).
    deadline_sweep: float = 30.0
    clock: Callable[[], float] = field(default=time.time, compare=False)
    # E-mail to turn-based tables' players (dragonlair.web.mail; None: no e-mail): the
    # SMTP server, how often the outbox is looked at (seconds; a new "your turn" wakes it at
    # once), and how much of a move's time is left when its reminder goes out.
    mail: MailSettings | None = None
    mail_every: float = 10.0
    mail_remind: float = 0.25

    def seal_key_path(self) -> Path:
        """Where the seal key is kept (see ``seal_key``)."""
        if self.seal_key:
            return Path(self.seal_key)
        env = os.environ.get(KEY_ENV)
        if env:
            return Path(env)
        try:
            url = make_url(self.db)
        except Exception:
            return Path(DEFAULT_KEY)
        if url.get_backend_name() == "sqlite" and url.database:
            return Path(f"{url.database}.key")
        return Path(DEFAULT_KEY)
