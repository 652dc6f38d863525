"""Passkeys over the API with a software authenticator (tests/web/passkeykit.py): register
one signed in, sign in with it on another device, list and remove it; and every dishonest
answer refused with a clear error and nothing changed: a replayed assertion, the wrong
origin or RP id, another account's passkey, an expired or foreign challenge, a cloned
authenticator, a malformed answer."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dragonlair.web import create_app
from tests.web.passkeykit import SoftAuthenticator
from tests.web.serverkit import config
from tests.web.test_accounts import ORIGIN, PASSWORD, post, sign_up

PAGE = "http://testserver"  # the origin of the pages the test client plays


@pytest.fixture
def web(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(config(db_url))) as c:
        yield c


def register(c: TestClient, key: SoftAuthenticator, label: str = "my phone") -> Any:
    r = post(c, "/api/account/passkeys/options")
    assert r.status_code == 200, r.text
    got = r.json()
    answer = key.create(got["options"], PAGE)
    return post(
        c, "/api/account/passkeys", {"ticket": got["ticket"], "credential": answer, "label": label}
    )


def options(c: TestClient) -> dict[str, Any]:
    r = post(c, "/api/account/passkeys/signin/options")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def sign_in(c: TestClient, ticket: str, answer: dict[str, Any]) -> Any:
    return post(c, "/api/account/passkeys/signin", {"ticket": ticket, "credential": answer})


def code(r: Any) -> str:
    out: str = r.json()["error"]["code"]
    return out


def test_a_passkey_registered_signed_in_signs_in_on_another_device_and_is_removed(
    web: TestClient,
) -> None:
    me = sign_up(web, "Anna Berg")["account"]
    key = SoftAuthenticator()
    got = post(web, "/api/account/passkeys/options").json()
    opts = got["options"]
    assert opts["rp"]["id"] == "testserver" and opts["user"]["name"] == "Anna Berg"
    assert opts["authenticatorSelection"]["residentKey"] == "required"
    r = post(
        web,
        "/api/account/passkeys",
        {"ticket": got["ticket"], "credential": key.create(opts, PAGE), "label": "  my   phone "},
    )
    assert r.status_code == 201, r.text
    listed = web.get("/api/account/passkeys").json()["passkeys"]
    assert [(k["label"], k["used"]) for k in listed] == [("my phone", None)]
    # the next registration's options exclude it, so the browser does not make it twice
    again = post(web, "/api/account/passkeys/options").json()["options"]
    assert [c["id"] for c in again["excludeCredentials"]] == [listed[0]["id"]]

    phone = TestClient(web.app)  # another browser: no cookie, no name typed
    assert phone.get("/api/account").json() == {"account": None}
    o = options(phone)
    assert o["options"]["rpId"] == "testserver" and not o["options"].get("allowCredentials")
    r = sign_in(phone, o["ticket"], key.get(o["options"], PAGE))
    assert r.status_code == 200, r.text
    assert r.json()["account"] == me
    assert "dl_session=" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]
    assert phone.get("/api/account").json()["account"] == me
    assert phone.get("/api/account/passkeys").json()["passkeys"][0]["used"] is not None

    # removed: it signs nobody in any more
    r = post(phone, "/api/account/passkeys/remove", {"id": listed[0]["id"]})
    assert r.status_code == 200, r.text
    assert web.get("/api/account/passkeys").json()["passkeys"] == []
    o = options(TestClient(web.app))
    r = sign_in(TestClient(web.app), o["ticket"], key.get(o["options"], PAGE))
    assert r.status_code == 401 and code(r) == "unknown_passkey"


def test_a_replayed_assertion_is_refused(web: TestClient) -> None:
    sign_up(web, "Anna Berg")
    key = SoftAuthenticator()
    assert register(web, key).status_code == 201
    thief = TestClient(web.app)
    o = options(thief)
    answer = key.get(o["options"], PAGE)
    assert sign_in(TestClient(web.app), o["ticket"], answer).status_code == 200
    # the same answer again, with its ticket: the challenge was used
    r = sign_in(thief, o["ticket"], answer)
    assert r.status_code == 400 and code(r) == "passkey_expired"
    assert "used already or has expired" in r.json()["error"]["message"]
    # with a fresh ticket: the answer signs another challenge
    fresh = options(thief)
    r = sign_in(thief, fresh["ticket"], answer)
    assert r.status_code == 400 and code(r) == "passkey_refused"
    assert "challenge" in r.json()["error"]["message"].lower()
    assert thief.get("/api/account").json() == {"account": None}


def test_the_wrong_origin_or_rp_id_is_refused(web: TestClient) -> None:
    sign_up(web, "Anna Berg")
    key = SoftAuthenticator()
    # registering from another site's page, or for another RP id
    got = post(web, "/api/account/passkeys/options").json()
    r = post(
        web,
        "/api/account/passkeys",
        {"ticket": got["ticket"], "credential": key.create(got["options"], "https://evil.test")},
    )
    assert r.status_code == 400 and code(r) == "passkey_refused"
    assert "origin" in r.json()["error"]["message"].lower()
    got = post(web, "/api/account/passkeys/options").json()
    forged = copy.deepcopy(got["options"])
    forged["rp"]["id"] = "evil.test"
    r = post(
        web,
        "/api/account/passkeys",
        {"ticket": got["ticket"], "credential": key.create(forged, PAGE)},
    )
    assert r.status_code == 400 and code(r) == "passkey_refused"
    assert web.get("/api/account/passkeys").json()["passkeys"] == []
    # signing in: from another site's page, or for another RP id
    assert register(web, key).status_code == 201
    other = TestClient(web.app)
    o = options(other)
    r = sign_in(other, o["ticket"], key.get(o["options"], "https://evil.test"))
    assert r.status_code == 400 and code(r) == "passkey_refused"
    assert "origin" in r.json()["error"]["message"].lower()
    o = options(other)
    r = sign_in(other, o["ticket"], key.get(o["options"], PAGE, rp_id="evil.test"))
    assert r.status_code == 400 and code(r) == "passkey_refused"
    assert "rp id" in r.json()["error"]["message"].lower()
    assert other.get("/api/account").json() == {"account": None}


def test_another_accounts_passkey_is_refused(web: TestClient) -> None:
    anna_key = SoftAuthenticator()
    sign_up(web, "Anna Berg")
    assert register(web, anna_key).status_code == 201
    anna_id = web.get("/api/account/passkeys").json()["passkeys"][0]["id"]
    anna_ticket = post(web, "/api/account/passkeys/options").json()
    bob = TestClient(web.app)
    sign_up(bob, "Bob Stone")
    # Bob registers Anna's passkey as his: it is hers
    r = register(bob, anna_key)
    assert r.status_code == 409 and code(r) == "passkey_taken"
    # Bob answers the registration options Anna was given
    r = post(
        bob,
        "/api/account/passkeys",
        {
            "ticket": anna_ticket["ticket"],
            "credential": SoftAuthenticator().create(anna_ticket["options"], PAGE),
        },
    )
    assert r.status_code == 400 and code(r) == "passkey_expired"
    # Bob removes Anna's passkey: he has none by that id
    r = post(bob, "/api/account/passkeys/remove", {"id": anna_id})
    assert r.status_code == 404 and code(r) == "not_found"
    assert len(web.get("/api/account/passkeys").json()["passkeys"]) == 1
    # Anna's passkey, claiming to be Bob's account (its user handle): refused
    bob_key = SoftAuthenticator()
    assert register(bob, bob_key).status_code == 201
    stranger = TestClient(web.app)
    o = options(stranger)
    anna_key.user_handle = bob_key.user_handle
    r = sign_in(stranger, o["ticket"], anna_key.get(o["options"], PAGE))
    assert r.status_code == 400 and code(r) == "passkey_refused"
    assert "another account" in r.json()["error"]["message"]
    assert stranger.get("/api/account").json() == {"account": None}


def test_expired_challenges_and_cloned_authenticators_are_refused(web: TestClient) -> None:
    sign_up(web, "Anna Berg")
    key = SoftAuthenticator()
    assert register(web, key).status_code == 201
    passkeys = web.app.state.passkeys  # type: ignore[attr-defined]
    passkeys.challenge_seconds = 0.0
    o = options(web)
    r = sign_in(web, o["ticket"], key.get(o["options"], PAGE))
    assert r.status_code == 400 and code(r) == "passkey_expired"
    passkeys.challenge_seconds = 300.0
    # a copy of the authenticator whose count lags behind the original's
    clone = copy.deepcopy(key)
    o = options(web)
    key.sign_count += 5
    assert sign_in(web, o["ticket"], key.get(o["options"], PAGE)).status_code == 200
    o = options(web)
    r = sign_in(web, o["ticket"], clone.get(o["options"], PAGE))
    assert r.status_code == 400 and code(r) == "passkey_refused"
    assert "sign count" in r.json()["error"]["message"].lower()


def test_bad_passkey_requests_are_refused_and_change_nothing(web: TestClient) -> None:
    # a guest has no passkeys to list or add
    assert web.get("/api/account/passkeys").status_code == 401
    r = post(web, "/api/account/passkeys/options")
    assert r.status_code == 401 and code(r) == "not_signed_in"
    sign_up(web, "Anna Berg")
    got = post(web, "/api/account/passkeys/options").json()
    good = SoftAuthenticator().create(got["options"], PAGE)
    for bad in (
        {},
        {"id": "!!!", "response": {}},
        {**good, "response": {"clientDataJSON": "e30", "attestationObject": "AAAA"}},
        {**good, "id": "A" * 2000},
    ):
        got = post(web, "/api/account/passkeys/options").json()
        r = post(web, "/api/account/passkeys", {"ticket": got["ticket"], "credential": bad})
        assert r.status_code == 400 and code(r) == "passkey_refused", r.text
    r = post(web, "/api/account/passkeys", {"ticket": "nope", "credential": good})
    assert r.status_code == 400 and code(r) == "passkey_expired"
    r = post(web, "/api/account/passkeys", {"ticket": "x", "credential": good, "extra": 1})
    assert r.status_code == 422
    r = sign_in(TestClient(web.app), "nope", good)
    assert r.status_code == 400 and code(r) == "passkey_expired"
    assert web.get("/api/account/passkeys").json()["passkeys"] == []
    # a page of another site cannot start a ceremony (the same-origin check)
    r = web.post("/api/account/passkeys/options", json={}, headers={"origin": "https://e.test"})
    assert r.status_code == 403 and code(r) == "csrf"


def test_deleting_the_account_deletes_its_passkeys(web: TestClient) -> None:
    sign_up(web, "Anna Berg")
    key = SoftAuthenticator()
    assert register(web, key).status_code == 201
    r = post(web, "/api/account/delete", {"password": PASSWORD})
    assert r.status_code == 200, r.text
    o = options(web)
    r = sign_in(web, o["ticket"], key.get(o["options"], PAGE))
    assert r.status_code == 401 and code(r) == "unknown_passkey"
    assert web.get("/api/account").json() == {"account": None}
    assert ORIGIN["origin"] == PAGE
