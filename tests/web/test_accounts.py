"""Accounts as their players use them: sign up and in with a password, the session cookie,
a signed-in player's seats (kept across devices, played only signed in), claiming a guest
seat by signing up at it, signing out here and everywhere, deleting the account."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from dragonlair.web import create_app
from tests.web.serverkit import config

ORIGIN = {"origin": "http://testserver"}  # what the browser adds to the pages' requests
PASSWORD = "a long enough secret"


@pytest.fixture
def app(db_url: str) -> Any:
    return create_app(config(db_url))


@pytest.fixture
def web(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


@contextlib.contextmanager
def device(web: TestClient) -> Iterator[TestClient]:
    """Another browser (its own cookies) on the same running server (not started again:
    a client's ``with`` would run the app's start-up and shutdown)."""
    yield TestClient(web.app)


def post(c: TestClient, path: str, body: dict[str, Any] | None = None) -> Any:
    return c.post(path, json=body or {}, headers=ORIGIN)


def sign_up(c: TestClient, name: str, **extra: Any) -> Any:
    r = post(c, "/api/account/signup", {"name": name, "password": PASSWORD, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def new_table(c: TestClient) -> dict[str, Any]:
    r = post(
        c,
        "/api/tables",
        {
            "game": "pebble-auction",
            "players": 2,
            "seats": [{"type": "human", "name": "Me"}, {"type": "open"}],
        },
    )
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def hello(c: TestClient, table: str, token: str) -> dict[str, Any]:
    """The first message the server sends a connection that says hello with ``token``."""
    with c.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": token})
        first: dict[str, Any] = ws.receive_json()
        return first


def test_sign_up_sets_a_server_side_session_cookie_and_sign_out_ends_it(web: TestClient) -> None:
    assert web.get("/api/account").json() == {"account": None}
    r = post(web, "/api/account/signup", {"name": "Anna Berg", "password": PASSWORD})
    assert r.status_code == 201, r.text
    cookie = r.headers["set-cookie"]
    assert "dl_session=" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Max-Age=" in cookie and "Path=/" in cookie
    me = web.get("/api/account").json()["account"]
    assert me["name"] == "Anna Berg"
    # the database keeps only the digest of the cookie's value
    token = web.cookies.get("dl_session")
    assert token and len(token) >= 40
    hub_engine = web.app.state.accounts.engine  # type: ignore[attr-defined]
    with hub_engine.connect() as conn:
        stored = [r[0] for r in conn.exec_driver_sql("SELECT digest FROM dl_sessions")]
    assert stored and token not in stored
    assert post(web, "/api/account/signout").json() == {"account": None}
    assert web.get("/api/account").json() == {"account": None}
    # signing in again with the name in another case
    r = post(web, "/api/account/signin", {"name": "anna BERG", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["account"]["name"] == "Anna Berg"


def test_bad_sign_ups_are_refused_and_change_nothing(web: TestClient) -> None:
    sign_up(web, "Bruno")
    with device(web) as other:
        for body, code in [
            ({"name": "bruno", "password": PASSWORD}, "name_taken"),
            ({"name": "ab", "password": PASSWORD}, "bad_name"),
            ({"name": "<script>", "password": PASSWORD}, "bad_name"),
            ({"name": "Deleted Player", "password": PASSWORD}, "bad_name"),
            ({"name": "Clara", "password": "short"}, "weak_password"),
            ({"name": "Clara Clarason", "password": "clara clarason"}, "weak_password"),
        ]:
            r = post(other, "/api/account/signup", body)
            assert r.json()["error"]["code"] == code, (body, r.text)
            assert "dl_session" not in r.headers.get("set-cookie", "")
        r = post(other, "/api/account/signup", {"name": "Clara", "password": PASSWORD, "x": 1})
        assert r.status_code == 422
        assert other.get("/api/account").json() == {"account": None}
        assert post(other, "/api/account/signout-everywhere").json()["error"]["code"] == (
            "not_signed_in"
        )


def test_a_signed_in_players_seat_is_played_only_signed_in(web: TestClient) -> None:
    sign_up(web, "Dora")
    t = new_table(web)
    tid, token = t["table"]["id"], t["seats"][0]["token"]
    assert hello(web, tid, token)["type"] == "welcome"
    # the same link on a device where Dora is not signed in
    with device(web) as elsewhere:
        first = hello(elsewhere, tid, token)
        assert first["type"] == "error" and first["code"] == "sign_in_required"
        r = post(elsewhere, "/api/account/signin", {"name": "Dora", "password": PASSWORD})
        assert r.status_code == 200
        assert hello(elsewhere, tid, token)["type"] == "welcome"
    # a guest's seat at the same table needs no account
    r = post(TestClient(web.app), f"/api/tables/{tid}/join", {"name": "Guest"})
    assert r.status_code == 200, r.text
    with device(web) as guest:
        assert hello(guest, tid, r.json()["seat"]["token"])["type"] == "welcome"


def test_signing_up_at_a_guest_seat_claims_it(web: TestClient) -> None:
    t = new_table(web)  # as a guest
    tid, token = t["table"]["id"], t["seats"][0]["token"]
    got = sign_up(web, "Emil", seats=[{"table": tid, "token": token}, {"table": tid, "token": "x"}])
    assert got["claimed"] == [{"table": tid, "seat": 0}]
    assert got["refused"][0]["code"] == "unauthorized"
    assert hello(web, tid, token)["type"] == "welcome"
    with device(web) as elsewhere:
        assert hello(elsewhere, tid, token)["code"] == "sign_in_required"
        # nor can another account take it over with the token
        sign_up(elsewhere, "Frida")
        r = post(elsewhere, "/api/account/claim", {"table": tid, "token": token})
        assert r.status_code == 409 and r.json()["error"]["code"] == "seat_claimed"
    # the claim survives a restart of the server (it is stored)
    stored = web.app.state.hub.store.load(tid)  # type: ignore[attr-defined]
    assert stored.seats[0].account == got["account"]["id"]


def test_sign_out_everywhere_ends_every_session_and_closes_its_seats(web: TestClient) -> None:
    sign_up(web, "Greta")
    t = new_table(web)
    tid, token = t["table"]["id"], t["seats"][0]["token"]
    with device(web) as phone:
        post(phone, "/api/account/signin", {"name": "Greta", "password": PASSWORD})
        assert phone.get("/api/account").json()["account"]["name"] == "Greta"
        with phone.websocket_connect(f"/ws/tables/{tid}", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "token": token})
            assert ws.receive_json()["type"] == "welcome"
            r = post(web, "/api/account/signout-everywhere")
            assert r.json() == {"account": None, "ended": 2}
            seen = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    seen.append(ws.receive_json())
            assert closed.value.code == 4401
            assert seen[-1]["code"] == "signed_out"
        assert phone.get("/api/account").json() == {"account": None}
        assert hello(phone, tid, token)["code"] == "sign_in_required"


def test_deleting_an_account_keeps_its_games_under_deleted_player(web: TestClient) -> None:
    got = sign_up(web, "Hanna")
    t = new_table(web)
    tid = t["table"]["id"]
    r = post(web, "/api/account/delete", {"password": "not the password"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_credentials"
    assert web.get("/api/account").json()["account"]["name"] == "Hanna"
    r = post(web, "/api/account/delete", {"password": PASSWORD})
    assert r.json() == {"account": None, "deleted": True}
    assert web.get("/api/account").json() == {"account": None}
    assert web.get(f"/api/tables/{tid}").json()["seats"][0]["name"] == "deleted player"
    engine = web.app.state.accounts.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        row = conn.exec_driver_sql(
            "SELECT name, name_key, password FROM dl_accounts WHERE id = ?"
            if engine.dialect.name == "sqlite"
            else "SELECT name, name_key, password FROM dl_accounts WHERE id = %s",
            (got["account"]["id"],),
        ).one()
        assert tuple(row) == ("deleted player", None, None)
        seat = conn.exec_driver_sql(
            "SELECT name FROM dl_seats WHERE table_id = "
            + ("?" if engine.dialect.name == "sqlite" else "%s"),
            (tid,),
        ).first()
        assert seat is not None and seat[0] == "deleted player"
        assert conn.exec_driver_sql("SELECT count(*) FROM dl_sessions").scalar() == 0
    r = post(web, "/api/account/signin", {"name": "Hanna", "password": PASSWORD})
    assert r.status_code == 401
    # the table is still there, its game intact
    assert web.get(f"/api/tables/{tid}").json()["status"] == "waiting"


def test_my_games_lists_the_accounts_seats_and_opens_them_without_a_link(
    web: TestClient,
) -> None:
    assert web.get("/api/account/games").json()["error"]["code"] == "not_signed_in"
    sign_up(web, "Ines")
    first = new_table(web)["table"]["id"]
    with device(web) as friend:
        second = new_table(friend)["table"]["id"]  # a guest's table Ines joins, signed in
    r = post(web, f"/api/tables/{second}/join", {"name": "Ines"})
    assert r.status_code == 200, r.text
    got = web.get("/api/account/games").json()
    assert got["total"] == 2
    assert [(g["table"], g["seat"], g["status"]) for g in got["games"]] == [
        (second, 1, "playing"),
        (first, 0, "waiting"),
    ]
    assert got["games"][0]["title"] and got["games"][0]["result"] is None
    assert web.get("/api/account/games?limit=1&offset=1").json()["games"][0]["table"] == first
    assert web.get("/api/account/games?limit=500").status_code == 422
    # on another device, signed in: the seat opens by its number, no token needed
    with device(web) as laptop:
        sign_in_first = hello(laptop, second, "x" * 10)
        assert sign_in_first["code"] == "unauthorized"
        with laptop.websocket_connect(f"/ws/tables/{second}", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "seat": 1})
            assert ws.receive_json()["code"] == "sign_in_required"
        post(laptop, "/api/account/signin", {"name": "Ines", "password": PASSWORD})
        for seat, code in [(0, "unauthorized"), (7, "unauthorized")]:
            with laptop.websocket_connect(f"/ws/tables/{second}", headers=ORIGIN) as ws:
                ws.send_json({"type": "hello", "seat": seat})
                assert ws.receive_json()["code"] == code  # not hers, not at the table
        with laptop.websocket_connect(f"/ws/tables/{second}", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "seat": 1, "token": "abc"})
            assert ws.receive_json()["type"] == "error"
        with laptop.websocket_connect(f"/ws/tables/{second}", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "seat": 1})
            welcome = ws.receive_json()
            assert welcome["type"] == "welcome" and welcome["seat"] == 1
    # another account lists nothing of hers
    with device(web) as other:
        sign_up(other, "Jakob")
        assert other.get("/api/account/games").json() == {"games": [], "total": 0}


def test_a_session_ended_by_another_process_closes_its_connections(db_url: str) -> None:
    """Several processes share the database: a sign-out on one (its session row deleted)
    is noticed by the others' recheck, which closes the seat's connection here."""
    with TestClient(create_app(config(db_url, session_recheck=0.2))) as web:
        sign_up(web, "Karla")
        t = new_table(web)
        tid, token = t["table"]["id"], t["seats"][0]["token"]
        with web.websocket_connect(f"/ws/tables/{tid}", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "token": token})
            assert ws.receive_json()["type"] == "welcome"
            engine = web.app.state.accounts.engine  # type: ignore[attr-defined]
            with engine.begin() as conn:  # what another process's sign-out does
                conn.exec_driver_sql("DELETE FROM dl_sessions")
            seen = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    seen.append(ws.receive_json())
            assert closed.value.code == 4401 and seen[-1]["code"] == "signed_out"
        assert web.get("/api/account").json() == {"account": None}
