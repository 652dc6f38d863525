"""Migration 0007_passkeys from the schema before it, with games and an account in it, on
SQLite and PostgreSQL: the passkeys' tables appear empty, every game and account stays as
it was, and a passkey can then be registered and signs its account in."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from alembic import command
from cryptography.fernet import Fernet
from sqlalchemy import create_engine, inspect, text

from dragonlair.web.accounts import Accounts
from dragonlair.web.accounts.passkeys import Passkeys, RelyingParty
from dragonlair.web.migrations import alembic_config, head, revision
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store, normalize_url
from tests.web.passkeykit import SoftAuthenticator
from tests.web.test_migrations_accounts import _url, at_revision

RP = RelyingParty(id="localhost", origin="http://localhost:8000")


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
@pytest.mark.timeout(120)
def test_passkeys_migration_keeps_every_game_and_account(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    url = _url(request, tmp_path, kind)
    sealer = Sealer(Fernet.generate_key())
    at_revision(url, sealer, "0006_concede")  # the revision before
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO dl_accounts (id, name, name_key, password, created) "
                "VALUES ('acc1', 'Anna Berg', 'anna berg', NULL, :t)"
            ),
            {"t": time.time()},
        )
        assert "dl_passkeys" not in inspect(conn).get_table_names()
    engine.dispose()
    store = Store(url, sealer=sealer)
    try:
        with store.engine.connect() as conn:
            assert revision(conn) == head()
            names = set(inspect(conn).get_table_names())
            assert {"dl_passkeys", "dl_passkey_challenges"} <= names
            assert conn.execute(text("SELECT count(*) FROM dl_tables")).scalar() == 21
            assert conn.execute(text("SELECT count(*) FROM dl_passkeys")).scalar() == 0
        done = store.load("over7")
        assert done is not None and done.status == "over" and done.seed == 7
        # the account that was there registers a passkey and signs in with it
        passkeys = Passkeys(Accounts(store.engine))
        key = SoftAuthenticator()
        ticket, options = passkeys.registration_options("acc1", "Anna Berg", RP)
        passkeys.register("acc1", ticket, key.create(options, RP.origin), "laptop", RP)
        ticket, options = passkeys.sign_in_options(RP)
        account, token = passkeys.sign_in(ticket, key.get(options, RP.origin), RP)
        assert (account.id, account.name) == ("acc1", "Anna Berg") and token
    finally:
        store.close()


def test_passkeys_migration_goes_down_and_up_again(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0006_concede")
        with engine.connect() as conn:
            names = set(inspect(conn).get_table_names())
            assert "dl_passkeys" not in names and "dl_passkey_challenges" not in names
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.connect() as conn:
            assert "dl_passkeys" in inspect(conn).get_table_names()
    finally:
        engine.dispose()
