"""Ownership of tables by several processes over PostgreSQL (dragonlair.web.ownership):
fenced writes (a process that lost a table cannot commit about it, and the new owner
replays the latest stored move), waiting tables that hold nothing in PostgreSQL's lock
table, and the guard against processes of different layouts on one database."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path

import psycopg
import pytest
from cryptography.fernet import Fernet
from fastapi.testclient import TestClient

from dragonlair.web import create_app
from dragonlair.web.ownership import Lease
from dragonlair.web.security import Sealer
from dragonlair.web.store import FencedOut, Store, StoredSeat, StoredTable
from tests.web.conftest import fresh_database
from tests.web.serverkit import config

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def _table(table_id: str) -> StoredTable:
    return StoredTable(
        id=table_id,
        game="pebble-auction",
        rules_version=1,
        players=2,
        options={},
        seed=7,
        settings={"deadline": 15.0},
        watch_hash=b"w" * 32,
        status="playing",
        created=time.time(),
        seats=[StoredSeat(0, "bot", "a", "random"), StoredSeat(1, "bot", "b", "random")],
        salt="s",
    )


def _done(f: Future[None]) -> None:
    f.result(timeout=30)


def _silence(db: str, lease: Lease) -> None:
    """Make a process look silent (its heartbeat an hour old), as if it were paused."""
    schema = db.split("search_path%3D")[1]
    with psycopg.connect(db.split("?", maxsplit=1)[0], autocommit=True) as conn:
        conn.execute(
            f"UPDATE {schema}.dl_processes SET beat = beat - 3600 WHERE id = %s", (lease.id,)
        )


@pytest.fixture
def two_stores(postgres: str) -> Iterator[tuple[str, Store, Store, Lease, Lease]]:
    db = fresh_database(postgres)
    sealer = Sealer(Fernet.generate_key())
    a, b = Store(db, sealer=sealer), Store(db, sealer=sealer)
    la, lb = Lease(a, 1, 2, 5.0), Lease(b, 2, 2, 5.0)
    a.process, b.process = la.id, lb.id
    la.register()
    lb.register()
    try:
        yield db, a, b, la, lb
    finally:
        a.close()
        b.close()


def test_a_process_that_lost_a_table_cannot_commit_and_the_new_owner_has_every_move(
    two_stores: tuple[str, Store, Store, Lease, Lease],
) -> None:
    db, a, b, la, lb = two_stores
    refused: list[str] = []
    a.on_fenced = refused.append
    _done(a.create_table(_table("t1")))
    _done(a.create_table(_table("t2")))
    _done(a.append("t1", 0, 0, "bid 1", None))
    assert lb.claim("t1") is None  # its owner is alive: nobody else takes it
    assert sorted(la.beat()) == ["t1", "t2"]
    assert la.orphans() == [] == lb.orphans()

    _silence(db, la)  # process A falls silent (paused, cut off)
    assert la.orphans() == ["t1", "t2"]
    epoch = lb.claim("t1")
    assert epoch == 2
    b.fence("t1", epoch)
    # A, awake again, still believes it owns t1: its writes about t1 are refused, and only
    # those (t2 is still A's: its write in the same batch commits)
    late = a.append("t1", 1, 1, "bid 2", None)
    other = a.append("t2", 0, 0, "bid 1", None)
    with pytest.raises(FencedOut, match="t1"):
        late.result(timeout=30)
    _done(other)
    with pytest.raises(FencedOut):
        a.rename_seat("t1", 0, "mallory").result(timeout=30)
    assert refused and set(refused) == {"t1"}
    # the new owner replays every move stored before it took the table, and goes on
    loaded = b.load("t1")
    assert loaded is not None and loaded.actions == [(0, "bid 1")]
    assert [s.name for s in loaded.seats] == ["a", "b"]
    _done(b.append("t1", 1, 1, "bid 3", None))
    assert b.load("t1").actions == [(0, "bid 1"), (1, "bid 3")]  # type: ignore[union-attr]
    # the heartbeat tells each process what it owns now
    assert sorted(la.beat()) == ["t2"] and lb.beat() == {"t1": 2}
    # a process cannot take a table back from a live owner, nor a finished one
    assert la.claim("t1") is None
    _done(b.append("t1", 2, 0, "pass", {"winners": [0]}, reveal=(7, "s")))
    _silence(db, lb)
    assert la.claim("t1") is None


def test_a_claim_waits_for_the_write_in_flight(
    two_stores: tuple[str, Store, Store, Lease, Lease],
) -> None:
    """The owner's write and another process's claim are ordered by the table's row: the
    write that committed first is in what the new owner reads."""
    db, a, b, la, lb = two_stores
    _done(a.create_table(_table("t1")))
    _silence(db, la)
    schema = db.split("search_path%3D")[1]
    with psycopg.connect(db.split("?")[0]) as hold:
        # a transaction of A's writer, paused between its fence check and its commit
        hold.execute(f"SELECT epoch FROM {schema}.dl_tables WHERE id = 't1' FOR SHARE")
        hold.execute(
            f"INSERT INTO {schema}.dl_actions (table_id, move, seat, action, at) "
            "VALUES ('t1', 0, 0, 'bid 1', 0)"
        )
        claimed: list[int | None] = []
        th = threading.Thread(target=lambda: claimed.append(lb.claim("t1")))
        th.start()
        # the claim waits for the write's commit: PostgreSQL shows it waiting on the row
        with psycopg.connect(db.split("?")[0], autocommit=True) as look:
            end = time.monotonic() + 30
            while not look.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND query LIKE 'UPDATE dl_tables%%'"
            ).fetchone()[0]:  # type: ignore[index]
                assert time.monotonic() < end, "the claim never waited for the write"
                time.sleep(0.05)
        assert not claimed
        hold.commit()
    th.join(30)
    assert claimed == [2]
    assert b.load("t1").actions == [(0, "bid 1")]  # type: ignore[union-attr]


def test_waiting_tables_hold_nothing_in_the_lock_table(postgres: str, tmp_path: Path) -> None:
    """Table spam: tables waiting for players take no lock in PostgreSQL (each used to
    hold an advisory lock for a day, until the lock table was full). Two hundred show it as
    well as the thousands that filled the table: one lock held is a failure."""
    db = fresh_database(postgres)
    cfg = config(db, shard="1/1", seal_key=str(tmp_path / "seal.key"))
    body = {"game": "pebble-auction", "players": 2, "seats": [{"type": "human"}, {"type": "open"}]}
    with TestClient(create_app(cfg)) as c:
        made = [c.post("/api/tables", json=body) for _ in range(200)]
        assert {r.status_code for r in made} == {201}
        ids = {r.json()["table"]["id"] for r in made}
        # nor memory: a waiting table is a row, and no process owns it until someone comes
        assert len(c.app.state.hub.tables) == 0  # type: ignore[attr-defined]
        with psycopg.connect(postgres, autocommit=True) as conn:
            locks = conn.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
            ).fetchone()
            assert locks is not None and locks[0] == 0
        # and every table is still this process's to serve
        tid = sorted(ids)[0]
        assert c.get(f"/api/tables/{tid}").status_code == 200
        assert list(c.app.state.hub.tables) == [tid]  # type: ignore[attr-defined]
        joined = c.post(f"/api/tables/{tid}/join", json={"name": "late"})
        assert joined.status_code == 200, joined.text


def test_one_layout_per_database(postgres: str, tmp_path: Path) -> None:
    """A process without --shard beside sharded ones (or the same K/N twice) refuses to
    start and says which process is in the way; once that one is gone, it starts."""
    db = fresh_database(postgres)
    key = str(tmp_path / "seal.key")

    def app(shard: str | None) -> TestClient:
        return TestClient(create_app(config(db, shard=shard, seal_key=key, lease=1.0)))

    with app("1/2") as first:
        assert first.get("/api/health").status_code == 200
        for shard in (None, "1/2", "2/3"):
            with pytest.raises(Exception, match=r"cannot start beside process 1/2"), app(shard):
                pass
        with app("2/2") as second:  # the layout's other process is welcome
            assert second.get("/api/health").status_code == 200
    with app(None) as alone:  # the sharded processes stopped cleanly: their rows are gone
        assert alone.get("/api/health").status_code == 200
