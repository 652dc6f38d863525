"""Two processes' worth of the server (two apps, ``shard`` 1/2 and 2/2) on one PostgreSQL
database, without a proxy: one owner per table, ``not_owner`` from the other (a WebSocket
refused before its upgrade), the listing from the database, and a table taken over when
its owner stops."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from dragonlair.web import create_app
from tests.web.conftest import fresh_database
from tests.web.serverkit import config


def test_one_owner_and_a_takeover(postgres: str, tmp_path: Path) -> None:
    db = fresh_database(postgres)
    key = str(tmp_path / "seal.key")

    def app(k: int) -> TestClient:
        return TestClient(create_app(config(db, shard=f"{k}/2", seal_key=key, adopt_interval=0.2)))

    b = app(2).__enter__()
    try:
        with app(1) as a:
            r = a.post(
                "/api/tables",
                json={"game": "pebble-auction", "players": 2, "seats": [{"type": "human"}] * 2},
            )
            assert r.status_code == 201
            created = r.json()
            tid = created["table"]["id"]
            assert a.get("/status").json()["owns"] == [tid]
            assert a.get(f"/api/tables/{tid}").status_code == 200
            other = b.get(f"/api/tables/{tid}")
            assert other.status_code == 503 and other.json()["error"]["code"] == "not_owner"
            join = b.post(f"/api/tables/{tid}/join", json={})
            assert join.status_code == 503 and join.json()["error"]["code"] == "not_owner"
            with (
                pytest.raises(WebSocketDenialResponse) as denied,
                b.websocket_connect(f"/ws/tables/{tid}"),
            ):
                pass
            assert denied.value.status_code == 503
            for side in (a, b):  # any process lists every table
                listing = side.get("/api/tables")
                assert [t["id"] for t in listing.json()] == [tid]
                assert listing.headers["X-Total-Count"] == "1"
            assert b.get("/status").json()["owns"] == []
            assert b.get("/api/tables/nosuchtable").status_code == 404
        # process 1 stopped: process 2 takes the table within a few looks
        end = time.monotonic() + 30
        while b.get("/status").json()["owns"] != [tid]:
            assert time.monotonic() < end, "the table was not taken over"
            time.sleep(0.1)
        token = created["seats"][0]["token"]
        with b.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": token, "since": 0})
            assert ws.receive_json()["type"] == "welcome"
    finally:
        b.__exit__(None, None, None)


def test_the_listing_pages_every_process_listed_tables_in_the_database(
    postgres: str, tmp_path: Path
) -> None:
    db = fresh_database(postgres)
    key = str(tmp_path / "seal.key")

    def app(k: int) -> TestClient:
        return TestClient(create_app(config(db, shard=f"{k}/2", seal_key=key)))

    with app(1) as a, app(2) as b:
        made = []
        for i in range(7):
            r = (a if i % 2 else b).post(
                "/api/tables",
                json={
                    "game": "pebble-auction",
                    "players": 2,
                    "seats": [{"type": "human"}] * 2,
                    "listed": i not in (2, 5),
                },
            )
            assert r.status_code == 201
            made.append(r.json()["table"]["id"])
        listed = [t for i, t in enumerate(made) if i not in (2, 5)]
        for side in (a, b):
            first = side.get("/api/tables", params={"limit": 2})
            assert [t["id"] for t in first.json()] == listed[:2]
            assert first.headers["X-Total-Count"] == "5"
            rest = side.get("/api/tables", params={"limit": 2, "offset": 2})
            assert [t["id"] for t in rest.json()] == listed[2:4]
            statuses = {t["status"] for t in side.get("/api/tables").json()}
            assert len(statuses) == 1  # created alike
            (status,) = statuses
            same = side.get("/api/tables", params={"status": status, "limit": 50})
            assert [t["id"] for t in same.json()] == listed
            other = "waiting" if status == "playing" else "playing"
            assert side.get("/api/tables", params={"status": other}).json() == []


def test_the_listing_says_when_another_process_turn_based_table_ends_if_idle(
    postgres: str, tmp_path: Path
) -> None:
    db = fresh_database(postgres)
    key = str(tmp_path / "seal.key")

    def app(k: int) -> TestClient:
        return TestClient(create_app(config(db, shard=f"{k}/2", seal_key=key)))

    with app(1) as a, app(2) as b:
        body = {"game": "dragon-race", "players": 2, "seats": [{"type": "human"}] * 2}
        tid = a.post("/api/tables", json={**body, "pace": 86400}).json()["table"]["id"]
        end = time.monotonic() + 20
        while (ends := a.get(f"/api/tables/{tid}").json()["abandons"]) is None:
            assert time.monotonic() < end, "the table's idle end was never stored"
            time.sleep(0.05)
        (row,) = [t for t in b.get("/api/tables").json() if t["id"] == tid]
        assert row["abandons"] == ends and row["vote"] is None


def test_another_process_tells_a_returning_seat_where_the_rematch_is(
    postgres: str, tmp_path: Path
) -> None:
    """A seat coming back to a finished table through a process that reads it from storage
    is told where the rematch is, as the process that made the rematch tells it."""
    db = fresh_database(postgres)
    key = str(tmp_path / "seal.key")

    def app(k: int) -> TestClient:
        return TestClient(create_app(config(db, shard=f"{k}/2", seal_key=key)))

    def until(ws: Any, kind: str) -> dict[str, Any]:
        for _ in range(50):
            m: dict[str, Any] = ws.receive_json()
            if m["type"] == kind:
                return m
        raise AssertionError(f"no {kind} message")

    def arrival(side: TestClient, tid: str, token: str) -> list[dict[str, Any]]:
        """What a seat is sent on arrival: everything before the answer to a ping."""
        with side.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": token, "since": 0})
            ws.send_json({"type": "ping"})
            got = []
            while (m := ws.receive_json())["type"] != "pong":
                got.append(m)
        return [m for m in got if m["type"] == "rematch"]

    with app(1) as a, app(2) as b:
        body = {"game": "pebble-auction", "players": 2, "seats": [{"type": "human"}] * 2}
        created = a.post("/api/tables", json=body).json()
        tid, seats = created["table"]["id"], created["seats"]
        with (
            a.websocket_connect(f"/ws/tables/{tid}") as first,
            a.websocket_connect(f"/ws/tables/{tid}") as second,
        ):
            first.send_json({"type": "hello", "token": seats[0]["token"], "since": 0})
            second.send_json({"type": "hello", "token": seats[1]["token"], "since": 0})
            until(first, "welcome")
            until(second, "welcome")
            second.send_json({"type": "concede"})
            while until(first, "state")["status"] != "over":
                pass
            first.send_json({"type": "rematch"})
            told = until(second, "rematch")
        assert told["link"] and told["by"] == 0
        # the friend opens the new seat (at its owner, the process that made it)
        new, token = told["table"], told["link"].split("#", 1)[1]
        with a.websocket_connect(f"/ws/tables/{new}") as ws:
            ws.send_json({"type": "hello", "token": token, "since": 0})
            until(ws, "welcome")
        at_owner = arrival(a, tid, seats[1]["token"])
        at_other = arrival(b, tid, seats[1]["token"])
        assert at_owner == [{"type": "rematch", "table": new, "by": 0, "link": None}]
        assert at_other == at_owner
        # asked for again there, it is the same rematch, not a second one
        with b.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": seats[0]["token"], "since": 0})
            until(ws, "welcome")
            ws.send_json({"type": "rematch"})
            assert until(ws, "rematch")["table"] == new
