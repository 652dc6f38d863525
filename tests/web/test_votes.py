"""How a turn-based table nobody finishes ends (dragonlair.web.table.votes): by its
present players' vote, or after long without a person's move; either way as abandoned,
without a result, stored so that it holds after a restart. Refusals change nothing."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from dragonlair.web import create_app
from dragonlair.web.table.deadlines import ManualClock
from tests.web.serverkit import config

DAY = 86400.0
FRIENDS = {"game": "dragon-race", "players": 3, "seats": [{"type": "human"}] * 3}


def app(db: str, clock: ManualClock, **kw: Any) -> TestClient:
    return TestClient(create_app(config(db, clock=clock, deadline_sweep=0.05, **kw)))


def until(check: Callable[[], bool], what: str, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


def hello(ws: WebSocketTestSession, token: str) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token, "since": 0})
    welcome: dict[str, Any] = ws.receive_json()
    assert welcome["type"] == "welcome"
    return welcome


def next_of(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == kind:
            return m


def info(c: TestClient, tid: str) -> dict[str, Any]:
    got: dict[str, Any] = c.get(f"/api/tables/{tid}").json()
    return got


def refused(ws: WebSocketTestSession, msg: dict[str, Any]) -> dict[str, Any]:
    ws.send_json(msg)
    return next_of(ws, "error")


@pytest.mark.timeout(60)
def test_the_present_players_vote_to_end_and_the_table_ends_abandoned_unrated(
    sqlite_url: str,
) -> None:
    clock = ManualClock(1_800_000_000.0)
    with app(sqlite_url, clock) as c:
        created = c.post("/api/tables", json={**FRIENDS, "pace": DAY}).json()
        tid = created["table"]["id"]
        tokens = [s["token"] for s in created["seats"]]
        watch = created["watch"]["token"]
        with (
            c.websocket_connect(f"/ws/tables/{tid}") as a,
            c.websocket_connect(f"/ws/tables/{tid}") as b,
            c.websocket_connect(f"/ws/tables/{tid}") as w,
        ):
            hello(a, tokens[0])
            hello(b, tokens[1])
            hello(w, watch)
            # a spectator has no vote; refusing when there is no vote says so
            assert refused(w, {"type": "end_vote"})["code"] == "spectator"
            assert refused(a, {"type": "end_vote", "agree": False})["code"] == "no_vote"
            assert c.get(f"/api/tables/{tid}").json()["vote"] is None
            a.send_json({"type": "end_vote"})
            seats = next_of(b, "seats")
            while seats["vote"] is None:
                seats = next_of(b, "seats")
            # the voters are the persons here now (seat 2 never came)
            assert seats["vote"]["by"] == 0 and seats["vote"]["voters"] == [0, 1]
            assert seats["vote"]["agreed"] == [0]
            # a second vote from the same seat is refused, and changes nothing
            assert refused(a, {"type": "end_vote"})["code"] == "already_voted"
            # seat 2 arrives after the vote began: it has no voice in it
            with c.websocket_connect(f"/ws/tables/{tid}") as late:
                hello(late, tokens[2])
                assert refused(late, {"type": "end_vote"})["code"] == "not_a_voter"
            assert c.get(f"/api/tables/{tid}").json()["vote"]["agreed"] == [0]
            b.send_json({"type": "end_vote", "agree": True})
            state = next_of(a, "state")
            while state["status"] != "abandoned":
                state = next_of(a, "state")
            # no more moves, no vote after the end
            assert refused(b, {"type": "end_vote"})["code"] == "not_playing"
        info = c.get(f"/api/tables/{tid}").json()
        assert info["status"] == "abandoned" and info["result"] is None
        assert info["vote"]["ended"] == "vote" and info["vote"]["agreed"] == [0, 1]
    # stored: after a restart the table is still ended, and says how
    with app(sqlite_url, clock) as c:
        info = c.get(f"/api/tables/{tid}").json()
        assert info["status"] == "abandoned" and info["vote"]["ended"] == "vote"


@pytest.mark.timeout(60)
def test_a_refusal_withdraws_the_vote_and_an_open_vote_survives_a_restart(
    sqlite_url: str,
) -> None:
    clock = ManualClock(1_800_000_000.0)
    two = {**FRIENDS, "players": 2, "seats": [{"type": "human"}] * 2}
    with app(sqlite_url, clock) as c:
        created = c.post("/api/tables", json={**two, "pace": DAY}).json()
        tid = created["table"]["id"]
        tokens = [s["token"] for s in created["seats"]]
        with c.websocket_connect(f"/ws/tables/{tid}") as a:
            hello(a, tokens[0])
            # alone at the table: no vote
            assert refused(a, {"type": "end_vote"})["code"] == "vote_alone"
            with c.websocket_connect(f"/ws/tables/{tid}") as b:
                hello(b, tokens[1])
                b.send_json({"type": "end_vote"})
                until(lambda: c.get(f"/api/tables/{tid}").json()["vote"] is not None, "the vote")
    with app(sqlite_url, clock) as c:
        assert c.get(f"/api/tables/{tid}").json()["vote"]["by"] == 1
        with c.websocket_connect(f"/ws/tables/{tid}") as a:
            welcome = hello(a, tokens[0])
            assert welcome["table"]["vote"]["voters"] == [0, 1]
            a.send_json({"type": "end_vote", "agree": False})
            until(lambda: c.get(f"/api/tables/{tid}").json()["vote"] is None, "the refusal")
        info = c.get(f"/api/tables/{tid}").json()
        assert info["status"] == "playing"


def test_a_real_time_table_has_no_vote(sqlite_url: str) -> None:
    with app(sqlite_url, ManualClock()) as c:
        created = c.post("/api/tables", json=FRIENDS).json()
        tid = created["table"]["id"]
        with (
            c.websocket_connect(f"/ws/tables/{tid}") as a,
            c.websocket_connect(f"/ws/tables/{tid}") as b,
        ):
            hello(a, created["seats"][0]["token"])
            hello(b, created["seats"][1]["token"])
            error = refused(a, {"type": "end_vote"})
            assert error["code"] == "not_turn_based" and "concede" in error["message"]
        info = c.get(f"/api/tables/{tid}").json()
        assert info["vote"] is None and info["status"] == "playing"


@pytest.mark.timeout(60)
def test_a_table_nobody_moves_at_ends_abandoned_after_the_timeout_once(sqlite_url: str) -> None:
    clock = ManualClock(1_800_000_000.0)
    two = {"game": "dragon-race", "players": 2, "seats": [{"type": "human"}] * 2}
    with app(sqlite_url, clock, abandon_after=7 * DAY) as c:
        waits = c.post("/api/tables", json={**two, "pace": DAY, "takeover": None}).json()
        slow = c.post("/api/tables", json={**two, "pace": 5 * DAY, "takeover": None}).json()
        played = c.post("/api/tables", json={**two, "pace": DAY}).json()
        ids = [t["table"]["id"] for t in (waits, slow, played)]
        until(lambda: all(info(c, t)["abandons"] is not None for t in ids), "their ends")
        first = info(c, ids[0])
        assert first["abandons"] == clock.now + 7 * DAY
        # two move deadlines when they are longer than the server's setting
        assert c.get(f"/api/tables/{ids[1]}").json()["abandons"] == clock.now + 10 * DAY
        # a person's own move puts the end further; a bot's at a deadline does not
        tid = ids[0]
        asked = first["to_act"][0]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            hello(ws, waits["seats"][asked]["token"])
            state = next_of(ws, "state")
            clock.advance(3 * DAY)
            ws.send_json({"type": "act", "move": state["move"], "action": state["legal"][0]})
            until(lambda: c.get(f"/api/tables/{tid}").json()["move"] >= 1, "the move")
        assert c.get(f"/api/tables/{tid}").json()["abandons"] == clock.now + 7 * DAY
        clock.advance(4 * DAY + 1)  # 7 days after the bots' table started: its bots moved
        until(lambda: c.get(f"/api/tables/{ids[2]}").json()["status"] == "abandoned", "idle")
        assert c.get(f"/api/tables/{ids[0]}").json()["status"] == "playing"
        assert c.get(f"/api/tables/{ids[1]}").json()["status"] == "playing"
        gone = c.get(f"/api/tables/{ids[2]}").json()
        assert gone["vote"]["ended"] == "timeout" and gone["result"] is None
    # the server is stopped past the other deadlines; started again, it ends them once
    clock.advance(7 * DAY)
    with app(sqlite_url, clock, abandon_after=7 * DAY) as c:
        until(lambda: all(info(c, t)["status"] == "abandoned" for t in ids[:2]), "their ends")
