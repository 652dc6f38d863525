"""Migration 0008_sign_in_limits from the schema before it, with games and an account in
it, on SQLite and PostgreSQL: the limits' tables appear empty, every game and account
stays as it was, and the guard then counts and locks in them; and down and up again."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from alembic import command
from cryptography.fernet import Fernet
from sqlalchemy import create_engine, inspect, text

from dragonlair.web.accounts import SignInGuard, limits
from dragonlair.web.migrations import alembic_config, head, revision
from dragonlair.web.protocol import ProtocolError
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store, normalize_url
from tests.web.test_migrations_accounts import _url, at_revision

TABLES = {"dl_sign_in_events", "dl_sign_in_locks"}


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
@pytest.mark.timeout(120)
def test_sign_in_limits_migration_keeps_every_game_and_account(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    url = _url(request, tmp_path, kind)
    sealer = Sealer(Fernet.generate_key())
    at_revision(url, sealer, "0007_passkeys")  # the revision before
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO dl_accounts (id, name, name_key, password, created) "
                "VALUES ('acc1', 'Anna Berg', 'anna berg', NULL, :t)"
            ),
            {"t": time.time()},
        )
        assert not TABLES & set(inspect(conn).get_table_names())
    engine.dispose()
    store = Store(url, sealer=sealer)
    try:
        with store.engine.connect() as conn:
            assert revision(conn) == head()
            assert set(inspect(conn).get_table_names()) >= TABLES
            assert conn.execute(text("SELECT count(*) FROM dl_tables")).scalar() == 21
            assert conn.execute(text("SELECT name FROM dl_accounts")).scalar() == "Anna Berg"
            assert conn.execute(text("SELECT count(*) FROM dl_sign_in_events")).scalar() == 0
        done = store.load("over7")
        assert done is not None and done.status == "over" and done.seed == 7
        # the guard counts in the new tables: the pair locks at the limit
        guard = SignInGuard(store.engine)
        for _ in range(limits.FAILURES):
            guard.before_sign_in("198.51.100.2", "anna berg")
            guard.failed("198.51.100.2", "anna berg")
        with pytest.raises(ProtocolError) as refused:
            SignInGuard(store.engine).before_sign_in("198.51.100.2", "anna berg")
        assert refused.value.code == "locked"
    finally:
        store.close()


def test_sign_in_limits_migration_goes_down_and_up_again(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0007_passkeys")
        with engine.connect() as conn:
            names = set(inspect(conn).get_table_names())
            assert not TABLES & names and "dl_passkeys" in names
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.connect() as conn:
            assert set(inspect(conn).get_table_names()) >= TABLES
    finally:
        engine.dispose()
