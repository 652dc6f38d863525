"""The schema through migrations (dragonlair.web.migrations): a database made by the server
before migrations, with games in it, is brought to the newest revision and plays on; an
empty database gets every table, once, even when several processes open it together."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    create_engine,
    inspect,
    text,
)

from dragonlair.web.migrations import head, revision
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store, normalize_url
from tests.web.conftest import fresh_database

# The schema every database had before migrations, as the server of then created it.
before = MetaData()
Table(
    "dl_tables",
    before,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("rules_version", Integer, nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=True),
    Column("salt", String(32), nullable=True),
    Column("sealed", LargeBinary, nullable=True),
    Column("commitment", String(64), nullable=True),
    Column("settings", JSON, nullable=False),
    Column("watch_hash", LargeBinary(32), nullable=False),
    Column("status", String(16), nullable=False),
    Column("created", Float, nullable=False),
    Column("result", JSON, nullable=True),
)
Table(
    "dl_seats",
    before,
    Column("table_id", String(32), ForeignKey("dl_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("level", String(32), nullable=True),
    Column("budget", JSON, nullable=True),
    Column("token_hash", LargeBinary(32), nullable=True),
)
Table(
    "dl_actions",
    before,
    Column("table_id", String(32), ForeignKey("dl_tables.id"), primary_key=True),
    Column("move", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(200), nullable=False),
    Column("at", Float, nullable=False),
)


def _url(request: pytest.FixtureRequest, tmp_path: Path, kind: str) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'old.sqlite3'}"
    return fresh_database(request.getfixturevalue("postgres"))


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def test_a_database_from_before_migrations_is_upgraded_and_plays_on(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    url = _url(request, tmp_path, kind)
    sealer = Sealer(Fernet.generate_key())
    engine = create_engine(normalize_url(url))
    before.create_all(engine)
    tables, seats, actions = (before.tables[n] for n in ("dl_tables", "dl_seats", "dl_actions"))
    common = {
        "game": "pebble-auction",
        "rules_version": 1,
        "players": 2,
        "options": {},
        "settings": {"deadline": 15.0},
        "watch_hash": b"w" * 32,
        "created": time.time(),
    }
    with engine.begin() as conn:
        conn.execute(
            tables.insert(),
            {
                **common,
                "id": "over1",
                "seed": 5,
                "salt": "x",
                "status": "over",
                "result": {"winners": [0]},
            },
        )
        conn.execute(
            tables.insert(),
            {
                **common,
                "id": "play1",
                "sealed": sealer.seal({"seed": 9, "salt": "y"}),
                "commitment": "c" * 64,
                "status": "playing",
            },
        )
        for tid in ("over1", "play1"):
            conn.execute(
                seats.insert(),
                [
                    {"table_id": tid, "seat": i, "kind": "bot", "name": f"b{i}", "level": "random"}
                    for i in range(2)
                ],
            )
        conn.execute(
            actions.insert(),
            [
                {"table_id": "play1", "move": 0, "seat": 0, "action": "bid 1", "at": 1.0},
                {"table_id": "play1", "move": 1, "seat": 1, "action": "bid 2", "at": 2.0},
            ],
        )
    engine.dispose()

    store = Store(url, sealer=sealer)
    try:
        with store.engine.connect() as conn:
            assert revision(conn) == head()
            look = inspect(conn)
            assert "dl_processes" in look.get_table_names()
            cols = {c["name"] for c in look.get_columns("dl_tables")}
            assert {"owner", "epoch"} <= cols
            indexes = {i["name"] for i in look.get_indexes("dl_tables")}
            assert {"dl_tables_active", "dl_tables_created"} <= indexes
        old = store.load("play1")
        assert old is not None and old.problem is None
        assert old.actions == [(0, "bid 1"), (1, "bid 2")] and old.seed == 9
        done = store.load("over1")
        assert done is not None and done.seed == 5 and done.result == {"winners": [0]}
        store.append("play1", 2, 0, "pass", None).result(timeout=30)
        assert store.action_count("play1") == 3
    finally:
        store.close()
    # opened again: nothing left to do, nothing changed
    again = Store(url, sealer=sealer)
    try:
        assert again.action_count("play1") == 3
    finally:
        again.close()


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_processes_starting_together_create_the_schema_once(postgres: str) -> None:
    url = fresh_database(postgres)
    sealer = Sealer(Fernet.generate_key())
    opened: list[Store] = []
    errors: list[Exception] = []
    go = threading.Barrier(4)

    def start() -> None:
        go.wait()
        try:
            opened.append(Store(url, sealer=sealer))
        except Exception as e:
            errors.append(e)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    try:
        assert errors == [] and len(opened) == 4
        with opened[0].engine.connect() as conn:
            assert revision(conn) == head()
            assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
    finally:
        for s in opened:
            s.close()


def test_retention_deletes_only_old_finished_tables(tmp_path: Path) -> None:
    """``keep_finished_days``: finished and expired tables created before the limit go,
    seats and actions with them; newer ones and unfinished ones, however old, stay."""
    import asyncio
    import contextlib

    from dragonlair.web.app import retention
    from dragonlair.web.config import ServerConfig
    from tests.web.test_ownership import _table

    url = f"sqlite:///{tmp_path / 'keep.sqlite3'}"
    store = Store(url, sealer=Sealer(Fernet.generate_key()))
    day = 86400.0
    try:
        for tid, age, status in [
            ("oldover", 3 * day, "over"),
            ("oldgone", 3 * day, "expired"),
            ("newover", 0.5 * day, "over"),
            ("oldplay", 3 * day, "playing"),
        ]:
            t = _table(tid)
            t.created = time.time() - age
            t.status = status
            store.create_table(t).result(timeout=30)
            store.append(tid, 0, 0, "bid 1", None).result(timeout=30)

        async def once() -> None:
            cfg = ServerConfig(db=url, keep_finished_days=2)
            task = asyncio.get_running_loop().create_task(retention(store, cfg, every=3600))
            end = time.monotonic() + 30
            while store.load("oldover") is not None or store.load("oldgone") is not None:
                assert time.monotonic() < end, "retention deleted nothing"
                await asyncio.sleep(0.05)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

        asyncio.run(once())
        assert store.load("newover") is not None and store.load("oldplay") is not None
        assert store.action_count("oldover") == 0 == store.action_count("oldgone")
        assert store.action_count("oldplay") == 1
        with store.engine.connect() as conn:
            left = conn.execute(text("SELECT DISTINCT table_id FROM dl_seats")).scalars().all()
        assert sorted(left) == ["newover", "oldplay"]
    finally:
        store.close()
