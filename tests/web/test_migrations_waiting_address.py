"""Migration 0011_waiting_address from the schema before it with games and waiting tables
in it, on SQLite and PostgreSQL: each waiting table's creator moves from its settings to
the ``creator`` column under its partial index, every game stays as it was, and the
store then counts an address's waiting tables made before the migration against its cap."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from alembic import command
from cryptography.fernet import Fernet
from sqlalchemy import create_engine, inspect, text

from dragonlair.web.migrations import alembic_config, head, revision
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store, StoredSeat, StoredTable, TooManyWaiting, normalize_url
from tests.web.test_migrations_accounts import _url, at_revision

A, B = "a" * 32, "b" * 32


def waiting_row(conn: object, table_id: str, status: str, creator: str | None) -> None:
    settings = {"deadline": 15.0, "listed": True, **({"creator": creator} if creator else {})}
    conn.execute(  # type: ignore[attr-defined]
        text(
            "INSERT INTO dl_tables (id, game, rules_version, players, options, settings, "
            "watch_hash, status, created, epoch, listed) VALUES (:id, 'pebble-auction', 1, 2, "
            "'{}', :settings, :w, :status, :created, 0, :listed)"
        ),
        {
            "id": table_id,
            "settings": json.dumps(settings),
            "w": b"w" * 32,
            "status": status,
            "created": time.time(),
            "listed": True,
        },
    )


def new_waiting(table_id: str, creator: str) -> StoredTable:
    return StoredTable(
        id=table_id,
        game="pebble-auction",
        rules_version=1,
        players=2,
        options={},
        seed=5,
        settings={"deadline": 15.0},
        watch_hash=b"w" * 32,
        status="waiting",
        created=time.time(),
        seats=[
            StoredSeat(seat=0, kind="human", name="Ann", token_hash=b"h" * 32),
            StoredSeat(seat=1, kind="open", name=""),
        ],
        creator=creator,
    )


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
@pytest.mark.timeout(120)
def test_waiting_address_migration_moves_the_creators_and_keeps_every_game(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    url = _url(request, tmp_path, kind)
    sealer = Sealer(Fernet.generate_key())
    at_revision(url, sealer, "0010_mail")  # the revision before
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        for i in range(3):
            waiting_row(conn, f"wa{i}", "waiting", A)
        waiting_row(conn, "wa-old", "expired", A)  # no longer counted
        waiting_row(conn, "wb0", "waiting", B)
        waiting_row(conn, "wn0", "waiting", None)  # a rematch: nobody's
    engine.dispose()
    store = Store(url, sealer=sealer)
    try:
        with store.engine.connect() as conn:
            assert revision(conn) == head()
            assert "creator" in {c["name"] for c in inspect(conn).get_columns("dl_tables")}
            indexes = {i["name"] for i in inspect(conn).get_indexes("dl_tables")}
            assert "dl_tables_waiting_creator" in indexes
            assert conn.execute(text("SELECT count(*) FROM dl_tables")).scalar() == 27
            rows = conn.execute(
                text("SELECT id, creator, settings FROM dl_tables WHERE id LIKE 'w%' ORDER BY id")
            ).all()
        creators = {r.id: r.creator for r in rows}
        assert creators == {
            "wa-old": None,
            "wa0": A,
            "wa1": A,
            "wa2": A,
            "wb0": B,
            "wn0": None,
        }
        for r in rows:
            settings = r.settings if isinstance(r.settings, dict) else json.loads(r.settings)
            assert ("creator" in settings) == (r.id == "wa-old"), r  # expired rows untouched
            assert settings["deadline"] == 15.0
        done = store.load("over7")
        assert done is not None and done.status == "over" and done.seed == 7
        # the address's three tables from before count against a cap of three
        with pytest.raises(TooManyWaiting) as refused:
            store.create_table(new_waiting("wa3", A), per_creator=3).result(timeout=30)
        assert (refused.value.count, refused.value.cap) == (3, 3)
        assert store.load("wa3") is None
        store.create_table(new_waiting("wb1", B), per_creator=3).result(timeout=30)
        store.create_table(new_waiting("wa4", A), per_creator=4).result(timeout=30)
        assert store.load("wb1") is not None and store.load("wa4") is not None
    finally:
        store.close()


def test_waiting_address_migration_goes_down_and_up_again(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
            waiting_row(conn, "w1", "waiting", None)
            conn.execute(text("UPDATE dl_tables SET creator = :a WHERE id = 'w1'"), {"a": A})
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0010_mail")
        with engine.connect() as conn:
            assert "creator" not in {c["name"] for c in inspect(conn).get_columns("dl_tables")}
            settings = conn.execute(text("SELECT settings FROM dl_tables")).scalar_one()
            assert json.loads(settings)["creator"] == A  # back where 0010 kept it
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT creator FROM dl_tables")).scalar_one() == A
    finally:
        engine.dispose()
