"""Migration 0004_ratings from the schema before it with games in it, on SQLite and
PostgreSQL: the ratings' tables appear, every game stays as it was and plays on, and a
rated table's end then rates its players."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from cryptography.fernet import Fernet
from sqlalchemy import create_engine, inspect, text

from dragonlair.web.migrations import alembic_config, head, revision
from dragonlair.web.ratings import current
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store, normalize_url
from tests.web.test_migrations_accounts import _url, at_revision


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
@pytest.mark.timeout(120)
def test_ratings_migration_keeps_every_game(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    url = _url(request, tmp_path, kind)
    sealer = Sealer(Fernet.generate_key())
    at_revision(url, sealer, "0004_listing")  # the revision before
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        conn.execute(text("UPDATE dl_seats SET account_id = 'acct1' WHERE seat = 0"))
    engine.dispose()
    store = Store(url, sealer=sealer)
    try:
        with store.engine.connect() as conn:
            assert revision(conn) == head()
            look = inspect(conn)
            assert {"dl_ratings", "dl_rated_games"} <= set(look.get_table_names())
            assert "dl_rated_games_party" in {i["name"] for i in look.get_indexes("dl_rated_games")}
            assert conn.execute(text("SELECT count(*) FROM dl_tables")).scalar() == 21
            assert conn.execute(text("SELECT count(*) FROM dl_ratings")).scalar() == 0
        done = store.load("over7")
        assert done is not None and done.status == "over" and done.seed == 7
        assert done.seats[0].account == "acct1" and done.actions == [(0, "bid 1")]
        # the game in play goes on and ends unrated (it was not created rated)
        result = {"points": [1, 0], "ranks": [1, 2], "winners": [0]}
        store.append("play1", 2, 0, "pass", result).result(timeout=30)
        assert store.action_count("play1") == 3
        with store.engine.connect() as conn:
            assert current(conn, "pebble-auction", ["a:acct1"])["a:acct1"].games == 0
            assert conn.execute(text("SELECT count(*) FROM dl_rated_games")).scalar() == 0
    finally:
        store.close()


def test_ratings_migration_goes_down_and_up_again(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0004_listing")
        with engine.connect() as conn:
            assert "dl_ratings" not in inspect(conn).get_table_names()
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.connect() as conn:
            assert {"dl_ratings", "dl_rated_games"} <= set(inspect(conn).get_table_names())
    finally:
        engine.dispose()
