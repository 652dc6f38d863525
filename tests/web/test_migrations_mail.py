"""Migration 0010_mail from the schema before it with games and accounts in it, on SQLite
and PostgreSQL: every account gets no address and no turn e-mail (off until its player
turns it on), the outbox is made empty with its indexes, every game stays as it was, and
the outbox then holds one message of a kind per seat and deadline."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from alembic import command
from cryptography.fernet import Fernet
from sqlalchemy import create_engine, inspect, text

from dragonlair.web.mail import Outbox
from dragonlair.web.migrations import alembic_config, head, revision
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store, normalize_url
from tests.web.test_migrations_accounts import _url, at_revision


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
@pytest.mark.timeout(120)
def test_mail_migration_keeps_every_game_and_account(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    url = _url(request, tmp_path, kind)
    sealer = Sealer(Fernet.generate_key())
    at_revision(url, sealer, "0009_votes")  # the revision before
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        for i in range(3):
            conn.execute(
                text(
                    "INSERT INTO dl_accounts (id, name, name_key, password, created) "
                    "VALUES (:i, :n, :k, 'hash', :t)"
                ),
                {"i": f"acc{i}", "n": f"Player {i}", "k": f"player {i}", "t": time.time()},
            )
        conn.execute(text("UPDATE dl_seats SET account_id = 'acc1' WHERE table_id = 'play1'"))
    engine.dispose()
    store = Store(url, sealer=sealer)
    try:
        with store.engine.connect() as conn:
            assert revision(conn) == head()
            columns = {c["name"] for c in inspect(conn).get_columns("dl_accounts")}
            assert {"email", "email_verified", "email_turns", "email_lang"} <= columns
            indexes = {i["name"] for i in inspect(conn).get_indexes("dl_outbox")}
            assert {"dl_outbox_once", "dl_outbox_pending", "dl_outbox_remind"} <= indexes
            assert conn.execute(text("SELECT count(*) FROM dl_tables")).scalar() == 21
            assert conn.execute(text("SELECT count(*) FROM dl_outbox")).scalar() == 0
            accounts = conn.execute(
                text("SELECT id, email, email_verified, email_turns FROM dl_accounts ORDER BY id")
            ).all()
            assert [tuple(a) for a in accounts] == [
                (f"acc{i}", None, None, False) for i in range(3)
            ]
        done = store.load("over7")
        assert done is not None and done.status == "over" and done.seed == 7
        # the game in play gets its deadline and its "your turn", once however often written
        for _ in range(2):
            store.set_due("play1", 2e9, asked=[(1, False, 2e9 - 3600)]).result(timeout=30)
        with store.engine.connect() as conn:
            rows = conn.execute(text("SELECT kind, status, seat, due FROM dl_outbox")).all()
        assert [tuple(r) for r in rows] == [("turn", "pending", 1, 2e9)]
        outbox = Outbox(store.engine)
        setting, sent = outbox.save("acc1", "p1@example.org", True, "de")
        assert sent and setting.address == "p1@example.org" and not setting.verified
        assert outbox.verify("acc1", "p1@example.org")
        letters = outbox.claim()
        assert sorted(x.kind for x in letters) == ["turn", "verify"]
        turn = next(x for x in letters if x.kind == "turn")
        assert turn.to == "p1@example.org" and turn.lang == "de" and turn.game == "pebble-auction"
    finally:
        store.close()


def test_mail_migration_goes_down_and_up_again(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0009_votes")
        with engine.connect() as conn:
            assert "dl_outbox" not in inspect(conn).get_table_names()
            assert "email" not in {c["name"] for c in inspect(conn).get_columns("dl_accounts")}
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.connect() as conn:
            assert "dl_outbox" in inspect(conn).get_table_names()
    finally:
        engine.dispose()
