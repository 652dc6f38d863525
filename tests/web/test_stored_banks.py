"""A person's time bank is stored whenever it is charged: a restart does not fill it again
(docs/server.md, "Away policy")."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from dragonlair.web import create_app
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store
from tests.web.serverkit import config

FRIENDS = {"game": "dragon-race", "players": 2, "seats": [{"type": "human"}] * 2, "away": 30}


def banks(c: TestClient, tid: str) -> list[float | None]:
    return [s["bank"] for s in c.get(f"/api/tables/{tid}").json()["seats"]]


@pytest.mark.timeout(60)
def test_a_charged_bank_survives_a_restart(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url))) as c:
        created = c.post("/api/tables", json=FRIENDS).json()
        tid = created["table"]["id"]
        ann, bob = (p["token"] for p in created["seats"])
        with c.websocket_connect(f"/ws/tables/{tid}") as a:
            a.send_json({"type": "hello", "token": ann, "since": 0})
            assert a.receive_json()["type"] == "welcome"
            with c.websocket_connect(f"/ws/tables/{tid}") as b:
                b.send_json({"type": "hello", "token": bob, "since": 0})
                assert b.receive_json()["type"] == "welcome"
            time.sleep(1.2)  # Bob is away while Ann stays: his bank runs down
            with c.websocket_connect(f"/ws/tables/{tid}") as b:
                b.send_json({"type": "hello", "token": bob, "since": 0})
                assert b.receive_json()["type"] == "welcome"
                left = banks(c, tid)[1]
                assert left is not None and left <= 29.0
    store = Store(sqlite_url, sealer=Sealer.from_file(config(sqlite_url).seal_key_path()))
    try:
        stored = store.load(tid)
        assert stored is not None and stored.seats[1].bank is not None
        assert stored.seats[1].bank <= 29.0
    finally:
        store.close()
    with TestClient(create_app(config(sqlite_url))) as c:  # not refilled to 30
        after = banks(c, tid)[1]
        assert after is not None and after <= 29.0
