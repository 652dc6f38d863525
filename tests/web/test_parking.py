"""Idle turn-based tables cost no memory (Hub.park_idle): a table at rest that nobody
opened for ``park_after`` seconds is dropped from memory, still listed, and read again
from storage, exactly as it was, when someone opens it or its deadline comes; a table
read at the server's start that waits for its people is never built into memory."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dragonlair.web import create_app
from dragonlair.web.table.deadlines import ManualClock
from tests.web.serverkit import config

DAY = 86400.0
FRIENDS = {"game": "dragon-race", "players": 2, "seats": [{"type": "human"}] * 2, "pace": DAY}


def app(db: str, clock: ManualClock, **kw: Any) -> TestClient:
    # a table opened is kept at least this long: at 0 the sweep (every 0.05 s) could drop
    # a table between a client's handshake reading it and the client attaching to it,
    # which a server's minute never allows
    kw.setdefault("park_after", 1.0)
    return TestClient(create_app(config(db, clock=clock, deadline_sweep=0.05, **kw)))


def until(check: Callable[[], bool], what: str, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


def hub(c: TestClient) -> Any:
    return c.app.state.hub  # type: ignore[attr-defined]


@pytest.mark.timeout(60)
def test_a_resting_table_leaves_memory_and_comes_back_as_it_was(sqlite_url: str) -> None:
    clock = ManualClock(1_800_000_000.0)
    with app(sqlite_url, clock) as c:
        created = c.post("/api/tables", json=FRIENDS).json()
        tid = created["table"]["id"]
        real = c.post("/api/tables", json={**FRIENDS, "pace": None}).json()["table"]["id"]
        until(lambda: tid in hub(c).parked, "the table to rest")
        assert tid not in hub(c).tables and real in hub(c).tables  # real time stays
        # still listed, and counted as in play
        assert tid in [t["id"] for t in c.get("/api/tables").json()]
        assert c.get("/status").json()["parked"] == 1
        # opened: read again from storage, with its deadline
        info = c.get(f"/api/tables/{tid}").json()
        assert info["status"] == "playing" and info["due"] == clock.now + DAY
        asked = info["to_act"][0]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": created["seats"][asked]["token"]})
            assert ws.receive_json()["type"] == "welcome"
            state = ws.receive_json()
            # a connected table is never dropped (a sweep's look, in the server's loop)
            assert c.portal.call(hub(c).park_idle) == 0  # type: ignore[union-attr]
            assert tid in hub(c).tables and tid not in hub(c).parked
            ws.send_json({"type": "act", "move": state["move"], "action": state["legal"][0]})
            while ws.receive_json()["type"] != "state":
                pass
        until(lambda: tid in hub(c).parked, "the table to rest again")
        moved = c.get(f"/api/tables/{tid}").json()
        assert moved["move"] >= 1
        # its deadline passes while it rests: the sweep reads it, the bot plays, and what
        # it played is shown to its player when they come back
        until(lambda: tid in hub(c).parked, "the table to rest again")
        other = moved["to_act"][0]
        clock.advance(DAY + 1)
        until(lambda: c.get(f"/api/tables/{tid}").json()["move"] > moved["move"], "the bot")
        until(lambda: tid in hub(c).parked, "the table to rest after its deadline")
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": created["seats"][other]["token"]})
            seen = [ws.receive_json() for _ in range(4)]
            report = next(m for m in seen if m["type"] == "played_for_you")
            # (a forced answer of its own may have come first: autoplay)
            assert report["seat"] == other and report["moves"][0]["move"] >= moved["move"]


@pytest.mark.timeout(60)
def test_tables_at_rest_are_not_built_at_the_start(sqlite_url: str) -> None:
    clock = ManualClock(1_800_000_000.0)
    with app(sqlite_url, clock, park_after=None) as c:
        ids = [c.post("/api/tables", json=FRIENDS).json()["table"]["id"] for _ in range(3)]
        until(lambda: all(c.get(f"/api/tables/{t}").json()["due"] for t in ids), "deadlines")
        assert not hub(c).parked  # park_after None: every table stays in memory
    # (a minute before an opened table rests again; one at rest at the start rests at once)
    with app(sqlite_url, clock, park_after=60.0) as c:
        assert set(hub(c).parked) == set(ids) and not set(ids) & set(hub(c).tables)
        assert c.get(f"/api/tables/{ids[0]}").json()["status"] == "playing"
        assert ids[0] in hub(c).tables
