"""Tables waiting for players: capped per address and in all, and kept as rows, not in
memory, until someone comes to them (dragonlair.web.lobby.Hub.create)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from dragonlair.web import create_app
from tests.web.serverkit import config

WAITING = {"game": "pebble-auction", "players": 2}
PEOPLE = {**WAITING, "seats": [{"type": "human"}] * 2}


def rows(url: str, status: str) -> int:
    with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
        return int(
            db.execute("SELECT count(*) FROM dl_tables WHERE status = ?", (status,)).fetchone()[0]
        )


def poll(check: Callable[[], Any], seconds: float = 10.0) -> Any:
    end = time.monotonic() + seconds
    while True:
        got = check()
        if got or time.monotonic() > end:
            return got
        time.sleep(0.02)


def test_waiting_tables_are_capped_per_address_and_in_all(sqlite_url: str) -> None:
    cfg = config(sqlite_url, max_waiting_per_address=3, max_waiting=4)
    with TestClient(create_app(cfg)) as c:
        made = [c.post("/api/tables", json=WAITING) for _ in range(3)]
        assert [r.status_code for r in made] == [201] * 3
        refused = c.post("/api/tables", json=WAITING)
        assert refused.status_code == 429, refused.text
        error = refused.json()["error"]
        assert error["code"] == "too_many_waiting"
        assert "3 tables you created are waiting" in error["message"]
        assert rows(sqlite_url, "waiting") == 3  # nothing stored for the refused one
        # a table that waits for nobody is not counted
        assert c.post("/api/tables", json=PEOPLE).status_code == 201
        # another address's tables count in all: the fourth waiting table fills the server
        other = TestClient(c.app, client=("192.0.2.7", 50000))
        assert other.post("/api/tables", json=WAITING).status_code == 201
        full = other.post("/api/tables", json=WAITING)
        assert full.status_code == 503, full.text
        assert full.json()["error"]["code"] == "lobby_full"
        assert rows(sqlite_url, "waiting") == 4
        # a table that starts leaves room for another
        tid = made[0].json()["table"]["id"]
        assert c.post(f"/api/tables/{tid}/join", json={"name": "Bo"}).status_code == 200
        assert other.post("/api/tables", json=WAITING).status_code == 201
        assert c.post("/api/tables", json=WAITING).json()["error"]["code"] == "lobby_full"


def test_a_waiting_table_is_a_row_until_someone_comes(sqlite_url: str) -> None:
    cfg = config(sqlite_url, waiting_ttl=3.0)
    with TestClient(create_app(cfg)) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        created = c.post(
            "/api/tables",
            json={**WAITING, "seats": [{"type": "human", "name": "Ann"}, {"type": "open"}]},
        )
        assert created.status_code == 201
        tid = created.json()["table"]["id"]
        assert tid not in hub.tables
        # the lobby lists it from its row, as its creation described it
        listed = c.get("/api/tables", params={"status": "waiting"}).json()
        assert [t["id"] for t in listed] == [tid]
        assert listed[0]["seats"][0]["name"] == "Ann"
        assert listed[0]["expires"] == created.json()["table"]["expires"]
        # a request for it reads it into memory; nobody connected, a sweep or two puts it back
        assert c.get(f"/api/tables/{tid}").json()["status"] == "waiting"
        assert tid in hub.tables
        assert poll(lambda: tid not in hub.tables)
        # one that waited too long expires from its row, never read again
        assert poll(lambda: rows(sqlite_url, "expired") == 1)
        assert tid not in hub.tables
        assert c.get(f"/api/tables/{tid}").json()["status"] == "expired"


def test_a_sleeping_table_is_joined_and_played_and_a_restart_leaves_it_asleep(
    sqlite_url: str, tmp_path: Path
) -> None:
    cfg = config(sqlite_url, seal_key=str(tmp_path / "seal.key"), max_waiting_per_address=2)
    with TestClient(create_app(cfg)) as c:
        first = c.post("/api/tables", json=WAITING).json()
        other = c.post("/api/tables", json=WAITING).json()["table"]["id"]
    with TestClient(create_app(cfg)) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert hub.tables == {}  # recovery reads only the tables in play
        # who created the waiting tables is read back from their rows
        assert c.post("/api/tables", json=WAITING).status_code == 429
        tid = first["table"]["id"]
        joined = c.post(f"/api/tables/{tid}/join", json={"name": "Bo"})
        assert joined.status_code == 200, joined.text
        assert joined.json()["table"]["status"] == "playing"
        assert hub.tables[tid].status == "playing"
        token = first["seats"][0]["token"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": token})
            assert ws.receive_json()["type"] == "welcome"
        assert other not in hub.tables
        assert rows(sqlite_url, "waiting") == 1
        assert c.post("/api/tables", json=WAITING).status_code == 201  # one started
