"""Provably fair deals: the server draws the seed, publishes a commitment to it before the
first card and reveals it at the end; a chosen seed only at the creator's own table;
seeds sealed in storage, and a lost key costing only the unfinished tables."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import dragonlair
from dragonlair.core.position import to_toml
from dragonlair.web import create_app
from tests.web.serverkit import config

BOTS = [{"type": "bot", "level": "random"}] * 2
PEOPLE = [{"type": "human"}] * 2


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "pebble-auction")
    body.setdefault("players", 2)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def finish(client: TestClient, tid: str) -> dict[str, Any]:
    """Wait for a bots' table to finish (however loaded the machine); its description."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        info: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
        if info["status"] == "over":
            return info
        time.sleep(0.01)  # give the server's loop a turn
    raise AssertionError(f"table {tid} did not finish")


def test_the_deal_is_committed_before_play_and_revealed_at_the_end(client: TestClient) -> None:
    created = create(client, seats=BOTS)
    fair = created["table"]["fairness"]
    commitment = fair["commitment"]
    assert fair["revealed"] is None and fair["chosen_seed"] is False
    assert len(commitment) == 64 and int(commitment, 16) >= 0
    tid = created["table"]["id"]
    # while a game runs, nobody is told the seed (a table of people waits for them)
    running = create(client, seats=PEOPLE)["table"]["id"]
    assert client.get(f"/api/tables/{running}").json()["fairness"]["revealed"] is None
    info = finish(client, tid)
    revealed = info["fairness"]["revealed"]
    assert info["fairness"]["commitment"] == commitment
    seed, salt = revealed["seed"], revealed["salt"]
    assert 0 <= seed < 2**53  # a browser reads it exactly
    assert len(salt) == 32 and int(salt, 16) >= 0
    assert hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest() == commitment
    # the record replays from the revealed seed
    assert client.get(f"/api/tables/{tid}/record").json()["seed"] == seed
    # every table gets its own seed
    other = create(client, seats=BOTS)["table"]["fairness"]["commitment"]
    assert other != commitment


def test_a_chosen_seed_only_at_the_creators_own_table(client: TestClient) -> None:
    r = client.post(
        "/api/tables",
        json={"game": "pebble-auction", "players": 2, "seed": 424242},  # seat 1 is open
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "seed_not_allowed"
    assert "open seats" in r.json()["error"]["message"]
    assert client.get("/api/tables").json() == []  # nothing was created
    own = create(client, seats=[{"type": "human"}, {"type": "bot", "level": "random"}], seed=7)
    fair = own["table"]["fairness"]
    assert fair["chosen_seed"] is True and fair["chosen"] == "seed"
    assert fair["revealed"] is None and len(fair["commitment"]) == 64
    listed = client.get("/api/tables").json()
    assert [(t["fairness"]["chosen_seed"], t["fairness"]["chosen"]) for t in listed] == [
        (True, "seed")
    ]
    drawn = create(client, seats=PEOPLE)["table"]["fairness"]
    assert drawn["chosen_seed"] is False and drawn["chosen"] is None and drawn["commitment"]


def test_a_chosen_seed_is_committed_as_chosen(client: TestClient) -> None:
    """Friends handed the "human" seats of a chosen-seed table are told, and the commitment
    revealed at the end names the seed as chosen, so no check can pass it off as drawn."""
    friends = create(client, seats=PEOPLE, seed=12345)
    tid = friends["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "token": friends["seats"][1]["token"]})
        welcome = ws.receive_json()
    assert welcome["type"] == "welcome"
    assert welcome["table"]["fairness"]["chosen"] == "seed"
    bots = create(client, seats=BOTS, seed=12345)
    commitment = bots["table"]["fairness"]["commitment"]
    revealed = finish(client, bots["table"]["id"])["fairness"]["revealed"]
    assert revealed["seed"] == 12345 and revealed["source"] == "chosen-seed"
    salt = revealed["salt"]
    assert hashlib.sha256(f"12345:{salt}:chosen-seed".encode()).hexdigest() == commitment
    assert hashlib.sha256(f"12345:{salt}".encode()).hexdigest() != commitment


def test_a_deal_from_a_position_says_so_and_its_commitment_covers_the_position(
    client: TestClient,
) -> None:
    """A creator who starts a table of people from a position knows every card: the
    description, the listing and every seat's messages say the deal was chosen, and the
    commitment covers the position, revealed at the end with the seed and salt."""
    doc = dragonlair.make("dragon-stripes", players=2).new_game(12345).to_position()
    text = to_toml(doc | {"title": "New game"})  # a title that hides nothing any more
    body = {"game": "dragon-stripes", "players": 2, "position": text}
    friends = create(client, **body, seats=PEOPLE)
    fair = friends["table"]["fairness"]
    assert fair["chosen"] == "position" and fair["chosen_seed"] is False
    assert friends["table"]["settings"]["position"] == "New game"
    assert [t["fairness"]["chosen"] for t in client.get("/api/tables").json()] == ["position"]
    tid = friends["table"]["id"]
    assert client.get(f"/api/tables/{tid}").json()["fairness"]["chosen"] == "position"
    for seat in friends["seats"]:
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            welcome = ws.receive_json()
        assert welcome["table"]["fairness"]["chosen"] == "position"
    bots = create(client, **body, seats=BOTS)
    commitment = bots["table"]["fairness"]["commitment"]
    stored = client.app.state.hub.tables[bots["table"]["id"]].position  # type: ignore[attr-defined]
    over = finish(client, bots["table"]["id"])
    assert over["fairness"]["chosen"] == "position"
    revealed = over["fairness"]["revealed"]
    canon = json.dumps(stored, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert revealed["source"] == "position:" + hashlib.sha256(canon.encode()).hexdigest()
    seed, salt = revealed["seed"], revealed["salt"]
    text_hashed = f"{seed}:{salt}:{revealed['source']}"
    assert hashlib.sha256(text_hashed.encode()).hexdigest() == commitment
    assert hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest() != commitment
    # a drawn deal's commitment names no source, as before
    drawn = finish(client, create(client, seats=BOTS)["table"]["id"])["fairness"]
    assert drawn["chosen"] is None and drawn["revealed"]["source"] is None


def test_a_copy_of_the_database_shows_no_seed_of_a_game_in_play(
    sqlite_url: str, tmp_path: Path
) -> None:
    with TestClient(create_app(config(sqlite_url))) as c:
        waiting = create(c)["table"]["id"]
        playing = create(c, seats=PEOPLE)["table"]["id"]
        hub = c.app.state.hub  # type: ignore[attr-defined]
        c.get(f"/api/tables/{waiting}")  # a waiting table is read into memory on request
        seeds = {t: hub.tables[t].seed for t in (waiting, playing)}
        salts = {t: hub.tables[t].salt for t in (waiting, playing)}
    path = Path(sqlite_url.removeprefix("sqlite:///"))
    raw = b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*") if p.is_file())
    for t, seed in seeds.items():
        assert str(seed).encode() not in raw and salts[t].encode() not in raw
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT seed, salt, sealed FROM dl_tables").fetchall()
    assert all(seed is None and salt is None and sealed for seed, salt, sealed in rows)
    # the key lives outside the database, and the tables resume with it
    assert Path(f"{path}.key").is_file()
    with TestClient(create_app(config(sqlite_url))) as c:
        assert c.get(f"/api/tables/{playing}").json()["status"] == "playing"
        assert c.app.state.hub.tables[playing].seed == seeds[playing]  # type: ignore[attr-defined]


def test_a_lost_key_costs_only_the_unfinished_tables(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url))) as c:
        done = create(c, seats=BOTS)["table"]["id"]
        finish(c, done)
        playing = create(c, seats=PEOPLE)["table"]["id"]
    key = Path(sqlite_url.removeprefix("sqlite:///") + ".key")
    key.unlink()
    with TestClient(create_app(config(sqlite_url))) as c:
        assert c.get("/api/health").json()["ok"]
        info = c.get(f"/api/tables/{playing}").json()
        assert info["status"] == "broken" and "key" in info["problem"]
        assert c.get(f"/api/tables/{done}/record").status_code == 200  # finished: in clear
        fresh = create(c, seats=PEOPLE)["table"]["id"]
        assert c.get(f"/api/tables/{fresh}").json()["status"] == "playing"
    assert key.is_file()  # a new key was made


def test_a_listing_from_another_process_says_whose_deal_it_is(sqlite_url: str) -> None:
    """The listing of a table another process serves is built from its row: a chosen deal
    says so there too (a position, a chosen seed, or a row stored without a commitment)."""
    from dragonlair.web.listing import stored_info as _info

    row: dict[str, Any] = {
        "id": "t1",
        "game": "pebble-auction",
        "players": 2,
        "options": {},
        "status": "playing",
        "created": time.time(),
        "commitment": "c" * 64,
    }
    cases = [
        ({"position": {"turn": 1}, "title": "New game"}, "c" * 64, "position"),
        ({"chosen_seed": True}, "c" * 64, "seed"),
        ({}, None, "seed"),
        ({}, "c" * 64, None),
    ]
    for settings, promise, chosen in cases:
        info = _info(row | {"settings": settings, "commitment": promise}, [], 3, config(sqlite_url))
        assert info.fairness.chosen == chosen
        assert info.fairness.chosen_seed is (chosen == "seed")
