"""Startup isolation: one damaged table (each kind of damage below) is marked broken, with
the reason in the log and in its description; the server starts and every other table
resumes and plays on."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import dragonlair
from dragonlair.web import create_app
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store
from tests.web.serverkit import config

PEOPLE = [{"type": "human"}] * 2
MOVES = 4

DAMAGE = {
    "a gap in the stored moves": (
        "DELETE FROM dl_actions WHERE table_id = :t AND move = 1",
        "moves jump from 1 to 2",
    ),
    "options that are not JSON": (
        "UPDATE dl_tables SET options = '{not json' WHERE id = :t",
        "cannot be read",
    ),
    "a playing table missing a seat row": (
        "DELETE FROM dl_seats WHERE table_id = :t AND seat = 1",
        "seat 1 missing",
    ),
    "a seat token row missing": (
        "UPDATE dl_seats SET token_hash = NULL WHERE table_id = :t AND seat = 0",
        "seat 0 is a person's seat without a token",
    ),
    "settings that do not fit": (
        """UPDATE dl_tables SET settings = '{"deadline": 15, "away": "soon"}' WHERE id = :t""",
        "ValueError",
    ),
    "a stored action the rules refuse": (
        "UPDATE dl_actions SET action = 'bid 99' WHERE table_id = :t AND move = 2",
        "bid 99",
    ),
    "a garbled sealed seed": (
        "UPDATE dl_tables SET sealed = x'00ff' WHERE id = :t",
        "sealed with another key",
    ),
}


def played(sqlite_url: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two tables of people, a few moves into their games (stored as the server would)."""
    cfg = config(sqlite_url)
    with TestClient(create_app(cfg)) as c:
        tables = [
            c.post(
                "/api/tables", json={"game": "pebble-auction", "players": 2, "seats": PEOPLE}
            ).json()
            for _ in range(2)
        ]
        seeds = [c.app.state.hub.tables[t["table"]["id"]].seed for t in tables]  # type: ignore[attr-defined]
    store = Store(sqlite_url, sealer=Sealer.from_file(cfg.seal_key_path()))
    try:
        for created, seed in zip(tables, seeds, strict=True):
            st = dragonlair.make("pebble-auction", players=2).new_game(seed)
            for move in range(MOVES):
                seat = st.to_act[0]
                action = st.legal_actions(seat)[0]
                store.append(created["table"]["id"], move, seat, str(action), None).result()
                st.apply(seat, action)
    finally:
        store.close()
    return tables[0], tables[1]


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_table_is_broken_and_the_others_resume(
    sqlite_url: str, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    good, bad = played(sqlite_url)
    bad_id, good_id = bad["table"]["id"], good["table"]["id"]
    statement, reason = DAMAGE[damage]
    with sqlite3.connect(Path(sqlite_url.removeprefix("sqlite:///"))) as db:
        assert db.execute(statement.replace(":t", "?"), (bad_id,)).rowcount == 1
    caplog.set_level(logging.ERROR, logger="dragonlair")
    with TestClient(create_app(config(sqlite_url))) as c:
        assert c.get("/api/health").json()["ok"]
        info = c.get(f"/api/tables/{bad_id}").json()
        assert info["status"] == "broken" and reason in info["problem"], info["problem"]
        assert any(bad_id in r.getMessage() and reason in r.getMessage() for r in caplog.records)
        with c.websocket_connect(f"/ws/tables/{bad_id}") as ws:
            ws.send_json({"type": "hello", "spectate": True})
            assert ws.receive_json()["code"] == "broken"
        # the other table resumed where it was, and plays on
        assert c.get(f"/api/tables/{good_id}").json()["status"] == "playing"
        seat = c.app.state.hub.tables[good_id].state.to_act[0]  # type: ignore[attr-defined]
        token = next(p["token"] for p in good["seats"] if p["seat"] == seat)
        with c.websocket_connect(f"/ws/tables/{good_id}") as ws:
            ws.send_json({"type": "hello", "token": token})
            assert ws.receive_json()["type"] == "welcome"
            state = ws.receive_json()
            assert state["move"] == MOVES and state["legal"]
            ws.send_json({"type": "act", "move": MOVES, "action": state["legal"][0]})
            while (m := ws.receive_json())["type"] != "state":
                pass
            assert m["move"] == MOVES + 1
