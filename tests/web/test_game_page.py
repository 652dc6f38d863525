"""A finished game's page (``/games/{table}``) and its facts (``GET
/api/tables/{id}/summary``): nothing before the end, and after it the players (an account's
name for its profile link, bots marked, who conceded), the result and the rating changes."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dragonlair.web import create_app
from tests.web.serverkit import config
from tests.web.test_accounts import ORIGIN, PASSWORD, post, sign_up
from tests.web.test_concede import play_until, state, until


@pytest.fixture
def web(sqlite_url: str) -> Any:
    with TestClient(create_app(config(sqlite_url))) as c:
        yield c


def test_no_page_for_a_table_that_does_not_exist(web: TestClient) -> None:
    for tid in ("nosuchtable", "bad%20id"):
        r = web.get(f"/games/{tid}")
        assert r.status_code == 404 and "text/html" in r.headers["content-type"]
        assert web.get(f"/api/tables/{tid}/summary").json()["error"]["code"] == "not_found"


@pytest.mark.timeout(120)
def test_a_rated_game_s_page_names_its_players_result_and_rating_changes(
    web: TestClient,
) -> None:
    me = sign_up(web, "Dora")
    seats = [{"type": "human", "name": "Dora"}, {"type": "bot", "level": "random"}]
    body = {"game": "pebble-auction", "players": 2, "seats": seats, "rated": True}
    created = post(web, "/api/tables", body).json()
    tid = created["table"]["id"]
    with web.websocket_connect(f"/ws/tables/{tid}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
        m = play_until(ws, 0, 12, random.Random(1))
        # while the game is played: no page, no facts, no record, no replay
        page = web.get(f"/games/{tid}")
        assert page.status_code == 404 and tid not in page.text
        for part in ("summary", "record", "replay", "replay?seat=1"):
            r = web.get(f"/api/tables/{tid}/{part}")
            assert r.status_code == 409 and r.json()["error"]["code"] == "not_over", part
        ws.send_json({"type": "concede"})
        until(ws, lambda m: state(m) and m["status"] == "over")
    page = web.get(f"/games/{tid}")
    assert page.status_code == 200 and "/static/js/main.js" in page.text
    s = web.get(f"/api/tables/{tid}/summary").json()
    assert s["table"]["id"] == tid and s["table"]["status"] == "over"
    assert s["moves"] >= m["move"]
    dora, bot = s["players"]
    assert dora["account"] == "Dora" and dora["kind"] == "human" and dora["conceded"] >= 12
    assert bot["account"] is None and bot["kind"] == "bot" and bot["level"] == "random"
    assert s["table"]["result"]["winners"] == [1]
    rating = s["rating"]
    assert rating["rated"] and rating["counted"] and rating["why"] is None
    changes = {c["seat"]: c for c in rating["changes"]}
    assert changes[0]["player"] == f"a:{me['account']['id']}"
    assert changes[0]["after"]["mu"] < changes[0]["before"]["mu"] == 25.0  # a loss
    assert changes[1]["after"]["mu"] > changes[1]["before"]["mu"]
    assert changes[0]["after"]["provisional"]
    # nothing of an account but its name, nothing of a seat's token
    text = web.get(f"/api/tables/{tid}/summary").text
    assert created["seats"][0]["token"] not in text and "password" not in text
    # a deleted account's seat is no longer linked
    r = post(web, "/api/account/delete", {"password": PASSWORD})
    assert r.status_code == 200, r.text
    s = web.get(f"/api/tables/{tid}/summary").json()
    assert s["players"][0]["account"] is None


@pytest.mark.timeout(60)
def test_an_early_concession_s_page_says_it_was_not_rated(web: TestClient) -> None:
    sign_up(web, "Dora")
    seats = [{"type": "human", "name": "Dora"}, {"type": "bot", "level": "random"}]
    body = {"game": "pebble-auction", "players": 2, "seats": seats, "rated": True}
    created = post(web, "/api/tables", body).json()
    tid = created["table"]["id"]
    with web.websocket_connect(f"/ws/tables/{tid}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
        until(ws, state)
        ws.send_json({"type": "concede"})
        until(ws, lambda m: state(m) and m["status"] == "over")
    rating = web.get(f"/api/tables/{tid}/summary").json()["rating"]
    assert rating["rated"] is False and rating["why"] == "conceded_early"
    assert rating["changes"] == [] and rating["rated_after"] == 10


def said_at(ws: Any, echoed: Callable[[dict[str, Any]], bool], move: int) -> int:
    """The move at which a chat message was said: the last state the socket received
    before the message's echo (a table's messages reach a socket in the order they
    happened; a bot's bid may come between a player's last state and the message)."""
    for _ in range(2000):
        m: dict[str, Any] = ws.receive_json()
        if state(m):
            move = m["move"]
        elif m["type"] == "chat" and m["messages"] and echoed(m):
            return move
    raise AssertionError("the message never came back")


@pytest.mark.timeout(120)
def test_the_chat_is_kept_for_the_replay_at_the_move_it_was_said(web: TestClient) -> None:
    seats = [{"type": "human", "name": "Ann"}, {"type": "bot", "level": "random"}]
    # decisions final at once (a held one is not yet a move of the record the replay shows)
    body = {
        "game": "pebble-auction",
        "players": 2,
        "seats": seats,
        "chat_apart": True,
        "undo": False,
    }
    created = post(web, "/api/tables", body).json()
    tid = created["table"]["id"]
    markup = "<script>alert(1)</script>"
    with (
        web.websocket_connect(f"/ws/tables/{tid}", headers=ORIGIN) as ws,
        web.websocket_connect(f"/ws/tables/{tid}", headers=ORIGIN) as watch,
    ):
        ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
        watch.send_json({"type": "hello", "token": created["watch"]["token"]})
        ws.send_json({"type": "chat", "text": "hello"})
        until(ws, lambda m: m["type"] == "chat" and m["messages"])
        ws.send_json({"type": "sync", "since": 0})  # the state skipped above, again
        m = play_until(ws, 0, 4, random.Random(2))
        ws.send_json({"type": "chat", "phrase": "your_turn"})
        phrase_at = said_at(
            ws,
            lambda m: [c.get("phrase") for c in m["messages"]][-1:] == ["your_turn"],
            m["move"],
        )
        watch.send_json({"type": "chat", "text": markup})
        markup_at = said_at(
            watch, lambda m: [c["text"] for c in m["messages"]][-1:] == [markup], -1
        )
        ws.send_json({"type": "concede"})
        until(ws, lambda m: state(m) and m["status"] == "over")
    chat = web.get(f"/api/tables/{tid}/summary").json()["chat"]
    assert [(c["seat"], c["text"], c.get("phrase"), c["apart"]) for c in chat] == [
        (0, "hello", None, False),
        (0, "", "your_turn", False),
        (None, markup, None, True),  # a spectator's, said apart: for spectators' eyes
    ]
    # (the bot may have made the first move before "hello", and bid before a message)
    assert chat[0]["move"] < chat[1]["move"] == phrase_at >= m["move"]
    assert chat[2]["move"] == markup_at >= phrase_at
