"""What the browser front end needs from the server besides a seat's messages: the public
catalog of a table (components, action labels, event sentences), each game's rules in
brief, the pages themselves, and watching a listed table without its watch token."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

import dragonlair
from dragonlair.web import create_app
from tests.web.serverkit import LiveServer, SeatClient, config, create_table

GAMES = ("space-dragons", "space-race", "dragon-stripes", "dragon-race")
PARTS = {
    "space-dragons": {"crew", "dragons", "scoring", "awards"},
    "space-race": {"space", "danger", "damage", "cockpits", "engines"},
    "dragon-stripes": {"stripes", "footprints", "takeover", "start_gems", "total_gems"},
    "dragon-race": {"board", "cards", "characters"},
}


@pytest.fixture
def web(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(config(sqlite_url))) as c:
        yield c


@pytest.mark.parametrize("game_id", GAMES)
def test_catalog_draws_every_id_and_labels_every_action(web: TestClient, game_id: str) -> None:
    created = web.post("/api/tables", json={"game": game_id, "players": 3}).json()
    tid = created["table"]["id"]
    cat = web.get(f"/api/tables/{tid}/catalog").json()
    game = dragonlair.make(game_id, players=3)
    assert cat["game"] == game_id and cat["players"] == 3
    assert PARTS[game_id] <= set(cat["components"])
    assert "source" not in cat["components"]  # a user's data file path stays on the server
    assert cat["actions"] == {str(a): game.describe_action(a) for a in game.actions}
    assert set(cat["events"]) == set(game.event_specs) | {"undo"}  # the engine's own too
    for kind, spec in game.event_specs.items():
        assert cat["events"][kind]["text"] == spec.text
        assert cat["events"][kind]["seat_fields"] == list(spec.seat_fields)
    assert cat["phases"] == list(game.phases) and "over" in cat["phases"]
    assert cat["phase_names"] == dict(game.phase_names) and set(cat["phase_names"]) == set(
        game.phases
    )  # the built-in games name every phase
    # nothing in it depends on the state: a table in another state gets the same catalog
    other = web.post("/api/tables", json={"game": game_id, "players": 3}).json()
    assert web.get(f"/api/tables/{other['table']['id']}/catalog").json() == cat


def test_catalog_of_an_unknown_table_is_refused(web: TestClient) -> None:
    r = web.get("/api/tables/nosuchtable/catalog")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_catalog_follows_the_options(web: TestClient) -> None:
    body = {"game": "space-dragons", "players": 3, "options": {"b_sides": "bonus"}}
    tid = web.post("/api/tables", json=body).json()["table"]["id"]
    awards = web.get(f"/api/tables/{tid}/catalog").json()["components"]["awards"]
    assert all(pts > 0 for side in awards["science"] for _, pts in side)


@pytest.mark.parametrize("game_id", GAMES)
def test_rules_in_brief(web: TestClient, game_id: str) -> None:
    r = web.get(f"/api/games/{game_id}/rules").json()
    assert r["name"] == dragonlair.spec(game_id).name
    # the rules for players, as the game ships them
    assert r["text"] == dragonlair.core.manifest(game_id).player_rules().strip()
    assert "## Choices at the table" in r["text"]
    forms = [a["form"] for a in r["actions"]]
    assert forms and all(isinstance(a["help"], str) for a in r["actions"])


def test_rules_of_an_unknown_game_are_refused(web: TestClient) -> None:
    r = web.get("/api/games/chess/rules")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_game"


def test_spectate_a_listed_table_without_its_token(sqlite_url: str) -> None:
    live = LiveServer(config(sqlite_url))
    try:
        listed = create_table(live.http, players=2, seats=[{"type": "human"}] * 2, seed=3)
        hidden = create_table(
            live.http, players=2, seats=[{"type": "human"}] * 2, seed=3, listed=False
        )

        async def hello(table: str, msg: dict[str, object]) -> tuple[dict[str, object], int]:
            async with connect(f"{live.ws}/ws/tables/{table}") as ws:
                await ws.send(json.dumps(msg))
                first = json.loads(await ws.recv())
                code = 1000
                if first["type"] == "error":
                    with pytest.raises(ConnectionClosed):
                        await ws.recv()
                    code = ws.close_code or 0
                return first, code

        async def main() -> None:
            first, _ = await hello(listed["table"]["id"], {"type": "hello", "spectate": True})
            assert first["type"] == "welcome" and first["seat"] is None
            first, code = await hello(hidden["table"]["id"], {"type": "hello", "spectate": True})
            assert (first["code"], code) == ("unauthorized", 4401)
            both = {"type": "hello", "spectate": True, "token": listed["seats"][0]["token"]}
            first, code = await hello(listed["table"]["id"], both)
            assert (first["code"], code) == ("bad_message", 4400)
            first, code = await hello(listed["table"]["id"], {"type": "hello"})
            assert (first["code"], code) == ("bad_message", 4400)
            assert "token" in str(first["message"])
            # a spectator who came in this way sees what a watch link shows
            watcher = await SeatClient.open(
                live.ws, listed["table"]["id"], listed["watch"]["token"], None
            )
            assert watcher.latest["view"]["hand"] is None and watcher.latest["legal"] == []
            await watcher.close()

        asyncio.run(main())
    finally:
        live.stop()


def test_pages_are_the_front_end(web: TestClient) -> None:
    for path in ("/", "/play/abc", "/watch/abc", "/rules/dragon-stripes"):
        r = web.get(path)
        assert r.status_code == 200 and '<script type="module"' in r.text
    static = Path(dragonlair.__file__).parent / "web" / "static"
    for f in static.rglob("*.js"):
        rel = f.relative_to(static).as_posix()
        assert web.get(f"/static/{rel}").status_code == 200, rel
    # each game's board is served from its own package, where its manifest says
    for game_id in GAMES:
        tid = web.post("/api/tables", json={"game": game_id, "players": 3}).json()["table"]["id"]
        board = web.get(f"/api/tables/{tid}/catalog").json()["board"]
        assert board == f"games/{game_id}/board.js"
        served = web.get(f"/static/{board}")
        assert served.status_code == 200 and "javascript" in served.headers["content-type"]
        assert served.text == (
            Path(dragonlair.__file__).parent / game_id.replace("-", "_") / "web" / "board.js"
        ).read_text(encoding="utf-8")
        assert 'from "/static/js/dom.js"' in served.text
        # and its style sheet beside it, which the board declares for the page to load
        assert 'export const style = new URL("board.css", import.meta.url)' in served.text
        sheet = web.get(f"/static/games/{game_id}/board.css")
        assert sheet.status_code == 200 and "text/css" in sheet.headers["content-type"]
        assert sheet.text == (
            Path(dragonlair.__file__).parent / game_id.replace("-", "_") / "web" / "board.css"
        ).read_text(encoding="utf-8")
        # the rest of the game's package is not published
        assert web.get(f"/static/games/{game_id}/../manifest.py").status_code == 404
        assert web.get(f"/static/games/{game_id}/rules.py").status_code == 404
