"""Migration 0003_accounts from the schema before it (revision 0002) with games in it, on
SQLite and PostgreSQL: the accounts' tables and the seats' account column appear, every
game stays as it was and plays on, and a signed-in player's seat is then stored."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from alembic import command
from cryptography.fernet import Fernet
from sqlalchemy import create_engine, inspect, text

from dragonlair.web.migrations import alembic_config, head, revision
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store, normalize_url
from tests.web.conftest import fresh_database


def _url(request: pytest.FixtureRequest, tmp_path: Path, kind: str) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'before.sqlite3'}"
    return fresh_database(request.getfixturevalue("postgres"))


def at_0002_with_games(url: str, sealer: Sealer, games: int) -> None:
    """A database at revision 0002 with ``games`` finished games and one in play."""
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0002")
    common = {
        "game": "pebble-auction",
        "rules_version": 1,
        "players": 2,
        "options": "{}",
        "settings": '{"deadline": 15.0}',
        "watch_hash": b"w" * 32,
        "created": time.time(),
        "epoch": 0,
    }
    rows = [
        {**common, "id": f"over{i}", "seed": i, "salt": "s", "sealed": None, "status": "over"}
        for i in range(games)
    ]
    rows.append(
        {
            **common,
            "id": "play1",
            "seed": None,
            "salt": None,
            "sealed": sealer.seal({"seed": 9, "salt": "y"}),
            "status": "playing",
        }
    )
    insert_table = text(
        "INSERT INTO dl_tables (id, game, rules_version, players, options, seed, salt, "
        "sealed, settings, watch_hash, status, created, epoch) VALUES (:id, :game, "
        ":rules_version, :players, :options, :seed, :salt, :sealed, :settings, :watch_hash, "
        ":status, :created, :epoch)"
    )
    insert_seat = text(
        "INSERT INTO dl_seats (table_id, seat, kind, name, level, token_hash) "
        "VALUES (:t, :s, :kind, :name, :level, :h)"
    )
    insert_action = text(
        "INSERT INTO dl_actions (table_id, move, seat, action, at) VALUES (:t, :m, :s, :a, 1.0)"
    )
    with engine.begin() as conn:
        conn.execute(insert_table, rows)
        conn.execute(
            insert_seat,
            [
                {
                    "t": r["id"],
                    "s": 0,
                    "kind": "human",
                    "name": "Ann",
                    "level": None,
                    "h": b"h" * 32,
                }
                for r in rows
            ]
            + [
                {"t": r["id"], "s": 1, "kind": "bot", "name": "Bot", "level": "random", "h": None}
                for r in rows
            ],
        )
        conn.execute(
            insert_action,
            [{"t": r["id"], "m": 0, "s": 0, "a": "bid 1"} for r in rows]
            + [{"t": "play1", "m": 1, "s": 1, "a": "bid 2"}],
        )
    engine.dispose()


def at_revision(url: str, sealer: Sealer, revision: str, games: int = 20) -> None:
    """A database filled at revision 0002 (:func:`at_0002_with_games`) and upgraded to
    ``revision``: the schema just before the migration a test is about, with games in it."""
    at_0002_with_games(url, sealer, games)
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), revision)
    engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
@pytest.mark.timeout(120)
def test_accounts_migration_keeps_every_game(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    url = _url(request, tmp_path, kind)
    sealer = Sealer(Fernet.generate_key())
    at_0002_with_games(url, sealer, games=20)
    store = Store(url, sealer=sealer)
    try:
        with store.engine.connect() as conn:
            assert revision(conn) == head()  # 0003_accounts and every one after it
            look = inspect(conn)
            assert {"dl_accounts", "dl_sessions"} <= set(look.get_table_names())
            assert "account_id" in {c["name"] for c in look.get_columns("dl_seats")}
            assert "dl_seats_account" in {i["name"] for i in look.get_indexes("dl_seats")}
            assert conn.execute(text("SELECT count(*) FROM dl_tables")).scalar() == 21
        playing = store.load("play1")
        assert playing is not None and playing.problem is None and playing.seed == 9
        assert playing.actions == [(0, "bid 1"), (1, "bid 2")]
        assert [s.account for s in playing.seats] == [None, None]
        done = store.load("over7")
        assert done is not None and done.status == "over" and done.seed == 7
        assert done.seats[0].name == "Ann" and done.actions == [(0, "bid 1")]
        # the game in play goes on, and a seat can now be an account's
        store.append("play1", 2, 0, "pass", None).result(timeout=30)
        store.bind_seat("play1", 0, "acct1").result(timeout=30)
        again = store.load("play1")
        assert again is not None and again.seats[0].account == "acct1"
        assert store.action_count("play1") == 3
    finally:
        store.close()
