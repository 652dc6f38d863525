"""Migration 0012_rematch from the schema before it with games in it, on SQLite and
PostgreSQL: every table gets an empty ``rematch``, every game stays as it was, and a
finished game can then store where its rematch is."""

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
def test_rematch_migration_keeps_every_game(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    url = _url(request, tmp_path, kind)
    sealer = Sealer(Fernet.generate_key())
    at_revision(url, sealer, "0011_waiting_address")  # the revision before
    store = Store(url, sealer=sealer)
    try:
        with store.engine.connect() as conn:
            assert revision(conn) == head()
            columns = {c["name"] for c in inspect(conn).get_columns("dl_tables")}
            assert "rematch" in columns
            assert conn.execute(text("SELECT count(*) FROM dl_tables")).scalar() == 21
            assert (
                conn.execute(
                    text("SELECT count(*) FROM dl_tables WHERE rematch IS NOT NULL")
                ).scalar()
                == 0
            )
        done = store.load("over7")
        assert done is not None and done.status == "over" and done.seed == 7
        assert done.rematch is None
        store.set_rematch("over7", {"table": "new7", "by": 1}).result(timeout=30)
        again = store.load("over7")
        assert again is not None and again.rematch == {"table": "new7", "by": 1}
    finally:
        store.close()


def test_rematch_migration_goes_down_and_up_again(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0011_waiting_address")
        with engine.connect() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("dl_tables")}
            assert "rematch" not in columns
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.connect() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("dl_tables")}
            assert "rematch" in columns
    finally:
        engine.dispose()
