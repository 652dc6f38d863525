"""Ratings (dragonlair.web.ratings): which tables are rated, the Plackett-Luce update in the
commit that stores a rated table's end (people and bot levels alike), the anti-farming
rule, and rated tables through the server: created and joined only signed in, played to
the end against a bot, the player's rating changed."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select

from dragonlair.web import create_app
from dragonlair.web.ratings import (
    FARM_LIMIT,
    PROVISIONAL_SIGMA,
    Rating,
    board,
    current,
    rate_finished,
    rated_games_t,
    rated_party,
)
from dragonlair.web.security import digest
from dragonlair.web.store import Store, StoredSeat, StoredTable, normalize_url
from tests.web.serverkit import config
from tests.web.test_accounts import ORIGIN, post, sign_up

RATED = {"deadline": 15, "away": None, "takeover": None, "listed": True, "rated": True}
DONE = {"points": [5, 3], "winners": [0], "breakdown": [], "reason": "", "termination": ""}


def rated_table(tid: str, seats: list[StoredSeat], **settings: Any) -> StoredTable:
    return StoredTable(
        id=tid,
        game="pebble-auction",
        rules_version=1,
        players=len(seats),
        options={},
        seed=5,
        settings={**RATED, **settings},
        watch_hash=digest("w"),
        status="playing",
        created=time.time(),
        seats=seats,
    )


def person(seat: int, account: str | None) -> StoredSeat:
    return StoredSeat(seat, "human", f"P{seat}", token_hash=digest(f"t{seat}"), account=account)


def finish(store: Store, tid: str, ranks: list[int]) -> None:
    store.append(tid, 0, 0, "bid 1", {**DONE, "ranks": ranks}).result(timeout=30)


def ratings_of(store: Store, *players: str) -> dict[str, Rating]:
    with store.engine.connect() as conn:
        return current(conn, "pebble-auction", players)


def test_which_tables_are_rated() -> None:
    two = [("human", "x", None), ("human", "y", None)]
    assert rated_party({"rated": True}, two) == ["a:x", "a:y"]
    assert rated_party({"rated": True}, [("human", "x", None), ("bot", None, "heuristic")]) == [
        "a:x",
        "bot:heuristic",
    ]
    assert rated_party({}, two) is None  # not chosen at creation
    assert rated_party({"rated": True, "position": {"a": 1}}, two) is None
    assert rated_party({"rated": True, "chosen_seed": True}, two) is None
    assert rated_party({"rated": True}, [("human", "x", None), ("human", None, None)]) is None
    # one account in two seats rates nobody (it would play itself)
    assert rated_party({"rated": True}, [("human", "x", None), ("human", "x", None)]) is None
    # bots alone: nobody to rate
    assert rated_party({"rated": True}, [("bot", None, "random"), ("bot", None, "random")]) is None


def test_a_rated_end_moves_the_winner_up_and_the_loser_down(sqlite_url: str) -> None:
    store = Store(sqlite_url, on_finish=rate_finished)
    try:
        store.create_table(rated_table("t1", [person(0, "ann"), person(1, "bob")])).result()
        finish(store, "t1", [1, 2])
        r = ratings_of(store, "a:ann", "a:bob")
        assert r["a:ann"].mu > 25 > r["a:bob"].mu
        assert r["a:ann"].games == r["a:bob"].games == 1
        assert r["a:ann"].provisional and r["a:ann"].sigma >= PROVISIONAL_SIGMA
        # a tie moves neither mean much, and both have played twice
        store.create_table(rated_table("t2", [person(0, "ann"), person(1, "bob")])).result()
        before = r
        finish(store, "t2", [1, 1])
        r = ratings_of(store, "a:ann", "a:bob")
        assert r["a:ann"].mu < before["a:ann"].mu and r["a:bob"].mu > before["a:bob"].mu
        assert r["a:ann"].games == 2
        with store.engine.connect() as conn:
            assert [x.player for x in board(conn, "pebble-auction")] == ["a:ann", "a:bob"]
    finally:
        store.close()


def test_a_bot_level_is_a_rated_player(sqlite_url: str) -> None:
    store = Store(sqlite_url, on_finish=rate_finished)
    try:
        bot = StoredSeat(1, "bot", "Bot", "random")
        store.create_table(rated_table("t1", [person(0, "ann"), bot])).result()
        finish(store, "t1", [2, 1])
        r = ratings_of(store, "a:ann", "bot:random")
        assert r["bot:random"].games == 1 and r["bot:random"].mu > 25 > r["a:ann"].mu
    finally:
        store.close()


def test_unrated_tables_change_no_rating(sqlite_url: str) -> None:
    store = Store(sqlite_url, on_finish=rate_finished)
    try:
        unrated = rated_table("t1", [person(0, "ann"), person(1, "bob")])
        unrated.settings.pop("rated")
        guest = rated_table("t2", [person(0, "ann"), person(1, None)])
        chosen = rated_table("t3", [person(0, "ann"), person(1, "bob")], chosen_seed=True)
        for t in (unrated, guest, chosen):
            store.create_table(t).result()
            finish(store, t.id, [1, 2])
        assert ratings_of(store, "a:ann")["a:ann"].games == 0
        with store.engine.connect() as conn:
            assert board(conn, "pebble-auction") == []
    finally:
        store.close()


def test_the_same_accounts_count_only_a_few_games_a_day(sqlite_url: str) -> None:
    """Two accounts passing wins back and forth: past FARM_LIMIT games a day, their games
    are recorded but move no rating."""
    store = Store(sqlite_url, on_finish=rate_finished)
    try:
        for i in range(FARM_LIMIT):
            store.create_table(rated_table(f"f{i}", [person(0, "ann"), person(1, "bob")])).result()
            finish(store, f"f{i}", [1, 2] if i % 2 else [2, 1])
        before = ratings_of(store, "a:ann", "a:bob")
        store.create_table(rated_table("extra", [person(0, "ann"), person(1, "bob")])).result()
        finish(store, "extra", [1, 2])
        assert ratings_of(store, "a:ann", "a:bob") == before
        with store.engine.connect() as conn:
            counted = conn.execute(
                select(rated_games_t.c.table_id, rated_games_t.c.counted).order_by(
                    rated_games_t.c.finished
                )
            ).all()
        assert [c for _t, c in counted] == [True] * FARM_LIMIT + [False]
        # a third account still plays either of them rated
        store.create_table(rated_table("new", [person(0, "ann"), person(1, "cy")])).result()
        finish(store, "new", [1, 2])
        assert ratings_of(store, "a:ann")["a:ann"].games == FARM_LIMIT + 1
    finally:
        store.close()


# --- through the server ----------------------------------------------------------------


@pytest.fixture
def web(sqlite_url: str) -> Any:
    with TestClient(create_app(config(sqlite_url))) as c:
        yield c


def rated_request(**extra: Any) -> dict[str, Any]:
    return {
        "game": "pebble-auction",
        "players": 2,
        "rated": True,
        "seats": [{"type": "human", "name": "Me"}, {"type": "open"}],
        **extra,
    }


def test_a_rated_table_is_created_only_signed_in_and_dealt_by_the_server(web: TestClient) -> None:
    r = post(web, "/api/tables", rated_request())
    assert r.status_code == 403 and r.json()["error"]["code"] == "rated_needs_account"
    sign_up(web, "Dora")
    for extra, code in (
        (
            {"seed": 4, "seats": [{"type": "human"}, {"type": "bot", "level": "random"}]},
            "rated_deal",
        ),
        ({"hints": True}, "rated_practice"),
        (
            {"seats": [{"type": "human", "name": "A"}, {"type": "human", "name": "B"}]},
            "rated_seats",
        ),
    ):
        r = post(web, "/api/tables", rated_request(**extra))
        assert r.status_code == 400 and r.json()["error"]["code"] == code, r.text
    r = post(web, "/api/tables", rated_request())
    assert r.status_code == 201, r.text
    info = r.json()["table"]
    # said before anyone joins
    assert info["settings"]["rated"] is True
    assert web.get(f"/api/tables/{info['id']}").json()["settings"]["rated"] is True
    assert info["settings"]["hints"] is False and info["settings"]["undo"] is False


def test_only_a_signed_in_player_joins_a_rated_table(web: TestClient) -> None:
    sign_up(web, "Dora")
    tid = post(web, "/api/tables", rated_request()).json()["table"]["id"]
    guest = TestClient(web.app)
    r = post(guest, f"/api/tables/{tid}/join", {"name": "Guest"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "rated_needs_account"
    seats = web.get(f"/api/tables/{tid}").json()["seats"]
    assert seats[1]["kind"] == "open"  # nothing changed
    # the creator cannot take the other seat too (one account playing itself)
    r = post(web, f"/api/tables/{tid}/join", {"name": "Dora again"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "rated_one_seat"
    assert web.get(f"/api/tables/{tid}").json()["seats"][1]["kind"] == "open"
    sign_up(guest, "Eve")
    r = post(guest, f"/api/tables/{tid}/join", {"name": "Eve"})
    assert r.status_code == 200, r.text


@pytest.mark.timeout(120)
def test_a_rated_game_against_a_bot_rates_both_at_its_end(web: TestClient, sqlite_url: str) -> None:
    me = sign_up(web, "Dora")
    seats = [{"type": "human", "name": "Dora"}, {"type": "bot", "level": "random"}]
    r = post(web, "/api/tables", rated_request(seats=seats))
    assert r.status_code == 201, r.text
    tid, token = r.json()["table"]["id"], r.json()["seats"][0]["token"]
    assert web.get("/api/ratings/pebble-auction").json()["players"] == []
    rng = random.Random(3)
    forged = False
    with web.websocket_connect(f"/ws/tables/{tid}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": token})
        while True:
            m = ws.receive_json()
            if m["type"] != "state":
                continue
            if m["status"] == "over":
                break
            if not forged and 0 in m["view"]["to_act"] and m["legal"]:
                # a client cannot hand the server a result: the message is refused whole
                forged = True
                act = {"type": "act", "move": m["move"], "action": m["legal"][0]}
                ws.send_json({**act, "result": {"ranks": [1, 2]}})
                while (e := ws.receive_json())["type"] != "error":
                    pass
                assert e["code"] == "bad_message", e
            if 0 in m["view"]["to_act"] and m["legal"]:
                ws.send_json({"type": "act", "move": m["move"], "action": rng.choice(m["legal"])})
    ranks = web.get(f"/api/tables/{tid}").json()["result"]["ranks"]
    engine = create_engine(normalize_url(sqlite_url))
    try:
        mine = f"a:{me['account']['id']}"
        for _ in range(600):  # the end is stored by the writer thread, soon after
            with engine.connect() as conn:
                r_now = current(conn, "pebble-auction", [mine, "bot:random"])
            if r_now[mine].games:
                break
            time.sleep(0.05)
        assert r_now[mine].games == r_now["bot:random"].games == 1
        won = ranks[0] < ranks[1]
        lost = ranks[0] > ranks[1]
        assert (r_now[mine].mu > 25) == won and (r_now[mine].mu < 25) == lost
        board = web.get("/api/ratings/pebble-auction").json()
        assert {p["name"] for p in board["players"]} == {"Dora", "bot (random)"}
        assert all(p["provisional"] and p["games"] == 1 for p in board["players"])
        assert [p["rank"] for p in board["players"]] == [1, 2]
        mine_shown = web.get("/api/account/ratings").json()["ratings"]
        assert [(x["game"], x["games"], x["name"]) for x in mine_shown] == [
            ("pebble-auction", 1, "Dora")
        ]
        assert mine_shown[0]["mu"] == round(r_now[mine].mu, 2)
    finally:
        engine.dispose()


def test_the_rating_routes_refuse_what_they_cannot_answer(web: TestClient) -> None:
    r = web.get("/api/ratings/no-such-game")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_game"
    assert web.get("/api/account/ratings").status_code == 401
