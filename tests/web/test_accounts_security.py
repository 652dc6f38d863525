"""Attacks on accounts, each refused with a clear error and changing nothing: credential
stuffing within the rate limit, lock-outs a stranger would use against someone, session
fixation, cross-site request forgery, another player's session on a seat's WebSocket, a
signed-in player's seat token after sign-out, and enumeration of accounts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dragonlair.web import create_app
from dragonlair.web.accounts import limits
from tests.web.serverkit import config
from tests.web.test_accounts import ORIGIN, PASSWORD, hello, new_table, post, sign_up


@pytest.fixture
def web(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(config(sqlite_url))) as c:
        yield c


def browser(web: TestClient, address: str = "203.0.113.7") -> TestClient:
    """Another browser, at a client address of its own, on the same running server."""
    return TestClient(web.app, client=(address, 40000))


def sign_in(c: TestClient, name: str, password: str) -> Any:
    return post(c, "/api/account/signin", {"name": name, "password": password})


def test_credential_stuffing_from_one_address_runs_out_of_attempts(web: TestClient) -> None:
    sign_up(web, "Victim")
    attacker = browser(web, "198.51.100.1")
    codes = []
    for i in range(limits.ATTEMPTS + 5):
        r = sign_in(attacker, f"user{i}", f"leaked password {i}")
        codes.append(r.json()["error"]["code"])
        assert r.status_code in (401, 429)
    assert codes[: limits.ATTEMPTS] == ["bad_credentials"] * limits.ATTEMPTS
    assert set(codes[limits.ATTEMPTS :]) == {"rate_limited"}
    last = sign_in(attacker, "Victim", PASSWORD)
    assert last.status_code == 429 and "at most" in last.json()["error"]["message"]
    assert "dl_session" not in last.headers.get("set-cookie", "")
    # the player, from their own address, is not affected
    assert sign_in(browser(web, "192.0.2.50"), "Victim", PASSWORD).status_code == 200


def test_a_stranger_cannot_lock_someone_else_out(web: TestClient) -> None:
    sign_up(web, "Owner")
    stranger = browser(web, "198.51.100.2")
    for _ in range(limits.FAILURES):
        assert sign_in(stranger, "Owner", "a wrong guess!").status_code == 401
    r = sign_in(stranger, "Owner", PASSWORD)  # even the right password, from there
    assert r.status_code == 429 and r.json()["error"]["code"] == "locked"
    assert "elsewhere is not affected" in r.json()["error"]["message"]
    owner = browser(web, "192.0.2.60")
    assert sign_in(owner, "Owner", PASSWORD).status_code == 200
    # the owner's own wrong guess and then the right one: failures are cleared by it
    for _ in range(limits.FAILURES - 1):
        sign_in(owner, "Owner", "typo typo typo")
    assert sign_in(owner, "Owner", PASSWORD).status_code == 200
    assert sign_in(owner, "Owner", "typo typo typo").status_code == 401


def test_session_fixation_a_planted_cookie_signs_nobody_in(web: TestClient) -> None:
    sign_up(web, "Fixed")
    post(web, "/api/account/signout")
    victim = browser(web)
    planted = "attacker-chosen-value-0123456789abcdefghijklmnop"
    victim.cookies.set("dl_session", planted, domain="testserver.local")
    assert victim.get("/api/account").json() == {"account": None}
    assert sign_in(victim, "Fixed", PASSWORD).status_code == 200
    issued = victim.cookies.get("dl_session")
    assert issued and issued != planted
    attacker = browser(web, "198.51.100.3")
    attacker.cookies.set("dl_session", planted, domain="testserver.local")
    assert attacker.get("/api/account").json() == {"account": None}
    # a real session of the attacker's own planted before the victim signs in is ended
    # by the victim's sign-in, not carried over to the victim's account
    sign_up(attacker, "Attacker")
    own = attacker.cookies.get("dl_session")
    victim2 = browser(web, "192.0.2.70")
    victim2.cookies.set("dl_session", own, domain="testserver.local")
    assert sign_in(victim2, "Fixed", PASSWORD).status_code == 200
    assert victim2.cookies.get("dl_session") != own
    assert attacker.get("/api/account").json() == {"account": None}


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "https://evil.example"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
        {},  # a signed-in request with neither header
    ],
)
def test_cross_site_requests_are_refused(web: TestClient, headers: dict[str, str]) -> None:
    sign_up(web, "Target")
    for path, body in [
        ("/api/account/signout-everywhere", {}),
        ("/api/account/delete", {"password": PASSWORD}),
        ("/api/account/signout", {}),
        ("/api/tables", {"game": "pebble-auction", "players": 2}),
    ]:
        r = web.post(path, json=body, headers=headers)
        assert r.status_code == 403, (path, r.text)
        assert r.json()["error"]["code"] == "csrf"
    assert web.get("/api/account").json()["account"]["name"] == "Target"
    # the same requests from the server's own pages are served
    assert web.post("/api/account/signout", headers={"sec-fetch-site": "same-origin"}).json() == {
        "account": None
    }


def test_login_csrf_a_foreign_page_cannot_sign_a_browser_in(web: TestClient) -> None:
    sign_up(web, "Planter")
    victim = browser(web)
    r = victim.post(
        "/api/account/signin",
        json={"name": "Planter", "password": PASSWORD},
        headers={"origin": "https://evil.example"},
    )
    assert r.status_code == 403 and "dl_session" not in r.headers.get("set-cookie", "")


def test_another_players_session_does_not_open_a_seat(web: TestClient) -> None:
    sign_up(web, "Alice")
    t = new_table(web)
    tid, token = t["table"]["id"], t["seats"][0]["token"]
    mallory = browser(web, "198.51.100.4")
    sign_up(mallory, "Mallory")
    first = hello(mallory, tid, token)  # Alice's token, Mallory's session
    assert first["type"] == "error" and first["code"] == "sign_in_required"


def test_a_seat_token_after_sign_out_opens_nothing(web: TestClient) -> None:
    sign_up(web, "Leaver")
    t = new_table(web)
    tid, token = t["table"]["id"], t["seats"][0]["token"]
    old_cookie = web.cookies.get("dl_session")
    assert post(web, "/api/account/signout").status_code == 200
    assert hello(web, tid, token)["code"] == "sign_in_required"
    thief = browser(web, "198.51.100.5")
    thief.cookies.set(
        "dl_session", old_cookie, domain="testserver.local"
    )  # a copy of the ended session's cookie
    assert thief.get("/api/account").json() == {"account": None}
    assert hello(thief, tid, token)["code"] == "sign_in_required"


def test_sign_in_does_not_tell_which_names_have_accounts(web: TestClient) -> None:
    sign_up(web, "Existing")
    prober = browser(web, "198.51.100.6")
    wrong = sign_in(prober, "Existing", "not the password")
    missing = sign_in(prober, "Nobody Here", "not the password")
    assert wrong.status_code == missing.status_code == 401
    assert wrong.json() == missing.json()
    # sign-ups, which must say that a (public) name is taken, are budgeted per address
    codes = [
        post(prober, "/api/account/signup", {"name": "Existing", "password": PASSWORD}).json()[
            "error"
        ]["code"]
        for _ in range(limits.SIGNUPS + 2)
    ]
    assert codes[: limits.SIGNUPS] == ["name_taken"] * limits.SIGNUPS
    assert codes[limits.SIGNUPS :] == ["rate_limited", "rate_limited"]


def test_oversized_and_malformed_credentials_are_refused(web: TestClient) -> None:
    for body in [
        {"name": "x" * 101, "password": PASSWORD},
        {"name": "Someone", "password": "p" * 1001},
        {"name": "Someone"},
        {"name": 5, "password": PASSWORD},
    ]:
        r = web.post("/api/account/signin", json=body, headers=ORIGIN)
        assert r.status_code == 422, r.text
    web.cookies.set("dl_session", "x" * 5000, domain="testserver.local")
    assert web.get("/api/account").json() == {"account": None}
