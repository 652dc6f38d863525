"""Server settings: one frozen dataclass, filled from ``dragonlair serve``'s options or by
tests, so every limit the server enforces is written down in one place."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_DB = "sqlite:///dragonlair.sqlite3"


@dataclass(frozen=True)
class ServerConfig:
    """Everything the server can be told; the defaults suit a server among friends."""

    db: str = DEFAULT_DB
    # SQLite only: FULL syncs the write-ahead log on every commit (durable through a power
    # cut); NORMAL is durable through a crash of the server process (kill -9 included).
    sqlite_sync: str = "FULL"
    # Per table, unless the table says otherwise (seconds).
    deadline: float = 15.0
    away: float | None = 60.0
    # Limits on clients.
    max_message_bytes: int = 4096
    max_body_bytes: int = 16384
    ws_rate: str = "20/second"
    http_rate: str = "120/minute"
    max_queue: int = 1000
    hello_timeout: float = 10.0
    # Bots: "thread" or "process" pool, and how many workers.
    bot_pool: str = "thread"
    bot_workers: int = 2
    # Links handed out to players start with this (empty: relative links).
    public_url: str = ""
    # Finished tables leave memory once nobody is connected (their records stay stored).
    evict_finished: bool = True
