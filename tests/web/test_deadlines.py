"""Turn-based tables (dragonlair.web.table.deadlines): a deadline per move, stored with
the move and swept by a query; when it passes the table's takeover bot plays that one
move, once, even across a restart or two server processes; "the table waits" waits."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from dragonlair.web import create_app
from dragonlair.web.store import Store, normalize_url
from dragonlair.web.table.deadlines import ManualClock
from tests.web.conftest import fresh_database
from tests.web.serverkit import config

DAY = 86400.0
FRIENDS = {"game": "dragon-race", "players": 2, "seats": [{"type": "human"}] * 2}


def app(db: str, clock: ManualClock, **kw: Any) -> TestClient:
    return TestClient(create_app(config(db, clock=clock, deadline_sweep=0.05, **kw)))


def until(check: Callable[[], bool], what: str, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


def moves(db: str) -> list[tuple[int, int, str]]:
    """The stored actions, read straight from the database."""
    engine = create_engine(normalize_url(db))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT move, seat, action FROM dl_actions ORDER BY move")
            ).all()
        return [(r[0], r[1], r[2]) for r in rows]
    finally:
        engine.dispose()


@pytest.mark.timeout(60)
def test_a_missed_move_is_played_by_the_tables_bot_and_marked_for_its_player(
    sqlite_url: str,
) -> None:
    clock = ManualClock(1_800_000_000.0)
    with app(sqlite_url, clock) as c:
        created = c.post("/api/tables", json={**FRIENDS, "pace": DAY}).json()
        table = created["table"]
        tid = table["id"]
        assert table["settings"]["pace"] == DAY and table["settings"]["away"] is None
        assert table["settings"]["takeover"] == "heuristic"
        until(lambda: c.get(f"/api/tables/{tid}").json()["due"] is not None, "the deadline")
        info = c.get(f"/api/tables/{tid}").json()
        assert info["due"] == clock.now + DAY
        asked = info["to_act"][0]
        listed = c.get("/api/tables").json()
        assert [t["settings"]["pace"] for t in listed] == [DAY]
        token = created["seats"][asked]["token"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": token, "since": 0})
            assert ws.receive_json()["type"] == "welcome"
            state = ws.receive_json()
            assert state["type"] == "state" and state["due"] == clock.now + DAY
            clock.advance(DAY - 1)  # a second before: nothing
            time.sleep(0.3)
            assert c.get(f"/api/tables/{tid}").json()["move"] == 0
            clock.advance(2)
            seen: list[dict[str, Any]] = []
            while not any(m["type"] == "played_for_you" for m in seen):
                seen.append(ws.receive_json())
            report = next(m for m in seen if m["type"] == "played_for_you")
            assert report["seat"] == asked and report["deadline"] is True
            assert report["by"] == "heuristic" and report["moves"][0]["move"] == 0
        after = c.get(f"/api/tables/{tid}").json()
        # (a forced answer of the other seat may follow at once: its autoplay)
        assert after["move"] >= 1
        # the next move has its own deadline, a day from when it was asked
        assert after["due"] == clock.now + DAY
    assert moves(sqlite_url)[0][:2] == (0, asked)


@pytest.mark.timeout(60)
def test_the_table_waits_stores_no_deadline_and_never_moves(sqlite_url: str) -> None:
    clock = ManualClock()
    with app(sqlite_url, clock) as c:
        created = c.post("/api/tables", json={**FRIENDS, "pace": 3600, "takeover": None}).json()
        tid = created["table"]["id"]
        # (a day short of the idle timeout, which ends it as abandoned: test_votes.py)
        clock.advance(6 * DAY)
        time.sleep(0.3)
        info = c.get(f"/api/tables/{tid}").json()
        assert info["due"] is None and info["move"] == 0 and info["status"] == "playing"
        assert not info["paused"]  # everyone away is how a turn-based table is played
    assert moves(sqlite_url) == []


@pytest.mark.timeout(60)
def test_a_deadline_survives_a_restart_and_is_acted_on_once(sqlite_url: str) -> None:
    clock = ManualClock(1_800_000_000.0)
    with app(sqlite_url, clock) as c:
        tid = c.post("/api/tables", json={**FRIENDS, "pace": 12 * 3600}).json()["table"]["id"]
        until(lambda: c.get(f"/api/tables/{tid}").json()["due"] is not None, "the deadline")
        due = c.get(f"/api/tables/{tid}").json()["due"]
    # the server is stopped past the deadline; started again, it plays the move once
    clock.advance(3 * DAY)
    with app(sqlite_url, clock) as c:
        assert c.get(f"/api/tables/{tid}").json()["status"] == "playing"
        until(lambda: c.get(f"/api/tables/{tid}").json()["move"] >= 1, "the missed move")
        time.sleep(0.3)
        after = c.get(f"/api/tables/{tid}").json()
        assert after["due"] == clock.now + 12 * 3600
    assert due == 1_800_000_000.0 + 12 * 3600
    played = moves(sqlite_url)
    assert played[0][0] == 0
    with app(sqlite_url, clock) as c:  # and once more: nothing is due, nothing is played
        time.sleep(0.3)
        assert c.get(f"/api/tables/{tid}").json()["move"] == len(played)
    assert moves(sqlite_url) == played


def test_bad_paces_are_refused_and_change_nothing(sqlite_url: str) -> None:
    with app(sqlite_url, ManualClock()) as c:
        both = c.post("/api/tables", json={**FRIENDS, "pace": DAY, "away": 60})
        assert both.status_code == 400 and both.json()["error"]["code"] == "bad_pace"
        for pace in (60, 15 * DAY, "soon", -1):
            r = c.post("/api/tables", json={**FRIENDS, "pace": pace})
            assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
        assert c.get("/api/tables").json() == []
        real = c.post("/api/tables", json=FRIENDS).json()["table"]
        assert real["settings"]["pace"] is None and real["due"] is None


def test_the_sweep_is_a_query_over_the_due_index(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    try:
        with store.engine.connect() as conn:
            plan = " ".join(
                str(r[-1])
                for r in conn.execute(
                    text(
                        "EXPLAIN QUERY PLAN SELECT id, due FROM dl_tables WHERE "
                        "status = 'playing' AND due IS NOT NULL AND due <= 5 ORDER BY due"
                    )
                )
            )
        assert "dl_tables_due" in plan, plan
    finally:
        store.close()


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_two_processes_seeing_one_passed_deadline_store_one_move(
    postgres: str, tmp_path: Path
) -> None:
    """Process 1 serves the table; process 2 takes it over (as from a silent owner) while
    process 1 still holds it in memory; both sweeps see the passed deadline and act: the
    move is stored once, by the owner's fenced epoch, and process 1 lets the table go."""
    db = fresh_database(postgres)
    key = str(tmp_path / "seal.key")
    clock = ManualClock(1_800_000_000.0)
    # a long lease: process 1 does not notice by its heartbeat that it lost the table
    kw: dict[str, Any] = {"seal_key": key, "adopt_interval": 30.0, "lease": 300.0}
    with app(db, clock, shard="1/2", **kw) as a, app(db, clock, shard="2/2", **kw) as b:
        tid = a.post("/api/tables", json={**FRIENDS, "pace": DAY}).json()["table"]["id"]
        until(lambda: a.get(f"/api/tables/{tid}").json()["due"] is not None, "the deadline")
        engine = create_engine(normalize_url(db))
        try:
            with engine.begin() as conn:  # as if process 1 had fallen silent
                conn.execute(text("UPDATE dl_tables SET owner = NULL WHERE id = :i"), {"i": tid})
        finally:
            engine.dispose()
        assert b.get(f"/api/tables/{tid}").status_code == 200  # process 2 takes it
        assert a.get("/status").json()["owns"] == [tid]  # process 1 still thinks it does
        clock.advance(DAY + 1)
        until(lambda: len(moves(db)) >= 1, "the missed move")
        stale = a.app.state.hub.tables.get(tid)  # type: ignore[attr-defined]
        if stale is not None:
            # process 2's move landed before process 1's sweep looked (it then sees no
            # deadline in storage): process 1 acts on the deadline it holds in memory
            assert a.portal is not None
            assert a.portal.call(stale.deadline_passed) == 0
        until(lambda: a.get("/status").json()["owns"] == [], "process 1 to let the table go")
        time.sleep(0.5)
        # move 0, the missed one, was played for seat 0 by one process; what follows (a
        # forced answer of seat 1) has a new deadline a day away: nothing more is due
        played = moves(db)
        assert played[0][:2] == (0, 0)
        info = b.get(f"/api/tables/{tid}").json()
        assert info["move"] == len(played) and info["due"] == clock.now + DAY
        # process 1 lists the table from the database, with its pace and deadline
        listed = a.get("/api/tables").json()
        assert [(t["settings"]["pace"], t["due"]) for t in listed] == [(DAY, clock.now + DAY)]
