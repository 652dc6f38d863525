"""Migration 0006_concede from the schema before it with games in it, on SQLite and
PostgreSQL: every seat gets an empty ``conceded``, every game stays as it was, and a game in
play can then be conceded."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from cryptography.fernet import Fernet
from sqlalchemy import create_engine, inspect, text

from dragonlair.web.concede import ended
from dragonlair.web.migrations import alembic_config, head, revision
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store
from tests.web.test_migrations_accounts import _url, at_revision


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
@pytest.mark.timeout(120)
def test_concede_migration_keeps_every_game(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    url = _url(request, tmp_path, kind)
    sealer = Sealer(Fernet.generate_key())
    at_revision(url, sealer, "0005_chat")  # the revision before
    store = Store(url, sealer=sealer)
    try:
        with store.engine.connect() as conn:
            assert revision(conn) == head()
            assert "conceded" in {c["name"] for c in inspect(conn).get_columns("dl_seats")}
            assert conn.execute(text("SELECT count(*) FROM dl_tables")).scalar() == 21
            assert (
                conn.execute(
                    text("SELECT count(*) FROM dl_seats WHERE conceded IS NOT NULL")
                ).scalar()
                == 0
            )
        done = store.load("over7")
        assert done is not None and done.status == "over" and done.seed == 7
        assert [s.conceded for s in done.seats] == [None, None]
        # the game in play is conceded: stored, and its end with it
        store.concede("play1", 1, 2, ended(2, {1: 2}), (7, None)).result(timeout=30)
        again = store.load("play1")
        assert again is not None and again.status == "over"
        assert [s.conceded for s in again.seats] == [None, 2]
        assert again.result is not None and again.result["winners"] == [0]
    finally:
        store.close()


def test_concede_migration_goes_down_and_up_again(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0005_chat")
        with engine.connect() as conn:
            assert "conceded" not in {c["name"] for c in inspect(conn).get_columns("dl_seats")}
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.connect() as conn:
            assert "conceded" in {c["name"] for c in inspect(conn).get_columns("dl_seats")}
    finally:
        engine.dispose()
