"""Migration 0009_votes from the schema before it with games in it, on SQLite and
PostgreSQL: every table gets an empty ``abandons`` and ``vote``, every game stays as it
was, and a game in play can then hold a vote and end by it."""

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
def test_votes_migration_keeps_every_game(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    url = _url(request, tmp_path, kind)
    sealer = Sealer(Fernet.generate_key())
    at_revision(url, sealer, "0008_sign_in_limits")  # the revision before
    store = Store(url, sealer=sealer)
    try:
        with store.engine.connect() as conn:
            assert revision(conn) == head()
            columns = {c["name"] for c in inspect(conn).get_columns("dl_tables")}
            assert {"abandons", "vote"} <= columns
            indexes = {i["name"] for i in inspect(conn).get_indexes("dl_tables")}
            assert "dl_tables_abandons" in indexes
            assert conn.execute(text("SELECT count(*) FROM dl_tables")).scalar() == 21
            assert (
                conn.execute(
                    text(
                        "SELECT count(*) FROM dl_tables WHERE abandons IS NOT NULL "
                        "OR vote IS NOT NULL"
                    )
                ).scalar()
                == 0
            )
        done = store.load("over7")
        assert done is not None and done.status == "over" and done.seed == 7
        assert done.vote is None and done.abandons is None
        assert store.idle_tables(1e12) == []
        # the game in play gets its idle time, a vote, and ends by it
        store.set_due("play1", None, 1000.0).result(timeout=30)
        assert store.idle_tables(999.0) == [] and store.idle_tables(1000.0) == ["play1"]
        vote = {"by": 0, "voters": [0, 1], "agreed": [0], "at": 5.0}
        store.set_vote("play1", vote).result(timeout=30)
        again = store.load("play1")
        assert again is not None and again.status == "playing" and again.vote == vote
        store.end_abandoned("play1", {**vote, "agreed": [0, 1], "ended": "vote"}).result(timeout=30)
        ended = store.load("play1")
        assert ended is not None and ended.status == "abandoned" and ended.result is None
        assert ended.vote is not None and ended.vote["ended"] == "vote"
        assert store.idle_tables(1e12) == []
    finally:
        store.close()


def test_votes_migration_goes_down_and_up_again(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0008_sign_in_limits")
        with engine.connect() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("dl_tables")}
            assert not {"abandons", "vote"} & columns
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.connect() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("dl_tables")}
            assert {"abandons", "vote"} <= columns
    finally:
        engine.dispose()
