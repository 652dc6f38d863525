"""The lobby over HTTP (TestClient): games, tables, seats, records, and refusals."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dragonlair.web import create_app
from tests.web.serverkit import config


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "pebble-auction")
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def test_games_are_described(client: TestClient) -> None:
    games = client.get("/api/games").json()
    pebble = next(g for g in games if g["id"] == "pebble-auction")
    assert pebble["min_players"] == 2 and pebble["max_players"] == 4
    assert pebble["options"][0]["name"] == "start_points"
    assert pebble["bots"][0] == "random" and "heuristic" not in pebble["bots"]
    assert pebble["bots"] == ["random", "ismcts"]
    assert client.get("/api/games/pebble-auction").json() == pebble
    r = client.get("/api/games/no-such-game")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_game"


def test_each_games_styles_of_play_are_bot_levels(client: TestClient) -> None:
    race = client.get("/api/games/space-race").json()
    styles = ["fuel-heavy", "robot-heavy", "crystal-heavy"]
    # then the trained policy shipped for the game
    assert race["bots"] == ["random", "heuristic", "ismcts", *styles, "trained"]
    assert list(race["styles"]) == styles
    assert race["styles"]["fuel-heavy"].startswith("keeps cards face down as Fuel")
    assert client.get("/api/games/pebble-auction").json()["styles"] == {}
    seats = [{"type": "human"}, {"type": "bot", "level": "fuel-heavy"}]
    made = create(client, game="space-race", players=2, seats=seats)
    assert made["table"]["seats"][1]["level"] == "fuel-heavy"
    # a style belongs to its own game: Dragon Stripes has none called fuel-heavy
    r = client.post("/api/tables", json={"game": "dragon-stripes", "players": 2, "seats": seats})
    assert r.status_code == 400 and r.json()["error"]["code"] == "unknown_bot"
    assert "daring" in r.json()["error"]["message"]


def test_create_list_join_and_start(client: TestClient) -> None:
    created = create(client, seats=[{"type": "human", "name": "Ann"}] + [{"type": "open"}] * 3)
    tid = created["table"]["id"]
    token = created["seats"][0]["token"]
    assert created["table"]["status"] == "waiting"
    assert created["seats"][0]["link"].endswith(f"/play/{tid}#{token}")
    assert created["watch"]["link"].endswith(f"/watch/{tid}#{created['watch']['token']}")
    assert len(token) >= 32
    listed = client.get("/api/tables", params={"status": "waiting"}).json()
    assert [t["id"] for t in listed] == [tid]
    info = client.get(f"/api/tables/{tid}")
    assert token not in info.text and created["watch"]["token"] not in info.text
    # join the first open seat, then a named one
    j1 = client.post(f"/api/tables/{tid}/join", json={"name": "Bo"}).json()
    assert j1["seat"]["seat"] == 1 and j1["table"]["seats"][1]["name"] == "Bo"
    r = client.post(f"/api/tables/{tid}/join", json={"seat": 1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
    r = client.post(f"/api/tables/{tid}/join", json={"seat": 7})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_seat"
    client.post(f"/api/tables/{tid}/join", json={"seat": 3})
    last = client.post(f"/api/tables/{tid}/join", json={}).json()
    assert last["seat"]["seat"] == 2 and last["table"]["status"] == "playing"
    assert len({token, j1["seat"]["token"], last["seat"]["token"]}) == 3
    r = client.post(f"/api/tables/{tid}/join", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_open_seat"
    playing = client.get("/api/tables", params={"status": "playing"}).json()
    assert [t["id"] for t in playing] == [tid]
    r = client.get(f"/api/tables/{tid}/record")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_over"


BAD_TABLES = [
    ({"game": "chess"}, 400, "unknown_game"),
    ({"game": "pebble-auction", "players": 9}, 400, "bad_options"),
    ({"game": "pebble-auction", "players": "4"}, 422, "invalid_request"),
    ({"game": "pebble-auction", "options": {"colour": "red"}}, 400, "bad_options"),
    ({"game": "pebble-auction", "options": {"start_points": 99}}, 400, "bad_options"),
    ({"game": "pebble-auction", "players": 2, "seats": [{"type": "open"}]}, 400, "bad_seats"),
    (
        {"game": "pebble-auction", "players": 2, "seats": [{"type": "bot", "level": "genius"}] * 2},
        400,
        "unknown_bot",
    ),
    (
        {
            "game": "pebble-auction",
            "players": 2,
            "seats": [{"type": "bot", "level": "heuristic"}] * 2,
        },
        400,
        "unknown_bot",
    ),
    (
        {
            "game": "pebble-auction",
            "players": 2,
            "seats": [{"type": "human", "level": "random"}] * 2,
        },
        400,
        "bad_seats",
    ),
    ({"game": "pebble-auction", "takeover": "genius"}, 400, "unknown_bot"),
    # a data file is a path on the server: never settable from the lobby
    (
        {"game": "space-dragons", "players": 3, "options": {"data": "/etc/passwd"}},
        400,
        "bad_options",
    ),
    ({"game": "dragon-race", "players": 2, "options": {"data": "x.json"}}, 400, "bad_options"),
    ({"game": "pebble-auction", "deadline": -1}, 422, "invalid_request"),
    ({"game": "pebble-auction", "seed": -5}, 422, "invalid_request"),
    ({"game": "pebble-auction", "plyers": 3}, 422, "invalid_request"),
    ({"players": 3}, 422, "invalid_request"),
]


@pytest.mark.parametrize(("body", "status", "code"), BAD_TABLES)
def test_bad_tables_are_refused_clearly(
    client: TestClient, body: dict[str, Any], status: int, code: str
) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["code"] == code and len(err["message"]) > 10
    assert client.get("/api/tables").json() == []


def test_malformed_bodies_and_unknown_routes(client: TestClient) -> None:
    r = client.post(
        "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    r = client.get("/api/tables/nope")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = client.post("/api/tables/nope/join", json={})
    assert r.status_code == 404


def test_openapi_schema_and_front_end_routes(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path in ("/api/games", "/api/tables", "/api/tables/{table_id}/join"):
        assert path in schema["paths"]
    assert "TableRequest" in schema["components"]["schemas"]
    for page in ("/", "/play/abc", "/watch/abc"):
        r = client.get(page)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]


def test_limits_on_lobby_clients(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url, http_rate="5/minute", max_body_bytes=512))) as c:
        r = c.post(
            "/api/tables", json={"game": "pebble-auction", "seats": [{"type": "open"}] * 400}
        )
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
        codes = [c.get("/api/games").status_code for _ in range(6)]
        assert codes[:4] == [200] * 4 and codes[-1] == 429
        r = c.get("/api/tables")
        assert r.json()["error"]["code"] == "rate_limited"
        assert c.get("/api/health").status_code == 200


def test_finished_game_record_and_replay(client: TestClient) -> None:
    bots = [{"type": "bot", "level": "random"}] * 2
    tid = create(client, players=2, seats=bots, seed=21)["table"]["id"]
    # the bots' moves come from worker processes (their first start takes a moment) and
    # each pass in a window waits for the window's end: wait for the end, not a count
    deadline = time.monotonic() + 120
    while client.get(f"/api/tables/{tid}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.05)  # the server's loop runs in its own thread meanwhile
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert rec["seed"] == 21 and rec["game"] == "pebble-auction" and rec["actions"]
    rp = client.get(f"/api/tables/{tid}/replay", params={"seat": 0}).json()
    assert rp["seat"] == 0 and len(rp["frames"]) == len(rec["actions"]) + 1
    assert all(f["view"]["seat"] == 0 for f in rp["frames"])
    spectator = client.get(f"/api/tables/{tid}/replay").json()
    assert spectator["frames"][0]["view"]["hand"] is None
    r = client.get(f"/api/tables/{tid}/replay", params={"seat": 5})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_seat"


def test_a_table_listed_from_its_row_has_the_settings_it_has_live(client: TestClient) -> None:
    """The listing describes a table no process here holds from its stored row: its
    settings read as the table reads them (undo with a confirmation window, decisions
    confirmed at the end of each turn, seats not waiting for their person, a lesson)."""
    from sqlalchemy import select

    from dragonlair.web.listing import stored_info
    from dragonlair.web.store import tables_t

    seats = [{"type": "human"}, {"type": "bot", "level": "random"}]
    made = [
        create(client, players=2, seats=seats, undo=True, confirm=7.5),
        create(
            client, players=2, seats=seats, undo=True, confirm_turn=True, wait_for_arrival=False
        ),
        create(client, game="dragon-stripes", tutorial=True),
    ]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    for created in made:
        tid = created["table"]["id"]
        with hub.store.engine.connect() as conn:
            row = dict(conn.execute(select(tables_t).where(tables_t.c.id == tid)).mappings().one())
        listed = stored_info(row, [], 0, hub.config)
        live = client.get(f"/api/tables/{tid}").json()["settings"]
        assert listed.settings.model_dump() == live
    settings = [client.get(f"/api/tables/{c['table']['id']}").json()["settings"] for c in made]
    assert settings[0]["confirm"] == 7.5 and settings[1]["confirm_turn"] is True
    assert settings[1]["wait_for_arrival"] is False and settings[2]["tutorial"] is True
