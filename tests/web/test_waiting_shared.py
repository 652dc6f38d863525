"""The per-address cap on waiting tables is counted in the store, in the transaction of
the insert, so it holds for every process of one database: creations racing from one
address over two processes (two app instances on one store, each with its own memory)
never leave more tables waiting than the cap, and a process started later counts the
tables the others made."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from dragonlair.web import create_app
from dragonlair.web.store import tables_t
from tests.web.serverkit import config

WAITING = {"game": "pebble-auction", "players": 2}
CAP = 4


@pytest.fixture
def two(db_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    # on PostgreSQL every process of one database runs as a shard (docs/server.md)
    shards = ("1/2", "2/2") if db_url.startswith("postgresql") else (None, None)
    with (
        TestClient(create_app(config(db_url, shard=shards[0], max_waiting_per_address=CAP))) as a,
        TestClient(create_app(config(db_url, shard=shards[1], max_waiting_per_address=CAP))) as b,
    ):
        assert a.app is not b.app
        yield a, b


def waiting(c: TestClient) -> int:
    store = c.app.state.hub.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        return int(
            conn.execute(
                select(func.count()).select_from(tables_t).where(tables_t.c.status == "waiting")
            ).scalar_one()
        )


@pytest.mark.timeout(120)
def test_creations_racing_from_one_address_over_two_processes_stop_at_the_cap(
    two: tuple[TestClient, TestClient],
) -> None:
    a, b = two
    # one browser per process and thread, all from one address
    clients = [TestClient(c.app, client=("198.51.100.20", 40000 + i)) for i, c in enumerate(two)]

    made: list[str] = []

    def create(i: int) -> tuple[int, str]:
        r = clients[i % 2].post("/api/tables", json=WAITING)
        if r.status_code == 201:
            made.append(r.json()["table"]["id"])
        return r.status_code, r.json().get("error", {}).get("code", "")

    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(create, range(6 * CAP)))
    assert sorted(got).count((201, "")) == CAP, got
    assert {g for g in got if g[0] != 201} == {(429, "too_many_waiting")}, got
    assert waiting(a) == CAP  # nothing stored for the refused ones
    # either process refuses the next one with the count it found in the database
    for c in clients:
        r = c.post("/api/tables", json=WAITING)
        assert r.status_code == 429, r.text
        assert f"{CAP} tables you created are waiting" in r.json()["error"]["message"]
    # another address is not affected, on either process
    for i, c in enumerate(two):
        other = TestClient(c.app, client=(f"192.0.2.{30 + i}", 40000))
        assert other.post("/api/tables", json=WAITING).status_code == 201
    # a table that starts (joined on the other process) makes room for one more
    joined = b.post(f"/api/tables/{made[0]}/join", json={"name": "Bo"})
    assert joined.status_code == 200, joined.text
    assert waiting(b) == CAP - 1 + 2
    assert clients[0].post("/api/tables", json=WAITING).status_code == 201
    assert clients[1].post("/api/tables", json=WAITING).status_code == 429
