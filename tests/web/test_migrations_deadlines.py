"""Migration 0006_deadlines from the schema before it with games in it, on SQLite and
PostgreSQL: the ``due`` column and its partial index appear, every game stays as it was
(real-time, nothing due) and plays on, and the migration goes down and up again."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from cryptography.fernet import Fernet
from sqlalchemy import create_engine, inspect, text

from dragonlair.web.migrations import alembic_config, head, revision
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store
from tests.web.test_migrations_accounts import _url, at_revision


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
@pytest.mark.timeout(120)
def test_deadlines_migration_keeps_every_game(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    url = _url(request, tmp_path, kind)
    sealer = Sealer(Fernet.generate_key())
    at_revision(url, sealer, "0005_chat")  # the revision before
    store = Store(url, sealer=sealer)
    try:
        with store.engine.connect() as conn:
            assert revision(conn) == head()
            look = inspect(conn)
            assert "due" in {c["name"] for c in look.get_columns("dl_tables")}
            assert "dl_tables_due" in {i["name"] for i in look.get_indexes("dl_tables")}
            assert "bank" in {c["name"] for c in look.get_columns("dl_seats")}
            assert conn.execute(text("SELECT count(*) FROM dl_tables")).scalar() == 21
            assert (
                conn.execute(text("SELECT count(*) FROM dl_tables WHERE due IS NOT NULL")).scalar()
                == 0
            )
        done = store.load("over7")
        assert done is not None and done.status == "over" and done.due is None
        playing = store.load("play1")
        assert playing is not None and playing.due is None
        assert store.due_tables(now=1e12) == []
        # the game in play goes on, and a deadline stored with a move is swept
        store.append("play1", 2, 0, "pass", None, None, (1000.0,)).result(timeout=30)
        assert store.action_count("play1") == 3
        assert store.due_tables(now=999.0) == []
        assert store.due_tables(now=1000.0) == [("play1", 1000.0)]
        loaded = store.load("play1")
        assert loaded is not None and loaded.due == 1000.0
    finally:
        store.close()


def test_deadlines_migration_goes_down_and_up_again(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0005_chat")
        with engine.connect() as conn:
            assert "due" not in {c["name"] for c in inspect(conn).get_columns("dl_tables")}
            assert "bank" not in {c["name"] for c in inspect(conn).get_columns("dl_seats")}
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.connect() as conn:
            assert "dl_tables_due" in {i["name"] for i in inspect(conn).get_indexes("dl_tables")}
    finally:
        engine.dispose()
