"""Public profiles (``GET /api/players/{name}``) and the paged leaderboard
(``GET /api/ratings/{game}``): what a profile shows (per game the rating as the account
page shows it, games played and won, the rating history, the newest finished games with
their players), that it shows nothing private and nothing of a game in play, and which
players a leaderboard lists, page by page."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select

from dragonlair.web import create_app
from dragonlair.web.accounts.schema import accounts_t
from dragonlair.web.ratings import ratings_t
from dragonlair.web.store import Store
from tests.web.profilekit import add_account, finished_game, streak
from tests.web.serverkit import config
from tests.web.test_accounts import ORIGIN, PASSWORD, post, sign_up


@pytest.fixture
def web(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(config(db_url))) as c:
        yield c


def store_of(web: TestClient) -> Store:
    store: Store = web.app.state.hub.store  # type: ignore[attr-defined]
    return store


def profile(web: TestClient, name: str) -> dict[str, Any]:
    r = web.get(f"/api/players/{name}")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_profile_shows_each_games_rating_counts_history_and_recent_games(
    web: TestClient,
) -> None:
    me = sign_up(web, "Dora Mae")["account"]
    store = store_of(web)
    wins = [True, False, True, True, False]
    streak(store, me["id"], wins, prefix="d")
    bob = add_account(store.engine, "Bob")
    # rated, two accounts (Bob wins); then unrated, with a guest (a tie for first)
    finished_game(store, "withbob", [me["id"], bob], [2, 1], created=time.time() + 1)
    finished_game(store, "guest", [me["id"], "guest:Gus", bob], [1, 1, 3], created=time.time() + 2)
    finished_game(store, "other", [bob, "bot:random"], [1, 2], game="dragon-stripes")

    p = profile(web, "dora mae")  # names compare case-folded, as at sign-in
    assert p["name"] == "Dora Mae" and p["since"] > 0
    [game] = p["games"]  # Bob's Dragon Stripes game is not Dora's
    assert (game["game"], game["title"]) == ("space-race", "Space Race")
    assert game["played"] == len(wins) + 2
    assert game["won"] == sum(wins) + 1  # a shared first place is a win
    # the rating as the account page shows it
    [mine] = web.get("/api/account/ratings").json()["ratings"]
    assert game["rating"] == {k: v for k, v in mine.items() if k not in ("title", "game")}
    assert game["rating"]["games"] == len(wins) + 1 and game["rating"]["provisional"]
    # the rating after each counted rated game, from the new player's rating on
    history = game["history"]
    assert len(history) == len(wins) + 1
    assert game["start"]["ordinal"] == 0.0 and game["start"]["sigma"] == 8.33
    assert history[-1]["ordinal"] == game["rating"]["ordinal"]
    ups = [
        b["ordinal"] > a["ordinal"]
        for a, b in zip([game["start"], *history[:-1]], history, strict=True)
    ]
    assert ups == [*wins, False]  # each win raised it, each loss lowered it
    assert all(h["at"] is not None for h in history)

    recent = p["recent"]
    assert [g["table"] for g in recent[:3]] == ["guest", "withbob", "d4"]
    guest, withbob, last = recent[:3]
    assert guest["players"] == [
        {"seat": 0, "name": "Dora Mae", "bot": False, "level": None, "profile": "Dora Mae"},
        {"seat": 1, "name": "Gus", "bot": False, "level": None, "profile": None},
        {"seat": 2, "name": "Bob", "bot": False, "level": None, "profile": "Bob"},
    ]
    assert (guest["rank"], guest["won"], guest["rated"], guest["change"]) == (1, True, False, None)
    assert (withbob["rank"], withbob["won"], withbob["rated"], withbob["counted"]) == (
        2,
        False,
        True,
        True,
    )
    assert withbob["change"] == round(history[-1]["ordinal"] - history[-2]["ordinal"], 2)
    assert last["players"][1] == {
        "seat": 1,
        "name": "bot (heuristic)",
        "bot": True,
        "level": "heuristic",
        "profile": None,
    }
    assert last["rank"] == 2 and last["change"] < 0 and last["points"] == 0
    assert len(recent) == len(wins) + 2


def test_games_past_the_anti_farming_limit_are_listed_as_not_counted(web: TestClient) -> None:
    me = sign_up(web, "Farmer")["account"]
    store = store_of(web)
    friend = add_account(store.engine, "Friend")
    for i in range(4):  # FARM_LIMIT is 3 a day
        finished_game(store, f"f{i}", [me["id"], friend], [1, 2], created=time.time() + i)
    p = profile(web, "Farmer")
    assert [g["counted"] for g in p["recent"]] == [False, True, True, True]
    assert p["recent"][0]["change"] is None and p["recent"][0]["rated"]
    assert len(p["games"][0]["history"]) == 3 and p["games"][0]["played"] == 4


def test_an_unlisted_game_counts_but_is_listed_only_if_rated(web: TestClient) -> None:
    me = sign_up(web, "Private Pat")["account"]
    store = store_of(web)
    friend = add_account(store.engine, "Pal")
    finished_game(store, "open", [me["id"], "guest:Lou"], [1, 2], rated=False)
    finished_game(
        store, "closed", [me["id"], "guest:Secret Sam"], [1, 2], rated=False, listed=False
    )
    finished_game(store, "closedrated", [me["id"], friend], [2, 1], listed=False)
    p = profile(web, "Private Pat")
    assert {g["table"] for g in p["recent"]} == {"open", "closedrated"}
    assert "Secret Sam" not in json.dumps(p)
    assert (p["games"][0]["played"], p["games"][0]["won"]) == (3, 2)


def test_a_profile_shows_nothing_private_and_nothing_of_a_game_in_play(
    web: TestClient, db_url: str
) -> None:
    me = sign_up(web, "Quiet One")["account"]
    store = store_of(web)
    streak(store, me["id"], [True, False], prefix="q")
    before = profile(web, "Quiet One")
    # a game in play, with moves made: the profile does not change at all
    seats = [{"type": "human", "name": "Q"}, {"type": "bot", "level": "random"}]
    r = post(web, "/api/tables", {"game": "pebble-auction", "players": 2, "seats": seats})
    assert r.status_code == 201, r.text
    table, token = r.json()["table"]["id"], r.json()["seats"][0]["token"]
    rng = random.Random(4)
    views = []
    with web.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": token})
        moves = 0
        while moves < 3:
            m = ws.receive_json()
            if m["type"] != "state":
                continue
            assert m["status"] == "playing"
            views.append(m["view"])
            if 0 in m["view"]["to_act"] and m["legal"]:
                ws.send_json({"type": "act", "move": m["move"], "action": rng.choice(m["legal"])})
                moves += 1
        during = web.get("/api/players/Quiet One")
    assert during.json() == before
    text = during.text
    assert table not in text and token not in text
    # nothing of the account's secrets: its session, password or their digests
    session = web.cookies["dl_session"]
    with store.engine.connect() as conn:
        hashed = conn.execute(
            select(accounts_t.c.password).where(accounts_t.c.id == me["id"])
        ).scalar_one()
    secrets = [session, hashlib.sha256(session.encode()).hexdigest(), hashed, PASSWORD]
    for secret in secrets:
        assert secret not in text
    # a stranger sees the same profile as its player
    assert TestClient(web.app).get("/api/players/Quiet One").json() == before
    assert set(before) == {"name", "since", "provisional_sigma", "games", "recent"}
    assert json.dumps(views)  # the game was really under way while the profile was read


def test_the_leaderboard_lists_settled_ratings_page_by_page(web: TestClient) -> None:
    store = store_of(web)
    now = time.time()
    ids = [add_account(store.engine, f"Player {i}") for i in range(6)]
    rows = [
        {"player": f"a:{a}", "mu": 20.0 + i, "sigma": 2.0, "games": 70} for i, a in enumerate(ids)
    ]
    rows.append({"player": "bot:heuristic", "mu": 22.8, "sigma": 1.5, "games": 300})
    rows.append({"player": f"a:{ids[0]}x", "mu": 99.0, "sigma": 1.0, "games": 90})  # no account
    fresh = add_account(store.engine, "Fresh")
    rows.append({"player": f"a:{fresh}", "mu": 50.0, "sigma": 6.0, "games": 2})
    with store.engine.begin() as conn:
        conn.execute(insert(ratings_t), [{**r, "game": "space-race", "updated": now} for r in rows])
    # an account deleted since leaves the board (its name is gone)
    gone = sign_up(web, "Gone Soon")["account"]
    with store.engine.begin() as conn:
        conn.execute(
            insert(ratings_t).values(
                game="space-race", player=f"a:{gone['id']}", mu=30, sigma=2, games=70, updated=now
            )
        )
    assert post(web, "/api/account/delete", {"password": PASSWORD}).status_code == 200

    everyone = web.get("/api/ratings/space-race").json()
    assert "deleted player" not in {p["name"] for p in everyone["players"]}
    assert everyone["total"] == 9 and everyone["provisional_players"] == 1
    assert "Fresh" in {p["name"] for p in everyone["players"]}

    first = web.get("/api/ratings/space-race?provisional=false&limit=4").json()
    second = web.get("/api/ratings/space-race?provisional=false&limit=4&offset=4").json()
    assert first["total"] == second["total"] == 8 and first["provisional_players"] == 1
    listed = first["players"] + second["players"]
    assert [p["rank"] for p in listed] == list(range(1, 9))
    assert [p["name"] for p in listed] == [
        "?",  # a rating whose account row is missing keeps its place, unnamed
        "Player 5",
        "bot (heuristic)",
        "Player 4",
        "Player 3",
        "Player 2",
        "Player 1",
        "Player 0",
    ]
    assert [p["bot"] for p in listed] == [False, False, True, False, False, False, False, False]
    assert not any(p["provisional"] for p in listed)
    ordinals = [p["ordinal"] for p in listed]
    assert ordinals == sorted(ordinals, reverse=True)
    past = web.get("/api/ratings/space-race?provisional=false&limit=4&offset=8").json()
    assert past["players"] == [] and past["total"] == 8


def test_what_the_profile_and_leaderboard_routes_refuse(web: TestClient) -> None:
    sign_up(web, "Real Name")
    for name in ("Nobody", "x" * 101, "deleted player", "%00", "a%00b", "__", "%F0%9F%90%89"):
        r = web.get(f"/api/players/{name}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_player", name
    assert post(web, "/api/account/delete", {"password": PASSWORD}).status_code == 200
    r = web.get("/api/players/Real Name")  # a deleted account has no profile
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_player"
    for query in ("offset=-1", "limit=0", "limit=501", "provisional=maybe", "offset=x"):
        r = web.get(f"/api/ratings/space-race?{query}")
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request", query
    r = web.get("/api/ratings/no-such-game?provisional=false")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_game"


def test_the_pages_are_served_in_the_readers_language(web: TestClient) -> None:
    for path in (
        "/players/Anyone",
        "/players/Anne%20Marie",
        "/leaderboard",
        "/leaderboard/space-race",
    ):
        r = web.get(path, headers={"accept-language": "de"})
        assert r.status_code == 200 and '<html lang="de">' in r.text, path
