"""Conceding (dragonlair.web.concede): the rule's results, a concession over the
WebSocket at two- and three-player tables (the game ends, or a bot plays the seat on and
it ranks last), refusals that change nothing, a concession kept over a restart, and the
ratings: a concession is a loss, an early one leaves the game unrated, and conceding to a
friend again and again is limited by the anti-farming rule."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select

from dragonlair.web import create_app
from dragonlair.web.concede import RATED_AFTER, adjusted, ended, ends
from dragonlair.web.ratings import FARM_LIMIT, current, rate_finished, rated_games_t
from dragonlair.web.store import Store, normalize_url
from tests.web.serverkit import config
from tests.web.test_accounts import ORIGIN, post, sign_up
from tests.web.test_ratings import person, rated_table, ratings_of

# --- the rule -----------------------------------------------------------------------------


def test_a_two_player_concession_ends_the_game_and_the_other_wins() -> None:
    assert ends(2, {0: 5}) and not ends(3, {0: 5}) and ends(3, {0: 5, 2: 9})
    r = ended(2, {1: 12})
    assert r["winners"] == [0] and r["ranks"] == [1, 2] and r["points"] == [0, 0]
    assert r["termination"] == "conceded" and r["reason"] == "seat 1 conceded"
    assert r["conceded"] == [[1, 12]] and "unrated" not in r
    # three players, two concede: the last one playing wins, the earliest concession last
    r = ended(3, {0: 20, 2: 11})
    assert r["winners"] == [1] and r["ranks"] == [2, 1, 3]
    assert r["conceded"] == [[2, 11], [0, 20]]


def test_an_early_concession_is_marked_unrated() -> None:
    assert "unrated" in ended(2, {0: RATED_AFTER - 1})
    assert "unrated" not in ended(2, {0: RATED_AFTER})


def test_the_conceding_seat_ranks_last_whatever_its_points() -> None:
    game = {"points": [90, 10, 40], "ranks": [1, 3, 2], "winners": [0], "reason": ""}
    r = adjusted(game, {0: 15})
    assert r["ranks"] == [3, 2, 1] and r["winners"] == [2] and r["points"] == [90, 10, 40]
    # a tie among the others stays a tie, and shares the win
    r = adjusted({"points": [5, 5, 9], "ranks": [2, 2, 1], "winners": [2]}, {2: 30})
    assert r["ranks"] == [1, 1, 3] and r["winners"] == [0, 1]
    assert adjusted(game, {}) == game  # nobody conceded: the game's own result


# --- over the WebSocket -------------------------------------------------------------------


def until(ws: Any, want: Any) -> dict[str, Any]:
    """The next message ``want`` accepts (the others are skipped)."""
    for _ in range(2000):
        m: dict[str, Any] = ws.receive_json()
        if want(m):
            return m
    raise AssertionError("the message never came")


def state(m: dict[str, Any]) -> bool:
    return bool(m["type"] == "state")


def error(m: dict[str, Any]) -> bool:
    return bool(m["type"] == "error")


def table(c: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"game": "pebble-auction", "players": len(seats), "seats": seats, **extra}
    r = post(c, "/api/tables", body)
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def play_until(ws: Any, seat: int, move: int, rng: random.Random) -> dict[str, Any]:
    """Play ``seat``'s turns at random (the others are bots) until the game reaches
    ``move``; the state then."""
    m = until(ws, state)
    while m["move"] < move:
        if m["legal"]:
            ws.send_json({"type": "act", "move": m["move"], "action": rng.choice(m["legal"])})
        m = until(ws, state)
    return m


@pytest.fixture
def web(sqlite_url: str) -> Any:
    with TestClient(create_app(config(sqlite_url))) as c:
        yield c


@pytest.mark.timeout(60)
def test_a_concession_at_two_ends_the_game_for_everyone_and_survives_a_restart(
    web: TestClient, sqlite_url: str
) -> None:
    created = table(web, [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bo"}])
    tid = created["table"]["id"]
    ann, bo = (s["token"] for s in created["seats"])
    with (
        web.websocket_connect(f"/ws/tables/{tid}") as a,
        web.websocket_connect(f"/ws/tables/{tid}") as b,
        web.websocket_connect(f"/ws/tables/{tid}") as watcher,
    ):
        a.send_json({"type": "hello", "token": ann})
        b.send_json({"type": "hello", "token": bo})
        watcher.send_json({"type": "hello", "token": created["watch"]["token"]})
        m = until(a, lambda m: state(m) and m["status"] == "playing")
        # a spectator and the wrong seat are refused, and nothing changes
        watcher.send_json({"type": "concede"})
        assert until(watcher, error)["code"] == "spectator"
        a.send_json({"type": "concede", "seat": 1})
        e = until(a, error)
        assert e["code"] == "wrong_seat" and "seat 1" in e["message"]
        info = web.get(f"/api/tables/{tid}").json()
        assert info["status"] == "playing" and [s["conceded"] for s in info["seats"]] == [
            None,
            None,
        ]
        assert web.get(f"/games/{tid}").status_code == 404  # not finished: no page
        # Bo gives up: Ann wins, and everyone is told the result
        b.send_json({"type": "concede"})
        for ws in (a, b, watcher):
            over = until(ws, lambda m: state(m) and m["status"] == "over")
            assert over["result"]["winners"] == [0] and over["result"]["ranks"] == [1, 2]
            assert over["legal"] == []
        assert over["result"]["conceded"] == [[1, m["move"]]]
        # nothing more is taken: the game is over
        b.send_json({"type": "concede"})
        assert until(b, error)["code"] == "game_over"
        a.send_json({"type": "act", "move": m["move"], "action": "pass"})
        assert until(a, error)["code"] == "game_over"
    info = web.get(f"/api/tables/{tid}").json()
    assert info["status"] == "over" and info["seats"][1]["conceded"] == m["move"]
    assert info["result"]["termination"] == "conceded"
    assert info["fairness"]["revealed"]["seed"] is not None  # the deal can be checked
    record = web.get(f"/api/tables/{tid}/record").json()
    assert len(record["actions"]) == m["move"]
    with TestClient(create_app(config(sqlite_url))) as again:  # a restart, the same store
        info2 = again.get(f"/api/tables/{tid}").json()
        assert info2["status"] == "over" and info2["result"] == info["result"]
        assert info2["seats"][1]["conceded"] == m["move"]


@pytest.mark.timeout(90)
def test_at_three_a_bot_plays_the_conceding_seat_on_and_it_ranks_last(web: TestClient) -> None:
    seats = [
        {"type": "human", "name": "Ann"},
        {"type": "bot", "level": "random"},
        {"type": "bot", "level": "random"},
    ]
    created = table(web, seats, takeover=None)  # no takeover bot: a stand-in plays
    tid, token = created["table"]["id"], created["seats"][0]["token"]
    rng = random.Random(5)
    with web.websocket_connect(f"/ws/tables/{tid}") as a:
        a.send_json({"type": "hello", "token": token})
        m = play_until(a, 0, 4, rng)
        a.send_json({"type": "concede"})
        told = until(a, lambda m: m["type"] == "seats" and m["seats"][0]["conceded"] is not None)
        conceded_at = told["seats"][0]["conceded"]
        assert conceded_at >= m["move"]  # (the bots may have moved meanwhile)
        a.send_json({"type": "concede"})
        assert until(a, error)["code"] == "already_conceded"
        # the game goes on without Ann: her seat is never asked of her again
        end = until(a, lambda m: (state(m) and m["status"] == "over") or error(m))
        assert end["type"] == "state", end
    with web.websocket_connect(f"/ws/tables/{tid}") as again:
        # back at the table: the bot played the seat in its own name, not "for you"
        again.send_json({"type": "hello", "token": token})
        seen = [again.receive_json()["type"] for _ in range(4)]
        assert seen[:2] == ["welcome", "state"] and "played_for_you" not in seen, seen
    info = web.get(f"/api/tables/{tid}").json()
    result = info["result"]
    assert result["ranks"][0] == 3 and 0 not in result["winners"]
    assert result["conceded"] == [[0, conceded_at]]
    assert result["termination"] == "deck"  # the game's own end, played out by the bots
    record = web.get(f"/api/tables/{tid}/record").json()
    # the seat went on being played after the concession (by the stand-in bot)
    assert any(s == 0 for s, _a in record["actions"][conceded_at:])


@pytest.mark.timeout(60)
def test_a_conceding_player_cannot_act_any_more(web: TestClient) -> None:
    seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bo"}]
    seats.append({"type": "bot", "level": "random"})
    created = table(web, seats)
    tid = created["table"]["id"]
    ann, bo = (s["token"] for s in created["seats"])
    with (
        web.websocket_connect(f"/ws/tables/{tid}") as a,
        web.websocket_connect(f"/ws/tables/{tid}") as b,
    ):
        a.send_json({"type": "hello", "token": ann})
        b.send_json({"type": "hello", "token": bo})
        first = until(a, lambda m: state(m) and m["status"] == "playing")
        a.send_json({"type": "sync", "since": 0})
        assert until(a, state)["legal"] == first["legal"] != []  # Ann is asked first
        a.send_json({"type": "concede"})
        after = until(a, state)  # from now on Ann is never asked anything
        assert after["legal"] == []
        a.send_json({"type": "sync", "since": 0})  # (not the sync made before, again)
        assert until(a, state)["legal"] == []
        a.send_json({"type": "act", "move": after["move"], "action": "pass"})
        e = until(a, error)
        assert e["code"] == "conceded", e
        assert web.get(f"/api/tables/{tid}").json()["status"] == "playing"


# --- ratings ------------------------------------------------------------------------------


@pytest.mark.timeout(120)
def test_a_rated_concession_is_a_loss_and_an_early_one_rates_nobody(
    web: TestClient, sqlite_url: str
) -> None:
    me = sign_up(web, "Dora")
    mine = f"a:{me['account']['id']}"
    seats = [{"type": "human", "name": "Dora"}, {"type": "bot", "level": "random"}]
    rated = {"rated": True}
    engine = create_engine(normalize_url(sqlite_url))

    def concede_at(move: int) -> str:
        created = table(web, seats, **rated)
        tid = created["table"]["id"]
        with web.websocket_connect(f"/ws/tables/{tid}", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
            play_until(ws, 0, move, random.Random(move))
            ws.send_json({"type": "concede"})
            until(ws, lambda m: state(m) and m["status"] == "over")
        return str(tid)

    def rated_rows(tid: str) -> list[Any]:
        with engine.connect() as conn:
            return list(
                conn.execute(select(rated_games_t).where(rated_games_t.c.table_id == tid)).all()
            )

    try:
        early = concede_at(1)
        info = web.get(f"/api/tables/{early}").json()
        assert "before move" in info["result"]["unrated"]
        time.sleep(0.2)  # the end is committed before the answer; nothing else follows
        assert rated_rows(early) == []
        with engine.connect() as conn:
            assert current(conn, "pebble-auction", [mine])[mine].games == 0
        late = concede_at(RATED_AFTER)
        assert "unrated" not in web.get(f"/api/tables/{late}").json()["result"]
        assert len(rated_rows(late)) == 1
        with engine.connect() as conn:
            r = current(conn, "pebble-auction", [mine, "bot:random"])
        assert r[mine].games == 1 and r[mine].mu < 25 < r["bot:random"].mu
    finally:
        engine.dispose()


def test_conceding_to_a_friend_again_and_again_is_limited_by_the_farming_rule(
    sqlite_url: str,
) -> None:
    """Bob concedes to Ann game after game: past FARM_LIMIT games a day they are recorded
    but move no rating."""
    store = Store(sqlite_url, on_finish=rate_finished)
    try:
        history = []
        for i in range(FARM_LIMIT + 2):
            tid = f"c{i}"
            store.create_table(rated_table(tid, [person(0, "ann"), person(1, "bob")])).result()
            result = ended(2, {1: RATED_AFTER + i})
            store.concede(tid, 1, RATED_AFTER + i, result, (5, None)).result(timeout=30)
            history.append(ratings_of(store, "a:ann", "a:bob"))
        assert history[0]["a:ann"].mu > 25 > history[0]["a:bob"].mu  # a loss for Bob
        assert history[FARM_LIMIT - 1] == history[FARM_LIMIT] == history[FARM_LIMIT + 1]
        with store.engine.connect() as conn:
            counted = [
                r[0]
                for r in conn.execute(
                    select(rated_games_t.c.counted).order_by(rated_games_t.c.finished)
                )
            ]
        assert counted == [True] * FARM_LIMIT + [False, False]
        # and an early concession is not even recorded
        store.create_table(rated_table("early", [person(0, "ann"), person(1, "cy")])).result()
        store.concede("early", 1, 2, ended(2, {1: 2}), (5, None)).result(timeout=30)
        assert ratings_of(store, "a:cy")["a:cy"].games == 0
    finally:
        store.close()


@pytest.mark.timeout(90)
def test_a_conceded_seat_stays_conceded_after_a_restart(sqlite_url: str) -> None:
    seats = [
        {"type": "human", "name": "Ann"},
        {"type": "human", "name": "Bo"},
        {"type": "bot", "level": "random"},
    ]
    with TestClient(create_app(config(sqlite_url))) as web:
        created = table(web, seats)
        tid = created["table"]["id"]
        ann, bo = (s["token"] for s in created["seats"])
        with web.websocket_connect(f"/ws/tables/{tid}") as a:
            a.send_json({"type": "hello", "token": ann})
            until(a, state)
            a.send_json({"type": "concede"})
            told = until(
                a, lambda m: m["type"] == "seats" and m["seats"][0]["conceded"] is not None
            )
            at = told["seats"][0]["conceded"]
    with TestClient(create_app(config(sqlite_url))) as web:  # the server restarts
        with (
            web.websocket_connect(f"/ws/tables/{tid}") as a,
            web.websocket_connect(f"/ws/tables/{tid}") as b,
        ):
            a.send_json({"type": "hello", "token": ann})
            welcome = until(a, lambda m: m["type"] == "welcome")
            assert welcome["table"]["seats"][0]["conceded"] == at
            a.send_json({"type": "act", "move": at, "action": "pass"})
            assert until(a, error)["code"] == "conceded"
            # Bo plays on against the bots to the end, and Ann's seat ranks last
            b.send_json({"type": "hello", "token": bo})
            rng = random.Random(2)
            m = until(b, state)
            while m["status"] != "over":
                if m["legal"]:
                    b.send_json(
                        {"type": "act", "move": m["move"], "action": rng.choice(m["legal"])}
                    )
                m = until(b, lambda m: state(m) or error(m))
                if m["type"] == "error":
                    m = until(b, state)
        result = web.get(f"/api/tables/{tid}").json()["result"]
        assert result["ranks"][0] == 3 and result["conceded"] == [[0, at]]
